"""Questions naming a part of the code beside a module ("the ray backend", "ray 后端") and Chinese verbs
for what code does ("保存", "加载", "卸载") over `acme/forge` (tests/qa/parts_repo.py: plain titles,
Chinese and English bodies, no template), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.parse import KnownRepo, ParseContext, parse_query
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.parts_repo import FORGE, NOW, SHANGHAI, clock, seed
from tests.scratch_db import seeded_database


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def forge_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("forge")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_forge") as database:
        yield database


@pytest.fixture(scope="module")
def bot(forge_db: Database) -> ChatBot:
    return ChatBot(
        forge_db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: None
    )


def ask(bot: ChatBot, question: str) -> Answer:
    return bot.handle(Message(question, platform="test", channel="C1"))


def parse(question: str) -> ParseContext:
    return ParseContext(NOW, SHANGHAI, (KnownRepo(FORGE, ("forge",)),), modules=frozenset({"ray", "data"}))


# A part of the code beside a module: the module's PRs, neither fewer nor more ----------------------

RAY_QUESTIONS = [
    "forge 上周 ray 后端有什么变化？",
    "上周 forge 的 ray 模块有哪些改动",
    "forge 上周 ray 这部分改了什么",
    "What changed in forge's ray backend last week?",
    "forge ray side changes last week",
    "what changed in the ray component of forge last week",
]


@pytest.mark.parametrize("question", RAY_QUESTIONS)
def test_a_generic_part_word_beside_a_module_is_no_search_term(question: str) -> None:
    query = parse_query(question, parse(question))
    assert query.modules == ("ray",)
    assert query.terms == ()


@pytest.mark.parametrize("question", RAY_QUESTIONS)
def test_a_module_question_cites_its_prs_not_those_mentioning_it_in_passing(
    bot: ChatBot, question: str
) -> None:
    """#804 names ray only in a CI job's name past its opening and in a config file's path, #805 in an
    example script's path: neither is about ray; #801–#803 are, and #810, whose description opens with
    it past its template, whatever the generic word beside it."""
    assert set(ask(bot, question).cited) == {801, 802, 803, 810}


def test_a_generic_part_word_alone_is_the_subject() -> None:
    question = "which backends changed in forge last week"
    assert parse_query(question, parse(question)).terms == ("backends",)


def test_a_pr_whose_description_opens_with_the_module_still_matches(bot: ChatBot) -> None:
    """Not tagged with ray, its title not naming it: a short description naming it first is about it."""
    answer = ask(bot, "forge 上周 data 有什么变化")
    assert 804 in answer.cited


# Chinese verbs find the English words PRs use --------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("上周 forge 有没有跟检查点保存相关的 PR", {806}),
        ("forge 上周保存相关的改动", {806}),
        ("上周 forge 权重加载有什么改动", {807}),
        ("forge 上周有哪些加载相关的 PR", {807}),
        ("上周 forge 有没有卸载相关的改动", {808}),
        ("forge 上周 offload 相关的 PR", {808}),
        ("PRs that save checkpoints in forge last week", {806}),
        ("any PRs about checkpoint saving in forge last week", {806}),
    ],
)
def test_a_verb_finds_the_prs_that_do_it_in_either_language(
    bot: ChatBot, question: str, expected: set[int]
) -> None:
    answer = ask(bot, question)
    assert set(answer.cited) == expected, answer.reply.plain_text
