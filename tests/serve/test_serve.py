"""`prhub serve` as a deployment runs it: a subprocess on a free port, with fake Slack and GitHub servers.
A signed Slack mention gets an answer, a GitHub webhook delivery updates the index and the next answer
cites the new PR, /healthz and /metrics answer, and SIGTERM exits 0 promptly."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests

from adapters.github.webhook import signature_of
from chatbot.store.db import open_database
from tests.fakes.feishu import FakeFeishu, text_event
from tests.fakes.feishu import push as push_feishu
from tests.fakes.github import FakeGitHub
from tests.fakes.slack import BOT_TOKEN, SIGNING_SECRET, FakeSlack, event_body, mention, signed
from tests.fakes.slack import WAIT as SLACK_WAIT
from tests.reports.fixtures import REPO, seed

WEBHOOK_SECRET = "serve-test-webhook-secret"
FEISHU_SECRET, FEISHU_KEY, FEISHU_TOKEN = "feishu-app-secret-x1", "feishu-encrypt-key-x1", "feishu-token-x1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def fakes() -> Iterator[tuple[FakeSlack, FakeGitHub, FakeFeishu]]:
    with FakeSlack() as slack, FakeGitHub() as github, FakeFeishu(app_secret=FEISHU_SECRET) as feishu:
        assert (
            isinstance(slack, FakeSlack) and isinstance(github, FakeGitHub) and isinstance(feishu, FakeFeishu)
        )
        yield slack, github, feishu


@pytest.fixture
def served(database_url: str, tmp_path: Path, fakes):  # type: ignore[no-untyped-def]
    slack, github, feishu = fakes
    db = open_database(database_url)
    seed(db)
    db.dispose()
    port = free_port()
    env = {
        **os.environ,
        "PRHUB_DATABASE_URL": database_url,
        "PRHUB_TIMEZONE": "Asia/Shanghai",
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "SLACK_API_URL": slack.api_url,
        "SLACK_APP_TOKEN": "",
        "GITHUB_TOKEN": "test-token",
        "GITHUB_API_URL": github.url,
        "GITHUB_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "GITHUB_RETRY_BACKOFF": "0",
        "OPENAI_API_KEY": "",
        "FEISHU_APP_ID": f"cli_{uuid.uuid4().hex[:16]}",
        "FEISHU_APP_SECRET": FEISHU_SECRET,
        "FEISHU_ENCRYPT_KEY": FEISHU_KEY,
        "FEISHU_VERIFICATION_TOKEN": FEISHU_TOKEN,
        "FEISHU_DOMAIN": feishu.url,
        "FEISHU_MODE": "http",
        "PRHUB_PUBLIC_URL": "",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "prhub_cli", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # a start on a loaded box imports for tens of seconds
    while True:  # wait for the process to come up (polling a real process, not a timing assumption)
        try:
            if requests.get(f"{base}/healthz", timeout=1).ok:
                break
        except requests.ConnectionError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"prhub serve did not start:\n{process.communicate(timeout=5)[0]}")
        time.sleep(0.05)
    try:
        yield base, process, slack, github, feishu
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def test_serve_answers_slack_indexes_webhooks_and_stops_on_sigterm(served):
    base, process, slack, github, feishu = served
    # a signed mention gets an answer in the thread
    body = event_body(mention("上周 widgets 有哪些风险？"), event_id="EvServe1")
    response = requests.post(
        f"{base}/slack/events",
        data=body.encode(),
        headers=signed(body, content_type="application/json"),
        timeout=5,
    )
    assert response.status_code == 200
    [answer] = slack.wait_for("chat.update")  # the thinking message, updated in place
    [thinking] = slack.called("chat.postMessage", ok=True)
    assert thinking.params["thread_ts"] == "1750000000.000001" and "widgets" in answer.params["text"]

    # a merged PR arrives by webhook; the next answer cites it
    merged = datetime.now(UTC).replace(microsecond=0)
    pull = github.add_pull(REPO, 4242, title="[trainer] feat: brand new trainer hook", merged_at=merged)
    payload = json.dumps(
        {"action": "closed", "pull_request": pull.data, "repository": {"full_name": REPO}}
    ).encode()
    hook = requests.post(
        f"{base}/github/webhook",
        data=payload,
        timeout=5,
        headers={
            "X-GitHub-Event": "pull_request",
            "X-GitHub-Delivery": str(uuid.uuid4()),
            "X-Hub-Signature-256": signature_of(WEBHOOK_SECRET, payload),
            "Content-Type": "application/json",
        },
    )
    assert hook.status_code == 202
    deadline = time.monotonic() + SLACK_WAIT
    cited = False
    n = 2
    while not cited and time.monotonic() < deadline:
        body = event_body(mention("#4242 讲了什么"), event_id=f"EvServe{n}")
        requests.post(
            f"{base}/slack/events",
            data=body.encode(),
            headers=signed(body, content_type="application/json"),
            timeout=5,
        )
        answers = slack.wait_for("chat.update", count=n)  # thinking messages, updated
        cited = "brand new trainer hook" in answers[-1].params["text"]
        n += 1
    assert cited

    # a Feishu group mention, encrypted and signed, gets a card reply in its thread
    event = text_event("@_user_1 上周 widgets 有什么改动？")
    assert push_feishu(f"{base}/feishu/events", event.payload(FEISHU_TOKEN), FEISHU_KEY).status_code == 200
    # (a thinking card first, updated in place into the answer)
    [sent] = feishu.wait_shown(lambda shown: "widgets" in json.dumps([s.content for s in shown]))
    assert sent.reply_in_thread and "widgets" in json.dumps(sent.content, ensure_ascii=False)

    assert requests.get(f"{base}/healthz", timeout=5).json() == {"status": "ok"}
    metrics = requests.get(f"{base}/metrics", timeout=5).text
    assert 'prhub_events_handled{platform="slack"}' in metrics and "prhub_sync_lag_seconds" in metrics
    assert 'prhub_answers_total{intent="risks",platform="slack"} 1.0' in metrics

    process.send_signal(signal.SIGTERM)
    # A bound for a loaded box (the shutdown drains the scheduler and the servers), not a wait.
    assert process.wait(timeout=60) == 0
    output = process.stdout.read()
    assert "on: Slack events at /slack/events" in output and "on: GitHub webhook" in output
    assert "on: Feishu events at /feishu/events" in output
    assert "stopped" in output
