"""👍 / 👎 through the Feishu adapter, as transcripts against the fake Open API with encrypted, signed
callbacks: an answer card carries the buttons, a 👎 is answered with a toast and a form only its voter
sees, the form's reason is recorded on that vote (never on someone else's), and a duplicate delivery of
a click is recorded once."""

from __future__ import annotations

import json

from chatbot.messages import say
from chatbot.store.feedback import CorrectionRow
from chatbot.team.feedback import FEEDBACK_ACTION, feedback_list
from tests.adapters.feishu.conftest import TOKEN, FeishuHarness
from tests.adapters.feishu.test_reading import _callback_values, _shown
from tests.fakes.feishu import Sent, card_action, form_submit, text_event
from tests.reports.fixtures import REPO

QUESTION = "上周 widgets 有哪些风险？"


def _answer(feishu: FeishuHarness, text: str = QUESTION) -> tuple[str, dict[str, dict[str, object]]]:
    """The answer card to `text` in the group: its message id and its 👍 / 👎 callback values."""
    feishu.push(text_event(f"@_user_1 {text}", chat_id="oc_team").payload(TOKEN))
    (card,) = feishu.shown()
    values = [json.loads(v) for v in _callback_values(json.dumps(card.content, ensure_ascii=False))]
    return card.message_id, {
        str(v["action"]): v for v in values if str(v.get("action", "")).startswith(f"{FEEDBACK_ACTION}:")
    }


def _reason_form(feishu: FeishuHarness) -> Sent:
    def asked(shown: list[Sent]) -> bool:
        return any(s.kind == "private" for s in shown)

    (private,) = [s for s in feishu.fake.wait_shown(asked) if s.kind == "private"]
    return private


def _submit_button(card: object) -> str:
    content = json.dumps(card, ensure_ascii=False)
    start = content.index('"feedback_reason_')
    return content[start + 1 : content.index('"', start + 1)]


def test_a_thumbs_down_asks_its_voter_for_the_reason_and_records_it(feishu: FeishuHarness, db):
    message_id, buttons = _answer(feishu)
    assert set(buttons) == {f"{FEEDBACK_ACTION}:up", f"{FEEDBACK_ACTION}:down"}
    click = card_action(
        buttons[f"{FEEDBACK_ACTION}:down"], TOKEN, operator="ou_li", message_id=message_id, chat_id="oc_team"
    )
    response = feishu.push(click)
    assert response.json()["toast"]["content"] == say("feedback.toast.down", "zh")
    feishu.push(click)  # Feishu delivering the same click again
    private = _reason_form(feishu)
    assert private.to_user == "ou_li" and say("feedback.ask_reason", "zh") in json.dumps(
        private.content, ensure_ascii=False
    )
    button = _submit_button(private.content)
    someone_else = feishu.push(
        form_submit(
            button, {"reason": "other", "text": "not mine"}, TOKEN, operator="ou_wang", chat_id="oc_team"
        )
    )
    assert someone_else.json()["toast"]["content"] == say("feedback.not_yours", "zh")
    submitted = feishu.push(
        form_submit(
            button,
            {"reason": "wrong_window", "text": "问的是本周"},
            TOKEN,
            operator="ou_li",
            chat_id="oc_team",
        )
    )
    assert submitted.json()["toast"]["content"] == say("feedback.toast.reason", "zh")
    [vote] = feedback_list(db, repo=REPO)
    assert (vote.platform, vote.user_id, vote.vote) == ("feishu", "ou_li", "down")
    assert (vote.reason, vote.reason_text, vote.question) == ("wrong_window", "问的是本周", QUESTION)
    assert 102 in vote.cited


def test_a_thumbs_up_is_recorded_with_a_toast_and_asks_nothing(feishu: FeishuHarness, db):
    message_id, buttons = _answer(feishu, "what did widgets merge last week?")
    response = feishu.push(
        card_action(buttons[f"{FEEDBACK_ACTION}:up"], TOKEN, operator="ou_li", message_id=message_id)
    )
    assert response.json()["toast"]["content"] == say("feedback.toast.up", "en")
    feishu.settle()
    assert not [s for s in feishu.fake.sent if s.kind == "private"]
    assert [(v.vote, v.language) for v in feedback_list(db)] == [("up", "en")]


def test_where_no_per_user_card_can_be_shown_the_reason_form_is_a_reply_in_the_thread(
    feishu: FeishuHarness, db
):
    feishu.fake.private_cards_unavailable = 230027  # a topic group, or the permission not granted
    message_id, buttons = _answer(feishu)
    feishu.push(
        card_action(buttons[f"{FEEDBACK_ACTION}:down"], TOKEN, operator="ou_li", message_id=message_id)
    )

    def replied(shown: list[Sent]) -> bool:
        return any("feedback_reason_" in json.dumps(s.content) for s in shown)

    (form,) = [s for s in feishu.fake.wait_shown(replied) if "feedback_reason_" in json.dumps(s.content)]
    assert form.kind == "reply" and form.target == message_id


def test_a_correction_in_the_chat_is_recorded_by_who_and_shown_in_the_prs_answer(feishu: FeishuHarness, db):
    feishu.push(text_event("@_user_1 #103 不是破坏性变更", chat_id="oc_team", sender="ou_li").payload(TOKEN))
    (ack,) = feishu.shown()  # to the corrector alone, as every acknowledgement in a group
    assert ack.kind == "private" and ack.to_user == "ou_li"
    said = _shown(say("correction.done.breaking.no", "zh", number=103))
    assert said in json.dumps(ack.content, ensure_ascii=False)
    feishu.push(text_event(f"@_user_1 {REPO} #103 讲了什么", chat_id="oc_team").payload(TOKEN))
    answer = json.dumps(feishu.shown()[-1].content, ensure_ascii=False)
    assert "BREAKING" not in answer.replace("[BREAKING]", "").replace("&#91;BREAKING&#93;", "")
    assert _shown(f"refactor{say('correction.mark', 'zh')}") in answer
    with db.session() as session:
        (row,) = session.query(CorrectionRow).all()
        assert (row.platform, row.user_id, row.kind, row.value) == ("feishu", "ou_li", "breaking", "no")
