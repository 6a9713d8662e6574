"""A second battery by class, written apart from the parser over three more repos shaped unlike verl
(tests/qa/fresh_repos.py: plain English titles with a checklist template, Chinese titles and bodies,
conventional commits), on SQLite and PostgreSQL. Expected PRs are read off the fixture by hand."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.fresh_repos import AXOLOTL, BY_KEY, NOW, RLHF, SHANGHAI, SWIFT, clock, seed
from tests.scratch_db import seeded_database


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def fresh_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("fresh")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_fresh") as database:
        yield database


@pytest.fixture(scope="module")
def bot(fresh_db: Database) -> ChatBot:
    return ChatBot(
        fresh_db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: None
    )


def ask(bot: ChatBot, question: str) -> Answer:
    return bot.handle(Message(question))


def day(month: int, date: int, hour: int = 0) -> datetime:
    return datetime(2026, month, date, hour, tzinfo=SHANGHAI)


# Topics no module tag names, Chinese words for English concepts and back, paths ------------------------

ABOUT = [
    ("What GRPO-related changes did OpenRLHF merge in March?", RLHF, {1291, 1279}),
    ("axolotl 这个月 grpo 的改动", AXOLOTL, {2610, 2619, 2625}),
    ("OpenRLHF 三月 deepspeed 相关", RLHF, {1285, 1288}),
    ("axolotl 三月 flex attention", AXOLOTL, {2622}),
    ("OpenRLHF 三月显存相关的改动", RLHF, {1285}),
    ("memory fixes in axolotl this month", AXOLOTL, {2604}),
    ("ms-swift 三月的依赖更新", SWIFT, {4114}),
    ("which dependency bumps did axolotl merge in March?", AXOLOTL, {1288}),
    ("OpenRLHF 三月文档相关", RLHF, {1282}),
    ("axolotl 三月的测试相关改动", AXOLOTL, {2613}),
    ("ms-swift 上周的 NPU 改动", SWIFT, {4117}),
    ("ms-swift 三月有哪些回滚", SWIFT, {4126, 4129}),  # a revert is answered with the PR it reverted
    ("what got reverted in axolotl this month?", AXOLOTL, {2610, 2625}),
    ("ms-swift 里 swift/llm/infer 目录下三月的改动", SWIFT, {4111, 4126, 4129}),
    ("OpenRLHF 三月的性能优化", RLHF, {1285, 1306}),
]


@pytest.mark.parametrize(("question", "repo", "cited"), ABOUT)
def test_the_prs_about_what_the_question_names_are_cited(
    bot: ChatBot, question: str, repo: str, cited: set[int]
) -> None:
    answer = ask(bot, question)
    assert answer.query.repo == repo
    assert set(answer.cited) == cited


def test_a_word_named_in_a_title_ranks_before_a_passing_mention(bot: ChatBot) -> None:
    # #1279 says GRPO once in a short description ("Unlike GRPO …"); #1291's title names it.
    answer = ask(bot, "What GRPO-related changes did OpenRLHF merge in March?")
    assert answer.cited[0] == 1291


@pytest.mark.parametrize(
    ("question", "repo", "number"),
    [
        ("#1294 讲了什么？", RLHF, 1294),
        ("PR 4111 有什么风险", SWIFT, 4111),
        ("What does #2616 do?", AXOLOTL, 2616),
        ("https://github.com/modelscope/ms-swift/pull/4120", SWIFT, 4120),
    ],
)
def test_a_pr_number_resolves_to_the_repo_that_has_it(
    bot: ChatBot, question: str, repo: str, number: int
) -> None:
    answer = ask(bot, question)
    assert (answer.query.intent, answer.query.repo, answer.cited) == ("pr", repo, (number,))
    assert BY_KEY[(repo, number)].title in answer.reply.plain_text()


def test_a_number_two_repos_have_is_asked_back_with_both(bot: ChatBot) -> None:
    answer = ask(bot, "1288 这个 PR 值得看吗")
    assert answer.cited == ()
    assert set(answer.query.pr_candidates) == {RLHF, AXOLOTL}


@pytest.mark.parametrize(
    ("question", "limit"),
    [
        ("OpenRLHF 三月最重要的 3 个 PR", 3),
        ("top 2 axolotl changes this month", 2),
        ("ms-swift 三月最重要的两个改动", 2),
    ],
)
def test_a_count_in_the_question_limits_the_list(bot: ChatBot, question: str, limit: int) -> None:
    answer = ask(bot, question)
    assert answer.query.limit == limit
    assert len(answer.cited) == limit


# Windows: every form, and nothing merged after "now" -----------------------------------------------------

WINDOWS = [
    ("ms-swift 3月中旬的改动", SWIFT, day(3, 11), day(3, 21)),
    ("OpenRLHF 3月上旬合并了什么", RLHF, day(3, 1), day(3, 11)),
    ("axolotl 下旬的改动", AXOLOTL, day(3, 21), day(4, 1)),
    ("ms-swift 二月下旬有哪些风险", SWIFT, day(2, 21), day(3, 1)),
    ("what did OpenRLHF merge in early March?", RLHF, day(3, 1), day(3, 11)),
    ("axolotl mid-March changes", AXOLOTL, day(3, 11), day(3, 21)),
    ("ms-swift late February", SWIFT, day(2, 21), day(3, 1)),
    ("OpenRLHF 月初的改动", RLHF, day(3, 1), day(3, 11)),
    ("axolotl 上个月底合并了什么", AXOLOTL, day(2, 21), day(3, 1)),
    ("OpenRLHF end of last month", RLHF, day(2, 21), day(3, 1)),
    ("OpenRLHF 上周二合并了什么", RLHF, day(3, 17), day(3, 18)),
    ("what did axolotl merge last Monday?", AXOLOTL, day(3, 23), day(3, 24)),
    ("OpenRLHF 最近 5 天", RLHF, day(3, 20), day(3, 25, 10)),
    ("OpenRLHF between 2026-03-09 and 2026-03-15", RLHF, day(3, 9), day(3, 16)),
    ("ms-swift 3月9日到3月15日", SWIFT, day(3, 9), day(3, 16)),
    ("axolotl since March 16", AXOLOTL, day(3, 16), day(3, 25, 10)),
    ("ms-swift 自 3 月 16 日以来的改动", SWIFT, day(3, 16), day(3, 25, 10)),
    ("OpenRLHF W12 的改动", RLHF, day(3, 16), day(3, 23)),
    ("ms-swift 第 12 周", SWIFT, day(3, 16), day(3, 23)),
]


@pytest.mark.parametrize(("question", "repo", "start", "end"), WINDOWS)
def test_every_window_form_reads_as_its_dates_and_searches_no_window_word(
    bot: ChatBot, question: str, repo: str, start: datetime, end: datetime
) -> None:
    answer = ask(bot, question)
    assert answer.query.repo == repo
    assert answer.query.window is not None
    assert (answer.query.window.start, answer.query.window.end) == (start, end)
    assert answer.query.terms == ()
    assert answer.cited
    for number in answer.cited:
        assert start <= BY_KEY[(repo, number)].merged < min(end, NOW)


@pytest.mark.parametrize(
    "question", ["OpenRLHF 本周有哪些改动？", "what did axolotl merge this week?", "ms-swift 下旬的改动"]
)
def test_nothing_merged_after_now_is_cited(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.cited
    assert all(BY_KEY[(answer.query.repo or "", n)].merged < NOW for n in answer.cited)


# Breaking changes, comparisons -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question", ["any breaking changes in axolotl in March?", "axolotl 三月的破坏性变更"]
)
def test_breaking_changes_are_a_filter(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.breaking
    assert set(answer.cited) == {2616}


@pytest.mark.parametrize(
    "question",
    ["OpenRLHF 上周和上上周比怎么样", "compare OpenRLHF W12 with W11", "OpenRLHF 第12周跟第11周相比"],
)
def test_a_comparison_gives_both_windows_figures(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.intent == "compare"
    language = answer.query.language
    delta = say("report.delta_same", language)
    assert say("qa.compare.count", language, now=3, before=3, delta=delta) in answer.reply.plain_text()


# Off-topic, and the asker's language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "question", ["What's the weather like in Beijing?", "早上好", "谢谢", "who are you?"]
)
def test_off_topic_questions_get_what_the_bot_does(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.intent == "unknown"
    assert say("qa.unknown", answer.query.language) in answer.reply.plain_text()


@pytest.mark.parametrize(
    "question",
    [
        "What are the risks in OpenRLHF last week?",
        "which axolotl PRs are must-read this month?",
        "what changed in ms-swift in March?",
        "What does #4111 do?",
        "memory fixes in axolotl this month",
    ],
)
def test_an_english_question_gets_no_chinese_but_what_the_prs_themselves_say(
    bot: ChatBot, question: str
) -> None:
    answer = ask(bot, question)
    assert answer.query.language == "en"
    quoted = "\n".join(pr.text for pr in BY_KEY.values())
    for run in re.findall(r"[\u3400-\u9fff]+", answer.reply.plain_text()):
        assert run.lower() in quoted, run


# What people call a repo, and versioned names -------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    ["swift 有没有和 Qwen 相关的新功能", "any Qwen features in swift lately?", "swift 里 qwen3 的改动"],
)
def test_a_repo_is_named_without_its_short_prefix_and_a_name_finds_its_versions(
    bot: ChatBot, question: str
) -> None:
    answer = ask(bot, question)
    assert answer.query.repo == SWIFT  # "swift" is modelscope/ms-swift
    assert 4101 in answer.cited  # "支持 Qwen3 系列模型的 GRPO 训练": "qwen" finds "Qwen3"
