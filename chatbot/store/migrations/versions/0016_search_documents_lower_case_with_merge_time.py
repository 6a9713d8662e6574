"""Search documents are stored lower-case and carry their PR's merge time.

PostgreSQL then finds a phrase with LIKE instead of ILIKE (ILIKE lower-cases every candidate document
again: 25 ms against 8 ms to recheck the 2,100 documents of the benchmark's biggest repo holding "oom"),
and orders and windows the matches by `pr_search.merged_at` without joining `pull_requests`: for a
phrase with many matches the planner hashed all 100,000 PRs to find their merge times (90-130 ms against
8 ms, EXPLAIN ANALYZE, bench/qa.py). SQLite's FTS5 trigram index folds case itself; its documents are
lower-cased too, so both databases store the same text, and an index over (repo_id, merged_at) lets a
search within a window read only the window's documents (PostgreSQL gets no such btree: its planner
would filter the repo's documents through it instead of using the trigram index, see 0012).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pr_search", sa.Column("merged_at", sa.DateTime, nullable=True))
    op.execute(
        "UPDATE pr_search SET document = lower(document), "
        "merged_at = (SELECT merged_at FROM pull_requests WHERE pull_requests.id = pr_search.pr_id)"
    )
    if op.get_bind().dialect.name == "sqlite":
        op.create_index("ix_pr_search_repo_merged", "pr_search", ["repo_id", "merged_at"])
    else:
        op.execute("ANALYZE pr_search")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.drop_index("ix_pr_search_repo_merged", "pr_search")
    op.execute("ALTER TABLE pr_search DROP COLUMN merged_at")  # SQLite 3.35+ drops a column in place
