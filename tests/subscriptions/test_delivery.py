"""The push ledger: due or not, catch-up, exactly once, retries and gone channels, on both databases.
Senders here are recording doubles of the ChatSender port; the platform senders have their own tests."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.clock import FixedClock
from chatbot.commands import parse_command
from chatbot.models import Message, Reply
from chatbot.ports import ChannelGone, Destination, SendFailed
from chatbot.store.schema import DeliveryRow, SubscriptionEventRow, SubscriptionRow
from chatbot.subscriptions.delivery import PushContext, push_due
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService
from tests.reports.fixtures import REPO, seed

SUBSCRIBED = datetime(2026, 6, 17, 2, 0, tzinfo=UTC)  # Wednesday of 2026-W25
MONDAY_0900 = datetime(2026, 6, 22, 1, 0, tzinfo=UTC)  # Monday 09:00 Shanghai: the push of 2026-W25


class RecordingSender:
    def __init__(self, fail_with: list[Exception] | None = None) -> None:
        self.posts: list[tuple[Destination, Reply, str]] = []
        self.fail_with = fail_with or []
        self.lock = threading.Lock()

    def post(self, destination: Destination, reply: Reply, *, language: str, idempotency_key: str) -> str:
        with self.lock:
            if self.fail_with:
                raise self.fail_with.pop(0)
            self.posts.append((destination, reply, idempotency_key))
            return f"ts-{len(self.posts)}"

    def find_sent(self, destination: Destination, idempotency_key: str) -> str | None:
        return next((f"ts-{i}" for i, p in enumerate(self.posts, 1) if p[2] == idempotency_key), None)


def subscribe(db, text: str, channel: str = "C1") -> None:  # type: ignore[no-untyped-def]
    service = SubscriptionService(db, FixedClock(SUBSCRIBED), SubscriptionPolicy("Asia/Shanghai"))
    command = parse_command(text)
    assert command is not None
    service.execute(
        command, Message(text, platform="slack", channel=channel, workspace="T1", user="U1"), "zh"
    )


def push(db, sender, at: datetime):  # type: ignore[no-untyped-def]
    context = PushContext({"slack": sender}, HeuristicAnalyzer().analyze)
    return push_due(db, FixedClock(at), context, worker="w1")


def test_nothing_is_due_before_the_time_and_the_card_goes_out_once_after(db):
    seed(db)
    subscribe(db, "订阅 acme/widgets")
    sender = RecordingSender()
    assert push(db, sender, MONDAY_0900 - timedelta(seconds=1)).sent == 0
    report = push(db, sender, MONDAY_0900 + timedelta(minutes=5))
    assert (report.scheduled, report.sent) == (1, 1)
    [(destination, card, _key)] = sender.posts
    assert destination == Destination("slack", "T1", "C1")
    assert card.title == "acme/widgets 2026年第25周（06-15至06-21）周报"
    assert push(db, sender, MONDAY_0900 + timedelta(hours=3)).sent == 0  # never twice
    assert len(sender.posts) == 1


def test_a_push_late_by_less_than_48_hours_is_caught_up_and_later_is_skipped_with_a_reason(db):
    seed(db)
    subscribe(db, "订阅 acme/widgets", channel="C1")
    sender = RecordingSender()
    assert push(db, sender, MONDAY_0900 + timedelta(hours=47)).sent == 1
    subscribe(db, "订阅 acme/widgets", channel="C2")
    late = push(db, sender, MONDAY_0900 + timedelta(hours=49))
    # C2 subscribed before Monday too, but the bot only looked 49 hours later
    assert (late.sent, late.skipped) == (0, 1)
    with db.session() as session:
        skipped = session.scalar(select(DeliveryRow).where(DeliveryRow.state == "skipped"))
        assert skipped is not None and "late" in (skipped.last_error or "")


def test_filters_shape_the_card(db):
    seed(db)
    subscribe(db, "订阅 acme/widgets modules=megatron")
    sender = RecordingSender()
    push(db, sender, MONDAY_0900 + timedelta(minutes=5))
    text = sender.posts[0][1].plain_text()
    assert "#101" in text and "#102" not in text


def test_transient_failures_are_retried_with_backoff_and_sent_once(db):
    seed(db)
    subscribe(db, "订阅 acme/widgets")
    sender = RecordingSender(fail_with=[SendFailed("502"), SendFailed("429 storm")])
    at = MONDAY_0900 + timedelta(minutes=5)
    assert push(db, sender, at).failed == 1
    assert push(db, sender, at + timedelta(seconds=30)).sent == 0  # backing off
    assert push(db, sender, at + timedelta(minutes=2)).failed == 1
    assert push(db, sender, at + timedelta(minutes=10)).sent == 1
    assert len(sender.posts) == 1


def test_a_gone_channel_deactivates_the_subscription_and_is_audited(db):
    seed(db)
    subscribe(db, "订阅 acme/widgets")
    report = push(
        db, RecordingSender(fail_with=[ChannelGone("channel_not_found")]), MONDAY_0900 + timedelta(minutes=5)
    )
    assert report.gone == 1
    with db.session() as session:
        assert session.scalar(select(SubscriptionRow.active)) is False
        assert [e.action for e in session.scalars(select(SubscriptionEventRow))][-1] == "deactivated"


def test_a_send_left_in_flight_by_a_crash_is_settled_not_repeated(db):
    seed(db)
    subscribe(db, "订阅 acme/widgets")
    sender = RecordingSender()
    at = MONDAY_0900 + timedelta(minutes=5)
    push(db, sender, at)
    with db.session() as session:  # as if the worker died after posting, before recording it
        row = session.scalar(select(DeliveryRow))
        row.state, row.claimed_at, row.message_ref = "sending", at, None
    report = push(db, sender, at + timedelta(minutes=11))
    assert report.recovered == 1 and len(sender.posts) == 1


def test_two_workers_racing_deliver_each_card_once(db):
    seed(db)
    for n in range(30):
        subscribe(db, "订阅 acme/widgets", channel=f"C{n}")
    sender = RecordingSender()
    at = MONDAY_0900 + timedelta(minutes=5)
    context = PushContext({"slack": sender}, HeuristicAnalyzer().analyze)
    threads = [
        threading.Thread(target=push_due, args=(db, FixedClock(at), context, f"w{i}")) for i in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(d.channel for d, _, _ in sender.posts) == sorted(f"C{n}" for n in range(30))
    assert REPO in sender.posts[0][1].title
