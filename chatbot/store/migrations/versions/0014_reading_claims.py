"""Reading claims: who said "I'll read it" for a PR of a card, when, and when they finished, with their
one-line takeaway.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reading_claims",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("pr_number", sa.Integer, nullable=False),
        sa.Column("platform", sa.String(20), nullable=False),
        sa.Column("workspace", sa.String(200), nullable=False),
        sa.Column("user_id", sa.String(200), nullable=False),
        sa.Column("user_name", sa.String(200), nullable=False),
        sa.Column("claimed_at", sa.DateTime, nullable=False),
        sa.Column("done_at", sa.DateTime, nullable=True),
        sa.Column("takeaway", sa.Text, nullable=True),
        sa.UniqueConstraint(
            "repo_id", "pr_number", "platform", "workspace", "user_id", name="uq_reading_claims_reader"
        ),
    )
    op.create_index("ix_reading_claims_pr", "reading_claims", ["repo_id", "pr_number"])


def downgrade() -> None:
    op.drop_table("reading_claims")
