"""The Slack adapter running for real: bolt behind the bot's web app on a free port, the fake Slack Web
API on another, the written week of tests/reports/fixtures.py in the index (on SQLite and PostgreSQL).

Requests are signed like Slack signs them. Pacing and Retry-After wait on a FixedClock, so nothing
sleeps; `drain()` waits for the background answers, so a test can assert that something did not happen.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest
import requests

from adapters.slack.app import EVENTS_PATH, SlackAdapter, build_slack
from adapters.web.app import BackgroundServer, create_app
from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.config import Settings
from chatbot.store.db import Database
from tests.fakes.slack import (
    APP_TOKEN,
    BOT_TOKEN,
    SIGNING_SECRET,
    FakeSlack,
    command_body,
    event_body,
    interaction_body,
    signed,
)
from tests.reports.fixtures import SHANGHAI, seed

# How long a signed request waits for the app's acknowledgement. Slack allows 3 s; the tests do not
# time the app (a loaded CI box is slow), they check that acknowledging never waits for an answer.
REQUEST_TIMEOUT = 10.0

NOW = datetime(2026, 6, 24, 9, 0, tzinfo=SHANGHAI)  # Wednesday of 2026-W26: W25 (the fixture week) is over
PUBLIC_URL = "https://prhub.example.com"
JSON = "application/json"
FORM = "application/x-www-form-urlencoded"


def slack_settings(fake: FakeSlack, *, socket_mode: bool = False) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        language="zh",
        slack_bot_token=BOT_TOKEN,
        slack_signing_secret=SIGNING_SECRET,
        slack_app_token=APP_TOKEN if socket_mode else None,
        slack_api_url=fake.api_url,
    )


def make_bot(db: Database) -> ChatBot:
    return ChatBot(db, BotConfig(SHANGHAI, PUBLIC_URL), FixedClock(NOW), HeuristicAnalyzer().analyze)


@dataclass
class SlackHarness:
    fake: FakeSlack
    adapter: SlackAdapter
    bot: ChatBot
    url: str
    waits: FixedClock  # what pacing and Retry-After "slept"
    sent: list[requests.Response] = field(default_factory=list)

    def post(
        self, body: str, content_type: str, *, secret: str = SIGNING_SECRET, age: float = 0, retry: int = 0
    ) -> requests.Response:
        headers = signed(body, secret, age=age, content_type=content_type)
        # An idle keep-alive connection would keep waitress's loop, and so the fixture's teardown, waiting.
        headers["Connection"] = "close"
        if retry:
            headers |= {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
        response = requests.post(
            self.url + EVENTS_PATH, data=body.encode("utf-8"), headers=headers, timeout=REQUEST_TIMEOUT
        )
        self.sent.append(response)
        return response

    def event(self, event: dict[str, Any], event_id: str = "Ev1", **kwargs: Any) -> requests.Response:
        return self.post(event_body(event, event_id), JSON, **kwargs)

    def command(self, text: str, response: str = "cmd-1", **kwargs: Any) -> requests.Response:
        return self.post(command_body(text, self.fake.response_url(response), **kwargs), FORM)

    def interact(self, payload: dict[str, Any]) -> requests.Response:
        return self.post(interaction_body(payload), FORM)

    def drain(self) -> None:
        """Wait until every answer queued so far has been posted (or has failed)."""
        self.adapter.responder.close()


@pytest.fixture
def slack(db: Database) -> Iterator[SlackHarness]:
    seed(db)
    with FakeSlack() as fake:
        assert isinstance(fake, FakeSlack)
        bot = make_bot(db)
        waits = FixedClock(NOW)
        adapter = build_slack(slack_settings(fake), bot, db, bot.clock, waits=waits, jitter=lambda: 0.0)
        try:
            with BackgroundServer(create_app([adapter.mount])) as server:
                yield SlackHarness(fake, adapter, bot, server.url, waits)
        finally:
            adapter.stop()
