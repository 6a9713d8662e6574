"""The Monday push through the real Slack client to the fake Web API: a card per channel, once; gone
channels deactivate; 429 storms are waited out (on a test clock) and delivered exactly once."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import select

from adapters.slack.push import SlackPushSender
from adapters.slack.sender import ChannelPacer, SlackSender, web_client
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.clock import FixedClock
from chatbot.models import Paragraph, Reply, plain
from chatbot.ports import Destination
from chatbot.store.schema import SubscriptionRow
from chatbot.subscriptions.delivery import PushContext, push_due
from tests.fakes.slack import BOT_TOKEN, FakeSlack
from tests.reports.fixtures import seed
from tests.subscriptions.test_delivery import MONDAY_0900, subscribe

AT = MONDAY_0900 + timedelta(minutes=5)


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        assert isinstance(fake, FakeSlack)
        yield fake


def context(fake: FakeSlack, waits: FixedClock) -> PushContext:
    client = web_client(BOT_TOKEN, fake.api_url, waits, jitter=lambda: 0.0)
    sender = SlackPushSender(SlackSender(client, ChannelPacer(waits)))
    return PushContext({"slack": sender}, HeuristicAnalyzer().analyze)


def test_every_subscribed_channel_gets_one_card(db, fake):
    seed(db)
    for n in range(5):
        subscribe(db, "订阅 acme/widgets", channel=f"C{n}")
    waits = FixedClock(AT)
    report = push_due(db, FixedClock(AT), context(fake, waits), worker="w")
    assert report.sent == 5
    posted = fake.posted()
    assert sorted(p["channel"] for p in posted) == [f"C{n}" for n in range(5)]
    assert all("2026年第25周" in p["text"] for p in posted)
    assert all(b["type"] != "header" or len(b["text"]["text"]) <= 150 for p in posted for b in p["blocks"])
    assert push_due(db, FixedClock(AT + timedelta(hours=1)), context(fake, waits), worker="w").sent == 0
    assert len(fake.posted()) == 5


def test_a_429_storm_is_waited_out_and_each_card_is_delivered_once(db, fake):
    seed(db)
    for n in range(3):
        subscribe(db, "订阅 acme/widgets", channel=f"C{n}")
    fake.rate_limit("chat.postMessage", retry_after=2, times=3)
    waits = FixedClock(AT)
    report = push_due(db, FixedClock(AT), context(fake, waits), worker="w")
    assert report.sent == 3 and sorted(p["channel"] for p in fake.posted()) == ["C0", "C1", "C2"]
    assert sum(waits.slept) >= 6  # three Retry-After waits of 2 s, on the test clock


def test_a_channel_that_is_gone_deactivates_its_subscription(db, fake):
    seed(db)
    subscribe(db, "订阅 acme/widgets", channel="CGONE")
    fake.fail("chat.postMessage", "channel_not_found")
    report = push_due(db, FixedClock(AT), context(fake, FixedClock(AT)), worker="w")
    assert report.gone == 1
    with db.session() as session:
        assert session.scalar(select(SubscriptionRow.active)) is False


def test_a_server_error_is_retried_later(db, fake):
    seed(db)
    subscribe(db, "订阅 acme/widgets")
    fake.server_error("chat.postMessage", status=503)
    waits = FixedClock(AT)
    assert push_due(db, FixedClock(AT), context(fake, waits), worker="w").failed == 1
    assert push_due(db, FixedClock(AT + timedelta(minutes=2)), context(fake, waits), worker="w").sent == 1
    assert len(fake.posted()) == 1


def test_a_card_is_found_by_its_metadata_and_not_sent_twice(db, fake):
    seed(db)
    subscribe(db, "订阅 acme/widgets")
    waits = FixedClock(AT)
    sender = context(fake, waits).senders["slack"]
    destination = Destination("slack", "T1", "C1")
    assert sender.find_sent(destination, "prhub-delivery-1") is None
    ts = sender.post(destination, report_reply(), language="zh", idempotency_key="prhub-delivery-1")
    assert sender.find_sent(destination, "prhub-delivery-1") == ts
    assert sender.find_sent(destination, "prhub-delivery-2") is None
    fake.fail("conversations.history", "missing_scope")
    assert sender.find_sent(destination, "prhub-delivery-1") is None  # cannot tell: the ledger sends again


def report_reply() -> Reply:
    return Reply((Paragraph((plain("card"),)),))
