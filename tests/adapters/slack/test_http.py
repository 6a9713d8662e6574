"""The Slack adapter in HTTP mode: real signed requests to `/slack/events`, answers at the fake Web API.

Read like transcripts: a user mentions the bot, clicks a button, pastes a link; the test reads what
reached Slack.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

import pytest

from adapters.slack.app import build_slack
from chatbot.clock import FixedClock
from chatbot.config import ConfigError
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from tests.adapters.slack.conftest import NOW, SlackHarness, make_bot, slack_settings
from tests.fakes.slack import BOT_ID, BOT_USER_ID, FakeSlack, direct_message, mention
from tests.reports.fixtures import REPO

RISKS_LAST_WEEK = "上周 widgets 有哪些风险？"


def blocks_text(params: dict[str, Any]) -> str:
    return json.dumps(params.get("blocks") or [], ensure_ascii=False)


def markup(params: dict[str, Any]) -> str:
    """Every text Slack parses for mentions and links: the fallback `text` and the mrkdwn objects
    (plain_text, as in headers and buttons, is shown as it is)."""
    texts = [params.get("text") or ""]

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if value.get("type") == "mrkdwn":
                texts.append(value["text"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(params.get("blocks") or params.get("unfurls") or [])
    return "\n".join(texts)


def test_a_mention_is_answered_in_the_thread_of_the_question(slack: SlackHarness):
    response = slack.event(mention(RISKS_LAST_WEEK, channel="C1", ts="1750000000.000100"))
    assert response.status_code == 200

    slack.drain()
    (shown,) = slack.fake.shown()
    assert (shown.channel, shown.thread_ts, shown.updates) == ("C1", "1750000000.000100", 1)
    assert say("qa.risks.title", "zh") in blocks_text(vars(shown))
    assert "#102" in shown.text  # the OOM fix carries the high memory risk


def test_a_direct_message_needs_no_mention_and_is_answered_in_the_conversation(slack: SlackHarness):
    slack.event(direct_message("#101 讲了什么？", channel="D1"))

    slack.drain()
    (shown,) = slack.fake.shown()
    assert (shown.channel, shown.thread_ts) == ("D1", None)
    assert "pipeline parallel for Qwen3" in blocks_text(vars(shown))


def test_the_slash_command_answers_in_the_channel_and_help_only_to_the_user(slack: SlackHarness):
    ack = slack.command(RISKS_LAST_WEEK, response="cmd-risks", trigger_id="t1")
    assert (ack.status_code, ack.text) == (200, "")
    (answer,) = slack.fake.wait_for("response_url")
    assert answer.path.endswith("/cmd-risks")
    assert answer.params["response_type"] == "in_channel"
    assert say("qa.risks.title", "zh") in blocks_text(answer.params)

    slack.command("help", response="cmd-help", trigger_id="t2")
    help_answer = slack.fake.wait_for("response_url", 2)[1]
    assert help_answer.params["response_type"] == "ephemeral"
    assert say("qa.help.title", "en") in blocks_text(help_answer.params)
    assert slack.fake.called("chat.postMessage") == []


def test_the_risks_button_of_a_report_card_answers_in_the_cards_thread(slack: SlackHarness):
    slack.event(mention(f"周报 {REPO} 2026-W25", ts="1750000000.000200"))
    slack.fake.wait_for("chat.update")
    (card,) = slack.fake.shown()
    buttons = [e for b in card.blocks if b["type"] == "actions" for e in b["elements"]]
    risks = next(b for b in buttons if b.get("action_id") == "report_risks")
    assert risks["text"]["text"] == say("report.button.risks", "zh")
    full_report = next(b for b in buttons if b.get("url"))

    click = {
        "type": "block_actions",
        "user": {"id": "U2"},
        "team": {"id": "T1"},
        "channel": {"id": "C1"},
        "container": {"type": "message", "message_ts": "1750000000.000300", "is_ephemeral": False},
        "message": {"ts": "1750000000.000300", "thread_ts": "1750000000.000200"},
        "response_url": slack.fake.response_url("click"),
        "trigger_id": "t3",
    }
    url_click = {**full_report, "action_id": "Xy1", "action_ts": "1750000001.000001"}
    assert slack.interact(click | {"actions": [url_click]}).status_code == 200
    assert (
        slack.interact(click | {"actions": [{**risks, "action_ts": "1750000001.000002"}]}).status_code == 200
    )

    slack.drain()
    # the URL button was only acknowledged; the risks button got its answer in the card's thread
    (_, answer) = slack.fake.shown()
    assert answer.thread_ts == "1750000000.000200"
    assert say("qa.risks.title", "zh") in blocks_text(vars(answer))


def test_a_pr_link_of_an_indexed_repo_unfurls_into_its_card_and_other_links_are_left_alone(
    slack: SlackHarness,
):
    links = [
        f"https://github.com/{REPO}/pull/104/files",
        "https://github.com/someone/else/pull/1",
        f"https://github.com/{REPO}/issues/3",
        f"https://github.com/{REPO}/pull/999",
    ]
    event = {
        "type": "link_shared",
        "channel": "C1",
        "user": "U1",
        "message_ts": "1750000000.000400",
        "unfurl_id": "Uf1",
        "source": "conversations_history",
        "links": [{"domain": "github.com", "url": url} for url in links],
    }
    slack.event(event, "Ev-links")
    slack.event({**event, "links": event["links"][1:]}, "Ev-unknown")
    slack.drain()

    (call,) = slack.fake.called("chat.unfurl")
    assert (call.params["unfurl_id"], call.params["source"]) == ("Uf1", "conversations_history")
    assert list(call.params["unfurls"]) == [links[0]]
    (header, *_) = call.params["unfurls"][links[0]]["blocks"]
    # PR 104's title carries "<!channel> … @all …": shown as plain text, which Slack never parses,
    # and nowhere in the mrkdwn
    assert header["text"]["type"] == "plain_text"
    assert header["text"]["text"].startswith("#104 [doc] chore: <!channel>")
    assert "<!channel>" not in markup(call.params)


def test_pr_text_that_looks_like_a_mention_pings_no_one_in_an_answer(slack: SlackHarness):
    slack.event(direct_message("#104 讲了什么？"))
    slack.drain()
    (shown,) = slack.fake.shown()
    posted = markup(vars(shown))
    assert "&lt;!channel&gt;" in posted
    assert "<!channel>" not in posted


def test_url_verification_echoes_the_challenge(slack: SlackHarness):
    body = json.dumps({"token": "unused", "challenge": "c-123", "type": "url_verification"})
    response = slack.post(body, "application/json")
    assert response.status_code == 200
    assert response.json() == {"challenge": "c-123"}


@pytest.mark.parametrize(
    "signing", [{"secret": "not-the-secret"}, {"age": 301}], ids=["bad signature", "stale timestamp"]
)
def test_a_request_slack_did_not_sign_just_now_is_refused_and_not_answered(
    slack: SlackHarness, signing: dict[str, Any]
):
    response = slack.event(mention(RISKS_LAST_WEEK), **signing)
    assert response.status_code == 401
    slack.drain()
    assert slack.fake.called("chat.postMessage") == []


def test_slack_retries_of_an_event_are_answered_once(slack: SlackHarness):
    event = mention(RISKS_LAST_WEEK)
    statuses = [slack.event(event, "Ev-retried", retry=n).status_code for n in (0, 1, 2)]
    assert statuses == [200, 200, 200]
    slack.drain()
    assert len(slack.fake.called("chat.postMessage")) == 1
    assert len(slack.fake.called("chat.update")) == 1


def test_a_rate_limited_answer_is_posted_after_the_retry_after_wait(slack: SlackHarness):
    slack.fake.rate_limit("chat.update", retry_after=7)
    slack.event(mention(RISKS_LAST_WEEK))

    slack.drain()
    (answer,) = slack.fake.shown()
    assert [c.status for c in slack.fake.called("chat.update")] == [429, 200]
    assert 7.0 in slack.waits.slept  # waited Retry-After (on the test clock) before the second try
    assert say("qa.risks.title", "zh") in blocks_text(vars(answer))


@pytest.mark.parametrize("fault", ["invalid_blocks", "http_500"])
def test_an_answer_slack_refuses_becomes_an_apology_and_the_error_code_is_logged(
    slack: SlackHarness, fault: str, caplog: pytest.LogCaptureFixture
):
    # The thinking message goes through; the answer does not, neither as an update nor as a post.
    if fault == "http_500":
        slack.fake.server_error("chat.update", 500)
        slack.fake.server_error("chat.postMessage", 500, after=1)
    else:
        # twice: the second time without Slack's own feedback buttons (refused with invalid_blocks too)
        slack.fake.fail("chat.update", fault, times=2)
        slack.fake.fail("chat.postMessage", fault, after=1, times=2)
    with caplog.at_level(logging.ERROR, logger="adapters.slack"):
        slack.event(mention(RISKS_LAST_WEEK, ts="1750000000.000500"))
        slack.drain()
    (apology,) = slack.fake.shown()  # the thinking message became the apology
    assert apology.text == say("chat.apology", "zh")
    assert apology.thread_ts == "1750000000.000500"
    assert fault in caplog.text


def test_a_channel_slack_does_not_know_is_logged_with_its_error_code(
    slack: SlackHarness, caplog: pytest.LogCaptureFixture
):
    slack.fake.fail("chat.postMessage", "channel_not_found", times=3)
    with caplog.at_level(logging.ERROR, logger="adapters.slack"):
        slack.event(mention(RISKS_LAST_WEEK, channel="Cgone"))
        slack.drain()
    # the thinking message (a warning), the answer and the apology
    assert [c.error for c in slack.fake.called("chat.postMessage")] == ["channel_not_found"] * 3
    assert caplog.text.count("channel_not_found") == 2  # the answer, then the apology


def test_the_bots_own_messages_and_other_bots_are_ignored(slack: SlackHarness):
    slack.event(direct_message("#101 讲了什么？") | {"user": BOT_USER_ID}, "Ev-self")
    slack.event(direct_message("#101 讲了什么？") | {"bot_id": "B2", "subtype": "bot_message"}, "Ev-bot")
    slack.event(mention(RISKS_LAST_WEEK) | {"bot_id": BOT_ID}, "Ev-mention-bot")
    slack.event(direct_message("#101 讲了什么？") | {"subtype": "message_changed"}, "Ev-edit")
    slack.drain()
    assert slack.fake.called("chat.postMessage") == []
    assert all(r.status_code == 200 for r in slack.sent)  # acknowledged all the same: no retries


def test_a_slow_answer_does_not_hold_back_acks(slack: SlackHarness, monkeypatch: pytest.MonkeyPatch):
    release = threading.Event()
    answer = slack.bot.handle

    def slow(message: Message, *args: Any) -> Answer:
        release.wait(60)  # longer than a request waits: an ack that waited for it would time out
        return answer(message, *args)

    monkeypatch.setattr(slack.bot, "handle", slow)
    # More questions than answer workers, then a command and a click: each is acknowledged at once
    # (the requests time out after REQUEST_TIMEOUT) while every answer is still waiting.
    for n in range(10):
        assert slack.event(mention(RISKS_LAST_WEEK, ts=f"1750000000.{n:06d}"), f"Ev{n}").status_code == 200
    assert slack.command("help", trigger_id="t-slow").status_code == 200
    assert slack.fake.called("chat.update") == []
    release.set()
    assert len(slack.fake.wait_for("chat.update", 10)) == 10
    slack.fake.wait_for("response_url")


def test_a_bot_token_slack_refuses_stops_start_up_with_a_clear_error(db):
    with FakeSlack() as fake:
        assert isinstance(fake, FakeSlack)
        fake.revoke()
        bot = make_bot(db)
        with pytest.raises(ConfigError, match=r"SLACK_BOT_TOKEN.*invalid_auth"):
            build_slack(slack_settings(fake), bot, db, bot.clock, waits=FixedClock(NOW))
