"""Weekly reports.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "weekly_reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("iso_year", sa.Integer, nullable=False),
        sa.Column("iso_week", sa.Integer, nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("window_start", sa.DateTime, nullable=False),
        sa.Column("window_end", sa.DateTime, nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("content", sa.JSON, nullable=False),
        sa.Column("generated_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("repo_id", "iso_year", "iso_week", "language", name="uq_weekly_reports_week"),
    )


def downgrade() -> None:
    op.drop_table("weekly_reports")
