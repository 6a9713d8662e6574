"""Full-text search over PR search documents, one API for both databases (INTEGRATION §6).

SQLite: FTS5 with the trigram tokenizer (no word segmentation needed, so Chinese works) when every
term has at least 3 characters, ranked by bm25; shorter terms (`飞书`, `OOM` is fine, `显存` is not)
fall back to LIKE on the base table. PostgreSQL: ILIKE per term, served by a pg_trgm GIN index.
Every term must match (AND).
"""

from __future__ import annotations

import re
from datetime import datetime

from sqlalchemy import Float, Integer, and_, column, or_, select, text
from sqlalchemy.orm import Session

from chatbot.store.schema import PullRequestRow, SearchDocumentRow

_SPLIT = re.compile(r"[\s,，、;；]+")
MIN_TRIGRAM_TERM = 3


def search_terms(query: str) -> list[str]:
    """The query's terms: split on whitespace and common punctuation, lower-cased, de-duplicated."""
    seen: dict[str, None] = {}
    for term in _SPLIT.split(query.strip().lower()):
        term = term.strip("\"'“”‘’()（）?？!！.。")
        if term:
            seen.setdefault(term, None)
    return list(seen)


def _escape_like(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def search_pull_requests(
    session: Session,
    query: str,
    *,
    repo_id: int | None = None,
    start: datetime | None = None,
    end: datetime | None = None,
    limit: int = 50,
) -> list[int]:
    """Ids of the PRs whose search document contains every term of `query`, best first (bm25 on
    SQLite FTS, else newest merge first), optionally within one repo and a merge window [start, end)."""
    terms = search_terms(query)
    if not terms:
        return []
    conditions = []
    if repo_id is not None:
        conditions.append(SearchDocumentRow.repo_id == repo_id)
    if start is not None:
        conditions.append(PullRequestRow.merged_at >= start)
    if end is not None:
        conditions.append(PullRequestRow.merged_at < end)
    base = select(SearchDocumentRow.pr_id).join(PullRequestRow, PullRequestRow.id == SearchDocumentRow.pr_id)

    dialect = session.get_bind().dialect.name
    if dialect == "sqlite" and all(len(t) >= MIN_TRIGRAM_TERM for t in terms):
        match = " AND ".join('"' + t.replace('"', '""') + '"' for t in terms)
        fts = text(
            "SELECT rowid AS pr_id, bm25(pr_search_fts) AS rank FROM pr_search_fts WHERE pr_search_fts MATCH :m"
        )
        ranked = fts.columns(column("pr_id", Integer), column("rank", Float)).subquery("fts")
        statement = (
            base.join(ranked, ranked.c.pr_id == SearchDocumentRow.pr_id)
            .where(*conditions)
            .order_by(ranked.c.rank, PullRequestRow.merged_at.desc())
            .limit(limit)
        )
        return list(session.scalars(statement, {"m": match}))

    document = SearchDocumentRow.document
    if dialect == "postgresql":
        long_terms = [t for t in terms if len(t) >= MIN_TRIGRAM_TERM]
        short_terms = [t for t in terms if len(t) < MIN_TRIGRAM_TERM]
        if long_terms and short_terms:
            # Only terms with trigrams go to SQL, so the (repo_id, document) trigram index is used; a
            # 1-2 character term would make the planner scan every document of the repo instead.
            rows = session.execute(
                base.add_columns(document)
                .where(
                    *[document.ilike(f"%{_escape_like(t)}%", escape="\\") for t in long_terms], *conditions
                )
                .order_by(PullRequestRow.merged_at.desc())
            ).all()
            found = [pr_id for pr_id, text_ in rows if all(t in text_.lower() for t in short_terms)]
            return found[:limit]
        like = [document.ilike(f"%{_escape_like(t)}%", escape="\\") for t in terms]
    else:  # SQLite's LIKE is already case-insensitive for ASCII (and CJK has no case)
        like = [document.like(f"%{_escape_like(t)}%", escape="\\") for t in terms]
    statement = base.where(and_(*like), *conditions).order_by(PullRequestRow.merged_at.desc()).limit(limit)
    return list(session.scalars(statement))


def search_any(
    session: Session,
    phrases: list[str],
    *,
    repo_id: int,
    start: datetime | None = None,
    end: datetime | None = None,
    limit: int = 200,
) -> list[int]:
    """Ids of the PRs of one repo (optionally merged in [start, end)) whose search document contains any
    of `phrases`, each as a whole (case-insensitive): one query for a word and all its synonyms. Best
    first on SQLite FTS (bm25) when the phrases have trigrams, else newest merge first."""
    phrases = [p.strip().lower() for p in phrases if p.strip()]
    if not phrases:
        return []
    # Phrases with trigrams use the index; a one- or two-character synonym beside them ("显存" beside
    # "out of memory") would turn the query into a scan of every document of the repo, so it is left out
    # and only searched when no longer phrase is there.
    indexed = [p for p in phrases if len(p) >= MIN_TRIGRAM_TERM]
    phrases = indexed or phrases
    conditions = [SearchDocumentRow.repo_id == repo_id]
    if start is not None:
        conditions.append(PullRequestRow.merged_at >= start)
    if end is not None:
        conditions.append(PullRequestRow.merged_at < end)
    base = select(SearchDocumentRow.pr_id).join(PullRequestRow, PullRequestRow.id == SearchDocumentRow.pr_id)
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite" and all(len(p) >= MIN_TRIGRAM_TERM for p in phrases):
        match = " OR ".join('"' + p.replace('"', '""') + '"' for p in phrases)
        fts = text(
            "SELECT rowid AS pr_id, bm25(pr_search_fts) AS rank FROM pr_search_fts WHERE pr_search_fts MATCH :m"
        )
        ranked = fts.columns(column("pr_id", Integer), column("rank", Float)).subquery("fts")
        statement = (
            base.join(ranked, ranked.c.pr_id == SearchDocumentRow.pr_id)
            .where(*conditions)
            .order_by(ranked.c.rank, PullRequestRow.merged_at.desc())
            .limit(limit)
        )
        return list(session.scalars(statement, {"m": match}))
    document = SearchDocumentRow.document
    matches = (
        [document.ilike(f"%{_escape_like(p)}%", escape="\\") for p in phrases]
        if dialect == "postgresql"
        else [document.like(f"%{_escape_like(p)}%", escape="\\") for p in phrases]
    )
    statement = base.where(or_(*matches), *conditions).order_by(PullRequestRow.merged_at.desc()).limit(limit)
    return list(session.scalars(statement))
