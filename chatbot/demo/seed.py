"""Loading the demo repository into an index through the path real data takes: import, offline analysis,
weekly reports. Idempotent: seeding again with the same PRs and clock changes nothing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.analysis.runner import OfflineBatch, analyze_stored
from chatbot.analysis.types import Analysis
from chatbot.demo.data import DEMO_REPO
from chatbot.ingest.importer import import_pull_requests
from chatbot.messages import Language
from chatbot.models import PullRequest
from chatbot.ports import Clock
from chatbot.reports.weekly import build_weekly_report
from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.weeks import last_complete_week


@dataclass(frozen=True, slots=True)
class SeededReport:
    """One weekly report the seeding built (or found current)."""

    week: str  # ISO label, e.g. 2026-W25
    title: str
    pr_count: int
    reused: bool


@dataclass(frozen=True, slots=True)
class DemoSummary:
    """What seeding did: PRs imported (new, updated, unchanged), analyses written or found cached, and
    the reports of the last complete week and the one before, newest first."""

    repo: str
    pull_requests: int
    new: int
    updated: int
    unchanged: int
    analyzed: int
    cached: int
    failed: int
    reports: tuple[SeededReport, ...]

    @property
    def changed_anything(self) -> bool:
        return bool(self.new or self.updated or self.analyzed or any(not r.reused for r in self.reports))


def seed_demo(
    db: Database,
    pull_requests: Iterable[PullRequest],
    *,
    clock: Clock,
    tz: ZoneInfo,
    language: Language = "zh",
    analyzer: HeuristicAnalyzer | None = None,
) -> DemoSummary:
    """Import the demo PRs (already converted from `demo_pull_requests(clock.now(), tz)`, e.g. with
    `adapters.github.rest.pull_request_from_rest`) into DEMO_REPO, mark the repo synced at `clock.now()`,
    analyse every PR that lacks a current analysis with the heuristic analyzer, and build the weekly
    reports of the last complete week and the week before it in `language`.
    Raises ValueError when a PR belongs to another repo."""
    prs = list(pull_requests)
    strangers = sorted({pr.repo for pr in prs if pr.repo != DEMO_REPO})
    if strangers:
        raise ValueError(f"seed_demo loads {DEMO_REPO} only; got PRs of {', '.join(strangers)}")
    offline = analyzer or HeuristicAnalyzer(language=language)

    def analyze(pr: PullRequest) -> Analysis:
        return offline.analyze(pr, language)  # in the seeding language, whatever the analyzer's default

    imported = import_pull_requests(db, DEMO_REPO, prs, clock=clock)
    with db.session() as session:
        repo = PRIndex(session).repo(DEMO_REPO)
        if repo is not None and repo.last_synced_at != clock.now():
            repo.last_synced_at = clock.now()  # the bundled data is as fresh as the clock says
    analysed = analyze_stored(
        db,
        OfflineBatch(analyze, offline.name, offline.version),
        language=language,
        clock=clock,
        repo=DEMO_REPO,
    )
    last = last_complete_week(clock.now(), tz)
    weeks = (last, last_complete_week(last.start, tz))
    reports = []
    for week in weeks:
        built = build_weekly_report(db, DEMO_REPO, week, clock=clock, language=language, fallback=analyze)
        reports.append(SeededReport(week.label, built.report.title, built.report.pr_count, built.reused))
    return DemoSummary(
        repo=DEMO_REPO,
        pull_requests=len(prs),
        new=imported.new,
        updated=imported.updated,
        unchanged=imported.unchanged,
        analyzed=analysed.analyzed,
        cached=analysed.cached,
        failed=analysed.failed + imported.failed,
        reports=tuple(reports),
    )
