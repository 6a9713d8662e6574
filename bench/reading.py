"""Reading-claim card updates: a click on "I'll read it" to the updated card, through the real Slack
and Feishu adapters (bolt and lark behind the bot's waitress server) against the fake platforms.

    .venv/bin/python bench/reading.py [--clicks 100] [--postgres ADMIN_URL]

Each click is a signed `block_actions` request (Slack) or an encrypted `card.action.trigger` callback
(Feishu) from a new user on one of the written week's must-read PRs; the time is from sending the
request until the fake received the card's `chat.update` / message patch, the claims read back from
the database. Prints p50/p95/max per platform. Target (issue 14): p95 ≤ 300 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

from adapters.feishu.app import build_feishu  # noqa: E402
from adapters.feishu.card import render_card  # noqa: E402
from adapters.feishu.sender import Outgoing  # noqa: E402
from adapters.feishu.webhook import EVENTS_PATH as FEISHU_PATH  # noqa: E402
from adapters.slack.app import EVENTS_PATH as SLACK_PATH  # noqa: E402
from adapters.slack.app import build_slack  # noqa: E402
from adapters.slack.blocks import render_blocks  # noqa: E402
from adapters.web.app import BackgroundServer, create_app  # noqa: E402
from chatbot.analysis import HeuristicAnalyzer  # noqa: E402
from chatbot.bot import BotConfig, ChatBot  # noqa: E402
from chatbot.clock import FixedClock  # noqa: E402
from chatbot.models import Reply  # noqa: E402
from chatbot.store.db import Database, open_database  # noqa: E402
from chatbot.subscriptions.delivery import PushContext  # noqa: E402
from chatbot.team.cards import weekly_card  # noqa: E402
from chatbot.team.reading import CardOrigin  # noqa: E402
from tests.adapters.feishu.conftest import APP_SECRET, ENCRYPT_KEY, TOKEN, feishu_settings  # noqa: E402
from tests.adapters.slack.conftest import NOW, slack_settings  # noqa: E402
from tests.fakes.feishu import FakeFeishu, card_action, push  # noqa: E402
from tests.fakes.slack import FakeSlack, interaction_body, signed  # noqa: E402
from tests.reports.fixtures import REPO, SHANGHAI, seed  # noqa: E402
from tests.scratch_db import scratch_postgres  # noqa: E402

ORIGIN = CardOrigin(REPO, "2026-W25", "zh", SHANGHAI.key)
PRS = (101, 102, 103)
TARGET_MS = 300


def _bot(db: Database) -> ChatBot:
    return ChatBot(db, BotConfig(SHANGHAI), FixedClock(NOW), HeuristicAnalyzer().analyze)


def _card(db: Database) -> Reply:
    return weekly_card(db, ORIGIN, FixedClock(NOW), PushContext({}, HeuristicAnalyzer().analyze))


def _timed(clicks: int, send: Callable[[int], None], arrived: Callable[[], int]) -> list[float]:
    times = []
    for i in range(clicks):
        before = arrived()
        started = time.perf_counter()
        send(i)
        while arrived() <= before:
            time.sleep(0.0005)
        times.append((time.perf_counter() - started) * 1000)
    return times


def slack(db: Database, clicks: int) -> list[float]:
    with FakeSlack() as fake:
        assert isinstance(fake, FakeSlack)
        adapter = build_slack(slack_settings(fake), _bot(db), db, FixedClock(NOW), waits=FixedClock(NOW))
        try:
            # The card the clicks land on, posted by the bot (Slack updates only messages that exist).
            card = render_blocks(_card(db), language="zh", max_messages=1)[0]
            posted = adapter.bolt.client.chat_postMessage(
                channel="C1", text=card["text"], blocks=card["blocks"]
            )
            with BackgroundServer(create_app([adapter.mount])) as server:

                def send(i: int) -> None:
                    number = PRS[i % len(PRS)]
                    payload = {
                        "type": "block_actions",
                        "user": {"id": f"U{i}", "username": f"user{i}"},
                        "team": {"id": "T1"},
                        "channel": {"id": "C1"},
                        "message": {"ts": posted["ts"]},
                        "trigger_id": f"t{i}",
                        "actions": [
                            {
                                "action_id": f"team_claim:{number}",
                                "value": ORIGIN.value(number),
                                "action_ts": f"{i}.1",
                            }
                        ],
                    }
                    body = interaction_body(payload)
                    headers = signed(body, content_type="application/x-www-form-urlencoded")
                    requests.post(server.url + SLACK_PATH, data=body.encode(), headers=headers, timeout=5)

                return _timed(clicks, send, lambda: len(fake.called("chat.update", ok=True)))
        finally:
            adapter.stop()


def feishu(db: Database, clicks: int) -> list[float]:
    with FakeFeishu(app_secret=APP_SECRET) as fake:
        assert isinstance(fake, FakeFeishu)
        settings = feishu_settings(fake)
        adapter = build_feishu(settings, _bot(db), db, FixedClock(NOW), waits=FixedClock(NOW))
        try:
            # The card the clicks land on, sent by the bot (Feishu patches only the bot's own cards).
            message_id = adapter.sender.create(
                "oc_team", Outgoing.card(render_card(_card(db))), key="bench-card"
            )
            with BackgroundServer(create_app([adapter.mount])) as server:

                def send(i: int) -> None:
                    number = PRS[i % len(PRS)]
                    value = {"action": f"team_claim:{number}", "value": ORIGIN.value(number)}
                    payload = card_action(value, TOKEN, operator=f"ou_{i}", message_id=message_id)
                    push(server.url + FEISHU_PATH, payload, ENCRYPT_KEY, timestamp=NOW.timestamp())

                return _timed(clicks, send, lambda: len(fake.sent))
        finally:
            adapter.stop()


@contextlib.contextmanager
def database(admin_url: str | None) -> Iterator[str]:
    if admin_url:
        with scratch_postgres(admin_url) as url:
            yield url
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{folder}/reading.db"


def _figures(name: str, times: list[float]) -> str:
    p95 = statistics.quantiles(times, n=20)[18]
    return f"{name}: {len(times)} clicks, p50 {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {max(times):.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clicks", type=int, default=100)
    parser.add_argument("--postgres", help="an admin URL: run the index on a throwaway PostgreSQL database")
    args = parser.parse_args()
    for name, run in (("slack", slack), ("feishu", feishu)):
        with database(args.postgres) as url:
            db = open_database(url)
            seed(db)
            print(_figures(name, run(db, args.clicks)), json.dumps({"target_p95_ms": TARGET_MS}))
            db.dispose()


if __name__ == "__main__":
    main()
