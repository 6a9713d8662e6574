"""An index over (repo_id, lower(author)) of pull requests: "carol 的 PR", "PRs by carol in verl" find the
author's PRs of a repo without reading every PR of it (all time on the benchmark's 100,000 PRs: the
check that each has an analysis read 6,400 PRs of one repo, 50 ms on PostgreSQL).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE INDEX ix_pull_requests_repo_author ON pull_requests (repo_id, lower(author))")


def downgrade() -> None:
    op.execute("DROP INDEX ix_pull_requests_repo_author")
