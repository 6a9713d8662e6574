"""Fuzzing the three inbound endpoints of the real `prhub serve` app (built by `build_service`, called
in-process through its WSGI interface): random bodies and headers never get a 5xx, and never an answer
without a valid signature; random payloads with a valid signature never get a 5xx either."""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.github.webhook import signature_of
from adapters.web.app import create_app
from chatbot.config import Settings
from chatbot.store.db import Database
from prhub_cli.serve import Service, build_service
from tests.fakes.feishu import FakeFeishu
from tests.fakes.github import FakeGitHub
from tests.fakes.slack import BOT_TOKEN, SIGNING_SECRET, FakeSlack, signed
from tests.reports.fixtures import seed

WEBHOOK_SECRET = "fuzz-webhook-secret"
FEISHU_SECRET, FEISHU_KEY, FEISHU_TOKEN = "fuzz-feishu-secret", "fuzz-feishu-key", "fuzz-feishu-token"
PATHS = ("/slack/events", "/feishu/events", "/github/webhook")
HEADER_NAMES = (
    "Content-Type",
    "X-Slack-Request-Timestamp",
    "X-Slack-Signature",
    "X-Slack-Retry-Num",
    "X-Lark-Request-Timestamp",
    "X-Lark-Request-Nonce",
    "X-Lark-Signature",
    "X-Hub-Signature-256",
    "X-GitHub-Event",
    "X-GitHub-Delivery",
)
# Header values as a proxy passes them on: any Latin-1 text (what WSGI carries), no line breaks.
header_value = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"), max_size=80
)
json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
slack_like = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["event_callback", "url_verification", "block_actions", "x"])
        | st.text(max_size=8)
    },
    optional={
        "event": json_value,
        "event_id": json_value,
        "team_id": json_value,
        "challenge": json_value,
        "command": st.just("/prhub") | json_value,
        "text": json_value,
    },
)
github_like = st.fixed_dictionaries(
    {},
    optional={
        "action": st.sampled_from(["closed", "opened"]) | json_value,
        "pull_request": json_value | st.fixed_dictionaries({"number": json_value, "merged_at": json_value}),
        "repository": json_value | st.fixed_dictionaries({"full_name": st.text(max_size=30) | json_value}),
    },
)
body = (
    st.binary(max_size=600)
    | json_value.map(lambda v: json.dumps(v).encode())
    | slack_like.map(lambda v: json.dumps(v).encode())
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@dataclass
class Served:
    client: FlaskClient
    slack: FakeSlack
    github: FakeGitHub
    feishu: FakeFeishu
    service: Service

    def nothing_answered(self) -> bool:
        return (
            not self.slack.called("chat.postMessage")
            and not self.feishu.sent
            and not [c for c in self.github.calls if "/pulls/" in c.request.path]
        )


@pytest.fixture
def served(db: Database) -> Iterator[Served]:
    seed(db)
    with FakeSlack() as slack, FakeGitHub() as github, FakeFeishu(app_secret=FEISHU_SECRET) as feishu:
        assert (
            isinstance(slack, FakeSlack) and isinstance(github, FakeGitHub) and isinstance(feishu, FakeFeishu)
        )
        config = Settings(
            _env_file=None,  # type: ignore[call-arg]
            database_url="sqlite://",
            slack_bot_token=BOT_TOKEN,
            slack_signing_secret=SIGNING_SECRET,
            slack_api_url=slack.api_url,
            github_token="test-token",
            github_api_url=github.url,
            github_webhook_secret=WEBHOOK_SECRET,
            github_retry_backoff=0,
            feishu_app_id=f"cli_{uuid.uuid4().hex[:16]}",
            feishu_app_secret=FEISHU_SECRET,
            feishu_encrypt_key=FEISHU_KEY,
            feishu_verification_token=FEISHU_TOKEN,
            feishu_domain=feishu.url,
            openai_api_key="",
        )
        service = build_service(config, db, "web")
        try:
            yield Served(create_app(service.mounts).test_client(), slack, github, feishu, service)
        finally:
            service.stop()


def post(served: Served, path: str, data: bytes, headers: dict[str, str]) -> int:
    return served.client.post(path, data=data, headers=headers).status_code


@FUZZ
@given(
    path=st.sampled_from(PATHS),
    data=body,
    headers=st.dictionaries(st.sampled_from(HEADER_NAMES), header_value),
)
def test_unsigned_requests_never_get_a_5xx_nor_an_answer(served: Served, path: str, data: bytes, headers):
    status = post(served, path, data, headers)
    assert 400 <= status < 500, (path, data, headers, status)
    assert served.nothing_answered()


def feishu_signed(data: bytes) -> dict[str, str]:
    stamp, nonce = str(int(time.time())), uuid.uuid4().hex
    digest = hashlib.sha256((stamp + nonce + FEISHU_KEY).encode() + data).hexdigest()
    return {"X-Lark-Request-Timestamp": stamp, "X-Lark-Request-Nonce": nonce, "X-Lark-Signature": digest}


@FUZZ
@given(
    path=st.sampled_from(PATHS),
    payload=slack_like | github_like | json_value,
    content_type=st.sampled_from(["application/json", "application/x-www-form-urlencoded", "text/plain"]),
    event=st.sampled_from(["pull_request", "ping", "issues"]),
)
def test_signed_payloads_of_any_shape_never_get_a_5xx(
    served: Served, path: str, payload: Any, content_type: str, event: str
):
    data = json.dumps(payload).encode()
    if path == "/slack/events":
        headers = signed(data.decode(), SIGNING_SECRET, content_type=content_type)
    elif path == "/feishu/events":
        headers = feishu_signed(data)
    else:
        headers = {"X-GitHub-Event": event, "X-Hub-Signature-256": signature_of(WEBHOOK_SECRET, data)}
    status = post(served, path, data, {"Content-Type": content_type, **headers})
    assert status < 500, (path, payload, status)
