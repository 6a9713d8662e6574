"""The HTTP callback endpoint: a Flask route in front of lark's event dispatcher, which decrypts, checks
the verification token and the signature, and answers `url_verification`.

Two things the SDK leaves out are added here. Header names are put in their canonical spelling before
the SDK reads them, because it looks them up with case-sensitive dict gets (a server that lower-cases
names would fail every signature check). And a request whose timestamp is more than 5 minutes off is
refused: the SDK checks the signature but not its age, so a captured request could be replayed forever.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from flask import Flask, Response, jsonify, request
from lark_oapi import EventDispatcherHandler, RawRequest
from lark_oapi.core.const import (
    LARK_REQUEST_NONCE,
    LARK_REQUEST_SIGNATURE,
    LARK_REQUEST_TIMESTAMP,
    X_REQUEST_ID,
)
from werkzeug.datastructures import Headers

from chatbot.ports import Clock

log = logging.getLogger(__name__)

EVENTS_PATH = "/feishu/events"
MAX_SKEW = timedelta(minutes=5)
MAX_BODY = 1 << 20  # events are a few KB; anything this big is not from Feishu
_HEADERS = (LARK_REQUEST_TIMESTAMP, LARK_REQUEST_NONCE, LARK_REQUEST_SIGNATURE, X_REQUEST_ID)


def lark_headers(headers: Headers) -> dict[str, str]:
    """The headers the SDK reads, under the names it expects, whatever case they arrived in."""
    return {name: value for name in _HEADERS if (value := headers.get(name)) is not None}


def is_fresh(timestamp: str | None, now: datetime) -> bool:
    """Whether a request's `X-Lark-Request-Timestamp` (Unix seconds) is within 5 minutes of `now`.
    A request without one passes here: with an encrypt key set, the SDK's signature check needs the
    timestamp and refuses the request; only `url_verification`, which carries no secret, gets through."""
    if timestamp is None:
        return True
    try:
        sent = datetime.fromtimestamp(int(timestamp), UTC)
    except (ValueError, OverflowError, OSError):
        return False
    return abs(now - sent) <= MAX_SKEW


def is_signed(headers: dict[str, str], body: bytes, encrypt_key: str) -> bool:
    """Whether the request carries Feishu's signature of `body`: sha256 of timestamp, nonce, encrypt
    key and body. Headers that are missing or not ASCII are simply not a valid signature."""
    parts = [headers.get(name, "") for name in (LARK_REQUEST_TIMESTAMP, LARK_REQUEST_NONCE)]
    signature = headers.get(LARK_REQUEST_SIGNATURE, "")
    if not all(part.isascii() for part in (*parts, signature)) or not all(parts):
        return False
    expected = hashlib.sha256((parts[0] + parts[1] + encrypt_key).encode() + body).hexdigest()
    return hmac.compare_digest(signature, expected)


class OneLine(logging.Filter):
    """lark logs each request it refuses with a traceback: keep the one line, so that anyone on the
    internet cannot fill the log with stack traces."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info, record.exc_text = None, None
        return True


def mount_events(
    app: Flask,
    dispatcher: EventDispatcherHandler,
    clock: Clock,
    encrypt_key: str = "",
    accepting: Callable[[], bool] = lambda: True,
    path: str = EVENTS_PATH,
) -> None:
    """Register `POST path` on the app. What the SDK would take is checked first: 413 for an oversized
    body, 401 for a stale timestamp or (with an encrypt key) a signature that is present but wrong,
    400 for a body that is not a JSON object, 503 while the adapter stops (Feishu pushes again later).
    The SDK's own refusals (an unsigned event, a wrong token, a body it cannot decrypt) are its 500
    with the exception text: they become a 401 that says no more than that."""
    lark_logger = logging.getLogger("Lark")
    if not any(isinstance(f, OneLine) for f in lark_logger.filters):
        lark_logger.addFilter(OneLine())

    def feishu_events() -> Response | tuple[Response, int]:
        if (request.content_length or 0) > MAX_BODY:
            return jsonify(msg="request body too large"), 413
        headers = lark_headers(request.headers)
        stamp = headers.get(LARK_REQUEST_TIMESTAMP)
        if not is_fresh(stamp, clock.now()):
            log.warning("feishu: refused a request stamped %r, more than 5 minutes off (clock skew?)", stamp)
            return jsonify(msg="request timestamp is more than 5 minutes off"), 401
        body = request.get_data()
        if encrypt_key and LARK_REQUEST_SIGNATURE in headers and not is_signed(headers, body, encrypt_key):
            log.warning("feishu: refused a request with a wrong signature (%d bytes)", len(body))
            return jsonify(msg="request refused"), 401
        try:
            is_object = isinstance(json.loads(body), dict)
        except ValueError:
            is_object = False
        if not is_object:
            log.warning("feishu: refused a body that is not a JSON object (%d bytes)", len(body))
            return jsonify(msg="malformed request"), 400
        if not accepting():
            return jsonify(msg="stopping; push again later"), 503
        raw = RawRequest()
        raw.uri = request.path
        raw.body = body
        raw.headers = headers
        answer = dispatcher.do(raw)
        if answer.status_code >= 500:
            log.warning("feishu: the SDK refused a request (%d bytes)", len(body))
            return jsonify(msg="request refused"), 401
        return Response(answer.content, status=answer.status_code, headers=answer.headers)

    app.add_url_rule(path, "feishu_events", feishu_events, methods=["POST"])
