"""PR analyses and the full-text search index (FTS5 trigram on SQLite, pg_trgm on PostgreSQL).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# Written by hand: autogenerate sees neither the FTS5 virtual table nor the trigram index.
SQLITE_FTS = [
    "CREATE VIRTUAL TABLE pr_search_fts USING fts5(document, content='pr_search', content_rowid='pr_id', "
    "tokenize='trigram')",
    "CREATE TRIGGER pr_search_ai AFTER INSERT ON pr_search BEGIN "
    "INSERT INTO pr_search_fts(rowid, document) VALUES (new.pr_id, new.document); END",
    "CREATE TRIGGER pr_search_ad AFTER DELETE ON pr_search BEGIN "
    "INSERT INTO pr_search_fts(pr_search_fts, rowid, document) VALUES ('delete', old.pr_id, old.document); END",
    "CREATE TRIGGER pr_search_au AFTER UPDATE ON pr_search BEGIN "
    "INSERT INTO pr_search_fts(pr_search_fts, rowid, document) VALUES ('delete', old.pr_id, old.document); "
    "INSERT INTO pr_search_fts(rowid, document) VALUES (new.pr_id, new.document); END",
]


def upgrade() -> None:
    op.create_table(
        "pr_analyses",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("pr_id", sa.Integer, sa.ForeignKey("pull_requests.id", ondelete="CASCADE"), nullable=False),
        sa.Column("analyzer", sa.String(40), nullable=False),
        sa.Column("analyzer_version", sa.String(40), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("input_hash", sa.String(64), nullable=False),
        sa.Column("importance", sa.Float, nullable=False),
        sa.Column("insight", sa.Float, nullable=False),
        sa.Column("verdict", sa.String(20), nullable=False),
        sa.Column("change_type", sa.String(20), nullable=False),
        sa.Column("breaking", sa.Boolean, nullable=False),
        sa.Column("modules", sa.JSON, nullable=False),
        sa.Column("fields", sa.JSON, nullable=False),
        sa.Column("fallback_reason", sa.Text),
        sa.Column("prompt_tokens", sa.Integer, nullable=False),
        sa.Column("completion_tokens", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_pr_analyses_pr_content", "pr_analyses", ["pr_id", "content_hash"])
    op.create_index("ix_pr_analyses_input", "pr_analyses", ["pr_id", "input_hash"])
    op.create_table(
        "pr_search",
        sa.Column(
            "pr_id",
            sa.Integer,
            sa.ForeignKey("pull_requests.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("repo_id", sa.Integer, sa.ForeignKey("repos.id", ondelete="CASCADE"), nullable=False),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_index("ix_pr_search_repo_id", "pr_search", ["repo_id"])
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for statement in SQLITE_FTS:
            op.execute(statement)
    elif dialect == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        op.execute("CREATE INDEX ix_pr_search_document_trgm ON pr_search USING gin (document gin_trgm_ops)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in ("pr_search_ai", "pr_search_ad", "pr_search_au"):
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.execute("DROP TABLE IF EXISTS pr_search_fts")
    op.drop_table("pr_search")
    op.drop_index("ix_pr_analyses_input", "pr_analyses")
    op.drop_index("ix_pr_analyses_pr_content", "pr_analyses")
    op.drop_table("pr_analyses")
