"""Reading claims on Feishu report cards: "我来读" / "读完了" record the claim (or the finished reading) and
patch the card message (`PATCH /im/v1/messages/:id`) so everyone in the chat sees the new claims; the
click itself is answered with a toast. "读完了" then sends its reader alone a card with a form for a
one-line takeaway (a reply in the thread where Feishu cannot show a per-user card); replying "读完了 #N
一句话心得" works too.

Each card update renders the claims as they are in the database, one update at a time per message, and
renders again when a claim arrived meanwhile, so two people pressing at once both end up on the card.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lark_oapi.event.callback.model.p2_card_action_trigger import (
    P2CardActionTrigger,
    P2CardActionTriggerResponse,
)

from adapters.feishu.card import render_card, toast_saying
from adapters.feishu.events import clicker
from adapters.feishu.sender import FeishuSender
from chatbot.bot import ChatBot
from chatbot.messages import Language, say
from chatbot.models import Heading, Reply
from chatbot.ports import Clock
from chatbot.store.db import Database
from chatbot.subscriptions.delivery import PushContext
from chatbot.team.cards import weekly_card
from chatbot.team.reading import (
    CLAIM_ACTION,
    DONE_ACTION,
    TAKEAWAY_CHARS,
    CardOrigin,
    Reader,
    add_takeaway,
    claim,
    claim_id,
    claims_version,
    finish,
    parse_value,
)

log = logging.getLogger(__name__)

UPDATE_ROUNDS = 3
TAKEAWAY_PREFIX = "reading_takeaway_"  # the form's submit button is named TAKEAWAY_PREFIX + the claim's id


def takeaway_card(claim: int, number: int, language: Language) -> dict[str, Any]:
    """The card asking a reader who pressed "读完了" for a one-line takeaway: a form with one input."""
    form = {
        "tag": "form",
        "name": "takeaway",
        "elements": [
            {
                "tag": "input",
                "name": "takeaway",
                "required": False,
                "max_length": TAKEAWAY_CHARS,
                "placeholder": {"tag": "plain_text", "content": say("reading.modal.label", language)},
            },
            {
                "tag": "button",
                "name": f"{TAKEAWAY_PREFIX}{claim}",
                "text": {"tag": "plain_text", "content": say("reading.modal.submit", language)},
                "type": "primary",
                "form_action_type": "submit",
            },
        ],
    }
    card = render_card(Reply((Heading(say("reading.modal.title", language)),)), language=language)
    ask = say("reading.form.ask", language, number=number)
    card["body"]["elements"] = [{"tag": "markdown", "content": ask}, form]
    return card


class ReadingCardActions:
    """The reading buttons of Feishu cards."""

    def __init__(
        self, bot: ChatBot, db: Database, clock: Clock, sender: FeishuSender, workers: int = 4
    ) -> None:
        self.bot, self.db, self.clock, self.sender = bot, db, clock, sender
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="feishu-reading")
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def on_card_action(self, data: P2CardActionTrigger) -> P2CardActionTriggerResponse | None:
        """The toast for a reading button's click (its work queued), or None for any other button."""
        event = data.event
        action = event.action if event else None
        name = str(action.name or "") if action else ""
        if action is not None and name.startswith(TAKEAWAY_PREFIX):
            return self._takeaway(name.removeprefix(TAKEAWAY_PREFIX), action.form_value or {}, clicker(data))
        value = action.value if action else None
        if not isinstance(value, dict) or event is None:
            return None
        kind = str(value.get("action") or "").split(":", 1)[0]
        if kind not in (CLAIM_ACTION, DONE_ACTION):
            return None
        parsed = parse_value(str(value.get("value") or ""))
        message_id = event.context.open_message_id if event.context else None
        reader = clicker(data)
        if parsed is None or not message_id or reader is None:
            return None
        origin, number = parsed
        chat_id = (event.context.open_chat_id if event.context else None) or message_id
        self._pool.submit(self._record, kind, origin, number, reader, message_id, chat_id)
        key = "reading.toast.claimed" if kind == CLAIM_ACTION else "reading.toast.done"
        return toast_saying("success", key, origin.language)

    def _record(
        self, kind: str, origin: CardOrigin, number: int, reader: Reader, message_id: str, chat_id: str
    ) -> None:
        try:
            if kind == CLAIM_ACTION:
                claim(self.db, origin.repo, number, reader, self.clock.now())
            else:
                finish(self.db, origin.repo, number, reader, "", self.clock.now())
            self.update_card(origin, message_id, chat_id)
        except Exception:
            log.exception("feishu: recording a reading click on %s#%s failed", origin.repo, number)
            return
        if kind == DONE_ACTION:
            self._ask_takeaway(origin, number, reader, message_id, chat_id)

    def _ask_takeaway(
        self, origin: CardOrigin, number: int, reader: Reader, message_id: str, chat_id: str
    ) -> None:
        """The takeaway form for the reader alone; a reply in the card's thread where Feishu cannot show
        a per-user card (a direct chat, a topic group)."""
        found = claim_id(self.db, origin.repo, number, reader)
        if found is None:
            return
        card = takeaway_card(found, number, origin.language)
        try:
            self.sender.ask_privately(message_id, chat_id, reader.user_id, card, key=f"takeaway:{found}")
        except Exception:
            log.exception("feishu: could not ask for the takeaway of %s#%s", origin.repo, number)

    def _takeaway(
        self, claim: str, form: dict[str, Any], reader: Reader | None
    ) -> P2CardActionTriggerResponse:
        """A submitted takeaway form: recorded on the claim it names when the submitter is its reader."""
        if reader is None:
            return toast_saying("warning", "reading.not_yours", "zh")
        try:
            recorded = add_takeaway(
                self.db, int(claim), reader, str(form.get("takeaway") or ""), self.clock.now()
            )
        except ValueError:
            recorded = None
        if recorded is None:
            return toast_saying("warning", "reading.not_yours", "zh")
        return toast_saying(
            "success", "reading.toast.takeaway", "zh"
        )  # the form names no language; i18n holds both

    def update_card(self, origin: CardOrigin, message_id: str, chat_id: str) -> None:
        """Patch the card with the claims as stored; again while claims keep arriving."""
        with self._lock(message_id):
            for _ in range(UPDATE_ROUNDS):
                version = claims_version(self.db, origin.repo)
                context = PushContext({}, self.bot.fallback, self.bot.writer, self.bot.config.public_url)
                card = render_card(
                    weekly_card(self.db, origin, self.clock, context), language=origin.language
                )
                self.sender.patch(message_id, chat_id, card)  # paced like a send, retried
                if claims_version(self.db, origin.repo) == version:
                    return

    def _lock(self, message_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(message_id, threading.Lock())

    def close(self) -> None:
        self._pool.shutdown(wait=True)
