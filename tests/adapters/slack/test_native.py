"""Slack feels like an assistant: a question in a channel or a DM gets a thinking message at once,
updated in place (`chat.update`) into the answer. Real signed requests to the bolt app, the fake Web API
checking each method's arguments."""

from __future__ import annotations

import pytest

from adapters.slack.blocks import render_blocks, thinking_message
from chatbot.messages import say
from chatbot.models import Message
from chatbot.team.feedback import rated
from tests.adapters.slack.conftest import SlackHarness
from tests.fakes.slack import direct_message, mention

QUESTIONS = ["上周 widgets 有哪些风险？", "what did widgets merge last week?", "#101 讲了什么", "帮助"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_question_gets_a_thinking_message_updated_into_the_answer(slack: SlackHarness, question: str):
    slack.event(mention(question, channel="C5", ts="1750000000.000700"))
    slack.drain()
    (thinking,) = slack.fake.called("chat.postMessage", ok=True)
    language = "en" if question.startswith(("what", "help")) else "zh"
    expected_thinking = thinking_message(language)
    assert (thinking.params["text"], thinking.params["blocks"]) == (
        expected_thinking["text"],
        expected_thinking["blocks"],
    )
    assert thinking.params["thread_ts"] == "1750000000.000700"
    (update,) = slack.fake.called("chat.update", ok=True)
    assert (update.params["channel"], update.params["ts"]) == ("C5", thinking.answer["ts"])
    answer = slack.bot.handle(Message(question, platform="slack", channel="C5"))
    first = render_blocks(rated(answer), language=answer.query.language)[0]
    assert (update.params["text"], update.params["blocks"]) == (first["text"], first["blocks"])


def test_a_command_in_a_mention_is_answered_without_a_thinking_message(slack: SlackHarness):
    slack.event(mention("订阅列表", channel="C5"))
    slack.drain()
    assert slack.fake.called("chat.update") == []
    assert len(slack.fake.called("chat.postMessage", ok=True)) == 1


def test_when_the_update_is_refused_the_answer_is_posted_and_the_thinking_message_removed(
    slack: SlackHarness,
):
    slack.fake.fail("chat.update", "message_not_found")
    slack.event(direct_message("#101 讲了什么？", channel="D3"))
    slack.drain()
    (answer,) = slack.fake.shown()
    assert answer.updates == 0 and "pipeline parallel for Qwen3" in str(answer.blocks)
    assert len(slack.fake.called("chat.delete", ok=True)) == 1


def test_when_the_thinking_message_is_refused_the_answer_is_posted_as_usual(slack: SlackHarness):
    slack.fake.fail("chat.postMessage", "not_in_channel")
    slack.event(mention("上周 widgets 有哪些风险？", channel="C6", ts="1750000000.000800"))
    slack.drain()
    (answer,) = slack.fake.shown()
    assert answer.thread_ts == "1750000000.000800"
    assert say("qa.risks.title", "zh") in str(answer.blocks)
    assert slack.fake.called("chat.update") == []
