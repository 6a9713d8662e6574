"""The GitHub webhook at `/github/webhook`: a merged pull request is fetched, stored and analysed within
seconds, so answers are fresh without waiting for the hourly sync.

The signature (`X-Hub-Signature-256`, HMAC-SHA256 of the raw body with GITHUB_WEBHOOK_SECRET) is checked
first, before anything of the body is parsed: a bad one is 401, logged by size only. A signed body that
is not a pull_request event of the expected shape is 400. Other events, unmerged closes and repos that
are not indexed (or not in PRHUB_ALLOWED_REPOS) are 204. Deliveries are deduplicated by
`X-GitHub-Delivery`, and the work happens on a worker thread after a 202.

With a GitHub App, the app's one webhook URL receives every repo's events, and also `installation` and
`installation_repositories`: when the installing account is in PRHUB_AUTOFOLLOW (and the repo in
PRHUB_ALLOWED_REPOS when that is set), the repos it grants are followed (synced hourly, backfilled at
once through `on_follow`), and the repos it takes away, or all of them when the app is uninstalled or
suspended, are no longer followed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, request

from adapters.github.rest import MalformedPayload, header_from_rest
from chatbot.analysis.runner import BatchAnalyzer, analyze_stored
from chatbot.ingest.follow import follow_repos, unfollow_repos
from chatbot.ports import Clock, PRSource, SourceError
from chatbot.repos import is_repo_name
from chatbot.store.db import Database
from chatbot.store.events import claim_event
from chatbot.store.index import PRIndex

log = logging.getLogger(__name__)


def signature_of(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class GitHubWebhook:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        secret: str,
        source: Callable[[], PRSource],
        analyzer: Callable[[], BatchAnalyzer],
        language: str,
        allowed: frozenset[str] = frozenset(),
        workers: int = 2,
        autofollow: frozenset[str] = frozenset(),
        on_follow: Callable[[str], None] | None = None,
    ) -> None:
        self.db, self.clock, self.secret, self.source, self.analyzer = db, clock, secret, source, analyzer
        self.language, self.allowed = language, allowed
        self.autofollow, self.on_follow = autofollow, on_follow
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="prhub-webhook")

    def mount(self, app: Flask) -> None:
        app.add_url_rule("/github/webhook", "github_webhook", self.receive, methods=["POST"])

    def receive(self) -> Response:
        body = request.get_data(cache=False)  # the app's MAX_CONTENT_LENGTH makes a larger body a 413
        given = request.headers.get("X-Hub-Signature-256", "")
        if not (given.isascii() and hmac.compare_digest(given, signature_of(self.secret, body))):
            log.warning("github webhook: refused a request without a valid signature (%d bytes)", len(body))
            return Response("bad signature", status=401)
        kind = request.headers.get("X-GitHub-Event")
        if kind in ("installation", "installation_repositories"):
            return self.installation(kind, body)
        if kind != "pull_request":
            return Response(status=204)
        event = pull_request_event(body)
        if event is None:
            return Response("malformed payload", status=400)
        action, repo, pull = event
        if action != "closed" or not pull.get("merged_at"):
            return Response(status=204)
        if not self.follows(repo):
            return Response(status=204)  # not a repo we index: no row, no fetch
        delivery = (
            request.headers.get("X-GitHub-Delivery") or f"{repo}#{pull['number']}:{pull.get('updated_at')}"
        )
        if not claim_event(self.db, "github", delivery[:200], self.clock.now()):
            return Response(status=204)  # a redelivery: already taken
        self.executor.submit(self.ingest, repo, pull)
        return Response(status=202)

    def installation(self, kind: str, body: bytes) -> Response:
        """Follow or stop following the repos an installation of an autofollowed account changes."""
        change = installation_event(kind, body)
        if change is None:
            return Response("malformed payload", status=400)
        if change.account.lower() not in self.autofollow:
            return Response(status=204)
        delivery = request.headers.get("X-GitHub-Delivery") or f"{kind}:{change.installation_id}:{body!r}"
        if not claim_event(self.db, "github", delivery[:200], self.clock.now()):
            return Response(status=204)
        if change.removed or change.uninstalled:
            stopped = unfollow_repos(
                self.db, change.removed, change.installation_id if change.uninstalled else None
            )
            log.info("github app: no longer following %s", ", ".join(stopped) or "any repo")
        added = [r for r in change.added if not self.allowed or r in self.allowed]
        started = follow_repos(self.db, added, change.installation_id, self.clock.now())
        for repo in started:
            log.info("github app: %s installed on %s; following it", change.account, repo)
            if self.on_follow is not None:
                self.executor.submit(self.on_follow, repo)
        return Response(status=202)

    def follows(self, repo: str) -> bool:
        """Whether `repo` is indexed already (subscribed or synced) and, with PRHUB_ALLOWED_REPOS set,
        allowed: a signed delivery for any other repo must not add one."""
        if self.allowed and repo not in self.allowed:
            return False
        with self.db.session() as session:
            return PRIndex(session).repo(repo) is not None

    def ingest(self, repo: str, pull: dict[str, Any]) -> None:
        """Fetch the PR's files, reviews and comments, store it, and analyse it (the cache skips the rest)."""
        try:
            header = header_from_rest(pull, repo)
            pr = self.source().fetch_pulls([header])[0]  # GraphQL + REST when the server has GraphQL
            if isinstance(pr, SourceError):
                raise pr
            with self.db.session() as session:
                index = PRIndex(session)
                index.upsert(index.ensure_repo(repo, self.clock.now()), pr, self.clock.now())
            analyze_stored(
                self.db,
                self.analyzer(),
                language=self.language,
                clock=self.clock,
                repo=repo,
                since=header.merged_at,
            )
        except (SourceError, MalformedPayload) as exc:
            log.warning(
                "webhook: could not ingest %s#%s (the next sync will): %s", repo, pull.get("number"), exc
            )
        except Exception:
            log.exception("webhook: ingesting %s#%s failed", repo, pull.get("number"))

    def drain(self) -> None:
        """Finish in-flight work (SIGTERM), then stop taking more."""
        self.executor.shutdown(wait=True, cancel_futures=False)


def pull_request_event(body: bytes) -> tuple[str, str, dict[str, Any]] | None:
    """(action, repo lower-cased, pull request) of a pull_request event; None when the body is not one
    with an object `pull_request`, an integer `number` and a valid repo name."""
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    pull, repository = payload.get("pull_request"), payload.get("repository")
    if not (isinstance(pull, dict) and isinstance(repository, dict)):
        return None
    repo = repository.get("full_name")
    if not (isinstance(repo, str) and is_repo_name(repo) and type(pull.get("number")) is int):
        return None
    return str(payload.get("action")), repo.lower(), pull


@dataclass(frozen=True, slots=True)
class InstallationChange:
    """What an `installation` or `installation_repositories` event changes."""

    installation_id: int
    account: str
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    uninstalled: bool = False


_UNINSTALLED = frozenset({"deleted", "suspend"})


def installation_event(kind: str, body: bytes) -> InstallationChange | None:
    """The change an installation event makes; None when the body is not one (an installation object
    with an integer id and an account login, repo lists of valid names)."""
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("installation"), dict):
        return None
    installation = payload["installation"]
    account = installation.get("account")
    login = account.get("login") if isinstance(account, dict) else None
    if type(installation.get("id")) is not int or not isinstance(login, str):
        return None
    action = payload.get("action")
    if kind == "installation":
        lists = {"created": "repositories", "unsuspend": "repositories"}
        added = _repo_names(payload.get(lists.get(str(action), ""), []))
        removed: tuple[str, ...] | None = ()
    else:
        added = _repo_names(payload.get("repositories_added", []))
        removed = _repo_names(payload.get("repositories_removed", []))
    if added is None or removed is None:
        return None
    return InstallationChange(
        installation["id"],
        login,
        added,
        removed,
        uninstalled=kind == "installation" and action in _UNINSTALLED,
    )


def _repo_names(items: Any) -> tuple[str, ...] | None:
    if not isinstance(items, list):
        return None
    names = []
    for item in items:
        name = item.get("full_name") if isinstance(item, dict) else None
        if not (isinstance(name, str) and is_repo_name(name)):
            return None
        names.append(name.lower())
    return tuple(names)
