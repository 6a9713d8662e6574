"""The Slack adapter in Socket Mode: `apps.connections.open` at the fake Web API hands out a loopback
WebSocket; an Events API envelope pushed there is acknowledged and answered in its thread."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from adapters.slack.app import build_slack
from chatbot.clock import FixedClock
from chatbot.store.db import Database
from tests.adapters.slack.conftest import NOW, make_bot, slack_settings
from tests.fakes.slack import FakeSlack, FakeSocketMode, event_body, mention
from tests.reports.fixtures import seed


@pytest.fixture
def fakes() -> Iterator[tuple[FakeSlack, FakeSocketMode]]:
    with FakeSlack() as fake, FakeSocketMode() as socket:
        assert isinstance(fake, FakeSlack)
        fake.socket_url = socket.url
        yield fake, socket


def test_an_event_over_the_socket_is_acknowledged_and_answered(
    db: Database, fakes: tuple[FakeSlack, FakeSocketMode]
):
    seed(db)
    fake, socket = fakes
    bot = make_bot(db)
    adapter = build_slack(
        slack_settings(fake, socket_mode=True), bot, db, bot.clock, waits=FixedClock(NOW), jitter=lambda: 0.0
    )
    assert adapter.mode == "socket"
    try:
        adapter.start()
        socket.wait_connected()
        # the fake accepts apps.connections.open only with the app-level token (xapp-…)
        assert len(fake.called("apps.connections.open", ok=True)) == 1
        envelope = {
            "envelope_id": "env-1",
            "type": "events_api",
            "accepts_response_payload": False,
            "retry_attempt": 0,
            "retry_reason": "",
            "payload": json.loads(event_body(mention("上周 widgets 有哪些风险？", ts="1750000000.000900"))),
        }
        socket.push(envelope)

        assert socket.acks.get(timeout=2) == {"envelope_id": "env-1"}
        (answer,) = fake.wait_for("chat.update")  # the thinking message, updated into the answer
        (thinking,) = fake.called("chat.postMessage", ok=True)
        assert answer.params["ts"] == thinking.answer["ts"]
        assert thinking.params["thread_ts"] == "1750000000.000900"
        assert "#102" in answer.params["text"]
    finally:
        socket.stop()  # Slack's end first: the client's close() otherwise waits out its blocked read
        adapter.stop()
