"""Tables of the index. Alembic migrations (in `migrations/`) own the truth; these mirror them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
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
        # `combine` rather than `value.replace(tzinfo=UTC)`: the same time, a quarter of the cost in
        # CPython 3.11 (0.5 vs 2.3 µs), and a week's report reads four times per PR.
        return datetime.combine(value, value.time(), UTC) if value is not None else None


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
    # Set while a walk down to this merge date has not finished (killed, or stopped by the rate limit):
    # any later sync resumes it, and the repo is not complete until it does.
    backfill_floor: Mapped[datetime | None]
    # ETag of the first listing page at the last complete sync: an unchanged repo answers 304.
    list_etag: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime]
    # Followed because a GitHub App installation of an account in PRHUB_AUTOFOLLOW grants it: synced every
    # hour like a subscribed repo. `installation_id` is the installation that reads it.
    followed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    installation_id: Mapped[int | None] = mapped_column(BigInteger)
    # The sync planner's next planned sync, and why it waits when the budget holds it back.
    next_sync_at: Mapped[datetime | None]
    sync_note: Mapped[str | None] = mapped_column(String(200))


class ApiBudgetRow(Base):
    """The rate budgets GitHub last reported for one credential ("token" or "installation:<id>")."""

    __tablename__ = "api_budgets"

    credential: Mapped[str] = mapped_column(String(100), primary_key=True)
    rest_remaining: Mapped[int | None]
    rest_limit: Mapped[int | None]
    rest_reset_at: Mapped[datetime | None]
    graphql_remaining: Mapped[int | None]
    graphql_limit: Mapped[int | None]
    graphql_reset_at: Mapped[datetime | None]
    observed_at: Mapped[datetime]


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


class AnalysisRow(Base):
    """One analysis of one PR version. The PR's current analysis is the newest whose `content_hash`
    matches the PR's; `input_hash` (content + analyzer + version + language) is the cache key."""

    __tablename__ = "pr_analyses"
    __table_args__ = (
        Index("ix_pr_analyses_pr_content", "pr_id", "content_hash"),
        Index("ix_pr_analyses_input", "pr_id", "input_hash"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pr_id: Mapped[int] = mapped_column(ForeignKey("pull_requests.id", ondelete="CASCADE"))
    analyzer: Mapped[str] = mapped_column(String(40))
    analyzer_version: Mapped[str] = mapped_column(String(40))
    language: Mapped[str] = mapped_column(String(8))
    content_hash: Mapped[str] = mapped_column(String(64))
    input_hash: Mapped[str] = mapped_column(String(64))
    # Denormalised from `fields` so reports and questions can filter and sort in SQL.
    importance: Mapped[float]
    insight: Mapped[float]
    verdict: Mapped[str] = mapped_column(String(20))
    change_type: Mapped[str] = mapped_column(String(20))
    breaking: Mapped[bool]
    modules: Mapped[list[Any]]
    fields: Mapped[dict[str, Any]]
    fallback_reason: Mapped[str | None] = mapped_column(Text)
    prompt_tokens: Mapped[int] = mapped_column(default=0)
    completion_tokens: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime]


class SearchDocumentRow(Base):
    """The searchable text of a PR (title, Chinese title, summary, key points, risks, modules), stored
    lower-case and indexed by SQLite FTS5 trigram or PostgreSQL pg_trgm, with the PR's merge time (a
    search orders and windows its matches without reading `pull_requests`); see migrations 0002 and 0016
    and `chatbot/store/search.py`."""

    __tablename__ = "pr_search"

    pr_id: Mapped[int] = mapped_column(ForeignKey("pull_requests.id", ondelete="CASCADE"), primary_key=True)
    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"), index=True)
    document: Mapped[str] = mapped_column(Text)
    # Written with the document (a merged PR's merge time does not change); NULL only before 0016 ran.
    merged_at: Mapped[datetime | None]


class WeeklyReportRow(Base):
    """A built weekly report. `fingerprint` covers the week's PRs and analyses (and the previous week's
    counts): when it changes, the report is rebuilt and `version` goes up."""

    __tablename__ = "weekly_reports"
    __table_args__ = (
        UniqueConstraint("repo_id", "iso_year", "iso_week", "language", name="uq_weekly_reports_week"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    iso_year: Mapped[int]
    iso_week: Mapped[int]
    language: Mapped[str] = mapped_column(String(8))
    window_start: Mapped[datetime]
    window_end: Mapped[datetime]
    fingerprint: Mapped[str] = mapped_column(String(64))
    version: Mapped[int]
    content: Mapped[dict[str, Any]]
    generated_at: Mapped[datetime]


class ProcessedEventRow(Base):
    """An inbound platform event already taken: Slack and Feishu retries and duplicate deliveries of the
    same event id are answered once (the insert of the second copy fails on the unique key)."""

    __tablename__ = "processed_events"
    __table_args__ = (UniqueConstraint("platform", "event_id", name="uq_processed_events"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(20))
    event_id: Mapped[str] = mapped_column(String(200))
    received_at: Mapped[datetime] = mapped_column(index=True)


class SubscriptionRow(Base):
    """A channel that receives a repo's weekly report card at its weekday and time, in its timezone."""

    __tablename__ = "subscriptions"
    __table_args__ = (
        UniqueConstraint("platform", "workspace", "channel", "repo_id", name="uq_subscriptions_channel_repo"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(20))
    workspace: Mapped[str] = mapped_column(String(100), default="")
    channel: Mapped[str] = mapped_column(String(200))
    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    weekday: Mapped[int]  # ISO: 1 = Monday … 7 = Sunday
    time_of_day: Mapped[str] = mapped_column(String(5))  # "09:00"
    timezone: Mapped[str] = mapped_column(String(64))
    language: Mapped[str] = mapped_column(String(8))
    filters: Mapped[dict[str, Any]]  # modules, min_importance, exclude_authors
    created_by: Mapped[str | None] = mapped_column(String(200))
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class SubscriptionEventRow(Base):
    """The audit log of subscription changes: who did what, when, with which settings."""

    __tablename__ = "subscription_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subscription_id: Mapped[int | None] = mapped_column(ForeignKey("subscriptions.id", ondelete="SET NULL"))
    action: Mapped[str] = mapped_column(String(40))  # subscribed, updated, unsubscribed, deactivated, refused
    actor: Mapped[str | None] = mapped_column(String(200))
    platform: Mapped[str] = mapped_column(String(20))
    channel: Mapped[str] = mapped_column(String(200))
    repo: Mapped[str] = mapped_column(String(200))
    detail: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


class DeliveryRow(Base):
    """The ledger of pushes: one row per (subscription, period), claimed before sending, so a card is sent
    exactly once across restarts, crashes and replicas."""

    __tablename__ = "deliveries"
    __table_args__ = (
        UniqueConstraint("subscription_id", "period", name="uq_deliveries_subscription_period"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subscription_id: Mapped[int] = mapped_column(ForeignKey("subscriptions.id", ondelete="CASCADE"))
    period: Mapped[str] = mapped_column(String(16))  # the ISO week reported, "2026-W25"
    due_at: Mapped[datetime]
    # pending → sending → sent | failed (retry later) | skipped (too late, quiet filter…) | gone (channel)
    state: Mapped[str] = mapped_column(String(16), index=True)
    attempts: Mapped[int] = mapped_column(default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    claimed_at: Mapped[datetime | None]
    next_attempt_at: Mapped[datetime | None]
    message_ref: Mapped[str | None] = mapped_column(String(200))
    last_error: Mapped[str | None] = mapped_column(Text)
    sent_at: Mapped[datetime | None]


class ConversationRow(Base):
    """The last question of a conversation (a thread, or a direct chat), so a follow-up ("那上上周呢？")
    keeps its repo, window, intent and filters on whichever replica answers it; see
    `chatbot/qa/context.py`. Rows past `expires_at` are ignored and may be deleted."""

    __tablename__ = "conversations"
    __table_args__ = (
        UniqueConstraint("platform", "workspace", "channel", "thread", name="uq_conversations"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(20))
    workspace: Mapped[str] = mapped_column(String(200))
    channel: Mapped[str] = mapped_column(String(200))
    thread: Mapped[str] = mapped_column(String(200))
    query: Mapped[dict[str, Any]]
    cited: Mapped[list[Any]] = mapped_column(default=list)
    updated_at: Mapped[datetime]
    expires_at: Mapped[datetime] = mapped_column(index=True)
