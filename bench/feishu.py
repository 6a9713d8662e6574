"""Feishu adapter benchmark: encrypted, signed message events fired at /feishu/events on the bot's web
app (waitress, 8 threads), answered through lark's client to the fake Open API on 127.0.0.1 (zero
latency). The index holds the written week of tests/reports/fixtures.py in a fresh SQLite file; no LLM.
The fake and the load generator run in child processes, so only the bot's own work is measured.

    .venv/bin/python bench/feishu.py                   # 200 events at once, 200 group chats, 20 pushed twice
    .venv/bin/python bench/feishu.py --rate 50         # the same events spread at 50 a second
    .venv/bin/python bench/feishu.py --pacing feishu   # with Feishu's send limits (50/s per app)
    .venv/bin/python bench/feishu.py --challenges      # url_verification only: the web server's ceiling

Prints p50/p95/max of the time to HTTP 200, to first visible feedback (the thinking card reaching the
fake) and to the answer shown (the thinking card patched into the answer card), the duplicate replies
(re-pushed events must be answered once) and the peak RSS of the bot process.
Targets (issues 7 and 15): p95 to 200 <= 100 ms, p95 to first feedback <= 300 ms, 0 duplicates.
`--pacing off` (the default) lifts the send limits to measure the adapter itself: with Feishu's, 200
replies at 50/s take 4 s whatever the adapter does.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import resource
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adapters.feishu.app import build_feishu  # noqa: E402
from adapters.feishu.sender import Pacer  # noqa: E402
from adapters.web.app import BackgroundServer, create_app  # noqa: E402
from chatbot.analysis import HeuristicAnalyzer  # noqa: E402
from chatbot.bot import BotConfig, ChatBot  # noqa: E402
from chatbot.clock import SystemClock  # noqa: E402
from chatbot.config import Settings  # noqa: E402
from chatbot.store.db import open_database  # noqa: E402
from tests.fakes.feishu import encrypt, push, signature, text_event, url_verification  # noqa: E402
from tests.reports.fixtures import seed  # noqa: E402

ENCRYPT_KEY, TOKEN, APP_SECRET = "bench-encrypt-key", "bench-verification-token", "bench-app-secret"
QUESTIONS = [
    "本周 widgets 有哪些风险？",
    "acme/widgets 2026-W25 有哪些风险？",
    "#101 讲了什么？",
    "帮助",
    "周报 widgets 2026-W25",
    "2026-W25 widgets 有哪些值得精读的 PR？",
    "what changed in rollout in acme/widgets 2026-W25?",
]
UNLIMITED = ((1_000_000, 1.0),)
Shot = tuple[float, float, int]  # began, done (time.monotonic()), HTTP status


def serve_fake(conn: mp.connection.Connection) -> None:
    """Child process: the fake Open API. Sends its URL, then answers each `(count, timeout)` with the
    sends received so far (replies, patches, per-user cards, recalls) as `(kind, target, message id,
    arrival time)`, once there are `count`."""
    from tests.fakes.feishu import FakeFeishu

    fake = FakeFeishu(app_secret=APP_SECRET)
    fake.start()
    conn.send(fake.url)
    while (command := conn.recv()) is not None:
        count, timeout = command
        try:
            sent = fake.wait_for_sent(count, timeout)
        except AssertionError:
            sent = list(fake.sent)
        conn.send([(s.kind, s.target, s.message_id, s.at) for s in sent])
    fake.stop()


def fire(
    address: tuple[str, int], requests: list[bytes], rate: float, conn: mp.connection.Connection
) -> None:
    """Child process: post each raw request on a new connection (as Feishu's pushes arrive), all at
    once or `rate` a second, from an asyncio client that costs microseconds a request, so the load
    neither competes with the bot for its interpreter nor queues up in the client. Sends the start
    time, then one Shot per request."""
    import asyncio

    async def shoot(raw: bytes, at: float) -> Shot:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        began = time.monotonic()
        reader, writer = await asyncio.open_connection(*address)
        writer.write(raw)
        await writer.drain()
        status = int((await reader.readline()).split()[1])
        await reader.read()
        writer.close()
        return began, time.monotonic(), status

    async def run() -> list[Shot]:
        start = time.monotonic() + 0.2  # every task created and waiting before the first fires
        conn.send(start)
        return list(
            await asyncio.gather(
                *(shoot(raw, start + (i / rate if rate else 0)) for i, raw in enumerate(requests))
            )
        )

    conn.send(asyncio.run(run()))


def raw_request(address: tuple[str, int], payload: dict[str, object]) -> bytes:
    """An event as Feishu posts it (encrypted, timestamped, signed), as bytes on the wire."""
    body = (
        encrypt(payload, ENCRYPT_KEY)
        if payload.get("type") != "url_verification"
        else json.dumps(payload).encode()
    )
    stamp, nonce = str(int(time.time())), uuid.uuid4().hex
    headers = [
        "POST /feishu/events HTTP/1.1",
        f"Host: {address[0]}:{address[1]}",
        "Content-Type: application/json; charset=utf-8",
        f"Content-Length: {len(body)}",
        f"X-Lark-Request-Timestamp: {stamp}",
        f"X-Lark-Request-Nonce: {nonce}",
        f"X-Lark-Signature: {signature(stamp, nonce, ENCRYPT_KEY, body)}",
        "Connection: close",
    ]
    return ("\r\n".join(headers) + "\r\n\r\n").encode() + body


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def spread(values: list[float]) -> str:
    return f"p50 {statistics.median(values):7.1f} ms  p95 {percentile(values, 0.95):7.1f} ms  max {max(values):7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument(
        "--repush", type=int, default=20, help="events pushed a second time (Feishu's retries)"
    )
    parser.add_argument("--rate", type=float, default=0, help="events a second (default: all at once)")
    parser.add_argument("--pacing", choices=["off", "feishu"], default="off", help="the sender's limits")
    parser.add_argument("--workers", type=int, default=8, help="answer worker threads")
    parser.add_argument(
        "--challenges",
        action="store_true",
        help="send url_verification requests instead: the web server's own ceiling, nothing to answer",
    )
    args = parser.parse_args()
    spawn = mp.get_context("spawn")

    to_fake, fake_end = mp.Pipe()
    fake = spawn.Process(target=serve_fake, args=(fake_end,), daemon=True)
    fake.start()
    fake_url = to_fake.recv()

    with tempfile.TemporaryDirectory() as folder:
        db = open_database(f"sqlite:///{folder}/prhub.db")
        seed(db)
        clock = SystemClock()
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            feishu_app_id=f"cli_bench_{uuid.uuid4().hex[:8]}",
            feishu_app_secret=APP_SECRET,
            feishu_encrypt_key=ENCRYPT_KEY,
            feishu_verification_token=TOKEN,
            feishu_domain=fake_url,
        )
        tz = ZoneInfo("Asia/Shanghai")
        bot = ChatBot(db, BotConfig(tz, "https://prhub.example.com"), clock, HeuristicAnalyzer().analyze)
        adapter = build_feishu(settings, bot, db, clock, workers=args.workers)
        if args.pacing == "off":
            adapter.sender.pacer = Pacer(clock, per_chat=UNLIMITED, per_app=UNLIMITED)
        adapter.check()
        with BackgroundServer(create_app([adapter.mount])) as server:
            address = ("127.0.0.1", server.port)
            # One answer first, outside the figures: the first report of the week is built and cached.
            push(f"{server.url}/feishu/events", text_event("@_user_1 帮助").payload(TOKEN), ENCRYPT_KEY)
            to_fake.send((3, 10.0))  # thinking card, the per-user help card, the thinking card withdrawn
            to_fake.recv()

            events = [
                text_event(f"@_user_1 {QUESTIONS[n % len(QUESTIONS)]}", chat_id=f"oc_bench_{n}")
                for n in range(args.events)
            ]
            payloads = [
                url_verification(e.event_id, TOKEN) if args.challenges else e.payload(TOKEN) for e in events
            ]
            requests = [raw_request(address, p) for p in payloads + payloads[: args.repush]]
            to_gun, gun_end = mp.Pipe()
            gun = spawn.Process(target=fire, args=(address, requests, args.rate, gun_end), daemon=True)
            gun.start()
            start = to_gun.recv()
            shots: list[Shot] = to_gun.recv()
            gun.join(5)
            to_fake.send((1 if args.challenges else 2 * args.events + 3, 60.0))
            to_fake.recv()
            adapter.wait_idle(30.0)
            to_fake.send((10**9, 0.5))  # and anything later: a duplicate would show up here
            replies = to_fake.recv()
            adapter.stop()
        db.dispose()
    to_fake.send(None)
    fake.join(5)

    index = {e.message_id: i for i, e in enumerate(events)}
    thinking: dict[str, int] = {}  # thinking card id -> event
    feedback: dict[int, float] = {}
    answered: dict[int, float] = {}
    duplicates = 0
    for kind, target, message_id, at in replies:
        if kind == "reply" and target in index:  # (the warm-up's are not)
            if index[target] in feedback:
                duplicates += 1
            else:
                feedback[index[target]], thinking[message_id] = at, index[target]
        elif kind == "patch" and target in thinking:
            answered.setdefault(thinking[target], at)
        elif kind == "private" and target.startswith("oc_bench_"):  # help: a card for the asker alone
            answered.setdefault(int(target.removeprefix("oc_bench_")), at)
    to_ack = [(done - began) * 1000 for began, done, _ in shots[: args.events]]
    to_feedback = [(at - shots[i][0]) * 1000 for i, at in feedback.items()]
    to_reply = [(at - shots[i][0]) * 1000 for i, at in answered.items()]

    how = f"at {args.rate:g}/s" if args.rate else "all at once"
    if args.challenges:
        how += ", url_verification only"
    print(
        f"{args.events} events {how} ({args.repush} pushed twice), {args.events} group chats, "
        f"pacing {args.pacing}, {args.workers} workers"
    )
    print(f"HTTP statuses: {dict(Counter(status for _, _, status in shots))}")
    print(f"time to HTTP 200:   {spread(to_ack)}   (target p95 <= 100 ms)")
    if to_feedback:
        print(f"time to first feedback: {spread(to_feedback)}   (target p95 <= 300 ms)")
    if to_reply:
        print(f"time to answer shown:   {spread(to_reply)}")
        print(
            f"last reply {max(answered.values()) - start:.2f} s after the first event; {len(answered)} answered"
        )
    print(f"duplicate replies: {duplicates}   (target 0)")
    print(f"peak RSS of the bot process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
