"""A fake Feishu: the Open API (tenant token, bot info, im/v1 message create, reply and patch, the long
connection's endpoint) on 127.0.0.1, a loopback long-connection server speaking lark's pbbp2 frames,
and the platform's side of HTTP event delivery (encrypted, signed pushes).

Sends are recorded in `sent`, once per `uuid` as Feishu itself does. Switches queue faults for the next
sends: a rate limit (HTTP 429, code 99991400, `x-ogw-ratelimit-reset`), a refusal with any code, a 5xx
with a non-JSON body; `revoke_tokens()` makes every issued token invalid (code 99991663).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import itertools
import json
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import requests
from Crypto.Cipher import AES
from lark_oapi.ws.pb.pbbp2_pb2 import Frame
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from tests.fakes.http import FakeService, Request, Response

BOT_OPEN_ID = "ou_prhub_bot"
WAIT = 60.0  # seconds a test waits for something that takes milliseconds: only a failure waits that long,
# and two test workers beside other work on 2 cores once took over 5 s
_MESSAGE = re.compile(r"^/open-apis/im/v1/messages/(?P<id>[^/]+)(?P<reply>/reply)?$")


@dataclass
class Sent:
    """A message the bot got through: `target` is the chat (create) or the message replied to or patched;
    `at` is when it arrived (`time.monotonic()`, comparable across processes on one machine)."""

    kind: str
    message_id: str
    target: str
    msg_type: str
    content: Any
    reply_in_thread: bool = False
    uuid: str | None = None
    at: float = field(default_factory=time.monotonic)
    to_user: str | None = None  # a per-user card's reader (kind "private")


@dataclass
class _Fault:
    remaining: int
    make: Callable[[], Response]
    skip: int = 0  # sends let through before this fault applies


# Native surfaces: cards updated in place, per-user cards, recalls -------------------------------------
# (Each request is checked against the documented shape; a wrong one gets Feishu's 400 with code 230001.)


def _shown(sent: list[Sent], cards: dict[str, CardEntity] | None = None) -> list[Sent]:
    """What the chat shows: every message sent and not recalled, with the content of its last patch; a
    message sent as a card entity (`{"type": "card", "data": {"card_id": …}}`) shows the entity now."""
    recalled = {s.target for s in sent if s.kind == "recall"}
    latest = {s.target: s.content for s in sent if s.kind == "patch"}

    def content(s: Sent) -> Any:
        shown = latest.get(s.message_id, s.content)
        if isinstance(shown, dict) and shown.get("type") == "card" and cards is not None:
            entity = cards.get(str((shown.get("data") or {}).get("card_id")))
            return entity.card if entity is not None else shown
        return shown

    return [
        replace(s, content=content(s))
        for s in sent
        if s.kind in ("create", "reply", "private") and s.message_id not in recalled
    ]


# CardKit: card entities, streamed into and updated with a strictly increasing `sequence` -------------

_CARDS = re.compile(
    r"^/open-apis/cardkit/v1/cards(?:/(?P<id>[^/]+)(?P<rest>/settings|/elements/(?P<element>[^/]+)/content)?)?$"
)
CARD_UPDATES_PER_SECOND = 10  # per card entity
MISSING_SCOPE = 99991672


@dataclass
class CardEntity:
    """A card entity: its card JSON now, the last sequence accepted, and every operation on it as
    (kind, sequence, at, payload), `at` on the fake's clock."""

    card: dict[str, Any]
    sequence: int = 0
    operations: list[tuple[str, int, float, Any]] = field(default_factory=list)

    @property
    def streaming(self) -> bool:
        return bool(self.card.get("config", {}).get("streaming_mode"))


def _elements(card: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for element in card.get("body", {}).get("elements", []):
        found.append(element)
        found += _elements({"body": {"elements": element.get("elements", [])}})
    return found


class _CardKitFeishu:
    """The cardkit v1 routes, mixed into FakeFeishu, checked as the API reference says: `cardkit:card:write`
    granted, card JSON 2.0 with `update_multi`, a `sequence` strictly greater than the card's last,
    text streamed only while the card is in streaming mode, at most CARD_UPDATES_PER_SECOND operations a
    second on one card (HTTP 429, code 99991400, as the gateway answers a frequency limit)."""

    _changed: threading.Condition
    _ids: Iterator[int]
    _json: Callable[..., Response]

    def __init__(self) -> None:
        super().__init__()
        self.cards: dict[str, CardEntity] = {}
        self.cardkit_granted = True  # False: the app lacks cardkit:card:write
        self.clock: Callable[[], float] = time.monotonic  # what the per-card rate is counted on

    def _handle_cardkit(self, request: Request) -> Response | None:
        match = _CARDS.match(request.path)
        if match is None:
            return None
        if not self.cardkit_granted:
            return self._json(
                400,
                {
                    "code": MISSING_SCOPE,
                    "msg": "Access denied. One of the following scopes is required: [cardkit:card:write].",
                },
            )
        body = request.json() or {}
        with self._changed:
            if match["id"] is None and request.method == "POST":
                return self._create_card(body)
            entity = self.cards.get(match["id"] or "")
            if entity is None:
                return self._json(400, {"code": 200740, "msg": "card entity not found"})
            kind = "content" if match["element"] else "settings" if match["rest"] else "update"
            refusal = self._refuse_operation(entity, body)
            if refusal is not None:
                return refusal
            if kind == "content":
                ids = {e.get("element_id") for e in _elements(entity.card)}
                if match["element"] not in ids:
                    return self._json(400, {"code": 300313, "msg": f"not find elementID: {match['element']}"})
                if not entity.streaming:
                    return self._json(400, {"code": 300309, "msg": "streaming mode is closed"})
                for element in _elements(entity.card):
                    if element.get("element_id") == match["element"]:
                        element["content"] = body.get("content", "")
            elif kind == "settings":
                settings = json.loads(body.get("settings") or "{}")
                entity.card.setdefault("config", {}).update(settings.get("config", {}))
            else:
                card = json.loads((body.get("card") or {}).get("data") or "{}")
                problem = _card_problem(card)
                if problem:
                    return self._json(400, {"code": 200220, "msg": problem})
                entity.card = card
            entity.sequence = int(body["sequence"])
            entity.operations.append((kind, entity.sequence, self.clock(), body))
            self._changed.notify_all()
        return self._json(200, {"code": 0, "msg": "success", "data": {}})

    def _create_card(self, body: dict[str, Any]) -> Response:
        if body.get("type") != "card_json":
            return self._json(400, {"code": 10002, "msg": "type must be card_json"})
        card = json.loads(body.get("data") or "{}")
        problem = _card_problem(card)
        if problem:
            return self._json(400, {"code": 200220, "msg": problem})
        card_id = f"73553727661341{next(self._ids):05d}"
        self.cards[card_id] = CardEntity(card, operations=[("create", 0, self.clock(), body)])
        self._changed.notify_all()
        return self._json(200, {"code": 0, "msg": "success", "data": {"card_id": card_id}})

    def _refuse_operation(self, entity: CardEntity, body: dict[str, Any]) -> Response | None:
        now = self.clock()
        recent = [op for op in entity.operations if op[0] != "create" and op[2] > now - 1.0]
        if len(recent) >= CARD_UPDATES_PER_SECOND:
            body_ = {"code": 99991400, "msg": "request trigger frequency limit"}
            return self._json(429, body_, {"x-ogw-ratelimit-limit": "10", "x-ogw-ratelimit-reset": "1"})
        sequence = body.get("sequence")
        if not isinstance(sequence, int) or not 1 <= sequence <= 2_147_483_647 or sequence <= entity.sequence:
            return self._json(400, {"code": 300317, "msg": "sequence number compare failed"})
        return None

    def card_entity(self, card_id: str) -> CardEntity:
        with self._changed:
            return self.cards[card_id]

    def wait_card(self, condition: Callable[[dict[str, CardEntity]], bool], timeout: float = WAIT) -> None:
        """Wait until `condition` holds of the card entities; AssertionError after `timeout`."""
        with self._changed:
            if not self._changed.wait_for(lambda: condition(self.cards), timeout):
                raise AssertionError(f"the card entities never got there: {self.cards}")


def _card_problem(card: Any) -> str | None:
    """What the cardkit API refuses in a card entity's JSON."""
    if not isinstance(card, dict) or card.get("schema") != "2.0":
        return "only card JSON 2.0 (schema 2.0) is supported"
    if not card.get("config", {}).get("update_multi"):
        return "update_multi property is false"  # code 300302 in the reference; a refusal either way
    ids = [e["element_id"] for e in _elements(card) if "element_id" in e]
    return "element_id must be unique" if len(ids) != len(set(ids)) else None


_MEMBERS = re.compile(r"^/open-apis/im/v1/chats/(?P<chat>[^/]+)/members$")


def _form_problem(card: dict[str, Any]) -> str | None:
    """What Feishu would refuse in a card's forms: a form not at the root of the body, a form without a
    submit button, an interactive component without a name or with one used twice."""
    names: list[str] = []
    for element in card.get("body", {}).get("elements", []):
        if element.get("tag") != "form":
            if "form" in json.dumps(element.get("elements", [])):
                return "a form must be at the root of the card"
            continue
        children = element.get("elements", [])
        if not any(c.get("tag") == "button" and c.get("form_action_type") == "submit" for c in children):
            return "a form needs a submit button"
        for child in children:
            if child.get("tag") in ("input", "select_static", "button"):
                if not child.get("name"):
                    return "every component in a form needs a name"
                names.append(child["name"])
            if child.get("tag") == "button" and child.get("behaviors"):
                return "a button in a form takes form_action_type, not behaviors"
    return "component names must be unique" if len(names) != len(set(names)) else None


class _NativeFeishu:
    """The Open API routes of the native surfaces, mixed into FakeFeishu."""

    sent: list[Sent]
    _changed: threading.Condition
    _ids: Iterator[int]
    _json: Callable[..., Response]
    private_cards_unavailable: int | None = None  # a code /ephemeral/v1/send answers with, when set
    members_readable: bool = True  # False: the members API refuses (no im:chat.members:read)

    def __init__(self) -> None:
        super().__init__()
        self.members: dict[str, list[str]] = {}  # group chat -> member open_ids (GET .../chats/{id}/members)

    def shown(self) -> list[Sent]:
        with self._changed:
            return _shown(self.sent, getattr(self, "cards", None))

    def wait_shown(self, condition: Callable[[list[Sent]], bool], timeout: float = WAIT) -> list[Sent]:
        """What the chats show once `condition` holds of it (a thinking card patched into its answer, for
        one); AssertionError after `timeout`."""
        with self._changed:
            cards = getattr(self, "cards", None)
            if not self._changed.wait_for(lambda: condition(_shown(self.sent, cards)), timeout):
                raise AssertionError(f"the chats never showed what was expected: {_shown(self.sent, cards)}")
            return _shown(self.sent, cards)

    def _handle_native(self, request: Request) -> Response | None:
        if request.path == "/open-apis/ephemeral/v1/send" and request.method == "POST":
            return self._private(request.json())
        members = _MEMBERS.match(request.path)
        if members and request.method == "GET":
            return self._members(members["chat"], request.query)
        match = _MESSAGE.match(request.path)
        if match and not match["reply"] and request.method == "DELETE":
            return self._recall(match["id"])
        return None

    def _private(self, body: dict[str, Any]) -> Response:
        card = body.get("card")
        if not (body.get("chat_id") and body.get("open_id") and body.get("msg_type") == "interactive"):
            return self._json(400, {"code": 230001, "msg": "chat_id, open_id and msg_type are required"})
        if not isinstance(card, dict):
            return self._json(400, {"code": 230001, "msg": "card must be an object"})
        if self.private_cards_unavailable is not None:
            return self._json(400, {"code": self.private_cards_unavailable, "msg": "not supported here"})
        with self._changed:
            message_id = f"om_private_{next(self._ids)}"
            self.sent.append(
                Sent("private", message_id, body["chat_id"], "interactive", card, to_user=body["open_id"])
            )
            self._changed.notify_all()
        return self._json(200, {"code": 0, "msg": "success", "data": {"message_id": message_id}})

    def _members(self, chat: str, query: dict[str, Any]) -> Response:
        if not self.members_readable:
            return self._json(400, {"code": 99991672, "msg": "Access denied: im:chat.members:read required"})
        if query.get("member_id_type", "open_id") != "open_id":
            return self._json(400, {"code": 230001, "msg": "member_id_type"})
        ids = self.members.get(chat, [])
        items = [{"member_id_type": "open_id", "member_id": m, "name": m} for m in ids]
        data = {"items": items, "page_token": "", "has_more": False, "member_total": len(items)}
        return self._json(200, {"code": 0, "msg": "success", "data": data})

    def _recall(self, message_id: str) -> Response:
        with self._changed:
            if not any(s.message_id == message_id and s.kind in ("create", "reply") for s in self.sent):
                return self._json(400, {"code": 230011, "msg": "The message was not found."})
            self.sent.append(Sent("recall", message_id, message_id, "", None))
            self._changed.notify_all()
        return self._json(200, {"code": 0, "msg": "success", "data": {}})

    def _refuse_patch(self, message_id: str, body: dict[str, Any]) -> Response | None:
        """Feishu patches only a card the bot sent, shared (`update_multi`), with a card JSON `content`."""
        with self._changed:
            original = next((s for s in self.sent if s.message_id == message_id and s.kind != "patch"), None)
        if original is None or original.msg_type != "interactive":
            return self._json(400, {"code": 230001, "msg": "only the bot's own cards can be updated"})
        if not original.content.get("config", {}).get("update_multi"):
            return self._json(400, {"code": 230099, "msg": "the card is not shared (update_multi)"})
        try:
            card = json.loads(body.get("content") or "")
        except ValueError:
            return self._json(400, {"code": 230001, "msg": "content is not JSON"})
        if not isinstance(card, dict) or card.get("schema") != "2.0":
            return self._json(400, {"code": 230099, "msg": "the new content is not a card JSON 2.0"})
        problem = _form_problem(card)
        if problem:
            return self._json(400, {"code": 230099, "msg": problem})
        return None


class FakeFeishu(_CardKitFeishu, _NativeFeishu, FakeService):
    def __init__(self, app_secret: str | None = None, bot_open_id: str = BOT_OPEN_ID) -> None:
        super().__init__()
        self.app_secret, self.bot_open_id = app_secret, bot_open_id
        self.sent: list[Sent] = []
        self.tokens_issued = 0
        self._tokens: set[str] = set()
        self._by_uuid: dict[str, str] = {}
        self._faults: list[_Fault] = []
        self._ids = itertools.count(1)
        self._changed = threading.Condition()
        self.socket: FakeFeishuSocket | None = None

    # Switches ---------------------------------------------------------------------------------------

    def rate_limit(self, times: int = 1, reset: str = "0") -> None:
        body = {"code": 99991400, "msg": "request trigger frequency limit"}
        headers = {"x-ogw-ratelimit-limit": "50", "x-ogw-ratelimit-reset": reset}
        self._fault(times, lambda: self._json(429, body, headers))

    def fail(
        self,
        times: int = 1,
        code: int = 230001,
        msg: str = "invalid request parameter",
        status: int = 400,
        *,
        after: int = 0,
    ):
        """The next `times` sends after the next `after` ones are refused with `code`."""
        self._fault(times, lambda: self._json(status, {"code": code, "msg": msg}), after)

    def server_error(self, times: int = 1, status: int = 503) -> None:
        self._fault(times, lambda: Response(status, "upstream unavailable", {"Content-Type": "text/plain"}))

    def revoke_tokens(self) -> None:
        with self._changed:
            self._tokens.clear()

    def _fault(self, times: int, make: Callable[[], Response], after: int = 0) -> None:
        with self._changed:
            self._faults.append(_Fault(times, make, after))

    # Waiting ----------------------------------------------------------------------------------------

    def wait_for_sent(self, count: int = 1, timeout: float = WAIT) -> list[Sent]:
        """The messages sent, once there are at least `count`; AssertionError after `timeout`."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.sent) >= count, timeout):
                raise AssertionError(f"expected {count} messages, got {len(self.sent)}: {self.sent}")
            return list(self.sent)

    def send_calls(self) -> list[str]:
        """The path of every message send received, refused ones included."""
        return [c.request.path for c in self.calls if c.request.path.startswith("/open-apis/im/")]

    # The long connection ----------------------------------------------------------------------------

    def open_socket(self) -> FakeFeishuSocket:
        """Start the long-connection server that `/callback/ws/endpoint` hands out."""
        if self.socket is None:
            self.socket = FakeFeishuSocket().start()
        return self.socket

    def stop(self) -> None:
        if self.socket is not None:
            self.socket.stop()
            self.socket = None
        super().stop()

    # The API ----------------------------------------------------------------------------------------

    def handle(self, request: Request) -> Response:
        if request.path == "/open-apis/auth/v3/tenant_access_token/internal":
            return self._token(request.json())
        if request.path == "/callback/ws/endpoint":
            return self._endpoint(request.json())
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        with self._changed:
            valid = token in self._tokens
        if not valid:
            return self._json(400, {"code": 99991663, "msg": "Invalid access token for authorization."})
        if request.path == "/open-apis/bot/v3/info":
            return self._json(
                200, {"code": 0, "msg": "ok", "bot": {"app_name": "prhub", "open_id": self.bot_open_id}}
            )
        native = self._handle_native(request) or self._handle_cardkit(request)
        if native is not None:
            return native
        match = _MESSAGE.match(request.path)
        if request.path == "/open-apis/im/v1/messages" and request.method == "POST":
            return self._send(request, "create", request.json()["receive_id"])
        if match and match["reply"] and request.method == "POST":
            return self._send(request, "reply", match["id"])
        if match and not match["reply"] and request.method == "PATCH":
            refusal = self._refuse_patch(match["id"], request.json())
            return refusal or self._send(request, "patch", match["id"])
        return self._json(404, {"code": 404, "msg": f"no route {request.method} {request.path}"})

    def _token(self, body: dict[str, Any]) -> Response:
        if self.app_secret is not None and body.get("app_secret") != self.app_secret:
            return self._json(200, {"code": 10014, "msg": "app secret invalid"})
        token = f"t-{uuid.uuid4().hex}"
        with self._changed:
            self._tokens.add(token)
            self.tokens_issued += 1
        return self._json(200, {"code": 0, "msg": "ok", "tenant_access_token": token, "expire": 7200})

    def _endpoint(self, body: dict[str, Any]) -> Response:
        if self.socket is None or not body.get("AppID"):
            return self._json(200, {"code": 1000040344, "msg": "no long connection configured"})
        # Reconnect at once and ping rarely: a test never waits for the SDK's timers.
        config = {"ReconnectCount": 1, "ReconnectInterval": 1, "ReconnectNonce": 0, "PingInterval": 120}
        return self._json(
            200, {"code": 0, "msg": "ok", "data": {"URL": self.socket.url, "ClientConfig": config}}
        )

    def _send(self, request: Request, kind: str, target: str) -> Response:
        with self._changed:
            fault = next((f for f in self._faults if f.remaining > 0), None)
            if fault is not None and fault.skip > 0:
                fault.skip -= 1
            elif fault is not None:
                fault.remaining -= 1
                return fault.make()
            body = request.json()
            reference = json.loads(body.get("content") or "null")
            card_id = str((reference.get("data") or {}).get("card_id")) if isinstance(reference, dict) else ""
            if isinstance(reference, dict) and reference.get("type") == "card" and card_id not in self.cards:
                return self._json(400, {"code": 230099, "msg": "card entity not found"})
            key = body.get("uuid")
            if key and key in self._by_uuid:  # Feishu sends one message per uuid (within an hour)
                return self._json(
                    200, {"code": 0, "msg": "success", "data": {"message_id": self._by_uuid[key]}}
                )
            message_id = target if kind == "patch" else f"om_fake_{next(self._ids)}"
            self.sent.append(
                Sent(
                    kind=kind,
                    message_id=message_id,
                    target=target,
                    msg_type=body.get("msg_type", "interactive"),
                    content=json.loads(body["content"]),
                    reply_in_thread=bool(body.get("reply_in_thread")),
                    uuid=key,
                )
            )
            if key:
                self._by_uuid[key] = message_id
            self._changed.notify_all()
        return self._json(200, {"code": 0, "msg": "success", "data": {"message_id": message_id}})

    def _json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
        # lark reads the log id and the content type with case-sensitive lookups: send them spelled so.
        return Response(
            status,
            json.dumps(body, ensure_ascii=False).encode(),
            {"Content-Type": "application/json; charset=utf-8", "X-Tt-Logid": f"fake-{uuid.uuid4().hex[:12]}"}
            | (headers or {}),
        )


class FakeFeishuSocket:
    """The long-connection server: answers pings with pongs, pushes event frames to the connected client
    and records the client's response frames."""

    SERVICE_ID = 7

    def __init__(self) -> None:
        self.responses: list[dict[str, Any]] = []
        self.pings = 0
        self.connections = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="fake-feishu-ws", daemon=True)
        self._server: Server | None = None
        self._connection: ServerConnection | None = None
        self._changed = threading.Condition()

    @property
    def url(self) -> str:
        assert self._server is not None
        port = next(iter(self._server.sockets)).getsockname()[1]
        return f"ws://127.0.0.1:{port}/ws?device_id=fake-device&service_id={self.SERVICE_ID}"

    def start(self) -> FakeFeishuSocket:
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(self._serve(), self._loop).result(WAIT)
        return self

    async def _serve(self) -> Server:
        return await serve(self._handle, "127.0.0.1", 0)

    async def _handle(self, connection: ServerConnection) -> None:
        with self._changed:
            self._connection = connection
            self.connections += 1
            self._changed.notify_all()
        with contextlib.suppress(ConnectionClosed):
            async for data in connection:
                await self._receive(connection, data)

    async def _receive(self, connection: ServerConnection, data: str | bytes) -> None:
        frame = Frame()
        frame.ParseFromString(data if isinstance(data, bytes) else data.encode())
        headers = {h.key: h.value for h in frame.headers}
        if frame.method == 0 and headers.get("type") == "ping":
            with self._changed:
                self.pings += 1
                self._changed.notify_all()
            await connection.send(_frame(0, {"type": "pong"}, b"").SerializeToString())
        elif frame.method == 1:
            with self._changed:
                self.responses.append(
                    {"message_id": headers.get("message_id"), "headers": headers} | json.loads(frame.payload)
                )
                self._changed.notify_all()

    def wait_connected(self, count: int = 1, timeout: float = WAIT) -> None:
        """Wait for the `count`th connection (pushes go to the newest)."""
        self.wait_until(lambda: self.connections >= count, timeout)

    def wait_until(self, condition: Callable[[], bool], timeout: float = WAIT) -> None:
        with self._changed:
            if not self._changed.wait_for(condition, timeout):
                raise AssertionError(
                    f"timed out after {timeout} s: {self.connections} connections, {self.pings} pings"
                )

    def push(self, payload: dict[str, Any], kind: str = "event") -> str:
        """Send one event (or callback) as a data frame; returns the frame's message id."""
        self.wait_connected()
        message_id = f"frame-{uuid.uuid4().hex[:12]}"
        headers = {
            "type": kind,
            "message_id": message_id,
            "trace_id": uuid.uuid4().hex,
            "sum": "1",
            "seq": "0",
        }
        frame = _frame(1, headers, json.dumps(payload, ensure_ascii=False).encode())
        assert self._connection is not None
        asyncio.run_coroutine_threadsafe(self._connection.send(frame.SerializeToString()), self._loop).result(
            WAIT
        )
        return message_id

    def wait_responses(self, count: int, timeout: float = WAIT) -> list[dict[str, Any]]:
        """The client's response frames, once there are `count`: `{"message_id", "headers", "code", "data"?}`."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.responses) >= count, timeout):
                raise AssertionError(f"expected {count} responses, got {self.responses}")
            return list(self.responses)

    def stop(self) -> None:
        async def close() -> None:
            assert self._server is not None
            self._server.close()
            await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(WAIT)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(WAIT)
        self._loop.close()


def _frame(method: int, headers: dict[str, str], payload: bytes) -> Frame:
    frame = Frame()
    frame.SeqID, frame.LogID, frame.service, frame.method = 0, 0, FakeFeishuSocket.SERVICE_ID, method
    for key, value in headers.items():
        header = frame.headers.add()
        header.key, header.value = key, value
    frame.payload = payload
    return frame


# The platform's side of HTTP delivery ---------------------------------------------------------------


def encrypt(payload: dict[str, Any], encrypt_key: str) -> bytes:
    """The body Feishu sends when an Encrypt Key is set: {"encrypt": base64(iv + AES-256-CBC(json))}."""
    plain = json.dumps(payload, ensure_ascii=False).encode()
    pad = AES.block_size - len(plain) % AES.block_size
    iv = uuid.uuid4().bytes
    cipher = AES.new(hashlib.sha256(encrypt_key.encode()).digest(), AES.MODE_CBC, iv)
    sealed = base64.b64encode(iv + cipher.encrypt(plain + bytes([pad]) * pad)).decode()
    return json.dumps({"encrypt": sealed}).encode()


def signature(timestamp: str, nonce: str, encrypt_key: str, body: bytes) -> str:
    return hashlib.sha256((timestamp + nonce + encrypt_key).encode() + body).hexdigest()


def push(
    url: str,
    payload: dict[str, Any],
    encrypt_key: str,
    *,
    timestamp: float | None = None,
    encrypted: bool = True,
    sign_with: str | None = None,
    session: requests.Session | None = None,
) -> requests.Response:
    """POST an event as Feishu does: encrypted, with timestamp, nonce and signature headers.
    `sign_with` signs with another key (a forgery); `timestamp` defaults to now."""
    body = encrypt(payload, encrypt_key) if encrypted else json.dumps(payload).encode()
    stamp, nonce = str(int(time.time() if timestamp is None else timestamp)), uuid.uuid4().hex
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "X-Lark-Request-Timestamp": stamp,
        "X-Lark-Request-Nonce": nonce,
        "X-Lark-Signature": signature(stamp, nonce, sign_with or encrypt_key, body),
    }
    return (session or requests).post(url, data=body, headers=headers, timeout=WAIT)


def _header(event_type: str, token: str, event_id: str | None, app_id: str) -> dict[str, Any]:
    return {
        "event_id": event_id or uuid.uuid4().hex,
        "event_type": event_type,
        "create_time": str(int(time.time() * 1000)),
        "token": token,
        "app_id": app_id,
        "tenant_key": "tenant-1",
    }


@dataclass
class Mention:
    key: str
    open_id: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "id": {"open_id": self.open_id, "union_id": "on_x"},
            "name": self.name,
            "tenant_key": "tenant-1",
        }


BOT_MENTION = Mention("@_user_1", BOT_OPEN_ID, "prhub")


@dataclass
class MessageEvent:
    """`im.message.receive_v1` as Feishu pushes it; `content` is the message's content object."""

    content: dict[str, Any]
    message_type: str = "text"
    chat_type: str = "group"
    mentions: list[Mention] = field(default_factory=lambda: [BOT_MENTION])
    sender_type: str = "user"
    sender: str = "ou_alice"
    chat_id: str = "oc_group_1"
    message_id: str = field(default_factory=lambda: f"om_{uuid.uuid4().hex[:16]}")
    event_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    root_id: str | None = None  # set for a reply inside a topic: the topic's first message

    def payload(self, token: str, app_id: str = "cli_test") -> dict[str, Any]:
        return {
            "schema": "2.0",
            "header": _header("im.message.receive_v1", token, self.event_id, app_id),
            "event": {
                "sender": {
                    "sender_id": {"open_id": self.sender, "union_id": "on_alice", "user_id": "alice"},
                    "sender_type": self.sender_type,
                    "tenant_key": "tenant-1",
                },
                "message": {
                    "message_id": self.message_id,
                    "create_time": str(int(time.time() * 1000)),
                    "chat_id": self.chat_id,
                    "chat_type": self.chat_type,
                    "message_type": self.message_type,
                    "content": json.dumps(self.content, ensure_ascii=False),
                    "mentions": [m.to_dict() for m in self.mentions],
                    **({"root_id": self.root_id, "parent_id": self.root_id} if self.root_id else {}),
                },
            },
        }


def text_event(text: str, **fields: Any) -> MessageEvent:
    return MessageEvent({"text": text}, **fields)


def card_action(
    value: dict[str, Any],
    token: str,
    *,
    operator: str = "ou_alice",
    message_id: str = "om_card_1",
    chat_id: str = "oc_group_1",
    app_id: str = "cli_test",
) -> dict[str, Any]:
    """A `card.action.trigger` callback for a click on a button whose callback value is `value`."""
    return {
        "schema": "2.0",
        "header": _header("card.action.trigger", token, None, app_id),
        "event": {
            "operator": {"tenant_key": "tenant-1", "open_id": operator, "union_id": "on_x"},
            "token": "c-" + uuid.uuid4().hex,
            "action": {"value": value, "tag": "button"},
            "host": "im_message",
            "context": {"open_message_id": message_id, "open_chat_id": chat_id},
        },
    }


def url_verification(challenge: str, token: str) -> dict[str, Any]:
    return {"challenge": challenge, "token": token, "type": "url_verification"}


def bot_menu(
    token: str, *, operator: str = "ou_alice", event_key: str = "prhub", app_id: str = "cli_test"
) -> dict[str, Any]:
    """An `application.bot.menu_v6` event: `operator` clicked the bot menu item `event_key`."""
    return {
        "schema": "2.0",
        "header": _header("application.bot.menu_v6", token, None, app_id),
        "event": {
            "operator": {"operator_name": "alice", "operator_id": {"open_id": operator, "union_id": "on_x"}},
            "event_key": event_key,
            "timestamp": 1750000000,
        },
    }


def form_submit(
    button: str,
    form_value: dict[str, Any],
    token: str,
    *,
    operator: str = "ou_alice",
    message_id: str = "om_menu_1",
    chat_id: str = "oc_p2p_alice",
) -> dict[str, Any]:
    """A `card.action.trigger` callback for a card form submitted with its button named `button`."""
    payload = card_action({}, token, operator=operator, message_id=message_id, chat_id=chat_id)
    payload["event"]["action"] = {"tag": "button", "name": button, "form_value": form_value}
    return payload
