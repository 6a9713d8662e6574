"""Throwaway PostgreSQL databases for tests and benchmarks."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from chatbot.store.db import Database, open_database


@contextmanager
def scratch_postgres(
    server_url: str, prefix: str = "prhub_test", template: str | None = None
) -> Iterator[str]:
    """The URL of a new database on the server of `server_url`, dropped afterwards: empty, created with a
    UTF-8 LC_CTYPE (pg_trgm makes no trigrams of Chinese text under the C locale), or a copy of the
    database named `template` (itself made here, so with the same locale), which nothing may be
    connected to."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    server = make_url(server_url).set(drivername="postgresql+psycopg")
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    source = template or "template0 ENCODING 'UTF8' LC_CTYPE 'C.UTF-8' LC_COLLATE 'C.UTF-8'"
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name} TEMPLATE {source}"))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


@contextmanager
def seeded_database(
    backend: str, server_url: str | None, directory: Path, seed: Callable[[Database], None], prefix: str
) -> Iterator[Database]:
    """A database on `backend` ("sqlite" in `directory`, or "postgresql" on the server of `server_url`)
    migrated and filled by `seed`: what a module-scoped fixture shares between its tests."""
    if backend == "sqlite":
        database = open_database(f"sqlite:///{directory / 'prhub.db'}")
        try:
            seed(database)
            yield database
        finally:
            database.dispose()
        return
    if not server_url:
        raise RuntimeError("PRHUB_TEST_REQUIRE_POSTGRES is set but PRHUB_TEST_POSTGRES_URL is not")
    with scratch_postgres(server_url, prefix) as url:
        database = open_database(url)
        try:
            seed(database)
            yield database
        finally:
            database.dispose()
