"""PostgreSQL: a trigram index over (repo_id, document), so a search within one repo uses the index
instead of filtering every document of the repo by ILIKE (btree_gin puts repo_id into the GIN index).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS btree_gin")
        op.execute(
            "CREATE INDEX ix_pr_search_repo_document_trgm ON pr_search USING gin (repo_id, document gin_trgm_ops)"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_pr_search_repo_document_trgm")
