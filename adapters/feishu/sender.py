"""Sending to Feishu through lark-oapi, which neither retries nor paces: messages are paced below the
platform limits (5 a second per chat, 50 a second and 1,000 a minute per app), a rate limit (HTTP 429 or
code 99991400) is retried after `x-ogw-ratelimit-reset`, 5xx and network errors after a backoff, and an
access token the server no longer accepts is fetched anew once.

Every message carries a `uuid` derived from what it answers: Feishu sends one message per uuid within
an hour, so a retry after a timeout never shows up twice. Waiting goes through a Clock, so tests pace
and back off without sleeping.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import lark_oapi as lark
import requests
from lark_oapi.api.im.v1 import (
    CreateMessageRequest,
    CreateMessageRequestBody,
    DeleteMessageRequest,
    PatchMessageRequest,
    PatchMessageRequestBody,
    ReplyMessageRequest,
    ReplyMessageRequestBody,
)
from lark_oapi.core.exception import ObtainAccessTokenException
from lark_oapi.core.token.manager import TokenManager

from adapters.feishu.card import render_card
from adapters.pacing import SlidingWindow
from chatbot.config import ConfigError
from chatbot.messages import Language
from chatbot.models import Reply
from chatbot.ports import ChannelGone, Clock, Destination, SendFailed

log = logging.getLogger(__name__)

# Error codes, from the im.v1 message and API-call guide error tables.
RATE_LIMITED = {99991400, 230020}  # app-wide frequency limit; the per-chat one
TOKEN_REJECTED = {99991661, 99991663}  # missing / invalid access token
CHAT_GONE = {230002, 230013}  # the bot is not in the chat; the user is outside the app's availability
ATTEMPTS = 4
BACKOFF = 0.5  # seconds before the second attempt after a 5xx or network error, doubling after
MAX_WAIT = 60.0  # never park a worker longer than this on one wait
# (messages, seconds): Feishu's limits (5/s per chat; 50/s and 1,000/min per app) with windows 5% longer,
# so that jitter never lands a send early and earns a 429 (bench/push.py measured the difference).
PER_CHAT = ((5, 1.05),)
PER_APP = ((50, 1.05), (1000, 63.0))
_PACER_PRUNE = 1_000  # chats remembered before idle ones are forgotten


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message body: its `msg_type` and the JSON string Feishu takes as `content`."""

    msg_type: str
    content: str

    @classmethod
    def card(cls, card: dict[str, Any]) -> Outgoing:
        return cls("interactive", json.dumps(card, ensure_ascii=False))

    @classmethod
    def text(cls, text: str) -> Outgoing:
        return cls("text", json.dumps({"text": text}, ensure_ascii=False))


class FeishuSendError(SendFailed):
    """A send Feishu refused or that never got an answer; `code`, `msg` and `log_id` are Feishu's."""

    def __init__(self, code: int | None, msg: str, log_id: str | None = None, status: int | None = None):
        super().__init__(f"code={code} msg={msg} log_id={log_id} http={status}")
        self.code, self.msg, self.log_id, self.status = code, msg, log_id, status

    @classmethod
    def of(cls, response: lark.BaseResponse) -> FeishuSendError:
        status = response.raw.status_code if response.raw is not None else None
        return cls(response.code, response.msg or "", response.get_log_id(), status)


def idempotency_uuid(key: str) -> str:
    """The `uuid` for a message (Feishu takes at most 50 characters): a digest of what it answers."""
    return "prhub-" + hashlib.sha256(key.encode()).hexdigest()[:40]


class Pacer:
    """Hands out send slots within the per-chat and per-app limits; bursts are fine up to the limit."""

    def __init__(
        self,
        clock: Clock,
        per_chat: tuple[tuple[int, float], ...] = PER_CHAT,
        per_app: tuple[tuple[int, float], ...] = PER_APP,
    ) -> None:
        self.clock, self.per_chat = clock, per_chat
        self._app = [SlidingWindow(limit, period) for limit, period in per_app]
        self._chats: dict[str, list[SlidingWindow]] = {}
        self._lock = threading.Lock()

    def wait(self, chat_id: str) -> float:
        """Wait for a slot to send to `chat_id`; returns the seconds waited."""
        waited = 0.0
        while True:
            with self._lock:
                now = self.clock.now().timestamp()
                chat = self._chats.setdefault(chat_id, [SlidingWindow(n, s) for n, s in self.per_chat])
                windows = [*self._app, *chat]
                delay = max((w.delay(now) for w in windows), default=0.0)
                if delay <= 0:
                    for window in windows:
                        window.times.append(now)
                    if len(self._chats) > _PACER_PRUNE:
                        self._forget_idle(now)
                    return waited
            self.clock.sleep(delay)
            waited += delay

    def _forget_idle(self, now: float) -> None:
        for windows in self._chats.values():
            for window in windows:
                window.delay(now)
        self._chats = {c: ws for c, ws in self._chats.items() if any(w.times for w in ws)}


def forget_token(app_id: str) -> None:
    """Drop the app's cached tenant token so the next call fetches a new one. The SDK keeps tokens in a
    process-global cache until 10 minutes before they expire and never drops one the server refuses."""
    TokenManager.cache.set(f"self_tenant_token:{app_id}", "", 0)


def _header(headers: Mapping[str, str] | None, name: str) -> str | None:
    return next((v for k, v in (headers or {}).items() if k.lower() == name), None)


def _reset_seconds(response: lark.BaseResponse) -> float:
    value = _header(response.raw.headers if response.raw is not None else None, "x-ogw-ratelimit-reset")
    try:
        return max(0.0, float(value)) if value is not None else 1.0
    except ValueError:
        return 1.0


class FeishuSender:
    """Replies and posts through one lark client; also the `ChatSender` of pushes to Feishu chats."""

    def __init__(
        self,
        client: lark.Client,
        app_id: str,
        clock: Clock,
        pacer: Pacer | None = None,
        *,
        attempts: int = ATTEMPTS,
        backoff: float = BACKOFF,
    ) -> None:
        self.client, self.app_id, self.clock = client, app_id, clock
        self.pacer = pacer or Pacer(clock)
        self.attempts, self.backoff = attempts, backoff

    def reply(self, message_id: str, chat_id: str, body: Outgoing, *, in_thread: bool, key: str) -> str:
        """Reply to `message_id` (in its thread when `in_thread`); returns the new message's id.
        Raises ChannelGone or FeishuSendError."""
        request = (
            ReplyMessageRequest.builder()
            .message_id(message_id)
            .request_body(
                ReplyMessageRequestBody.builder()
                .msg_type(body.msg_type)
                .content(body.content)
                .reply_in_thread(in_thread)
                .uuid(idempotency_uuid(key))
                .build()
            )
            .build()
        )
        return self._send(chat_id, lambda: self.client.im.v1.message.reply(request))

    def create(self, chat_id: str, body: Outgoing, *, key: str) -> str:
        """A new message in chat `chat_id`; returns its id. Raises ChannelGone or FeishuSendError."""
        request = (
            CreateMessageRequest.builder()
            .receive_id_type("chat_id")
            .request_body(
                CreateMessageRequestBody.builder()
                .receive_id(chat_id)
                .msg_type(body.msg_type)
                .content(body.content)
                .uuid(idempotency_uuid(key))
                .build()
            )
            .build()
        )
        return self._send(chat_id, lambda: self.client.im.v1.message.create(request))

    def create_for_user(self, open_id: str, body: Outgoing, *, key: str) -> str:
        """A message to one user, in the bot's direct chat with them (`receive_id_type=open_id`); paced
        as a chat of its own. Returns its id. Raises ChannelGone or FeishuSendError."""
        request = (
            CreateMessageRequest.builder()
            .receive_id_type("open_id")
            .request_body(
                CreateMessageRequestBody.builder()
                .receive_id(open_id)
                .msg_type(body.msg_type)
                .content(body.content)
                .uuid(idempotency_uuid(key))
                .build()
            )
            .build()
        )
        return self._send(open_id, lambda: self.client.im.v1.message.create(request))

    def post(self, destination: Destination, reply: Reply, *, language: str, idempotency_key: str) -> str:
        """ChatSender: the reply as a card in the destination chat."""
        lang: Language = "en" if language == "en" else "zh"
        return self.create(
            destination.channel, Outgoing.card(render_card(reply, language=lang)), key=idempotency_key
        )

    def find_sent(self, destination: Destination, idempotency_key: str) -> str | None:
        """ChatSender: Feishu cannot be searched by uuid, but posting again with the same uuid within an
        hour returns the message already sent instead of a second one, so None is safe to act on."""
        return None

    # In-place updates and per-user cards ------------------------------------------------------------

    def patch(self, message_id: str, chat_id: str, card: dict[str, Any]) -> None:
        """Replace the card of message `message_id` (a card sent with `update_multi`) by `card`, in place
        (`PATCH /open-apis/im/v1/messages/{id}`). Raises ChannelGone or FeishuSendError."""
        request = (
            PatchMessageRequest.builder()
            .message_id(message_id)
            .request_body(
                PatchMessageRequestBody.builder().content(json.dumps(card, ensure_ascii=False)).build()
            )
            .build()
        )
        self._send(chat_id, lambda: self.client.im.v1.message.patch(request), _no_id)

    def recall(self, message_id: str, chat_id: str) -> None:
        """Withdraw the bot's own message (`DELETE /open-apis/im/v1/messages/{id}`): the thinking card
        when the answer went to one person only. Raises ChannelGone or FeishuSendError."""
        request = DeleteMessageRequest.builder().message_id(message_id).build()
        self._send(chat_id, lambda: self.client.im.v1.message.delete(request), _no_id)

    def ask_privately(
        self, message_id: str, chat_id: str, open_id: str, card: dict[str, Any], key: str
    ) -> str:
        """`card` for `open_id` alone (`send_private`), or, where Feishu cannot show one (a direct chat, a
        topic group), a reply in the thread of `message_id`. Raises ChannelGone or FeishuSendError."""
        try:
            return self.send_private(chat_id, open_id, card)
        except FeishuSendError:
            return self.reply(message_id, chat_id, Outgoing.card(card), in_thread=True, key=key)

    def send_private(self, chat_id: str, open_id: str, card: dict[str, Any]) -> str:
        """A card only `open_id` sees, in group `chat_id` (`POST /open-apis/ephemeral/v1/send`, no typed
        helper in lark-oapi). Not possible in topic groups or direct chats, nor without the bot in the
        group: FeishuSendError then, and the caller answers in the open. Returns the message id."""
        request = (
            lark.BaseRequest.builder()
            .http_method(lark.HttpMethod.POST)
            .uri("/open-apis/ephemeral/v1/send")
            .token_types({lark.AccessTokenType.TENANT})
            .body({"chat_id": chat_id, "open_id": open_id, "msg_type": "interactive", "card": card})
            .build()
        )
        return self._send(chat_id, lambda: self.client.request(request), _raw_message_id)

    def call(self, key: str, call: Callable[[], Any], result: Callable[[Any], str]) -> str:
        """Any Open API call, paced under `key` (a chat, a card) and retried like a send; returns
        `result(response)`. Raises ChannelGone or FeishuSendError."""
        return self._send(key, call, result)

    def _send(
        self,
        chat_id: str,
        call: Callable[[], Any],
        result: Callable[[Any], str] = lambda response: str(response.data.message_id),
    ) -> str:
        refreshed = False
        failure = FeishuSendError(None, "not attempted")
        for attempt in range(1, self.attempts + 1):
            self.pacer.wait(chat_id)
            delay = self.backoff * 2 ** (attempt - 1)
            try:
                response = call()
            except (requests.RequestException, ObtainAccessTokenException, ValueError) as exc:
                # ValueError: a body that is not JSON (a proxy's 502 page) fails the SDK's parsing.
                failure = FeishuSendError(None, f"{type(exc).__name__}: {exc}")
            else:
                if response.success():
                    return result(response)
                failure = FeishuSendError.of(response)
                if failure.code in CHAT_GONE:
                    log.warning("feishu send to %s refused, the chat is gone: %s", chat_id, failure)
                    raise ChannelGone(str(failure)) from failure
                if failure.code in TOKEN_REJECTED and not refreshed:
                    forget_token(self.app_id)
                    refreshed, delay = True, 0.0
                elif failure.code in RATE_LIMITED or failure.status == 429:
                    delay = _reset_seconds(response)
                elif (failure.status or 0) < 500:
                    log.error("feishu send to %s failed: %s", chat_id, failure)
                    raise failure
            if attempt < self.attempts:
                log.warning(
                    "feishu send to %s failed (attempt %d): %s; retrying in %.1f s",
                    chat_id,
                    attempt,
                    failure,
                    delay,
                )
                self.clock.sleep(min(delay, MAX_WAIT))
        log.error("feishu send to %s failed after %d attempts: %s", chat_id, self.attempts, failure)
        raise failure


def _no_id(response: Any) -> str:
    return ""


def _raw_message_id(response: lark.BaseResponse) -> str:
    """The message id in an untyped call's answer (`{"code": 0, "data": {"message_id": ...}}`)."""
    try:
        body = json.loads(response.raw.content) if response.raw is not None else {}
    except ValueError:
        return ""
    data = body.get("data") if isinstance(body, dict) else None
    return str(data.get("message_id") or "") if isinstance(data, dict) else ""


def check_credentials(client: lark.Client) -> None:
    """Fetch a tenant token now, so that an App ID or App Secret Feishu refuses stops start-up rather
    than the first answer. Raises ConfigError when refused; an unreachable Feishu is only logged."""
    try:
        TokenManager.get_self_tenant_token(client.config)
    except ObtainAccessTokenException as exc:
        raise ConfigError(
            f"Feishu refused FEISHU_APP_ID / FEISHU_APP_SECRET: code {exc.code}, {exc.msg}"
        ) from exc
    except (requests.RequestException, ValueError) as exc:
        log.warning("feishu: could not check the app's credentials now: %s", exc)


def bot_open_id(client: lark.Client) -> str | None:
    """The bot's own open_id (`GET /open-apis/bot/v3/info`), to tell its mentions from others'; None
    when Feishu does not say."""
    request = (
        lark.BaseRequest.builder()
        .http_method(lark.HttpMethod.GET)
        .uri("/open-apis/bot/v3/info")
        .token_types({lark.AccessTokenType.TENANT})
        .build()
    )
    try:
        response = client.request(request)
        if not response.success() or response.raw is None:
            log.warning("feishu bot info unavailable: %s", FeishuSendError.of(response))
            return None
        open_id = json.loads(response.raw.content).get("bot", {}).get("open_id")
    except (requests.RequestException, ObtainAccessTokenException, ValueError, AttributeError) as exc:
        log.warning("feishu bot info unavailable: %s", exc)
        return None
    return str(open_id) if open_id else None
