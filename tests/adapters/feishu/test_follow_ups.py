"""Follow-ups in Feishu topics, through real pushed events to the Feishu app: a reply in the topic of a
question (its root_id) is read against it."""

from __future__ import annotations

import json

from chatbot.messages import say
from tests.adapters.feishu.conftest import TOKEN, FeishuHarness
from tests.fakes.feishu import text_event


def test_a_follow_up_in_the_topic_keeps_the_question_and_changes_the_week(feishu: FeishuHarness):
    question = text_event("@_user_1 widgets 上上周有哪些风险？", chat_id="oc_team")
    feishu.push(question.payload(TOKEN))
    feishu.settle()
    follow = text_event("@_user_1 那上周呢？", chat_id="oc_team", root_id=question.message_id)
    feishu.push(follow.payload(TOKEN))

    _, sent = feishu.shown()
    assert (sent.target, sent.reply_in_thread) == (follow.message_id, True)
    card = json.dumps(sent.content, ensure_ascii=False)
    assert say("qa.risks.title", "zh") in card
    assert "2026-06-15" in card and "/pull/102" in card


def test_a_new_topic_starts_a_new_conversation(feishu: FeishuHarness):
    feishu.push(text_event("@_user_1 widgets 上上周有哪些风险？", chat_id="oc_team").payload(TOKEN))
    feishu.settle()
    feishu.push(text_event("@_user_1 那上周呢？", chat_id="oc_team").payload(TOKEN))

    _, sent = feishu.shown()
    assert say("qa.risks.title", "zh") not in json.dumps(sent.content, ensure_ascii=False)
