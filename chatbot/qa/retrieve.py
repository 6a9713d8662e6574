"""Retrieval for answers: everything comes from the store's queries and its search index."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, Text, cast, func, select
from sqlalchemy.orm import Session

from chatbot.analysis.types import Analysis
from chatbot.models import PullHeader, PullRequest
from chatbot.qa.parse import TOPICS, KnownRepo
from chatbot.qa.query import Intent, Query, Window
from chatbot.reports.builder import AnalyzedPR
from chatbot.store.analyses import current_analysis
from chatbot.store.index import PRIndex, to_pull_request
from chatbot.store.schema import AnalysisRow, PullRequestRow, RepoRow, SearchDocumentRow
from chatbot.store.search import search_pull_requests, search_terms

SEARCH_LIMIT = 200
# How many of the most important PRs a list answer shows, and a comparison.
LIST_LIMIT = 8
COMPARE_SHOWN = 5
# How many of the most important matching PRs each kind of answer shows, so needs whole analyses of;
# the others are only counted, ranked and filtered, which their scores columns allow. Risks and reading
# lists (not here) read every analysis.
SHOWN: dict[Intent, int] = {
    "highlights": LIST_LIMIT,
    "topic": LIST_LIMIT,
    "author": LIST_LIMIT,
    "search": LIST_LIMIT,
    "compare": COMPARE_SHOWN,
    "stats": 0,
}
ALL_TIME_START = datetime(1970, 1, 1, tzinfo=UTC)
ALL_TIME_END = datetime(2200, 1, 1, tzinfo=UTC)


@dataclass(slots=True)
class Evidence:
    """What an answer may use: the repo, the window's matching PRs with their analyses, and for some
    intents the previous window's PRs or one PR."""

    repo: str
    last_synced_at: datetime | None
    # For the intents in SHOWN, only the records the answer shows carry their whole analysis; the others,
    # like the previous window's, carry scores, verdict, change type and modules (no texts, no risks).
    records: list[AnalyzedPR] = field(default_factory=list)
    previous: list[AnalyzedPR] = field(default_factory=list)
    pr: AnalyzedPR | None = None


def importance_rank(record: AnalyzedPR) -> tuple[float, float, int]:
    """The sort key of answers: most important first, then most insightful, then newest number."""
    return (-record.analysis.importance, -record.analysis.insight, -record.number)


def known_repos(session: Session) -> list[KnownRepo]:
    return [KnownRepo(r.full_name, tuple(r.aliases or ())) for r in PRIndex(session).repos()]


def known_modules(session: Session) -> frozenset[str]:
    """Every module name the stored analyses use: the vocabulary for module names (and their typos)."""
    names: set[str] = set()
    # DISTINCT over the JSON text: PostgreSQL's json type has no equality operator.
    for encoded in session.scalars(select(cast(AnalysisRow.modules, Text)).distinct()):
        names.update(str(m) for m in json.loads(encoded or "[]"))
    return frozenset(names)


def _matches(record: AnalyzedPR, query: Query, topic_hits: set[int] | None) -> bool:
    analysis = record.analysis
    if query.modules and not set(query.modules) & set(analysis.modules):
        return False
    if query.change_types and analysis.change_type not in query.change_types:
        return False
    if query.author and record.pr.header.author.lower() != query.author.lower():
        return False
    return topic_hits is None or record.number in topic_hits


def _topic_hits(session: Session, repo: RepoRow, query: Query, window: Window | None) -> set[int] | None:
    """PR numbers whose search document mentions any synonym of each topic (all topics must match), or
    of the free search text; None when the query has neither."""
    groups: list[tuple[str, ...]] = [TOPICS[t] for t in query.topics]
    if query.search_text:
        groups.append((query.search_text,))
    if not groups:
        return None
    if window is not None:
        return _window_hits(session, repo, window, groups)
    hits: set[int] | None = None
    for group in groups:
        ids: set[int] = set()
        for term in group:
            ids.update(search_pull_requests(session, term, repo_id=repo.id, limit=SEARCH_LIMIT))
        numbers = (
            set(session.scalars(select(PullRequestRow.number).where(PullRequestRow.id.in_(ids))))
            if ids
            else set()
        )
        hits = numbers if hits is None else hits & numbers
    return hits or set()


def _window_hits(session: Session, repo: RepoRow, window: Window, groups: list[tuple[str, ...]]) -> set[int]:
    """`_topic_hits` within a window. A window holds a few hundred PRs: their search documents are read
    once and every synonym is matched here, by the search index's rule (each term of a synonym as a
    case-insensitive substring), instead of one indexed query per synonym — two-character synonyms
    such as 显存 cannot use a trigram index and would each scan the repo's documents."""
    documents = [
        (number, document.lower())
        for number, document in session.execute(
            select(PullRequestRow.number, SearchDocumentRow.document)
            .join(SearchDocumentRow, SearchDocumentRow.pr_id == PullRequestRow.id)
            .where(
                PullRequestRow.repo_id == repo.id,
                PullRequestRow.merged_at >= window.start,
                PullRequestRow.merged_at < window.end,
            )
        )
    ]
    hits: set[int] | None = None
    for group in groups:
        synonyms = [terms for terms in (search_terms(synonym) for synonym in group) if terms]
        numbers = {
            number
            for number, document in documents
            if any(all(term in document for term in terms) for terms in synonyms)
        }
        hits = numbers if hits is None else hits & numbers
    return hits or set()


def _current_rows(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    numbers: Collection[int] | None,
    author: str | None,
    columns: tuple[Any, ...],
) -> list[Row[Any]]:
    """`columns` of the PRs merged in [start, end) joined to their current analysis (NULLs when there is
    none yet), oldest first, one row per PR: the newest analysis of its current content."""
    pr, analysis = PullRequestRow, AnalysisRow
    rows = session.execute(
        select(*columns)
        .outerjoin(analysis, (analysis.pr_id == pr.id) & (analysis.content_hash == pr.content_hash))
        .where(
            pr.repo_id == repo.id,
            pr.merged_at >= start,
            pr.merged_at < end,
            *([pr.number.in_(list(numbers))] if numbers is not None else []),
            *([func.lower(pr.author) == author.lower()] if author else []),
        )
        .order_by(pr.merged_at, pr.number, analysis.created_at.desc(), analysis.id.desc())
    ).all()
    seen: set[int] = set()
    unique = []
    for row in rows:
        if row.id not in seen:  # later rows of a PR are older analyses of the same content
            seen.add(row.id)
            unique.append(row)
    return unique


def answer_records(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    fallback: Callable[[PullRequest], Analysis],
    numbers: Collection[int] | None = None,
    author: str | None = None,
) -> list[AnalyzedPR]:
    """The PRs merged in [start, end) (optionally only `numbers`, only by `author`) with their current
    analyses, oldest first. Only what answers show is read: each PR carries its header, not its files,
    reviews or comments (a window of months on a busy repo would otherwise decode megabytes of JSON).
    A PR not analysed yet is read in full and analysed by `fallback`."""
    pr, analysis = PullRequestRow, AnalysisRow
    rows = _current_rows(
        session,
        repo,
        start,
        end,
        numbers,
        author,
        (
            pr.id,
            pr.number,
            pr.title,
            pr.author,
            pr.author_name,
            pr.created_at,
            pr.updated_at,
            pr.merged_at,
            pr.html_url,
            pr.base_ref,
            pr.additions,
            pr.deletions,
            pr.changed_files,
            pr.content_hash,
            analysis.fields,
        ),
    )
    records: list[AnalyzedPR] = []
    for row in rows:
        if row.fields is None:
            full = to_pull_request(repo, session.get_one(PullRequestRow, row.id))
            records.append(AnalyzedPR(full, fallback(full)))
            continue
        header = PullHeader(
            repo=repo.full_name,
            number=row.number,
            title=row.title,
            body="",
            author=row.author,
            author_name=row.author_name,
            created_at=row.created_at,
            updated_at=row.updated_at,
            merged_at=row.merged_at,
            html_url=row.html_url,
            base_ref=row.base_ref,
        )
        header_only = PullRequest(
            header,
            additions=row.additions,
            deletions=row.deletions,
            changed_files=row.changed_files,
            content_hash=row.content_hash,
        )
        records.append(AnalyzedPR(header_only, Analysis.from_dict(row.fields)))
    return records


def score_records(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    fallback: Callable[[PullRequest], Analysis],
    author: str | None = None,
    numbers: Collection[int] | None = None,
) -> list[AnalyzedPR]:
    """The PRs merged in [start, end) (optionally only `numbers`, only by `author`) with the scores,
    verdict, change type and modules of their current
    analysis, from the analysis table's own columns: enough to count and compare windows without
    decoding each analysis. A PR not analysed yet is read in full and analysed by `fallback`."""
    pr, analysis = PullRequestRow, AnalysisRow
    rows = _current_rows(
        session,
        repo,
        start,
        end,
        numbers,
        author,
        (
            pr.id,
            pr.number,
            pr.title,
            pr.author,
            pr.created_at,
            pr.merged_at,
            pr.html_url,
            pr.content_hash,
            analysis.importance,
            analysis.insight,
            analysis.verdict,
            analysis.change_type,
            analysis.breaking,
            analysis.modules,
        ),
    )
    records: list[AnalyzedPR] = []
    for row in rows:
        if row.importance is None:
            full = to_pull_request(repo, session.get_one(PullRequestRow, row.id))
            records.append(AnalyzedPR(full, fallback(full)))
            continue
        header = PullHeader(
            repo=repo.full_name,
            number=row.number,
            title=row.title,
            body="",
            author=row.author,
            created_at=row.created_at,
            updated_at=row.merged_at,
            merged_at=row.merged_at,
            html_url=row.html_url,
        )
        scores = Analysis(
            title_zh="",
            summary="",
            modules=tuple(row.modules),
            change_type=row.change_type,
            breaking=row.breaking,
            importance=row.importance,
            insight=row.insight,
            verdict=row.verdict,
            verdict_reason="",
        )
        records.append(AnalyzedPR(PullRequest(header, content_hash=row.content_hash), scores))
    return records


def gather(
    session: Session,
    query: Query,
    window: Window | None,
    fallback: Callable[[PullRequest], Analysis],
    *,
    with_previous: bool = False,
) -> Evidence:
    """The evidence for `query` over `window` (None: all time). Requires `query.repo` to be indexed."""
    index = PRIndex(session)
    repo = index.repo(query.repo or "")
    if repo is None:
        raise LookupError(query.repo)
    evidence = Evidence(repo.full_name, repo.last_synced_at)
    if query.pr_number is not None:
        row = index.pull_request_row(repo, query.pr_number)
        if row is not None:
            stored = current_analysis(session, row)
            pr = to_pull_request(repo, row)
            evidence.pr = AnalyzedPR(pr, stored.analysis if stored else fallback(pr))
        return evidence
    topic_hits = _topic_hits(session, repo, query, window)
    start, end = (window.start, window.end) if window else (ALL_TIME_START, ALL_TIME_END)
    shown = SHOWN.get(query.intent)
    if shown is None:
        records = answer_records(session, repo, start, end, fallback, topic_hits, query.author)
        evidence.records = [r for r in records if _matches(r, query, topic_hits)]
    else:
        # A month of a busy repo holds hundreds of PRs: decode whole analyses of the shown ones only.
        scored = score_records(session, repo, start, end, fallback, query.author, topic_hits)
        matching = [r for r in scored if _matches(r, query, topic_hits)]
        top = [r.number for r in sorted(matching, key=importance_rank)[:shown]]
        complete = (
            {r.number: r for r in answer_records(session, repo, start, end, fallback, top)} if top else {}
        )
        evidence.records = [complete.get(r.number, r) for r in matching]
    if with_previous and window is not None:
        previous = window.previous()
        before = score_records(session, repo, previous.start, previous.end, fallback, query.author)
        evidence.previous = [r for r in before if _matches(r, query, None)]
    return evidence
