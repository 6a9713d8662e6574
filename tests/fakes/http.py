"""A tiny threaded HTTP server on 127.0.0.1 (OS-chosen port) that records every request.

Each fake subclasses `FakeService` and implements `handle(request) -> Response`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]  # lower-cased names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body or b"null")


@dataclass
class Response:
    """`body` is bytes, text, a JSON value, or a `Streamed` body (sent chunk by chunk as it is produced)."""

    status: int = 200
    body: bytes | str | Any = b""
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> tuple[bytes, dict[str, str]]:
        headers = dict(self.headers)
        if isinstance(self.body, bytes):
            payload = self.body
        elif isinstance(self.body, str):
            payload = self.body.encode("utf-8")
        else:
            payload = json.dumps(self.body).encode("utf-8")
            headers.setdefault("Content-Type", "application/json; charset=utf-8")
        return payload, headers


@dataclass
class Streamed:
    """A response body written as its chunks are produced (`Transfer-Encoding: chunked`), as servers
    stream server-sent events: the client reads each chunk before the next exists."""

    chunks: Iterator[bytes]


@dataclass
class Call:
    request: Request
    status: int


class FakeService:
    """Start with `with FakeX() as fake:`; `fake.url` is its base URL, `fake.calls` what it received."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def handle(self, request: Request) -> Response:
        raise NotImplementedError

    @property
    def url(self) -> str:
        assert self._server is not None, "the fake is not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else delayed ACKs add 40 ms to every keep-alive request

            def _serve(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                request = Request(
                    method=self.command,
                    path=parts.path,
                    query={k: v[-1] for k, v in parse_qs(parts.query).items()},
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=self.rfile.read(length) if length else b"",
                )
                try:
                    response = service.handle(request)
                except Exception as exc:  # a bug in the fake must show up as a 500, not a hang
                    response = Response(500, {"message": f"fake error: {exc!r}"})
                with service._lock:
                    service.calls.append(Call(request, response.status))
                if isinstance(response.body, Streamed):
                    self._stream(response)
                    return
                payload, headers = response.encoded()
                self.send_response(response.status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)

            def _stream(self, response: Response) -> None:
                self.send_response(response.status)
                for name, value in response.headers.items():
                    self.send_header(name, value)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for chunk in response.body.chunks:
                    if not chunk:
                        continue  # an empty chunk would end the body
                    self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _serve

            def log_message(self, format: str, *args: Any) -> None:
                return

        class Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client hanging up mid-response (timeouts tested on purpose) is not a failure

        self._server = Server(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeService:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def reset_calls(self) -> None:
        with self._lock:
            self.calls.clear()
