"""The push under faults, through the real platform clients to the fakes on 127.0.0.1: a worker process
killed with SIGKILL in the middle of 200 deliveries and restarted, two processes pushing the same 200
deliveries on one PostgreSQL database, and 429 storms. Each ends by counting the cards per channel.

Where a kill lands is made exact rather than left to timing: the fake Slack holds one `chat.postMessage`
open, before or after accepting it, and the test kills the worker while it waits for the answer.
Slack has no idempotency key and the app cannot read channel history (adapters/slack/push.py), so the
one window the ledger cannot close on Slack is "Slack accepted the post, the worker died before
recording it": that channel gets its card twice, and no other channel does.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from adapters.feishu.app import feishu_client
from adapters.feishu.sender import FeishuSender
from adapters.slack.push import SlackPushSender
from adapters.slack.sender import ChannelPacer, SlackSender, web_client
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.clock import FixedClock
from chatbot.commands import parse_command
from chatbot.models import Message
from chatbot.ports import ChatSender
from chatbot.store.db import Database
from chatbot.store.schema import DeliveryRow
from chatbot.subscriptions.delivery import STALE_CLAIM, PushContext, PushReport, push_due
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService
from tests.fakes.feishu import FakeFeishu
from tests.fakes.http import Request, Response
from tests.fakes.slack import BOT_TOKEN, FakeSlack
from tests.reports.fixtures import REPO, seed
from tests.subscriptions.test_delivery import MONDAY_0900, SUBSCRIBED

ROOT = Path(__file__).resolve().parents[2]
AT = MONDAY_0900 + timedelta(minutes=5)  # every push of the week is due (they spread over 3 minutes)
CHANNELS = [f"C{n:03d}" for n in range(200)]
POST = "/api/chat.postMessage"


class HoldingSlack(FakeSlack):
    """The fake Slack, able to keep the `nth` chat.postMessage open until `release` is set: unanswered
    (Slack never got to it) or already posted (the answer never reached the worker). It also keeps the
    most posts it had in flight at once: two means two single-threaded workers were posting together."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.held: dict[str, Any] | None = None  # the held post's parameters, once it is held
        self.in_flight = self.peak_in_flight = 0
        self._hold_at: int | None = None
        self._hold_accepted = False
        self._posts = 0

    def hold(self, nth: int, *, accepted: bool) -> None:
        """Hold the `nth` chat.postMessage, after posting it when `accepted`."""
        self._hold_at, self._hold_accepted = nth, accepted

    def wait_until(self, condition: Callable[[], bool], what: str, workers: list[Worker]) -> None:
        """Wait until `condition` holds; fail as soon as a worker exits before it does. There is no time
        limit of its own (a loaded machine may take long to start a worker): pytest-timeout ends a hang."""
        with self._changed:
            while not condition():
                if exited := [w for w in workers if w.process.poll() is not None]:
                    raise AssertionError(f"{what} never happened: {exited[0].log.read_text()}")
                self._changed.wait(1.0)  # then look at the workers again

    def handle(self, request: Request) -> Response:
        if request.path != POST:
            return super().handle(request)
        with self._changed:
            self._posts += 1
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            held = self._posts == self._hold_at
            self._changed.notify_all()
        try:
            if not held:
                return super().handle(request)
            response = super().handle(request) if self._hold_accepted else Response(503, b"never answered")
            with self._changed:
                self.held = request.json()
                self._changed.notify_all()
            self.release.wait()  # the test, or the fixture at the latest, sets it
            return response
        finally:
            with self._changed:
                self.in_flight -= 1
                self._changed.notify_all()


@pytest.fixture
def fake() -> Iterator[HoldingSlack]:
    with HoldingSlack() as fake:
        assert isinstance(fake, HoldingSlack)
        try:
            yield fake
        finally:
            fake.release.set()  # never leave a handler thread parked


def subscribe_all(db: Database, platform: str, channels: list[str]) -> None:
    """Each channel subscribes to the fixture repo (Mondays 09:00 Shanghai), the Wednesday before."""
    service = SubscriptionService(db, FixedClock(SUBSCRIBED), SubscriptionPolicy("Asia/Shanghai"))
    command = parse_command(f"订阅 {REPO}")
    assert command is not None
    for channel in channels:
        message = Message(f"订阅 {REPO}", platform=platform, channel=channel, workspace="T1", user="U1")
        service.execute(command, message, "zh")


@pytest.fixture
def fan_out(db: Database) -> Database:
    """200 Slack channels subscribed to the fixture repo, whose week is indexed."""
    seed(db)
    subscribe_all(db, "slack", CHANNELS)
    return db


def ledger(db: Database) -> Counter[str]:
    with db.session() as session:
        return Counter(session.scalars(select(DeliveryRow.state)))


def cards_per_channel(fake: FakeSlack) -> Counter[str]:
    return Counter(p["channel"] for p in fake.posted())


class Worker:
    """`tests/subscriptions/push_worker.py` in its own process, its log in a file (a full pipe would
    block it)."""

    def __init__(
        self, database_url: str, fake: FakeSlack, at_offset: timedelta, name: str, log: Path, go: bool = False
    ) -> None:
        self.log = log
        command = [sys.executable, "-m", "tests.subscriptions.push_worker", database_url, fake.api_url]
        command += [(AT + at_offset).isoformat(), name, *(["--wait-for-go"] if go else [])]
        with log.open("w") as stderr:
            self.process = subprocess.Popen(
                command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True
            )

    def ready(self) -> None:
        """Wait until the worker is imported and connected (it was started with `go=True`)."""
        assert self.process.stdout is not None
        assert self.process.stdout.readline() == "ready\n", self.log.read_text()

    def go(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def report(self) -> dict[str, Any]:
        """Wait for the worker to finish; its PushReport."""
        out, _ = self.process.communicate()
        assert self.process.returncode == 0, self.log.read_text()
        return json.loads(out.splitlines()[-1])

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.communicate()
        assert self.process.returncode == -signal.SIGKILL


def run_worker(database_url: str, fake: FakeSlack, at_offset: timedelta, tmp_path: Path) -> dict[str, Any]:
    name = f"w-{uuid.uuid4().hex[:6]}"
    return Worker(database_url, fake, at_offset, name, tmp_path / f"{name}.log").report()


# Kill -9 in the middle of the fan-out --------------------------------------------------------------------


def test_a_worker_killed_while_slack_holds_an_unaccepted_post_leaves_every_channel_exactly_one_card(
    fan_out: Database, database_url: str, fake: HoldingSlack, tmp_path: Path
) -> None:
    fake.hold(100, accepted=False)
    worker = Worker(database_url, fake, timedelta(0), "first", tmp_path / "first.log")
    fake.wait_until(lambda: fake.held is not None, "the 100th post", [worker])
    worker.kill()
    fake.release.set()
    assert len(fake.posted()) == 99
    assert ledger(fan_out) == {"sent": 99, "sending": 1, "pending": 100}

    # Restarted a minute later: the rest goes out, the claim of the dead worker is still honoured.
    assert run_worker(database_url, fake, timedelta(minutes=1), tmp_path)["sent"] == 100
    assert ledger(fan_out) == {"sent": 199, "sending": 1}
    assert fake.held is not None and fake.held["channel"] not in cards_per_channel(fake)

    # Once the claim is stale, the in-flight delivery is settled: Slack never accepted it, so it is sent.
    assert run_worker(database_url, fake, STALE_CLAIM + timedelta(minutes=1), tmp_path)["sent"] == 1
    assert ledger(fan_out) == {"sent": 200}
    assert cards_per_channel(fake) == Counter(CHANNELS)


def test_a_worker_killed_after_slack_accepted_a_post_it_had_not_recorded_finds_it_and_sends_it_once(
    fan_out: Database, database_url: str, fake: HoldingSlack, tmp_path: Path
) -> None:
    fake.hold(100, accepted=True)
    worker = Worker(database_url, fake, timedelta(0), "first", tmp_path / "first.log")
    fake.wait_until(lambda: fake.held is not None, "the 100th post", [worker])
    worker.kill()
    fake.release.set()
    assert len(fake.posted()) == 100
    assert ledger(fan_out) == {"sent": 99, "sending": 1, "pending": 100}

    report = run_worker(database_url, fake, STALE_CLAIM + timedelta(minutes=1), tmp_path)
    # the card found in the channel's history by its metadata key: recorded, not sent again
    assert (report["sent"], report["recovered"]) == (100, 1)
    assert ledger(fan_out) == {"sent": 200}
    assert cards_per_channel(fake) == Counter(CHANNELS)


# Two processes, one PostgreSQL database --------------------------------------------------------------------


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)
def test_two_processes_pushing_the_same_200_deliveries_on_postgresql_post_exactly_200_cards(
    fan_out: Database, database_url: str, fake: HoldingSlack, tmp_path: Path
) -> None:
    # The first post waits for a second one in flight: both processes are provably sending at once.
    fake.hold(1, accepted=True)
    workers = [
        Worker(database_url, fake, timedelta(0), name, tmp_path / f"{name}.log", go=True)
        for name in ("a", "b")
    ]
    for worker in workers:
        worker.ready()
    for worker in workers:
        worker.go()  # both schedule the same 200 deliveries, then race to claim them
    fake.wait_until(lambda: fake.peak_in_flight >= 2, "two posts in flight at once", workers)
    fake.release.set()
    reports = [worker.report() for worker in workers]
    assert all(r["sent"] >= 1 for r in reports) and sum(r["sent"] for r in reports) == 200
    assert sum(r["scheduled"] for r in reports) == 200
    assert cards_per_channel(fake) == Counter(CHANNELS)
    assert ledger(fan_out) == {"sent": 200}


# 429 storms ------------------------------------------------------------------------------------------------


def tick(db: Database, sender: ChatSender, platform: str, at_offset: timedelta) -> PushReport:
    context = PushContext({platform: sender}, HeuristicAnalyzer().analyze)
    return push_due(db, FixedClock(AT + at_offset), context, worker="w")


# A storm of 1,000 refusals: every post of the first tick is refused four times (once and three retries)
# and marked for a retry a minute later; the second tick spends the last 200 refusals on 50 deliveries
# and sends 150; the third, five minutes after, sends the last 50.
STORM, TICKS = 1000, (timedelta(0), timedelta(minutes=2), timedelta(minutes=8))


def test_a_429_storm_from_slack_is_waited_out_and_every_channel_gets_one_card(
    fan_out: Database, fake: HoldingSlack
) -> None:
    fake.rate_limit("chat.postMessage", retry_after=1, times=STORM)
    waits = FixedClock(AT)
    client = web_client(BOT_TOKEN, fake.api_url, waits, jitter=lambda: 0.0)
    sender = SlackPushSender(SlackSender(client, ChannelPacer(waits)))
    reports = [tick(fan_out, sender, "slack", offset) for offset in TICKS]
    assert [(r.sent, r.failed) for r in reports] == [(0, 200), (150, 50), (50, 0)]
    assert len(fake.called("chat.postMessage", ok=False)) == STORM
    assert cards_per_channel(fake) == Counter(CHANNELS)
    assert sum(waits.slept) == 750  # Retry-After: 1 before each of the 3 retries of 250 refused attempts


def test_a_429_storm_from_feishu_is_waited_out_and_every_chat_gets_one_card_without_leaning_on_the_uuid(
    db: Database,
) -> None:
    seed(db)
    chats = [f"oc_{n:03d}" for n in range(200)]
    subscribe_all(db, "feishu", chats)
    with FakeFeishu() as fake:
        assert isinstance(fake, FakeFeishu)
        fake.rate_limit(times=STORM, reset="1")
        app_id = f"cli_{uuid.uuid4().hex[:16]}"  # lark caches tenant tokens per app id, process-wide
        waits = FixedClock(AT)
        sender = FeishuSender(feishu_client(app_id, "secret", fake.url), app_id, waits)
        reports = [tick(db, sender, "feishu", offset) for offset in TICKS]
        sends = Counter(c.status for c in fake.calls if c.request.path == "/open-apis/im/v1/messages")
    assert [(r.sent, r.failed) for r in reports] == [(0, 200), (150, 50), (50, 0)]
    # 200 accepted sends, not more: no card was sent again and left for Feishu's uuid to swallow
    assert sends == {429: STORM, 200: 200}
    assert Counter(s.target for s in fake.sent) == Counter(chats)
