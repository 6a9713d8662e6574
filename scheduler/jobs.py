"""The scheduled jobs as plain functions: each takes its collaborators and a clock, so tests call them
directly with a fixed clock instead of waiting for a scheduler."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import cast
from zoneinfo import ZoneInfo

from sqlalchemy import or_, select

from chatbot.analysis.runner import BatchAnalyzer, analyze_stored
from chatbot.analysis.types import Analysis
from chatbot.ingest.planner import plan_syncs
from chatbot.ingest.schedule import allowances, record_budget, repo_loads, save_plan
from chatbot.ingest.sync import SyncReport, sync_repo
from chatbot.messages import Language
from chatbot.models import PullRequest
from chatbot.ports import Clock, PRSource, SourceError
from chatbot.reports.weekly import ReportWriter, build_weekly_report
from chatbot.store.conversations import forget_expired_conversations
from chatbot.store.db import Database
from chatbot.store.events import forget_old_events
from chatbot.store.schema import RepoRow, SubscriptionRow
from chatbot.subscriptions.delivery import PushContext, PushReport, push_due
from chatbot.weeks import last_complete_week

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SyncJob:
    """Sync (and analyse) the repos that have an active subscription or are followed (a GitHub App
    installation of an autofollowed account grants them), each when the sync planner
    (chatbot/ingest/planner.py) says so: at least hourly while the budgets last."""

    db: Database
    source: Callable[[], PRSource]
    analyzer: Callable[[], BatchAnalyzer]
    language: str
    backfill: timedelta = timedelta(weeks=8)
    max_wait: float = 300.0

    def repos(self) -> Sequence[str]:
        subscribed = (
            select(SubscriptionRow.id)
            .where(SubscriptionRow.repo_id == RepoRow.id, SubscriptionRow.active.is_(True))
            .exists()
        )
        with self.db.session() as session:
            return session.scalars(
                select(RepoRow.full_name)
                .where(or_(RepoRow.followed.is_(True), subscribed))
                .order_by(RepoRow.full_name)
            ).all()

    def __call__(self, clock: Clock) -> dict[str, SyncReport]:
        """One tick of the sync planner (every 5 minutes): sync the repos it says are due, within the
        budgets GitHub last reported, and keep the plan and the budgets for `prhub status`."""
        now = clock.now()
        plan = plan_syncs(repo_loads(self.db, self.repos(), now), allowances(self.db), now)
        for repo, why in plan.held.items():
            log.info("sync of %s waits: %s", repo, why)
        reports: dict[str, SyncReport] = {}
        source = self.source() if plan.now else None  # one per tick: it remembers installations
        for repo in plan.now:
            assert source is not None
            reports[repo] = self.sync_one(repo, clock, source, plan.caps.get(repo))
            record_budget(self.db, repo, source.budget(), clock.now())
        save_plan(self.db, plan)
        return reports

    def sync_one(
        self, repo: str, clock: Clock, source: PRSource | None = None, max_requests: int | None = None
    ) -> SyncReport:
        """One repo: sync (at most `max_requests` REST requests), then analyse what is new. Failures are
        logged; the next run tries again."""
        try:
            report = sync_repo(
                self.db,
                source or self.source(),
                repo,
                clock=clock,
                backfill=self.backfill,
                max_wait=self.max_wait,
                max_requests=max_requests,
            )
            analyze_stored(self.db, self.analyzer(), language=self.language, clock=clock, repo=repo)
        except SourceError as exc:
            log.warning("sync of %s failed: %s", repo, exc)
            return SyncReport(repo=repo, complete=False, stopped=str(exc))
        if not report.complete:
            log.warning("sync of %s stopped early: %s", repo, report.stopped)
        return report


def rebuild_reports(
    db: Database,
    clock: Clock,
    fallback: Callable[[PullRequest], Analysis],
    writer: ReportWriter | None = None,
) -> int:
    """Build the report of the week that just ended for every subscribed repo, in each language and
    timezone its subscriptions use, so the Monday pushes find them ready. Returns how many were built."""
    with db.session() as session:
        wanted = session.execute(
            select(RepoRow.full_name, SubscriptionRow.language, SubscriptionRow.timezone)
            .join(SubscriptionRow, SubscriptionRow.repo_id == RepoRow.id)
            .where(SubscriptionRow.active.is_(True))
            .distinct()
        ).all()
    built = 0
    for repo, language, timezone in wanted:
        week = last_complete_week(clock.now(), ZoneInfo(timezone))
        result = build_weekly_report(
            db, repo, week, clock=clock, language=cast(Language, language), fallback=fallback, writer=writer
        )
        built += not result.reused
    return built


PUSH_THREADS = 4  # deliveries in flight at once: one waiting on a channel's pace does not hold up the rest


def push_tick(
    db: Database, clock: Clock, context: PushContext, worker: str, threads: int = PUSH_THREADS
) -> PushReport:
    """Send every push that is due, on `threads` threads (the ledger's claims keep them apart); called
    every minute."""
    reports: list[PushReport] = []

    def run(name: str) -> None:
        reports.append(push_due(db, clock, context, name))

    pool = [
        threading.Thread(target=run, args=(f"{worker}/{n}",), name=f"prhub-push-{n}") for n in range(threads)
    ]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    report = PushReport()
    for part in reports:
        for name in ("scheduled", "sent", "recovered", "skipped", "failed", "gone"):
            setattr(report, name, getattr(report, name) + getattr(part, name))
        report.errors += part.errors
    if report.sent or report.failed or report.gone or report.skipped:
        log.info("push tick: %s", report)
    return report


def housekeeping(db: Database, clock: Clock) -> int:
    """Forget processed-event ids older than a week and expired conversations; returns how many rows."""
    now = clock.now()
    return forget_old_events(db, now) + forget_expired_conversations(db, now)
