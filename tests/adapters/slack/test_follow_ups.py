"""Follow-ups in Slack threads, through real signed requests to the Slack app: a reply in the thread of
a question is read against it; the same words outside the thread are a question of their own."""

from __future__ import annotations

import json

from chatbot.messages import say
from tests.adapters.slack.conftest import SlackHarness
from tests.fakes.slack import mention


def test_a_follow_up_in_the_thread_keeps_the_question_and_changes_the_week(slack: SlackHarness):
    slack.event(mention("widgets 上上周有哪些风险？", channel="C1", ts="1750000000.000100"), "Ev1")
    slack.fake.wait_for("chat.update")
    in_thread = mention("那上周呢？", channel="C1", ts="1750000000.000200") | {
        "thread_ts": "1750000000.000100"
    }
    slack.event(in_thread, "Ev2")

    slack.drain()
    _, second = slack.fake.shown()
    assert second.thread_ts == "1750000000.000100"
    text = json.dumps(second.blocks, ensure_ascii=False)
    assert say("qa.risks.title", "zh") in text  # still the risks
    assert "2026-06-15" in text and "#102" in text  # of last week now


def test_the_same_words_outside_the_thread_do_not_continue_it(slack: SlackHarness):
    slack.event(mention("widgets 上上周有哪些风险？", channel="C1", ts="1750000000.000100"), "Ev1")
    slack.fake.wait_for("chat.update")
    slack.event(mention("那上周呢？", channel="C1", ts="1750000000.000300"), "Ev3")

    slack.drain()
    _, second = slack.fake.shown()
    assert second.thread_ts == "1750000000.000300"
    assert say("qa.risks.title", "zh") not in json.dumps(second.blocks, ensure_ascii=False)
