"""Classes of questions over internlm/xtuner (Chinese-first) and sgl-project/sglang (category-tagged
titles), tests/qa/sept_repos.py, asked in a channel subscribed to one of them (no repo named) on a
Thursday in September, in Chinese and English, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.sept_repos import NOW, SGLANG, SHANGHAI, XTUNER, clock, seed
from tests.scratch_db import seeded_database

CHANNELS = {"xtuner-channel": XTUNER, "sglang-channel": SGLANG}


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def sept_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("sept")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_sept") as database:
        yield database


@pytest.fixture(scope="module")
def bot(sept_db: Database) -> ChatBot:
    return ChatBot(
        sept_db,
        BotConfig(SHANGHAI),
        clock(),
        HeuristicAnalyzer().analyze,
        channel_repo=lambda message: CHANNELS.get(message.channel or ""),
    )


def ask(bot: ChatBot, repo: str, question: str, thread: str | None = None) -> Answer:
    channel = next(name for name, subscribed in CHANNELS.items() if subscribed == repo)
    return bot.handle(Message(question, platform="slack", channel=channel, user="U1", thread=thread))


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
    bot: ChatBot, question: str, start: datetime
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
    bot: ChatBot, question: str
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
    bot: ChatBot, question: str, days: int
) -> None:
    answer = ask(bot, XTUNER, question)
    assert answer.window is not None
    assert (answer.window.start, answer.window.end) == (NOW - timedelta(days=days), NOW)
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
    bot: ChatBot, question: str, first: date, last: date, cited: set[int]
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
    bot: ChatBot, question: str, start: datetime, end: datetime
) -> None:
    answer = ask(bot, XTUNER, question)
    assert answer.window is not None
    assert (answer.window.start, answer.window.end) == (start, end)
    assert 944 not in answer.cited  # merged after the clock
