"""The sync planner's state: when each repo is planned next (repos.next_sync_at), and the rate budgets
GitHub last reported for each credential (api_budgets: the token, or one GitHub App installation), so
`prhub status` can show both.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN on both databases: a batch rebuild of `repos` on SQLite would drop the table.
    op.add_column("repos", sa.Column("next_sync_at", sa.DateTime, nullable=True))
    op.add_column("repos", sa.Column("sync_note", sa.String(200), nullable=True))
    op.create_table(
        "api_budgets",
        sa.Column("credential", sa.String(100), primary_key=True),
        sa.Column("rest_remaining", sa.Integer, nullable=True),
        sa.Column("rest_limit", sa.Integer, nullable=True),
        sa.Column("rest_reset_at", sa.DateTime, nullable=True),
        sa.Column("graphql_remaining", sa.Integer, nullable=True),
        sa.Column("graphql_limit", sa.Integer, nullable=True),
        sa.Column("graphql_reset_at", sa.DateTime, nullable=True),
        sa.Column("observed_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("api_budgets")
    with op.batch_alter_table("repos") as batch:
        batch.drop_column("sync_note")
        batch.drop_column("next_sync_at")
