"""The classes a blind evaluation found failing, asked in many phrasings (Chinese and English) over the five
repos of tests/qa/oct_repos.py (a Go server and a Rust workspace with conventional commits, a TypeScript
monorepo, a Chinese-only repo, an ML library whose bodies are issue links), on SQLite and PostgreSQL:
risks of one severity, the must-reads alone, a month's reports, two months compared, a top-level
directory named as a directory, PRs a day, typos, and generic words that are no subject."""

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
from chatbot.qa.parse import ParseContext, parse_query
from chatbot.reports.weekly import build_weekly_report
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.conftest import make_bot
from tests.qa.fixture_repo import VERL, fixture_clock
from tests.qa.oct_repos import BY_KEY, CADDY, HF, NOW, OCR, QUERY, SHANGHAI, TAURI, clock, seed
from tests.scratch_db import seeded_database

CHANNELS = {"caddy": CADDY, "tauri": TAURI, "query": QUERY, "ocr": OCR, "hf": HF}


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def blind_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("blind")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_blind") as database:
        yield database


@pytest.fixture(scope="module")
def bot(blind_db: Database) -> ChatBot:
    return ChatBot(
        blind_db,
        BotConfig(SHANGHAI),
        clock(),
        HeuristicAnalyzer().analyze,
        channel_repo=lambda message: CHANNELS.get(message.channel or ""),
    )


def ask(bot: ChatBot, channel: str, question: str) -> Answer:
    return bot.handle(Message(question, platform="slack", channel=channel, user="U1"))


def text_of(answer: Answer) -> str:
    return answer.reply.plain_text()


def day(month: int, day_: int) -> datetime:
    return datetime(2026, month, day_, tzinfo=SHANGHAI)


# Risks of one severity ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "high severity risks in the last 2 weeks",
        "any high-severity risks this month?",
        "critical risks this month",
        "what are the severe risks lately",
        "risks with severity high this month",
        "九月份有哪些高风险的改动",
        "本月严重的风险",
        "这个月有什么重大风险吗",
        "最近有高危改动吗",
        "上周风险等级高的改动",
        "show me only the high risks from last week",
    ],
)
def test_a_severity_is_a_filter_and_never_a_search_word(question: str) -> None:
    query = parse_query(question, ParseContext(NOW, SHANGHAI, default_repo=CADDY))
    assert query.intent == "risks"
    assert query.severity == "high"
    assert not {"high", "severity", "critical", "severe", "高", "严重", "重大", "高危"} & set(query.terms)


@pytest.mark.parametrize(
    ("channel", "question", "high"),
    [
        ("caddy", "这个月有哪些高风险的改动", {6655}),
        ("query", "high severity risks this month", {8150}),
        ("tauri", "critical risks in October", {11046}),
        ("tauri", "最近两周严重的风险有哪些", {11046}),
        ("caddy", "这个月有几个高风险的改动", {6655}),
        ("query", "how many high-severity risks this month?", {8150}),
    ],
)
def test_asked_for_high_severity_only_high_severity_risks_are_listed(
    bot: ChatBot, channel: str, question: str, high: set[int]
) -> None:
    answer = ask(bot, channel, question)
    language = answer.query.language
    assert set(answer.cited) == high
    high_level = say("report.severity.high", language)
    assert say("qa.risks.none_at", language, severity=high_level) not in text_of(answer)
    heading = say("qa.risks.at", language, severity=high_level, n=len(high))
    assert heading[:1].upper() + heading[1:] in text_of(answer)


@pytest.mark.parametrize(
    ("channel", "question"),
    [
        ("hf", "any high-severity risks this month?"),
        ("ocr", "本月有高风险的改动吗"),
        ("caddy", "本周严重的风险"),
    ],
)
def test_without_high_severity_risks_the_answer_says_so_before_the_medium_ones(
    bot: ChatBot, channel: str, question: str
) -> None:
    answer = ask(bot, channel, question)
    language = answer.query.language
    text = text_of(answer)
    high, medium = (say(f"report.severity.{s}", language) for s in ("high", "medium"))
    assert say("qa.risks.none_at", language, severity=high) in text
    assert f"[{high}]" not in text
    # whatever follows is labelled as the medium ones
    assert all(f"[{medium}]" in line for line in text.splitlines() if line.startswith("["))


# The must-reads alone -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question"),
    [
        ("caddy", "上周必读的PR有哪些"),
        ("query", "must-read PRs this week"),
        ("hf", "last week's must reads"),
        ("tauri", "which PRs must I read from last week?"),
        ("ocr", "本周一定要看的PR"),
    ],
)
def test_asked_for_must_reads_none_is_said_and_the_reading_list_is_labelled_apart(
    bot: ChatBot, channel: str, question: str
) -> None:
    answer = ask(bot, channel, question)
    language = answer.query.language
    text = text_of(answer)
    assert answer.query.must_read_only
    assert say("qa.must_read.only_title", language, n=0) in text
    assert say("qa.must_read.only_none", language) in text
    if answer.cited:
        assert say("qa.must_read.also", language) in text


@pytest.mark.parametrize(
    "question", ["值得一读的PR有哪些", "what should I read this week?", "worth reading PRs"]
)
def test_a_reading_list_question_is_not_asking_for_must_reads_only(question: str) -> None:
    query = parse_query(question, ParseContext(NOW, SHANGHAI, default_repo=CADDY))
    assert query.intent == "must_read"
    assert not query.must_read_only


# A month's reports -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question", "month"),
    [
        ("ocr", "9月份的周报", 9),
        ("hf", "report for September", 9),
        ("caddy", "八月的月报", 8),
        ("tauri", "monthly report for september", 9),
    ],
)
def test_a_month_report_is_the_month_with_its_weekly_reports(
    bot: ChatBot, channel: str, question: str, month: int
) -> None:
    answer = ask(bot, channel, question)
    language = answer.query.language
    assert answer.window is not None
    assert (answer.window.start, answer.window.end) == (day(month, 1), day(month + 1, 1))
    text = text_of(answer)
    assert say("qa.span_reports.title", language) in text
    assert all(BY_KEY[(CHANNELS[channel], n)].merged.month == month for n in answer.cited)
    # every week the month touches, from the one holding its first day
    first = "2026-W36" if month == 9 else "2026-W31"
    assert first in text


# Two months compared ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question"),
    [
        ("caddy", "九月和十月比，合并的PR多了还是少了？"),
        ("query", "十月相比九月，哪些模块改动更多"),
        ("hf", "compare september and october"),
        ("tauri", "October vs September: more or fewer PRs?"),
    ],
)
def test_two_named_months_compare_the_whole_earlier_one_with_the_later_so_far(
    bot: ChatBot, channel: str, question: str
) -> None:
    answer = ask(bot, channel, question)
    query = answer.query
    assert query.intent == "compare"
    assert "更多" not in query.terms
    assert query.baseline is not None
    assert (query.baseline.start, query.baseline.end) == (day(9, 1), day(10, 1))
    september = sum(1 for p in BY_KEY.values() if p.repo == CHANNELS[channel] and p.merged.month == 9)
    october = sum(1 for p in BY_KEY.values() if p.repo == CHANNELS[channel] and day(10, 1) <= p.merged <= NOW)
    text = text_of(answer)
    language = query.language
    delta = october - september
    change = (
        say("report.delta_up", language, n=delta)
        if delta > 0
        else say("report.delta_down", language, n=-delta)
        if delta < 0
        else say("report.delta_same", language)
    )
    assert say("qa.compare.count", language, now=october, before=september, delta=change) in text
    assert "2026-10-20 10:00" in text or "10-20 10:00" in text  # the later month is partial, said so


# A top-level directory named as a directory -----------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question", "path", "cited"),
    [
        ("query", "which PRs touched the docs directory in September?", "docs/", {8118}),
        ("query", "九月 examples/ 下有什么改动", "examples/", {8118}),
        ("ocr", "最近两个月谁改了 docs 目录下的文件", "docs/", {14020, 14046}),
        ("hf", "PRs touching docs/ since September", "docs/", {34062}),
        ("caddy", "who changed files under caddyconfig since october", "caddyconfig/", {6650}),
        ("tauri", "crates 文件夹下本周有哪些改动", "crates/", {11066}),
    ],
)
def test_a_top_level_directory_is_a_path_filter(
    bot: ChatBot, channel: str, question: str, path: str, cited: set[int]
) -> None:
    answer = ask(bot, channel, question)
    assert answer.query.paths == (path,)
    assert path.rstrip("/") not in answer.query.terms
    assert set(answer.cited) == cited


def test_a_directory_that_is_not_at_the_top_stays_a_word(bot: ChatBot) -> None:
    answer = ask(bot, "caddy", "reverseproxy 目录最近有什么改动")
    assert answer.query.paths == ()
    assert {6661, 6664} <= set(answer.cited)


# PRs a day ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question", "start", "end"),
    [
        ("caddy", "这周合了多少个PR，平均每天几个", day(10, 19), NOW),
        ("hf", "average PRs per day last month", day(9, 1), day(10, 1)),
        ("tauri", "上个月日均合并多少 PR", day(9, 1), day(10, 1)),
        ("query", "how many PRs a day were merged this month?", day(10, 1), NOW),
        ("ocr", "what's the daily merge rate this month", day(10, 1), NOW),
        ("caddy", "上周每天合几个PR", day(10, 12), day(10, 19)),
    ],
)
def test_a_count_per_day_is_over_the_days_gone_by(
    bot: ChatBot, channel: str, question: str, start: datetime, end: datetime
) -> None:
    answer = ask(bot, channel, question)
    assert answer.query.intent == "stats"
    assert answer.query.per_day
    assert not {"average", "per", "day", "平均", "日均"} & set(answer.query.terms)
    n = sum(1 for p in BY_KEY.values() if p.repo == CHANNELS[channel] and start <= p.merged < end)
    days = (end - start).total_seconds() / 86400
    value = say(
        "qa.stats.per_day.value",
        answer.query.language,
        rate=f"{n / days:.1f}",
        n=n,
        days=f"{days:.1f}".removesuffix(".0"),
    )
    assert value in text_of(answer)


# Typos and generic words -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question", "cited"),
    [
        ("tauri", "anything on the updatr lately?", {11066}),
        ("tauri", "anythign about the updater lately?", {11066}),
        ("caddy", "any recnet work on the reverseproxy?", {6661, 6664}),
        ("hf", "anythign on the tokenizer lately?", {34030}),
        # a question of mistyped words is about the repo all the same
        ("hf", "anythign on tokenzier offsets?", {34030}),
    ],
)
def test_a_typo_is_read_as_the_word_meant(bot: ChatBot, channel: str, question: str, cited: set[int]) -> None:
    answer = ask(bot, channel, question)
    assert answer.query.intent == "topic"
    assert not {"anythign", "recnet"} & set(answer.query.terms)
    assert cited <= set(answer.cited)


@pytest.mark.parametrize(
    ("channel", "question", "cited"),
    [
        ("hf", "Which PRs changed the tokenizer handling in September?", {34030}),
        ("caddy", "any reverseproxy logic changes this month?", {6661, 6664}),
        ("query", "devtools stuff in october", {8137}),
    ],
)
def test_generic_words_are_no_subject_and_earn_no_note(
    bot: ChatBot, channel: str, question: str, cited: set[int]
) -> None:
    answer = ask(bot, channel, question)
    assert not {"handling", "logic", "stuff"} & set(answer.query.terms)
    assert not any(word in note for note in answer.query.notes for word in ("handling", "logic", "stuff"))
    assert set(answer.cited) == cited


def test_the_must_reads_counted_are_the_weekly_reports_must_reads(fixture_db: Database) -> None:
    """The must-read count of "上周必读的 PR" is the one the week's report gives in its summary."""
    answer = make_bot(fixture_db).handle(Message("上周 verl 有哪些必读 PR"))
    assert answer.window is not None and answer.window.week is not None
    built = build_weekly_report(
        fixture_db,
        VERL,
        answer.window.week,
        clock=fixture_clock(),
        language="zh",
        fallback=HeuristicAnalyzer().analyze,
    )
    counted = re.search(r"必读 (\d+) 个", built.report.executive_summary)
    assert counted is not None
    assert say("qa.must_read.only_title", "zh", n=int(counted.group(1))) in text_of(answer)
