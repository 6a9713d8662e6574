"""Conversations: the last question of each thread or direct chat, for follow-ups across replicas.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "conversations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(20), nullable=False),
        sa.Column("workspace", sa.String(200), nullable=False),
        sa.Column("channel", sa.String(200), nullable=False),
        sa.Column("thread", sa.String(200), nullable=False),
        sa.Column("query", sa.JSON, nullable=False),
        sa.Column("cited", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("platform", "workspace", "channel", "thread", name="uq_conversations"),
    )
    op.create_index("ix_conversations_expires_at", "conversations", ["expires_at"])


def downgrade() -> None:
    op.drop_table("conversations")
