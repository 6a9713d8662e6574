"""Breaking changes and configuration questions over `acme/anvil` (tests/qa/interfaces_repo.py: plain
titles, Chinese bodies, hand-made analyses in both languages), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer, Composer
from chatbot.qa.parse import KnownRepo, ParseContext, language_of, parse_query
from chatbot.qa.retrieve import gather
from chatbot.reports.weekly import build_weekly_report
from chatbot.store.db import Database
from chatbot.weeks import Week
from tests.conftest import POSTGRES_URL
from tests.qa.interfaces_repo import ANVIL, NOW, SHANGHAI, clock, seed
from tests.scratch_db import seeded_database


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def anvil_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("anvil")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_anvil") as database:
        yield database


@pytest.fixture(scope="module")
def bot(anvil_db: Database) -> ChatBot:
    return ChatBot(
        anvil_db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: None
    )


def ask(bot: ChatBot, question: str) -> Answer:
    return bot.handle(Message(question, platform="test", channel="C1"))


# Breaking changes: the flagged ones, then those whose analysis says they may break callers -------------

BREAKING_QUESTIONS = [
    "anvil 本月有哪些破坏性变更？",
    "breaking changes in anvil this month",
    "anvil 这个月有不兼容的改动吗",
    "any breaking changes in anvil last week?",
    "anvil 上周有没有 breaking change",
]


@pytest.mark.parametrize("question", BREAKING_QUESTIONS)
def test_a_breaking_answer_lists_the_flagged_prs_then_those_that_may_break_callers(
    bot: ChatBot, question: str
) -> None:
    """#901 is flagged breaking; #902 removes a public definition and #903 renames a config key (medium
    compatibility risks); #904's are a newer dependency and a low one: not callers' breakage."""
    answer = ask(bot, question)
    language = language_of(question)
    text = answer.reply.plain_text()
    assert answer.cited == (901, 902, 903)
    assert say("qa.breaking.may_break", language) in text
    removed = (
        "删除了公共接口 open_session" if language == "zh" else "public definitions removed (open_session)"
    )
    assert removed in text
    assert text.index("#901") < text.index(say("qa.breaking.may_break", language)) < text.index("#902")


@pytest.mark.parametrize("question", BREAKING_QUESTIONS)
def test_a_breaking_filter_reads_as_a_filter_not_a_search(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    text = answer.reply.plain_text()
    assert "搜索" not in text and "Searching" not in text
    assert say("qa.understood.breaking", language_of(question)).lower() in text.lower()


@pytest.mark.parametrize(
    "question", ["anvil 上周 session 相关的破坏性变更", "breaking changes to session in anvil last week"]
)
def test_without_flagged_prs_the_ones_that_may_break_callers_are_the_answer(
    bot: ChatBot, question: str
) -> None:
    answer = ask(bot, question)
    language = language_of(question)
    text = answer.reply.plain_text()
    assert answer.cited == (902,)
    assert say("qa.breaking.none_flagged", language) in text
    # the module is searched among the breaking changes, not beside them as one more word
    assert "'session'" in text and f"'{say('qa.understood.breaking', language)}'" not in text
    assert f"'session'、{say('qa.understood.breaking', language)}" not in text


def test_the_breaking_answer_reads_through_parse_retrieve_and_compose(anvil_db: Database) -> None:
    context = ParseContext(NOW, SHANGHAI, (KnownRepo(ANVIL, ("anvil",)),))
    query = parse_query("anvil 本月有哪些破坏性变更？", context)
    assert query.breaking
    with anvil_db.session() as session:
        evidence = gather(session, query, query.window, HeuristicAnalyzer().analyze, until=NOW)
    assert set(evidence.may_break) == {902, 903}
    answer = Composer(query, query.window, evidence, NOW, SHANGHAI).filtered("破坏性变更")
    assert answer.cited == (901, 902, 903)
    assert answer.count == 3


# Configuration: the PRs whose analyses record a change, with the keys ----------------------------------


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("上周 anvil 改了哪些配置项？", (905, 906, 903, 908)),
        ("anvil 上周配置有什么变化", (905, 906, 903, 908)),
        ("which config options changed in anvil last week", (905, 906, 903, 908)),
        ("what configuration changes did anvil merge last week?", (905, 906, 903, 908)),
        ("anvil 上周新增了哪些配置参数", (905, 908)),
        ("anvil 上周哪些 PR 改了默认值", (906,)),
        ("what defaults changed in anvil last week", (906,)),
        ("any new CLI flags in anvil last week", (907,)),
        ("anvil 上周新增了哪些命令行参数", (907,)),
    ],
)
def test_a_config_question_lists_the_prs_whose_analyses_record_a_config_change(
    bot: ChatBot, question: str, expected: tuple[int, ...]
) -> None:
    """Most important first; #909 only mentions a config example in words, #901 changes no config."""
    answer = ask(bot, question)
    assert answer.cited == expected, answer.reply.plain_text()
    assert "搜索" not in answer.reply.plain_text() and "Searching" not in answer.reply.plain_text()


@pytest.mark.parametrize(
    ("question", "keys"),
    [
        (
            "上周 anvil 改了哪些配置项？",
            ("新增配置项：pool.size、pool.idle_timeout", "timeout → request_timeout"),
        ),
        (
            "which config options changed in anvil last week",
            ("new config keys: pool.size", "retry.max_attempts 3 → 5"),
        ),
        ("anvil 上周新增了哪些配置参数", ("pool.idle_timeout", "log.format")),
        ("any new CLI flags in anvil last week", ("--dry-run, --verbose",)),
    ],
)
def test_each_config_line_names_the_keys_its_analysis_records(
    bot: ChatBot, question: str, keys: tuple[str, ...]
) -> None:
    text = ask(bot, question).reply.plain_text()
    assert all(key in text for key in keys), text


def test_a_config_question_without_recorded_changes_searches_the_words(bot: ChatBot) -> None:
    """No analysis of the month before records a config change: the words are searched as before."""
    answer = ask(bot, "anvil 三月改了哪些配置项")
    assert answer.cited == ()


@pytest.mark.parametrize(
    ("question", "scope"),
    [
        ("上周 anvil 改了哪些配置项？", "all"),
        ("which config options changed in anvil last week", "all"),
        ("anvil 上周哪些 PR 改了默认值", "default"),
        ("what defaults changed in anvil last week", "default"),
        ("any new CLI flags in anvil last week", "cli"),
        ("anvil 上周新增了哪些配置参数", "added"),
    ],
)
def test_a_config_answer_says_which_recorded_changes_it_lists(
    bot: ChatBot, question: str, scope: str
) -> None:
    text = ask(bot, question).reply.plain_text()
    assert say(f"qa.understood.config.{scope}", language_of(question)).lower() in text.lower()


@pytest.mark.parametrize(
    "question", ["anvil 上周新增了哪些配置参数", "anvil 本月新增了哪些命令行参数", "anvil 新增了哪些配置项"]
)
def test_new_config_keys_are_no_question_about_new_features(question: str) -> None:
    query = parse_query(question, ParseContext(NOW, SHANGHAI, (KnownRepo(ANVIL, ("anvil",)),)))
    assert query.change_types == ()
    assert set(query.topics) & {"config", "cli"}


def test_the_breaking_answer_names_the_prs_the_weekly_report_sees_breaking_callers(
    anvil_db: Database, bot: ChatBot
) -> None:
    """The week's report names #901 (breaking), #902 and #903 (a definition removed, a config key renamed)
    among its compatibility risks, and #904 (a newer grpcio required): the breaking answer names the
    first three, so the two do not disagree; #904's requirement breaks no caller's call."""
    built = build_weekly_report(
        anvil_db,
        ANVIL,
        Week(2026, 16, SHANGHAI),
        clock=clock(),
        language="zh",
        fallback=HeuristicAnalyzer().analyze,
    )
    reported = {
        number
        for risk in built.report.risks
        if risk.category in ("breaking-change", "compatibility")
        for number in risk.prs
    }
    assert reported == {901, 902, 903, 904}
    assert set(ask(bot, "anvil 上周有哪些破坏性变更").cited) == reported - {904}
