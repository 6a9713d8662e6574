"""Feishu feels like an assistant: a question gets a thinking card at once, updated in place into the
answer; help and refusals in a group are cards only the asker sees. End to end, through encrypted and
signed pushes and lark's client against the fake Open API."""

from __future__ import annotations

import pytest

from adapters.feishu.card import render_card, thinking_card
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message, Paragraph, Reply, plain
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService
from chatbot.team.feedback import rated
from tests.adapters.feishu.conftest import NOW, PUBLIC_URL, TOKEN, FeishuHarness
from tests.fakes.feishu import text_event
from tests.reports.fixtures import SHANGHAI

QUESTIONS = [
    "本周 widgets 有哪些风险？",
    "what did widgets merge last week?",
    "#101 讲了什么",
    "上周 widgets 值得精读的 PR",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_question_gets_a_thinking_card_that_becomes_the_answer(feishu: FeishuHarness, question: str):
    event = text_event(f"@_user_1 {question}", chat_id="oc_team")
    feishu.push(event.payload(TOKEN))
    feishu.settle()
    thinking, update = feishu.fake.sent
    language = "en" if question.startswith("what") else "zh"
    assert (thinking.kind, thinking.target, thinking.content) == (
        "reply",
        event.message_id,
        thinking_card(language),
    )
    answer = feishu.bot.handle(Message(question, platform="feishu", channel="oc_team"))
    # the same message, updated: not a second one
    assert (update.kind, update.target) == ("patch", thinking.message_id)
    assert update.content == render_card(rated(answer), language=answer.query.language)


def test_a_command_is_answered_at_once_without_a_thinking_card(feishu: FeishuHarness):
    feishu.push(text_event("@_user_1 订阅列表", chat_id="oc_team").payload(TOKEN))
    feishu.settle()
    assert [s.kind for s in feishu.fake.sent] == ["reply"]


def test_when_the_update_is_refused_the_answer_is_a_reply_of_its_own(feishu: FeishuHarness):
    feishu.fake.fail(1, code=230099, msg="card content failed", after=1)
    event = text_event(f"@_user_1 {QUESTIONS[0]}", chat_id="oc_team")
    feishu.push(event.payload(TOKEN))
    feishu.settle()
    kinds = [(s.kind, s.target) for s in feishu.fake.sent]
    assert kinds == [("reply", event.message_id), ("reply", event.message_id)]
    assert say("qa.risks.title", "zh") in str(feishu.fake.sent[1].content)


@pytest.mark.parametrize("text", ["帮助", "help", "今天天气怎么样", "本周 acme/nosuchrepo 有哪些风险？"])
def test_help_and_questions_not_understood_in_a_group_go_to_the_asker_alone(feishu: FeishuHarness, text: str):
    feishu.push(text_event(f"@_user_1 {text}", chat_id="oc_team", sender="ou_carol").payload(TOKEN))
    [card] = feishu.shown()  # the thinking card was withdrawn
    assert (card.kind, card.target, card.to_user) == ("private", "oc_team", "ou_carol")
    answer = feishu.bot.handle(Message(text, platform="feishu", channel="oc_team", user="ou_carol"))
    assert card.content == render_card(rated(answer), language=answer.query.language)
    assert [s.kind for s in feishu.fake.sent] == ["reply", "private", "recall"]


def test_in_a_direct_chat_help_is_an_ordinary_answer(feishu: FeishuHarness):
    feishu.push(text_event("帮助", chat_id="oc_direct", chat_type="p2p", mentions=[]).payload(TOKEN))
    [card] = feishu.shown()
    assert card.kind == "reply" and not any(s.kind == "private" for s in feishu.fake.sent)


def test_where_per_user_cards_are_unavailable_help_is_answered_in_the_open(feishu: FeishuHarness):
    feishu.fake.private_cards_unavailable = 230027  # e.g. a topic group, or the permission not granted
    event = text_event("@_user_1 帮助", chat_id="oc_topics")
    feishu.push(event.payload(TOKEN))
    [card] = feishu.shown()
    assert (card.kind, card.target) == ("reply", event.message_id)
    assert card.content["header"]["title"]["content"] == say("qa.help.title", "zh")


def test_a_subscription_refused_for_permission_is_shown_to_that_user_only(feishu: FeishuHarness):
    policy = SubscriptionPolicy("Asia/Shanghai", admins=frozenset({"ou_admin"}))
    feishu.adapter.bot = ChatBot(
        feishu.bot.db,
        BotConfig(SHANGHAI, PUBLIC_URL),
        feishu.bot.clock,
        feishu.bot.fallback,
        subscriptions=SubscriptionService(feishu.bot.db, feishu.bot.clock, policy),
    )
    feishu.push(text_event("@_user_1 订阅 acme/widgets", chat_id="oc_team", sender="ou_dave").payload(TOKEN))
    [card] = feishu.shown()
    refusal = Reply((Paragraph((plain(say("sub.refused.permission", "zh")),)),), ephemeral=True)
    assert (card.kind, card.to_user) == ("private", "ou_dave")
    assert card.content == render_card(refusal, language="zh")
    assert feishu.bot.clock.now() == NOW
