"""Feishu CardKit (card JSON 2.0 entities, lark-oapi's `cardkit.v1`): the thinking card of a question is
a card entity in streaming mode; the LLM's summary is streamed into its markdown element while it is
written (the client prints it with the typewriter effect); then streaming is closed and the entity is
updated into the answer card, the same card every other path sends.

Every operation on an entity carries a `sequence` strictly greater than the last (the API refuses
anything else with code 300317), and one entity is updated at most 10 times a second (5% below, like
every pacing here); CardKit calls are paced per app below 50 a second and 1,000 a minute, apart from
message sends. When the app lacks `cardkit:card:write` (or Feishu refuses an entity for another
reason than a rate limit), answers use the plain thinking card patched into the answer, and CardKit
is not asked again for UNAVAILABLE_FOR.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import lark_oapi as lark
from lark_oapi.api.cardkit.v1 import (
    Card,
    ContentCardElementRequest,
    ContentCardElementRequestBody,
    CreateCardRequest,
    CreateCardRequestBody,
    SettingsCardRequest,
    SettingsCardRequestBody,
    UpdateCardRequest,
    UpdateCardRequestBody,
)

from adapters.feishu.card import escape
from adapters.feishu.sender import FeishuSender, FeishuSendError, Pacer
from chatbot.messages import Language, say
from chatbot.ports import Clock

log = logging.getLogger(__name__)

ELEMENT_ID = "answer_text"  # the streamed markdown element of a thinking card entity
PER_CARD = ((10, 1.05),)  # CardKit: at most 10 updates a second to one card
PER_APP = ((50, 1.05), (1000, 63.0))  # CardKit's API limits: 50 a second and 1,000 a minute per app
ATTEMPTS = 2  # a content update is not worth more: the final card shows the whole text anyway
UNAVAILABLE_FOR = timedelta(minutes=10)
# The typewriter: a few characters every few milliseconds; text arriving faster is printed at once.
STREAMING_CONFIG = {
    "print_frequency_ms": {"default": 30},
    "print_step": {"default": 2},
    "print_strategy": "fast",
}


def card_reference(card_id: str) -> str:
    """A message's `content` that shows card entity `card_id` (msg_type `interactive`)."""
    return json.dumps({"type": "card", "data": {"card_id": card_id}})


def streaming_thinking_card(language: Language) -> dict[str, Any]:
    """The thinking card as an entity in streaming mode, its one markdown element to be streamed into."""
    thinking = say("progress.thinking", language)
    return {
        "schema": "2.0",
        "config": {
            "update_multi": True,
            "streaming_mode": True,
            "streaming_config": STREAMING_CONFIG,
            "summary": {"content": thinking},
        },
        "body": {"elements": [{"tag": "markdown", "content": escape(thinking), "element_id": ELEMENT_ID}]},
    }


class CardKit:
    """Card entities through one lark client, paced per card and per app, with the sender's retries."""

    def __init__(self, client: lark.Client, app_id: str, clock: Clock) -> None:
        self.client, self.clock = client, clock
        self.calls = FeishuSender(client, app_id, clock, Pacer(clock, PER_CARD, PER_APP), attempts=ATTEMPTS)
        self._refused_until: datetime | None = None
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        """False for a while after Feishu refused to create an entity (no `cardkit:card:write`)."""
        with self._lock:
            return self._refused_until is None or self.clock.now() >= self._refused_until

    def create(self, card: dict[str, Any], key: str) -> str:
        """A new card entity for what `key` answers; returns its card_id. Paced by the app's limits only
        (each entity is a card of its own). Raises FeishuSendError (and then, unless it was a rate limit
        or a server error, leaves CardKit alone for UNAVAILABLE_FOR)."""
        body = CreateCardRequestBody.builder().type("card_json").data(json.dumps(card, ensure_ascii=False))
        request = CreateCardRequest.builder().request_body(body.build()).build()
        try:
            create = self.client.cardkit.v1.card.create
            return self.calls.call(f"new:{key}", lambda: create(request), _card_id)
        except FeishuSendError as exc:
            if exc.status is not None and exc.status != 429 and exc.status < 500:
                log.warning("feishu: CardKit refused (%s); streaming cards off for a while", exc)
                with self._lock:
                    self._refused_until = self.clock.now() + UNAVAILABLE_FOR
            raise

    def stream_text(self, card_id: str, content: str, sequence: int) -> None:
        """The streamed element's whole text now (the client types out what is new)."""
        body = ContentCardElementRequestBody.builder().content(content).sequence(sequence).build()
        request = (
            ContentCardElementRequest.builder()
            .card_id(card_id)
            .element_id(ELEMENT_ID)
            .request_body(body)
            .build()
        )
        self.calls.call(card_id, lambda: self.client.cardkit.v1.card_element.content(request), _no_id)

    def close_streaming(self, card_id: str, summary: str, sequence: int) -> None:
        """Streaming mode off (the chat list shows `summary` instead of "generating…")."""
        settings = {"config": {"streaming_mode": False, "summary": {"content": summary}}}
        body = (
            SettingsCardRequestBody.builder()
            .settings(json.dumps(settings, ensure_ascii=False))
            .sequence(sequence)
            .build()
        )
        request = SettingsCardRequest.builder().card_id(card_id).request_body(body).build()
        self.calls.call(card_id, lambda: self.client.cardkit.v1.card.settings(request), _no_id)

    def update(self, card_id: str, card: dict[str, Any], sequence: int) -> None:
        """The entity's whole card replaced by `card` (card JSON 2.0)."""
        data = Card.builder().type("card_json").data(json.dumps(card, ensure_ascii=False)).build()
        body = UpdateCardRequestBody.builder().card(data).sequence(sequence).build()
        request = UpdateCardRequest.builder().card_id(card_id).request_body(body).build()
        self.calls.call(card_id, lambda: self.client.cardkit.v1.card.update(request), _no_id)


@dataclass
class CardStream:
    """One answer's entity: the core's `AnswerStream` while the LLM writes, then `finish` with the
    answer card. Its sequence starts at 1 and grows with every operation."""

    kit: CardKit
    card_id: str
    text: str = ""
    sequence: int = 0
    live: bool = True

    def append(self, text: str) -> bool:
        if not self.live:
            return False
        self.text += text
        try:
            self.kit.stream_text(self.card_id, escape(self.text.strip()), self._next())
        except FeishuSendError as exc:
            log.warning("feishu: streaming into card %s ended: %s", self.card_id, exc)
            self.live = False
        return self.live

    def finish(self, card: dict[str, Any]) -> None:
        """Streaming closed and the entity updated into `card`. Raises FeishuSendError."""
        self.live = False
        summary = str(card.get("config", {}).get("summary", {}).get("content") or "")
        self.kit.close_streaming(self.card_id, summary, self._next())
        self.kit.update(self.card_id, card, self._next())

    def _next(self) -> int:
        self.sequence += 1
        return self.sequence


def _card_id(response: Any) -> str:
    return str(response.data.card_id)


def _no_id(response: Any) -> str:
    return ""
