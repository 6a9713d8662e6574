"""Repos, pull requests and fetch failures.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "repos",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("full_name", sa.String(200), nullable=False, unique=True),
        sa.Column("aliases", sa.JSON, nullable=False),
        sa.Column("default_branch", sa.String(200)),
        sa.Column("sync_cursor", sa.DateTime),
        sa.Column("synced_since", sa.DateTime),
        sa.Column("last_synced_at", sa.DateTime),
        sa.Column("list_etag", sa.String(200)),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "pull_requests",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("author_name", sa.String(200)),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.Column("merged_at", sa.DateTime, nullable=False),
        sa.Column("closed_at", sa.DateTime),
        sa.Column("html_url", sa.String(500), nullable=False),
        sa.Column("base_ref", sa.String(200), nullable=False),
        sa.Column("merge_commit_sha", sa.String(64)),
        sa.Column("labels", sa.JSON, nullable=False),
        sa.Column("additions", sa.Integer, nullable=False),
        sa.Column("deletions", sa.Integer, nullable=False),
        sa.Column("changed_files", sa.Integer, nullable=False),
        sa.Column("files", sa.JSON, nullable=False),
        sa.Column("reviews", sa.JSON, nullable=False),
        sa.Column("comments", sa.JSON, nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("fetched_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("repo_id", "number", name="uq_pull_requests_repo_number"),
    )
    op.create_index("ix_pull_requests_repo_merged", "pull_requests", ["repo_id", "merged_at"])
    op.create_table(
        "fetch_failures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("error", sa.Text, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("last_attempt_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("repo_id", "number", name="uq_fetch_failures_repo_number"),
    )


def downgrade() -> None:
    op.drop_table("fetch_failures")
    op.drop_index("ix_pull_requests_repo_merged", "pull_requests")
    op.drop_table("pull_requests")
    op.drop_table("repos")
