"""repos.followed and repos.installation_id: a repo an organisation's GitHub App installation made prhub
follow (PRHUB_AUTOFOLLOW) is synced every hour like a subscribed one, with that installation's budget.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN on both databases: a batch rebuild of `repos` on SQLite would drop the table.
    op.add_column("repos", sa.Column("followed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("repos", sa.Column("installation_id", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("repos") as batch:
        batch.drop_column("installation_id")
        batch.drop_column("followed")
