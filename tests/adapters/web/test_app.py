"""The shared HTTP app: health check and mounts, served for real by waitress on a free port."""

from __future__ import annotations

import requests
from flask import Flask

from adapters.web.app import BackgroundServer, create_app


def test_healthz_and_mounted_routes_answer_over_http():
    def mount(app: Flask) -> None:
        app.add_url_rule("/hello", "hello", lambda: "你好")

    with BackgroundServer(create_app([mount])) as server:
        assert requests.get(f"{server.url}/healthz", timeout=5).json() == {"status": "ok"}
        assert requests.get(f"{server.url}/hello", timeout=5).text == "你好"
        assert requests.get(f"{server.url}/nope", timeout=5).status_code == 404
