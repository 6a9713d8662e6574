"""Answers streamed into Slack threads while the LLM writes them: `chat.startStream`, then
`chat.appendStream` for each checked piece, then `chat.stopStream`; the stopped message is then updated
into the final reply (`chat.update`), so what stays is the same neutral Reply every other path renders.

Slack's streaming methods are the `AnswerStream` of `chatbot.ports`. A stream starts only with the first
checked text (an answer without an LLM summary never starts one), always in a thread (Slack streams
only replies to a user's message), with the asker as recipient (required in channels). Where the
workspace or the app lacks the feature, or Slack refuses or rate-limits a call, the stream ends there
and the answer is shown the usual way: the thinking message (or a new post) updated into the reply.

Limits are kept before Slack enforces them: per workspace, starts (and so stops) below Tier 2 (20 a
minute: chat.stopStream's reference says Tier 2; chat.startStream is taken to be the same) and appends
below Tier 4 (100 a minute); one stream appends at most every APPEND_INTERVAL seconds, text arriving
meanwhile goes with the next append. A workspace that refused to stream is not asked again for
UNAVAILABLE_FOR. Streaming calls are never retried after a 429: the answer falls back to a single post
instead of parking a worker on Retry-After.
"""

from __future__ import annotations

import copy
import logging
import threading
from datetime import datetime, timedelta

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.http_retry import ConnectionErrorRetryHandler

from adapters.pacing import SlidingWindow
from adapters.slack.blocks import stream_markdown
from adapters.slack.convert import ReplyTarget
from adapters.slack.sender import slack_error
from chatbot.models import Message
from chatbot.ports import Clock

log = logging.getLogger(__name__)

STARTS_PER_WORKSPACE = (18, 63.0)  # chat.startStream / stopStream: Tier 2 (20+/min), kept below
APPENDS_PER_WORKSPACE = (90, 63.0)  # chat.appendStream: Tier 4 (100+/min), kept below
APPEND_INTERVAL = 0.3  # seconds between two appends to one stream
UNAVAILABLE_FOR = timedelta(minutes=10)  # a workspace that refused streaming is not asked again so soon
_TRANSIENT = ("ratelimited", "http_429")  # refusals that say nothing about the feature being there


class StreamBudget:
    """Per-workspace windows for the streaming methods, and the workspaces that refused to stream."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._starts: dict[str, SlidingWindow] = {}
        self._appends: dict[str, SlidingWindow] = {}
        self._refused: dict[str, datetime] = {}
        self._lock = threading.Lock()

    def start(self, workspace: str) -> bool:
        """Whether a stream may start in `workspace` now (counted when it may)."""
        with self._lock:
            now = self.clock.now()
            until = self._refused.get(workspace)
            if until is not None and now < until:
                return False
            window = self._starts.setdefault(workspace, SlidingWindow(*STARTS_PER_WORKSPACE))
            return window.take(now.timestamp())

    def append(self, workspace: str) -> bool:
        """Whether an append may be sent in `workspace` now (counted when it may)."""
        with self._lock:
            window = self._appends.setdefault(workspace, SlidingWindow(*APPENDS_PER_WORKSPACE))
            return window.take(self.clock.now().timestamp())

    def refused(self, workspace: str) -> None:
        """`workspace` refused to stream: no stream is started there for UNAVAILABLE_FOR."""
        with self._lock:
            self._refused[workspace] = self.clock.now() + UNAVAILABLE_FOR


class SlackStreams:
    """Opens one `SlackAnswerStream` per answer, sharing a client that does not wait out 429s, the
    workspace budgets, and the clock that pacing sleeps on."""

    def __init__(self, client: WebClient, clock: Clock) -> None:
        self.client = copy.copy(client)  # same token (a WorkspaceClient's too), base URL and timeout
        self.client.retry_handlers = [ConnectionErrorRetryHandler()]
        self.clock = clock
        self.budget = StreamBudget(clock)

    def open(self, target: ReplyTarget, message: Message, place: str | None) -> SlackAnswerStream | None:
        """A stream for the answer to `message`, replacing the thinking message `place` once it starts;
        None where Slack cannot stream (no thread to reply in, a slash command's response_url)."""
        if target.response_url or not target.thread_ts:
            return None
        return SlackAnswerStream(self, target, message, place)


class SlackAnswerStream:
    """One answer streamed into its thread. `append` is the core's; `finish` ends the stream and says
    which message the final reply should take the place of."""

    def __init__(self, streams: SlackStreams, target: ReplyTarget, message: Message, place: str | None):
        self.streams, self.target, self.message = streams, target, message
        self.workspace = message.workspace or ""
        self.place = place  # the message the final reply replaces: the thinking message, then the stream
        self.ts: str | None = None  # the streamed message, once started
        self.appends = 0
        self._pending = ""
        self._next_append = 0.0
        self._live = True

    def append(self, text: str) -> bool:
        if not self._live:
            return False
        try:
            if self.ts is None:
                self._start(text)
            else:
                self._append(text)
        except (SlackApiError, SlackClientError) as exc:
            self._stop_streaming(exc)
        return self._live

    def _start(self, text: str) -> None:
        if not self.streams.budget.start(self.workspace):
            log.info("slack: not streaming in %s now (no budget, or it refused lately)", self.workspace)
            self._live = False
            return
        response = self.streams.client.chat_startStream(
            channel=self.target.channel,
            thread_ts=str(self.target.thread_ts),
            markdown_text=stream_markdown(text),
            recipient_team_id=self.message.workspace,
            recipient_user_id=self.message.user,
        )
        self.ts = str(response["ts"])
        self._next_append = self.streams.clock.now().timestamp() + APPEND_INTERVAL
        thinking, self.place = self.place, self.ts
        if thinking is not None:
            try:  # the stream is the feedback now
                self.streams.client.chat_delete(channel=self.target.channel, ts=thinking)
            except SlackApiError as exc:
                log.warning("slack: could not remove the thinking message %s: %s", thinking, slack_error(exc))

    def _append(self, text: str) -> None:
        self._pending += text
        clock = self.streams.clock
        wait = self._next_append - clock.now().timestamp()
        if wait > 0:
            clock.sleep(wait)
        if not self.streams.budget.append(self.workspace):
            return  # the workspace's appends are spent for now: this text goes with the next one
        assert self.ts is not None
        self.streams.client.chat_appendStream(
            channel=self.target.channel, ts=self.ts, markdown_text=stream_markdown(self._pending)
        )
        self._pending = ""
        self.appends += 1
        self._next_append = clock.now().timestamp() + APPEND_INTERVAL

    def _stop_streaming(self, exc: Exception) -> None:
        """A refused call ends the stream; a refused start (other than a rate limit) marks the workspace
        as one that does not stream."""
        error = slack_error(exc)
        log.warning("slack: streaming in %s ended: %s", self.target.channel, error)
        self._live = False
        if self.ts is None and error not in _TRANSIENT and not error.startswith("http_5"):
            self.streams.budget.refused(self.workspace)

    def finish(self) -> str | None:
        """Stop the stream, if one started; returns the message the final reply should replace (the
        stream, else the thinking message, else None: post it)."""
        if self.ts is not None:
            try:
                self.streams.client.chat_stopStream(channel=self.target.channel, ts=self.ts)
            except (SlackApiError, SlackClientError) as exc:
                log.warning("slack: could not stop the stream %s: %s", self.ts, slack_error(exc))
        self._live = False
        return self.place
