"""👍 / 👎 on Slack answers and report cards: Slack's own feedback buttons (one `feedback_buttons`
element, whose click carries the pressed side's value) or plain buttons where Slack refuses those. A
vote is recorded at the click, once per person and message; a 👎 opens a modal (`views.open`) asking
for the reason in one choice, with optional words, and its submission records them on that vote (only
the voter's own)."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from adapters.slack.actions import reader
from adapters.slack.sender import slack_error
from chatbot.messages import Language, say
from chatbot.ports import Clock
from chatbot.store.db import Database
from chatbot.team.feedback import (
    FEEDBACK_ACTION,
    REASON_CHARS,
    REASONS,
    parse_feedback_value,
    record_reason,
    record_vote,
)

log = logging.getLogger(__name__)

REASON_VIEW = "team_feedback_reason_view"
REASON_BLOCK, REASON_INPUT = "reason", "reason_input"
TEXT_BLOCK, TEXT_INPUT = "reason_text", "reason_text_input"


def reason_view(feedback_id: int, language: Language) -> dict[str, Any]:
    """The modal asking why a 👎: the reasons as one choice, then optional words; the vote it belongs
    to travels in `private_metadata`."""

    def option(reason: str) -> dict[str, Any]:
        text = say(f"feedback.reason.{reason}", language)
        return {"text": {"type": "plain_text", "text": text}, "value": reason}

    return {
        "type": "modal",
        "callback_id": REASON_VIEW,
        "private_metadata": json.dumps({"f": feedback_id}),
        "title": {"type": "plain_text", "text": say("feedback.modal.title", language)[:24]},
        "submit": {"type": "plain_text", "text": say("feedback.modal.submit", language)[:24]},
        "blocks": [
            {
                "type": "input",
                "block_id": REASON_BLOCK,
                "label": {"type": "plain_text", "text": say("feedback.modal.reason", language)},
                "element": {
                    "type": "radio_buttons",
                    "action_id": REASON_INPUT,
                    "options": [option(reason) for reason in REASONS],
                },
            },
            {
                "type": "input",
                "block_id": TEXT_BLOCK,
                "optional": True,
                "label": {"type": "plain_text", "text": say("feedback.modal.text", language)},
                "element": {
                    "type": "plain_text_input",
                    "action_id": TEXT_INPUT,
                    "multiline": True,
                    "max_length": REASON_CHARS,
                },
            },
        ],
    }


class FeedbackActions:
    """The listeners of the 👍 / 👎 buttons and of the reason modal."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db, self.clock = db, clock

    def register(self, app: App) -> None:
        app.action(re.compile(rf"^{FEEDBACK_ACTION}(?::(?:up|down))?$"))(self.on_vote)
        app.view(REASON_VIEW)(self.on_reason)

    def on_vote(self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        """Record the vote (a few milliseconds: the modal's trigger must be used within 3 s, and it needs
        the vote's id); for a 👎, open the reason modal."""
        ack()
        parsed = parse_feedback_value(str(action.get("value") or ""))
        if parsed is None:
            return
        vote, ref = parsed
        container = body.get("container") or {}
        channel = str((body.get("channel") or {}).get("id") or container.get("channel_id") or "")
        message = str(
            (body.get("message") or {}).get("ts")
            or container.get("message_ts")
            or action.get("action_ts")
            or ""
        )
        try:
            view = record_vote(self.db, reader(body), channel, message, vote, ref, self.clock.now())
        except Exception:
            log.exception("slack: recording a vote on %s failed", message)
            return
        if vote == "down" and body.get("trigger_id"):
            try:
                client.views_open(trigger_id=body["trigger_id"], view=reason_view(view.id, ref.language))
            except Exception as exc:
                log.error("slack: could not open the feedback reason modal: %s", slack_error(exc))

    def on_reason(self, ack: Ack, body: dict[str, Any], view: dict[str, Any]) -> None:
        ack()
        try:
            feedback_id = int(json.loads(view.get("private_metadata") or "{}")["f"])
        except (ValueError, KeyError, TypeError):
            return
        values = (view.get("state") or {}).get("values") or {}
        chosen = ((values.get(REASON_BLOCK) or {}).get(REASON_INPUT) or {}).get("selected_option") or {}
        text = str(((values.get(TEXT_BLOCK) or {}).get(TEXT_INPUT) or {}).get("value") or "")
        recorded = record_reason(
            self.db, feedback_id, reader(body), str(chosen.get("value") or "other"), text, self.clock.now()
        )
        if recorded is None:
            log.warning("slack: a reason for feedback %s came from someone else; ignored", feedback_id)
