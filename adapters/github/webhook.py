"""The GitHub webhook at `/github/webhook`: a merged pull request is fetched, stored and analysed within
seconds, so answers are fresh without waiting for the hourly sync.

The signature (`X-Hub-Signature-256`, HMAC-SHA256 of the raw body with GITHUB_WEBHOOK_SECRET) is checked
first: a bad one is 401. Other events and unmerged closes are 204. Deliveries are deduplicated by
`X-GitHub-Delivery`, and the work happens on a worker thread after a 202.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask, Response, request

from adapters.github.rest import MalformedPayload, header_from_rest
from chatbot.analysis.runner import BatchAnalyzer, analyze_stored
from chatbot.ports import Clock, PRSource, SourceError
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
        workers: int = 2,
    ) -> None:
        self.db, self.clock, self.secret, self.source, self.analyzer = db, clock, secret, source, analyzer
        self.language = language
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="prhub-webhook")

    def mount(self, app: Flask) -> None:
        app.add_url_rule("/github/webhook", "github_webhook", self.receive, methods=["POST"])

    def receive(self) -> Response:
        body = request.get_data(cache=False)
        given = request.headers.get("X-Hub-Signature-256", "")
        if not hmac.compare_digest(given, signature_of(self.secret, body)):
            return Response("bad signature", status=401)
        if request.headers.get("X-GitHub-Event") != "pull_request":
            return Response(status=204)
        try:
            payload: dict[str, Any] = json.loads(body)
            pull, repo = payload["pull_request"], payload["repository"]["full_name"]
        except (ValueError, KeyError, TypeError):
            return Response("malformed payload", status=400)
        if payload.get("action") != "closed" or not pull.get("merged_at"):
            return Response(status=204)
        delivery = (
            request.headers.get("X-GitHub-Delivery")
            or f"{repo}#{pull.get('number')}:{pull.get('updated_at')}"
        )
        if not claim_event(self.db, "github", delivery, self.clock.now()):
            return Response(status=204)  # a redelivery: already taken
        self.executor.submit(self.ingest, repo.lower(), pull)
        return Response(status=202)

    def ingest(self, repo: str, pull: dict[str, Any]) -> None:
        """Fetch the PR's files, reviews and comments, store it, and analyse it (the cache skips the rest)."""
        try:
            header = header_from_rest(pull, repo)
            pr = self.source().fetch_pull(header)
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
