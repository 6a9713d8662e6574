"""Shared fixtures: a database on every backend, a clock that never waits, and settings for tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import settings

from chatbot.clock import FixedClock
from chatbot.store.db import Database, open_database
from tests.scratch_db import scratch_postgres

POSTGRES_URL = os.environ.get("PRHUB_TEST_POSTGRES_URL")
REQUIRE_POSTGRES = os.environ.get("PRHUB_TEST_REQUIRE_POSTGRES") == "1"
SHARED_DATA = Path(
    os.environ.get("PRHUB_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)

# Property tests check what holds, never how fast: no per-example deadline (Hypothesis's 200 ms default
# failed a window property at 282 ms on a loaded box).
settings.register_profile("prhub", deadline=None)
settings.load_profile("prhub")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if POSTGRES_URL or REQUIRE_POSTGRES:
        return
    skip = pytest.mark.skip(reason="PRHUB_TEST_POSTGRES_URL is not set (make test starts a cluster)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database on each backend: a SQLite file, or a new PostgreSQL database created
    with a UTF-8 LC_CTYPE (pg_trgm needs it for Chinese) and dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'prhub.db'}"
        return
    if not POSTGRES_URL:
        pytest.fail("PRHUB_TEST_REQUIRE_POSTGRES is set but PRHUB_TEST_POSTGRES_URL is not")
    with scratch_postgres(POSTGRES_URL) as url:
        yield url


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def clock() -> FixedClock:
    """Starts at the real time so that fake servers' rate-limit resets line up; never really sleeps."""
    return FixedClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
def shared_data() -> Path:
    path = SHARED_DATA / "verl-pulls.jsonl.gz"
    if not path.exists():
        pytest.skip(f"{path} is absent (real PR data is optional)")
    return path
