"""Stored analyses: the cache by input hash, each PR's current analysis, and the search documents."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Table, TextClause, bindparam, exists, insert, select, text, update
from sqlalchemy.orm import Session

from chatbot.analysis.boilerplate import clean_body
from chatbot.analysis.types import Analysis
from chatbot.store.schema import AnalysisRow, Base, PullRequestRow, RepoRow, SearchDocumentRow


def input_hash(content_hash: str, analyzer: str, version: str, language: str) -> str:
    """The cache key of an analysis: the same PR content through the same analyzer version, in the same
    language, is never analysed (or sent to an LLM) twice."""
    return hashlib.sha256(f"{content_hash}|{analyzer}|{version}|{language}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    analysis: Analysis
    analyzer: str
    fallback_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    created_at: datetime


def has_analysis(session: Session, pr_id: int, key: str) -> bool:
    """Whether an analysis with this input hash is stored. Fallback results do not count, so the next
    run tries the LLM again."""
    return bool(
        session.scalar(
            select(
                exists().where(
                    AnalysisRow.pr_id == pr_id,
                    AnalysisRow.input_hash == key,
                    AnalysisRow.fallback_reason.is_(None),
                )
            )
        )
    )


def save_analysis(
    session: Session,
    pr: PullRequestRow,
    analysis: Analysis,
    *,
    analyzer: str,
    version: str,
    language: str,
    now: datetime,
    fallback_reason: str | None = None,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
) -> None:
    """Store an analysis of the PR's current content and refresh its search document (one PR; a batch
    of them goes through `save_analyses`)."""
    document = search_document(
        pr.title,
        analysis,
        body=pr.body,
        paths=[str(f.get("filename", "")) for f in pr.files or ()],
        discussion=[str(r.get("body") or "") for r in (*(pr.reviews or ()), *(pr.comments or ()))],
    )
    item = NewAnalysis(
        pr.id,
        pr.repo_id,
        pr.content_hash,
        analysis,
        document,
        fallback_reason,
        prompt_tokens,
        completion_tokens,
    )
    save_analyses(session, [item], analyzer=analyzer, version=version, language=language, now=now)


@dataclass(frozen=True, slots=True)
class NewAnalysis:
    """One PR's analysis to store, with the PR's ids, the content it analysed and its search document."""

    pr_id: int
    repo_id: int
    content_hash: str
    analysis: Analysis
    document: str
    fallback_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0


def save_analyses(
    session: Session,
    items: Sequence[NewAnalysis],
    *,
    analyzer: str,
    version: str,
    language: str,
    now: datetime,
) -> list[NewAnalysis]:
    """Store a batch of analyses and refresh their search documents in a few statements whatever the
    batch size (one read of the PRs and their current documents, one multi-row insert of analyses, one
    insert of the new documents and one update of the changed ones), not an ORM object and a flush per
    PR. An item whose PR has changed (another content hash) or gone since it was analysed is not stored:
    the next run analyses the new content. Returns the items stored."""
    if not items:
        return []
    # Documents are stored lower-case (PostgreSQL matches them with LIKE), with the PR's merge time.
    current: dict[int, tuple[str, datetime | None, str | None, datetime | None]] = {
        pr_id: (content_hash, merged_at, document, stored_merged_at)
        for pr_id, content_hash, merged_at, document, stored_merged_at in session.execute(
            _CURRENT_DOCUMENTS, {"ids": list({i.pr_id for i in items})}
        )
    }
    stored = [i for i in items if i.pr_id in current and current[i.pr_id][0] == i.content_hash]
    if not stored:
        return []
    # Core inserts on the tables: the ORM's bulk path prepares every row again (a sixth of storing).
    session.execute(
        insert(_table(AnalysisRow)),
        [analysis_row_values(i, analyzer, version, language, now) for i in stored],
    )
    latest = {i.pr_id: i for i in stored}  # the same PR twice in a batch: its last analysis wins
    added: list[dict[str, Any]] = []
    changed: list[dict[str, Any]] = []
    # In PR id order: SQLite's FTS5 also flushes its pending index (as after every statement, below)
    # whenever a rowid is not above the last one it wrote.
    for pr_id, item in sorted(latest.items()):
        _, merged_at, document, stored_merged_at = current[pr_id]
        row = {"pr_id": pr_id, "document": item.document.lower(), "merged_at": merged_at}
        if document is None:
            added.append({**row, "repo_id": item.repo_id})
        elif (document, stored_merged_at) != (row["document"], merged_at):
            changed.append(row)
    # A multi-row INSERT per hundred documents, not one execution per row: SQLite's FTS5 trigger flushes
    # its pending index at every statement, and row by row took 1.9x the CPU (2,745 verl documents:
    # 2.65 s against 1.43 s, load 9).
    for start in range(0, len(added), SEARCH_INSERT_ROWS):
        rows = added[start : start + SEARCH_INSERT_ROWS]
        session.execute(
            _insert_documents(len(rows)),
            {f"{key}_{i}": value for i, row in enumerate(rows) for key, value in row.items()},
        )
    if changed:
        session.execute(update(SearchDocumentRow), changed)
    return stored


# The PRs of a batch with their content hash and merge time, and their search documents if stored. The
# ids are one expanding parameter: a statement built once, not a bound literal per id at every batch.
_CURRENT_DOCUMENTS = (
    select(
        PullRequestRow.id,
        PullRequestRow.content_hash,
        PullRequestRow.merged_at,
        SearchDocumentRow.document,
        SearchDocumentRow.merged_at,
    )
    .outerjoin(SearchDocumentRow, SearchDocumentRow.pr_id == PullRequestRow.id)
    .where(PullRequestRow.id.in_(bindparam("ids", expanding=True)))
)


# Rows of one search-document INSERT (the runner stores a hundred PRs at a time).
SEARCH_INSERT_ROWS = 100
_DOCUMENT_COLUMNS = ("pr_id", "document", "merged_at", "repo_id")


@functools.cache
def _insert_documents(rows: int) -> TextClause:
    """One INSERT of `rows` search documents, its values bound by name (`pr_id_0`, `document_0`, …) with
    the columns' types. Written as text, built once per row count: SQLAlchemy compiles an `insert()` of
    several VALUES rows again at every execution (it never caches one), which cost what the single
    statement saved."""
    table = _table(SearchDocumentRow)
    values = ", ".join("(" + ", ".join(f":{key}_{i}" for key in _DOCUMENT_COLUMNS) + ")" for i in range(rows))
    return text(f"INSERT INTO {table.name} ({', '.join(_DOCUMENT_COLUMNS)}) VALUES {values}").bindparams(
        *(bindparam(f"{key}_{i}", type_=table.c[key].type) for i in range(rows) for key in _DOCUMENT_COLUMNS)
    )


def _table(row: type[Base]) -> Table:
    """The table of a mapped class, for Core statements."""
    return Base.metadata.tables[row.__tablename__]


def analysis_row_values(
    item: NewAnalysis, analyzer: str, version: str, language: str, now: datetime
) -> dict[str, Any]:
    """The columns of the `pr_analyses` row that stores `item` (also used by benchmarks that bulk-load)."""
    analysis = item.analysis
    return {
        "pr_id": item.pr_id,
        "analyzer": analyzer,
        "analyzer_version": version,
        "language": language,
        "content_hash": item.content_hash,
        "input_hash": input_hash(item.content_hash, analyzer, version, language),
        "importance": analysis.importance,
        "insight": analysis.insight,
        "verdict": analysis.verdict,
        "change_type": analysis.change_type,
        "breaking": analysis.breaking,
        "modules": list(analysis.modules),
        "fields": analysis.to_dict(),
        "fallback_reason": item.fallback_reason,
        "prompt_tokens": item.prompt_tokens,
        "completion_tokens": item.completion_tokens,
        "created_at": now,
    }


# How much of a description and of its review discussion the search reads: enough for what a PR is
# about, bounded so a PR with a pasted log does not dominate the index.
SEARCH_BODY_CHARS = 4000
SEARCH_DISCUSSION_CHARS = 3000


# Separates what the PR itself says (title, description, paths, review text) from what an analysis
# wrote about it (Chinese title, modules, key points, summary, risks): a question's words must occur in
# the first part or the analysis' title, since generated sentences ("未改动测试") are not what a PR is about.
ANALYSIS_MARK = "\x1e"


def search_document(
    title: str,
    analysis: Analysis,
    *,
    body: str | None = None,
    paths: Sequence[str] = (),
    discussion: Sequence[str] = (),
) -> str:
    """The text a question's words are searched in: the PR's title, its description without the
    template, its changed file paths and its review text; then, after ANALYSIS_MARK, the analysis."""
    own = [
        title,
        clean_body(body).prose[:SEARCH_BODY_CHARS] if body else "",
        " ".join(p for p in paths if p),
        "\n".join(d for d in discussion if d)[:SEARCH_DISCUSSION_CHARS],
    ]
    written = [analysis.title_en, " ".join(analysis.modules), *analysis.key_points, analysis.summary]
    written += [risk.text for risk in analysis.risks]
    for texts in analysis.texts.values():  # both languages, so either finds the analysis' words
        written += [texts.gist, *texts.key_points, *texts.risks]
    # The analysis' title stays the first line after the mark (retrieval reads it there); a line the
    # analysis repeats (its own language's key points and risks are also its texts') is indexed once, and
    # a line that quotes the description or review back (the same words, markup and numbering aside) not
    # at all: retrieval does not count a quote as the analysis' mention (`_quoted` there), and its
    # trigrams are already indexed, so it would only be more text to tokenize (a seventh of the index).
    quoted = _words("\n".join(own[1:]))
    lines = [analysis.title_zh, *(p for p in dict.fromkeys(written) if p and _words(p) not in quoted)]
    return "\n".join(p for p in own if p) + f"\n{ANALYSIS_MARK}\n" + "\n".join(lines)


_WORD = re.compile(r"\w+")


def _words(text: str) -> str:
    """`text` lowercased, each run of spaces, punctuation and markup one space, with a space at each end:
    a quote's words are a substring of the words of what it quotes. (Joining the words found is a seventh
    faster than replacing what lies between them.)"""
    return f" {' '.join(_WORD.findall(text.lower()))} "


def current_analysis(session: Session, pr: PullRequestRow) -> StoredAnalysis | None:
    """The newest analysis of the PR's current content, or None when it is new or changed since."""
    row = session.scalars(
        select(AnalysisRow)
        .where(AnalysisRow.pr_id == pr.id, AnalysisRow.content_hash == pr.content_hash)
        .order_by(AnalysisRow.created_at.desc(), AnalysisRow.id.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    return StoredAnalysis(
        Analysis.from_dict(row.fields),
        row.analyzer,
        row.fallback_reason,
        row.prompt_tokens,
        row.completion_tokens,
        row.created_at,
    )


def pull_requests_to_analyze(
    session: Session, repo: RepoRow | None, since: datetime | None
) -> Sequence[PullRequestRow]:
    """Stored PRs of a repo (or of every repo), merged since `since`, oldest first."""
    statement = select(PullRequestRow)
    if repo is not None:
        statement = statement.where(PullRequestRow.repo_id == repo.id)
    if since is not None:
        statement = statement.where(PullRequestRow.merged_at >= since)
    return session.scalars(statement.order_by(PullRequestRow.merged_at, PullRequestRow.id)).all()


@dataclass(frozen=True, slots=True)
class WindowTokens:
    """LLM tokens spent on the current analyses of a window's PRs, and how many PRs spent any."""

    prompt_tokens: int
    completion_tokens: int
    prs: int


def window_tokens(session: Session, repo: RepoRow, start: datetime, end: datetime) -> WindowTokens:
    """The tokens of the newest analysis of each PR merged in [start, end) (its current content)."""
    rows = session.execute(
        select(AnalysisRow.pr_id, AnalysisRow.prompt_tokens, AnalysisRow.completion_tokens)
        .join(PullRequestRow, PullRequestRow.id == AnalysisRow.pr_id)
        .where(
            PullRequestRow.repo_id == repo.id,
            PullRequestRow.merged_at >= start,
            PullRequestRow.merged_at < end,
            AnalysisRow.content_hash == PullRequestRow.content_hash,
        )
        .order_by(AnalysisRow.pr_id, AnalysisRow.created_at.desc(), AnalysisRow.id.desc())
    ).all()
    newest: dict[int, tuple[int, int]] = {}
    for pr_id, prompt, completion in rows:
        newest.setdefault(pr_id, (prompt, completion))
    spent = [t for t in newest.values() if t[0] or t[1]]
    return WindowTokens(sum(t[0] for t in spent), sum(t[1] for t in spent), len(spent))
