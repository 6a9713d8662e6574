"""Slack adapter benchmark: a burst of signed `app_mention` events at `/slack/events` (real slack-bolt
behind the bot's waitress server), answered against the fake Slack Web API, no LLM.

    .venv/bin/python bench/slack.py                              # 200 events, 50 of them re-delivered
    .venv/bin/python bench/slack.py --postgres "$(cat /tmp/devpg.url)"  # the index on PostgreSQL

Each event asks about the written week of tests/reports/fixtures.py in its own channel (so per-channel
pacing never waits), a quarter of them also arrive a second time with `X-Slack-Retry-Num: 1` in the
same burst, as Slack's retries do. The fake Slack and the load generator run in child processes, so
the bot process is measured alone. Prints p50/p95/max time to ack (HTTP 200), to first visible feedback
(the thinking message: fake received chat.postMessage) and to the answer shown (chat.update of that
message), duplicate answers, apologies and the bot's peak RSS.
Targets (issues 6 and 15): p95 ack <= 100 ms, p95 first feedback <= 300 ms, 0 duplicates.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import logging
import multiprocessing as mp
import resource
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fakes and fixtures live in tests/, which is not an installed package


from adapters.slack.app import EVENTS_PATH, build_slack  # noqa: E402
from adapters.web.app import BackgroundServer, create_app  # noqa: E402
from chatbot.analysis import HeuristicAnalyzer  # noqa: E402
from chatbot.bot import BotConfig, ChatBot  # noqa: E402
from chatbot.clock import FixedClock  # noqa: E402
from chatbot.config import Settings  # noqa: E402
from chatbot.messages import say  # noqa: E402
from chatbot.store.db import open_database  # noqa: E402
from tests.fakes.slack import (  # noqa: E402
    BOT_TOKEN,
    SIGNING_SECRET,
    FakeSlack,
    event_body,
    mention,
    signed,
)
from tests.reports.fixtures import SHANGHAI, seed  # noqa: E402
from tests.scratch_db import scratch_postgres  # noqa: E402

NOW = datetime(2026, 6, 24, 9, 0, tzinfo=SHANGHAI)
QUESTIONS = ("上周 widgets 有哪些风险？", "#102 讲了什么？", "what changed in widgets last week?")
TARGET_ACK_MS, TARGET_FEEDBACK_MS = 100, 300


def serve_fake(conn: Connection) -> None:
    """Child process: the fake Slack. Commands: ("wait", n, timeout) → the successful chat.postMessage
    and chat.update calls as (method, channel, text, received at), once there are n updates (or at the
    timeout); "stop"."""
    with FakeSlack() as fake:
        assert isinstance(fake, FakeSlack)
        conn.send(fake.api_url)
        while (command := conn.recv()) != "stop":
            _, count, timeout = command
            with contextlib.suppress(AssertionError):  # reported as "answered n/N"
                fake.wait_for("chat.update", count, timeout=timeout)
            calls = [c for c in fake.called(ok=True) if c.method in ("chat.postMessage", "chat.update")]
            conn.send([(c.method, c.params["channel"], c.params["text"], c.at) for c in calls])


def fire(url: str, bodies: list[tuple[int, str, int]], rate: float, conn: Connection) -> None:
    """Child process: request k leaves at start + k / rate (all at start when rate is 0), each on its own
    thread and connection. http.client, not requests: the client's own CPU must not be what is
    measured. Sends back (event index, sent at, acked at, status)."""
    host, port = url.removeprefix("http://").split(":")
    results: list[tuple[int, float, float, int]] = []
    lock = threading.Lock()
    start = time.time() + 0.5  # every thread is waiting by then

    def one(k: int, index: int, body: str, retry: int) -> None:
        headers = signed(body, SIGNING_SECRET, content_type="application/json") | {"Connection": "close"}
        if retry:
            headers |= {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        time.sleep(max(0.0, start + (k / rate if rate else 0.0) - time.time()))
        sent = time.time()
        connection.request("POST", EVENTS_PATH, body=body.encode(), headers=headers)
        response = connection.getresponse()
        response.read()
        acked = time.time()
        connection.close()
        with lock:
            results.append((index, sent, acked, response.status))

    threads = [threading.Thread(target=one, args=(k, *body)) for k, body in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    conn.send(results)


@contextlib.contextmanager
def database(postgres: str | None) -> Iterator[str]:
    """A fresh SQLite file, or a throwaway PostgreSQL database created next to `postgres`."""
    if postgres is None:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/bench.db"
        return
    with scratch_postgres(postgres, "prhub_bench") as url:
        yield url


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=200, help="distinct mention events (default 200)")
    parser.add_argument(
        "--redeliver", type=int, default=4, help="re-send every Nth event as a retry (0: none)"
    )
    parser.add_argument("--workers", type=int, default=8, help="the adapter's answer workers (default 8)")
    parser.add_argument(
        "--rate", type=float, default=0, help="requests per second (default 0: all of them at once)"
    )
    parser.add_argument("--postgres", help="an admin URL: run the index on a throwaway PostgreSQL database")
    args = parser.parse_args(argv)
    # waitress warns on every queued request in a burst ("Task queue depth is N"): expected here
    logging.getLogger("waitress").setLevel(logging.ERROR)

    fake_conn, child = mp.Pipe()
    fake_process = mp.Process(target=serve_fake, args=(child,), daemon=True)
    fake_process.start()
    api_url = fake_conn.recv()
    with database(args.postgres) as url:
        db = open_database(url)
        seed(db)
        bot = ChatBot(
            db, BotConfig(SHANGHAI, "https://prhub.example.com"), FixedClock(NOW), HeuristicAnalyzer().analyze
        )
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            slack_bot_token=BOT_TOKEN,
            slack_signing_secret=SIGNING_SECRET,
            slack_api_url=api_url,
        )
        adapter = build_slack(settings, bot, db, bot.clock, workers=args.workers)
        before = resource.getrusage(resource.RUSAGE_SELF)
        run = uuid.uuid4().hex[:8]
        bodies = [
            (
                i,
                event_body(
                    mention(QUESTIONS[i % len(QUESTIONS)], channel=f"C{i}", ts=f"1750000000.{i:06d}"),
                    f"Ev{run}{i}",
                ),
                0,
            )
            for i in range(args.events)
        ]
        if args.redeliver:
            bodies += [(i, body, 1) for i, body, _ in bodies[:: args.redeliver]]
        with BackgroundServer(create_app([adapter.mount])) as server:
            load_conn, child = mp.Pipe()
            load = mp.Process(target=fire, args=(server.url, bodies, args.rate, child), daemon=True)
            load.start()
            requests_done = load_conn.recv()
            load.join()
            fake_conn.send(("wait", args.events, 60.0))
            posts = fake_conn.recv()
            adapter.stop()
        after = resource.getrusage(resource.RUSAGE_SELF)
        db.dispose()
    fake_conn.send("stop")
    fake_process.join()

    sent = {}
    for index, at, _, _ in requests_done:
        sent[index] = min(at, sent.get(index, at))
    acks = [(acked - at) * 1000 for _, at, acked, _ in requests_done]
    statuses = sorted({status for *_, status in requests_done})
    answered: dict[int, float] = {}
    feedback: dict[int, float] = {}
    duplicates = apologies = 0
    for method, channel, text_, at in posts:
        index = int(channel[1:])
        shown = feedback if method == "chat.postMessage" else answered
        if index in shown:
            duplicates += 1
        shown.setdefault(index, (at - sent[index]) * 1000)
        apologies += text_ == say("chat.apology", "zh")
    answers, firsts = list(answered.values()), list(feedback.values())
    backend = "PostgreSQL" if args.postgres else "SQLite"
    print(
        f"Slack adapter: {args.events} mention events + {len(bodies) - args.events} retries, "
        + (f"{args.rate:g} requests/s, " if args.rate else "all at once, ")
        + f"{args.workers} answer workers, index on {backend}, HTTP statuses {statuses}"
    )
    print("| figure | p50 | p95 | max |")
    print("|---|---|---|---|")
    print(
        f"| time to ack (ms) | {statistics.median(acks):.1f} | {percentile(acks, 0.95):.1f} | {max(acks):.1f} |"
    )
    for label, values in (("first visible feedback", firsts), ("answer shown", answers)):
        if values:
            print(
                f"| time to {label} (ms) | {statistics.median(values):.1f} | "
                f"{percentile(values, 0.95):.1f} | {max(values):.1f} |"
            )
    print(
        f"answered {len(answered)}/{args.events}, duplicate answers {duplicates}, apologies {apologies}, "
        f"peak RSS {after.ru_maxrss / 1024:.0f} MiB ({before.ru_maxrss / 1024:.0f} MiB before the burst)"
    )
    # One interpreter lock: the bot's CPU per event bounds how fast a burst can be answered.
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    print(f"bot CPU {cpu:.0f} ms in all, {cpu / args.events:.1f} ms per event (its acks and answer)")
    ok = (
        firsts
        and len(answered) == args.events
        and duplicates == 0
        and percentile(acks, 0.95) <= TARGET_ACK_MS
        and percentile(firsts, 0.95) <= TARGET_FEEDBACK_MS
    )
    print(
        "targets (p95 ack <= 100 ms, p95 first feedback <= 300 ms, 0 duplicates): "
        + ("met" if ok else "MISSED")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
