"""Reads and writes of the PR index: repos, pull requests, fetch failures."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, delete, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from chatbot.models import Comment, PRFile, PullHeader, PullRequest, Review
from chatbot.store.schema import FetchFailureRow, PullRequestRow, RepoRow
from chatbot.untrusted import clean_pull_request


class UpsertOutcome(enum.Enum):
    NEW = "new"
    UPDATED = "updated"
    UNCHANGED = "unchanged"


@dataclass(slots=True)
class UpsertCounts:
    """How many upserts created, changed or left alone a PR; the base of the sync and import reports."""

    new: int = 0
    updated: int = 0
    unchanged: int = 0

    def count(self, outcome: UpsertOutcome) -> None:
        if outcome is UpsertOutcome.NEW:
            self.new += 1
        elif outcome is UpsertOutcome.UPDATED:
            self.updated += 1
        else:
            self.unchanged += 1


class PRIndex:
    """The index as the core sees it, over one session. Callers own the transaction."""

    def __init__(self, session: Session) -> None:
        self.session = session

    # Repos -------------------------------------------------------------------------------------------

    def repo(self, full_name: str) -> RepoRow | None:
        return self.session.scalar(select(RepoRow).where(RepoRow.full_name == full_name.lower()))

    def ensure_repo(self, full_name: str, now: datetime) -> RepoRow:
        """The repo's row, created on first use. Names are stored lower-case, as GitHub compares them."""
        row = self.repo(full_name)
        if row is None:
            row = RepoRow(full_name=full_name.lower(), aliases=[], created_at=now)
            self.session.add(row)
            self.session.flush()
        return row

    def repos(self) -> Sequence[RepoRow]:
        return self.session.scalars(select(RepoRow).order_by(RepoRow.full_name)).all()

    # Pull requests -----------------------------------------------------------------------------------

    def stored_updated_at(self, repo: RepoRow) -> dict[int, datetime]:
        """`updated_at` of every stored PR of the repo, by number: what a sync compares against."""
        rows = self.session.execute(
            select(PullRequestRow.number, PullRequestRow.updated_at).where(PullRequestRow.repo_id == repo.id)
        )
        return {number: updated for number, updated in rows}

    def upsert(self, repo: RepoRow, pr: PullRequest, now: datetime) -> UpsertOutcome:
        """Insert or update one PR, its text cleaned first (`clean_pull_request`: every way into the
        index passes here). Unchanged content is not rewritten (only a newer `updated_at` is recorded,
        so the next sync skips it)."""
        pr = clean_pull_request(pr)
        h = pr.header
        if h.merged_at is None:
            raise ValueError(f"PR #{h.number} is not merged; the index holds merged PRs only")
        row = self.session.scalar(
            select(PullRequestRow).where(PullRequestRow.repo_id == repo.id, PullRequestRow.number == h.number)
        )
        if row is not None and row.content_hash == pr.content_hash:
            if row.updated_at != h.updated_at:
                row.updated_at = h.updated_at
            return UpsertOutcome.UNCHANGED
        outcome = UpsertOutcome.NEW if row is None else UpsertOutcome.UPDATED
        if row is None:
            row = PullRequestRow(repo_id=repo.id, number=h.number)
            self.session.add(row)
        row.title = h.title
        row.body = h.body
        row.author = h.author
        row.author_name = h.author_name
        row.created_at = h.created_at
        row.updated_at = h.updated_at
        row.merged_at = h.merged_at
        row.closed_at = h.closed_at
        row.html_url = h.html_url
        row.base_ref = h.base_ref
        row.merge_commit_sha = h.merge_commit_sha
        row.labels = list(h.labels)
        row.additions = pr.additions
        row.deletions = pr.deletions
        row.changed_files = pr.changed_files
        row.files = [f.to_dict() for f in pr.files]
        row.reviews = [r.to_dict() for r in pr.reviews]
        row.comments = [c.to_dict() for c in pr.comments]
        row.content_hash = pr.content_hash
        row.fetched_at = now
        return outcome

    def pull_request_row(self, repo: RepoRow, number: int) -> PullRequestRow | None:
        return self.session.scalar(
            select(PullRequestRow).where(PullRequestRow.repo_id == repo.id, PullRequestRow.number == number)
        )

    def pull_request(self, repo: RepoRow, number: int) -> PullRequest | None:
        row = self.pull_request_row(repo, number)
        return to_pull_request(repo, row) if row is not None else None

    def merged_between(self, repo: RepoRow, start: datetime, end: datetime) -> list[PullRequest]:
        """PRs merged in [start, end), oldest first."""
        rows = self.session.scalars(
            select(PullRequestRow)
            .where(
                PullRequestRow.repo_id == repo.id,
                PullRequestRow.merged_at >= start,
                PullRequestRow.merged_at < end,
            )
            .order_by(PullRequestRow.merged_at, PullRequestRow.number)
        )
        return [to_pull_request(repo, row) for row in rows]

    def latest_merged(self, repo: RepoRow, limit: int) -> list[PullRequest]:
        """The `limit` most recently merged PRs, newest first."""
        rows = self.session.scalars(
            select(PullRequestRow)
            .where(PullRequestRow.repo_id == repo.id)
            .order_by(PullRequestRow.merged_at.desc(), PullRequestRow.number.desc())
            .limit(limit)
        )
        return [to_pull_request(repo, row) for row in rows]

    # Fetch failures ----------------------------------------------------------------------------------

    def record_failure(self, repo: RepoRow, number: int, error: str, now: datetime) -> None:
        row = self.session.scalar(
            select(FetchFailureRow).where(
                FetchFailureRow.repo_id == repo.id, FetchFailureRow.number == number
            )
        )
        if row is None:
            self.session.add(
                FetchFailureRow(repo_id=repo.id, number=number, error=error, attempts=1, last_attempt_at=now)
            )
        else:
            row.error = error
            row.attempts += 1
            row.last_attempt_at = now

    def clear_failure(self, repo: RepoRow, number: int) -> None:
        self.session.execute(
            delete(FetchFailureRow).where(
                FetchFailureRow.repo_id == repo.id, FetchFailureRow.number == number
            )
        )

    def failures(self, repo: RepoRow) -> Sequence[FetchFailureRow]:
        return self.session.scalars(
            select(FetchFailureRow).where(FetchFailureRow.repo_id == repo.id).order_by(FetchFailureRow.number)
        ).all()


# The columns `header_pull_request` reads, in its order: a query selecting these (not the whole row)
# gives rows it accepts, without the ORM's per-row bookkeeping or decoding any patch.
HEADER_COLUMNS = (
    PullRequestRow.id,
    PullRequestRow.number,
    PullRequestRow.title,
    PullRequestRow.body,
    PullRequestRow.author,
    PullRequestRow.author_name,
    PullRequestRow.created_at,
    PullRequestRow.updated_at,
    PullRequestRow.merged_at,
    PullRequestRow.closed_at,
    PullRequestRow.html_url,
    PullRequestRow.base_ref,
    PullRequestRow.merge_commit_sha,
    PullRequestRow.labels,
    PullRequestRow.reviews,
    PullRequestRow.additions,
    PullRequestRow.deletions,
    PullRequestRow.changed_files,
    PullRequestRow.content_hash,
)


# The columns `to_pull_request` reads, in its order: the header's, then the files and comments.
WHOLE_COLUMNS = (*HEADER_COLUMNS, PullRequestRow.files, PullRequestRow.comments)


def to_pull_request(repo: RepoRow, row: PullRequestRow | Row[Any] | Sequence[Any]) -> PullRequest:
    """The stored PR as the core's type, with its files and comments: from an ORM row, or from a row
    whose first columns are WHOLE_COLUMNS (read by position, as `header_pull_request`)."""
    values = (
        [getattr(row, column.key) for column in WHOLE_COLUMNS] if isinstance(row, PullRequestRow) else row
    )
    files, comments = values[len(HEADER_COLUMNS)], values[len(HEADER_COLUMNS) + 1]
    return header_pull_request(
        repo,
        values,
        files=tuple(PRFile.from_dict(f) for f in files),
        comments=tuple(Comment.from_dict(c) for c in comments),
    )


def header_pull_request(
    repo: RepoRow,
    row: Row[Any] | Sequence[Any],
    *,
    files: tuple[PRFile, ...] = (),
    comments: tuple[Comment, ...] = (),
) -> PullRequest:
    """The PR of a row whose first columns are HEADER_COLUMNS, without its files (with their patches)
    and comments unless given: they are most of a PR's JSON, and a reader of stored analyses (the weekly
    report) needs neither; the counts of files and lines stay. The row is unpacked by position: a
    `Row`'s attribute access by name costs ten times an index, and a report reads 19 columns of 300 PRs."""
    (
        _,
        number,
        title,
        body,
        author,
        author_name,
        created_at,
        updated_at,
        merged_at,
        closed_at,
        html_url,
        base_ref,
        merge_commit_sha,
        labels,
        reviews,
        additions,
        deletions,
        changed_files,
        content_hash,
    ) = row[: len(HEADER_COLUMNS)]
    header = PullHeader(
        repo=repo.full_name,
        number=number,
        title=title,
        body=body,
        author=author,
        author_name=author_name,
        created_at=created_at,
        updated_at=updated_at,
        merged_at=merged_at,
        closed_at=closed_at,
        html_url=html_url,
        base_ref=base_ref,
        merge_commit_sha=merge_commit_sha,
        labels=tuple(labels),
    )
    return PullRequest(
        header=header,
        files=files,
        reviews=tuple(Review.from_dict(r) for r in reviews),
        comments=comments,
        additions=additions,
        deletions=deletions,
        changed_files=changed_files,
        content_hash=content_hash,
    )


def storage_error(exc: SQLAlchemyError) -> str:
    """A short description of a refused write for `fetch_failures` and reports: the driver's first line,
    never the statement and its parameters (they hold the whole PR)."""
    cause = getattr(exc, "orig", None) or exc
    first = (str(cause).strip().splitlines() or [""])[0]
    return f"database refused the PR: {cause.__class__.__name__}: {first}"[:500]
