"""Risk ledger: every risk of every analysed PR with a stable id and a state, its follow-up links and
the audit trail of what happened to it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "risk_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(16), nullable=False),
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("pr_id", sa.Integer, sa.ForeignKey("pull_requests.id", ondelete="CASCADE"), nullable=False),
        sa.Column("pr_number", sa.Integer, nullable=False),
        sa.Column("category", sa.String(20), nullable=False),
        sa.Column("severity", sa.String(8), nullable=False),
        sa.Column("evidence", sa.Text, nullable=False),
        sa.Column("file", sa.String(500), nullable=False),
        sa.Column("symbol", sa.String(200), nullable=False),
        sa.Column("texts", sa.JSON, nullable=False),
        sa.Column("modules", sa.JSON, nullable=False),
        sa.Column("analyzer_version", sa.String(40), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("state_at", sa.DateTime, nullable=False),
        sa.Column("closed_by", sa.String(200), nullable=True),
        sa.Column("closed_reason", sa.Text, nullable=True),
        sa.Column("raised_at", sa.DateTime, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("key", name="uq_risk_entries_key"),
    )
    op.create_index("ix_risk_entries_repo_state", "risk_entries", ["repo_id", "state", "raised_at"])
    op.create_index("ix_risk_entries_pr", "risk_entries", ["pr_id"])
    op.create_table(
        "risk_links",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "entry_id", sa.Integer, sa.ForeignKey("risk_entries.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("pr_id", sa.Integer, sa.ForeignKey("pull_requests.id", ondelete="CASCADE"), nullable=False),
        sa.Column("pr_number", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("detail", sa.String(500), nullable=False),
        sa.Column("linked_at", sa.DateTime, nullable=False),
        sa.Column("undone_at", sa.DateTime, nullable=True),
        sa.Column("undone_by", sa.String(200), nullable=True),
        sa.Column("undone_reason", sa.Text, nullable=True),
        sa.UniqueConstraint("entry_id", "pr_id", name="uq_risk_links_entry_pr"),
    )
    op.create_index("ix_risk_links_linked_at", "risk_links", ["linked_at"])
    op.create_table(
        "risk_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "entry_id", sa.Integer, sa.ForeignKey("risk_entries.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("actor", sa.String(200), nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("pr_number", sa.Integer, nullable=True),
        sa.Column("at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_risk_events_entry", "risk_events", ["entry_id"])
    op.create_table(
        "risk_ledger_cursors",
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("analysis_id", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("risk_ledger_cursors")
    op.drop_table("risk_events")
    op.drop_table("risk_links")
    op.drop_table("risk_entries")
