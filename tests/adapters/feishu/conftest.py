"""The Feishu adapter running for real: lark's dispatcher behind the bot's web app on a free port, lark's
client talking to the fake Open API on another, the written week of tests/reports/fixtures.py in the
index (on SQLite and PostgreSQL).

Events are encrypted and signed the way Feishu does it. Every test gets its own app id, because lark
caches tenant tokens per app id for the whole process. Pacing and rate-limit waits sleep on a
FixedClock, so nothing really waits; `wait_idle()` waits for the background answers, so a test can
assert that something did not happen.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
import requests

from adapters.feishu.app import FeishuAdapter, build_feishu
from adapters.feishu.webhook import EVENTS_PATH
from adapters.web.app import BackgroundServer, create_app
from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.config import Settings
from chatbot.store.db import Database
from tests.fakes.feishu import FakeFeishu, Sent, push
from tests.reports.fixtures import SHANGHAI, seed

NOW = datetime(2026, 6, 24, 9, 0, tzinfo=SHANGHAI)  # Wednesday of 2026-W26: W25 (the fixture week) is over
PUBLIC_URL = "https://prhub.example.com"
APP_SECRET = "feishu-app-secret"
ENCRYPT_KEY = "feishu-encrypt-key"
TOKEN = "feishu-verification-token"


def feishu_settings(fake: FakeFeishu, mode: str = "http") -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        language="zh",
        feishu_app_id=f"cli_{uuid.uuid4().hex[:16]}",
        feishu_app_secret=APP_SECRET,
        feishu_encrypt_key=ENCRYPT_KEY if mode == "http" else None,
        feishu_verification_token=TOKEN if mode == "http" else None,
        feishu_domain=fake.url,
        feishu_mode=mode,
    )


def make_bot(db: Database) -> ChatBot:
    return ChatBot(db, BotConfig(SHANGHAI, PUBLIC_URL), FixedClock(NOW), HeuristicAnalyzer().analyze)


@dataclass
class FeishuHarness:
    fake: FakeFeishu
    adapter: FeishuAdapter
    bot: ChatBot
    url: str
    waits: FixedClock  # what pacing and rate-limit waits "slept"

    def push(
        self, payload: dict[str, Any], *, age: timedelta = timedelta(0), **kwargs: Any
    ) -> requests.Response:
        """Deliver an event as Feishu does, stamped `age` before the bot's now."""
        return push(self.url + EVENTS_PATH, payload, ENCRYPT_KEY, timestamp=(NOW - age).timestamp(), **kwargs)

    def settle(self) -> None:
        """Wait until every answer queued so far has been sent (or has failed)."""
        assert self.adapter.wait_idle(5.0), "answers still running after 5 s"

    def shown(self) -> list[Sent]:
        """What the chats show once every queued answer is done: thinking cards patched into their
        answers, withdrawn ones gone, per-user cards included."""
        self.settle()
        return self.fake.shown()


@pytest.fixture
def feishu(db: Database) -> Iterator[FeishuHarness]:
    seed(db)
    with FakeFeishu(app_secret=APP_SECRET) as fake:
        assert isinstance(fake, FakeFeishu)
        bot = make_bot(db)
        waits = FixedClock(NOW)
        adapter = build_feishu(feishu_settings(fake), bot, db, bot.clock, waits=waits)
        try:
            with BackgroundServer(create_app([adapter.mount])) as server:
                yield FeishuHarness(fake, adapter, bot, server.url, waits)
        finally:
            adapter.stop()
