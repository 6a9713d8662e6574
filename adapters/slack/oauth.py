"""Slack "Add to Slack" for several workspaces: bolt's OAuth flow on the bot's web app, each workspace
answered and pushed to with the bot token its installation gave, and an uninstall stopping its pushes.

- `/slack/install` sends the installer to Slack's consent page with a fresh `state` (kept in the
  database and in a cookie); `/slack/oauth_redirect` checks both, trades the code for a bot token
  (`oauth.v2.access`) and saves the installation, encrypted (adapters/slack/installations.py).
- bolt's `authorize` finds the token of the workspace of each request in the installation store. The
  responder posts through one shared client, so that client takes its token from the workspace being
  served: `serving_workspace` records it for the request's thread, and the responder's pools carry it
  to the threads that answer (`ContextThreadPool`). A push runs with the token of its subscription's
  workspace.
- `app_uninstalled`, and `tokens_revoked` for the bot token, delete the workspace's installation and
  deactivate its subscriptions, each with an audit entry.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar, copy_context
from typing import Any, ParamSpec, TypeVar

from flask import Flask, Response, request
from slack_bolt import App, BoltContext, BoltRequest, BoltResponse
from slack_bolt.adapter.flask.handler import to_flask_response
from slack_bolt.authorization.authorize import InstallationStoreAuthorize
from slack_bolt.listener.builtins import TokenRevocationListeners
from slack_bolt.oauth.callback_options import CallbackOptions, FailureArgs, SuccessArgs
from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_sdk import WebClient

from adapters.slack.installations import EncryptedInstallationStore, state_store, token_cipher
from adapters.slack.push import SlackPushSender
from adapters.slack.sender import SlackSender
from chatbot.config import ConfigError, Settings, require_secret
from chatbot.messages import Language, say
from chatbot.models import Reply
from chatbot.ports import Clock, Destination, SendFailed
from chatbot.store.db import Database
from chatbot.subscriptions.workspaces import deactivate_workspace

log = logging.getLogger(__name__)
INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
PLATFORM = "slack"

_P = ParamSpec("_P")
_T = TypeVar("_T")
# The bot token of the workspace this thread works for (None outside a request or push).
_workspace_token: ContextVar[str | None] = ContextVar("slack_workspace_token", default=None)
# Slack tokens (bot, user, refresh, app-level): xoxb-…, xoxp-…, xoxe.xoxb-…, xoxe-…, xapp-…
_TOKEN = re.compile(r"\b(?:xox[a-z](?:\.xox[a-z])?|xapp)-[\w-]+")
# slack_sdk logs every response body at DEBUG, and oauth.v2.access answers with the new tokens.
SDK_LOGGER = "slack_sdk.web.base_client"


class WorkspaceClient(WebClient):
    """A WebClient whose token is the one of the workspace being served (`_workspace_token`), so that one
    client, with its retry handlers and pacing, serves every workspace."""

    @property  # type: ignore[override]
    def token(self) -> str | None:
        return _workspace_token.get()

    @token.setter
    def token(self, value: str | None) -> None:
        if value is not None:
            raise ValueError("a WorkspaceClient's token comes from the workspace it serves")


@contextmanager
def serving(token: str | None) -> Iterator[None]:
    """Calls through a WorkspaceClient inside the block use `token`."""
    reset = _workspace_token.set(token)
    try:
        yield
    finally:
        _workspace_token.reset(reset)


class ContextThreadPool(ThreadPoolExecutor):
    """A thread pool whose tasks run in a copy of the submitter's context: an answer queued while
    serving workspace B is posted with B's token."""

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        return super().submit(copy_context().run, fn, *args, **kwargs)  # type: ignore[arg-type]


class WorkspacePushSender(SlackPushSender):
    """The Monday push, posted with the bot token of the subscription's workspace."""

    def __init__(self, sender: SlackSender, store: EncryptedInstallationStore) -> None:
        super().__init__(sender)
        self.store = store

    def post(self, destination: Destination, reply: Reply, *, language: str, idempotency_key: str) -> str:
        token = self.store.bot_token(destination.workspace)
        if token is None:
            # Not (yet) installed there: a workspace moving from SLACK_BOT_TOKEN installs after the
            # switch, so its pushes wait and retry rather than being deactivated. An uninstall has
            # deactivated its subscriptions already (`app_uninstalled`).
            raise SendFailed(f"app_not_installed in workspace {destination.workspace or '(none)'}")
        with serving(token):
            return super().post(destination, reply, language=language, idempotency_key=idempotency_key)

    def find_sent(self, destination: Destination, idempotency_key: str) -> str | None:
        token = self.store.bot_token(destination.workspace)
        if token is None:
            return None
        with serving(token):
            return super().find_sent(destination, idempotency_key)


class RedactTokens(logging.Filter):
    """Replaces Slack tokens in a log record with `xox…(redacted)`; the record itself is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if _TOKEN.search(message):
            record.msg, record.args = _TOKEN.sub("xox…(redacted)", message), None
        return True


def redact_tokens_in_sdk_logs() -> None:
    """Keep tokens out of slack_sdk's DEBUG log of response bodies (once per process)."""
    logger = logging.getLogger(SDK_LOGGER)
    if not any(isinstance(f, RedactTokens) for f in logger.filters):
        logger.addFilter(RedactTokens())


class SlackInstalls:
    """The multi-workspace side of the Slack adapter: OAuth settings for bolt, the install routes,
    the per-workspace token of each request, and the uninstall listeners."""

    def __init__(self, settings: Settings, db: Database, clock: Clock) -> None:
        client_id = (settings.slack_client_id or "").strip()
        self.client_secret = require_secret(
            settings.slack_client_secret, "SLACK_CLIENT_SECRET", "the Slack app's client secret"
        )
        if not settings.slack_scope_list:
            raise ConfigError("SLACK_SCOPES is empty: list the bot scopes the app asks for")
        self.store = EncryptedInstallationStore(client_id, db.engine, token_cipher(settings))
        self.settings, self.db, self.clock = settings, db, clock
        self.language: Language = settings.language
        public = (settings.public_url or "").rstrip("/")
        self.install_url = public + INSTALL_PATH
        self.oauth_settings = OAuthSettings(
            client_id=client_id,
            client_secret=self.client_secret,
            scopes=settings.slack_scope_list,
            redirect_uri=public + REDIRECT_PATH if public else None,
            install_path=INSTALL_PATH,
            install_page_rendering_enabled=False,  # straight to Slack's consent page
            redirect_uri_path=REDIRECT_PATH,
            callback_options=CallbackOptions(success=self._installed, failure=self._failed),
            installation_store=self.store,
            installation_store_bot_only=True,
            state_store=state_store(db.engine),
        )
        # bolt's authorize, remembering what auth.test said of each token: a request costs one indexed
        # read of the store instead of a read and a Web API call. An uninstalled workspace's row is gone,
        # so a remembered token is never used again.
        self.authorize = InstallationStoreAuthorize(
            logger=log,
            installation_store=self.store,
            client_id=client_id,
            client_secret=self.client_secret,
            bot_only=True,
            cache_enabled=True,
        )
        self._revocations = TokenRevocationListeners(self.store)
        redact_tokens_in_sdk_logs()

    # bolt ------------------------------------------------------------------------------------------

    def register(self, bolt: App) -> None:
        bolt.use(serving_workspace)
        bolt.event("app_uninstalled")(self.on_app_uninstalled)
        bolt.event("tokens_revoked")(self.on_tokens_revoked)

    def on_app_uninstalled(self, context: BoltContext) -> None:
        self._revocations.handle_app_uninstalled_events(context)
        self._stop_pushes(context, "app_uninstalled")

    def on_tokens_revoked(self, event: dict[str, Any], context: BoltContext) -> None:
        self._revocations.handle_tokens_revoked_events(event, context)
        if (event.get("tokens") or {}).get("bot"):
            self._stop_pushes(context, "tokens_revoked")

    def _stop_pushes(self, context: BoltContext, reason: str) -> None:
        if context.team_id:
            deactivate_workspace(self.db, PLATFORM, context.team_id, reason, self.clock.now())
        log.info("slack: workspace %s removed the app (%s)", context.team_id, reason)

    # The install routes --------------------------------------------------------------------------------

    def mount(self, app: Flask, bolt: App) -> None:
        flow = bolt.oauth_flow
        if flow is None:
            raise ConfigError("the Slack app was built without OAuth settings")

        def bolt_request() -> BoltRequest:
            return BoltRequest(
                body="",
                query=request.query_string.decode("utf-8", "replace"),
                headers=request.headers,  # type: ignore[arg-type]
            )

        def install() -> Response:
            return to_flask_response(flow.handle_installation(bolt_request()))

        def redirect() -> Response:
            return to_flask_response(flow.handle_callback(bolt_request()))

        app.add_url_rule(INSTALL_PATH, "slack_install", install, methods=["GET"])
        app.add_url_rule(REDIRECT_PATH, "slack_oauth_redirect", redirect, methods=["GET"])

    def _installed(self, args: SuccessArgs) -> BoltResponse:
        installation = args.installation
        log.info("slack: installed in workspace %s", installation.team_id)
        team = installation.team_name or installation.team_id or ""
        return _page(200, say("slack.install.done", self.language, team=team))

    def _failed(self, args: FailureArgs) -> BoltResponse:
        # `reason` is bolt's code (invalid_state, invalid_browser, access_denied…); never a secret.
        log.warning("slack: an installation did not complete: %s", args.reason)
        text = say("slack.install.failed", self.language, reason=args.reason, url=self.install_url)
        return _page(args.suggested_status_code, text)

    def push_sender(self, sender: SlackSender) -> WorkspacePushSender:
        return WorkspacePushSender(sender, self.store)


def serving_workspace(context: BoltContext, next: Callable[[], BoltResponse]) -> BoltResponse:
    """bolt middleware: the request's workspace token (bolt's `authorize` found it) for what follows.
    bolt runs the listeners after the middleware chain, on the same thread, so the token is set rather
    than scoped; every request passes here first, so none sees another's token."""
    _workspace_token.set(context.bot_token)
    return next()


def _page(status: int, text: str) -> BoltResponse:
    body = f'<!doctype html><meta charset="utf-8"><title>prhub</title><p>{html.escape(text)}</p>'
    return BoltResponse(status=status, body=body, headers={"Content-Type": "text/html; charset=utf-8"})
