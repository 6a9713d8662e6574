"""A fake OpenAI-compatible chat API (`POST /v1/chat/completions`) for the real `openai` client.

It checks requests the way the real service does (bearer key, a `json_object` request must mention
"json", a `json_schema` request must name its schema), answers with a payload computed from the request,
reports `usage`, and has switches for the failures prhub must survive: 429 with `retry-after-ms`,
500s, malformed or blank content, an answer cut at the length limit, and a response slower than the
client's timeout. Held responses wait on an Event that `stop()` and `reset()` set, so nothing a test
started keeps waiting after it.

Its `Retry-After` headers are a millisecond, never 0: the SDK treats `retry-after: 0` as "no hint" and
falls back to its 0.5 s exponential backoff.

A request with `"stream": true` is answered with server-sent events written one chunk at a time
(`chat.completion.chunk` objects, then `data: [DONE]`), the answer's text split into small pieces.
`hold_stream_after(n)` holds the stream after its first `n` pieces until `release()`, so a test can
see what a chat surface showed while the model was still writing; the `cut` fault ends a stream
halfway with an error event, as a provider does when it fails mid-answer.
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from tests.fakes.http import FakeService, Request, Response, Streamed

Fault = Literal["rate_limit", "server_error", "malformed", "blank", "length", "slow", "cut"]
# The request's JSON body -> the answer: a JSON value (sent as the message content, serialised) or a str
# (sent verbatim, for answers that are not JSON at all).
Answer = Callable[[dict[str, Any]], Any]

MALFORMED_CONTENT = '{"title_zh": "未闭合的回答", "summary": '
STREAM_PIECE = 4  # characters per streamed delta: a sentence arrives in several pieces, as from a model


def pieces(text: str, size: int = STREAM_PIECE) -> list[str]:
    """How the fake splits a streamed answer into deltas."""
    return [text[i : i + size] for i in range(0, len(text), size)]


def analysis_payload(**overrides: Any) -> dict[str, Any]:
    """A valid answer to prhub's PR-analysis request; keyword arguments replace fields."""
    payload: dict[str, Any] = {
        "title_zh": "为 rollout 增加异步调度",
        "title_en": "Schedule rollout workers asynchronously",
        "summary": "Rollout workers are now scheduled asynchronously.",
        "modules": ["rollout"],
        "change_type": "feat",
        "breaking": False,
        "importance": 6.5,
        "insight": 5.0,
        "verdict": "worth-reading",
        "risks": [
            {
                "category": "concurrency",
                "severity": "medium",
                "text_zh": "worker 队列周围新增了锁。",
                "text_en": "New locking around the worker queue.",
                "evidence": "rollout/async.py",
            }
        ],
        "tests": True,
        "review_highlights": ["A reviewer asked for a queue-size metric"],
        "zh": {
            "gist": "rollout worker 改为异步调度，减少空等。",
            "verdict_reason": "改变了 rollout 的调度方式。",
            "key_points": ["rollout/async.py 中新增调度器"],
            "follow_ups": ["用 64 个 worker 做压力测试"],
            "reading_guide": ["从 rollout/async.py 的调度循环读起"],
        },
        "en": {
            "gist": "Rollout workers are scheduled asynchronously, so they wait less.",
            "verdict_reason": "Changes how rollout work is scheduled.",
            "key_points": ["New scheduler in rollout/async.py"],
            "follow_ups": ["Stress-test with 64 workers"],
            "reading_guide": ["Start at the scheduling loop in rollout/async.py"],
        },
    }
    payload.update(overrides)
    return payload


def estimate_usage(messages: list[dict[str, Any]], content: str) -> tuple[int, int]:
    """The fake's token counts: a deterministic 4 characters a token."""
    prompt = sum(len(str(m.get("content") or "")) for m in messages)
    return prompt // 4 + 1, len(content) // 4 + 1


@dataclass
class ChatCall:
    """One request to the chat endpoint and the status it got."""

    body: Any
    headers: dict[str, str]
    status: int


class FakeOpenAI(FakeService):
    """`base_url` is what the client needs; `chat_calls` what the chat endpoint received and answered.

    Tests that share one server call `reset()` between them. Requests are counted per reset generation,
    so a held response that finishes after a reset never shows up in the next test's records."""

    def __init__(
        self,
        api_key: str = "test-key",
        answer: Answer | None = None,
        latency: float = 0.0,
        slow_seconds: float = 1.0,
        piece_seconds: float = 0.0,
    ) -> None:
        super().__init__()
        self.api_key = api_key
        self._default_answer: Answer = answer or (lambda body: analysis_payload())
        self.answer = self._default_answer
        self.latency = latency
        self.slow_seconds = slow_seconds
        self.piece_seconds = piece_seconds  # between streamed pieces: a model's pace (benchmarks only)
        self.chat_calls: list[ChatCall] = []
        self.served_usage: list[tuple[int, int]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._faults: list[Fault] = []
        self.hold_after: int | None = None  # streamed pieces sent before the stream waits for release()
        self._generation = 0
        self._release = threading.Event()
        self._state = threading.Lock()
        self._ids = itertools.count(1)

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    @property
    def requests(self) -> list[Any]:
        """The JSON bodies of the chat requests received, in the order they were answered."""
        return [call.body for call in self.chat_calls]

    def statuses(self) -> list[int]:
        return [call.status for call in self.chat_calls]

    def retry_counts(self) -> list[str | None]:
        """The SDK's `x-stainless-retry-count` header of each request: "0" first, then "1"…"""
        return [call.headers.get("x-stainless-retry-count") for call in self.chat_calls]

    def fail_next(self, fault: Fault, times: int = 1) -> None:
        """The next `times` chat requests meet `fault`; later ones are answered normally."""
        with self._state:
            self._faults.extend([fault] * times)

    def release(self) -> None:
        """Let every held response (latency, `slow`, a held stream) finish now."""
        self._release.set()

    def hold_stream_after(self, count: int) -> None:
        """Streams send their first `count` pieces, then wait for `release()` before the rest."""
        self.hold_after = count

    def reset(self) -> None:
        """Back to the state after start: held responses released, faults and records cleared, the
        constructor's answer restored."""
        self.release()
        with self._state:
            self._generation += 1
            self._faults.clear()
            self.chat_calls.clear()
            self.served_usage.clear()
            self.in_flight = self.max_in_flight = 0
            self.answer = self._default_answer
            self.hold_after = None
            self._release.clear()  # waiters already woken by `release` still return
        self.reset_calls()

    def start(self) -> FakeOpenAI:
        super().start()
        assert self._server is not None
        server = self._server
        report = server.handle_error

        def handle_error(request: Any, client_address: Any) -> None:
            # A client that timed out has hung up before its held response is written: expected here.
            if not isinstance(sys.exc_info()[1], ConnectionError):
                report(request, client_address)

        server.handle_error = handle_error  # type: ignore[method-assign]
        return self

    def stop(self) -> None:
        self.release()
        super().stop()

    def handle(self, request: Request) -> Response:
        with self._state:
            generation = self._generation
            fault = self._faults.pop(0) if self._faults and request.path == "/v1/chat/completions" else None
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        response, usage = Response(500), None
        try:
            response, usage = self._respond(request, fault)
        finally:
            with self._state:
                if generation == self._generation:
                    self.in_flight -= 1
                    self.chat_calls.append(ChatCall(_json_or_none(request), request.headers, response.status))
                    if usage:
                        self.served_usage.append(usage)
        return response

    def _respond(self, request: Request, fault: Fault | None) -> tuple[Response, tuple[int, int] | None]:
        if request.method != "POST" or request.path != "/v1/chat/completions":
            message = f"Unknown request URL: {request.method} {request.path}"
            return _error(404, message, "invalid_request_error"), None
        if request.headers.get("authorization") != f"Bearer {self.api_key}":
            # Like a careless proxy, it echoes the key it was given: the client must not pass it on.
            given = request.headers.get("authorization", "").removeprefix("Bearer ")
            return _error(401, f"Incorrect API key provided: {given}", "invalid_request_error"), None
        body = _json_or_none(request)
        problem = _invalid(body)
        if problem:
            return _error(400, problem, "invalid_request_error"), None
        if fault == "rate_limit":
            headers = {"retry-after-ms": "1", "retry-after": "0"}
            return _error(429, "Rate limit reached for requests", "requests", headers), None
        if fault == "server_error":
            return _error(500, "The server had an error while processing your request.", "server_error"), None
        self._release.wait(self.slow_seconds if fault == "slow" else self.latency)
        if body.get("stream"):
            return self._stream(body, fault)
        finish_reason = "stop"
        if fault == "malformed":
            content = MALFORMED_CONTENT
        elif fault == "blank":
            content = "   "  # DeepSeek's JSON mode answers spaces when it produced no JSON
        else:
            answer = self.answer(body)
            content = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
            if fault == "length":
                content, finish_reason = content[: len(content) // 2], "length"
        usage = estimate_usage(body["messages"], content)
        completion = {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "created": 1_780_000_000,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "finish_reason": finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)},
        }
        return Response(200, completion), usage

    def _stream(self, body: dict[str, Any], fault: Fault | None) -> tuple[Response, tuple[int, int]]:
        """The answer as server-sent events: a role delta, content deltas, the finish reason, [DONE]."""
        answer = self.answer(body)
        text = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        parts = pieces(text)
        finish_reason = "stop"
        if fault in ("length", "cut"):
            parts, finish_reason = parts[: len(parts) // 2], "length"
        ident, model, hold = f"chatcmpl-fake-{next(self._ids)}", body["model"], self.hold_after

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
            event = {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": 1_780_000_000,
                "model": model,
                "choices": [choice],
            }
            return f"data: {json.dumps(event, ensure_ascii=False)}\n\n".encode()

        def events() -> Iterator[bytes]:
            yield chunk({"role": "assistant", "content": ""})
            for n, part in enumerate(parts):
                if n == hold:
                    self._release.wait(5.0)
                elif self.piece_seconds:
                    time.sleep(self.piece_seconds)
                yield chunk({"content": part})
            if fault == "cut":
                error = {
                    "error": {"message": "The server had an error while streaming.", "type": "server_error"}
                }
                yield f"data: {json.dumps(error)}\n\n".encode()
                return
            yield chunk({}, finish_reason)
            yield b"data: [DONE]\n\n"

        usage = estimate_usage(body["messages"], text)
        headers = {"Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"}
        return Response(200, Streamed(events()), headers), usage


def _json_or_none(request: Request) -> Any:
    try:
        return request.json()
    except ValueError:
        return None


def _invalid(body: Any) -> str | None:
    """What the real API would reject in this request body, if anything."""
    if not isinstance(body, dict) or not body.get("model") or not isinstance(body.get("messages"), list):
        return "'model' and 'messages' are required"
    response_format = body.get("response_format") or {"type": "text"}
    kind = response_format.get("type")
    if kind == "json_object":
        text = " ".join(str(m.get("content") or "") for m in body["messages"]).lower()
        if "json" not in text:
            return "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'."
    elif kind == "json_schema":
        spec = response_format.get("json_schema") or {}
        if not spec.get("name") or not isinstance(spec.get("schema"), dict):
            return "Missing required parameter: 'response_format.json_schema.name' or '.schema'."
    elif kind != "text":
        return f"Invalid value for 'response_format.type': {kind!r}"
    return None


def _error(status: int, message: str, kind: str, headers: dict[str, str] | None = None) -> Response:
    headers = dict(headers or {})
    if status >= 500:
        headers.setdefault("retry-after-ms", "1")  # the SDK would otherwise back off 0.5 s before a retry
    return Response(
        status, {"error": {"message": message, "type": kind, "param": None, "code": None}}, headers
    )
