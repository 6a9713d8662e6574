"""Posting to Slack below its rate limits: about one message a second per channel, and a 429 retried
after its `Retry-After` (slack_sdk only retries connection errors unless told otherwise).

Waiting goes through a Clock, so tests pace and back off without sleeping.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry import ConnectionErrorRetryHandler, RetryHandler
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.webhook import WebhookClient

from adapters.slack.blocks import SlackMessage, render_blocks
from adapters.slack.convert import ReplyTarget
from chatbot.messages import Language
from chatbot.models import Reply
from chatbot.ports import Clock

T = TypeVar("T")

log = logging.getLogger(__name__)

# Seconds between messages to one channel: Slack allows about 1/s; 5% slower, so that a few ms of jitter
# never lands a post early and earns a 429 (bench/push.py measured the difference).
PER_CHANNEL_INTERVAL = 1.05
RATE_LIMIT_RETRIES = 3
MAX_RETRY_AFTER = 120.0  # never park a worker longer than this on one Retry-After
TIMEOUT = 10.0  # seconds per Web API call
RESPONSE_URL_MESSAGES = 5  # Slack accepts up to five posts to one response_url
_PACER_PRUNE = 1_000  # channels remembered before idle ones are forgotten


class SlackSendError(Exception):
    """A post Slack refused: `error` is Slack's code (`channel_not_found`, `ratelimited`, `http_500`…)."""

    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error


def slack_error(exc: Exception) -> str:
    """The Slack error code of a failed call, for logs: `channel_not_found`, or `http_500` when Slack
    answered with an HTTP error (and so no code)."""
    if isinstance(exc, SlackSendError):
        return exc.error
    if isinstance(exc, SlackApiError):
        response = exc.response
        if response.status_code != 200:
            return f"http_{response.status_code}"
        return str(response.get("error") or "unknown_error")
    return type(exc).__name__


class RetryAfterHandler(RateLimitErrorRetryHandler):
    """slack_sdk's 429 handler, waiting `Retry-After + jitter()` on the given clock (capped) instead of
    `time.sleep(int(Retry-After) + random())`: the jitter still spreads retries of parallel workers,
    and tests pass `jitter=lambda: 0.0` with a clock that does not sleep."""

    def __init__(
        self,
        clock: Clock,
        jitter: Callable[[], float] = random.random,
        max_retry_count: int = RATE_LIMIT_RETRIES,
    ) -> None:
        super().__init__(max_retry_count=max_retry_count)
        self.clock, self.jitter = clock, jitter

    def prepare_for_next_attempt(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        if response is None:
            raise error or RuntimeError("rate-limit retry without a response")
        values = next((v for k, v in response.headers.items() if k.lower() == "retry-after"), ["1"])
        try:
            retry_after = float(values[0])
        except (ValueError, IndexError):
            retry_after = 1.0
        wait = min(MAX_RETRY_AFTER, max(0.0, retry_after) + self.jitter())
        # A Web API method name is safe to log; a response_url's last segment is a secret.
        method = request.url.rsplit("/", 1)[-1] if "/api/" in request.url else "response_url"
        log.warning("slack rate-limited %s; retrying in %.1f s", method, wait)
        state.next_attempt_requested = True
        self.clock.sleep(wait)
        state.increment_current_attempt()


def has_feedback_buttons(message: SlackMessage) -> bool:
    """Whether `message` carries Slack's own feedback buttons (a `context_actions` block)."""
    return any(block.get("type") == "context_actions" for block in message["blocks"])


def send_card(send: Callable[[SlackMessage], T], reply: Reply, language: Language) -> T:
    """`send` the reply as one message (a card); when Slack refuses its own feedback buttons there
    (`invalid_blocks`), again with plain 👍 / 👎 buttons."""
    [message] = render_blocks(reply, language=language, max_messages=1)
    try:
        return send(message)
    except SlackApiError as exc:
        if slack_error(exc) != "invalid_blocks" or not has_feedback_buttons(message):
            raise
    return send(render_blocks(reply, language=language, max_messages=1, native_feedback=False)[0])


def retry_handlers(clock: Clock, jitter: Callable[[], float] = random.random) -> list[RetryHandler]:
    """Connection errors once (slack_sdk's default) and 429s after Retry-After. 5xx are not retried: a
    post that failed with a 500 may still have been delivered, and a retry would post it twice."""
    return [ConnectionErrorRetryHandler(), RetryAfterHandler(clock, jitter)]


def web_client(
    token: str, base_url: str, clock: Clock, jitter: Callable[[], float] = random.random
) -> WebClient:
    return WebClient(
        token=token, base_url=base_url, timeout=int(TIMEOUT), retry_handlers=retry_handlers(clock, jitter)
    )


class ChannelPacer:
    """Hands out send slots at most one per `interval` per channel, in the order they are asked for."""

    def __init__(self, clock: Clock, interval: float = PER_CHANNEL_INTERVAL) -> None:
        self.clock, self.interval = clock, interval
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def wait(self, channel: str) -> float:
        """Wait for the channel's next slot; returns the seconds waited."""
        with self._lock:
            now = self.clock.now().timestamp()
            slot = max(now, self._next.get(channel, now))
            self._next[channel] = slot + self.interval
            if len(self._next) > _PACER_PRUNE:
                self._next = {c: t for c, t in self._next.items() if t > now}
        delay = slot - now
        if delay > 0:
            self.clock.sleep(delay)
        return delay


class SlackSender:
    """Posts neutral replies: to a channel (the rest of a long reply in the first message's thread), or
    to a `response_url`; every message paced per channel, every 429 retried after Retry-After."""

    def __init__(self, client: WebClient, pacer: ChannelPacer) -> None:
        self.client, self.pacer = client, pacer

    def send(
        self,
        target: ReplyTarget,
        reply: Reply,
        language: Language,
        *,
        max_messages: int | None = None,
        ephemeral: bool = False,
        place: str | None = None,
    ) -> None:
        """Post the reply, its first message in place of message `place` (the thinking message) when
        given; SlackSendError or SlackApiError when Slack refuses a message."""
        if target.response_url:
            # A response_url takes at most five messages, and they cannot be threaded; plain 👍 / 👎
            # buttons, which every surface shows.
            limit = min(max_messages or RESPONSE_URL_MESSAGES, RESPONSE_URL_MESSAGES)
            for message in render_blocks(reply, language=language, max_messages=limit, native_feedback=False):
                self.respond(target, message, ephemeral=ephemeral)
            return
        messages = render_blocks(reply, language=language, max_messages=max_messages)
        plain: list[SlackMessage] | None = None
        thread_ts = target.thread_ts
        for n, message in enumerate(messages):
            try:
                ts = self._put(target, message, place if n == 0 else None, thread_ts)
            except SlackApiError as exc:
                # Slack's own feedback buttons are refused where the workspace lacks them: the same
                # message again with plain 👍 / 👎 buttons.
                if slack_error(exc) != "invalid_blocks" or not has_feedback_buttons(message):
                    raise
                log.info("slack: feedback buttons refused in %s; sending plain buttons", target.channel)
                plain = plain or render_blocks(
                    reply, language=language, max_messages=max_messages, native_feedback=False
                )
                ts = self._put(target, plain[min(n, len(plain) - 1)], place if n == 0 else None, thread_ts)
            thread_ts = thread_ts or ts

    def _put(
        self, target: ReplyTarget, message: SlackMessage, place: str | None, thread_ts: str | None
    ) -> str:
        """`message` in place of message `place`, or posted in `thread_ts`; returns its ts."""
        if place is not None:
            return self.replace(target, place, message)
        return self.post(target.channel, message, thread_ts)

    def post(
        self,
        channel: str,
        message: SlackMessage,
        thread_ts: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> str:
        """`chat.postMessage`; returns the new message's ts. `metadata` is Slack message metadata
        (`event_type`, `event_payload`), readable later through conversations.history."""
        self.pacer.wait(channel)
        # No previews of the GitHub links in our own answers: they would bury the answer.
        response = self.client.chat_postMessage(
            channel=channel,
            text=message["text"],
            blocks=message["blocks"] or None,
            thread_ts=thread_ts,
            unfurl_links=False,
            unfurl_media=False,
            metadata=metadata,
        )
        return str(response["ts"])

    def update(self, channel: str, ts: str, message: SlackMessage) -> None:
        """`chat.update`: message `ts` now says `message` (its place in the channel or thread kept)."""
        self.client.chat_update(channel=channel, ts=ts, text=message["text"], blocks=message["blocks"])

    def replace(self, target: ReplyTarget, place: str, message: SlackMessage) -> str:
        """Message `place` updated into `message`; when Slack refuses the update (the message deleted
        meanwhile, say), `message` is posted instead and `place` removed. Returns the message's ts."""
        try:
            self.update(target.channel, place, message)
            return place
        except SlackApiError as exc:
            log.warning("slack: could not update %s (%s); posting instead", place, slack_error(exc))
        ts = self.post(target.channel, message, target.thread_ts)
        try:
            self.client.chat_delete(channel=target.channel, ts=place)
        except SlackApiError as exc:
            log.warning("slack: could not remove the thinking message %s: %s", place, slack_error(exc))
        return ts

    def post_text(self, target: ReplyTarget, text: str) -> None:
        """A plain-text message (the apology), where `send` would have put the answer."""
        message = SlackMessage(text=text, blocks=[])
        if target.response_url:
            self.respond(target, message, ephemeral=True)
        else:
            self.post(target.channel, message, target.thread_ts)

    def respond(self, target: ReplyTarget, message: SlackMessage, *, ephemeral: bool) -> None:
        assert target.response_url is not None
        self.pacer.wait(target.channel)
        webhook = WebhookClient(
            target.response_url, timeout=int(TIMEOUT), retry_handlers=list(self.client.retry_handlers)
        )
        kind: Literal["ephemeral", "in_channel"] = "ephemeral" if ephemeral else "in_channel"
        response = webhook.send(
            text=message["text"],
            blocks=message["blocks"] or None,
            response_type=kind,
            replace_original=False,
        )
        if response.status_code != 200:
            # response_url errors are a word in the body: expired_url, used_url, no_text…
            raise SlackSendError(f"http_{response.status_code} {response.body[:100]}".strip())

    def unfurl(self, event: dict[str, Any], unfurls: dict[str, dict[str, Any]]) -> None:
        """`chat.unfurl` for a `link_shared` event: by unfurl_id when Slack gave one (links still in
        the composer have no real channel or ts), else by channel and message ts."""
        if event.get("unfurl_id") and event.get("source"):
            self.client.chat_unfurl(unfurl_id=event["unfurl_id"], source=event["source"], unfurls=unfurls)
        else:
            self.client.chat_unfurl(channel=event["channel"], ts=event["message_ts"], unfurls=unfurls)
