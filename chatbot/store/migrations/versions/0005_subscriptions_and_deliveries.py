"""Subscriptions, their audit log, and the delivery ledger.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "subscriptions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(20), nullable=False),
        sa.Column("workspace", sa.String(100), nullable=False),
        sa.Column("channel", sa.String(200), nullable=False),
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("weekday", sa.Integer, nullable=False),
        sa.Column("time_of_day", sa.String(5), nullable=False),
        sa.Column("timezone", sa.String(64), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("filters", sa.JSON, nullable=False),
        sa.Column("created_by", sa.String(200)),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint(
            "platform", "workspace", "channel", "repo_id", name="uq_subscriptions_channel_repo"
        ),
    )
    op.create_table(
        "subscription_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("subscription_id", sa.Integer, sa.ForeignKey("subscriptions.id", ondelete="SET NULL")),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(200)),
        sa.Column("platform", sa.String(20), nullable=False),
        sa.Column("channel", sa.String(200), nullable=False),
        sa.Column("repo", sa.String(200), nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "deliveries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "subscription_id",
            sa.Integer,
            sa.ForeignKey("subscriptions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("period", sa.String(16), nullable=False),
        sa.Column("due_at", sa.DateTime, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("claimed_by", sa.String(100)),
        sa.Column("claimed_at", sa.DateTime),
        sa.Column("next_attempt_at", sa.DateTime),
        sa.Column("message_ref", sa.String(200)),
        sa.Column("last_error", sa.Text),
        sa.Column("sent_at", sa.DateTime),
        sa.UniqueConstraint("subscription_id", "period", name="uq_deliveries_subscription_period"),
    )
    op.create_index("ix_deliveries_state", "deliveries", ["state"])


def downgrade() -> None:
    op.drop_table("deliveries")
    op.drop_table("subscription_events")
    op.drop_table("subscriptions")
