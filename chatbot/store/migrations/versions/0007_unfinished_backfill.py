"""repos.backfill_floor: the merge date an unfinished walk (a backfill killed or stopped part way) must
reach, so that any later sync resumes it instead of treating the repo as complete.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("repos") as batch:
        batch.add_column(sa.Column("backfill_floor", sa.DateTime, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("repos") as batch:
        batch.drop_column("backfill_floor")
