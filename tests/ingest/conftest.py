from __future__ import annotations

from collections.abc import Iterator

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
