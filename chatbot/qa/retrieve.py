"""Retrieval for answers: everything comes from the store's queries and its search index."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import Text, cast, select
from sqlalchemy.orm import Session

from chatbot.analysis.types import Analysis
from chatbot.models import PullRequest
from chatbot.qa.parse import TOPICS, KnownRepo
from chatbot.qa.query import Query, Window
from chatbot.reports.builder import AnalyzedPR
from chatbot.reports.weekly import window_records
from chatbot.store.analyses import current_analysis
from chatbot.store.index import PRIndex, to_pull_request
from chatbot.store.schema import AnalysisRow, PullRequestRow, RepoRow
from chatbot.store.search import search_pull_requests

SEARCH_LIMIT = 200
ALL_TIME_START = datetime(1970, 1, 1, tzinfo=UTC)
ALL_TIME_END = datetime(2200, 1, 1, tzinfo=UTC)


@dataclass(slots=True)
class Evidence:
    """What an answer may use: the repo, the window's matching PRs with their analyses, and for some
    intents the previous window's PRs or one PR."""

    repo: str
    last_synced_at: datetime | None
    records: list[AnalyzedPR] = field(default_factory=list)
    previous: list[AnalyzedPR] = field(default_factory=list)
    pr: AnalyzedPR | None = None


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
    start, end = (window.start, window.end) if window else (None, None)
    hits: set[int] | None = None
    for group in groups:
        ids: set[int] = set()
        for term in group:
            ids.update(
                search_pull_requests(session, term, repo_id=repo.id, start=start, end=end, limit=SEARCH_LIMIT)
            )
        numbers = (
            set(session.scalars(select(PullRequestRow.number).where(PullRequestRow.id.in_(ids))))
            if ids
            else set()
        )
        hits = numbers if hits is None else hits & numbers
    return hits or set()


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
    records, _ = window_records(session, repo, start, end, fallback, topic_hits)
    evidence.records = [r for r in records if _matches(r, query, topic_hits)]
    if with_previous and window is not None:
        previous = window.previous()
        before, _ = window_records(session, repo, previous.start, previous.end, fallback)
        evidence.previous = [r for r in before if _matches(r, query, None)]
    return evidence
