"""The tables of feedback that corrects (migration 0015): 👍/👎 on answers and cards, corrections of a
PR's analysis, and each repo's calibration learned from the corrections. The logic is in
`chatbot/team/feedback.py`, `corrections.py` and `calibration.py`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from chatbot.store.schema import Base


class FeedbackRow(Base):
    """One person's 👍 or 👎 on one answer or card (a message): once per person and message (a second
    click, a duplicate delivery or a change of mind lands on the unique key), with the reason of a 👎,
    the question and the PRs the answer cited."""

    __tablename__ = "feedback"
    __table_args__ = (
        UniqueConstraint("platform", "workspace", "message_ref", "user_id", name="uq_feedback_voter"),
        Index("ix_feedback_created", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(20))
    workspace: Mapped[str] = mapped_column(String(200))
    channel: Mapped[str] = mapped_column(String(200))
    message_ref: Mapped[str] = mapped_column(String(200))  # the answer's message (ts, message id)
    user_id: Mapped[str] = mapped_column(String(200))
    user_name: Mapped[str] = mapped_column(String(200))
    vote: Mapped[str] = mapped_column(String(10))  # "up" | "down"
    reason: Mapped[str | None] = mapped_column(String(20))  # a 👎's reason (REASONS), once given
    reason_text: Mapped[str | None] = mapped_column(Text)
    question: Mapped[str] = mapped_column(Text)
    repo: Mapped[str | None] = mapped_column(String(200))
    cited: Mapped[list[Any]] = mapped_column(default=list)
    language: Mapped[str] = mapped_column(String(5))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class CorrectionRow(Base):
    """One correction of a PR's analysis, by who and when: the audit trail. `kind` is importance (value
    higher/lower), breaking (value no/yes) or risk (the missed risk in `text`)."""

    __tablename__ = "corrections"
    __table_args__ = (Index("ix_corrections_pr", "repo_id", "pr_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    pr_number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(20))
    value: Mapped[str] = mapped_column(String(20))
    text: Mapped[str | None] = mapped_column(Text)
    platform: Mapped[str] = mapped_column(String(20))
    workspace: Mapped[str] = mapped_column(String(200))
    user_id: Mapped[str] = mapped_column(String(200))
    user_name: Mapped[str] = mapped_column(String(200))
    source: Mapped[str] = mapped_column(Text)  # what they wrote
    created_at: Mapped[datetime]


class CalibrationRow(Base):
    """A repo's learned importance offset for one change class (`key`: "type:refactor",
    "module:trainer"), from `corrections` importance corrections (`prhub calibrate`)."""

    __tablename__ = "calibrations"
    __table_args__ = (UniqueConstraint("repo_id", "key", name="uq_calibrations_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    repo_id: Mapped[int] = mapped_column(ForeignKey("repos.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(100))
    offset: Mapped[float] = mapped_column(Float)
    corrections: Mapped[int]
    updated_at: Mapped[datetime]
