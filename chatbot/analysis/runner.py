"""Analysing the stored PRs that need it: the cache by input hash, batches, and the run's tally.

An analysis is stored with the PR's content hash; a PR whose content hash, analyzer, analyzer version
and language match a stored analysis is "cached" and never analysed (or sent to an LLM) again. A
fallback result (the LLM failed, the heuristic answer was kept) is stored too, but does not count as
cached, so the next run tries the LLM again. Outcomes are stored in batches (up to STORE_BATCH PRs, or
whatever completed within STORE_SECONDS), each batch one transaction: a PR's analysis and search
document are never half-written, and a slow LLM run loses at most a few seconds of work if it stops.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import bindparam, select

from chatbot.analysis.types import Analysis
from chatbot.models import PullRequest
from chatbot.ports import Clock
from chatbot.store.analyses import NewAnalysis, input_hash, save_analyses, search_document
from chatbot.store.db import Database
from chatbot.store.events import claim_leases, release_leases
from chatbot.store.index import WHOLE_COLUMNS, PRIndex, to_pull_request
from chatbot.store.schema import AnalysisRow, PullRequestRow, RepoRow

CHUNK = 100
LEASE_KIND = "analysis-lease"  # rows in processed_events: one per PR being analysed right now
LEASE = timedelta(minutes=30)  # a lease older than this belongs to a run that died: taken over
STORE_BATCH = 100
STORE_SECONDS = 2.0


class Outcome(Protocol):
    """One PR's result: the analysis (None if the analyzer failed), why it fell back, what it cost."""

    @property
    def pr(self) -> PullRequest: ...
    @property
    def analysis(self) -> Analysis | None: ...
    @property
    def fallback_reason(self) -> str | None: ...
    @property
    def prompt_tokens(self) -> int: ...
    @property
    def completion_tokens(self) -> int: ...


class BatchAnalyzer(Protocol):
    """An analyzer as the runner drives it."""

    @property
    def name(self) -> str: ...
    @property
    def version(self) -> str: ...

    def analyze_many(self, prs: Iterable[PullRequest], concurrency: int = 4) -> Iterator[Outcome]:
        """Outcomes as they complete; never raises for one PR."""
        ...


@dataclass(frozen=True, slots=True)
class HeuristicOutcome:
    pr: PullRequest
    analysis: Analysis | None
    fallback_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(frozen=True, slots=True)
class StoredPR:
    """A PR loaded to be analysed, with the ids its analysis is stored under."""

    pr_id: int
    repo_id: int
    pr: PullRequest


class OfflineBatch:
    """Drives a plain analyzer (`analyze(pr) -> Analysis`, e.g. the heuristic one) as a BatchAnalyzer;
    a PR that makes it raise becomes a failed outcome instead of ending the run."""

    def __init__(self, analyze: Callable[[PullRequest], Analysis], name: str, version: str) -> None:
        self._analyze, self.name, self.version = analyze, name, version

    def analyze_many(self, prs: Iterable[PullRequest], concurrency: int = 1) -> Iterator[HeuristicOutcome]:
        for pr in prs:
            try:
                yield HeuristicOutcome(pr, self._analyze(pr))
            except Exception as exc:  # one odd PR must not stop the batch; it is reported as failed
                yield HeuristicOutcome(pr, None, f"{type(exc).__name__}: {exc}")


@dataclass(slots=True)
class AnalyzeReport:
    analyzed: int = 0
    cached: int = 0
    fell_back: int = 0
    failed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated_tokens: int = 0  # --dry-run only
    left_to_another: int = 0  # leased by another run analysing at the same time
    to_analyze: int = 0
    errors: list[tuple[str, int, str]] = field(default_factory=list)


def analyze_stored(
    db: Database,
    analyzer: BatchAnalyzer,
    *,
    language: str,
    clock: Clock,
    repo: str | None = None,
    since: datetime | None = None,
    reanalyze: bool = False,
    concurrency: int = 1,
    estimate: Callable[[PullRequest], int] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> AnalyzeReport:
    """Analyse the stored PRs (of `repo`, merged since `since`) that have no current analysis by this
    analyzer; with `reanalyze`, all of them. With `estimate`, analyse nothing and add up the estimated
    prompt tokens instead (a dry run). Raises LookupError for a repo that is not indexed."""
    report = AnalyzeReport()
    todo = _pending(db, analyzer, language, repo, since, reanalyze, report)
    report.to_analyze = len(todo)
    done = 0
    repos: dict[int, RepoRow] = {}
    for start in range(0, len(todo), CHUNK):
        chunk = todo[start : start + CHUNK]
        if estimate is not None:
            report.estimated_tokens += sum(estimate(s.pr) for s in _load(db, chunk, repos))
            done += len(chunk)
            if on_progress:
                on_progress(done, len(todo))
            continue
        leases = _claim(db, analyzer, language, chunk, clock.now(), reanalyze, report)
        try:
            loaded = _load(
                db, [item for item in chunk if lease_key(analyzer, language, item) in leases], repos
            )
            done += len(chunk) - len(loaded)
            batch: list[Outcome] = []
            started = time.monotonic()
            for outcome in analyzer.analyze_many([s.pr for s in loaded], concurrency):
                batch.append(outcome)
                if len(batch) >= STORE_BATCH or time.monotonic() - started >= STORE_SECONDS:
                    _store(db, analyzer, language, batch, loaded, clock.now(), report)
                    done += len(batch)
                    batch, started = [], time.monotonic()
                    if on_progress:
                        on_progress(done, len(todo))
            if batch:
                _store(db, analyzer, language, batch, loaded, clock.now(), report)
                done += len(batch)
                if on_progress:
                    on_progress(done, len(todo))
        finally:
            release_leases(db, LEASE_KIND, leases)
    return report


def lease_key(analyzer: BatchAnalyzer, language: str, item: tuple[int, str]) -> str:
    """What a run leases while it analyses one PR: the PR and its analysis input (so a changed PR or
    another analyzer is other work)."""
    pr_id, content_hash = item
    return f"{pr_id}:{input_hash(content_hash, analyzer.name, analyzer.version, language)}"


def _claim(
    db: Database,
    analyzer: BatchAnalyzer,
    language: str,
    chunk: Sequence[tuple[int, str]],
    now: datetime,
    reanalyze: bool,
    report: AnalyzeReport,
) -> set[str]:
    """Lease the chunk's PRs, so that a second `prhub analyze` (or the scheduler) running at the same
    time does not analyse them too (2-4x the LLM cost otherwise). A PR another run has analysed since
    this one listed its work counts as cached; one leased by another run is left to it."""
    keys = {lease_key(analyzer, language, item): item for item in chunk}
    if not reanalyze:
        with db.session() as session:
            analysed = session.execute(
                _ANALYSED, {"ids": [pr_id for pr_id, _ in chunk], "analyzer": analyzer.name}
            ).all()
        fresh = keys.keys() & {f"{pr_id}:{key}" for pr_id, key in analysed}
        report.cached += len(fresh)
        keys = {k: v for k, v in keys.items() if k not in fresh}
    leases = claim_leases(db, LEASE_KIND, keys, now, LEASE)
    report.left_to_another += len(keys) - len(leases)
    return leases


def _pending(
    db: Database,
    analyzer: BatchAnalyzer,
    language: str,
    repo: str | None,
    since: datetime | None,
    reanalyze: bool,
    report: AnalyzeReport,
) -> list[tuple[int, str]]:
    """(PR id, content hash) of the PRs to analyse, oldest merge first; counts the cached ones."""
    with db.session() as session:
        repo_row: RepoRow | None = None
        if repo is not None:
            repo_row = PRIndex(session).repo(repo)
            if repo_row is None:
                raise LookupError(f"{repo} is not in the index; run `prhub sync {repo}` first")
        statement = select(PullRequestRow.id, PullRequestRow.content_hash)
        if repo_row is not None:
            statement = statement.where(PullRequestRow.repo_id == repo_row.id)
        if since is not None:
            statement = statement.where(PullRequestRow.merged_at >= since)
        candidates = session.execute(statement.order_by(PullRequestRow.merged_at, PullRequestRow.id)).all()
        done: set[tuple[int, str]] = set()
        if not reanalyze and candidates:
            keys = select(AnalysisRow.pr_id, AnalysisRow.input_hash).where(
                AnalysisRow.analyzer == analyzer.name, AnalysisRow.fallback_reason.is_(None)
            )
            if repo_row is not None:
                keys = keys.join(PullRequestRow, PullRequestRow.id == AnalysisRow.pr_id).where(
                    PullRequestRow.repo_id == repo_row.id
                )
            done = {(pr_id, key) for pr_id, key in session.execute(keys)}
    todo = []
    for pr_id, content_hash in candidates:
        if (pr_id, input_hash(content_hash, analyzer.name, analyzer.version, language)) in done:
            report.cached += 1
        else:
            todo.append((pr_id, content_hash))
    return todo


def _load(db: Database, chunk: Sequence[tuple[int, str]], repos: dict[int, RepoRow]) -> list[StoredPR]:
    """The chunk's PRs, whole, with their ids. Read as plain rows through the connection (ORM objects of
    100 PRs with their files cost a third more to build and are thrown away at once), by position; the
    repos read once a run (`repos`, by id)."""
    with db.session() as session:
        rows = session.connection().execute(_WHOLE_PRS, {"ids": [i for i, _ in chunk]}).all()
        missing = {row[-1] for row in rows} - repos.keys()
        if missing:
            repos.update((r.id, r) for r in session.scalars(select(RepoRow).where(RepoRow.id.in_(missing))))
        by_id = {row[0]: StoredPR(row[0], row[-1], to_pull_request(repos[row[-1]], row)) for row in rows}
    return [by_id[i] for i, _ in chunk if i in by_id]


def _store(
    db: Database,
    analyzer: BatchAnalyzer,
    language: str,
    outcomes: Sequence[Outcome],
    loaded: Sequence[StoredPR],
    now: datetime,
    report: AnalyzeReport,
) -> None:
    """Store a batch of outcomes in one transaction (`save_analyses`), with the ids of the PRs as loaded;
    an analysis of a PR that changed while it was analysed is left out (the next run takes the new one)."""
    by_number = {(s.pr.repo, s.pr.number): s for s in loaded}
    items: list[NewAnalysis] = []
    for outcome in outcomes:
        report.prompt_tokens += outcome.prompt_tokens
        report.completion_tokens += outcome.completion_tokens
        pr, analysis = outcome.pr, outcome.analysis
        if analysis is None:
            report.failed += 1
            report.errors.append((pr.repo, pr.number, outcome.fallback_reason or "unknown error"))
            continue
        # The PR as analysed is the stored one if its content hash still is: its search document is built
        # from it, not from the row read again.
        document = search_document(
            pr.title,
            analysis,
            body=pr.header.body,
            paths=[f.filename for f in pr.files],
            discussion=[r.body or "" for r in pr.reviews] + [c.body or "" for c in pr.comments],
        )
        loaded_pr = by_number[(pr.repo, pr.number)]
        items.append(
            NewAnalysis(
                loaded_pr.pr_id,
                loaded_pr.repo_id,
                pr.content_hash,
                analysis,
                document,
                outcome.fallback_reason,
                outcome.prompt_tokens,
                outcome.completion_tokens,
            )
        )
    if not items:
        return
    with db.session() as session:
        saved = save_analyses(
            session, items, analyzer=analyzer.name, version=analyzer.version, language=language, now=now
        )
    by_id = {s.pr_id: s.pr for s in loaded}
    for item in saved:
        if item.fallback_reason is not None:
            report.fell_back += 1
            pr = by_id[item.pr_id]
            report.errors.append((pr.repo, pr.number, item.fallback_reason))
        else:
            report.analyzed += 1


# Statements built once, their id lists one expanding parameter each (not a bound literal per id, built
# and compiled again at every chunk).
_ANALYSED = select(AnalysisRow.pr_id, AnalysisRow.input_hash).where(
    AnalysisRow.pr_id.in_(bindparam("ids", expanding=True)),
    AnalysisRow.analyzer == bindparam("analyzer"),
    AnalysisRow.fallback_reason.is_(None),
)
_WHOLE_PRS = select(*WHOLE_COLUMNS, PullRequestRow.repo_id).where(
    PullRequestRow.id.in_(bindparam("ids", expanding=True))
)
