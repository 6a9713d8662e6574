"""Feedback that corrects: 👍/👎 on answers and cards, corrections of PR analyses (the audit trail), and
each repo's importance calibration learned from them.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "feedback",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(20), nullable=False),
        sa.Column("workspace", sa.String(200), nullable=False),
        sa.Column("channel", sa.String(200), nullable=False),
        sa.Column("message_ref", sa.String(200), nullable=False),
        sa.Column("user_id", sa.String(200), nullable=False),
        sa.Column("user_name", sa.String(200), nullable=False),
        sa.Column("vote", sa.String(10), nullable=False),
        sa.Column("reason", sa.String(20), nullable=True),
        sa.Column("reason_text", sa.Text, nullable=True),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("repo", sa.String(200), nullable=True),
        sa.Column("cited", sa.JSON, nullable=False),
        sa.Column("language", sa.String(5), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("platform", "workspace", "message_ref", "user_id", name="uq_feedback_voter"),
    )
    op.create_index("ix_feedback_created", "feedback", ["created_at"])
    op.create_table(
        "corrections",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("pr_number", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("value", sa.String(20), nullable=False),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("platform", sa.String(20), nullable=False),
        sa.Column("workspace", sa.String(200), nullable=False),
        sa.Column("user_id", sa.String(200), nullable=False),
        sa.Column("user_name", sa.String(200), nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_corrections_pr", "corrections", ["repo_id", "pr_number"])
    op.create_table(
        "calibrations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("offset", sa.Float, nullable=False),
        sa.Column("corrections", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("repo_id", "key", name="uq_calibrations_key"),
    )


def downgrade() -> None:
    op.drop_table("calibrations")
    op.drop_table("corrections")
    op.drop_table("feedback")
