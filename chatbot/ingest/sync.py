"""Incremental, idempotent sync of one repo's merged PRs from a `PRSource` into the index.

The walk lists closed PRs newest-updated first and stops at the cursor (the newest `updated_at` of the
last complete sync) or at `since` for a backfill. A PR whose `updated_at` matches the stored one is
skipped without a request; an unchanged repo costs one conditional request (304). A PR that fails is
recorded in `fetch_failures` and retried next time; it never aborts the batch. When the rate limit is
hit, the sync waits for the reset if that is within `max_wait`, else it stops cleanly, keeping what it
stored, and says when to retry; the cursor only moves after a complete walk. A walk into the past
(a backfill) is recorded on the repo row until it completes, so a later sync of any kind resumes it
after a crash or a stop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import TypeVar

from sqlalchemy.exc import SQLAlchemyError

from chatbot.models import PullHeader, PullRequest
from chatbot.ports import AuthenticationFailed, Clock, PRSource, RateLimited, SourceError
from chatbot.store.db import Database
from chatbot.store.index import PRIndex, UpsertCounts, storage_error

T = TypeVar("T")
FETCH_BATCH = 25  # PRs per fetch_pulls call: one GraphQL query's worth (about 3 points)


@dataclass(frozen=True, slots=True)
class SyncProgress:
    """What a progress display needs. `phase` is listing, fetching, waiting or retrying."""

    phase: str
    done: int
    total: int | None
    requests: int
    remaining: int | None
    wait_seconds: float = 0.0


@dataclass
class SyncReport(UpsertCounts):
    repo: str = ""
    failed: int = 0
    requests: int = 0
    graphql_points: int = 0
    not_modified: bool = False
    complete: bool = True
    stopped: str | None = None
    retry_at: datetime | None = None
    failures: list[tuple[int, str]] = field(default_factory=list)


class SyncStopped(Exception):
    """Raised inside the walk when the rate limit resets later than the caller is willing to wait."""

    def __init__(self, limited: RateLimited) -> None:
        super().__init__(str(limited))
        self.limited = limited


def sync_repo(
    db: Database,
    source: PRSource,
    repo: str,
    *,
    clock: Clock,
    since: datetime | None = None,
    backfill: timedelta = timedelta(weeks=8),
    max_wait: float = 900.0,
    on_progress: Callable[[SyncProgress], None] | None = None,
    max_requests: int | None = None,
) -> SyncReport:
    """Bring the index of `repo` up to date. `since` asks for every PR merged since then; without it a
    synced repo continues from its cursor and a new one backfills `backfill` back from now.

    Raises RepoNotFound or AuthenticationFailed (nothing is written then), SourceError for an error on
    the listing itself. With `max_requests` the run stops cleanly (as at the rate limit, to be resumed)
    once it has made that many REST requests: the sync planner's share of the budget for it."""
    sync = _RepoSync(db, source, repo.lower(), clock, max_wait, on_progress)
    sync.max_requests = max_requests
    return sync.run(since, backfill)


class _RepoSync:
    """One sync run of one repo: the walk, the fetches, the rate-limit policy and the report."""

    def __init__(
        self,
        db: Database,
        source: PRSource,
        repo: str,
        clock: Clock,
        max_wait: float,
        on_progress: Callable[[SyncProgress], None] | None,
    ) -> None:
        self.db, self.source, self.repo, self.clock, self.max_wait = db, source, repo, clock, max_wait
        self.notify = on_progress or (lambda _progress: None)
        self.report = SyncReport(repo=repo)
        self.max_requests: int | None = None
        started = source.budget()
        self.started_requests, self.started_points = started.requests_made, started.graphql_points

    def run(self, since: datetime | None, backfill: timedelta) -> SyncReport:
        with self.db.session() as session:
            index = PRIndex(session)
            row = index.repo(self.repo)
            cursor = row.sync_cursor if row else None
            synced_since = row.synced_since if row else None
            etag = row.list_etag if row else None
            unfinished = row.backfill_floor if row else None
            known = index.stored_updated_at(row) if row else {}
            retry_numbers = [f.number for f in index.failures(row)] if row else []

        # A walk that did not finish (killed, or stopped by the rate limit) is resumed by any later
        # sync; the PRs it already stored are skipped without a request.
        if unfinished is not None and (since is None or unfinished < since):
            since = unfinished
        # A walk down to `since` is needed when it reaches further back than what was covered before.
        deep = cursor is None or (since is not None and (synced_since is None or since < synced_since))
        floor = since if since is not None else (synced_since or self.clock.now() - backfill)
        stop_before = floor if deep or cursor is None else cursor
        try:
            to_fetch, newest, listing_etag = self._walk(
                stop_before, floor, known, None if deep else etag, floor if deep else None
            )
            fetching = {h.number for h in to_fetch}
            retries = [n for n in retry_numbers if n not in fetching]
            total = len(to_fetch) + len(retries)
            self._fetch_all(to_fetch, total)
            for done, number in enumerate(retries, start=len(to_fetch) + 1):
                self._fetch_and_store(number, None)
                self._progress("retrying", done, total)
        except SyncStopped as stopped:
            self.report.complete = False
            self.report.retry_at = stopped.limited.reset_at
            self.report.stopped = str(stopped.limited)
            self._progress("stopped", 0, None)
            return self.report

        with self.db.session() as session:
            repo_row = PRIndex(session).ensure_repo(self.repo, self.clock.now())
            if newest is not None and (repo_row.sync_cursor is None or newest > repo_row.sync_cursor):
                repo_row.sync_cursor = newest
            if repo_row.sync_cursor is None:
                repo_row.sync_cursor = floor  # an empty repo: next time, only what changes from now on
            if repo_row.synced_since is None or floor < repo_row.synced_since:
                repo_row.synced_since = floor
            if listing_etag and not self.report.not_modified:
                repo_row.list_etag = listing_etag
            repo_row.backfill_floor = None
            repo_row.last_synced_at = self.clock.now()
        self._progress("done", 0, None)
        return self.report

    def _walk(
        self,
        stop_before: datetime,
        floor: datetime,
        known: dict[int, datetime],
        etag: str | None,
        backfill_floor: datetime | None,
    ) -> tuple[list[PullHeader], datetime | None, str | None]:
        """List pages until `stop_before`; return the headers to fetch, the newest `updated_at` seen and
        the first page's ETag. PRs whose `updated_at` matches the stored one are counted unchanged.
        A deep walk records its `backfill_floor` once GitHub has answered (so a repo that does not
        exist gets no row), until the run completes."""
        to_fetch: list[PullHeader] = []
        newest: datetime | None = None
        page: str | None = None
        listing_etag: str | None = None
        while True:
            result = self._call(
                partial(self.source.list_closed_pulls, self.repo, page, etag if page is None else None)
            )
            if page is None:
                listing_etag = result.etag
                if result.not_modified:
                    self.report.not_modified = True
                    return [], None, listing_etag
                if backfill_floor is not None:
                    self._record_backfill(backfill_floor)
            for header in result.pulls:
                newest = header.updated_at if newest is None else max(newest, header.updated_at)
                if header.updated_at < stop_before:
                    return to_fetch, newest, listing_etag
                if header.merged_at is None or (header.merged_at < floor and header.number not in known):
                    continue
                if known.get(header.number) == header.updated_at:
                    self.report.unchanged += 1
                    continue
                to_fetch.append(header)
            self._progress("listing", len(to_fetch), None)
            if result.next_page is None:
                return to_fetch, newest, listing_etag
            page = result.next_page

    def _record_backfill(self, floor: datetime) -> None:
        with self.db.session() as session:
            row = PRIndex(session).ensure_repo(self.repo, self.clock.now())
            if row.backfill_floor is None or floor < row.backfill_floor:
                row.backfill_floor = floor

    def _fetch_all(self, headers: list[PullHeader], total: int) -> None:
        """Fetch the listed PRs, up to FETCH_BATCH at a time (one GraphQL query with a hybrid source), and
        store each; whatever the source did not fetch (REST one by one, or a batch cut short by the rate
        limit) is asked for again."""
        pending, done = list(headers), 0
        while pending:
            batch = pending[:FETCH_BATCH]
            results = self._call(partial(self.source.fetch_pulls, batch))
            for header, result in zip(batch, results, strict=False):
                self._store(header.number, result)
                done += 1
                self._progress("fetching", done, total)
            pending = pending[len(results) :]

    def _fetch_and_store(self, number: int, header: PullHeader | None) -> None:
        """Fetch one PR (its header too when only the number is known, as for retries) and upsert it in
        its own transaction. A failure is recorded, not raised; a rate-limit stop or a refused token
        ends the run."""
        try:
            known_header = header or self._call(lambda: self.source.get_pull(self.repo, number))
            pr: PullRequest | SourceError = self._call(lambda: self.source.fetch_pull(known_header))
        except AuthenticationFailed:
            raise
        except SourceError as exc:
            pr = exc
        self._store(number, pr)

    def _store(self, number: int, pr: PullRequest | SourceError) -> None:
        """Upsert one fetched PR in its own transaction, or record why it could not be fetched."""
        now = self.clock.now()
        if isinstance(pr, SourceError):
            self._record_failure(number, f"{pr.__class__.__name__}: {pr}", now)
            return
        try:
            with self.db.session() as session:
                index = PRIndex(session)
                repo_row = index.ensure_repo(self.repo, now)
                outcome = index.upsert(repo_row, pr, now) if pr.header.merged_at is not None else None
                index.clear_failure(repo_row, number)
        except SQLAlchemyError as exc:
            # One PR the database refuses must not stop the walk: it is recorded and retried next time.
            self._record_failure(number, storage_error(exc), now)
            return
        if outcome is not None:
            self.report.count(outcome)

    def _record_failure(self, number: int, message: str, now: datetime) -> None:
        with self.db.session() as session:
            index = PRIndex(session)
            index.record_failure(index.ensure_repo(self.repo, now), number, message, now)
        self.report.failed += 1
        self.report.failures.append((number, message))

    def _call(self, fn: Callable[[], T]) -> T:
        """Run a source call; wait out a rate limit within `max_wait` (with a countdown), else stop.
        Past `max_requests` the run stops before the call."""
        made = self.source.budget().requests_made - self.started_requests
        if self.max_requests is not None and made >= self.max_requests:
            share = RateLimited(
                f"this sync's share of the rate budget ({self.max_requests} requests) is spent",
                self.clock.now(),
            )
            raise SyncStopped(share)
        while True:
            try:
                return fn()
            except RateLimited as limited:
                wait = max(0.0, (limited.reset_at - self.clock.now()).total_seconds()) + 1.0
                if wait > self.max_wait:
                    raise SyncStopped(limited) from limited
                while wait > 0:
                    self._progress("waiting", 0, None, wait)
                    step = min(1.0, wait)
                    self.clock.sleep(step)
                    wait -= step

    def _progress(self, phase: str, done: int, total: int | None, wait: float = 0.0) -> None:
        budget = self.source.budget()
        self.report.requests = budget.requests_made - self.started_requests
        self.report.graphql_points = budget.graphql_points - self.started_points
        self.notify(SyncProgress(phase, done, total, self.report.requests, budget.remaining, wait))
