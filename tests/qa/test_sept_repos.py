"""Classes of questions over internlm/xtuner (Chinese-first) and sgl-project/sglang (category-tagged
titles), tests/qa/sept_repos.py, asked in a channel subscribed to one of them (no repo named) on a
Thursday in September, in Chinese and English, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta

import pytest

from chatbot.qa.compose import Answer
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.other_repos import ChannelBot
from tests.qa.sept_repos import NOW, SGLANG, SHANGHAI, XTUNER, clock, seed
from tests.scratch_db import seeded_database

CHANNELS = {"xtuner-channel": XTUNER, "sglang-channel": SGLANG}


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def sept_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("sept")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_sept") as database:
        yield database


@pytest.fixture(scope="module")
def bot(sept_db: Database) -> ChannelBot:
    return ChannelBot.over(sept_db, CHANNELS, clock())


def ask(bot: ChannelBot, repo: str, question: str, thread: str | None = None) -> Answer:
    return bot.ask(repo, question, thread)


def day(month: int, day_: int) -> datetime:
    return datetime(2026, month, day_, tzinfo=SHANGHAI)


# Windows ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "start"),
    [
        ("这周一到现在合了啥", day(9, 14)),
        ("from Monday till now, what got merged?", day(9, 14)),
        ("上周三到现在有哪些 PR", day(9, 9)),
        ("since last Friday what's new", day(9, 11)),
        ("自上周五以来合了什么", day(9, 11)),
        ("从上周一开始到今天的改动", day(9, 7)),
    ],
)
def test_a_day_written_with_its_end_at_now_runs_from_that_day_to_now(
    bot: ChannelBot, question: str, start: datetime
) -> None:
    """'这周一到现在', 'since last Friday': from that day's start to the clock, not that one day."""
    answer = ask(bot, SGLANG, question)
    assert answer.window is not None
    assert (answer.window.start, answer.window.end) == (start, NOW)
    merged = {5149: day(9, 11), 5153: day(9, 13), 5158: day(9, 14), 5162: day(9, 15), 5166: day(9, 16)}
    assert {n for n, at in merged.items() if at >= start} <= set(answer.cited)


@pytest.mark.parametrize(
    "question",
    [
        "09-01 ~ 09-05 有啥",
        "09-01到09-05合并的PR",
        "9月1日到9月5日之间合并的PR",
        "between 2026-09-01 and 2026-09-05",
        "what was merged from 9/1 to 9/5?",
    ],
)
def test_a_range_of_days_in_any_form_is_those_days_and_nothing_is_searched(
    bot: ChannelBot, question: str
) -> None:
    """A dashed day with a two-digit month ('09-01') is a day, and '之间' is part of the range, no
    search word: the PRs of 1 to 5 September, #5125 and #5131, and no others."""
    answer = ask(bot, SGLANG, question)
    assert answer.window is not None
    assert (answer.window.start, answer.window.end) == (day(9, 1), day(9, 6))
    assert set(answer.cited) == {5125, 5131}
    assert answer.query.terms == ()


@pytest.mark.parametrize(
    ("question", "days"),
    [("过去48小时合了啥", 2), ("last 48 hours", 2), ("前两天合了啥", 2), ("半个月内的改动", 15)],
)
def test_hours_half_units_and_a_few_days_back_are_the_span_up_to_now(
    bot: ChannelBot, question: str, days: int
) -> None:
    answer = ask(bot, XTUNER, question)
    assert answer.window is not None
    start = NOW - timedelta(days=days)
    if "小时" not in question and "hours" not in question:  # whole days start at midnight
        start = start.replace(hour=0, minute=0)
    assert (answer.window.start, answer.window.end) == (start, NOW)
    assert answer.query.terms == ()


@pytest.mark.parametrize(
    ("question", "first", "last", "cited"),
    [
        ("三天前合了啥", date(2026, 9, 14), date(2026, 9, 14), {935}),
        ("大前天合了什么", date(2026, 9, 14), date(2026, 9, 14), {935}),
        ("两周前合的 PR", date(2026, 8, 31), date(2026, 9, 6), {917, 920}),
        ("what landed two weeks ago?", date(2026, 8, 31), date(2026, 9, 6), {917, 920}),
        ("一个月前合了哪些", date(2026, 8, 1), date(2026, 8, 31), {905, 908, 911, 914}),
    ],
)
def test_n_units_ago_is_that_day_week_or_month(
    bot: ChannelBot, question: str, first: date, last: date, cited: set[int]
) -> None:
    answer = ask(bot, XTUNER, question)
    assert answer.window is not None
    start, end = (datetime(d.year, d.month, d.day, tzinfo=SHANGHAI) for d in (first, last))
    assert (answer.window.start, answer.window.end) == (start, end + timedelta(days=1))
    assert set(answer.cited) == cited


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("上个季度合了多少 PR", day(4, 1), day(7, 1)),
        ("last quarter's PRs", day(4, 1), day(7, 1)),
        ("本季度合了哪些", day(7, 1), day(10, 1)),
        ("今年第三季度有啥", day(7, 1), day(10, 1)),
        ("Q3 changes", day(7, 1), day(10, 1)),
        ("去年第四季度", datetime(2025, 10, 1, tzinfo=SHANGHAI), datetime(2026, 1, 1, tzinfo=SHANGHAI)),
    ],
)
def test_a_quarter_is_its_three_calendar_months(
    bot: ChannelBot, question: str, start: datetime, end: datetime
) -> None:
    answer = ask(bot, XTUNER, question)
    assert answer.window is not None
    assert (answer.window.start, answer.window.end) == (start, end)
    assert 944 not in answer.cited  # merged after the clock


# Follow-ups that narrow or ask about the last answer -------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "first", "narrowing", "cited"),
    [
        (XTUNER, "GRPO 相关的 PR", "只看修复", {929}),
        (XTUNER, "最近 GRPO 的改动", "其中哪些是测试", {932}),
        (XTUNER, "what GRPO work landed recently?", "only the fixes", {929}),
        (SGLANG, "sampling 相关的改动", "只看修复", {5162}),
        (SGLANG, "what changed in the scheduler?", "just the perf ones", {5166}),
    ],
)
def test_a_narrowing_follow_up_keeps_the_subject_and_window_and_adds_its_filter(
    bot: ChannelBot, repo: str, first: str, narrowing: str, cited: set[int]
) -> None:
    """'只看修复' after 'GRPO 相关的 PR' is GRPO's fixes in the same span (was every fix of this week)."""
    thread = f"narrow-{first}-{narrowing}"
    listed = ask(bot, repo, first, thread)
    answer = ask(bot, repo, narrowing, thread)
    assert set(answer.cited) == cited
    assert answer.window == listed.window


@pytest.mark.parametrize(
    ("repo", "first", "who", "authors"),
    [
        (SGLANG, "上周 router 相关的改动", "谁写的这些", {"hnyls2002", "zhyncs"}),
        (SGLANG, "what changed in the router last week", "who wrote them?", {"hnyls2002", "zhyncs"}),
        (SGLANG, "this month's fixes", "who were the authors?", {"Ying1123", "merrymercy"}),
        (XTUNER, "这个月的修复", "作者都是谁", {"LZHgrla", "HIT-cwh"}),
        (XTUNER, "GRPO 相关的 PR", "这些都是谁写的", {"pppppM", "HIT-cwh", "hhaAndroid"}),
    ],
)
def test_who_wrote_the_last_answers_prs_lists_their_authors(
    bot: ChannelBot, repo: str, first: str, who: str, authors: set[str]
) -> None:
    thread = f"who-{first}-{who}"
    listed = ask(bot, repo, first, thread)
    answer = ask(bot, repo, who, thread)
    assert set(answer.cited) == set(listed.cited)
    text = answer.reply.plain_text()
    assert all(f"@{login}" in text for login in authors)


# What to read, as many as asked -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "question", "n"),
    [
        (SGLANG, "给我挑两个最值得看的", 2),
        (SGLANG, "the two PRs most worth reading this week", 2),
        (XTUNER, "这周最值得看的三个", 3),
    ],
)
def test_a_reading_list_has_as_many_prs_as_asked(bot: ChannelBot, repo: str, question: str, n: int) -> None:
    """When fewer PRs than asked are rated worth reading, the next most important fill the list."""
    answer = ask(bot, repo, question)
    assert len(answer.cited) == n


@pytest.mark.parametrize(
    "question",
    ["刚加入项目，先读哪个 PR 比较好", "这周先看哪个 PR", "这周从哪个 PR 开始看", "这周有啥必看的"],
)
def test_which_pr_to_read_first_is_a_reading_question_not_a_comparison(
    bot: ChannelBot, question: str
) -> None:
    """'比较好' is 'rather good', no comparison; '先读哪个' asks for one PR; '必看' is '必读'."""
    answer = ask(bot, XTUNER, question)
    assert answer.query.intent == "must_read"
    assert set(answer.cited) <= {935, 938, 941}
    if "哪个" in question:
        assert len(answer.cited) == 1


# What the changes do to the asker's own setup ---------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "question", "cited"),
    [
        (XTUNER, "会不会影响我们现有的训练脚本", {914}),
        (XTUNER, "最近的改动对我们现有的训练有影响吗", {914}),
        (XTUNER, "我们的配置要改吗", {914, 935}),
        (XTUNER, "do we need to update our configs?", {914, 935}),
        (SGLANG, "will anything break our launch scripts?", {5140}),
        (SGLANG, "do our settings need changing after this month's PRs?", {5140, 5162}),
    ],
)
def test_a_question_about_our_own_setup_gets_what_to_check_before_upgrading(
    bot: ChannelBot, repo: str, question: str, cited: set[int]
) -> None:
    """Breaking changes, changed defaults and dependency bumps; the words naming the asker's own setup
    ('我们现有的训练脚本', 'our launch settings') are what may be affected, no subject to search for."""
    answer = ask(bot, repo, question)
    assert answer.query.upgrade
    assert cited <= set(answer.cited)
    assert {944, 5170}.isdisjoint(answer.cited)


@pytest.mark.parametrize(
    ("repo", "question", "cited"),
    [
        (XTUNER, "需要改 yaml 吗", {914, 935}),
        (XTUNER, "超参数有变化吗", {914, 935}),
        (SGLANG, "延迟优化相关的", {5136}),
        (SGLANG, "anything that cut TTFT?", {5136}),
        (XTUNER, "数据预处理变快了吗", {941}),
        (XTUNER, "any preprocessing speedups?", {941}),
    ],
)
def test_glossary_words_find_their_concept_in_either_language(
    bot: ChannelBot, repo: str, question: str, cited: set[int]
) -> None:
    """yaml and 超参数 are config; 延迟 and TTFT are latency (not every speed-up); 数据预处理 and 变快
    are a dataset's preprocessing made faster."""
    assert set(ask(bot, repo, question).cited) == cited


@pytest.mark.parametrize(
    "question",
    [
        "这个月哪些改动会影响训练结果",
        "本月有没有会影响收敛的改动",
        "any PRs this month that change training results?",
    ],
)
def test_a_chinese_title_that_names_what_training_computes_changes_results(
    bot: ChannelBot, question: str
) -> None:
    """'修复 GRPO 中 advantage 计算符号错误' and '默认学习率调度改为 cosine' change what training computes, as
    an English title naming the advantage or the learning rate would; the OOM fix and the NPU port do not."""
    cited = set(ask(bot, XTUNER, question).cited)
    assert {929, 935} <= cited <= {917, 929, 935}


@pytest.mark.parametrize(
    ("repo", "question", "word"),
    [
        (SGLANG, "上周 GPU 显存相关的改动", "显存"),
        (SGLANG, "any reverts last week?", "reverts"),
        (XTUNER, "这周 lora 相关的修复", "lora"),
        (XTUNER, "what changed in the router this week?", "router"),
    ],
)
def test_an_empty_answer_says_what_it_searched_for(
    bot: ChannelBot, repo: str, question: str, word: str
) -> None:
    """'None' after a search says what was searched, so that it is not read as 'nothing was merged'."""
    answer = ask(bot, repo, question)
    assert answer.cited == ()
    assert f"'{word}'" in answer.reply.plain_text()


# Greetings and help ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "question", "number"),
    [
        (SGLANG, "hi there", 5166),
        (SGLANG, "帮助", 5166),
        (XTUNER, "你好", 941),
    ],
)
def test_greetings_and_help_give_examples_about_the_channels_repo(
    bot: ChannelBot, repo: str, question: str, number: int
) -> None:
    """The examples name the channel's repo, its newest PR merged by now (not #944 or #5170, merged
    later) and one of its modules, never verl's #6512 or megatron."""
    text = ask(bot, repo, question).reply.plain_text()
    short = repo.split("/")[1]
    assert short in text and f"#{number}" in text
    assert "verl" not in text and "megatron" not in text and "6512" not in text


# Two months -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question", ["八月和九月合并了哪些", "8月到9月的改动", "what landed in August and September?"]
)
def test_two_joined_months_are_both(bot: ChannelBot, question: str) -> None:
    answer = ask(bot, SGLANG, question)
    assert answer.window is not None
    assert (answer.window.start, answer.window.end) == (day(8, 1), day(10, 1))
    assert answer.count == 13  # 3 in August, 10 in September up to the clock


@pytest.mark.parametrize(
    "question", ["八月和九月比合并数量有啥变化", "九月跟八月比怎么样", "compare August and September"]
)
def test_a_comparison_of_two_months_asks_about_the_later_against_the_earlier(
    bot: ChannelBot, question: str
) -> None:
    """September (to the clock) against August, with both figures (was August's statistics alone)."""
    answer = ask(bot, XTUNER, question)
    assert answer.query.intent == "compare"
    assert answer.window is not None and answer.window.start == day(9, 1)
    counted = "合并 PR：9 个" if answer.query.language == "zh" else "PRs merged: 9"
    assert counted in answer.reply.plain_text()  # September's nine, and the figure before them
