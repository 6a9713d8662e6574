"""Shared fixtures: a database on every backend, a clock that never waits, and settings for tests."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy.engine import make_url

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


class MigratedDatabases:
    """A database per backend that the migrations brought to the newest revision, built on first use by
    `open_database` itself, once per test process (each xdist worker has its own), for tests to start
    from a copy of: running every migration again for each of ~900 `db` tests took ~0.15 s a test on
    SQLite and ~0.4 s on PostgreSQL."""

    def __init__(self, directory: Path, cleanup: ExitStack) -> None:
        self._directory = directory
        self._cleanup = cleanup
        self._sqlite: Path | None = None
        self._postgres: str | None = None

    def copy_sqlite(self, target: Path) -> None:
        if self._sqlite is None:
            path = self._directory / "prhub.db"
            open_database(f"sqlite:///{path}").dispose()
            assert not path.with_name("prhub.db-wal").exists(), "the migrated SQLite file is not whole"
            self._sqlite = path
        shutil.copyfile(self._sqlite, target)

    def postgres_template(self, server_url: str) -> str:
        """The name of the migrated PostgreSQL database (no connection to it is left open)."""
        if self._postgres is None:
            url = self._cleanup.enter_context(scratch_postgres(server_url, "prhub_migrated"))
            open_database(url).dispose()
            self._postgres = make_url(url).database
        assert self._postgres is not None
        return self._postgres


@pytest.fixture(scope="session")
def migrated_databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MigratedDatabases]:
    with ExitStack() as cleanup:
        yield MigratedDatabases(tmp_path_factory.mktemp("migrated"), cleanup)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(
    request: pytest.FixtureRequest, tmp_path: Path, migrated_databases: MigratedDatabases
) -> Iterator[str]:
    """A fresh database on each backend, a SQLite file or a new PostgreSQL database (UTF-8 LC_CTYPE:
    pg_trgm needs it for Chinese) dropped afterwards. It is empty, as a first run finds it, unless the
    test also uses `db`: then it is a copy of one the migrations already brought to the newest revision,
    which is what `db` would make of an empty one."""
    migrated = "db" in request.fixturenames
    if request.param == "sqlite":
        path = tmp_path / "prhub.db"
        if migrated:
            migrated_databases.copy_sqlite(path)
        yield f"sqlite:///{path}"
        return
    if not POSTGRES_URL:
        pytest.fail("PRHUB_TEST_REQUIRE_POSTGRES is set but PRHUB_TEST_POSTGRES_URL is not")
    template = migrated_databases.postgres_template(POSTGRES_URL) if migrated else None
    with scratch_postgres(POSTGRES_URL, template=template) as url:
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
