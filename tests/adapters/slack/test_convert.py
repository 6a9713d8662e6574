"""Slack payloads → neutral messages and reply targets: pure functions, no network."""

from __future__ import annotations

from adapters.slack.convert import (
    PRLink,
    ReplyTarget,
    action_key,
    action_message,
    action_target,
    command_message,
    plain_text,
    pr_links,
    reply_target,
    to_message,
)
from chatbot.messages import say
from chatbot.models import Message
from tests.fakes.slack import BOT_USER_ID, direct_message, mention


def test_slack_markup_becomes_what_the_user_typed_without_the_bots_mention():
    text = (
        f"<@{BOT_USER_ID}> what did <https://github.com/a/b/pull/7|this PR> change &amp; why &lt;3, "
        "<@U2|bob>? cc <#C9|dev> <!here> <!subteam^S1|@infra>"
    )
    assert plain_text(text, BOT_USER_ID) == (
        "what did https://github.com/a/b/pull/7 change & why <3, @bob? cc #dev @here @infra"
    )


def test_a_mention_becomes_a_message_from_the_channel():
    event = mention("本周 verl 有哪些风险？", channel="C1", user="U1", ts="1750000000.000100")
    assert to_message(event, team_id="T1", bot_user_id=BOT_USER_ID) == Message(
        "本周 verl 有哪些风险？", "slack", "C1", "U1", "T1", direct=False, thread="1750000000.000100"
    )


def test_a_reply_in_a_thread_belongs_to_the_threads_conversation_and_a_dm_to_its_channel():
    reply = mention("那上周呢？", ts="1750000000.000200") | {"thread_ts": "1750000000.000100"}
    threaded = to_message(reply, team_id="T1", bot_user_id=BOT_USER_ID)
    direct = to_message(direct_message("help"), team_id="T1", bot_user_id=BOT_USER_ID)
    assert threaded is not None and threaded.thread == "1750000000.000100"
    assert direct is not None and (direct.thread, direct.channel) == (None, "D1")


def test_a_direct_message_is_direct_and_needs_no_mention():
    message = to_message(direct_message("help"), team_id="T1", bot_user_id=BOT_USER_ID)
    assert message is not None
    assert (message.text, message.direct) == ("help", True)


def test_bots_edits_channel_chatter_and_mentions_in_dms_are_not_messages_to_answer():
    quiet = [
        direct_message("hi") | {"user": BOT_USER_ID},
        direct_message("hi") | {"bot_id": "B9"},
        direct_message("hi") | {"subtype": "bot_message", "user": None},
        direct_message("hi") | {"subtype": "message_changed"},
        direct_message("hi") | {"channel_type": "channel"},  # a channel message without a mention
        mention("hi", channel="D1"),  # also delivered as message.im
    ]
    assert [to_message(e, team_id="T1", bot_user_id=BOT_USER_ID) for e in quiet] == [None] * len(quiet)


def test_a_signed_event_whose_ids_are_not_strings_is_not_a_message_to_answer():
    odd = [
        mention("hi") | {"channel": ["C1"]},
        mention("hi") | {"user": 7},
        mention("hi") | {"thread_ts": {"x": 1}},
        direct_message("hi") | {"channel_type": ["im"]},
    ]
    assert [to_message(e, team_id="T1", bot_user_id=BOT_USER_ID) for e in odd] == [None] * len(odd)


def test_answers_go_to_the_questions_thread_in_channels_and_stay_flat_in_dms():
    assert reply_target(mention("q", channel="C1", ts="1.1")) == ReplyTarget("C1", "1.1")
    assert reply_target(mention("q", channel="C1", ts="1.2") | {"thread_ts": "1.0"}) == ReplyTarget(
        "C1", "1.0"
    )
    assert reply_target(direct_message("q", channel="D1")) == ReplyTarget("D1", None)


def test_an_empty_slash_command_asks_for_help():
    body = {"text": "", "channel_id": "C1", "user_id": "U1", "team_id": "T1", "channel_name": "general"}
    assert command_message(body) == Message("help", "slack", "C1", "U1", "T1", direct=False)


def test_the_risks_button_asks_its_question_in_the_cards_language():
    body = {
        "user": {"id": "U1"},
        "team": {"id": "T1"},
        "channel": {"id": "C1"},
        "message": {"ts": "5.0"},
    }
    for language in ("zh", "en"):
        action = {
            "action_id": "report_risks",
            "value": "acme/widgets 2026-W25",
            "text": {"type": "plain_text", "text": say("report.button.risks", language)},
            "action_ts": "6.0",
        }
        message = action_message(body, action)
        assert message is not None
        assert message.text == say("button.report_risks.question", language, target="acme/widgets 2026-W25")
    assert action_message(body, {"action_id": "Xy1", "url": "https://example.com"}) is None
    assert action_key(body, action) == "action:6.0:U1:report_risks"


def test_a_click_on_an_ephemeral_card_is_answered_through_its_response_url():
    body = {
        "channel": {"id": "C1"},
        "container": {"is_ephemeral": True},
        "response_url": "https://hooks.example/1",
    }
    assert action_target(body) == ReplyTarget("C1", response_url="https://hooks.example/1")
    assert action_target({"channel": {"id": "C1"}, "message": {"ts": "5.0"}}) == ReplyTarget("C1", "5.0")


def test_only_pull_request_links_are_unfurl_candidates_each_once():
    links = [
        {"url": "https://github.com/Verl-Project/verl/pull/6512"},
        {"url": "https://github.com/verl-project/verl/pull/6512/files#diff-1"},
        {"url": "https://github.com/Verl-Project/verl/pull/6512"},
        {"url": "https://github.com/verl-project/verl/issues/1"},
        {"url": "https://github.com/verl-project/verl"},
        {"url": "https://gitlab.com/a/b/pull/1"},
    ]
    assert pr_links(links) == [
        PRLink("https://github.com/Verl-Project/verl/pull/6512", "verl-project/verl", 6512),
        PRLink("https://github.com/verl-project/verl/pull/6512/files#diff-1", "verl-project/verl", 6512),
    ]
