"""A fake Slack: the Web API methods prhub calls (`POST /api/<method>`), the `response_url` of slash
commands and interactions (`POST /response/<id>`), and a loopback Socket Mode server.

The Web API checks the bearer token (bot token, or the app-level token for `apps.connections.open`),
parses JSON and form bodies alike (`chat.postMessage` and `chat.unfurl` are sent as JSON, the rest as
forms), records every call, and has switches for the failures prhub must survive: 429 with
`Retry-After`, `invalid_auth`, `channel_not_found`, 5xx. Tests wait for what they expect with
`wait_for`, on a condition variable: never a sleep.
"""

from __future__ import annotations

import base64
import itertools
import json
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qs, urlencode

from slack_sdk.signature import SignatureVerifier
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

from tests.fakes.http import FakeService, Request, Response

BOT_TOKEN = "xoxb-test-bot-token"
APP_TOKEN = "xapp-test-app-token"
SIGNING_SECRET = "test-signing-secret"
WAIT = 60.0  # seconds a test waits for calls that take milliseconds on a quiet machine: only a failure
# waits that long, and two test workers beside other work on 2 cores once took over 5 s
TEAM_ID = "T1"
BOT_USER_ID = "UBOT"
BOT_ID = "B1"
CLIENT_ID = "1111.2222"  # the app's OAuth credentials ("Add to Slack")
CLIENT_SECRET = "test-client-secret"

_API = re.compile(r"^/api/(?P<method>[\w.]+)$")
_RESPONSE = re.compile(r"^/response/(?P<id>[\w-]+)$")


@dataclass(frozen=True)
class SlackCall:
    """One Web API call (or `response_url` post, method `response_url`) and how the fake answered."""

    method: str
    params: dict[str, Any]
    status: int
    error: str | None = None
    path: str = ""
    answer: Any = None
    token: str = ""  # the bearer token the call carried  # the JSON the fake answered with (a posted message's `ts` is in it)
    at: float = field(default_factory=time.time)  # when the fake received it (the benchmark's clock)

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.error is None


@dataclass
class _Fault:
    method: str
    remaining: int
    make: Callable[[], Response]
    skip: int = 0  # calls of `method` let through before this fault applies


# Native surfaces: messages updated in place (and, below, the assistant, streaming, App Home) ----------


@dataclass(frozen=True)
class Shown:
    """A message as the channel shows it: posted, then updated in place (`updates` times)."""

    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    thread_ts: str | None
    updates: int
    metadata: dict[str, Any] | None = None
    streaming: bool = False  # started with chat.startStream and not stopped yet
    appends: int = 0  # chat.appendStream calls it received


# Slack's tiers for the streaming methods, per workspace: (calls, seconds).
STREAM_LIMITS = {
    "chat.startStream": (20, 60.0),  # Tier 2
    "chat.stopStream": (20, 60.0),  # Tier 2
    "chat.appendStream": (100, 60.0),  # Tier 4
}


def _stream_text(params: dict[str, Any]) -> str:
    """The text a streaming call adds: `markdown_text`, or its markdown_text chunks."""
    chunks = params.get("chunks") or []
    if isinstance(chunks, str):
        chunks = json.loads(chunks)
    text = "".join(str(c.get("text", "")) for c in chunks if c.get("type") == "markdown_text")
    return str(params.get("markdown_text") or "") + text


class _NativeSlack:
    """The Web API methods of the native surfaces, mixed into FakeSlack. Each checks the arguments Slack
    requires and answers Slack's error for a missing one."""

    _changed: threading.Condition
    _ts: Iterator[int]
    called: Callable[..., list[SlackCall]]

    def __init__(self) -> None:
        super().__init__()
        self.locales: dict[str, str] = {}  # users.info `locale` per user (default zh-CN)
        self.memberships: dict[str, list[str]] = {}  # users.conversations: the channels of each user
        self.channels_readable = True  # False: users.conversations answers missing_scope
        # Chat streaming: None where the workspace has it; else the error chat.startStream answers.
        self.streaming_unavailable: str | None = None
        self.clock: Callable[[], float] = time.monotonic  # what the streaming tiers are counted on
        self._stream_calls: dict[tuple[str, str], list[float]] = {}

    def shown(self, channel: str | None = None) -> list[Shown]:
        """The messages the bot posted, in order, with their updates applied and deleted ones gone."""
        with self._changed:
            calls = [c for c in self.called(ok=True) if channel is None or _channel(c) == channel]
        messages: dict[str, Shown] = {}
        for call in calls:
            p = call.params
            if call.method == "chat.postMessage":
                ts = str((call.answer or {}).get("ts"))
                messages[ts] = Shown(
                    p["channel"],
                    ts,
                    p.get("text", ""),
                    p.get("blocks") or [],
                    p.get("thread_ts"),
                    0,
                    p.get("metadata"),
                )
            elif call.method == "chat.startStream":
                ts = str((call.answer or {}).get("ts"))
                messages[ts] = Shown(
                    p["channel"], ts, _stream_text(p), [], p.get("thread_ts"), 0, streaming=True
                )
            elif call.method in ("chat.appendStream", "chat.stopStream") and p["ts"] in messages:
                old = messages[p["ts"]]
                messages[p["ts"]] = replace(
                    old,
                    text=old.text + _stream_text(p),
                    blocks=old.blocks + list(p.get("blocks") or []),
                    streaming=call.method == "chat.appendStream",
                    appends=old.appends + (call.method == "chat.appendStream"),
                )
            elif call.method == "chat.update" and p["ts"] in messages:
                old = messages[p["ts"]]
                messages[p["ts"]] = replace(
                    old,
                    text=p.get("text", ""),
                    blocks=p.get("blocks") or [],
                    updates=old.updates + 1,
                    metadata=p.get("metadata") or old.metadata,
                )
            elif call.method == "chat.delete":
                messages.pop(p["ts"], None)
        return list(messages.values())

    def stream_limited(self, method: str, token: str) -> Response | None:
        """HTTP 429 when a streaming call is over its tier in the token's workspace, counted on `clock`."""
        if method not in STREAM_LIMITS:
            return None
        limit, period = STREAM_LIMITS[method]
        now = self.clock()
        with self._changed:
            calls = [t for t in self._stream_calls.get((token, method), []) if t > now - period]
            if len(calls) >= limit:
                return Response(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "1"})
            self._stream_calls[(token, method)] = [*calls, now]
        return None

    def _answer_stream(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """chat.startStream / appendStream / stopStream, in that order: a stream starts as a reply in a
        thread (to a recipient, in channels), takes appends until it is stopped, and nothing after."""
        if not params.get("channel"):
            return {"ok": False, "error": "invalid_arguments"}
        if method == "chat.startStream":
            if self.streaming_unavailable is not None:
                return {"ok": False, "error": self.streaming_unavailable}
            if not params.get("thread_ts"):
                return {"ok": False, "error": "invalid_arguments"}
            in_channel = not str(params["channel"]).startswith("D")
            if in_channel and not (params.get("recipient_user_id") and params.get("recipient_team_id")):
                return {"ok": False, "error": "invalid_arguments"}
            ts = f"1750000000.{next(self._ts):06d}"
            return {"ok": True, "channel": params["channel"], "ts": ts}
        stream = next((s for s in self.shown(params["channel"]) if s.ts == params.get("ts")), None)
        if stream is None:
            return {"ok": False, "error": "message_not_found"}
        if not stream.streaming:
            return {"ok": False, "error": "message_not_in_streaming_state"}
        if method == "chat.appendStream" and not _stream_text(params):
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True, "channel": params["channel"], "ts": stream.ts}

    def _answer_native(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        if method in STREAM_LIMITS:
            return self._answer_stream(method, params)
        if method == "chat.update":
            if not (params.get("channel") and params.get("ts")):
                return {"ok": False, "error": "invalid_arguments"}
            if not (params.get("text") or params.get("blocks")):
                return {"ok": False, "error": "no_text"}
            shown = next((s for s in self.shown(params["channel"]) if s.ts == params["ts"]), None)
            if shown is None:
                return {"ok": False, "error": "message_not_found"}
            if shown.streaming:  # a streamed message is updated once it is stopped
                return {"ok": False, "error": "cant_update_message"}
            return {"ok": True, "channel": params["channel"], "ts": params["ts"], "text": params.get("text")}
        if method == "users.info" and params.get("user") in self.locales:
            user = {"id": params["user"], "name": "someone", "locale": self.locales[params["user"]]}
            return {"ok": True, "user": user}
        if method == "users.conversations":
            if not self.channels_readable:
                return {"ok": False, "error": "missing_scope", "needed": "channels:read,groups:read"}
            ids = self.memberships.get(str(params.get("user")), [])
            return {
                "ok": True,
                "channels": [{"id": c} for c in ids],
                "response_metadata": {"next_cursor": ""},
            }
        if method in ("views.publish", "views.open"):
            return _view_call(method, params)
        if method.startswith("assistant.threads."):
            return _assistant_thread_call(method, params)
        if method == "conversations.replies":
            # the bot's messages in the thread, with their metadata (bolt's thread context store reads it)
            thread = [s for s in self.shown(params.get("channel")) if params.get("ts") in (s.thread_ts, s.ts)]
            messages = [
                {"type": "message", "user": BOT_USER_ID, "bot_id": BOT_ID, "ts": s.ts, "text": s.text}
                | {"blocks": s.blocks, "thread_ts": s.thread_ts}
                | ({"metadata": s.metadata} if s.metadata and params.get("include_all_metadata") else {})
                for s in thread
            ]
            return {"ok": True, "messages": messages[: int(params.get("limit") or 1000)], "has_more": False}
        if method == "chat.delete":
            if params.get("ts") not in {s.ts for s in self.shown(params.get("channel"))}:
                return {"ok": False, "error": "message_not_found"}
            return {"ok": True, "channel": params["channel"], "ts": params["ts"]}
        return None


# "Add to Slack": workspaces that installed the app, each with a bot token of its own ---------------------


@dataclass(frozen=True)
class Workspace:
    """A workspace the app is installed in: `token` is the bot token oauth.v2.access handed out."""

    team_id: str
    name: str
    token: str


class _OAuthSlack:
    """oauth.v2.access and per-workspace bot tokens, mixed into FakeSlack. `consent(team)` is a user
    approving the install in that workspace: it returns the code Slack puts on the redirect."""

    def __init__(self) -> None:
        super().__init__()
        self.client_id, self.client_secret = CLIENT_ID, CLIENT_SECRET
        self.workspaces: dict[str, Workspace] = {}  # by bot token
        self._codes: dict[str, tuple[str, str]] = {}  # code -> (team id, team name), single use
        self._installs = itertools.count(1)

    def consent(self, team_id: str, name: str = "") -> str:
        code = f"code-{team_id}-{next(self._installs)}"
        self._codes[code] = (team_id, name or team_id)
        return code

    def token_of(self, team_id: str) -> str:
        return next(w.token for w in self.workspaces.values() if w.team_id == team_id)

    def uninstall(self, team_id: str) -> None:
        """The workspace removed the app: its token is refused from now on."""
        self.workspaces = {t: w for t, w in self.workspaces.items() if w.team_id != team_id}

    def _oauth_access(self, request: Request, params: dict[str, Any]) -> dict[str, Any]:
        """oauth.v2.access: the app's credentials (HTTP Basic, or client_id/client_secret fields) and a
        code not used before; answers like Slack for a bot install."""
        basic = request.headers.get("authorization", "").removeprefix("Basic ")
        given = (
            base64.b64decode(basic).decode()
            if basic
            else f"{params.get('client_id')}:{params.get('client_secret')}"
        )
        if given != f"{self.client_id}:{self.client_secret}":
            return {"ok": False, "error": "invalid_client_id"}
        if params.get("code") not in self._codes:
            return {"ok": False, "error": "invalid_code"}
        team_id, name = self._codes.pop(params["code"])
        token = f"xoxb-{team_id.lower()}-{next(self._installs)}-secret"
        self.workspaces[token] = Workspace(team_id, name, token)
        return {
            "ok": True,
            "app_id": "A1",
            "authed_user": {"id": "U1"},
            "scope": "app_mentions:read,chat:write,commands",
            "token_type": "bot",
            "access_token": token,
            "bot_user_id": BOT_USER_ID,
            "team": {"id": team_id, "name": name},
            "enterprise": None,
            "is_enterprise_install": False,
        }

    def _auth_test_of(self, workspace: Workspace) -> dict[str, Any]:
        return {
            "ok": True,
            "url": f"https://{workspace.team_id.lower()}.slack.com/",
            "team": workspace.name,
            "team_id": workspace.team_id,
            "user": "prhub",
            "user_id": BOT_USER_ID,
            "bot_id": BOT_ID,
        }


def _view_call(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """views.publish (a Home tab for `user_id`) and views.open (a modal for a `trigger_id`), checked
    against Block Kit's limits: at most 100 blocks, a modal title of at most 24 characters, a submit
    button when the modal has inputs."""
    view = params.get("view")
    if isinstance(view, str):
        view = json.loads(view)
    if not isinstance(view, dict) or not isinstance(view.get("blocks"), list) or len(view["blocks"]) > 100:
        return {"ok": False, "error": "invalid_arguments"}
    if not all(isinstance(b, dict) and b.get("type") for b in view["blocks"]):
        return {"ok": False, "error": "invalid_blocks"}
    if method == "views.publish":
        ok = bool(params.get("user_id")) and view.get("type") == "home"
    else:
        title = (view.get("title") or {}).get("text") or ""
        inputs = any(b["type"] == "input" for b in view["blocks"])
        ok = (
            bool(params.get("trigger_id"))
            and view.get("type") == "modal"
            and 0 < len(title) <= 24
            and (view.get("submit") is not None or not inputs)
        )
    return {"ok": True, "view": {"id": "V1", **view}} if ok else {"ok": False, "error": "invalid_arguments"}


def _assistant_thread_call(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """assistant.threads.setStatus / setTitle / setSuggestedPrompts, checked as Slack documents them:
    a channel and thread, a status (empty clears it), a title, one to four prompts of title and message."""
    if not params.get("channel_id"):
        return {"ok": False, "error": "invalid_arguments"}
    if method == "assistant.threads.setStatus":
        ok = params.get("thread_ts") and isinstance(params.get("status"), str)
    elif method == "assistant.threads.setTitle":
        ok = params.get("thread_ts") and params.get("title")
    elif method == "assistant.threads.setSuggestedPrompts":
        prompts = params.get("prompts")
        ok = (
            isinstance(prompts, list)
            and 1 <= len(prompts) <= 4
            and all(isinstance(p, dict) and p.get("title") and p.get("message") for p in prompts)
        )
    else:
        return {"ok": False, "error": "unknown_method"}
    return {"ok": True} if ok else {"ok": False, "error": "invalid_arguments"}


def _channel(call: SlackCall) -> str | None:
    return call.params.get("channel") or call.params.get("channel_id")


class FakeSlack(_OAuthSlack, _NativeSlack, FakeService):
    """`api_url` is what `WebClient(base_url=...)` needs; `slack_calls` what the fake received."""

    def __init__(self, bot_token: str = BOT_TOKEN, app_token: str = APP_TOKEN) -> None:
        super().__init__()
        self.bot_token, self.app_token = bot_token, app_token
        self.socket_url: str | None = None  # what apps.connections.open hands out
        self.slack_calls: list[SlackCall] = []
        self._faults: list[_Fault] = []
        self._ts = itertools.count(1)
        self._changed = threading.Condition()

    @property
    def api_url(self) -> str:
        return f"{self.url}/api/"

    def response_url(self, name: str) -> str:
        return f"{self.url}/response/{name}"

    # Switches ----------------------------------------------------------------------------------------

    def rate_limit(self, method: str, retry_after: int = 0, times: int = 1) -> None:
        """The next `times` calls of `method` get 429 with `Retry-After: retry_after`."""
        self._inject(
            method,
            times,
            lambda: Response(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": str(retry_after)}),
        )

    def fail(self, method: str, error: str, times: int = 1, *, after: int = 0) -> None:
        """The next `times` calls of `method` after the next `after` ones get `{"ok": false, "error":
        error}` (HTTP 200, as Slack answers `channel_not_found`, `invalid_blocks`, `not_in_channel`…)."""
        self._inject(method, times, lambda: Response(200, {"ok": False, "error": error}), after)

    def server_error(self, method: str, status: int = 500, times: int = 1, *, after: int = 0) -> None:
        self._inject(method, times, lambda: Response(status, b"internal error"), after)

    def revoke(self) -> None:
        """From now on every token is refused with `invalid_auth`."""
        self.bot_token = self.app_token = "revoked"

    def _inject(self, method: str, times: int, make: Callable[[], Response], after: int = 0) -> None:
        with self._changed:
            self._faults.append(_Fault(method, times, make, after))

    # Reading what happened ---------------------------------------------------------------------------

    def called(self, method: str | None = None, *, ok: bool | None = None) -> list[SlackCall]:
        with self._changed:
            return [
                c
                for c in self.slack_calls
                if (method is None or c.method == method) and (ok is None or c.ok == ok)
            ]

    def posted(self, method: str = "chat.postMessage") -> list[dict[str, Any]]:
        """The parameters of the successful calls of `method`, in order."""
        return [c.params for c in self.called(method, ok=True)]

    def wait_for(
        self, method: str, count: int = 1, *, ok: bool | None = True, timeout: float = WAIT
    ) -> list[SlackCall]:
        """The calls of `method` once there are at least `count`; AssertionError after `timeout` (generous:
        a passing wait returns as soon as the calls are there, and a loaded CI box answers slowly)."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.called(method, ok=ok)) >= count, timeout):
                raise AssertionError(
                    f"expected {count} {method} call(s) within {timeout} s; got "
                    f"{[(c.method, c.status, c.error) for c in self.slack_calls]}"
                )
            return self.called(method, ok=ok)

    def reset(self) -> None:
        with self._changed:
            self.slack_calls.clear()
            self._faults.clear()
        self.reset_calls()

    # Serving -----------------------------------------------------------------------------------------

    def handle(self, request: Request) -> Response:
        params = _params(request)
        if match := _RESPONSE.match(request.path):
            return self._record("response_url", params, Response(200, "ok"), request.path)
        match = _API.match(request.path)
        if match is None or request.method != "POST":
            return Response(404, b"not found")
        method = match["method"]
        with self._changed:
            fault = next((f for f in self._faults if f.method == method and f.remaining > 0), None)
            if fault is not None and fault.skip > 0:
                fault.skip, fault = fault.skip - 1, None
            elif fault is not None:
                fault.remaining -= 1
        if fault is not None:
            return self._record(method, params, fault.make(), request.path)
        if method == "oauth.v2.access":
            return self._record(
                method, params, Response(200, self._oauth_access(request, params)), request.path
            )
        expected = self.app_token if method == "apps.connections.open" else self.bot_token
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        workspace = self.workspaces.get(token)
        if token != expected and workspace is None:
            return self._record(
                method, params, Response(200, {"ok": False, "error": "invalid_auth"}), token=token
            )
        limited = self.stream_limited(method, token)
        if limited is not None:
            return self._record(method, params, limited, request.path, token=token)
        answer = self._auth_test_of(workspace) if workspace and method == "auth.test" else None
        response = Response(200, answer or self._answer(method, params))
        return self._record(method, params, response, request.path, token=token)

    def _answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        native = self._answer_native(method, params)
        if native is not None:
            return native
        if method == "auth.test":
            return {
                "ok": True,
                "url": "https://acme.slack.com/",
                "team": "Acme",
                "team_id": TEAM_ID,
                "user": "prhub",
                "user_id": BOT_USER_ID,
                "bot_id": BOT_ID,
            }
        if method == "chat.postMessage":
            ts = f"1750000000.{next(self._ts):06d}"
            return {"ok": True, "channel": params.get("channel"), "ts": ts, "message": {"ts": ts}}
        if method == "conversations.history":
            channel = params.get("channel")
            posts = [
                c for c in self.called("chat.postMessage", ok=True) if c.params.get("channel") == channel
            ]
            messages = [
                {
                    "type": "message",
                    "ts": (c.answer or {}).get("ts"),
                    "text": c.params.get("text"),
                    **({"metadata": c.params["metadata"]} if c.params.get("metadata") else {}),
                }
                for c in reversed(posts)
            ]
            return {"ok": True, "messages": messages[: int(params.get("limit") or 100)], "has_more": False}
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": f"1750000000.{next(self._ts):06d}"}
        if method == "chat.unfurl":
            return {"ok": True}
        if method == "views.open":
            return {"ok": True, "view": {"id": f"V{next(self._ts)}", **_json_field(params.get("view"))}}
        if method == "conversations.info":
            channel = str(params.get("channel", ""))
            return {
                "ok": True,
                "channel": {"id": channel, "is_im": channel.startswith("D"), "name": "general"},
            }
        if method == "users.info":
            return {"ok": True, "user": {"id": params.get("user"), "name": "alice", "locale": "zh-CN"}}
        if method == "apps.connections.open":
            if self.socket_url is None:
                return {"ok": False, "error": "socket_mode_not_enabled"}
            return {"ok": True, "url": self.socket_url}
        return {"ok": False, "error": "unknown_method"}

    def _record(
        self, method: str, params: dict[str, Any], response: Response, path: str = "", *, token: str = ""
    ) -> Response:
        error = response.body.get("error") if isinstance(response.body, dict) else None
        if response.status != 200 and error is None:
            error = f"http_{response.status}"
        with self._changed:
            self.slack_calls.append(
                SlackCall(method, params, response.status, error, path, response.body, token=token)
            )
            self._changed.notify_all()
        return response


def _params(request: Request) -> dict[str, Any]:
    """JSON or form body, plus query parameters (where `apps.connections.open` puts its arguments)."""
    params: dict[str, Any] = dict(request.query)
    if not request.body:
        return params
    if request.headers.get("content-type", "").startswith("application/json"):
        params.update(json.loads(request.body))
    else:
        params.update({k: v[-1] for k, v in parse_qs(request.body.decode("utf-8")).items()})
    for name in ("blocks", "unfurls", "attachments"):  # form-encoded calls send these as JSON strings
        if isinstance(params.get(name), str):
            params[name] = json.loads(params[name])
    return params


class FakeSocketMode:
    """A loopback Socket Mode endpoint (plain `ws://`; slack_sdk skips TLS on ports other than 443).

    `push(envelope)` sends an envelope to the connected client; `acks` receives what the client sends
    back (`{"envelope_id": ..., "payload": ...}`)."""

    def __init__(self) -> None:
        self.acks: queue.Queue[dict[str, Any]] = queue.Queue()
        self._connected = threading.Event()
        self._connection: ServerConnection | None = None
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "the fake is not started"
        host, port = self._server.socket.getsockname()[:2]
        return f"ws://{host}:{port}/link"

    def start(self) -> FakeSocketMode:
        self._server = serve(self._serve, "127.0.0.1", 0)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def _serve(self, connection: ServerConnection) -> None:
        self._connection = connection
        connection.send(json.dumps({"type": "hello", "num_connections": 1}))
        self._connected.set()
        try:
            for message in connection:
                self.acks.put(json.loads(message))
        except ConnectionClosed:
            pass

    def wait_connected(self, timeout: float = WAIT) -> None:
        if not self._connected.wait(timeout):
            raise AssertionError(f"no Socket Mode client connected within {timeout} s")

    def push(self, envelope: dict[str, Any]) -> None:
        assert self._connection is not None, "no client is connected"
        self._connection.send(json.dumps(envelope))

    def stop(self) -> None:
        if self._connection is not None:
            self._connection.close()  # unblocks the client's read, so its own close() returns at once
        if self._server is not None:
            self._server.shutdown()
            self._server = None

    def __enter__(self) -> FakeSocketMode:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# What Slack sends to the app ------------------------------------------------------------------------


def signed(body: str, secret: str = SIGNING_SECRET, *, age: float = 0.0, content_type: str) -> dict[str, str]:
    """Headers of a request Slack signed `age` seconds ago (v0 HMAC-SHA256 of `v0:{ts}:{body}`)."""
    timestamp = str(int(time.time() - age))
    signature = SignatureVerifier(secret).generate_signature(timestamp=timestamp, body=body)
    assert signature is not None
    return {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": timestamp,
        "X-Slack-Signature": signature,
    }


def event_body(event: Mapping[str, Any], event_id: str = "Ev1") -> str:
    """An Events API envelope around `event`, serialised as Slack posts it."""
    return json.dumps(
        {
            "token": "unused",
            "team_id": TEAM_ID,
            "api_app_id": "A1",
            "event": dict(event),
            "type": "event_callback",
            "event_id": event_id,
            "event_time": 1750000000,
        }
    )


def mention(
    text: str, *, channel: str = "C1", ts: str = "1750000000.000001", user: str = "U1"
) -> dict[str, Any]:
    return {
        "type": "app_mention",
        "user": user,
        "text": f"<@{BOT_USER_ID}> {text}",
        "ts": ts,
        "channel": channel,
        "event_ts": ts,
    }


def direct_message(text: str, *, channel: str = "D1", ts: str = "1750000000.000002") -> dict[str, Any]:
    return {
        "type": "message",
        "channel_type": "im",
        "user": "U1",
        "text": text,
        "ts": ts,
        "channel": channel,
        "event_ts": ts,
    }


def command_body(text: str, response_url: str, *, channel: str = "C1", trigger_id: str = "trigger-1") -> str:
    return urlencode(
        {
            "command": "/prhub",
            "text": text,
            "team_id": TEAM_ID,
            "channel_id": channel,
            "channel_name": "general",
            "user_id": "U1",
            "user_name": "alice",
            "response_url": response_url,
            "trigger_id": trigger_id,
        }
    )


def interaction_body(payload: Mapping[str, Any]) -> str:
    """Interactivity requests are a form with one field, `payload`, holding the JSON."""
    return urlencode({"payload": json.dumps(payload)})


def assistant_thread(
    kind: str,
    *,
    context_channel: str | None = "C9",
    channel: str = "D1",
    thread_ts: str = "1750000100.000001",
) -> dict[str, Any]:
    """An `assistant_thread_started` or `assistant_thread_context_changed` event: the panel opened (or
    moved) beside `context_channel`."""
    return {
        "type": f"assistant_thread_{kind}",
        "assistant_thread": {
            "user_id": "U1",
            "context": {"channel_id": context_channel, "team_id": TEAM_ID, "enterprise_id": None}
            if context_channel
            else {},
            "channel_id": channel,
            "thread_ts": thread_ts,
        },
        "event_ts": "1750000100.000002",
    }


def panel_message(
    text: str, *, ts: str, channel: str = "D1", thread_ts: str = "1750000100.000001"
) -> dict[str, Any]:
    """A question typed in an assistant panel thread (a DM message with `thread_ts`)."""
    return direct_message(text, channel=channel, ts=ts) | {"thread_ts": thread_ts}


def home_opened(user: str = "U1") -> dict[str, Any]:
    """An `app_home_opened` event for the Home tab."""
    return {
        "type": "app_home_opened",
        "user": user,
        "channel": "D1",
        "tab": "home",
        "event_ts": "1750000200.1",
    }


def _json_field(value: Any) -> dict[str, Any]:
    """A JSON-encoded argument (slack_sdk sends `view` as a JSON string in form posts) as a dict."""
    if isinstance(value, str):
        return dict(json.loads(value))
    return dict(value or {})
