"""Tables of the index. Alembic migrations (in `migrations/`) own the truth; these mirror them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(TypeDecorator[datetime]):
    """Stores naive UTC on every backend and always hands back timezone-aware UTC."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use timezone-aware times")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None else None


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSON,
        list[Any]: JSON,
    }


class RepoRow(Base):
    """A followed repository and where its incremental sync stands."""

    __tablename__ = "repos"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    full_name: Mapped[str] = mapped_column(String(200), unique=True)
    aliases: Mapped[list[Any]] = mapped_column(default=list)
    default_branch: Mapped[str | None] = mapped_column(String(200))
    # Newest `updated_at` of the closed-PR listing at the last complete sync.
    sync_cursor: Mapped[datetime | None]
    # Earliest merge date that a complete sync has covered.
    synced_since: Mapped[datetime | None]
    last_synced_at: Mapped[datetime | None]
    # ETag of the first listing page at the last complete sync: an unchanged repo answers 304.
    list_etag: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime]


class PullRequestRow(Base):
    """One merged pull request as fetched, with its files, reviews and comments as JSON."""

    __tablename__ = "pull_requests"
    __table_args__ = (
        UniqueConstraint("repo_id", "number", name="uq_pull_requests_repo_number"),
        Index("ix_pull_requests_repo_merged", "repo_id", "merged_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    number: Mapped[int]
    title: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    author: Mapped[str] = mapped_column(String(200))
    author_name: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    merged_at: Mapped[datetime]
    closed_at: Mapped[datetime | None]
    html_url: Mapped[str] = mapped_column(String(500))
    base_ref: Mapped[str] = mapped_column(String(200))
    merge_commit_sha: Mapped[str | None] = mapped_column(String(64))
    labels: Mapped[list[Any]]
    additions: Mapped[int]
    deletions: Mapped[int]
    changed_files: Mapped[int]
    files: Mapped[list[Any]]
    reviews: Mapped[list[Any]]
    comments: Mapped[list[Any]]
    content_hash: Mapped[str] = mapped_column(String(64))
    fetched_at: Mapped[datetime]


class FetchFailureRow(Base):
    """A PR that could not be fetched; the next sync retries it and deletes the row on success."""

    __tablename__ = "fetch_failures"
    __table_args__ = (UniqueConstraint("repo_id", "number", name="uq_fetch_failures_repo_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    number: Mapped[int]
    error: Mapped[str] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(default=1)
    last_attempt_at: Mapped[datetime]
