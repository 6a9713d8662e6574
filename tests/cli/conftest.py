"""Fixtures of the CLI tests that run the LLM analyzer: one fake OpenAI server per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.openai import FakeOpenAI


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as started:
        assert isinstance(started, FakeOpenAI)
        yield started
