"""The analyzer's own stock wording is no evidence of what a PR is about: #5158 of sgl-project/sglang
(tests/qa/sept_repos.py) adds an NPU backend, and its analysis says the file "runs only on particular
hardware, which a CI without it never executes"; it is no CI change. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.models import Message
from tests.conftest import POSTGRES_URL
from tests.qa.sept_repos import SGLANG, SHANGHAI, clock, seed
from tests.scratch_db import seeded_database


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def bot(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChatBot]:
    directory = tmp_path_factory.mktemp("stock")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_stock") as database:
        yield ChatBot(
            database, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: SGLANG
        )


def ask(bot: ChatBot, question: str) -> tuple[int, ...]:
    return bot.handle(Message(question, platform="slack", channel="sglang", user="U1")).cited


@pytest.mark.parametrize(
    "question", ["CI 有啥变化", "what changed in CI?", "CI changes this month", "本月 CI 相关的改动"]
)
def test_a_word_of_the_analyzers_stock_sentence_does_not_make_a_pr_about_it(
    bot: ChatBot, question: str
) -> None:
    assert 5158 not in ask(bot, question)


@pytest.mark.parametrize("question", ["CI 有啥变化", "any CI work in August?", "what changed in CI?"])
def test_the_pr_that_changes_ci_is_found_in_the_window_or_a_wider_one(bot: ChatBot, question: str) -> None:
    assert ask(bot, question) == (5110,)


@pytest.mark.parametrize(("question", "number"), [("NPU 相关", 5158), ("Ascend support?", 5158)])
def test_the_pr_is_still_found_by_what_it_is_about(bot: ChatBot, question: str, number: int) -> None:
    assert number in ask(bot, question)
