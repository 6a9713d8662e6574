"""Phrasings a battery of unseen questions found misread, by class, over a small repo shaped unlike verl
(plain English titles, no `[module]` tags, a Chinese description), on SQLite and PostgreSQL:

- misspelt window words ("lsat week", "this weel", "yesterdy") read as the window they misspell, never
  a word the index knows (a login, a title's word);
- month names that are also words ("may", "mar") are months in a comparison, beside another month or in
  a Chinese question, and words elsewhere ("what may break");
- two spans compared by which saw more ("3月和4月哪个月合并的多", "more in may than in april");
- the latest N PRs ("latest 3 merged PRs", "最近 2 个 PR"), newest first, at most N;
- "可能会 break" asks for breaking changes;
- a comparison's follow-up naming another window compares it with the window before it;
- a day of the month alone ("on the 20th", "since the 3rd", "22号") and "the start of the month";
  "early" before no month ("early stopping") names no window;
- "last year" is the calendar year before, as 去年 is, and "this year vs last year" compares this one.

The clock is Wednesday 2026-06-24 10:00 in Asia/Shanghai (2026-W26)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.other_repos import NOW, SHANGHAI, Written, at, clock, store_written
from tests.scratch_db import seeded_database

TRAINER = "acme/trainer"


def pr(number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(TRAINER, number, merged, author, title, body, files)


PRS = (
    pr(10, at(4, 8), "lin", "Add a cosine learning-rate schedule", "Warmup then cosine decay.", "trainer/sched.py"),
    pr(11, at(4, 21), "mondy", "Fix the eval loop on empty batches", "Skips empty batches.", "trainer/eval.py"),
    pr(20, at(5, 6), "lin", "Support LoRA adapters in the trainer", "LoRA via peft.", "trainer/peft.py"),
    pr(21, at(5, 13), "mondy", "Fix a weak reference leak in the callback registry", "Callbacks held weakly were kept.",
       "trainer/callbacks.py"),
    pr(22, at(5, 27), "ivy", "Speed up data collation", "数据整理提速约 20%。", "trainer/collate.py"),
    pr(30, at(6, 15), "lin", "Add gradient checkpointing", "Saves memory on long sequences.", "trainer/model.py"),
    pr(31, at(6, 17), "ivy", "Fix the checkpoint resume path", "Resumes from the last step.", "trainer/ckpt.py"),
    pr(32, at(6, 20), "mondy", "Document the config options", "New docs page.", "docs/config.md"),
    pr(40, at(6, 22), "lin", "Log the throughput per step", "tokens/s in the logs.", "trainer/log.py"),
    pr(41, at(6, 23), "ivy", "Fix a crash when the dataset is empty", "Raises a clear error.", "trainer/data.py"),
)  # fmt: skip


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def trainer_db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("windows")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_unseen_phrasings") as database:
        yield database


@pytest.fixture(scope="module")
def bot(trainer_db: Database) -> ChatBot:
    return ChatBot(
        trainer_db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda m: TRAINER
    )


def ask(bot: ChatBot, question: str) -> Answer:
    return bot.handle(Message(question, platform="slack", channel="trainer", user="U1"))


def span(answer: Answer) -> tuple[datetime, datetime] | None:
    return (answer.window.start, answer.window.end) if answer.window else None


@pytest.mark.parametrize(
    ("mistyped", "meant"),
    [
        ("what did trainer merge lsat week?", "what did trainer merge last week?"),
        ("las week's changes", "last week's changes"),
        ("trainer PRs tihs week", "trainer PRs this week"),
        ("anything merged this weel?", "anything merged this week?"),
        ("what was merged yesterdy", "what was merged yesterday"),
        ("what was merged yestreday", "what was merged yesterday"),
        ("how many PRs last mnoth", "how many PRs last month"),
        ("how many PRs prevoius month", "how many PRs previous month"),
        ("fixes in the past 3 dyas", "fixes in the past 3 days"),
        ("what landed 2 weks ago", "what landed 2 weeks ago"),
        ("trainer lsat week 有哪些改动", "trainer last week 有哪些改动"),
        ("what merged on wendesday", "what merged on wednesday"),
        ("trainer lastweek risks", "trainer last week risks"),
        ("stats for thismonth", "stats for this month"),
    ],
)
def test_a_misspelt_window_word_reads_as_the_window_it_misspells(
    bot: ChatBot, mistyped: str, meant: str
) -> None:
    typed, spelt = ask(bot, mistyped), ask(bot, meant)
    assert typed.query.window_named and span(typed) == span(spelt), (typed.query, spelt.query)
    assert typed.cited == spelt.cited
    assert not set(typed.query.terms) - set(spelt.query.terms), typed.query.terms


def test_a_login_that_looks_like_a_window_word_stays_the_person(bot: ChatBot) -> None:
    # "mondy" is one edit from "monday", and a login of the index
    answer = ask(bot, "what did mondy merge in may?")
    assert answer.query.author == "mondy"
    assert span(answer) == (datetime(2026, 5, 1, tzinfo=SHANGHAI), datetime(2026, 6, 1, tzinfo=SHANGHAI))
    assert set(answer.cited) == {21}


@pytest.mark.parametrize(
    "question",
    ["which PRs fixed a weak reference?", "anything about this weak reference leak"],
)
def test_a_title_word_one_edit_from_a_window_word_stays_a_search_word(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert "weak" in answer.query.terms, answer.query
    assert 21 in answer.cited, answer.reply.plain_text()


@pytest.mark.parametrize("question", ["is it done this way in trainer?", "list the PRs about the eval loop"])
def test_plain_words_near_window_words_name_no_window(bot: ChatBot, question: str) -> None:
    assert not ask(bot, question).query.window_named


MAY = (datetime(2026, 5, 1, tzinfo=SHANGHAI), datetime(2026, 6, 1, tzinfo=SHANGHAI))
APRIL = (datetime(2026, 4, 1, tzinfo=SHANGHAI), datetime(2026, 5, 1, tzinfo=SHANGHAI))


@pytest.mark.parametrize(
    "question",
    [
        "compare may with april",
        "compare april with may",
        "may vs april",
        "how did may compare with april?",
        "april and may compared",
        "may 和 april 比怎么样",
    ],
)
def test_may_beside_another_month_in_a_comparison_is_the_month(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.intent == "compare", answer.query
    baseline = answer.query.baseline
    assert span(answer) == MAY and baseline is not None and (baseline.start, baseline.end) == APRIL


@pytest.mark.parametrize("question", ["trainer may 的 PR", "what merged in may?", "may 2026 的改动"])
def test_may_as_a_window_is_the_month(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert span(answer) == MAY, answer.query
    assert set(answer.cited) <= {20, 21, 22}


@pytest.mark.parametrize(
    "question",
    [
        "what may break this week?",
        "which PRs may or may not break things?",
        "what may fail after the upgrade",
    ],
)
def test_may_as_a_verb_names_no_month(bot: ChatBot, question: str) -> None:
    assert span(ask(bot, question)) != MAY


@pytest.mark.parametrize("question", ["哪些 PR may break 现有代码", "which PRs may break my scripts?"])
def test_what_may_break_asks_for_breaking_changes_and_names_no_month(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.breaking and span(answer) != MAY, answer.query
    assert not {"may", "break"} & set(answer.query.terms), answer.query.terms


@pytest.mark.parametrize(
    "question",
    [
        "did trainer merge more in may than in april?",
        "were there more fixes in may than in april?",
        "which month had more PRs, april or may?",
        "4月和5月哪个月合并的多",
        "五月和四月哪个月 PR 多",
    ],
)
def test_which_of_two_months_saw_more_compares_them(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    baseline = answer.query.baseline
    assert answer.query.intent == "compare", answer.query
    assert span(answer) == MAY and baseline is not None and (baseline.start, baseline.end) == APRIL


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("latest 3 merged PRs", (41, 40, 32)),
        ("the last 2 PRs merged", (41, 40)),
        ("trainer 最近 2 个 PR", (41, 40)),
        ("最新的 3 个 PR 是哪些", (41, 40, 32)),
    ],
)
def test_the_latest_n_prs_are_the_newest_merges(
    bot: ChatBot, question: str, expected: tuple[int, ...]
) -> None:
    answer = ask(bot, question)
    assert answer.query.order == "newest" and answer.query.limit == len(expected), answer.query
    assert answer.cited == expected, answer.reply.plain_text()


@pytest.mark.parametrize(
    "question", ["本周有哪些可能会 break 的改动", "上周哪些改动会破坏兼容", "上个月会不会 break 现有的代码"]
)
def test_asking_what_may_break_asks_for_breaking_changes(bot: ChatBot, question: str) -> None:
    query = ask(bot, question).query
    assert query.breaking and "break" not in query.terms, query


def test_a_comparisons_follow_up_with_another_month_compares_it_with_the_month_before(bot: ChatBot) -> None:
    first = bot.handle(
        Message("compare may with april", platform="slack", channel="trainer", user="U1", thread="t1")
    )
    assert first.query.baseline is not None
    then = bot.handle(Message("and june?", platform="slack", channel="trainer", user="U1", thread="t1"))
    baseline = then.query.baseline
    assert then.query.intent == "compare" and then.window is not None and then.window.start.month == 6
    assert baseline is None or (baseline.start, baseline.end) == MAY, then.query
    assert "2026-05-01" in then.reply.plain_text(), then.reply.plain_text()


def day(month: int, day_: int) -> datetime:
    return datetime(2026, month, day_, tzinfo=SHANGHAI)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("what merged on the 20th?", (day(6, 20), day(6, 21))),
        ("PRs merged on the 22nd", (day(6, 22), day(6, 23))),
        ("fixes since the 15th", (day(6, 15), NOW)),
        ("from the 15th to the 17th", (day(6, 15), day(6, 18))),
        # the 27th of this month is yet to come: last month's
        ("what merged on the 27th?", (day(5, 27), day(5, 28))),
        ("22号合并的 PR", (day(6, 22), day(6, 23))),
        ("17号以来有哪些修复", (day(6, 17), NOW)),
        ("what merged on the 13th of may", (day(5, 13), day(5, 14))),
        ("trainer PRs since the beginning of the month", (day(6, 1), NOW)),
        ("since the start of the month", (day(6, 1), NOW)),
    ],
)
def test_a_day_of_the_month_alone_is_this_months_or_the_last_one_begun(
    bot: ChatBot, question: str, expected: tuple[datetime, datetime]
) -> None:
    answer = ask(bot, question)
    assert span(answer) == expected, answer.query
    assert not answer.query.terms, answer.query.terms


def test_early_before_no_month_is_a_search_word(bot: ChatBot) -> None:
    assert "early" in ask(bot, "any early stopping fixes?").query.terms


YEAR_2025 = (day(1, 1).replace(year=2025), day(1, 1))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("trainer PRs last year", YEAR_2025),
        ("trainer PRs last yaer", YEAR_2025),
        ("去年的 PR", YEAR_2025),
        ("PRs in the last year", (NOW.replace(year=2025, hour=0, minute=0), NOW)),
        ("december last year", (datetime(2025, 12, 1, tzinfo=SHANGHAI), day(1, 1))),
    ],
)
def test_last_year_is_the_calendar_year_before(
    bot: ChatBot, question: str, expected: tuple[datetime, datetime]
) -> None:
    assert span(ask(bot, question)) == expected


@pytest.mark.parametrize(
    "question", ["compare this year with last year", "今年和去年比", "去年和今年比怎么样"]
)
def test_this_year_against_last_year_compares_the_same_days(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.intent == "compare" and answer.window is not None, answer.query
    assert answer.window.start == day(1, 1)
    assert "2025-01-01" in answer.reply.plain_text(), answer.reply.plain_text()
