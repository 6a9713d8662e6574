"""Full-text search over PR search documents, one API for both databases (INTEGRATION §6).

Documents are stored lower-case with their PR's merge time (migration 0016), so a phrase is matched by
LIKE and the matches are ordered and windowed without reading `pull_requests`. SQLite: FTS5 with the
trigram tokenizer (no word segmentation needed, so Chinese works) when every phrase has at least 3
characters, ranked by bm25; shorter phrases (`飞书`, `OOM` is fine, `显存` is not) fall back to LIKE on the
base table. A Chinese word of two characters (`显存`, `安全`, `默认`) is searched beside longer synonyms; a
shorter Latin one (`ci`) only alone. PostgreSQL: LIKE per phrase, served by the pg_trgm GIN index over
(repo_id, document) (migrations 0006 and 0012; no btree on repo_id competes with it).
A document matches when it contains any of the phrases (a word and its synonyms).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Float,
    Integer,
    Select,
    column,
    func,
    or_,
    select,
    text,
    union,
    union_all,
)
from sqlalchemy.orm import Session

from chatbot.store.schema import PullRequestRow, SearchDocumentRow

MIN_TRIGRAM_TERM = 3
# A Chinese word of two characters: a word as much as "memory" is (显存, 安全, 依赖), never dropped.
_HAN_WORD = re.compile(r"[\u3400-\u9fff]{2}")


def _escape_like(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


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
    return search_all(session, [phrases], repo_id=repo_id, start=start, end=end, limit=limit)


def _searchable(phrases: list[str]) -> list[str]:
    """A group's phrases as searched: lower-cased, only those with trigrams or two Chinese characters
    when it has any (a one- or two-letter synonym beside "out of memory" would find every document
    holding "ci" or "io" inside a word, and turn the query into a scan of the repo, so it is only
    searched when no longer phrase is there; 显存 and 安全 are words, found by nothing else), and none
    containing another."""
    phrases = list(dict.fromkeys(p.strip().lower() for p in phrases if p.strip()))
    phrases = [p for p in phrases if len(p) >= MIN_TRIGRAM_TERM or _HAN_WORD.fullmatch(p)] or phrases
    # A phrase containing another finds nothing that one does not ("peak memory" beside "memory"): each
    # phrase costs PostgreSQL one more index query.
    return [p for p in phrases if not any(q != p and q in p for q in phrases)]


def _trigrams(groups: list[list[str]]) -> bool:
    """Whether every phrase of `groups` has trigrams (SQLite's FTS5 index can serve them all)."""
    return all(len(p) >= MIN_TRIGRAM_TERM for phrases in groups for p in phrases)


def _one_query_a_phrase(dialect: str, groups: list[list[str]]) -> bool:
    """Whether PostgreSQL serves `groups` best with one indexed query per phrase: one group of several
    phrases (see `search_all`)."""
    return dialect == "postgresql" and len(groups) == 1 and len(groups[0]) > 1


def search_all(
    session: Session,
    groups: list[list[str]],
    *,
    repo_id: int,
    start: datetime | None = None,
    end: datetime | None = None,
    limit: int = 200,
) -> list[int]:
    """Ids of the PRs of one repo (optionally merged in [start, end)) whose search document contains,
    for every group, one of its phrases (a word and its synonyms each): one query for all of them, so the
    PRs found are those matching every group, not the best of each group intersected (the newest 200
    mentioning "parallel" and the newest 200 mentioning "expert" may share none of the PRs saying
    "expert parallel"). Best first on SQLite FTS (bm25), else newest merge first; in a window, every match
    when at most `limit` match (newest first)."""
    groups = [phrases for phrases in map(_searchable, groups) if phrases]
    if not groups:
        return []
    merged_at = SearchDocumentRow.merged_at
    conditions = _in_repo(repo_id, start, end)
    base = select(SearchDocumentRow.pr_id)
    newest_first = base.where(*_contains(groups), *conditions).order_by(merged_at.desc())
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite" and _trigrams(groups):
        if start is not None or end is not None:
            # In a window, LIKE over the window's documents (the (repo_id, merged_at) index) finds the
            # same PRs as FTS5 when at most `limit` match, without ranking every match of every repo by
            # bm25 first (6 against 36 ms for "memory" in half a year of the benchmark's biggest repo).
            in_window = list(session.scalars(newest_first.limit(limit + 1)))
            if len(in_window) <= limit:
                return in_window
        match = " AND ".join(
            "(" + " OR ".join('"' + p.replace('"', '""') + '"' for p in phrases) + ")" for phrases in groups
        )
        fts = text(
            "SELECT rowid AS pr_id, bm25(pr_search_fts) AS rank FROM pr_search_fts WHERE pr_search_fts MATCH :m"
        )
        ranked = fts.columns(column("pr_id", Integer), column("rank", Float)).subquery("fts")
        # The merge time from `pull_requests`: then the repo is checked in the (repo_id) index of
        # pr_search alone, without reading each match's document (30 against 38 ms for "attention").
        pr = PullRequestRow
        statement = (
            base.join(pr, pr.id == SearchDocumentRow.pr_id)
            .join(ranked, ranked.c.pr_id == SearchDocumentRow.pr_id)
            .where(SearchDocumentRow.repo_id == repo_id)
        )
        if start is not None:
            statement = statement.where(pr.merged_at >= start)
        if end is not None:
            statement = statement.where(pr.merged_at < end)
        statement = statement.order_by(ranked.c.rank, pr.merged_at.desc()).limit(limit)
        return list(session.scalars(statement, {"m": match}))
    if _one_query_a_phrase(dialect, groups):
        # One indexed query per phrase, merged: with the phrases OR-ed in one condition the planner reads
        # every document of the repo through the index's repo_id column and tests all of them against
        # every phrase (470 ms against 170 ms for the nine synonyms of "memory" on the benchmark's
        # biggest repo). Each phrase's newest `limit` suffice for the newest `limit` of them all.
        newest = [
            base.add_columns(merged_at).where(_like(p), *conditions).order_by(merged_at.desc()).limit(limit)
            for p in groups[0]
        ]
        found = union_all(*newest).subquery("found")
        merged = (
            select(found.c.pr_id)
            .group_by(found.c.pr_id)
            .order_by(func.max(found.c.merged_at).desc())
            .limit(limit)
        )
        return list(session.scalars(merged))
    return list(session.scalars(newest_first.limit(limit)))


def window_matches(
    session: Session,
    groups: list[list[str]],
    *,
    repo_id: int,
    start: datetime,
    end: datetime,
    limit: int,
) -> Select[Any] | None:
    """A query of the ids of every PR of one repo merged in [start, end) that `search_all` finds when at
    most `limit` match (it then finds them all), at most `limit` + 1 of them, in no order: a caller reads
    what it needs of them in the same statement, and more than `limit` rows mean `search_all` would
    rank them. None when no group has a phrase."""
    groups = [phrases for phrases in map(_searchable, groups) if phrases]
    if not groups:
        return None
    conditions = _in_repo(repo_id, start, end)
    base = select(SearchDocumentRow.pr_id)
    dialect = session.get_bind().dialect.name
    if _one_query_a_phrase(dialect, groups):
        # One indexed query per phrase, as `search_all`: each finds at most `limit` + 1, so more than
        # `limit` in all means one of them did.
        found = union(*(base.where(_like(p), *conditions).limit(limit + 1) for p in groups[0])).subquery()
        return select(found.c.pr_id).limit(limit + 1)
    return base.where(*_contains(groups), *conditions).limit(limit + 1)


def _in_repo(repo_id: int, start: datetime | None, end: datetime | None) -> list[ColumnElement[bool]]:
    merged_at = SearchDocumentRow.merged_at
    conditions = [SearchDocumentRow.repo_id == repo_id]
    if start is not None:
        conditions.append(merged_at >= start)
    if end is not None:
        conditions.append(merged_at < end)
    return conditions


def _like(phrase: str) -> ColumnElement[bool]:
    return SearchDocumentRow.document.like(f"%{_escape_like(phrase)}%", escape="\\")


def _contains(groups: list[list[str]]) -> list[ColumnElement[bool]]:
    """For every group, that the document contains one of its phrases."""
    return [or_(*map(_like, phrases)) for phrases in groups]
