"""Feishu over the long connection: lark's ws client on its own thread against a loopback server that
speaks the pbbp2 frame protocol; answers through lark's client to the fake Open API."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from adapters.feishu.app import FeishuAdapter, build_feishu
from chatbot.clock import FixedClock
from chatbot.messages import say
from chatbot.store.db import Database
from tests.adapters.feishu.conftest import APP_SECRET, NOW, feishu_settings, make_bot
from tests.fakes.feishu import FakeFeishu, FakeFeishuSocket, card_action, text_event
from tests.reports.fixtures import seed


@dataclass
class Connected:
    fake: FakeFeishu
    socket: FakeFeishuSocket
    adapter: FeishuAdapter


@pytest.fixture
def connected(db: Database) -> Iterator[Connected]:
    seed(db)
    with FakeFeishu(app_secret=APP_SECRET) as fake:
        assert isinstance(fake, FakeFeishu)
        socket = fake.open_socket()
        bot = make_bot(db)
        adapter = build_feishu(feishu_settings(fake, mode="ws"), bot, db, bot.clock, waits=FixedClock(NOW))
        adapter.start()
        try:
            socket.wait_connected()
            yield Connected(fake, socket, adapter)
        finally:
            adapter.stop()


def test_an_event_and_its_duplicate_are_acknowledged_and_answered_once(connected: Connected):
    payload = text_event("@_user_1 本周 widgets 有哪些风险？").payload("")
    frames = [connected.socket.push(payload), connected.socket.push(payload)]
    responses = connected.socket.wait_responses(2)
    assert [(r["message_id"], r["code"]) for r in responses] == [(frames[0], 200), (frames[1], 200)]
    assert all("biz_rt" in r["headers"] for r in responses)
    assert connected.adapter.wait_idle(5.0)
    [sent] = connected.fake.shown()
    assert (sent.kind, sent.reply_in_thread, sent.msg_type) == ("reply", True, "interactive")


def test_a_card_button_over_the_long_connection_answers_with_a_toast(connected: Connected):
    value = {"action": "report_risks", "value": "acme/widgets 2026-W25"}
    connected.socket.push(card_action(value, ""))
    [response] = connected.socket.wait_responses(1)
    assert response["code"] == 200
    result = json.loads(base64.b64decode(response["data"]))
    assert result["toast"]["content"] == say("feishu.toast.accepted", "zh")
    assert connected.adapter.wait_idle(5.0)
    [sent] = connected.fake.shown()
    assert (sent.target, sent.reply_in_thread) == ("om_card_1", True)


def test_the_client_pings_and_a_new_connection_can_start_once_it_has_stopped(
    connected: Connected, db: Database
):
    connected.socket.wait_until(lambda: connected.socket.pings >= 1)
    connected.adapter.stop()
    # lark's ws client runs on a loop of its module: the next one may only start once this one is gone.
    bot = make_bot(db)
    again = build_feishu(
        feishu_settings(connected.fake, mode="ws"), bot, db, bot.clock, waits=FixedClock(NOW)
    )
    again.start()
    try:
        connected.socket.wait_connected(count=2)
        connected.socket.push(text_event("@_user_1 帮助").payload(""))
        assert connected.socket.wait_responses(1)[0]["code"] == 200
        assert again.wait_idle(5.0)
        # Help is for the asker alone: a per-user card, the thinking card withdrawn.
        assert [(s.kind, s.content["header"]["title"]["content"]) for s in connected.fake.shown()] == [
            ("private", say("qa.help.title", "zh"))
        ]
    finally:
        again.stop()
