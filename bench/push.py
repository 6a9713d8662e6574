"""Push benchmark: the Monday fan-out of 2,000 subscriptions, half in 500 Slack channels and half in 500
Feishu chats (each subscribed to two repos), all due at once as after a restart, delivered by
`push_due` through the real slack_sdk and lark clients to fakes on 127.0.0.1 that enforce the platforms'
limits and answer 429 beyond them: Slack 1 message a second per channel; Feishu 5 a second per chat,
50 a second and 1,000 a minute per app. The limits are strict sliding windows on arrival, the harshest
reading. The fakes run in child processes, so only prhub is measured.

    .venv/bin/python bench/push.py                                   # as prhub serve: 4 push threads
    .venv/bin/python bench/push.py --workers 1                       # one push thread
    .venv/bin/python bench/push.py --subscriptions 400               # a quick run
    .venv/bin/python bench/push.py --postgres "$(cat /tmp/devpg.url)"  # the ledger on PostgreSQL

Prints the time from the start of the push to the last card accepted, the theoretical minimum under
the limits (the busiest channel, chat or app sending in perfect bursts; Slack and Feishu in parallel),
their ratio (target <= 1.2), duplicate and lost cards (target 0 and 0) and the 429s received.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import math
import multiprocessing as mp
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fakes and fixtures live in tests/, which is not an installed package

from sqlalchemy import select  # noqa: E402

from adapters.feishu.app import feishu_client  # noqa: E402
from adapters.feishu.sender import PER_APP, PER_CHAT, FeishuSender, Pacer  # noqa: E402
from adapters.slack.push import SlackPushSender  # noqa: E402
from adapters.slack.sender import PER_CHANNEL_INTERVAL, ChannelPacer, SlackSender, web_client  # noqa: E402
from chatbot.analysis import HeuristicAnalyzer  # noqa: E402
from chatbot.clock import FixedClock, SystemClock  # noqa: E402
from chatbot.commands import parse_command  # noqa: E402
from chatbot.models import Message  # noqa: E402
from chatbot.store.analyses import save_analysis  # noqa: E402
from chatbot.store.db import Database, open_database  # noqa: E402
from chatbot.store.index import PRIndex  # noqa: E402
from chatbot.store.schema import DeliveryRow, PullRequestRow  # noqa: E402
from chatbot.subscriptions.delivery import PushContext, PushReport, push_due  # noqa: E402
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService  # noqa: E402
from scheduler.jobs import PUSH_THREADS  # noqa: E402
from tests.fakes.feishu import FakeFeishu  # noqa: E402
from tests.fakes.http import Request, Response  # noqa: E402
from tests.fakes.slack import BOT_TOKEN, FakeSlack  # noqa: E402
from tests.reports.fixtures import NEXT_WEEK, PREVIOUS_WEEK, WEEK, WEEK_START, pr  # noqa: E402
from tests.scratch_db import scratch_postgres  # noqa: E402

REPOS = ("acme/widgets", "acme/gadgets")  # every channel subscribes to both
SUBSCRIBED = datetime(2026, 6, 17, 2, 0, tzinfo=UTC)  # Wednesday of 2026-W25, the written week
# Monday 09:05 Shanghai, 5 minutes after the subscriptions' push time: every push is due at once.
AT = datetime(2026, 6, 22, 1, 5, tzinfo=UTC)
FEISHU_SECRET = "bench-app-secret"
Limit = tuple[int, float]  # at most this many messages in any window of this many seconds
SLACK_PER_CHANNEL: tuple[Limit, ...] = ((1, 1.0),)
FEISHU_PER_CHAT: tuple[Limit, ...] = ((5, 1.0),)
FEISHU_PER_APP: tuple[Limit, ...] = ((50, 1.0), (1000, 60.0))
TARGET_RATIO = 1.2


# The fakes, with the platforms' limits ---------------------------------------------------------------------


class Windows:
    """Sliding-window limits on arrivals, per key (a channel, a chat, the app): `wait` is how many
    seconds until one more message fits, `record` counts one that was let in."""

    def __init__(self, limits: tuple[Limit, ...]) -> None:
        self.limits = limits
        self.arrivals: dict[tuple[str, float], deque[float]] = defaultdict(deque)

    def wait(self, key: str, now: float) -> float:
        wait = 0.0
        for limit, period in self.limits:
            times = self.arrivals[key, period]
            while times and times[0] <= now - period:
                times.popleft()
            if len(times) >= limit:
                wait = max(wait, times[0] + period - now)
        return wait

    def record(self, key: str, now: float) -> None:
        for _, period in self.limits:
            self.arrivals[key, period].append(now)


class LimitedSlack(FakeSlack):
    """The fake Slack, answering `chat.postMessage` beyond 1 a second per channel with 429 and an
    integer Retry-After, as Slack does."""

    def __init__(self) -> None:
        super().__init__()
        self.per_channel = Windows(SLACK_PER_CHANNEL)
        self.refused = 0
        self._limits = threading.Lock()

    def handle(self, request: Request) -> Response:
        if request.path == "/api/chat.postMessage":
            channel = str(json.loads(request.body)["channel"])
            with self._limits:
                now = time.time()
                wait = self.per_channel.wait(channel, now)
                if wait > 0:
                    self.refused += 1
                    retry_after = str(max(1, math.ceil(wait)))
                    return Response(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": retry_after})
                self.per_channel.record(channel, now)
        return super().handle(request)


class LimitedFeishu(FakeFeishu):
    """The fake Feishu, answering message sends beyond 5 a second per chat (code 230020) or 50 a
    second or 1,000 a minute per app (code 99991400) with 429 and `x-ogw-ratelimit-reset`."""

    def __init__(self) -> None:
        super().__init__(app_secret=FEISHU_SECRET)
        self.per_chat, self.per_app = Windows(FEISHU_PER_CHAT), Windows(FEISHU_PER_APP)
        self.refused = 0
        self._limits = threading.Lock()

    def handle(self, request: Request) -> Response:
        if request.path == "/open-apis/im/v1/messages" and request.method == "POST":
            chat = str(request.json()["receive_id"])
            with self._limits:
                now = time.monotonic()
                chat_wait, app_wait = self.per_chat.wait(chat, now), self.per_app.wait("app", now)
                if chat_wait > 0 or app_wait > 0:
                    self.refused += 1
                    code = 99991400 if app_wait > 0 else 230020
                    reset = str(max(1, math.ceil(max(chat_wait, app_wait))))
                    return self._json(
                        429,
                        {"code": code, "msg": "request trigger frequency limit"},
                        {"x-ogw-ratelimit-reset": reset},
                    )
                self.per_chat.record(chat, now)
                self.per_app.record("app", now)
        return super().handle(request)


@dataclass(frozen=True)
class Received:
    """What a fake accepted: (channel, repo named in the card, arrival in seconds since the epoch)."""

    cards: list[tuple[str, str, float]]
    refused: int


def serve_fake(platform: str, conn: Connection) -> None:
    """Child process: one limited fake. Sends its base URL, then a `Received` on "collect"; "stop" ends."""
    fake: LimitedSlack | LimitedFeishu = LimitedSlack() if platform == "slack" else LimitedFeishu()
    fake.start()
    conn.send(fake.api_url if isinstance(fake, LimitedSlack) else fake.url)
    # Feishu stamps arrivals with time.monotonic(): shift them onto the wall clock the parent reads.
    offset = time.time() - time.monotonic()
    while conn.recv() == "collect":
        if isinstance(fake, LimitedSlack):
            cards = [
                (c.params["channel"], _repo(c.params["text"]), c.at)
                for c in fake.called("chat.postMessage", ok=True)
            ]
        else:
            cards = [
                (s.target, _repo(json.dumps(s.content, ensure_ascii=False)), s.at + offset) for s in fake.sent
            ]
        conn.send(Received(cards, fake.refused))
    fake.stop()


def _repo(card_text: str) -> str:
    return next((r for r in REPOS if r in card_text), "?")


# The ledger's side -----------------------------------------------------------------------------------------


@contextlib.contextmanager
def database(postgres: str | None) -> Iterator[str]:
    """A fresh SQLite file, or a throwaway PostgreSQL database created next to `postgres`."""
    if postgres is None:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/bench.db"
        return
    with scratch_postgres(postgres, "prhub_bench") as url:
        yield url


def seed_repos(db: Database) -> None:
    """The written week of tests/reports/fixtures.py, indexed under each repo name."""
    now = WEEK_START + timedelta(days=8)
    rows = WEEK + NEXT_WEEK + PREVIOUS_WEEK
    with db.session() as session:
        index = PRIndex(session)
        for name in REPOS:
            repo = index.ensure_repo(name, now)
            for number, title, merged, _ in rows:
                written = pr(number, title, merged)
                header = replace(
                    written.header, repo=name, html_url=f"https://github.com/{name}/pull/{number}"
                )
                index.upsert(repo, replace(written, header=header), now)
            session.flush()
            by_number = {r.number: r for r in session.query(PullRequestRow).filter_by(repo_id=repo.id)}
            for number, _, _, analysis in rows:
                save_analysis(
                    session,
                    by_number[number],
                    analysis,
                    analyzer="bench",
                    version="1",
                    language="zh",
                    now=now,
                )


def subscribe(db: Database, channels: dict[str, list[str]]) -> int:
    """Every channel of every platform subscribes to every repo, as a user would in chat."""
    service = SubscriptionService(db, FixedClock(SUBSCRIBED), SubscriptionPolicy("Asia/Shanghai"))
    count = 0
    for platform, names in channels.items():
        for channel in names:
            for repo in REPOS:
                command = parse_command(f"订阅 {repo}")
                assert command is not None
                message = Message(
                    f"订阅 {repo}", platform=platform, channel=channel, workspace="T1", user="U1"
                )
                service.execute(command, message, "zh")
                count += 1
    return count


def theoretical_minimum(channels: dict[str, list[str]]) -> dict[str, float]:
    """Seconds from the first card to the last if every channel, chat and app sent in perfect bursts at
    its limits: for n messages under "k per t seconds", (n - 1) // k * t."""

    def bound(n: int, limits: tuple[Limit, ...]) -> float:
        return max(((n - 1) // k) * t for k, t in limits) if n else 0.0

    per_channel = len(REPOS)
    slack = bound(per_channel, SLACK_PER_CHANNEL) if channels["slack"] else 0.0
    feishu_total = per_channel * len(channels["feishu"])
    feishu = (
        max(bound(per_channel, FEISHU_PER_CHAT), bound(feishu_total, FEISHU_PER_APP)) if feishu_total else 0.0
    )
    return {"slack": slack, "feishu": feishu}


def push(db: Database, slack_url: str, feishu_url: str, workers: int, margin: float) -> list[PushReport]:
    """`workers` threads each running push_due (as that many replicas' push ticks would), the senders
    pacing on the real clock, `margin` (a fraction) below their default pace."""
    clock = SystemClock()
    stretch = 1.0 + margin
    pacer = ChannelPacer(clock, PER_CHANNEL_INTERVAL * stretch)
    slack = SlackPushSender(SlackSender(web_client(BOT_TOKEN, slack_url, clock), pacer))
    app_id = f"cli_bench_{uuid.uuid4().hex[:8]}"
    per_chat = tuple((n, seconds * stretch) for n, seconds in PER_CHAT)
    per_app = tuple((n, seconds * stretch) for n, seconds in PER_APP)
    feishu = FeishuSender(
        feishu_client(app_id, FEISHU_SECRET, feishu_url), app_id, clock, Pacer(clock, per_chat, per_app)
    )
    context = PushContext({"slack": slack, "feishu": feishu}, HeuristicAnalyzer().analyze)
    reports: list[PushReport] = []

    def work(name: str) -> None:
        reports.append(push_due(db, FixedClock(AT), context, worker=name))

    threads = [threading.Thread(target=work, args=(f"bench-{i}",)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return reports


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--subscriptions",
        type=int,
        default=2000,
        help="a multiple of 4: half Slack, half Feishu (default 2000)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=PUSH_THREADS,
        help=f"push threads (default {PUSH_THREADS}, as a prhub serve push tick)",
    )
    parser.add_argument(
        "--pace-margin",
        type=float,
        default=0.0,
        help="pace this fraction below the senders' defaults, e.g. 0.05 (default 0: prhub's pacing)",
    )
    parser.add_argument("--postgres", help="an admin URL: run the ledger on a throwaway PostgreSQL database")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # each 429 logs a warning; the fakes count them instead
    per_platform = args.subscriptions // 2 // len(REPOS)
    channels = {
        "slack": [f"C{n:04d}" for n in range(per_platform)],
        "feishu": [f"oc_{n:04d}" for n in range(per_platform)],
    }

    fakes: dict[str, tuple[Connection, mp.Process, str]] = {}
    for platform in channels:
        conn, child = mp.Pipe()
        process = mp.Process(target=serve_fake, args=(platform, child), daemon=True)
        process.start()
        fakes[platform] = (conn, process, conn.recv())
    with database(args.postgres) as url:
        db = open_database(url)
        seed_repos(db)
        subscriptions = subscribe(db, channels)
        started = time.time()
        reports = push(db, fakes["slack"][2], fakes["feishu"][2], args.workers, args.pace_margin)
        finished = time.time()
        with db.session() as session:
            states = Counter(session.scalars(select(DeliveryRow.state)))
        db.dispose()
    received: dict[str, Received] = {}
    for platform, (conn, process, _) in fakes.items():
        conn.send("collect")
        received[platform] = conn.recv()
        conn.send("stop")
        process.join()

    expected = {(channel, repo) for names in channels.values() for channel in names for repo in REPOS}
    cards = Counter((channel, repo) for r in received.values() for channel, repo, _ in r.cards)
    duplicates = sum(n - 1 for n in cards.values() if n > 1)
    lost = len(expected - set(cards))
    last = {p: max((at for *_, at in r.cards), default=started) - started for p, r in received.items()}
    minimum = theoretical_minimum(channels)
    elapsed, bound = max(last.values()), max(minimum.values())
    ratio = elapsed / bound if bound else math.inf
    backend = "PostgreSQL" if args.postgres else "SQLite"
    sent = sum(r.sent for r in reports)
    print(
        f"push: {subscriptions} subscriptions ({per_platform} Slack channels and {per_platform} Feishu chats, "
        f"{len(REPOS)} repos each), {args.workers} worker(s), pacing {args.pace_margin:.0%} below the "
        f"senders' defaults, ledger on {backend}; "
        f"push_due returned after {finished - started:.2f} s"
    )
    deadline = started + TARGET_RATIO * bound
    print("| platform | cards | last card at (s) | theoretical minimum (s) | cards after the target | 429s |")
    print("|---|---|---|---|---|---|")
    for platform, r in received.items():
        late = sum(at > deadline for *_, at in r.cards)
        print(
            f"| {platform} | {len(r.cards)} | {last[platform]:.2f} | {minimum[platform]:.0f} | {late} "
            f"| {r.refused} |"
        )
    print(
        f"all delivered in {elapsed:.2f} s vs a theoretical minimum of {bound:.0f} s: {ratio:.2f}x "
        f"(target <= {TARGET_RATIO}x); duplicates {duplicates}, lost {lost}; sent {sent}, "
        f"ledger {dict(states)}"
    )
    ok = ratio <= TARGET_RATIO and duplicates == 0 and lost == 0
    print(f"targets (<= {TARGET_RATIO}x the minimum, 0 duplicates, 0 lost): " + ("met" if ok else "MISSED"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
