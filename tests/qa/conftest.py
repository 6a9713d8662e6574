"""The written fixture index, seeded once per module on each backend, and a bot over it at the fixed clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.models import Message
from chatbot.store.db import Database, open_database
from tests.conftest import POSTGRES_URL
from tests.qa.fixture_repo import SHANGHAI, VERL, fixture_clock, seed_fixture
from tests.scratch_db import scratch_postgres

PUBLIC_URL = "https://prhub.example.com"
# Channels as the tests name them: one subscribed to verl (its questions need not name the repo).
CHANNEL_REPOS = {"verl-channel": VERL}


def channel_repo(message: Message) -> str | None:
    return CHANNEL_REPOS.get(message.channel or "")


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def fixture_db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Database]:
    """The fixture index on SQLite and, when a cluster is configured, on a throwaway PostgreSQL database
    (one per test module: the questions only read, so they can share it)."""
    if request.param == "sqlite":
        database = open_database(f"sqlite:///{tmp_path_factory.mktemp('qa') / 'prhub.db'}")
        seed_fixture(database)
        yield database
        database.dispose()
        return
    if not POSTGRES_URL:
        pytest.fail("PRHUB_TEST_REQUIRE_POSTGRES is set but PRHUB_TEST_POSTGRES_URL is not")
    with scratch_postgres(POSTGRES_URL, "prhub_qa") as url:
        database = open_database(url)
        try:
            seed_fixture(database)
            yield database
        finally:
            database.dispose()


def make_bot(db: Database) -> ChatBot:
    return ChatBot(
        db,
        BotConfig(SHANGHAI, PUBLIC_URL),
        fixture_clock(),
        HeuristicAnalyzer().analyze,
        channel_repo=channel_repo,
    )


@pytest.fixture(scope="module")
def bot(fixture_db: Database) -> ChatBot:
    return make_bot(fixture_db)
