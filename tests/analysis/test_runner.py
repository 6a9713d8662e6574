"""Analysing stored PRs: the cache by input hash, reanalysis, failures, fallbacks — on both databases."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.analysis.runner import OfflineBatch, analyze_stored
from chatbot.analysis.types import Analysis
from chatbot.clock import FixedClock
from chatbot.models import PullRequest
from chatbot.store.analyses import current_analysis
from chatbot.store.index import PRIndex
from chatbot.store.search import search_any
from tests.reports.fixtures import REPO, WEEK_START, pr

CLOCK = FixedClock(WEEK_START + timedelta(days=8))
HEURISTIC = HeuristicAnalyzer()


def offline() -> OfflineBatch:
    return OfflineBatch(HEURISTIC.analyze, HEURISTIC.name, HEURISTIC.version)


def store(db, *titles: str) -> None:  # type: ignore[no-untyped-def]
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo(REPO, CLOCK.now())
        for n, title in enumerate(titles, start=1):
            index.upsert(repo, pr(n, title, WEEK_START + timedelta(hours=n)), CLOCK.now())


def run(db, analyzer=None, **kwargs):  # type: ignore[no-untyped-def]
    return analyze_stored(db, analyzer or offline(), language="zh", clock=CLOCK, **kwargs)


def test_unanalysed_prs_are_analysed_once_then_cached(db):
    store(db, "[rollout] fix: OOM in vLLM", "[doc] chore: typo")
    first = run(db, repo=REPO)
    assert (first.analyzed, first.cached, first.failed) == (2, 0, 0)
    second = run(db, repo=REPO)
    assert (second.analyzed, second.cached) == (0, 2)
    assert run(db, repo=REPO, reanalyze=True).analyzed == 2


def test_a_changed_pr_is_analysed_again_and_its_search_document_follows(db):
    store(db, "[rollout] fix: OOM in vLLM")
    run(db)
    store(db, "[trainer] feat: checkpoint resharding")  # same number, new content
    report = run(db)
    assert (report.analyzed, report.cached) == (1, 0)
    with db.session() as session:
        index = PRIndex(session)
        row = index.pull_request_row(index.repo(REPO), 1)
        assert current_analysis(session, row).analysis.modules == ("trainer",)
        assert search_any(session, ["resharding"], repo_id=row.repo_id) == [row.id]
        assert search_any(session, ["vllm"], repo_id=row.repo_id) == []


def test_a_pr_that_changes_while_it_is_analysed_is_analysed_again_next_run(db):
    store(db, "[rollout] fix: OOM in vLLM", "[doc] chore: typo")

    def resynced_meanwhile(p: PullRequest) -> Analysis:
        if p.number == 1:
            store(db, "[trainer] feat: checkpoint resharding")  # a sync stores new content of #1
        return HEURISTIC.analyze(p)

    report = run(db, OfflineBatch(resynced_meanwhile, "heuristic", HEURISTIC.version))
    assert (report.analyzed, report.failed) == (1, 0)  # #1's analysis was of the old content
    with db.session() as session:
        index = PRIndex(session)
        row = index.pull_request_row(index.repo(REPO), 1)
        assert current_analysis(session, row) is None
        assert search_any(session, ["vllm"], repo_id=row.repo_id) == []
    again = run(db)
    assert (again.analyzed, again.cached) == (1, 1)


def test_an_analyzer_that_raises_on_one_pr_fails_only_that_pr(db):
    store(db, "fine", "explodes", "also fine")

    def picky(p: PullRequest) -> Analysis:
        if p.title == "explodes":
            raise RuntimeError("boom")
        return HEURISTIC.analyze(p)

    report = run(db, OfflineBatch(picky, "heuristic", HEURISTIC.version))
    assert (report.analyzed, report.failed) == (2, 1)
    assert report.errors == [(REPO, 2, "RuntimeError: boom")]
    assert run(db).analyzed == 1  # the failed one is tried again


@dataclass(frozen=True)
class _Fallback:
    pr: PullRequest
    analysis: Analysis
    fallback_reason: str | None = "LLM unavailable"
    prompt_tokens: int = 10
    completion_tokens: int = 0


class _AlwaysFallsBack:
    name = "llm"
    version = "1"

    def analyze_many(self, prs, concurrency=4):  # type: ignore[no-untyped-def]
        for p in prs:
            yield _Fallback(p, HEURISTIC.analyze(p))


def test_fallback_results_are_stored_but_not_cached(db):
    store(db, "[rollout] fix: OOM")
    report = run(db, _AlwaysFallsBack())
    assert (report.fell_back, report.analyzed, report.prompt_tokens) == (1, 0, 10)
    with db.session() as session:
        index = PRIndex(session)
        stored = current_analysis(session, index.pull_request_row(index.repo(REPO), 1))
        assert stored.analyzer == "llm" and stored.fallback_reason == "LLM unavailable"
    assert run(db, _AlwaysFallsBack()).fell_back == 1  # tried again next time


def test_a_dry_run_estimates_and_stores_nothing(db):
    store(db, "a", "b", "c")
    report = run(db, estimate=lambda p: 100)
    assert (report.estimated_tokens, report.analyzed, report.to_analyze) == (300, 0, 3)
    assert run(db).analyzed == 3


def test_an_unknown_repo_is_refused(db):
    with pytest.raises(LookupError, match="not in the index"):
        run(db, repo="acme/nope")
