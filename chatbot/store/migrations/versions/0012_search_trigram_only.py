"""PostgreSQL: drop the btree index on pr_search.repo_id, so a search within one repo uses the trigram
index over (repo_id, document) of 0006. With both, the planner took the btree (it does not price reading
each large document for ILIKE) and filtered every document of the repo: 207 ms against 6 ms through the
trigram index on the 15,000 documents of the benchmark's biggest repo (EXPLAIN ANALYZE, bench/qa.py).
btree_gin makes the (repo_id, document) index serve a lookup by repo_id alone, which is all the other
uses need. SQLite keeps its index: searches there go through FTS5.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_pr_search_repo_id")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE INDEX IF NOT EXISTS ix_pr_search_repo_id ON pr_search (repo_id)")
