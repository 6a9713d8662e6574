"""Reading claims through the Feishu adapter, as transcripts against the fake Open API with encrypted,
signed callbacks: a click is answered with a toast and the card message is patched for everyone; two
people pressing at once both end up on the card; a takeaway replied in words is quoted later."""

from __future__ import annotations

import json
import threading

from sqlalchemy import func, select

from adapters.feishu.card import render_card
from chatbot.messages import say
from chatbot.models import Message, Paragraph, Reply, plain
from chatbot.store.reading import ReadingClaimRow
from tests.adapters.feishu.conftest import TOKEN, FeishuHarness
from tests.fakes.feishu import Sent, card_action, text_event
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
