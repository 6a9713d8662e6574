"""Transcripts: ask the bot as a person would, read what the terminal shows (the console adapter), and
check the facts a reader needs. Sentences are compared through `say(...)`, never copied."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from rich.console import Console

from adapters.console import render_console
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import BulletList, Message
from tests.qa.conftest import PUBLIC_URL
from tests.qa.fixture_repo import BY_KEY, INJECTION_PR, SHANGHAI, VERL, VLLM, fixture_clock


class Transcript:
    """A console chat with the bot: `ask` sends one message and returns the reply as printed."""

    def __init__(self, bot: ChatBot, channel: str | None = None) -> None:
        self.bot, self.channel = bot, channel

    def ask(self, text: str) -> str:
        answer = self.bot.handle(Message(text, channel=self.channel))
        out = StringIO()
        render_console(answer.reply, Console(file=out, width=400, color_system=None, highlight=False))
        return out.getvalue()


@pytest.fixture
def chat(bot: ChatBot) -> Transcript:
    return Transcript(bot)


def pr_link(repo: str, number: int) -> str:
    """A cited PR as a pipe shows it: the answer names it, and its link is listed once after it."""
    return f"\n#{number} https://github.com/{repo}/pull/{number}\n"


def test_a_risk_question_names_the_repo_the_window_as_of_now_the_risks_with_links_and_freshness(
    chat: Transcript,
) -> None:
    reply = chat.ask("本周 verl 有哪些风险？")

    window = say("qa.window.as_of", "zh", start="2026-06-22", end="2026-06-28", now="06-24 10:00")
    assert say("qa.heading", "zh", repo=VERL, window=window) in reply
    # each PR's own risks, worst first, as the analyses state them
    assert reply.index("#6532 需要 Hopper GPU") < reply.index("#6535 sleep mode 下 KV cache 未释放")
    assert reply.index("#6535 sleep mode") < reply.index("#6532 FP8 amax history 额外占用显存")
    for number in (6532, 6535, 6541, 6530, 6537):
        assert pr_link(VERL, number) in reply
    assert say("qa.freshness", "zh", synced="2026-06-24 09:45") in reply


def test_the_plain_text_of_a_risk_answer_names_repo_window_and_freshness(bot: ChatBot) -> None:
    text = bot.handle(Message("本周 verl 有哪些风险？")).reply.plain_text()

    assert VERL in text
    assert "截至 06-24 10:00" in text
    assert "#6532" in text
    assert say("qa.freshness", "zh", synced="2026-06-24 09:45") in text


def test_last_weeks_risks_come_from_the_stored_weekly_report(chat: Transcript) -> None:
    reply = chat.ask("上周 verl 有哪些风险？")

    assert say("qa.window", "zh", start="2026-06-15", end="2026-06-21") in reply
    assert say("qa.risks.from_report", "zh", week="2026-W25", version=1) in reply
    assert pr_link(VERL, 6512) in reply
    # one PR's mechanism a line, as the report words it, worst first; not category buckets
    assert reply.index("[高] #6512 EP=8 时 all-to-all buffer") < reply.index(
        "[中] #6509 loss_agg_mode 默认值从 token-mean 改为 seq-mean"
    )
    assert "1 个 PR" not in reply


def test_an_english_reader_of_last_weeks_risks_gets_no_chinese_risk_line(chat: Transcript) -> None:
    reply = chat.ask("what were the risks in verl last week?")

    assert say("qa.risks.from_report", "en", week="2026-W25", version=1) in reply
    # the fixture's analyses are worded in Chinese only: their risks are named by category
    assert f"#6512: {say('qa.risk.memory', 'en')}" in reply
    risk_lines = [line for line in reply.splitlines() if line.startswith("• [")]
    assert risk_lines
    assert not [line for line in risk_lines if re.search(r"[\u4e00-\u9fff]", line)]


def test_an_english_question_gets_an_english_answer(chat: Transcript) -> None:
    reply = chat.ask("What are the risks in verl this week?")

    window = say("qa.window.as_of", "en", start="2026-06-22", end="2026-06-28", now="06-24 10:00")
    assert say("qa.heading", "en", repo=VERL, window=window) in reply
    assert say("qa.risks.title", "en") in reply
    # analyses stored in Chinese only: their risks are named by category, in English
    assert f"#6535 {say('qa.risk.memory', 'en')}" in reply
    assert "KV cache 未释放" not in reply
    assert say("qa.freshness", "en", synced="2026-06-24 09:45") in reply
    assert say("qa.risks.title", "zh") not in reply


def test_an_empty_window_says_so_and_offers_the_last_complete_week(chat: Transcript) -> None:
    reply = chat.ask("本周 vllm 有哪些风险？")

    window = say("qa.window.as_of", "zh", start="2026-06-22", end="2026-06-28", now="06-24 10:00")
    assert say("qa.empty", "zh", repo=VLLM, window=window) in reply
    offer = say(
        "qa.empty.offer",
        "zh",
        week="2026-W25",
        period=say("report.period", "zh", start="06-15", end="06-21"),
        n=8,
        example=say("qa.empty.offer_example", "zh", name="vllm"),
    )
    assert offer in reply


def test_an_unknown_repo_gets_the_list_of_indexed_repos(chat: Transcript) -> None:
    reply = chat.ask("本周 pytorch/pytorch 有哪些风险？")

    assert say("qa.repo.unknown", "zh", repo="pytorch/pytorch", known=f"{VERL}、{VLLM}") in reply


def test_a_question_without_a_repo_is_answered_with_the_question_which_repo(chat: Transcript) -> None:
    reply = chat.ask("what are this week's risks?")

    assert say("qa.repo.which", "en", known=f"{VERL}, {VLLM}", example="verl") in reply


def test_a_channel_subscribed_to_verl_needs_no_repo_name(bot: ChatBot) -> None:
    reply = Transcript(bot, channel="verl-channel").ask("#6512 讲了什么？")

    assert "#6512 [megatron] feat: Megatron 支持 Qwen3-MoE expert parallel" in reply
    assert f" https://github.com/{VERL}/pull/6512\n" in reply


def test_an_unknown_pr_is_said_to_be_missing_from_the_index(chat: Transcript) -> None:
    reply = chat.ask("verl #9999 讲了什么")

    assert say("qa.pr.unknown", "zh", repo=VERL, number=9999) in reply


def test_a_future_window_has_nothing_to_report_yet(chat: Transcript) -> None:
    reply = chat.ask("下周 verl 有哪些风险")

    assert (
        say("qa.future", "zh", window=say("qa.window", "zh", start="2026-06-29", end="2026-07-05")) in reply
    )


def test_help_lists_example_questions_and_commands(chat: Transcript) -> None:
    """The examples name the channel's repo and its newest PR (#6541, merged at 09:30), which can be
    asked about (they named #6512 of verl whatever the index held)."""
    reply = chat.ask("帮助")

    assert say("qa.help.title", "zh") in reply
    assert say("qa.example.risks", "zh", repo="verl") in reply
    assert say("qa.example.pr", "zh", number=6541) in reply
    assert say("qa.help.commands", "zh", repo="verl") in reply


def test_nonsense_gets_a_short_answer_with_examples(chat: Transcript) -> None:
    reply = chat.ask("asdfghjkl")

    assert say("qa.unknown", "en") in reply
    assert say("qa.example.risks", "en", repo="verl") in reply


def test_a_pr_title_with_mentions_stays_inert_text(chat: Transcript) -> None:
    reply = chat.ask(f"https://github.com/{VERL}/pull/{INJECTION_PR}")

    assert "<!channel> @all" in reply


def test_a_short_conversation_reads_like_chat(chat: Transcript) -> None:
    assert pr_link(VERL, 6512) in chat.ask("上周 verl 有什么亮点")
    assert say("qa.stats.title", "zh") in chat.ask("上周 verl 合并了多少 PR？")
    assert say("qa.count", "zh", n=14) in chat.ask("上周 verl 合并了多少 PR？")
    assert say("qa.must_read.only_title", "zh", n=2) in chat.ask("上周 verl 有哪些必读 PR")


@pytest.mark.parametrize(
    "question",
    [
        "上周 verl 有什么亮点",
        "上周 verl megatron 相关的改动",
        "verl 上周环比",
        "搜索 verl expert parallel",
        "@bob 的 verl PR",
    ],
)
def test_every_listed_pr_shows_its_key_point(chat: Transcript, question: str) -> None:
    assert pr_link(VERL, 6512) in chat.ask(question)
    assert BY_KEY[VERL, 6512].key_point in chat.ask(question)


def test_a_chinese_risk_answer_labels_severity_in_chinese(chat: Transcript) -> None:
    reply = chat.ask("本周 verl 有哪些风险？")
    assert f"[{say('report.severity.high', 'zh')}] " in reply
    assert not any(f"[{level}]" in reply for level in ("high", "medium", "low"))


@pytest.mark.parametrize(
    "question", ["本周 verl 有哪些风险？", "上周 verl 有哪些风险？", "what were the risks in verl last week?"]
)
def test_every_pr_number_in_a_risk_answer_is_a_link(bot: ChatBot, question: str) -> None:
    reply = bot.handle(Message(question)).reply
    items = [item for block in reply.blocks if isinstance(block, BulletList) for item in block.items]
    assert items
    for item in items:
        for span in item:
            assert span.url or not re.search(r"#\d{3,}", span.text), item


def test_a_failure_inside_the_bot_gets_a_polite_reply_not_a_trace(fixture_db, caplog) -> None:
    def unreachable(message: Message) -> str | None:
        raise ConnectionError("the subscriptions database went away")

    bot = ChatBot(
        fixture_db,
        BotConfig(SHANGHAI, PUBLIC_URL),
        fixture_clock(),
        HeuristicAnalyzer().analyze,
        channel_repo=unreachable,
    )

    reply = bot.handle(Message("本周有哪些风险？", channel="C1")).reply.plain_text()

    assert reply == say("qa.failed", "zh")
    assert "went away" not in reply
    assert "the subscriptions database went away" in caplog.text
