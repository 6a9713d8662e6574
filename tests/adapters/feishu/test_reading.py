"""Reading claims through the Feishu adapter, as transcripts against the fake Open API with encrypted,
signed callbacks: a click is answered with a toast and the card message is patched for everyone; two
people pressing at once both end up on the card; "读完了" asks its reader alone for a takeaway in a card
form (only their own submission is recorded), and a takeaway, from the form or in words, is quoted later."""

from __future__ import annotations

import json
import threading

from sqlalchemy import func, select

from adapters.feishu.card import render_card
from chatbot.messages import say
from chatbot.models import Message, Paragraph, Reply, plain
from chatbot.store.reading import ReadingClaimRow
from tests.adapters.feishu.conftest import TOKEN, FeishuHarness
from tests.fakes.feishu import Sent, card_action, form_submit, text_event
from tests.reports.fixtures import REPO


def _shown(text: str) -> str:
    """`text` as a card's markdown shows it (escaped like every text span)."""
    return str(
        render_card(Reply((Paragraph((plain(text),)),)), language="zh")["body"]["elements"][0]["content"]
    )


def _card(feishu: FeishuHarness) -> tuple[str, dict[str, dict[str, object]]]:
    """The W25 report card the bot sent in answer to a question in the chat: its message id and its
    reading buttons' callback values, by action."""
    feishu.push(text_event(f"@_user_1 周报 {REPO} 2026-W25", chat_id="oc_team").payload(TOKEN))
    (card,) = feishu.shown()
    values = [json.loads(v) for v in _callback_values(json.dumps(card.content, ensure_ascii=False))]
    return card.message_id, {
        str(v["action"]): v for v in values if str(v.get("action", "")).startswith("team_")
    }


def _showing(feishu: FeishuHarness, *texts: str) -> str:
    """The card's content once it shows every one of `texts`."""

    def has(shown: list[Sent]) -> bool:
        content = json.dumps(shown[0].content, ensure_ascii=False) if shown else ""
        return all(t in content for t in texts)

    return json.dumps(feishu.fake.wait_shown(has)[0].content, ensure_ascii=False)


def _callback_values(card: str) -> list[str]:
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "callback":
                found.append(json.dumps(node["value"], ensure_ascii=False))
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(json.loads(card))
    return found


def test_a_claim_gets_a_toast_and_patches_the_card_for_everyone(feishu: FeishuHarness):
    message_id, buttons = _card(feishu)
    value = buttons["team_claim:101"]
    response = feishu.push(
        card_action(value, TOKEN, operator="ou_li", message_id=message_id, chat_id="oc_team")
    )
    assert response.json()["toast"]["content"] == say("reading.toast.claimed", "zh")
    _showing(feishu, _shown(say("reading.reading", "zh", names="@ou_li")))
    assert feishu.fake.sent[-1].kind == "patch"


def test_two_people_pressing_at_once_are_both_on_the_card(feishu: FeishuHarness, db):
    message_id, buttons = _card(feishu)
    value = buttons["team_claim:102"]
    pushes = [
        threading.Thread(
            target=feishu.push, args=(card_action(value, TOKEN, operator=who, message_id=message_id),)
        )
        for who in ("ou_wang", "ou_zhao")
    ]
    for thread in pushes:
        thread.start()
    for thread in pushes:
        thread.join()
    feishu.adapter.reading.close()  # every queued update done: the card as it stays
    (card,) = feishu.fake.shown()
    last = json.dumps(card.content, ensure_ascii=False)
    assert _shown("@ou_wang") in last and _shown("@ou_zhao") in last
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(ReadingClaimRow)) == 2


def test_done_then_a_takeaway_in_words_is_quoted_in_answers_about_the_pr(feishu: FeishuHarness):
    message_id, buttons = _card(feishu)
    response = feishu.push(
        card_action(buttons["team_done:101"], TOKEN, operator="ou_li", message_id=message_id)
    )
    assert response.json()["toast"]["content"] == say("reading.toast.done", "zh")
    _showing(feishu, _shown(say("reading.done", "zh", names="@ou_li")))
    feishu.bot.handle(
        Message("读完了 #101 切分方式值得学习", platform="feishu", user="ou_li", workspace="tenant-1")
    )
    answer = feishu.bot.handle(Message(f"{REPO} #101 讲了什么", platform="feishu"))
    assert "切分方式值得学习" in answer.reply.plain_text()


def _takeaway_form(feishu: FeishuHarness, kind: str = "private") -> Sent:
    def asked(shown: list[Sent]) -> bool:
        return any("reading_takeaway_" in json.dumps(s.content) for s in shown)

    return next(
        s
        for s in feishu.fake.wait_shown(asked)
        if "reading_takeaway_" in json.dumps(s.content) and s.kind == kind
    )


def _submit_button(card: object) -> str:
    content = json.dumps(card, ensure_ascii=False)
    start = content.index('"reading_takeaway_')
    return content[start + 1 : content.index('"', start + 1)]


def test_done_asks_its_reader_alone_for_a_takeaway_in_a_form_quoted_later(feishu: FeishuHarness):
    message_id, buttons = _card(feishu)
    feishu.push(
        card_action(
            buttons["team_done:101"], TOKEN, operator="ou_li", message_id=message_id, chat_id="oc_team"
        )
    )
    form = _takeaway_form(feishu)
    assert form.to_user == "ou_li"
    assert say("reading.form.ask", "zh", number=101) in json.dumps(form.content, ensure_ascii=False)
    button = _submit_button(form.content)
    someone_else = feishu.push(
        form_submit(button, {"takeaway": "not mine"}, TOKEN, operator="ou_wang", chat_id="oc_team")
    )
    assert someone_else.json()["toast"]["content"] == say("reading.not_yours", "zh")
    submitted = feishu.push(
        form_submit(
            button,
            {"takeaway": "按 unit 逐个 summon，峰值显存受最大 unit 限制"},
            TOKEN,
            operator="ou_li",
            chat_id="oc_team",
        )
    )
    assert submitted.json()["toast"]["content"] == say("reading.toast.takeaway", "zh")
    answer = feishu.bot.handle(Message(f"{REPO} #101 讲了什么", platform="feishu"))
    text = answer.reply.plain_text()
    assert "按 unit 逐个 summon" in text and "not mine" not in text


def test_where_no_per_user_card_can_be_shown_the_takeaway_form_is_a_reply_in_the_thread(
    feishu: FeishuHarness,
):
    feishu.fake.private_cards_unavailable = 230027  # a topic group, or the permission not granted
    message_id, buttons = _card(feishu)
    feishu.push(card_action(buttons["team_done:101"], TOKEN, operator="ou_li", message_id=message_id))
    form = _takeaway_form(feishu, kind="reply")
    assert form.target == message_id
