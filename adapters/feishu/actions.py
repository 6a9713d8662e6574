"""Reading claims on Feishu report cards: "我来读" / "读完了" record the claim (or the finished reading) and
patch the card message (`PATCH /im/v1/messages/:id`) so everyone in the chat sees the new claims; the
click itself is answered with a toast. A takeaway is added by replying "读完了 #N 一句话心得".

Each card update renders the claims as they are in the database, one update at a time per message, and
renders again when a claim arrived meanwhile, so two people pressing at once both end up on the card.
"""

from __future__ import annotations

import json
import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from lark_oapi.api.im.v1 import PatchMessageRequest, PatchMessageRequestBody
from lark_oapi.event.callback.model.p2_card_action_trigger import (
    P2CardActionTrigger,
    P2CardActionTriggerResponse,
)

from adapters.feishu.card import render_card
from adapters.feishu.events import PLATFORM
from adapters.feishu.sender import FeishuSender, FeishuSendError
from chatbot.bot import ChatBot
from chatbot.messages import Language, say
from chatbot.ports import Clock
from chatbot.store.db import Database
from chatbot.subscriptions.delivery import PushContext
from chatbot.team.cards import weekly_card
from chatbot.team.reading import (
    CLAIM_ACTION,
    DONE_ACTION,
    CardOrigin,
    Reader,
    claim,
    claims_version,
    finish,
    parse_value,
)

log = logging.getLogger(__name__)

UPDATE_ROUNDS = 3


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
        value = action.value if action else None
        if not isinstance(value, dict) or event is None:
            return None
        kind = str(value.get("action") or "").split(":", 1)[0]
        if kind not in (CLAIM_ACTION, DONE_ACTION):
            return None
        parsed = parse_value(str(value.get("value") or ""))
        message_id = event.context.open_message_id if event.context else None
        operator = event.operator
        if parsed is None or not message_id or operator is None or not operator.open_id:
            return None
        origin, number = parsed
        reader = Reader(PLATFORM, operator.tenant_key or "", operator.open_id, operator.open_id)
        chat_id = (event.context.open_chat_id if event.context else None) or message_id
        self._pool.submit(self._record, kind, origin, number, reader, message_id, chat_id)
        key = "reading.toast.claimed" if kind == CLAIM_ACTION else "reading.toast.done"
        return _toast(key, origin.language)

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

    def update_card(self, origin: CardOrigin, message_id: str, chat_id: str) -> None:
        """Patch the card with the claims as stored; again while claims keep arriving."""
        with self._lock(message_id):
            for _ in range(UPDATE_ROUNDS):
                version = claims_version(self.db, origin.repo)
                context = PushContext({}, self.bot.fallback, self.bot.writer, self.bot.config.public_url)
                card = render_card(
                    weekly_card(self.db, origin, self.clock, context), language=origin.language
                )
                self.sender.pacer.wait(chat_id)  # a patch counts against the chat's send limit too
                self._patch(message_id, card)
                if claims_version(self.db, origin.repo) == version:
                    return

    def _patch(self, message_id: str, card: dict[str, object]) -> None:
        request = (
            PatchMessageRequest.builder()
            .message_id(message_id)
            .request_body(
                PatchMessageRequestBody.builder().content(json.dumps(card, ensure_ascii=False)).build()
            )
            .build()
        )
        response = self.sender.client.im.v1.message.patch(request)
        if not response.success():
            raise FeishuSendError.of(response)

    def _lock(self, message_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(message_id, threading.Lock())

    def close(self) -> None:
        self._pool.shutdown(wait=True)


def _toast(key: str, language: Language) -> P2CardActionTriggerResponse:
    return P2CardActionTriggerResponse(
        {
            "toast": {
                "type": "success",
                "content": say(key, language),
                "i18n": {"zh_cn": say(key, "zh"), "en_us": say(key, "en")},
            }
        }
    )
