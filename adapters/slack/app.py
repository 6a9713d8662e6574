"""The Slack adapter: one slack-bolt App for mentions, DMs, `/prhub`, card buttons and PR link unfurls,
served over HTTP (`/slack/events` on the bot's web app) or over Socket Mode.

Listeners only translate the payload and queue the work on a thread pool of the adapter's own, so they
run inline (`process_before_response`) and Slack's ack leaves as soon as the job is queued. Bolt's own
executor is not used: it would queue even `ack()` of commands and clicks behind answers waiting on a
slow LLM, past Slack's 3 s, and start a retry storm. Retries and duplicate deliveries are claimed away
in the database (`processed_events`), so each question is answered once.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Callable
from functools import partial
from typing import Any, Literal
from urllib.parse import parse_qsl

from flask import Flask, Response, request
from slack_bolt import Ack, App, BoltContext, BoltRequest, BoltResponse
from slack_bolt.adapter.flask.handler import to_flask_response
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_bolt.error import BoltError
from slack_bolt.request.internals import build_context
from slack_sdk.errors import SlackApiError
from slack_sdk.signature import SignatureVerifier
from werkzeug.datastructures import Headers

from adapters.replies import is_private
from adapters.slack.actions import ReadingActions
from adapters.slack.assistant import AssistantPanel
from adapters.slack.blocks import SlackMessage, render_blocks, thinking_message
from adapters.slack.convert import (
    PLATFORM,
    REPORT_RISKS_ACTION,
    PRLink,
    ReplyTarget,
    action_key,
    action_message,
    action_target,
    command_message,
    command_target,
    event_key,
    pr_links,
    reply_target,
    to_message,
)
from adapters.slack.feedback import FeedbackActions
from adapters.slack.home import HomeTab
from adapters.slack.oauth import ContextThreadPool, SlackInstalls, WorkspaceClient
from adapters.slack.push import SlackPushSender
from adapters.slack.sender import (
    PER_CHANNEL_INTERVAL,
    TIMEOUT,
    ChannelPacer,
    SlackSender,
    SlackSendError,
    retry_handlers,
    slack_error,
    web_client,
)
from adapters.slack.stream import SlackStreams
from adapters.web.app import MAX_BODY
from chatbot.bot import ChatBot
from chatbot.cards import pr_card
from chatbot.clock import SystemClock
from chatbot.commands import parse_command
from chatbot.config import ConfigError, Settings, require_secret
from chatbot.messages import Language, say
from chatbot.models import Message
from chatbot.ports import Clock, Progress
from chatbot.qa.compose import Answer
from chatbot.qa.parse import language_of
from chatbot.store.analyses import current_analysis
from chatbot.store.db import Database
from chatbot.store.events import claim_event
from chatbot.store.index import PRIndex, to_pull_request
from chatbot.team.feedback import rated

log = logging.getLogger(__name__)
# What a question shows at once (a thinking message, an assistant status); returns the ts of a message
# to update into the answer, if it posted one.
Feedback = Callable[[Message, ReplyTarget], str | None]

COMMAND = "/prhub"
EVENTS_PATH = "/slack/events"
_ANY = re.compile("")
WORKERS = 8  # answers composed at once; more questions wait in the pool's queue, already acknowledged
FEEDBACK_WORKERS = 4  # claims and thinking messages sent at once (each takes a few ms)


class SlackResponder:
    """The listeners: translate the payload, acknowledge, and answer in the background."""

    def __init__(
        self,
        bot: ChatBot,
        db: Database,
        clock: Clock,
        sender: SlackSender,
        language: Language,
        workers: int = WORKERS,
        streams: SlackStreams | None = None,
    ) -> None:
        self.bot, self.db, self.clock, self.sender, self.language = bot, db, clock, sender, language
        self.streams = streams  # chat streaming of LLM summaries; None: answers appear when done
        self._pool = ContextThreadPool(max_workers=workers, thread_name_prefix="slack-answer")
        # Claims and thinking messages have threads of their own: a question shows it is being worked
        # on even while every answer worker waits on a slow LLM.
        self._feedback = ContextThreadPool(max_workers=FEEDBACK_WORKERS, thread_name_prefix="slack-feedback")

    def register(self, app: App) -> None:
        app.event("app_mention")(self.on_message)
        app.event("message")(self.on_message)  # DMs; every other message event is ignored, but acked
        app.event("link_shared")(self.on_link_shared)
        app.command(COMMAND)(self.on_command)
        app.action(REPORT_RISKS_ACTION)(self.on_report_risks)
        # URL buttons (full report, Markdown, PDF) still send block_actions; they only need an ack.
        app.action(_ANY)(lambda ack: ack())

    # Listeners ---------------------------------------------------------------------------------------

    def on_message(self, event: dict[str, Any], body: dict[str, Any], context: BoltContext) -> None:
        message = to_message(event, team_id=body.get("team_id"), bot_user_id=context.bot_user_id)
        if message is not None:
            target = reply_target(event)
            self.submit(event_key(body, event), message, target, self._answer, feedback=self._show_thinking)

    def on_command(self, ack: Ack, body: dict[str, Any]) -> None:
        ack()
        self.submit(
            f"command:{body.get('trigger_id')}",
            command_message(body),
            command_target(body),
            self._answer_command,
            feedback=None,  # the response_url takes the answer; the slash command shows as sent
        )

    def on_report_risks(self, ack: Ack, body: dict[str, Any], action: dict[str, Any]) -> None:
        ack()
        message = action_message(body, action)
        if message is not None:
            self.submit(
                action_key(body, action),
                message,
                action_target(body),
                self._answer,
                feedback=self._show_thinking,
            )

    def on_link_shared(self, event: dict[str, Any], body: dict[str, Any]) -> None:
        links = pr_links(event.get("links") or [])
        if links:
            key = event_key(body, event)
            self._pool.submit(self._run, key, None, self.language, partial(self._unfurl, event, links))

    # Background work ---------------------------------------------------------------------------------

    def submit(
        self,
        key: str,
        message: Message,
        target: ReplyTarget,
        answer: Callable[[Message, ReplyTarget, str | None], None],
        *,
        feedback: Feedback | None,
    ) -> None:
        """Queue a message's answer: first, on the feedback threads, the claim and the first visible
        feedback (a thinking message, an assistant status; None shows nothing), then the answer."""
        self._feedback.submit(self._start, key, message, target, answer, feedback)

    def later(self, work: Callable[..., None], *args: object) -> None:
        """Do `work(*args)` on an answer worker (nothing to claim: publishing a view, say); a failure
        is logged."""

        def run() -> None:
            try:
                work(*args)
            except Exception:
                log.exception("slack: background work failed")

        self._pool.submit(run)

    def run(self, key: str, target: ReplyTarget | None, language: Language, work: Callable[[], None]) -> None:
        """Claim `key` and do `work` on an answer worker, logging and apologising when it fails."""
        self._pool.submit(self._run, key, target, language, work)

    def _start(
        self,
        key: str,
        message: Message,
        target: ReplyTarget,
        answer: Callable[[Message, ReplyTarget, str | None], None],
        feedback: Feedback | None,
    ) -> None:
        """Claim the delivery and show the first feedback, then queue the answer (given the thinking
        message's ts, to update, when there is one)."""
        language = language_of(message.text)
        try:
            if not claim_event(self.db, PLATFORM, key, self.clock.now()):
                log.info("slack: %s was already handled (a retry or a duplicate delivery)", key)
                return
            place = feedback(message, target) if feedback is not None else None
        except Exception as exc:
            log_failure(key, exc)
            self._apologise(target, language)
            return
        self._pool.submit(self._run, key, target, language, partial(answer, message, target, place), False)

    def _run(
        self,
        key: str,
        target: ReplyTarget | None,
        language: Language,
        work: Callable[[], None],
        claim: bool = True,
    ) -> None:
        """Claim the delivery (unless claimed already), then do the work; on failure log Slack's error
        code and apologise."""
        try:
            if claim and not claim_event(self.db, PLATFORM, key, self.clock.now()):
                log.info("slack: %s was already handled (a retry or a duplicate delivery)", key)
                return
            work()
        except Exception as exc:
            log_failure(key, exc)
            self._apologise(target, language)

    def _apologise(self, target: ReplyTarget | None, language: Language) -> None:
        if target is None:
            return
        try:
            self.sender.post_text(target, say("chat.apology", language))
        except Exception as exc:
            log.error("slack: the apology in %s failed too: %s", target.channel, slack_error(exc))

    def _answer(self, message: Message, target: ReplyTarget, place: str | None) -> None:
        """The answer, in place of the thinking message `place` when there is one (or of the message
        its LLM summary was streamed into); when the answer fails, that message becomes the apology."""
        try:
            answer, place = self.answer_streaming(message, target, place)
            # A report card is one message; anything longer continues in the thread.
            cards = 1 if answer.query.intent == "report" else None
            self.sender.send(target, rated(answer), answer.query.language, max_messages=cards, place=place)
        except Exception as exc:
            if place is None:
                raise
            log_failure(f"{target.channel}/{place}", exc)
            text = say("chat.apology", language_of(message.text))
            try:
                self.sender.update(target.channel, place, SlackMessage(text=text, blocks=[]))
            except Exception as again:
                log.error("slack: the apology in %s failed too: %s", target.channel, slack_error(again))

    def answer_streaming(
        self, message: Message, target: ReplyTarget, place: str | None, progress: Progress | None = None
    ) -> tuple[Answer, str | None]:
        """The bot's answer, its LLM summary streamed into the thread while it is written (when streaming
        is on and Slack takes it), and the message the final reply should replace: the stream, else
        `place`."""
        stream = self.streams.open(target, message, place) if self.streams is not None else None
        try:
            answer = self.bot.handle(message, progress, stream)
        finally:
            if stream is not None:
                place = stream.finish()
        return answer, place

    def _show_thinking(self, message: Message, target: ReplyTarget) -> str | None:
        """The ts of the thinking message posted for a question; None for a command, and when Slack
        refused it (the answer is then posted as usual)."""
        if parse_command(message.text) is not None:
            return None
        thinking = thinking_message(language_of(message.text))
        try:
            return self.sender.post(target.channel, thinking, target.thread_ts)
        except SlackApiError as exc:
            log.warning("slack: no thinking message in %s: %s", target.channel, slack_error(exc))
            return None

    def _answer_command(self, message: Message, target: ReplyTarget, place: str | None) -> None:
        answer = self.bot.handle(message)
        self.sender.send(target, rated(answer), answer.query.language, ephemeral=is_private(message, answer))

    def _unfurl(self, event: dict[str, Any], links: list[PRLink]) -> None:
        """The analysis card of each linked PR that is in the index; other links are left alone."""
        found = []
        with self.db.session() as session:
            index = PRIndex(session)
            for link in links:
                repo = index.repo(link.repo)
                row = index.pull_request_row(repo, link.number) if repo is not None else None
                if repo is not None and row is not None:
                    stored = current_analysis(session, row)
                    found.append((link, to_pull_request(repo, row), stored.analysis if stored else None))
        unfurls = {
            link.url: {
                "blocks": render_blocks(
                    pr_card(pr, analysis or self.bot.fallback(pr), self.language, tz=self.bot.config.tz),
                    language=self.language,
                    max_messages=1,
                )[0]["blocks"]
            }
            for link, pr, analysis in found
        }
        if unfurls:
            self.sender.unfurl(event, unfurls)

    def close(self) -> None:
        self._feedback.shutdown(wait=True)  # first: it queues answers
        self._pool.shutdown(wait=True)


def log_failure(key: str, exc: Exception) -> None:
    """One log line for an answer that failed: Slack's error code when Slack refused, else a trace."""
    if isinstance(exc, SlackApiError | SlackSendError):
        log.error("slack: could not answer %s: Slack said %s", key, slack_error(exc))
    else:
        log.error("slack: could not answer %s", key, exc_info=exc)


def mount_slack(app: Flask, bolt: App, signing_secret: str, path: str = EVENTS_PATH) -> None:
    """Serve Slack's events, slash commands and interactions at `path` (one Request URL for all).

    The request is judged before bolt parses anything (bolt parses first, so a malformed unsigned
    body was a 500 with a traceback, and a refused one was logged in full): above MAX_BODY it is 413;
    without a valid, fresh signature 401, logged by size only; signed but not the JSON or form that
    Slack sends 400. bolt checks the signature again, which costs one HMAC."""
    verifier = SignatureVerifier(signing_secret)

    def slack_events() -> Response:
        if (request.content_length or 0) > MAX_BODY:
            return Response("request body too large", status=413)
        body = request.get_data()  # the app's MAX_CONTENT_LENGTH bounds a chunked body too
        if not is_signed(verifier, body, request.headers):
            log.warning("slack: refused a request without a valid signature (%d bytes)", len(body))
            return Response("invalid signature", status=401)
        payload = slack_payload(body, request.mimetype)
        if payload is None:
            log.warning("slack: refused a signed request that is not a Slack payload (%d bytes)", len(body))
            return Response("malformed payload", status=400)
        bolt_request = BoltRequest(
            body=body.decode("utf-8"),
            query=request.query_string.decode("utf-8", "replace"),
            headers=request.headers,  # type: ignore[arg-type]
        )
        if bolt_request.body != payload:
            # bolt reads any form whose text merely contains "payload" as an interaction (and finds
            # nothing): a slash command about payloads was a 404.
            bolt_request.body = payload
            bolt_request.context = build_context(BoltContext({}), payload)
        return to_flask_response(bolt.dispatch(bolt_request))

    app.add_url_rule(path, "slack_events", slack_events, methods=["POST"])


def is_signed(verifier: SignatureVerifier, body: bytes, headers: Headers) -> bool:
    """Whether the request carries Slack's signature of `body`, made within the last five minutes. A
    timestamp that is not a number or a signature that is not ASCII is simply not valid."""
    timestamp = headers.get("X-Slack-Request-Timestamp", "")
    signature = headers.get("X-Slack-Signature", "")
    if not (timestamp.isascii() and timestamp.isdigit() and signature.isascii()):
        return False
    return verifier.is_valid(body, timestamp, signature)


def slack_payload(body: bytes, mimetype: str) -> dict[str, Any] | None:
    """The payload as Slack sends it: a JSON object (events), a form (slash commands), or a form whose
    `payload` field is a JSON object (interactions). None for anything else, an event callback whose
    `event` is not an object included."""
    try:
        text = body.decode("utf-8")
        if mimetype == "application/json" or text.startswith("{"):
            payload = json.loads(text)
        else:
            form = dict(parse_qsl(text, keep_blank_values=True))
            payload = json.loads(form["payload"]) if "payload" in form else form
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    if not isinstance(payload, dict):
        return None
    if payload.get("type") == "event_callback" and not isinstance(payload.get("event"), dict):
        return None
    return payload


def refuse_unusable_payload(error: Exception, request: BoltRequest) -> BoltResponse:
    """bolt's error handler: a listener or middleware that cannot make sense of a signed payload (a
    field of the wrong type) gets a 400 and one log line, not a 500 and a traceback."""
    log.warning(
        "slack: could not handle a signed %s payload: %s: %s",
        request.body.get("type", "?"),
        error.__class__.__name__,
        str(error)[:200],
    )
    return BoltResponse(status=400, body="malformed payload")


class SlackAdapter:
    """The running Slack side: `mount` it on the web app (HTTP mode), `start` it (Socket Mode), `stop`
    it on shutdown. In each mode the other method does nothing, so the caller needs no branch."""

    def __init__(
        self,
        bolt: App,
        responder: SlackResponder,
        app_token: str | None = None,
        signing_secret: str = "",
        installs: SlackInstalls | None = None,
        reading: ReadingActions | None = None,
    ) -> None:
        self.bolt, self.responder, self._app_token, self.reading = bolt, responder, app_token, reading
        self._signing_secret = signing_secret
        self.installs = installs  # "Add to Slack" for several workspaces, when configured
        self._socket: SocketModeHandler | None = None

    @property
    def mode(self) -> Literal["http", "socket"]:
        return "socket" if self._app_token else "http"

    def mount(self, app: Flask) -> None:
        if self.mode == "http":
            mount_slack(app, self.bolt, self._signing_secret)
        if self.installs is not None:
            self.installs.mount(app, self.bolt)

    def push_sender(self) -> SlackPushSender:
        """The Monday push's sender, sharing the answers' client and pacing; with several workspaces,
        each push uses the token of its subscription's workspace."""
        sender = self.responder.sender
        return self.installs.push_sender(sender) if self.installs is not None else SlackPushSender(sender)

    def start(self) -> None:
        """Open the Socket Mode connection (`apps.connections.open`, then the WebSocket)."""
        if self.mode == "socket" and self._socket is None:
            self._socket = SocketModeHandler(self.bolt, self._app_token)
            self._socket.connect()
            log.info("slack: connected in Socket Mode")

    def stop(self) -> None:
        """Close the socket, then let the answers in progress finish."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        self.responder.close()
        if self.reading is not None:
            self.reading.close()


def build_slack(
    settings: Settings,
    bot: ChatBot,
    db: Database,
    clock: Clock,
    *,
    waits: Clock | None = None,
    jitter: Callable[[], float] = random.random,
    pace: float = PER_CHANNEL_INTERVAL,
    workers: int = WORKERS,
) -> SlackAdapter:
    """The Slack adapter from the settings: Socket Mode when SLACK_APP_TOKEN is set, else HTTP (which
    needs SLACK_SIGNING_SECRET); installed through "Add to Slack" in several workspaces when
    SLACK_CLIENT_ID is set (adapters/slack/oauth.py), else with the one SLACK_BOT_TOKEN. `clock` stamps
    claimed events; `waits` is the clock that pacing and Retry-After sleep on (the system clock unless a
    test passes one that does not sleep).

    With one token, calls `auth.test` once; ConfigError when a setting is missing, a placeholder, or
    refused by Slack."""
    installs = SlackInstalls(settings, db, clock) if settings.slack_oauth_configured else None
    token = (
        None
        if installs is not None
        else require_secret(settings.slack_bot_token, "SLACK_BOT_TOKEN", "the Slack app's bot token (xoxb-…)")
    )
    app_token = None
    if settings.slack_app_token is not None and settings.slack_app_token.get_secret_value().strip():
        app_token = require_secret(
            settings.slack_app_token, "SLACK_APP_TOKEN", "an app-level token (xapp-…) with connections:write"
        )
    secret = (
        ""
        if app_token
        else require_secret(
            settings.slack_signing_secret, "SLACK_SIGNING_SECRET", "the Slack app's signing secret"
        )
    )
    if installs is not None and app_token is not None:
        raise ConfigError("SLACK_CLIENT_ID (Add to Slack) needs HTTP mode: unset SLACK_APP_TOKEN")
    waits = waits or SystemClock()
    client = (
        web_client(token, settings.slack_api_url, waits, jitter)
        if token is not None
        else WorkspaceClient(
            base_url=settings.slack_api_url,
            timeout=int(TIMEOUT),
            retry_handlers=retry_handlers(waits, jitter),
        )
    )
    try:
        # Socket Mode requests are not signed: bolt skips the check for them, and no URL is mounted.
        bolt = App(
            client=client,
            signing_secret=secret,
            request_verification_enabled=app_token is None,
            process_before_response=True,
            oauth_settings=installs.oauth_settings if installs is not None else None,
            authorize=installs.authorize if installs is not None else None,
        )
    except BoltError as exc:
        raise ConfigError(f"Slack refused SLACK_BOT_TOKEN ({settings.slack_api_url}): {exc}") from exc
    streams = SlackStreams(client, waits) if settings.streaming else None
    responder = SlackResponder(
        bot, db, clock, SlackSender(client, ChannelPacer(waits, pace)), settings.language, workers, streams
    )
    reading = ReadingActions(bot, db, clock)
    reading.register(bolt)  # before the responder's catch-all action listener, like the Home tab
    FeedbackActions(db, clock).register(bolt)
    HomeTab(responder, settings.language).register(bolt)  # before the responder's catch-all action
    responder.register(bolt)
    bolt.assistant(AssistantPanel(responder, settings.language).middleware())
    bolt.error(refuse_unusable_payload)
    if installs is not None:
        installs.register(bolt)
    return SlackAdapter(bolt, responder, app_token, secret, installs, reading)
