"""The PyGithub source's repo check, used when a channel subscribes to a repo that is not indexed."""

from __future__ import annotations

import pytest

from adapters.github.source import GitHubSource
from chatbot.config import Settings
from chatbot.ports import AuthenticationFailed
from tests.fakes.github import FakeGitHub


def test_repo_exists_asks_github():
    with FakeGitHub() as github:
        assert isinstance(github, FakeGitHub)
        github.add_repo("acme/widgets")
        settings = Settings(
            _env_file=None, github_token="test-token", github_api_url=github.url, github_retry_backoff=0
        )
        source = GitHubSource(settings)
        assert source.repo_exists("acme/widgets") is True
        assert source.repo_exists("acme/nope") is False
        with pytest.raises(AuthenticationFailed):
            GitHubSource(
                settings.model_copy(update={"github_token": settings.github_token.__class__("bad")})
            ).repo_exists("acme/widgets")
