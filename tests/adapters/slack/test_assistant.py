"""Slack's assistant panel, end to end through signed events to the bolt app and the fake Web API:
thread started → greeting and suggested prompts; a question → status, title, answer in the thread;
follow-ups keep their context; the channel the panel is opened beside gives the default repo."""

from __future__ import annotations

from datetime import datetime

import pytest

from adapters.slack.assistant import suggested_prompts
from chatbot.commands import parse_command
from chatbot.messages import say
from chatbot.models import Message
from chatbot.store.index import PRIndex
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService
from tests.adapters.slack.conftest import NOW, SlackHarness
from tests.fakes.slack import TEAM_ID, assistant_thread, panel_message
from tests.reports.fixtures import REPO

THREAD = "1750000100.000001"


def subscribe(slack: SlackHarness, channel: str, repo: str) -> None:
    service = SubscriptionService(slack.bot.db, slack.bot.clock, SubscriptionPolicy("Asia/Shanghai"))
    command = parse_command(f"订阅 {repo}")
    assert command is not None
    service.execute(command, Message("", platform="slack", workspace=TEAM_ID, channel=channel), "zh")


def add_repo(slack: SlackHarness, name: str) -> None:
    with slack.bot.db.session() as session:
        PRIndex(session).ensure_repo(name, datetime(2026, 6, 1, tzinfo=NOW.tzinfo))


@pytest.mark.parametrize(("locale", "language"), [("zh-CN", "zh"), ("en-US", "en"), ("ja-JP", "en")])
def test_a_new_thread_gets_a_greeting_and_prompts_in_the_users_language(
    slack: SlackHarness, locale: str, language: str
):
    slack.fake.locales["U1"] = locale
    slack.event(assistant_thread("started", context_channel=None), "Ev-start")
    slack.drain()
    (greeting,) = slack.fake.shown("D1")
    assert greeting.thread_ts == THREAD
    assert greeting.text == say("assistant.greeting", language, repos=REPO)
    (call,) = slack.fake.called("assistant.threads.setSuggestedPrompts", ok=True)
    assert call.params["title"] == say("assistant.prompts.title", language)
    assert call.params["prompts"] == suggested_prompts(slack.bot.db, REPO, language)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_suggested_prompt_is_a_question_the_bot_answers_about_the_repo(
    slack: SlackHarness, language: str
):
    prompts = suggested_prompts(slack.bot.db, REPO, language)
    assert 3 <= len(prompts) <= 4
    for prompt in prompts:
        answer = slack.bot.handle(Message(prompt["message"], platform="slack"))
        assert answer.query.intent not in ("help", "unknown"), prompt
        assert answer.query.repo == REPO, prompt
        assert answer.query.language == language


def test_with_nothing_indexed_the_greeting_says_how_to_start_and_offers_no_prompts(slack: SlackHarness):
    with slack.bot.db.session() as session:
        for repo in PRIndex(session).repos():
            session.delete(repo)
    slack.event(assistant_thread("started", context_channel=None), "Ev-start")
    slack.drain()
    (greeting,) = slack.fake.shown("D1")
    assert greeting.text == say("assistant.greeting.empty", "zh")
    assert slack.fake.called("assistant.threads.setSuggestedPrompts") == []


def test_a_question_shows_a_status_titles_the_thread_and_is_answered_in_it(slack: SlackHarness):
    slack.event(assistant_thread("started"), "Ev-start")
    slack.fake.wait_for("assistant.threads.setSuggestedPrompts")
    slack.event(panel_message("widgets 上周有哪些风险？", ts="1750000100.000010"), "Ev-q1")
    slack.drain()
    statuses = [c.params["status"] for c in slack.fake.called("assistant.threads.setStatus", ok=True)]
    assert statuses[0] == say("progress.thinking", "zh")
    assert statuses[1].startswith("正在检索 widgets 2026-06-15 至 2026-06-21")
    (title,) = slack.fake.called("assistant.threads.setTitle", ok=True)
    assert (title.params["channel_id"], title.params["thread_ts"]) == ("D1", THREAD)
    assert title.params["title"] == "widgets 上周有哪些风险？"
    _, answer = slack.fake.shown("D1")
    assert answer.thread_ts == THREAD and say("qa.risks.title", "zh") in str(answer.blocks)
    order = [c.method for c in slack.fake.called(ok=True) if c.method != "conversations.replies"]
    assert order.index("assistant.threads.setTitle") < len(order) - 1 - order[::-1].index("chat.postMessage")


def test_a_follow_up_in_the_thread_keeps_its_context_and_its_title(slack: SlackHarness):
    slack.event(assistant_thread("started"), "Ev-start")
    slack.fake.wait_for("assistant.threads.setSuggestedPrompts")
    slack.event(panel_message("widgets 上上周有哪些风险？", ts="1750000100.000010"), "Ev-q1")
    slack.fake.wait_for("chat.postMessage", 2)  # the greeting and the answer
    slack.event(panel_message("那上周呢？", ts="1750000100.000020"), "Ev-q2")
    slack.drain()
    *_, follow = slack.fake.shown("D1")
    assert say("qa.risks.title", "zh") in str(follow.blocks) and "2026-06-15" in str(follow.blocks)
    assert len(slack.fake.called("assistant.threads.setTitle", ok=True)) == 1


def test_the_channel_beside_the_panel_gives_the_default_repo(slack: SlackHarness):
    add_repo(slack, "acme/gadgets")  # two repos: a question naming none needs a default
    subscribe(slack, "C9", REPO)
    slack.event(assistant_thread("started", context_channel="C9"), "Ev-start")
    slack.fake.wait_for("assistant.threads.setSuggestedPrompts")  # Slack opens the thread first
    slack.event(panel_message("上周有哪些风险？", ts="1750000100.000010"), "Ev-q1")
    slack.drain()
    _, answer = slack.fake.shown("D1")
    assert say("qa.risks.title", "zh") in str(answer.blocks) and "#102" in answer.text


def test_a_panel_opened_beside_no_channel_asks_which_repo(slack: SlackHarness):
    add_repo(slack, "acme/gadgets")
    slack.event(assistant_thread("started", context_channel=None), "Ev-start")
    slack.fake.wait_for("assistant.threads.setSuggestedPrompts")
    slack.event(panel_message("上周有哪些风险？", ts="1750000100.000010"), "Ev-q1")
    slack.drain()
    _, answer = slack.fake.shown("D1")
    assert say("qa.risks.title", "zh") not in str(answer.blocks)
    assert "acme/gadgets" in answer.text and REPO in answer.text


def test_moving_the_panel_to_another_channel_changes_the_default_repo(slack: SlackHarness):
    add_repo(slack, "acme/gadgets")
    subscribe(slack, "C9", REPO)
    slack.event(assistant_thread("started", context_channel="C8"), "Ev-start")
    slack.fake.wait_for("assistant.threads.setSuggestedPrompts")
    slack.event(assistant_thread("context_changed", context_channel="C9"), "Ev-moved")
    slack.fake.wait_for("chat.update")
    (greeting,) = slack.fake.shown("D1")
    assert greeting.metadata == {
        "event_type": "assistant_thread_context",
        "event_payload": {"channel_id": "C9", "team_id": TEAM_ID, "enterprise_id": None},
    }
    slack.event(panel_message("上周有哪些风险？", ts="1750000100.000010"), "Ev-q1")
    slack.drain()
    _, answer = slack.fake.shown("D1")
    assert "#102" in answer.text
