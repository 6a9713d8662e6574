"""Upgrading a database that holds data keeps every row: a schema of an earlier release (0008, the
last one before this series of migrations) with a repo, its pull requests and their search documents
is migrated to the newest, on SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import text

from chatbot.store.db import head_revision, make_engine, upgrade

ROWS = 30


def test_an_upgrade_keeps_every_pull_request_and_search_document(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        upgrade(engine, "0008")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO repos (id, full_name, aliases, created_at) "
                    "VALUES (1, 'acme/widgets', '[]', '2026-06-01 00:00:00')"
                )
            )
            for number in range(1, ROWS + 1):
                connection.execute(
                    text(
                        "INSERT INTO pull_requests (id, repo_id, number, title, body, author, created_at,"
                        " updated_at, merged_at, html_url, base_ref, labels, additions, deletions,"
                        " changed_files, files, reviews, comments, content_hash, fetched_at) VALUES"
                        " (:n, 1, :n, 'fix: widget', '', 'alice', '2026-06-01 00:00:00',"
                        " '2026-06-01 00:00:00', '2026-06-02 00:00:00', 'https://github.com/acme/widgets/pull/1',"
                        " 'main', '[]', 1, 1, 1, '[]', '[]', '[]', 'h', '2026-06-02 00:00:00')"
                    ),
                    {"n": number},
                )
                connection.execute(
                    text("INSERT INTO pr_search (pr_id, repo_id, document) VALUES (:n, 1, 'Fix Widget')"),
                    {"n": number},
                )

        upgrade(engine)

        with engine.connect() as connection:
            assert connection.scalar(text("SELECT version_num FROM alembic_version")) == head_revision()
            assert connection.scalar(text("SELECT count(*) FROM repos")) == 1
            assert connection.scalar(text("SELECT count(*) FROM pull_requests")) == ROWS
            assert connection.scalar(text("SELECT count(*) FROM pr_search")) == ROWS
            # 0016: documents lower-case, with their PR's merge time
            documents = connection.execute(text("SELECT DISTINCT document, merged_at FROM pr_search")).all()
            assert [(d, str(m)[:10]) for d, m in documents] == [("fix widget", "2026-06-02")]
            if engine.dialect.name == "sqlite":
                assert connection.scalar(text("PRAGMA foreign_keys")) == 1  # enforced again afterwards
    finally:
        engine.dispose()
