from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters.github.source import GitHubSource
from chatbot.clock import FixedClock
from chatbot.config import Settings
from tests.fakes.github import FakeGitHub


@pytest.fixture
def github(clock: FixedClock) -> Iterator[FakeGitHub]:
    with FakeGitHub(now=clock.now) as fake:
        assert isinstance(fake, FakeGitHub)
        yield fake


@pytest.fixture
def settings(github: FakeGitHub, database_url: str) -> Settings:
    return Settings(
        _env_file=None,
        database_url=database_url,
        github_token="test-token",
        github_api_url=github.url,
        github_retry_backoff=0,
        github_retries=3,
    )


@pytest.fixture
def source(settings: Settings) -> GitHubSource:
    return GitHubSource(settings)


@pytest.fixture
def cli_env(
    github: FakeGitHub, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    """The environment of a `prhub` command (in-process or a subprocess) against the fake GitHub."""
    monkeypatch.chdir(tmp_path)  # no developer .env is read
    return {
        "PATH": os.environ.get("PATH", ""),
        # a `prhub` subprocess imports the code under test, wherever the venv's editable install points
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        "PRHUB_DATABASE_URL": database_url,
        "GITHUB_TOKEN": "test-token",
        "GITHUB_API_URL": github.url,
        "GITHUB_RETRY_BACKOFF": "0",
        "PRHUB_TIMEZONE": "UTC",
        "PRHUB_ANALYZER": "heuristic",
        "OPENAI_API_KEY": "",
        "COLUMNS": "200",
    }
