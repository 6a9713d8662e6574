"""Tables of the risk ledger (migration 0011): risk entries, their follow-up links, the audit trail, and
how far each repo's ledger has read the stored analyses. The logic is in `chatbot/team/ledger.py`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from chatbot.store.schema import Base


class RiskEntryRow(Base):
    """One risk of one PR. `key` is its stable id (PR, category, file, function): analysing the PR again
    updates the entry instead of adding one. `state` is open, followed-up, resolved, accepted or
    withdrawn (a later analysis of the PR no longer finds it); `state_at` is when that state began, in
    the repo's own time (a follow-up's merge) or the time of the person's decision."""

    __tablename__ = "risk_entries"
    __table_args__ = (
        UniqueConstraint("key", name="uq_risk_entries_key"),
        Index("ix_risk_entries_repo_state", "repo_id", "state", "raised_at"),
        Index("ix_risk_entries_pr", "pr_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(16))
    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    pr_id: Mapped[int] = mapped_column(ForeignKey("pull_requests.id", ondelete="CASCADE"))
    pr_number: Mapped[int]
    category: Mapped[str] = mapped_column(String(20))
    severity: Mapped[str] = mapped_column(String(8))
    evidence: Mapped[str] = mapped_column(Text)
    file: Mapped[str] = mapped_column(String(500))  # "" when the evidence names no file of the PR
    symbol: Mapped[str] = mapped_column(String(200))  # the function (or config key) the risk sits in
    texts: Mapped[dict[str, Any]]  # the mechanism sentence by language: {"zh": …, "en": …}
    modules: Mapped[list[Any]]
    analyzer_version: Mapped[str] = mapped_column(String(40))
    state: Mapped[str] = mapped_column(String(16))
    state_at: Mapped[datetime]
    closed_by: Mapped[str | None] = mapped_column(String(200))  # who resolved or accepted it by hand
    closed_reason: Mapped[str | None] = mapped_column(Text)
    raised_at: Mapped[datetime]  # the PR's merge
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class RiskLinkRow(Base):
    """A later PR that follows a risk up: it changes the same function (`function`), cites the PR
    (`cites`) or says it fixes it (`fixes`). An undone link is kept, so maintenance never links it again."""

    __tablename__ = "risk_links"
    __table_args__ = (
        UniqueConstraint("entry_id", "pr_id", name="uq_risk_links_entry_pr"),
        Index("ix_risk_links_linked_at", "linked_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("risk_entries.id", ondelete="CASCADE"))
    pr_id: Mapped[int] = mapped_column(ForeignKey("pull_requests.id", ondelete="CASCADE"))
    pr_number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(12))
    detail: Mapped[str] = mapped_column(String(500))  # the function, or the file, the two PRs share
    linked_at: Mapped[datetime]  # the follow-up's merge
    undone_at: Mapped[datetime | None]
    undone_by: Mapped[str | None] = mapped_column(String(200))
    undone_reason: Mapped[str | None] = mapped_column(Text)


class RiskEventRow(Base):
    """The audit trail of an entry's state: resolved, accepted, reopened, unlinked, withdrawn; by whom
    (None for the ledger's own maintenance, e.g. a merged "fixes #N"), why, and which PR it concerned.
    An entry's creation and its links are their own record (`created_at`, `risk_links`)."""

    __tablename__ = "risk_events"
    __table_args__ = (Index("ix_risk_events_entry", "entry_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("risk_entries.id", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(20))
    actor: Mapped[str | None] = mapped_column(String(200))
    reason: Mapped[str | None] = mapped_column(Text)
    pr_number: Mapped[int | None]
    at: Mapped[datetime]


class RiskLedgerCursorRow(Base):
    """The newest stored analysis (by id, of any repo) when a repo's ledger last took in analyses:
    maintenance reads only newer ones."""

    __tablename__ = "risk_ledger_cursors"

    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"), primary_key=True)
    analysis_id: Mapped[int]
    updated_at: Mapped[datetime]
