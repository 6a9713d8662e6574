"""Processed platform events (deduplication of retries and duplicate deliveries).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "processed_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(20), nullable=False),
        sa.Column("event_id", sa.String(200), nullable=False),
        sa.Column("received_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("platform", "event_id", name="uq_processed_events"),
    )
    op.create_index("ix_processed_events_received_at", "processed_events", ["received_at"])


def downgrade() -> None:
    op.drop_table("processed_events")
