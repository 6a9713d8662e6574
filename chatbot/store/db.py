"""Engines, sessions and schema upgrades for SQLite (the embedded default) and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
SQLITE_BUSY_TIMEOUT_MS = 10_000


def _json_dumps(value: Any) -> str:
    """JSON columns are written by orjson: analyses, PR files and reports are encoded three times faster
    than by the standard library (see docs/benchmarks.md), as compact UTF-8."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


# JSON columns are read by orjson too: a week's report decodes every PR's analysis.
_JSON = {"json_serializer": _json_dumps, "json_deserializer": orjson.loads}


def make_engine(url: str) -> Engine:
    """An engine for `url`. SQLite files get their folder created, WAL mode and a busy timeout, so a
    sync and a bot process can share one file; PostgreSQL URLs need the psycopg 3 driver."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}, **_JSON)
        event.listen(engine, "connect", _configure_sqlite)
        return engine
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() != "psycopg":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return create_engine(parsed, pool_pre_ping=True, **_JSON)


def _configure_sqlite(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def alembic_config(engine: Engine) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to `revision` (default: the newest). Safe to run at every start."""
    from alembic import command  # alembic and mako cost a second to import; most starts need neither

    command.upgrade(alembic_config(engine), revision)


def current_revision(engine: Engine) -> str | None:
    """The schema's revision as Alembic recorded it; None for an empty database."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.scalar(text("SELECT version_num FROM alembic_version"))


_REVISION = re.compile(r"^revision = [\"']([^\"']+)[\"']", re.MULTILINE)
_DOWN_REVISION = re.compile(r"^down_revision = [\"']([^\"']+)[\"']", re.MULTILINE)


@cache
def head_revision() -> str:
    """The newest migration shipped with this version of prhub: the one no other revises (the chain is
    linear), read from the migration files without importing Alembic."""
    revisions: set[str] = set()
    revised: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        revisions.update(_REVISION.findall(source))
        revised.update(_DOWN_REVISION.findall(source))
    (head,) = revisions - revised
    return head


class Database:
    """An engine plus a session factory; `open_database` upgrades the schema on first use."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed on success and rolled back on error, so nothing is half-written."""
        with self._sessions() as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    def dispose(self) -> None:
        self.engine.dispose()


def open_database(url: str, migrate: bool = True) -> Database:
    engine = make_engine(url)
    if migrate and current_revision(engine) != head_revision():
        upgrade(engine)
    return Database(engine)
