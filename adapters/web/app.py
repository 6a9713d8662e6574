"""The Flask app that every HTTP-facing part mounts itself on, and a waitress server to run it.

Flask because both vendor SDKs ship adapters for it (slack_bolt.adapter.flask, lark_oapi.adapter.flask)
and the bot is thread-based; waitress because it is a production WSGI server that runs everywhere
(pure Python, no fork), binds port 0 for tests, and stops cleanly from another thread.
"""

from __future__ import annotations

import hmac
import threading
from collections.abc import Callable, Iterable

from flask import Flask, Response, jsonify, request
from waitress import wasyncore
from waitress.server import create_server

Mount = Callable[[Flask], None]
# The largest request body any endpoint takes (platform events and webhooks are a few KB; GitHub's
# pull_request events with the longest body allowed stay well under). Waitress answers 413 above it
# before buffering, Flask again for a chunked body, so an anonymous client costs bounded memory.
MAX_BODY = 1 << 20


def has_token(expected: str | None) -> bool:
    """Whether the request carries `expected` as `?token=` or `Authorization: Bearer` (always true when
    no token is configured). Compared as bytes in constant time: a non-ASCII token is simply wrong."""
    if not expected:
        return True
    given = request.args.get("token") or request.headers.get("Authorization", "").removeprefix("Bearer ")
    return hmac.compare_digest(given.strip().encode(), expected.encode())


def create_app(mounts: Iterable[Mount] = ()) -> Flask:
    """The app with `/healthz`, plus whatever each mount registers (routes, blueprints)."""
    app = Flask("prhub")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.json.ensure_ascii = False  # type: ignore[attr-defined]

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify(status="ok")

    for mount in mounts:
        mount(app)
    return app


class BackgroundServer:
    """Serve a WSGI app with waitress on a thread; `port=0` picks a free port (tests)."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 8) -> None:
        self._server = create_server(
            app, host=host, port=port, threads=threads, ident="prhub", max_request_body_size=MAX_BODY
        )
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="prhub-http", daemon=True)

    def _run(self) -> None:
        try:
            self._server.run()
        except (OSError, ValueError):
            # close() from another thread pulls the sockets from under waitress's select loop
            if not self._stopping:
                raise

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    @property
    def url(self) -> str:
        return f"http://{self._server.effective_host}:{self.port}"

    def start(self) -> BackgroundServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Close every socket from inside waitress's loop (so it returns at once, idle keep-alive
        connections included), then wait for the thread."""
        self._stopping = True
        try:
            self._server.trigger.pull_trigger(lambda: wasyncore.close_all(self._server._map))
        except OSError:
            # The trigger's pipe is already gone (seen in long test runs, where a stray close of a
            # reused descriptor number hits it): close from here; the loop then stops on its own.
            wasyncore.close_all(self._server._map)
        self._thread.join(timeout=5)

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
