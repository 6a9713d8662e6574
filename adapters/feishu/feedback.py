"""👍 / 👎 on Feishu answers and report cards. A click is recorded at once (once per person and message;
a callback delivered again is claimed away by its token) and answered with a toast; a 👎 then gets a card only its voter sees (`/ephemeral/v1/send`; in a chat
where Feishu cannot show one, a reply in the thread) with a form: the reason as one choice, optional
words, and a submit button named after the vote, so only the voter's own submission is recorded."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lark_oapi.event.callback.model.p2_card_action_trigger import (
    P2CardActionTrigger,
    P2CardActionTriggerResponse,
)

from adapters.feishu.card import render_card, toast_saying
from adapters.feishu.events import PLATFORM, clicker
from adapters.feishu.sender import FeishuSender
from chatbot.messages import Language, say
from chatbot.models import Heading, Reply
from chatbot.ports import Clock
from chatbot.store.db import Database
from chatbot.store.events import claim_event
from chatbot.team.feedback import (
    FEEDBACK_ACTION,
    REASONS,
    parse_feedback_value,
    record_reason,
    record_vote,
)
from chatbot.team.reading import Reader

log = logging.getLogger(__name__)

REASON_PREFIX = "feedback_reason_"  # the form's submit button is named REASON_PREFIX + the vote's id


def reason_card(feedback_id: int, language: Language) -> dict[str, Any]:
    """The card asking why a 👎: a form with the reason as one choice, optional words, and submit."""

    def option(reason: str) -> dict[str, Any]:
        return {
            "text": {"tag": "plain_text", "content": say(f"feedback.reason.{reason}", language)},
            "value": reason,
        }

    form = {
        "tag": "form",
        "name": "feedback",
        "elements": [
            {
                "tag": "select_static",
                "name": "reason",
                "required": True,
                "placeholder": {"tag": "plain_text", "content": say("feedback.modal.reason", language)},
                "options": [option(reason) for reason in REASONS],
            },
            {
                "tag": "input",
                "name": "text",
                "required": False,
                "placeholder": {"tag": "plain_text", "content": say("feedback.card.placeholder", language)},
            },
            {
                "tag": "button",
                "name": f"{REASON_PREFIX}{feedback_id}",
                "text": {"tag": "plain_text", "content": say("feedback.modal.submit", language)},
                "type": "primary",
                "form_action_type": "submit",
            },
        ],
    }
    card = render_card(Reply((Heading(say("feedback.card.title", language)),)), language=language)
    card["body"]["elements"] = [{"tag": "markdown", "content": say("feedback.ask_reason", language)}, form]
    return card


class FeedbackCardActions:
    """The 👍 / 👎 buttons of Feishu cards and the reason form."""

    def __init__(self, db: Database, clock: Clock, sender: FeishuSender, workers: int = 2) -> None:
        self.db, self.clock, self.sender = db, clock, sender
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="feishu-feedback-reason")

    def on_card_action(self, data: P2CardActionTrigger) -> P2CardActionTriggerResponse | None:
        """The toast for a vote or a reason (recorded within the callback: a few milliseconds), or None
        for any other click."""
        event = data.event
        action = event.action if event else None
        reader = clicker(data)
        if event is None or action is None or reader is None:
            return None
        name = str(action.name or "")
        if name.startswith(REASON_PREFIX):
            return self._reason(name.removeprefix(REASON_PREFIX), action.form_value or {}, reader)
        value = action.value if isinstance(action.value, dict) else {}
        if not str(value.get("action") or "").startswith(f"{FEEDBACK_ACTION}:"):
            return None
        parsed = parse_feedback_value(str(value.get("value") or ""))
        message_id = event.context.open_message_id if event.context else None
        chat_id = (event.context.open_chat_id if event.context else None) or ""
        if parsed is None or not message_id:
            return None
        vote, ref = parsed
        now = self.clock.now()
        if event.token and not claim_event(self.db, PLATFORM, f"feedback:{event.token}", now):
            return toast_saying("success", f"feedback.toast.{vote}", ref.language)  # a duplicate delivery
        view = record_vote(self.db, reader, chat_id, message_id, vote, ref, now)
        if vote == "down":
            self._pool.submit(self._ask_reason, view.id, reader.user_id, message_id, chat_id, ref.language)
        return toast_saying("success", f"feedback.toast.{vote}", ref.language)

    def _reason(self, feedback_id: str, form: dict[str, Any], reader: Reader) -> P2CardActionTriggerResponse:
        reason, text = str(form.get("reason") or "other"), str(form.get("text") or "")
        try:
            recorded = record_reason(self.db, int(feedback_id), reader, reason, text, self.clock.now())
        except ValueError:
            recorded = None
        if recorded is None:
            return toast_saying("warning", "feedback.not_yours", "zh")
        language: Language = "en" if recorded.language == "en" else "zh"
        return toast_saying("success", "feedback.toast.reason", language)

    def _ask_reason(
        self, feedback_id: int, open_id: str, message_id: str, chat_id: str, language: Language
    ) -> None:
        """The reason card for the voter alone; a reply in the answer's thread where Feishu cannot show
        a per-user card (a direct chat, a topic group)."""
        card = reason_card(feedback_id, language)
        try:
            self.sender.ask_privately(message_id, chat_id, open_id, card, key=f"feedback:{feedback_id}")
        except Exception:
            log.exception("feishu: could not ask for the reason of feedback %s", feedback_id)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
