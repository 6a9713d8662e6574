"""The table of reading claims (migration 0014); the logic is in `chatbot/team/reading.py`."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from chatbot.store.schema import Base


class ReadingClaimRow(Base):
    """One person's "I'll read it" for one PR: once per reader (a second click, a duplicate delivery
    or a race lands on the unique key), with when they finished and their one-line takeaway."""

    __tablename__ = "reading_claims"
    __table_args__ = (
        UniqueConstraint(
            "repo_id", "pr_number", "platform", "workspace", "user_id", name="uq_reading_claims_reader"
        ),
        Index("ix_reading_claims_pr", "repo_id", "pr_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    pr_number: Mapped[int]
    platform: Mapped[str] = mapped_column(String(20))
    workspace: Mapped[str] = mapped_column(String(200))
    user_id: Mapped[str] = mapped_column(String(200))
    user_name: Mapped[str] = mapped_column(String(200))  # as the platform named them at the click
    claimed_at: Mapped[datetime]
    done_at: Mapped[datetime | None]
    takeaway: Mapped[str | None] = mapped_column(Text)
