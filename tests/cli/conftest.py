"""Fixtures of the CLI tests that run the LLM analyzer: one fake OpenAI server per module, and the
environment of a `prhub` pointed at it over the report fixtures' seeded repo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from chatbot.store.db import open_database
from tests.fakes.openai import FakeOpenAI
from tests.reports.fixtures import seed


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as started:
        assert isinstance(started, FakeOpenAI)
        yield started


@pytest.fixture
def llm_env(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: FakeOpenAI
) -> Iterator[dict[str, str]]:
    """The seeded database and the environment of a `prhub` that analyses with the fake model; the
    server's script is reset after the test."""
    monkeypatch.chdir(tmp_path)
    db = open_database(database_url)
    seed(db)
    db.dispose()
    yield {
        "PRHUB_DATABASE_URL": database_url,
        "PRHUB_TIMEZONE": "Asia/Shanghai",
        "COLUMNS": "200",
        "OPENAI_API_KEY": "test-key",
        "OPENAI_BASE_URL": server.base_url,
        "PRHUB_ANALYZER": "llm",
        "PRHUB_LLM_MAX_RETRIES": "0",
        "PRHUB_PUBLIC_URL": "",
        "PRHUB_LANGUAGE": "zh",
    }
    server.reset()
