"""Feishu events → questions, without a network: who asked what, and whether it was meant for the bot;
plus the request checks in front of lark's dispatcher."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import lark_oapi as lark
import pytest
from lark_oapi.api.im.v1 import P2ImMessageReceiveV1
from lark_oapi.event.callback.model.p2_card_action_trigger import P2CardActionTrigger
from werkzeug.datastructures import Headers

from adapters.feishu.events import message_text, to_click, to_question
from adapters.feishu.webhook import is_fresh, lark_headers
from chatbot.messages import say
from chatbot.models import Message
from tests.fakes.feishu import BOT_MENTION, BOT_OPEN_ID, Mention, MessageEvent, card_action, text_event

BOB = Mention("@_user_2", "ou_bob", "bob")


def typed(payload: dict[str, Any], kind: type) -> Any:
    """The payload as lark's dispatcher hands it to a handler."""
    return lark.JSON.unmarshal(json.dumps(payload), kind)


def question(event: MessageEvent, bot_open_id: str | None = BOT_OPEN_ID):
    return to_question(typed(event.payload("t"), P2ImMessageReceiveV1), bot_open_id)


def test_a_group_mention_becomes_the_question_without_the_mention():
    event = text_event("@_user_1  本周 verl 有哪些风险？", chat_id="oc_team", sender="ou_alice")
    asked = question(event)
    assert asked is not None
    assert asked.message == Message(
        "本周 verl 有哪些风险？",
        platform="feishu",
        channel="oc_team",
        user="ou_alice",
        workspace="tenant-1",
        thread=event.message_id,  # the answer opens a topic under the question: the conversation
    )
    assert (asked.reply_to, asked.chat_id, asked.in_thread) == (event.message_id, "oc_team", True)
    assert asked.key == event.event_id


def test_a_reply_in_a_topic_belongs_to_the_topics_conversation():
    asked = question(text_event("@_user_1 那上周呢？", chat_id="oc_team", root_id="om_first"))
    assert asked is not None and asked.message.thread == "om_first"


def test_other_peoples_mentions_stay_as_their_names():
    asked = question(text_event("@_user_2 想看 @_user_1 #6512 讲了什么", mentions=[BOT_MENTION, BOB]))
    assert asked is not None and asked.message.text == "@bob 想看 #6512 讲了什么"


def test_a_group_message_without_the_bots_mention_is_not_a_question():
    assert question(text_event("本周 verl 有哪些风险？", mentions=[])) is None
    assert question(text_event("@_user_2 本周 verl 有哪些风险？", mentions=[BOB])) is None


def test_a_direct_message_needs_no_mention_and_is_answered_outside_a_thread():
    asked = question(text_event("help", chat_type="p2p", mentions=[]))
    assert asked is not None
    assert (asked.message.text, asked.message.direct, asked.in_thread) == ("help", True, False)


@pytest.mark.parametrize("sender_type", ["app", "bot", "system"])
def test_messages_not_sent_by_a_person_are_ignored(sender_type: str):
    assert question(text_event("@_user_1 help", sender_type=sender_type)) is None


def test_when_the_bots_open_id_is_unknown_any_mention_but_all_counts():
    assert question(text_event("@_user_2 help", mentions=[BOB]), bot_open_id=None) is not None
    everyone = Mention("@_all", "", "所有人")
    assert question(text_event("@_all help", mentions=[everyone]), bot_open_id=None) is None


def test_a_post_reads_as_its_title_and_paragraphs_without_the_bots_at():
    post = {
        "title": "请问",
        "content": [
            [
                {"tag": "at", "user_id": "@_user_1", "user_name": "prhub"},
                {"tag": "text", "text": " 上周 megatron"},
            ],
            [
                {"tag": "text", "text": "有哪些"},
                {"tag": "a", "text": "改动", "href": "https://x"},
                {"tag": "img"},
            ],
            [{"tag": "at", "user_id": "@_user_2", "user_name": "bob"}, {"tag": "code_block", "text": "fsdp"}],
        ],
    }
    asked = question(MessageEvent(post, message_type="post", mentions=[BOT_MENTION, BOB]))
    assert asked is not None and asked.message.text == "请问\n上周 megatron\n有哪些改动\n@bobfsdp"


def test_a_post_wrapped_in_a_locale_is_read_too():
    post = {"zh_cn": {"title": "", "content": [[{"tag": "text", "text": "帮助"}]]}}
    assert message_text("post", json.dumps(post), {}, ()) == "帮助"


@pytest.mark.parametrize(
    ("message_type", "content"),
    [("image", {"image_key": "img_1"}), ("text", "not json"), ("sticker", {"file_key": "f"})],
)
def test_messages_without_text_are_not_questions(message_type: str, content: Any):
    raw = content if isinstance(content, str) else json.dumps(content)
    assert message_text(message_type, raw, {}, ()) is None


def test_the_risks_button_asks_for_the_risks_of_its_week():
    click = to_click(
        typed(
            card_action({"action": "report_risks", "value": "acme/widgets 2026-W25"}, "t"),
            P2CardActionTrigger,
        ),
        "en",
    )
    assert click is not None
    assert click.message.text == say("button.report_risks.question", "en", target="acme/widgets 2026-W25")
    assert (click.reply_to, click.chat_id, click.message.user) == ("om_card_1", "oc_group_1", "ou_alice")


def test_a_click_is_identified_by_card_user_and_value():
    def key(operator: str, value: str) -> str:
        payload = card_action({"action": "report_risks", "value": value}, "t", operator=operator)
        click = to_click(typed(payload, P2CardActionTrigger), "zh")
        assert click is not None
        return click.key

    assert key("ou_alice", "a/b 2026-W25") == key("ou_alice", "a/b 2026-W25")
    assert (
        len({key("ou_alice", "a/b 2026-W25"), key("ou_bob", "a/b 2026-W25"), key("ou_alice", "a/b 2026-W24")})
        == 3
    )


@pytest.mark.parametrize(
    "value", [{"action": "launch"}, {"action": "report_risks"}, {"action": "report_risks", "value": " "}]
)
def test_other_buttons_are_not_questions(value: dict[str, str]):
    assert to_click(typed(card_action(value, "t"), P2CardActionTrigger), "zh") is None


@pytest.mark.parametrize("odd", [{"open_message_id": ["om_1"]}, {"open_chat_id": 5}])
def test_a_click_whose_card_ids_are_not_strings_is_not_a_question(odd: dict[str, object]):
    payload = card_action({"action": "report_risks", "value": "acme/widgets 2026-W25"}, "t")
    payload["event"]["context"].update(odd)
    assert to_click(typed(payload, P2CardActionTrigger), "zh") is None


def test_header_names_reach_the_sdk_in_the_spelling_it_looks_up():
    sent = Headers(
        [
            ("x-lark-request-timestamp", "1750000000"),
            ("X-LARK-REQUEST-NONCE", "n"),
            ("x-lark-signature", "s"),
            ("x-request-id", "r"),
            ("cookie", "c"),
        ]
    )
    assert lark_headers(sent) == {
        "X-Lark-Request-Timestamp": "1750000000",
        "X-Lark-Request-Nonce": "n",
        "X-Lark-Signature": "s",
        "X-Request-Id": "r",
    }


def test_a_timestamp_is_fresh_within_five_minutes_either_way():
    now = datetime(2026, 6, 24, 1, 0, tzinfo=UTC)
    stamp = lambda delta: str(int((now + delta).timestamp()))  # noqa: E731
    assert is_fresh(stamp(timedelta(minutes=-5)), now) and is_fresh(stamp(timedelta(minutes=5)), now)
    assert not is_fresh(stamp(timedelta(minutes=-5, seconds=-1)), now)
    assert not is_fresh(stamp(timedelta(minutes=6)), now)
    assert not is_fresh("yesterday", now)
    assert is_fresh(None, now)
