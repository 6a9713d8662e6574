"""Bulk import of already-fetched pull requests (JSON-lines exports) through the same upsert path."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sqlalchemy.exc import SQLAlchemyError

from chatbot.models import PullRequest
from chatbot.ports import Clock
from chatbot.store.db import Database
from chatbot.store.index import PRIndex, UpsertCounts, storage_error

BATCH = 200


@dataclass
class ImportReport(UpsertCounts):
    repo: str = ""
    skipped: int = 0  # not merged: the index holds merged PRs only
    failed: int = 0
    errors: list[str] = field(default_factory=list)


def import_pull_requests(
    db: Database,
    repo: str,
    items: Iterable[PullRequest | Exception],
    *,
    clock: Clock,
    on_progress: Callable[[int], None] | None = None,
) -> ImportReport:
    """Upsert every PR of `items` into `repo`, committing every BATCH rows. An item may be an
    exception (a line that could not be parsed): it is counted and reported, and the import goes on;
    so does a PR the database refuses (recorded in `fetch_failures`)."""
    report = ImportReport(repo=repo.lower())
    batch: list[PullRequest] = []

    def store(prs: list[PullRequest]) -> None:
        counts = UpsertCounts()
        with db.session() as session:
            index = PRIndex(session)
            repo_row = index.ensure_repo(repo, clock.now())
            for pr in prs:
                counts.count(index.upsert(repo_row, pr, clock.now()))
        report.new, report.updated = report.new + counts.new, report.updated + counts.updated
        report.unchanged += counts.unchanged

    def flush() -> None:
        try:
            store(batch)
        except SQLAlchemyError:
            # The database refused one of the batch: store them one by one, so only that one is lost,
            # and record it as a fetch failure, which the next `prhub sync` fetches again.
            for pr in batch:
                try:
                    store([pr])
                except SQLAlchemyError as exc:
                    record(pr.number, storage_error(exc))
        batch.clear()

    def record(number: int, message: str) -> None:
        with db.session() as session:
            index = PRIndex(session)
            index.record_failure(index.ensure_repo(repo, clock.now()), number, message, clock.now())
        report.failed += 1
        report.errors.append(f"#{number}: {message}")

    for seen, item in enumerate(items, start=1):
        if isinstance(item, Exception):
            report.failed += 1
            report.errors.append(str(item))
        elif item.header.merged_at is None:
            report.skipped += 1
        else:
            batch.append(item)
            if len(batch) >= BATCH:
                flush()
        if on_progress:
            on_progress(seen)
    flush()
    return report
