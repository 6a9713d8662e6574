"""`installation` and `installation_repositories` deliveries at the app's one webhook URL: the repos of an
account in PRHUB_AUTOFOLLOW are followed (and backfilled), taken away or uninstalled ones are not."""

from __future__ import annotations

import json
import threading
import uuid
from datetime import UTC, datetime

import pytest
import requests

from adapters.github.source import GitHubSource
from adapters.github.webhook import GitHubWebhook, signature_of
from adapters.web.app import BackgroundServer, create_app
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.analysis.runner import OfflineBatch
from chatbot.clock import FixedClock
from chatbot.config import Settings
from chatbot.ingest.follow import followed_repos
from chatbot.store.index import PRIndex
from scheduler.jobs import SyncJob
from tests.fakes.github import FakeGitHub

SECRET = "webhook-secret-for-tests"


@pytest.fixture
def served(db):  # type: ignore[no-untyped-def]
    clock = FixedClock(datetime.now(UTC).replace(microsecond=0))
    followed: list[str] = []
    done = threading.Semaphore(0)

    def on_follow(repo: str) -> None:
        followed.append(repo)
        done.release()

    with FakeGitHub(now=clock.now) as github:
        assert isinstance(github, FakeGitHub)
        settings = Settings(_env_file=None, github_token="test-token", github_api_url=github.url)
        heuristic = HeuristicAnalyzer()
        webhook = GitHubWebhook(
            db,
            clock,
            SECRET,
            lambda: GitHubSource(settings),
            lambda: OfflineBatch(heuristic.analyze, heuristic.name, heuristic.version),
            "en",
            autofollow=frozenset({"acme", "solo-dev"}),
            on_follow=on_follow,
        )
        with BackgroundServer(create_app([webhook.mount])) as server:
            yield server, webhook, followed


def deliver(server, payload, event, secret=SECRET, delivery=None):  # type: ignore[no-untyped-def]
    body = json.dumps(payload).encode()
    headers = {
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery or str(uuid.uuid4()),
        "X-Hub-Signature-256": signature_of(secret, body),
        "Content-Type": "application/json",
    }
    return requests.post(f"{server.url}/github/webhook", data=body, headers=headers, timeout=5)


def installation(account: str, installation_id: int = 42, kind: str = "Organization") -> dict:  # type: ignore[type-arg]
    return {
        "id": installation_id,
        "account": {"login": account, "type": kind},
        "repository_selection": "selected",
    }


def repos(*names: str) -> list[dict]:  # type: ignore[type-arg]
    return [
        {"id": n, "name": name.split("/")[1], "full_name": name, "private": False}
        for n, name in enumerate(names)
    ]


@pytest.mark.parametrize("account", ["acme", "ACME", "solo-dev"])
def test_a_new_installation_of_an_autofollowed_account_follows_its_repos(db, served, account):
    server, webhook, followed = served
    payload = {
        "action": "created",
        "installation": installation(account),
        "repositories": repos(f"{account}/Widgets", f"{account}/gadgets"),
    }
    assert deliver(server, payload, "installation", delivery="i-1").status_code == 202
    assert deliver(server, payload, "installation", delivery="i-1").status_code == 204  # redelivery
    webhook.drain()
    names = sorted([f"{account.lower()}/widgets", f"{account.lower()}/gadgets"])
    assert sorted(followed) == names  # each backfilled once
    assert list(followed_repos(db)) == names
    with db.session() as session:
        assert {r.installation_id for r in PRIndex(session).repos()} == {42}
    assert sorted(SyncJob(db, lambda: None, lambda: None, "en").repos()) == names  # type: ignore[arg-type,return-value]


def test_an_account_not_in_autofollow_is_left_alone(db, served):
    server, webhook, followed = served
    payload = {
        "action": "created",
        "installation": installation("other-org"),
        "repositories": repos("other-org/x"),
    }
    assert deliver(server, payload, "installation").status_code == 204
    webhook.drain()
    assert followed == [] and list(followed_repos(db)) == []
    with db.session() as session:
        assert PRIndex(session).repos() == []


def test_repos_added_and_removed_and_the_app_uninstalled(db, served):
    server, webhook, followed = served
    created = {"action": "created", "installation": installation("acme"), "repositories": repos("acme/a")}
    assert deliver(server, created, "installation").status_code == 202
    changed = {
        "action": "added",
        "installation": installation("acme"),
        "repository_selection": "selected",
        "repositories_added": repos("acme/b", "acme/c"),
        "repositories_removed": [],
    }
    assert deliver(server, changed, "installation_repositories").status_code == 202
    removed = {
        **changed,
        "action": "removed",
        "repositories_added": [],
        "repositories_removed": repos("acme/a"),
    }
    assert deliver(server, removed, "installation_repositories").status_code == 202
    assert list(followed_repos(db)) == ["acme/b", "acme/c"]
    other = {
        "action": "created",
        "installation": installation("solo-dev", 43, "User"),
        "repositories": repos("solo-dev/t"),
    }
    assert deliver(server, other, "installation").status_code == 202
    deleted = {
        "action": "deleted",
        "installation": installation("acme"),
        "repositories": repos("acme/b", "acme/c"),
    }
    assert deliver(server, deleted, "installation").status_code == 202
    webhook.drain()
    assert list(followed_repos(db)) == ["solo-dev/t"]  # the other installation's repo stays followed
    with db.session() as session:
        assert len(PRIndex(session).repos()) == 4  # what was indexed is kept
    assert sorted(followed) == ["acme/a", "acme/b", "acme/c", "solo-dev/t"]


@pytest.mark.parametrize(
    "payload",
    [
        {"action": "created"},
        {"action": "created", "installation": {"id": "42", "account": {"login": "acme"}}},
        {"action": "created", "installation": {"id": 42, "account": None}},
        {
            "action": "created",
            "installation": installation("acme"),
            "repositories": [{"full_name": "no slash"}],
        },
        {"action": "created", "installation": installation("acme"), "repositories": "acme/x"},
        [1, 2],
    ],
)
def test_a_signed_installation_event_of_the_wrong_shape_is_a_400(db, served, payload):
    server = served[0]
    assert deliver(server, payload, "installation").status_code == 400
    assert list(followed_repos(db)) == []


def test_an_unsigned_installation_event_is_refused(db, served):
    server = served[0]
    payload = {"action": "created", "installation": installation("acme"), "repositories": repos("acme/a")}
    assert deliver(server, payload, "installation", secret="wrong").status_code == 401
    assert list(followed_repos(db)) == []
