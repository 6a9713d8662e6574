"""Phrasings the parser used to search word by word. Words about the answer's shape rather than its
subject ("in 3 bullets", "用三句话总结", "briefly", "简单说说", "tl;dr"): never searched (a search for
"bullets" found nothing and emptied the answer), and a number of bullets or sentences caps the list.
Asking whether we must change our code: the breaking changes. Several phrasings in both languages on
repos of other shapes (tests/qa/other_repos.py, clock: Wednesday 2026-06-24), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.parse import KnownRepo, ParseContext, parse_query
from chatbot.store.db import open_database
from tests.qa.other_repos import FACTORY, NOW, SHANGHAI, TRL, TUNE, Written, at, clock, store_written
from tests.qa.test_any_repo import bot, other_db  # noqa: F401  (the shared fixtures)

CONTEXT = ParseContext(NOW, SHANGHAI, (KnownRepo(TRL), KnownRepo(FACTORY), KnownRepo(TUNE)))


@pytest.mark.parametrize(
    ("question", "limit"),
    [
        ("summarize trl's last two weeks in 3 bullets", 3),
        ("what happened in torchtune this month, in two sentences", 2),
        ("用三句话总结一下 trl 上周", 3),
        ("llamafactory 上周的改动，列 5 点", 5),
        ("briefly, what happened in trl last week?", None),
        ("trl 上周简单说说", None),
        ("tl;dr of torchtune last week", None),
        ("llamafactory 这周一句话概括", None),
    ],
)
def test_the_answers_shape_is_no_search_word(question: str, limit: int | None) -> None:
    query = parse_query(question, CONTEXT)
    assert query.intent == "highlights", query
    assert not query.terms, query
    assert query.limit == limit


@pytest.mark.parametrize(
    "question", ["summarize trl's last two weeks in 3 bullets", "用三句话总结一下 trl 最近两周"]
)
def test_a_number_of_bullets_caps_the_list(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = bot.handle(Message(question))
    assert 1 <= len(answer.cited) <= 3, answer.reply.plain_text()


def test_a_topic_keeps_its_words_beside_a_shape(bot: ChatBot) -> None:  # noqa: F811
    answer = bot.handle(Message("briefly: what changed about PEFT in trl this month?"))
    assert "peft" in {t.lower() for t in (*answer.query.terms, *answer.query.topics)}
    assert answer.cited and "#3450" in answer.reply.plain_text()


# What makes users change their code is the breaking filter, and those words are not searched -------


@pytest.mark.parametrize(
    "question",
    [
        "trl 最近合并的 PR 里，有需要我们改代码的吗",
        "torchtune 这周的改动需要用户跟着修改调用吗",
        "anything in trl this month that means we have to change our code?",
        "will torchtune's changes this month force us to update our scripts?",
        "do we need to migrate our code after llamafactory's last two weeks?",
    ],
)
def test_what_makes_us_change_our_code_is_the_breaking_filter(question: str) -> None:
    query = parse_query(question, CONTEXT)
    assert query.breaking, query
    assert not {"change", "code", "scripts", "update", "means", "改代码", "代码"} & set(query.terms), query


def test_changing_our_code_finds_the_removed_argument(bot: ChatBot) -> None:  # noqa: F811
    answer = bot.handle(Message("trl 最近合并的 PR 里，有需要我们改代码的吗"))
    assert "#3455" in answer.reply.plain_text()  # "Remove deprecated max_length argument from DPOConfig"


# A list line shows the key point that speaks to the question ------------------------------------------

WIDGETS = "acme/widgets"
MIXED = Written(
    WIDGETS,
    41,
    at(6, 22),
    "dana",
    "Speed up the exporter",
    "- Stream rows to the exporter instead of building the whole table in memory.\n"
    "- Bump pyarrow to 16.1 in requirements.txt, needed for the streaming writer.\n"
    "- Add a --chunk-size flag to the export command.",
    ("widgets/export.py", "requirements.txt"),
)


@pytest.fixture(scope="module")
def widgets_bot(tmp_path_factory: pytest.TempPathFactory) -> ChatBot:
    db = open_database(f"sqlite:///{tmp_path_factory.mktemp('widgets') / 'prhub.db'}")
    store_written(db, [MIXED], NOW)
    return ChatBot(db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: None)


@pytest.mark.parametrize(
    ("question", "point"),
    [
        ("widgets 最近依赖有变化吗", "pyarrow"),
        ("any dependency bumps in widgets lately?", "pyarrow"),
        ("widgets 最近有新的命令行参数吗", "chunk-size"),
        ("what new CLI flags did widgets add?", "chunk-size"),
    ],
)
def test_a_list_line_shows_the_key_point_that_speaks_to_the_question(
    widgets_bot: ChatBot, question: str, point: str
) -> None:
    line = next(
        line
        for line in widgets_bot.handle(Message(question)).reply.plain_text().splitlines()
        if "#41" in line
    )
    assert point in line, line


@pytest.mark.parametrize(
    "question",
    [
        "widgets #41 改了哪些文件",
        "41 这个 PR 动了哪些文件？",
        "which files did #41 change?",
        "widgets PR 41: files changed?",
    ],
)
def test_asking_which_files_a_pr_changed_lists_them(widgets_bot: ChatBot, question: str) -> None:
    text = widgets_bot.handle(Message(question)).reply.plain_text()
    heading = say("pr.section.files", "zh" if "改" in question or "动" in question else "en")
    assert heading in text, text
    files = text.split(heading, 1)[1]
    assert "widgets/export.py" in files and "requirements.txt" in files


@pytest.mark.parametrize("question", ["widgets #41 讲了什么", "what does #41 do?"])
def test_a_pr_card_lists_files_only_when_asked(widgets_bot: ChatBot, question: str) -> None:
    text = widgets_bot.handle(Message(question)).reply.plain_text()
    assert say("pr.section.files", "zh") not in text and say("pr.section.files", "en") not in text
