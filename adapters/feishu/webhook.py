"""The HTTP callback endpoint: a Flask route in front of lark's event dispatcher, which decrypts, checks
the verification token and the signature, and answers `url_verification`.

Two things the SDK leaves out are added here. Header names are put in their canonical spelling before
the SDK reads them, because it looks them up with case-sensitive dict gets (a server that lower-cases
names would fail every signature check). And a request whose timestamp is more than 5 minutes off is
refused: the SDK checks the signature but not its age, so a captured request could be replayed forever.
"""

from __future__ import annotations

import logging
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


def mount_events(
    app: Flask, dispatcher: EventDispatcherHandler, clock: Clock, path: str = EVENTS_PATH
) -> None:
    """Register `POST path` on the app. Rejections: 413 for an oversized body, 401 for a stale
    timestamp, and the SDK's 500 for a bad signature, a wrong token or a body it cannot decrypt."""

    def feishu_events() -> Response | tuple[Response, int]:
        if (request.content_length or 0) > MAX_BODY:
            return jsonify(msg="request body too large"), 413
        headers = lark_headers(request.headers)
        stamp = headers.get(LARK_REQUEST_TIMESTAMP)
        if not is_fresh(stamp, clock.now()):
            log.warning("feishu: refused a request stamped %s, more than 5 minutes off (clock skew?)", stamp)
            return jsonify(msg="request timestamp is more than 5 minutes off"), 401
        raw = RawRequest()
        raw.uri = request.path
        raw.body = request.get_data()
        raw.headers = headers
        answer = dispatcher.do(raw)
        return Response(answer.content, status=answer.status_code, headers=answer.headers)

    app.add_url_rule(path, "feishu_events", feishu_events, methods=["POST"])
