"""The GitHub webhook, with real signed requests to the served app and the real PyGithub client."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import requests

from adapters.github.source import GitHubSource
from adapters.github.webhook import GitHubWebhook, signature_of
from adapters.web.app import BackgroundServer, create_app
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.analysis.runner import OfflineBatch
from chatbot.clock import FixedClock
from chatbot.config import Settings
from chatbot.store.analyses import current_analysis
from chatbot.store.index import PRIndex
from tests.fakes.github import FakeGitHub

SECRET = "webhook-secret-for-tests"
REPO = "acme/widgets"


@pytest.fixture
def served(db):  # type: ignore[no-untyped-def]
    clock = FixedClock(datetime.now(UTC).replace(microsecond=0))
    with FakeGitHub(now=clock.now) as github:
        assert isinstance(github, FakeGitHub)
        settings = Settings(
            _env_file=None, github_token="test-token", github_api_url=github.url, github_retry_backoff=0
        )
        heuristic = HeuristicAnalyzer()
        with db.session() as session:
            PRIndex(session).ensure_repo(REPO, clock.now())  # followed: subscribed or synced before
        webhook = GitHubWebhook(
            db,
            clock,
            SECRET,
            lambda: GitHubSource(settings),
            lambda: OfflineBatch(heuristic.analyze, heuristic.name, heuristic.version),
            "zh",
            allowed=frozenset({REPO, "acme/allowed-but-not-indexed"}),
        )
        with BackgroundServer(create_app([webhook.mount])) as server:
            yield server, github, webhook, clock


def deliver(server, payload, event="pull_request", secret=SECRET, delivery=None):  # type: ignore[no-untyped-def]
    body = json.dumps(payload).encode()
    headers = {
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery or str(uuid.uuid4()),
        "X-Hub-Signature-256": signature_of(secret, body),
        "Content-Type": "application/json",
    }
    return requests.post(f"{server.url}/github/webhook", data=body, headers=headers, timeout=5)


def test_a_merged_pr_is_stored_and_analysed_right_away(db, served):
    server, github, webhook, clock = served
    pull = github.add_pull(REPO, 77, title="[rollout] fix: OOM when prompts are long", merged_at=clock.now())
    payload = {"action": "closed", "pull_request": pull.data, "repository": {"full_name": REPO}}
    assert deliver(server, payload, delivery="d-1").status_code == 202
    assert deliver(server, payload, delivery="d-1").status_code == 204  # GitHub's redelivery
    webhook.drain()
    with db.session() as session:
        index = PRIndex(session)
        row = index.pull_request_row(index.repo(REPO), 77)
        assert row is not None and current_analysis(session, row) is not None
    assert [p for p in github.paths() if p.endswith("/files")] == [f"/repos/{REPO}/pulls/77/files"]


def test_a_bad_signature_is_refused_and_nothing_is_done(db, served):
    server, github, webhook, clock = served
    pull = github.add_pull(REPO, 78, merged_at=clock.now())
    payload = {"action": "closed", "pull_request": pull.data, "repository": {"full_name": REPO}}
    assert deliver(server, payload, secret="wrong").status_code == 401
    webhook.drain()
    assert github.calls == []


def test_other_events_and_unmerged_closes_are_ignored(db, served):
    server, github, _webhook, clock = served
    closed = github.add_pull(REPO, 79, merged_at=None, updated_at=clock.now() - timedelta(minutes=1))
    assert deliver(server, {"zen": "Keep it logically awesome."}, event="ping").status_code == 204
    assert (
        deliver(
            server, {"action": "closed", "pull_request": closed.data, "repository": {"full_name": REPO}}
        ).status_code
        == 204
    )
    assert deliver(server, {"action": "opened"}, event="issues").status_code == 204


def repo_names(db) -> list[str]:  # type: ignore[no-untyped-def]
    with db.session() as session:
        return [r.full_name for r in PRIndex(session).repos()]


@pytest.mark.parametrize(
    "repo",
    ["acme/allowed-but-not-indexed", "torvalds/linux", "../../rate_limit", "acme/widgets/../../x/y"],
)
def test_a_repo_we_do_not_follow_is_answered_204_and_gets_no_row(db, served, repo):
    server, github, webhook, clock = served
    pull = github.add_pull(REPO, 80, merged_at=clock.now())
    payload = {"action": "closed", "pull_request": pull.data, "repository": {"full_name": repo}}
    assert deliver(server, payload).status_code in (204, 400)
    webhook.drain()
    assert repo_names(db) == [REPO]
    assert github.calls == []


def test_a_signed_payload_of_the_wrong_shape_is_a_400(db, served):
    server, github, webhook, clock = served
    pull = github.add_pull(REPO, 81, merged_at=clock.now())
    for payload in (
        {"action": "closed", "pull_request": "x", "repository": {"full_name": REPO}},
        {"action": "closed", "pull_request": None, "repository": {"full_name": REPO}},
        {
            "action": "closed",
            "pull_request": {**pull.data, "number": "81"},
            "repository": {"full_name": REPO},
        },
        {"action": "closed", "pull_request": pull.data, "repository": "acme/widgets"},
        {"action": "closed", "pull_request": pull.data, "repository": {"full_name": ["acme/widgets"]}},
        [],
        None,
    ):
        assert deliver(server, payload).status_code == 400, payload
    webhook.drain()
    assert github.calls == []


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Hub-Signature-256": "sha256=é".encode().decode("latin-1")},
        {"X-Hub-Signature-256": ""},
        {},
    ],
)
def test_a_missing_or_non_ascii_signature_is_a_401_not_a_500(db, served, headers, caplog):
    server, _github, _webhook, _clock = served
    body = b"\xff\xfe{not json" + b"x" * 5000
    response = requests.post(
        f"{server.url}/github/webhook",
        data=body,
        headers={"X-GitHub-Event": "pull_request", "Connection": "close", **headers},
        timeout=5,
    )
    assert response.status_code == 401
    assert "xxxxx" not in caplog.text and "Traceback" not in caplog.text


def test_a_body_above_the_limit_is_a_413(db, served):
    server, _github, _webhook, _clock = served
    body = b"{" + b" " * (2 << 20)
    headers = {
        "X-GitHub-Event": "pull_request",
        "X-Hub-Signature-256": signature_of(SECRET, body),
        "Connection": "close",
    }
    response = requests.post(f"{server.url}/github/webhook", data=body, headers=headers, timeout=10)
    assert response.status_code == 413
