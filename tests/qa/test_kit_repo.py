"""Classes of questions over `acme/kit` (tests/qa/kit_repo.py: plain titles, short English or Chinese
bodies, no template, no module tags), in Chinese and English, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.kit_repo import SHANGHAI, clock, seed
from tests.scratch_db import seeded_database


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def kit_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("kit")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_kit") as database:
        yield database


@pytest.fixture(scope="module")
def bot(kit_db: Database) -> ChatBot:
    return ChatBot(
        kit_db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: None
    )


def ask(bot: ChatBot, question: str, thread: str | None = None) -> Answer:
    return bot.handle(Message(question, platform="test", channel="C1", thread=thread))


# A word mentioned in passing does not make a PR about it ---------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "memory-related changes in kit this week",
        "kit 本周显存相关的改动",
        "kit 这周有哪些和内存有关的 PR",
        "Did anyone fix OOM issues in kit this week?",
        "kit 本周修了哪些 OOM",
        "what did kit change about peak memory this week?",
    ],
)
def test_a_passing_or_unaffected_mention_does_not_make_a_pr_about_the_word(
    bot: ChatBot, question: str
) -> None:
    """#502 says 'Minor memory usage increase' after its opening sentence and #503 '不影响显存占用': neither
    is about memory; #501 (ran out of memory) and #504 (显存泄漏) are."""
    answer = ask(bot, question)
    assert set(answer.cited) == {501, 504}


# Breaking changes the analysis did not flag, stated in the PR's own words ----------------------------


@pytest.mark.parametrize(
    "question",
    [
        "kit 本月有哪些破坏性变更",
        "any breaking changes in kit this month?",
        "kit 六月有哪些不兼容的改动",
        "which kit PRs in June break backward compatibility?",
        "kit 这个月有没有 breaking change",
    ],
)
def test_a_breaking_change_stated_in_words_counts_and_a_denial_does_not(bot: ChatBot, question: str) -> None:
    """#509 'BREAKING: …', #510 '这是一个不兼容的改动', #511 'This is a breaking change'; #512 says 'No
    breaking changes'."""
    answer = ask(bot, question)
    assert answer.query.breaking
    assert set(answer.cited) == {509, 510, 511}
