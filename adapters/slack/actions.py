"""Reading claims on Slack report cards: "I'll read it" records the claim and updates the card in place
(`chat.update`) for everyone; "Done" opens a modal (`views.open`) for an optional one-line takeaway,
and its submission records it and updates the card.

Clicks are acknowledged at once and handled on a small pool of their own. Each card update renders the
claims as they are in the database, one update at a time per message, and renders again when a claim
arrived meanwhile: two people pressing at once both end up on the card.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from adapters.slack.convert import PLATFORM
from adapters.slack.sender import send_card, slack_error
from chatbot.bot import ChatBot
from chatbot.messages import say
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

DONE_VIEW = "team_done_view"
TAKEAWAY_BLOCK, TAKEAWAY_INPUT = "takeaway", "takeaway_input"
UPDATE_ROUNDS = 3  # renders of one card per click at most: the claims stop changing long before


def reader(body: dict[str, Any]) -> Reader:
    """The clicking user: their id, shown by their Slack username (or name, or id)."""
    user = body.get("user") or {}
    user_id = str(user.get("id") or "")
    name = str(user.get("username") or user.get("name") or user_id)
    return Reader(
        PLATFORM, str((body.get("team") or {}).get("id") or user.get("team_id") or ""), user_id, name
    )


def done_view(origin: CardOrigin, number: int, channel: str, ts: str) -> dict[str, Any]:
    """The modal asking for the takeaway; the card to update travels in `private_metadata`."""
    language = origin.language
    metadata = json.dumps({"v": origin.value(number), "c": channel, "t": ts}, separators=(",", ":"))
    return {
        "type": "modal",
        "callback_id": DONE_VIEW,
        "private_metadata": metadata,
        "title": {"type": "plain_text", "text": say("reading.modal.title", language)[:24]},
        "submit": {"type": "plain_text", "text": say("reading.modal.submit", language)[:24]},
        "blocks": [
            {
                "type": "input",
                "block_id": TAKEAWAY_BLOCK,
                "optional": True,
                "label": {"type": "plain_text", "text": f"#{number} " + say("reading.modal.label", language)},
                "element": {"type": "plain_text_input", "action_id": TAKEAWAY_INPUT, "max_length": 300},
            }
        ],
    }


class ReadingActions:
    """The listeners of the reading buttons and the takeaway modal."""

    def __init__(self, bot: ChatBot, db: Database, clock: Clock, workers: int = 4) -> None:
        self.bot, self.db, self.clock = bot, db, clock
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="slack-reading")
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._guard = threading.Lock()

    def register(self, app: App) -> None:
        app.action(re.compile(rf"^{CLAIM_ACTION}:\d+$"))(self.on_claim)
        app.action(re.compile(rf"^{DONE_ACTION}:\d+$"))(self.on_done)
        app.view(DONE_VIEW)(self.on_done_submitted)

    def on_claim(self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        ack()
        parsed = parse_value(str(action.get("value") or ""))
        channel, ts = _message_of(body)
        if parsed is not None:
            self._pool.submit(self._claim, client, parsed[0], parsed[1], reader(body), channel, ts)

    def on_done(self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        ack()
        parsed = parse_value(str(action.get("value") or ""))
        channel, ts = _message_of(body)
        if parsed is None or not body.get("trigger_id"):
            return
        origin, number = parsed
        try:  # the trigger expires in 3 s: the modal is opened here, not queued
            client.views_open(trigger_id=body["trigger_id"], view=done_view(origin, number, channel, ts))
        except Exception as exc:
            log.error("slack: could not open the takeaway modal: %s", slack_error(exc))
            self._pool.submit(self._finish, client, origin, number, reader(body), "", channel, ts)

    def on_done_submitted(
        self, ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient
    ) -> None:
        ack()
        try:
            metadata = json.loads(view.get("private_metadata") or "{}")
            parsed = parse_value(str(metadata["v"]))
            channel, ts = str(metadata["c"]), str(metadata["t"])
        except (ValueError, KeyError, TypeError):
            return
        if parsed is None:
            return
        values = ((view.get("state") or {}).get("values") or {}).get(TAKEAWAY_BLOCK) or {}
        takeaway = str((values.get(TAKEAWAY_INPUT) or {}).get("value") or "")
        self._pool.submit(self._finish, client, parsed[0], parsed[1], reader(body), takeaway, channel, ts)

    # Work ----------------------------------------------------------------------------------------------

    def _claim(
        self, client: WebClient, origin: CardOrigin, number: int, who: Reader, channel: str, ts: str
    ) -> None:
        try:
            claim(self.db, origin.repo, number, who, self.clock.now())
            self.update_card(client, origin, channel, ts)
        except Exception:
            log.exception("slack: recording a reading claim of %s#%s failed", origin.repo, number)

    def _finish(
        self,
        client: WebClient,
        origin: CardOrigin,
        number: int,
        who: Reader,
        takeaway: str,
        channel: str,
        ts: str,
    ) -> None:
        try:
            finish(self.db, origin.repo, number, who, takeaway, self.clock.now())
            self.update_card(client, origin, channel, ts)
        except Exception:
            log.exception("slack: recording a finished reading of %s#%s failed", origin.repo, number)

    def update_card(self, client: WebClient, origin: CardOrigin, channel: str, ts: str) -> None:
        """Render the card with the claims as stored and `chat.update` it (with the client bolt gave the
        click: its workspace's token); again while claims keep arriving (another click, another
        replica), so the last update shows them all."""
        if not channel or not ts:
            return
        with self._lock(channel, ts):
            for _ in range(UPDATE_ROUNDS):
                version = claims_version(self.db, origin.repo)
                context = PushContext({}, self.bot.fallback, self.bot.writer, self.bot.config.public_url)
                card = weekly_card(self.db, origin, self.clock, context)
                send_card(
                    lambda message: client.chat_update(
                        channel=channel, ts=ts, text=message["text"], blocks=message["blocks"]
                    ),
                    card,
                    origin.language,
                )
                if claims_version(self.db, origin.repo) == version:
                    return

    def _lock(self, channel: str, ts: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault((channel, ts), threading.Lock())

    def close(self) -> None:
        self._pool.shutdown(wait=True)


def _message_of(body: dict[str, Any]) -> tuple[str, str]:
    """The channel and ts of the card a button sits on ("" for an ephemeral card, which cannot be
    updated)."""
    channel = str(
        (body.get("channel") or {}).get("id") or (body.get("container") or {}).get("channel_id") or ""
    )
    ts = str((body.get("message") or {}).get("ts") or (body.get("container") or {}).get("message_ts") or "")
    return channel, ts
