"""Streaming benchmark: questions at a steady rate to the Slack and the Feishu adapter with an LLM (the
fake OpenAI server streaming each summary as server-sent events at about 200 characters a second), the
fakes enforcing the streaming limits (Slack: Tier 2 starts and stops, Tier 4 appends per workspace;
CardKit: 10 updates a second per card, a strictly increasing sequence).

    .venv/bin/python bench/stream.py                     # 60 questions at 2 a second on each platform
    .venv/bin/python bench/stream.py --events 100 --rate 5

Each question is in a channel (chat) of its own, all in one workspace (app). The fakes run in a child
process, so the bot process is measured alone. Prints p50/p95/max time from the event's arrival to the
first visible feedback (the thinking message or card), to the first streamed text, and to the answer
shown (chat.update of the stream or the thinking message; the card entity updated or the thinking card
patched), how many answers streamed, and the rate-limit errors (HTTP 429) the fakes answered.
Targets (issue 15): p95 first feedback <= 300 ms; 0 rate-limit errors.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import logging
import multiprocessing as mp
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fakes and fixtures live in tests/, which is not an installed package

from adapters.feishu.app import build_feishu  # noqa: E402
from adapters.feishu.webhook import EVENTS_PATH as FEISHU_PATH  # noqa: E402
from adapters.llm.openai_client import LLMSettings, OpenAICompatibleLLM  # noqa: E402
from adapters.slack.app import EVENTS_PATH as SLACK_PATH  # noqa: E402
from adapters.slack.app import build_slack  # noqa: E402
from adapters.web.app import BackgroundServer, create_app  # noqa: E402
from chatbot.analysis import HeuristicAnalyzer  # noqa: E402
from chatbot.bot import BotConfig, ChatBot  # noqa: E402
from chatbot.clock import FixedClock, SystemClock  # noqa: E402
from chatbot.config import Settings  # noqa: E402
from chatbot.models import Message  # noqa: E402
from chatbot.qa.llm import LLMAnswerPhraser  # noqa: E402
from chatbot.store.db import open_database  # noqa: E402
from tests.fakes.feishu import FakeFeishu, encrypt, signature, text_event  # noqa: E402
from tests.fakes.openai import FakeOpenAI  # noqa: E402
from tests.fakes.slack import BOT_TOKEN, SIGNING_SECRET, FakeSlack, event_body, mention, signed  # noqa: E402
from tests.reports.fixtures import SHANGHAI, seed  # noqa: E402

NOW = datetime(2026, 6, 24, 9, 0, tzinfo=SHANGHAI)
QUESTIONS = ("上周 widgets 有哪些风险？", "what changed in widgets last week?", "上周 widgets 值得精读的 PR")
APP_SECRET, ENCRYPT_KEY, TOKEN = "bench-secret", "bench-encrypt-key", "bench-token"
PIECE_SECONDS = 0.02  # 4 characters a piece: about 200 characters a second, a brisk model
TARGET_FEEDBACK_MS = 300


def summary(body: dict[str, Any]) -> str | dict[str, str]:
    """A summary of about 200 characters citing the records' first PRs, one sentence each."""
    numbers = list(dict.fromkeys(re.findall(r"#(\d+)", body["messages"][-1]["content"])))[:4]
    english = "English" in body["messages"][0]["content"]
    text = "".join(
        (
            f"#{n} changes how the pipeline schedules its work, worth a look. "
            if english
            else f"#{n} 改变了流水线的调度方式，值得一看。"
        )
        for n in numbers
    ) + ("That is all for the week." if english else "本周就这些。")
    return text if body.get("stream") else {"text": text}


def serve_fakes(conn: Connection) -> None:
    """Child process: the fake Slack, Feishu and OpenAI. ("collect", platform, n, timeout) → per-channel
    timelines once n answers are shown (or at the timeout); "stop"."""
    with (
        FakeSlack() as slack,
        FakeFeishu(app_secret=APP_SECRET) as feishu,
        FakeOpenAI(answer=summary, piece_seconds=PIECE_SECONDS) as model,
    ):
        assert isinstance(slack, FakeSlack) and isinstance(feishu, FakeFeishu)
        assert isinstance(model, FakeOpenAI)
        slack.clock = feishu.clock = time.time  # the limits' windows, and the timelines below
        conn.send((slack.api_url, feishu.url, model.base_url))
        while (command := conn.recv()) != "stop":
            _, platform, count, timeout = command
            collect = slack_timelines if platform == "slack" else feishu_timelines
            deadline = time.time() + timeout
            while (found := collect(slack if platform == "slack" else feishu))[0] < count:
                if time.time() > deadline:
                    break
                time.sleep(0.2)  # polling the fakes' records from the benchmark, not a test
            conn.send(found)


Timelines = tuple[int, dict[str, dict[str, float]], int]


def slack_timelines(fake: FakeSlack) -> Timelines:
    """(answers shown, {channel: {feedback, text, answer}}, 429s) from the calls the fake Slack got."""
    lines: dict[str, dict[str, float]] = {}
    for call in fake.called():
        channel = str(call.params.get("channel", ""))
        line = lines.setdefault(channel, {})
        if call.ok and call.method in ("chat.postMessage", "chat.startStream"):
            line.setdefault("feedback", call.at)
        if call.ok and call.method == "chat.startStream":
            line.setdefault("text", call.at)
        if call.ok and call.method == "chat.update":
            line["answer"] = call.at
    limited = sum(1 for c in fake.called() if c.status == 429)
    return sum("answer" in line for line in lines.values()), lines, limited


def feishu_timelines(fake: FakeFeishu) -> Timelines:
    """The same from the fake Feishu: the thinking reply (its wall time), the card's first streamed text,
    and the card updated (or the thinking card patched)."""
    offset = time.time() - time.monotonic()  # Sent.at is monotonic; the card operations wall time
    lines: dict[str, dict[str, float]] = {}
    with fake._changed:
        sent, cards = list(fake.sent), dict(fake.cards)
    chat_of = {s.message_id: s.target for s in sent if s.kind == "reply"}
    for s in sent:
        chat = s.target if s.kind == "reply" else chat_of.get(s.target, "")
        line = lines.setdefault(chat, {})
        if s.kind == "reply":
            line.setdefault("feedback", s.at + offset)
            card_id = (s.content.get("data") or {}).get("card_id") if isinstance(s.content, dict) else None
            entity = cards.get(str(card_id))
            if entity is not None:
                texts = [op[2] for op in entity.operations if op[0] == "content"]
                updates = [op[2] for op in entity.operations if op[0] == "update"]
                if texts:
                    line["text"] = texts[0]
                if updates:
                    line["answer"] = updates[-1]
        elif s.kind == "patch":
            line["answer"] = s.at + offset
    limited = sum(1 for c in fake.calls if c.status == 429)
    return sum("answer" in line for line in lines.values()), lines, limited


def fire(send: Callable[[int], None], count: int, rate: float) -> None:
    """Request k leaves at start + k / rate, each on its own thread."""
    start = time.time() + 0.3

    def one(k: int) -> None:
        time.sleep(max(0.0, start + k / rate - time.time()))
        send(k)

    threads = [threading.Thread(target=one, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def post(url: str, path: str, body: bytes, headers: dict[str, str]) -> None:
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("POST", path, body=body, headers=headers | {"Connection": "close"})
    connection.getresponse().read()
    connection.close()


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(platform: str, sent: dict[str, float], found: Timelines, events: int) -> bool:
    answered, lines, limited = found
    print(
        f"\n{platform}: answered {answered}/{events}, streamed {sum('text' in line for line in lines.values())}"
    )
    print("| time from the event to… (ms) | p50 | p95 | max |")
    print("|---|---|---|---|")
    p95_feedback = float("inf")
    for key, label in (
        ("feedback", "first visible feedback"),
        ("text", "first streamed text"),
        ("answer", "answer shown"),
    ):
        values = [(line[key] - sent[c]) * 1000 for c, line in lines.items() if key in line and c in sent]
        if values:
            p95 = percentile(values, 0.95)
            p95_feedback = p95 if key == "feedback" else p95_feedback
            print(f"| {label} | {statistics.median(values):.0f} | {p95:.0f} | {max(values):.0f} |")
    print(f"rate-limit errors (HTTP 429 from the fake): {limited}")
    return p95_feedback <= TARGET_FEEDBACK_MS and limited == 0 and answered == events


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=60, help="questions per platform (default 60)")
    parser.add_argument("--rate", type=float, default=2.0, help="questions per second (default 2)")
    args = parser.parse_args(argv)
    logging.getLogger("waitress").setLevel(logging.ERROR)
    logging.getLogger("adapters").setLevel(logging.ERROR)

    conn, child = mp.Pipe()
    fakes = mp.Process(target=serve_fakes, args=(child,), daemon=True)
    fakes.start()
    slack_url, feishu_url, model_url = conn.recv()
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        db = open_database(f"sqlite:///{folder}/bench.db")
        seed(db)
        llm = OpenAICompatibleLLM(LLMSettings(api_key="test-key", base_url=model_url, max_retries=0))
        bot = ChatBot(
            db,
            BotConfig(SHANGHAI, "https://prhub.example.com"),
            FixedClock(NOW),
            HeuristicAnalyzer().analyze,
            phraser=LLMAnswerPhraser(llm),
        )
        for question in QUESTIONS:  # outside the figures: the week's report is built and cached once
            bot.handle(Message(question))
        print(
            f"{args.events} questions per platform at {args.rate:g}/s, one workspace/app, each in its own "
            f"channel; the model streams about {4 / PIECE_SECONDS:.0f} characters a second"
        )

        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            slack_bot_token=BOT_TOKEN,
            slack_signing_secret=SIGNING_SECRET,
            slack_api_url=slack_url,
        )
        slack = build_slack(settings, bot, db, SystemClock())  # requests are signed now
        sent: dict[str, float] = {}
        run = uuid.uuid4().hex[:8]
        with BackgroundServer(create_app([slack.mount])) as server:

            def ask_slack(k: int) -> None:
                event = mention(QUESTIONS[k % 3], channel=f"C{k}", ts=f"1750000000.{k:06d}")
                body = event_body(event, f"Ev{run}{k}")
                headers = signed(body, SIGNING_SECRET, content_type="application/json")
                sent[f"C{k}"] = time.time()
                post(server.url, SLACK_PATH, body.encode(), headers)

            fire(ask_slack, args.events, args.rate)
            conn.send(("collect", "slack", args.events, 120.0))
            found = conn.recv()
            slack.stop()
        ok = report("Slack (chat streaming)", sent, found, args.events) and ok

        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            feishu_app_id=f"cli_{uuid.uuid4().hex[:16]}",
            feishu_app_secret=APP_SECRET,
            feishu_encrypt_key=ENCRYPT_KEY,
            feishu_verification_token=TOKEN,
            feishu_domain=feishu_url,
        )
        feishu = build_feishu(settings, bot, db, SystemClock())
        feishu.check()
        sent = {}
        with BackgroundServer(create_app([feishu.mount])) as server:

            def ask_feishu(k: int) -> None:
                event = text_event(f"@_user_1 {QUESTIONS[k % 3]}", chat_id=f"oc_{k}")
                body = encrypt(event.payload(TOKEN), ENCRYPT_KEY)
                stamp, nonce = str(int(time.time())), uuid.uuid4().hex
                headers = {
                    "Content-Type": "application/json; charset=utf-8",
                    "X-Lark-Request-Timestamp": stamp,
                    "X-Lark-Request-Nonce": nonce,
                    "X-Lark-Signature": signature(stamp, nonce, ENCRYPT_KEY, body),
                }
                sent[event.message_id] = time.time()
                post(server.url, FEISHU_PATH, body, headers)

            fire(ask_feishu, args.events, args.rate)
            conn.send(("collect", "feishu", args.events, 120.0))
            found = conn.recv()
            feishu.stop()
        ok = report("Feishu (CardKit streaming cards)", sent, found, args.events) and ok
        db.dispose()
    conn.send("stop")
    fakes.join(timeout=10)
    print(
        f"\ntargets (p95 first feedback <= {TARGET_FEEDBACK_MS} ms, 0 rate-limit errors): "
        + ("met" if ok else "MISSED")
    )
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        raise SystemExit(main())
