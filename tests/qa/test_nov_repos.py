"""Classes of questions over linkedin/liger-kernel (conventional commits) and lobehub/lobe-chat (a
monorepo with mixed Chinese and English bodies), tests/qa/nov_repos.py, asked in a channel subscribed to
one of them on a Thursday in November, in Chinese and English, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from chatbot.messages import say
from chatbot.qa.compose import Answer
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.nov_repos import LIGER, LOBE, SHANGHAI, clock, seed
from tests.qa.other_repos import ChannelBot
from tests.scratch_db import seeded_database

CHANNELS = {"liger-channel": LIGER, "lobe-channel": LOBE}


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def nov_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("nov")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_nov") as database:
        yield database


@pytest.fixture(scope="module")
def bot(nov_db: Database) -> ChannelBot:
    return ChannelBot.over(nov_db, CHANNELS, clock())


def ask(bot: ChannelBot, repo: str, question: str, thread: str | None = None) -> Answer:
    return bot.ask(repo, question, thread)


def day(month: int, day_: int) -> datetime:
    return datetime(2026, month, day_, tzinfo=SHANGHAI)


# Paths -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "question", "cited"),
    [
        (LOBE, "packages/model-runtime/src/anthropic 谁改的", {10110}),
        (LOBE, "上周谁动了 packages/ui", {10085, 10094}),
        (LOBE, "which PRs touched packages/ui last week?", {10085, 10094}),
        (LOBE, "e2e/ 下有什么改动", {10091}),
        (LIGER, "what changed in test/convergence this month?", {835}),
        (LIGER, "上周 .github/workflows 有啥变化", {832}),
        (LIGER, "src/liger_kernel/ops/rope.py 最近被谁改过", {829}),
    ],
)
def test_a_directory_under_a_source_root_is_a_path_of_the_channels_repo(
    bot: ChannelBot, repo: str, question: str, cited: set[int]
) -> None:
    """'packages/ui', 'test/convergence': a directory whose first segment is where code, tests or CI live
    is a path of the repo in mind, not an `owner/name` the index lacks."""
    answer = ask(bot, repo, question)
    assert answer.query.unknown_repo is None
    assert set(answer.cited) == cited


@pytest.mark.parametrize("question", ["huggingface/trl 上周有啥改动", "what did pytorch/torchtune merge?"])
def test_an_owner_and_name_the_index_lacks_is_still_an_unknown_repo(bot: ChannelBot, question: str) -> None:
    answer = ask(bot, LOBE, question)
    assert answer.query.unknown_repo is not None
    assert answer.cited == ()


# Off-topic in a channel with a repo --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "question"),
    [
        (LIGER, "今天上海天气怎么样"),
        (LOBE, "明天会下雨吗"),
        (LOBE, "讲个笑话"),
        (LIGER, "晚饭吃什么好"),
        (LIGER, "who won the world cup?"),
        (LOBE, "What's the weather like in Beijing today?"),
    ],
)
def test_a_question_about_nothing_the_repo_mentions_gets_what_the_bot_does(
    bot: ChannelBot, repo: str, question: str
) -> None:
    """In a channel subscribed to a repo, words no PR of it uses, and no word about code, are no topic:
    the answer says what the bot does instead of searching the PRs for the weather."""
    answer = ask(bot, repo, question)
    assert answer.query.intent == "unknown"
    assert answer.cited == ()
    assert say("qa.unknown", answer.query.language) in answer.reply.plain_text()


@pytest.mark.parametrize(
    ("repo", "question", "cited"),
    [
        (LOBE, "MinIO 呢", 10066),  # only its description says MinIO
        (LOBE, "Playwright?", 10091),
        (LIGER, "SimPO 合进去了吗", 838),
        (LIGER, "torchrun", 835),
        (LOBE, "Claude 支持吗", 10110),
    ],
)
def test_a_word_only_the_repos_prs_use_is_searched_without_any_word_about_code(
    bot: ChannelBot, repo: str, question: str, cited: int
) -> None:
    answer = ask(bot, repo, question)
    assert answer.query.intent == "topic"
    assert cited in answer.cited


# Windows -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "first", "end"),
    [
        ("上周一到周三合了啥", day(11, 2), day(11, 5)),
        ("上周一到上周三", day(11, 2), day(11, 5)),
        ("上周三到周五的 PR", day(11, 4), day(11, 7)),
        ("上周五到这周二", day(11, 6), day(11, 11)),
        ("本周一到周三", day(11, 9), day(11, 12)),
        ("what was merged Monday through Wednesday?", day(11, 9), day(11, 12)),
    ],
)
def test_two_weekdays_joined_are_the_days_from_the_first_to_the_second(
    bot: ChannelBot, question: str, first: datetime, end: datetime
) -> None:
    """'上周一到周三': the second day in the first's week unless it names its own, both days included."""
    answer = ask(bot, LOBE, question)
    assert answer.window is not None
    assert (answer.window.start, answer.window.end) == (first, end)
    assert answer.query.terms == ()


# Limits ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "question", "n", "month"),
    [
        (LOBE, "挑 4 个十月的重点 PR", 4, 10),
        (LIGER, "just the top one this week", 1, 11),
        (LIGER, "the top two PRs of October", 2, 10),
        (LOBE, "给我三个十月的重点改动", 3, 10),
    ],
)
def test_a_count_before_a_month_and_top_in_words_limit_the_list(
    bot: ChannelBot, repo: str, question: str, n: int, month: int
) -> None:
    """'4 个十月的' is four PRs of October ('个' before a month's numeral does not hide the month), 'top
    one' one PR, and '重点' asks for the important ones, no search word."""
    answer = ask(bot, repo, question)
    assert len(answer.cited) == n
    assert answer.window is not None and answer.window.start.month == month
    assert answer.query.terms == ()


# Tests ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("question", ["有没有加测试的 PR", "有没有测试相关的改动", "有没有补测试的 PR"])
def test_asking_whether_there_are_tests_finds_the_prs_about_tests(bot: ChannelBot, question: str) -> None:
    """'有没有…测试的 PR' asks whether there are PRs about tests: its 没有 negates nothing ('哪些没有测试' and
    'GRPO 的改动有没有测试' ask for the PRs without)."""
    answer = ask(bot, LOBE, question)
    assert not answer.query.untested
    assert 10091 in answer.cited


def test_prs_without_tests_are_still_asked_with_a_negation(bot: ChannelBot) -> None:
    answer = ask(bot, LOBE, "有没有没加测试的 PR")
    assert answer.query.untested
    assert 10091 not in answer.cited


# Subjects of more than one word ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "question", "leak"),
    [
        (LIGER, "memory leaks?", 817),
        (LIGER, "any memory leak fixes in October?", 817),
        (LIGER, "内存泄漏的修复有哪些", 817),
        (LIGER, "有没有内存泄漏", 817),
        (LOBE, "内存泄露相关的 PR", 10031),
        (LOBE, "anything leaking memory?", 10031),
    ],
)
def test_a_leak_is_asked_about_by_itself_not_as_any_memory_change(
    bot: ChannelBot, repo: str, question: str, leak: int
) -> None:
    """'memory leaks' is one concept: the leak, not every PR that says 'memory' (#829 keeps cos/sin in
    `shared_memory`, #838 keeps memory flat)."""
    answer = ask(bot, repo, question)
    assert set(answer.cited) == {leak}


@pytest.mark.parametrize("question", ["显存相关的改动有哪些", "memory-related changes", "内存方面的 PR"])
def test_a_word_inside_a_code_name_does_not_make_a_pr_about_it(bot: ChannelBot, question: str) -> None:
    """#829 says `shared_memory` and nothing about memory use: no memory PR; a leak is one (#817)."""
    answer = ask(bot, LIGER, question)
    assert 817 in answer.cited
    assert 829 not in answer.cited


@pytest.mark.parametrize("question", ["shared memory 的改动", "anything using shared memory?"])
def test_a_code_name_is_found_when_the_question_names_all_its_parts(bot: ChannelBot, question: str) -> None:
    """'shared memory' asks about `shared_memory` itself."""
    assert 829 in ask(bot, LIGER, question).cited


@pytest.mark.parametrize(
    "question",
    ["multi-node training changes?", "多机训练相关的 PR", "distributed training", "有没有多节点训练的改动"],
)
def test_a_broad_word_beside_a_narrower_subject_does_not_narrow_the_search(
    bot: ChannelBot, question: str
) -> None:
    """'training' is what nearly every PR of such a repo is about: beside 'multi-node' it is not also
    required, so #835 (multi-node DPO tests, which never says 'training') is found."""
    answer = ask(bot, LIGER, question)
    assert 835 in answer.cited
    assert answer.query.terms == ()


@pytest.mark.parametrize(("question", "term"), [("训练相关的 PR", "训练"), ("training changes", "training")])
def test_a_broad_word_alone_is_still_searched(bot: ChannelBot, question: str, term: str) -> None:
    assert ask(bot, LIGER, question).query.terms == (term,)


@pytest.mark.parametrize(
    "question", ["which PRs are about convergence tests?", "收敛测试相关的 PR", "convergence test changes"]
)
def test_convergence_tests_are_a_subject_not_a_question_about_changed_results(
    bot: ChannelBot, question: str
) -> None:
    """'影响收敛' asks which PRs change what training computes; 'convergence tests' are tests."""
    answer = ask(bot, LIGER, question)
    assert not answer.query.semantics
    assert {810, 835} <= set(answer.cited)


@pytest.mark.parametrize("question", ["数据库迁移相关", "database migrations?", "有没有数据库迁移的修复"])
def test_a_chinese_compound_of_two_concepts_finds_both_in_english(bot: ChannelBot, question: str) -> None:
    """'数据库迁移' is 数据库 (database) and 迁移 (migration), each found in the English title."""
    assert ask(bot, LOBE, question).cited == (10116,)


@pytest.mark.parametrize("question", ["pyproject.toml 改了几次", "how many PRs touched pyproject.toml?"])
def test_a_count_of_a_subject_without_a_window_counts_the_recent_past(bot: ChannelBot, question: str) -> None:
    """Like a question about a subject, its count spans the past 30 days, not only this week's three."""
    answer = ask(bot, LIGER, question)
    assert answer.query.intent == "stats"
    assert answer.window is not None and answer.window.end == clock().now()
    assert (answer.window.end - answer.window.start).days == 30
    assert answer.count == 2  # #820 and #823


@pytest.mark.parametrize("question", ["Safari 的 bug", "any Safari bugs?", "Safari 上的问题修了吗"])
def test_a_subject_no_pr_of_the_kind_asked_is_about_gives_the_prs_about_it_said_so(
    bot: ChannelBot, question: str
) -> None:
    """Only a revert names Safari: the asker gets it (and is told no fix is about Safari), not every
    fix of the month with the subject dropped."""
    answer = ask(bot, LOBE, question)
    assert answer.cited == (10094,)
    note = say("qa.relaxed.kind", answer.query.language, subject="'safari'")
    assert note in answer.reply.plain_text()


def test_a_subject_a_pr_of_the_kind_asked_is_about_keeps_the_kind(bot: ChannelBot) -> None:
    answer = ask(bot, LOBE, "Azure 的修复")
    assert answer.cited == (10098,) and answer.query.change_types == ("fix",)
    assert say("qa.relaxed.kind", "zh", subject="'azure'") not in answer.reply.plain_text()
