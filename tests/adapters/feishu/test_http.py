"""Feishu over HTTP, end to end: encrypted and signed pushes to /feishu/events on the bot's web app,
answers through lark's client to the fake Open API."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import requests

from adapters.feishu.card import render_card
from adapters.feishu.webhook import EVENTS_PATH
from adapters.replies import apology
from chatbot.messages import say
from chatbot.models import Message
from chatbot.team.feedback import rated
from tests.adapters.feishu.conftest import ENCRYPT_KEY, TOKEN, FeishuHarness
from tests.fakes.feishu import (
    BOT_MENTION,
    Mention,
    MessageEvent,
    card_action,
    encrypt,
    text_event,
    url_verification,
)

QUESTION = "本周 widgets 有哪些风险？"


def expected_card(harness: FeishuHarness, text: str, **message: object) -> dict[str, object]:
    """The card the bot's answer to `text` renders to: what the fake must have received."""
    answer = harness.bot.handle(Message(text, platform="feishu", **message))  # type: ignore[arg-type]
    return render_card(rated(answer), language=answer.query.language)


def test_url_verification_is_answered_with_the_challenge(feishu: FeishuHarness):
    response = requests.post(feishu.url + EVENTS_PATH, json=url_verification("c-plain", TOKEN), timeout=5)
    assert response.status_code == 200
    assert response.json() == {"challenge": "c-plain"}


def test_encrypted_url_verification_is_answered_with_the_challenge(feishu: FeishuHarness):
    body = encrypt(url_verification("c-sealed", TOKEN), ENCRYPT_KEY)
    response = requests.post(feishu.url + EVENTS_PATH, data=body, timeout=5)
    assert response.status_code == 200
    assert response.json() == {"challenge": "c-sealed"}


def test_a_group_mention_is_answered_with_a_card_in_its_thread(feishu: FeishuHarness):
    event = text_event(f"@_user_1 {QUESTION}", chat_id="oc_team")
    response = feishu.push(event.payload(TOKEN))
    assert response.status_code == 200
    [sent] = feishu.shown()
    assert (sent.kind, sent.target, sent.reply_in_thread, sent.msg_type) == (
        "reply",
        event.message_id,
        True,
        "interactive",
    )
    assert sent.content == expected_card(feishu, QUESTION, channel="oc_team")
    assert sent.content["header"]["title"]["content"].startswith("acme/widgets")


def test_a_direct_post_message_is_understood_without_a_mention(feishu: FeishuHarness):
    post = {
        "title": "",
        "content": [
            [
                {"tag": "text", "text": "周报 "},
                {"tag": "a", "text": "acme/widgets", "href": "https://github.com"},
            ],
            [{"tag": "text", "text": "2026-W25"}],
        ],
    }
    event = MessageEvent(post, message_type="post", chat_type="p2p", mentions=[], chat_id="oc_direct")
    feishu.push(event.payload(TOKEN))
    [sent] = feishu.shown()
    assert (sent.target, sent.reply_in_thread) == (event.message_id, False)
    assert sent.content == expected_card(
        feishu, "周报 acme/widgets\n2026-W25", channel="oc_direct", direct=True
    )
    assert "2026年第25周" in sent.content["header"]["title"]["content"]


def test_messages_from_bots_are_not_answered(feishu: FeishuHarness):
    assert (
        feishu.push(text_event(f"@_user_1 {QUESTION}", sender_type="app").payload(TOKEN)).status_code == 200
    )
    feishu.settle()
    assert feishu.fake.sent == []


def test_a_group_message_for_someone_else_is_not_answered(feishu: FeishuHarness):
    others = [Mention("@_user_1", "ou_bob", "bob")]
    feishu.push(text_event(f"@_user_1 {QUESTION}", mentions=others).payload(TOKEN))
    feishu.settle()
    assert feishu.fake.sent == []


def test_the_same_event_pushed_three_times_is_answered_once(feishu: FeishuHarness):
    payload = text_event(f"@_user_1 {QUESTION}").payload(TOKEN)
    for attempt in range(3):
        assert feishu.push(payload, age=timedelta(seconds=attempt)).status_code == 200
    feishu.settle()
    assert [s.kind for s in feishu.fake.sent] == ["reply", "patch"]  # one thinking card, one answer


@pytest.mark.parametrize(
    "forgery",
    [
        pytest.param({"sign_with": "another-key"}, id="bad signature"),
        pytest.param({"token": "wrong-token"}, id="wrong verification token"),
        pytest.param({"age": timedelta(minutes=6)}, id="six minutes old"),
        pytest.param({"age": -timedelta(minutes=6)}, id="six minutes ahead"),
    ],
)
def test_forged_or_replayed_events_are_rejected_and_not_answered(feishu: FeishuHarness, forgery: dict):
    options = dict(forgery)
    token = options.pop("token", TOKEN)
    response = feishu.push(text_event(f"@_user_1 {QUESTION}").payload(token), **options)
    assert not response.ok
    feishu.settle()
    assert feishu.fake.sent == []


def test_an_unsigned_event_is_rejected(feishu: FeishuHarness):
    body = encrypt(text_event(f"@_user_1 {QUESTION}").payload(TOKEN), ENCRYPT_KEY)
    assert not requests.post(feishu.url + EVENTS_PATH, data=body, timeout=5).ok
    feishu.settle()
    assert feishu.fake.sent == []


def test_the_risks_button_answers_with_a_toast_and_the_risks_in_the_thread(feishu: FeishuHarness):
    value = {"action": "report_risks", "value": "acme/widgets 2026-W25"}
    response = feishu.push(card_action(value, TOKEN, message_id="om_report_card", chat_id="oc_team"))
    assert response.status_code == 200
    toast = response.json()["toast"]
    assert (toast["type"], toast["content"]) == ("info", say("feishu.toast.accepted", "zh"))
    assert toast["i18n"]["en_us"] == say("feishu.toast.accepted", "en")
    [sent] = feishu.shown()
    assert (sent.target, sent.reply_in_thread) == ("om_report_card", True)
    question = say("button.report_risks.question", "zh", target="acme/widgets 2026-W25")
    assert sent.content == expected_card(feishu, question, channel="oc_team")
    assert say("qa.risks.title", "zh") in json.dumps(sent.content, ensure_ascii=False)


def test_a_second_click_on_the_same_button_gets_a_toast_but_no_second_answer(feishu: FeishuHarness):
    value = {"action": "report_risks", "value": "acme/widgets 2026-W25"}
    for _ in range(2):
        assert feishu.push(card_action(value, TOKEN)).json()["toast"]["type"] == "info"
    assert len(feishu.shown()) == 1


def test_an_unknown_button_gets_a_warning_toast_and_no_answer(feishu: FeishuHarness):
    response = feishu.push(card_action({"action": "launch_rockets"}, TOKEN))
    assert response.json()["toast"]["content"] == say("feishu.toast.unknown", "zh")
    feishu.settle()
    assert feishu.fake.sent == []


def test_a_rate_limited_answer_is_retried_after_the_reset_and_delivered_once(feishu: FeishuHarness):
    feishu.fake.rate_limit(1, reset="0")
    feishu.push(text_event(f"@_user_1 {QUESTION}").payload(TOKEN))
    assert len(feishu.shown()) == 1
    # the thinking card is retried once; the answer patches it
    assert [p.endswith("/reply") for p in feishu.fake.send_calls()] == [True, True, False]
    assert feishu.waits.slept == [0.0]


def test_an_answer_feishu_refuses_becomes_an_apology_in_the_thinking_card(feishu: FeishuHarness):
    # The thinking card goes through; the update into the answer and the reply tried instead do not.
    feishu.fake.fail(2, code=230099, msg="Failed to create card content", after=1)
    event = text_event(f"@_user_1 {QUESTION}")
    feishu.push(event.payload(TOKEN))
    [sent] = feishu.shown()
    assert (sent.target, sent.content) == (event.message_id, render_card(apology("zh"), language="zh"))


def test_without_a_thinking_card_the_apology_is_a_line_of_text(feishu: FeishuHarness):
    feishu.fake.fail(2, code=230099, msg="Failed to create card content")
    event = text_event(f"@_user_1 {QUESTION}")
    feishu.push(event.payload(TOKEN))
    [sent] = feishu.shown()
    assert (sent.msg_type, sent.content, sent.target) == (
        "text",
        {"text": say("chat.apology", "zh")},
        event.message_id,
    )


def test_the_bot_mention_is_recognised_by_the_bots_open_id(feishu: FeishuHarness):
    # "@bob @prhub …": only the bot's own mention makes the message a question for it.
    mentions = [Mention("@_user_1", "ou_bob", "bob"), Mention("@_user_2", BOT_MENTION.open_id, "prhub")]
    feishu.push(text_event(f"@_user_1 @_user_2 {QUESTION}", mentions=mentions).payload(TOKEN))
    [sent] = feishu.shown()
    assert sent.content == expected_card(feishu, f"@bob {QUESTION}", channel="oc_group_1")


def test_no_apology_goes_to_a_chat_the_bot_has_left(feishu: FeishuHarness):
    feishu.fake.fail(1, code=230002, msg="The bot can not be outside the group.")
    feishu.push(text_event(f"@_user_1 {QUESTION}").payload(TOKEN))
    feishu.settle()
    assert feishu.fake.sent == []
    assert len(feishu.fake.send_calls()) == 1
