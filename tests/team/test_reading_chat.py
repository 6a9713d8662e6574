"""Reading claims in words (any platform, and `prhub chat`) on both databases: claims once per reader,
"done" with a takeaway quoted later, who claimed what, and the must-reads nobody has claimed."""

from __future__ import annotations

from datetime import timedelta

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import say
from chatbot.models import Message
from chatbot.team.reading import CardOrigin, parse_value
from chatbot.team.reading_chat import parse_reading_command
from tests.reports.fixtures import REPO, SHANGHAI, WEEK_START, seed


@pytest.fixture
def bot(db):
    seed(db)
    return ChatBot(
        db, BotConfig(SHANGHAI), FixedClock(WEEK_START + timedelta(days=8)), HeuristicAnalyzer().analyze
    )


def ask(bot: ChatBot, text: str, user: str = "li") -> str:
    return bot.handle(Message(text, user=user)).reply.plain_text()


@pytest.mark.parametrize(
    ("text", "action", "number", "takeaway"),
    [
        ("我来读 #101", "claim", 101, ""),
        ("我来读#101", "claim", 101, ""),
        ("I'll read widgets #101", "claim", 101, ""),
        ("claim 101", "claim", 101, ""),
        ("读完了 #101 切分方式值得学", "done", 101, "切分方式值得学"),
        ("done #101: the split is neat", "done", 101, "the split is neat"),
        ("读完了", "done", None, ""),
    ],
)
def test_reading_commands_in_both_languages(text, action, number, takeaway):
    command = parse_reading_command(text)
    assert command is not None
    assert (command.action, command.number, command.takeaway) == (action, number, takeaway)


@pytest.mark.parametrize(
    "text", ["已读的 PR 有哪些", "claim the bug is fixed", "doneness of #101", "认领风险"]
)
def test_sentences_that_merely_start_like_a_command_are_questions(text):
    assert parse_reading_command(text) is None


def test_a_claim_is_recorded_once_per_reader_and_both_readers_show(bot):
    assert ask(bot, "我来读 widgets #101") == say("reading.claimed", "zh", name="@li", number=101)
    assert ask(bot, "我来读 #101") == say("reading.already", "zh", name="@li", number=101)
    assert ask(bot, "I'll read #101", user="wang") == say("reading.claimed", "en", name="@wang", number=101)
    card = ask(bot, "widgets 上周周报")
    assert say("reading.reading", "zh", names="@li、@wang") in card


def test_done_with_a_takeaway_is_quoted_in_answers_about_the_pr_and_in_my_claims(bot):
    ask(bot, "读完了 #101 流水线切分值得学习", user="wang")
    assert "流水线切分值得学习" in ask(bot, "widgets #101 讲了什么")
    mine = ask(bot, "我认领了哪些 PR？", user="wang")
    assert say("reading.mine.title", "zh", n=1) in mine and "流水线切分值得学习" in mine
    assert ask(bot, "what did I claim?", user="nobody") == say("reading.mine.none", "en")


def test_the_unclaimed_must_reads_of_a_week_are_listed(bot):
    ask(bot, "我来读 #101")
    text = ask(bot, "widgets 上周必读还有哪些没人读？")
    assert "#102" in text and "#101 @li" in text
    assert text.index("#102") < text.index("#101 @li")


def test_a_claim_of_a_pr_not_in_the_index_is_refused_and_a_bare_command_explained(bot):
    assert ask(bot, "我来读 widgets #999") == say("qa.pr.unknown", "zh", repo=REPO, number=999)
    assert ask(bot, "读完了") == say("reading.need_pr", "zh")


def test_a_button_value_round_trips_and_foreign_values_are_ignored():
    origin = CardOrigin(REPO, "2026-W25", "en", "Asia/Shanghai", 7)
    assert parse_value(origin.value(101)) == (origin, 101)
    assert parse_value("acme/widgets 2026-W25") is None
    assert parse_value('{"r": 1}') is None


def test_the_report_of_the_week_a_pr_was_read_lists_who_read_it_and_their_takeaway(bot):
    ask(bot, "读完了 #101 流水线切分值得学习", user="wang")  # in W26: the clock is W25's end + 1 day
    text = ask(bot, "widgets 本周周报")
    assert say("reading.section.read", "zh") in text
    assert say("reading.note", "zh", number=101, names="@wang") in text and "流水线切分值得学习" in text
    assert say("reading.section.read", "zh") not in ask(bot, "widgets 上周周报")
