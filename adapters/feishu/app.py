"""The Feishu (Lark) adapter: events in through lark's dispatcher, over HTTP (`/feishu/events` on the
bot's web app) or the long connection; answers out as card replies in the question's thread. A question
first gets a thinking card that becomes its answer card; with an LLM writing summaries (and CardKit
granted) that card is a CardKit entity the summary streams into (adapters/feishu/cardkit.py).

Handlers only translate and queue: HTTP events must be answered within 3 s and the long connection's
pings must not wait, so every answer is worked out on a worker thread. Feishu re-pushes events and the
long connection may deliver one twice, so each is claimed in the database first and answered once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import lark_oapi as lark
from flask import Flask
from lark_oapi.api.im.v1 import P2ImMessageReceiveV1
from lark_oapi.event.callback.model.p2_card_action_trigger import (
    P2CardActionTrigger,
    P2CardActionTriggerResponse,
)
from pydantic import SecretStr

from adapters.feishu.actions import ReadingCardActions
from adapters.feishu.card import render_card, thinking_card, toast_saying
from adapters.feishu.cardkit import CardKit, CardStream, card_reference, streaming_thinking_card
from adapters.feishu.events import PLATFORM, ButtonClick, to_click, to_question
from adapters.feishu.feedback import FeedbackCardActions
from adapters.feishu.menu import BotMenu
from adapters.feishu.sender import FeishuSender, FeishuSendError, Outgoing, bot_open_id, check_credentials
from adapters.feishu.webhook import EVENTS_PATH, mount_events
from adapters.feishu.ws import LongConnection
from adapters.replies import apology, is_private
from chatbot.bot import ChatBot
from chatbot.commands import parse_command
from chatbot.config import ConfigError, Settings, require_secret
from chatbot.messages import Language, say
from chatbot.models import Message
from chatbot.ports import ChannelGone, Clock
from chatbot.qa.parse import language_of
from chatbot.store.db import Database
from chatbot.store.events import claim_event
from chatbot.team.feedback import rated

log = logging.getLogger(__name__)

WORKERS = 8
FEEDBACK_WORKERS = 4  # claims and thinking cards sent at once (each takes a few ms)
TIMEOUT = 10.0  # seconds per Open API call (the SDK's default is 30)
IDENTITY_RETRY = timedelta(minutes=1)  # how often to ask again for the bot's open_id after a failure


@dataclass(frozen=True, slots=True)
class Thinking:
    """A question's thinking card: its message, and the card entity its answer streams into (when the
    card was sent as a CardKit entity)."""

    message_id: str
    stream: CardStream | None = None


class FeishuAdapter:
    """Answers Feishu messages and card buttons with the bot. `mount(app)` serves the HTTP callback;
    `start()` / `stop()` run the long connection when one was given."""

    def __init__(
        self,
        bot: ChatBot,
        db: Database,
        clock: Clock,
        sender: FeishuSender,
        *,
        language: Language = "zh",
        encrypt_key: str = "",
        verification_token: str = "",
        connection: LongConnection | None = None,
        workers: int = WORKERS,
        cardkit: CardKit | None = None,
    ) -> None:
        self.bot, self.db, self.clock, self.sender, self.language = bot, db, clock, sender, language
        self.cardkit = cardkit  # streaming cards; None: the thinking card is patched into the answer
        self._keys = (encrypt_key, verification_token)
        self.connection = connection
        self._bot_open_id: str | None = None
        self._identity_asked: datetime | None = None
        self._identity_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="feishu-answer")
        # Claims and thinking cards have threads of their own: a question shows it is being worked on
        # even while every answer worker waits on a slow LLM.
        self._feedback = ThreadPoolExecutor(FEEDBACK_WORKERS, thread_name_prefix="feishu-feedback")
        self._pending = 0
        self._idle = threading.Condition()
        self._accepting = True  # False once stop() begins: HTTP pushes get a 503 and come again
        self.menu = BotMenu(self)
        self.reading = ReadingCardActions(bot, db, clock, sender)
        self.votes = FeedbackCardActions(db, clock, sender)  # 👍 / 👎 and their reasons

    # Wiring -------------------------------------------------------------------------------------------

    def dispatcher(self, encrypt_key: str = "", verification_token: str = "") -> lark.EventDispatcherHandler:
        """lark's dispatcher with this adapter's handlers; keys empty for the long connection, whose
        pushes are neither encrypted nor signed."""
        return (
            lark.EventDispatcherHandler.builder(encrypt_key, verification_token)
            .register_p2_im_message_receive_v1(self.on_message)
            .register_p2_card_action_trigger(self.on_card_action)
            .register_p2_application_bot_menu_v6(self.menu.on_menu)
            .build()
        )

    def check(self) -> None:
        """Check the app's credentials with Feishu and learn the bot's open_id, before serving.
        Raises ConfigError when Feishu refuses the App ID or App Secret."""
        check_credentials(self.sender.client)
        self.bot_open_id()

    def mount(self, app: Flask) -> None:
        """Serve the HTTP callback at /feishu/events on the bot's web app."""
        mount_events(
            app, self.dispatcher(*self._keys), self.clock, self._keys[0], lambda: self._accepting, EVENTS_PATH
        )

    def start(self) -> None:
        """Open the long connection (FEISHU_MODE=ws) on its own thread."""
        if self.connection is None:
            raise RuntimeError("this Feishu adapter was built without a long connection (FEISHU_MODE=http)")
        self.connection.start(self.dispatcher())

    def stop(self, timeout: float = 10.0) -> None:
        """Close the long connection, then let the answers in progress finish."""
        self._accepting = False
        if self.connection is not None:
            self.connection.stop(timeout)
        self.wait_idle(timeout)
        self._feedback.shutdown(wait=False, cancel_futures=True)
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.reading.close()
        self.votes.close()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every queued answer is done; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    # Handlers: translate and queue, nothing slow -------------------------------------------------------

    def on_message(self, data: P2ImMessageReceiveV1) -> None:
        self._submit(self._feedback, self._answer_message, data)

    def on_card_action(self, data: P2CardActionTrigger) -> P2CardActionTriggerResponse:
        if self.menu.handles(data):
            return self.menu.on_card_action(data)
        reading = self.reading.on_card_action(data)
        if reading is not None:
            return reading
        vote = self.votes.on_card_action(data)
        if vote is not None:
            return vote
        click = to_click(data, self.language)
        if click is None:
            return toast_saying("warning", "feishu.toast.unknown", self.language)
        self._submit(self._feedback, self._answer_click, click)
        return toast_saying("info", "feishu.toast.accepted", self.language)

    def _submit(self, pool: ThreadPoolExecutor, work: Callable[..., None], *args: object) -> None:
        def run() -> None:
            try:
                work(*args)
            except Exception:  # a bug in one answer must not take the worker down silently
                log.exception("feishu: handling an event failed")
            finally:
                self._done()

        with self._idle:
            self._pending += 1
        try:
            pool.submit(run)
        except RuntimeError:  # stopped: the SDK answers 500 and Feishu pushes the event again later
            self._done()
            raise

    def later(self, work: Callable[..., None], *args: object) -> None:
        """Do `work(*args)` on an answer worker (the bot menu's cards); `wait_idle` waits for it too."""
        self._submit(self._pool, work, *args)

    def _done(self) -> None:
        with self._idle:
            self._pending -= 1
            self._idle.notify_all()

    # Workers -------------------------------------------------------------------------------------------

    def _answer_message(self, data: P2ImMessageReceiveV1) -> None:
        question = to_question(data, self.bot_open_id())
        if question is not None:
            self._answer(
                question.key, question.message, question.reply_to, question.chat_id, question.in_thread
            )

    def _answer_click(self, click: ButtonClick) -> None:
        self._answer(click.key, click.message, click.reply_to, click.chat_id, in_thread=True)

    def _answer(self, key: str, message: Message, reply_to: str, chat_id: str, in_thread: bool) -> None:
        """Claim the event and, for a question, show a thinking card; then queue the answer."""
        if not claim_event(self.db, PLATFORM, key, self.clock.now()):
            log.info("feishu: %s was answered already", key)
            return
        language = language_of(message.text)
        try:
            place = self._show_thinking(key, message, reply_to, chat_id, in_thread, language)
        except ChannelGone:
            return  # the bot left the chat: nobody to answer
        self._submit(self._pool, self._finish, key, message, reply_to, chat_id, in_thread, place)

    def _finish(
        self, key: str, message: Message, reply_to: str, chat_id: str, in_thread: bool, place: Thinking | None
    ) -> None:
        """The answer card in place of the thinking card `place` (or as a reply), its LLM summary
        streamed into it first when it is a CardKit entity; a private answer (help, a refusal, a
        question not understood) to the asker alone in a group. A failure ends in an apology where the
        answer would have been."""
        language = language_of(message.text)
        try:
            answer = self.bot.handle(message, stream=place.stream if place is not None else None)
            card = render_card(rated(answer), language=answer.query.language)
            if (
                not message.direct
                and is_private(message, answer)
                and self._answer_privately(message, chat_id, card, place.message_id if place else None)
            ):
                return
            self._show(key, reply_to, chat_id, in_thread, card, place)
            return
        except ChannelGone:
            return  # the bot left the chat: nobody to apologise to
        except FeishuSendError:
            pass  # logged by the sender, with Feishu's code, msg and log id
        except Exception:
            log.exception("feishu: answering %s failed", key)
        try:
            if place is not None:
                self._replace(place, chat_id, render_card(apology(language), language=language))
            else:
                apology_text = Outgoing.text(say("chat.apology", language))
                self.sender.reply(reply_to, chat_id, apology_text, in_thread=in_thread, key=f"{key}:apology")
        except Exception as exc:
            log.warning("feishu: the apology for %s failed too: %s", key, exc)

    def _show_thinking(
        self, key: str, message: Message, reply_to: str, chat_id: str, in_thread: bool, language: Language
    ) -> Thinking | None:
        """The thinking card, for a question (commands answer at once): a CardKit entity in streaming
        mode when streaming cards are on and granted, else a plain card; None when it could not be
        sent, and the answer is then a reply of its own. Raises ChannelGone."""
        if parse_command(message.text) is not None:
            return None
        thinking_key = f"{key}:thinking"
        if self.cardkit is not None and self.cardkit.available:
            try:
                card_id = self.cardkit.create(streaming_thinking_card(language), key)
                entity = Outgoing("interactive", card_reference(card_id))
                sent = self.sender.reply(reply_to, chat_id, entity, in_thread=in_thread, key=thinking_key)
                return Thinking(sent, CardStream(self.cardkit, card_id))
            except FeishuSendError as exc:
                log.info("feishu: no streaming card for %s (%s); a plain thinking card", key, exc)
                thinking_key = f"{key}:thinking-card"  # not the uuid of an entity reply that may have gone
        thinking = Outgoing.card(thinking_card(language))
        try:
            return Thinking(
                self.sender.reply(reply_to, chat_id, thinking, in_thread=in_thread, key=thinking_key)
            )
        except FeishuSendError:
            return None

    def _replace(self, place: Thinking, chat_id: str, card: dict[str, Any]) -> None:
        """The thinking card becomes `card`: its entity's streaming closed and the entity updated, or
        the plain card patched. Raises ChannelGone or FeishuSendError."""
        if place.stream is not None:
            place.stream.finish(card)
        else:
            self.sender.patch(place.message_id, chat_id, card)

    def _show(
        self,
        key: str,
        reply_to: str,
        chat_id: str,
        in_thread: bool,
        card: dict[str, Any],
        place: Thinking | None,
    ) -> None:
        """The answer card in place of the thinking card; as a reply of its own when there is none, or
        when Feishu refuses the update (a card older than 14 days, one it cannot patch, an entity whose
        stream broke), the thinking card then withdrawn if it streamed (it may show half a summary)."""
        if place is not None:
            try:
                self._replace(place, chat_id, card)
                return
            except FeishuSendError as exc:
                log.warning("feishu: could not update the thinking card of %s (%s); replying", key, exc)
        self.sender.reply(reply_to, chat_id, Outgoing.card(card), in_thread=in_thread, key=key)
        if place is not None and place.stream is not None:
            try:
                self.sender.recall(place.message_id, chat_id)
            except FeishuSendError as exc:
                log.warning("feishu: could not withdraw the streaming card of %s: %s", key, exc)

    def _answer_privately(
        self, message: Message, chat_id: str, card: dict[str, Any], place: str | None
    ) -> bool:
        """The card for the asker alone, the thinking card withdrawn; False when Feishu cannot show a
        per-user card here (a topic group, the permission not granted), and the answer goes in the open."""
        if not message.user:
            return False
        try:
            self.sender.send_private(chat_id, message.user, card)
        except FeishuSendError as exc:
            log.info("feishu: no per-user card in %s (%s); answering in the open", chat_id, exc.code)
            return False
        if place is not None:
            try:
                self.sender.recall(place, chat_id)
            except FeishuSendError as exc:
                log.warning("feishu: could not withdraw the thinking card in %s: %s", chat_id, exc)
        return True

    def bot_open_id(self) -> str | None:
        """The bot's open_id, asked once (again after a minute when Feishu did not say)."""
        with self._identity_lock:
            now = self.clock.now()
            if self._bot_open_id is None and (
                self._identity_asked is None or now - self._identity_asked >= IDENTITY_RETRY
            ):
                self._identity_asked = now
                self._bot_open_id = bot_open_id(self.sender.client)
            return self._bot_open_id


def feishu_client(app_id: str, app_secret: str, domain: str, timeout: float = TIMEOUT) -> lark.Client:
    """lark's client for the Open API at `domain` (https, or http on 127.0.0.1 for tests)."""
    try:
        return (
            lark.Client.builder()
            .app_id(app_id)
            .app_secret(app_secret)
            .domain(domain.rstrip("/"))
            .timeout(timeout)
            .log_level(lark.LogLevel.WARNING)
            .build()
        )
    except ValueError as exc:
        raise ConfigError(f"FEISHU_DOMAIN: {exc}") from exc


def build_feishu(
    settings: Settings,
    bot: ChatBot,
    db: Database,
    clock: Clock,
    *,
    waits: Clock | None = None,
    workers: int = WORKERS,
    timeout: float = TIMEOUT,
) -> FeishuAdapter:
    """The adapter as the settings describe it. HTTP mode needs the encrypt key and the verification
    token (events are then always encrypted and signed); ws mode needs only the app's id and secret.
    `waits` is the clock that pacing and retries sleep on (default: `clock`).
    Raises ConfigError for a missing or placeholder secret or a bad FEISHU_DOMAIN."""
    app_id = require_secret(
        SecretStr(settings.feishu_app_id or ""), "FEISHU_APP_ID", "the app's App ID (cli_…)"
    )
    app_secret = require_secret(settings.feishu_app_secret, "FEISHU_APP_SECRET", "the app's App Secret")
    client = feishu_client(app_id, app_secret, settings.feishu_domain, timeout)
    sender = FeishuSender(client, app_id, waits or clock)
    # Streaming cards only where there is something to stream: an LLM writing answer summaries.
    cardkit = CardKit(client, app_id, waits or clock) if settings.streaming and bot.phraser else None
    if settings.feishu_mode == "ws":
        return FeishuAdapter(
            bot,
            db,
            clock,
            sender,
            language=settings.language,
            connection=LongConnection(app_id, app_secret, settings.feishu_domain.rstrip("/")),
            workers=workers,
            cardkit=cardkit,
        )
    encrypt_key = require_secret(
        settings.feishu_encrypt_key, "FEISHU_ENCRYPT_KEY", "the Encrypt Key of the app's event subscription"
    )
    token = require_secret(
        settings.feishu_verification_token,
        "FEISHU_VERIFICATION_TOKEN",
        "the Verification Token of the app's event subscription",
    )
    return FeishuAdapter(
        bot,
        db,
        clock,
        sender,
        language=settings.language,
        encrypt_key=encrypt_key,
        verification_token=token,
        workers=workers,
        cardkit=cardkit,
    )
