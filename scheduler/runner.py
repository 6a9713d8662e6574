"""The scheduler of `prhub serve`: APScheduler 3.11's BackgroundScheduler with an in-memory job store.

The jobs are re-registered at every start (explicit ids, `replace_existing`), so no job store is
shared between processes (APScheduler's FAQ: sharing one leads to duplicate or missed runs); what must
survive restarts and replicas — the push ledger, sync cursors — lives in prhub's own tables, and each
job is idempotent. Run one scheduler per deployment (`prhub serve --role worker|all`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from apscheduler.events import EVENT_JOB_ERROR, JobExecutionEvent
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from chatbot.clock import SystemClock
from chatbot.ports import Clock

log = logging.getLogger(__name__)

JOB_DEFAULTS = {"coalesce": True, "max_instances": 1, "misfire_grace_time": 600}


@dataclass(frozen=True, slots=True)
class Jobs:
    """The job bodies, each already bound to its collaborators; they receive the clock."""

    sync: Callable[[Clock], object]
    rebuild_reports: Callable[[Clock], object]
    push_tick: Callable[[Clock], object]
    housekeeping: Callable[[Clock], object]


class PrhubScheduler:
    """Owns the timezone and the identity of every job."""

    SYNC, REBUILD, PUSH, HOUSEKEEPING = (
        "prhub-sync",
        "prhub-rebuild-reports",
        "prhub-push-tick",
        "prhub-housekeeping",
    )

    def __init__(
        self, jobs: Jobs, timezone: ZoneInfo, *, sync_minutes: int = 5, clock: Clock | None = None
    ) -> None:
        self.clock = clock or SystemClock()
        self.scheduler = BackgroundScheduler(job_defaults=JOB_DEFAULTS, timezone=timezone)
        self.scheduler.add_listener(self._on_error, EVENT_JOB_ERROR)
        add = self.scheduler.add_job
        run = self._run
        add(
            run,
            IntervalTrigger(minutes=sync_minutes, timezone=timezone),
            args=[jobs.sync],
            id=self.SYNC,
            name="sync planner tick: sync the repos that are due",
            replace_existing=True,
        )
        # Day names, not numbers: APScheduler 3 counts weekdays from 0 = Monday (the crontab trap).
        add(
            run,
            CronTrigger(day_of_week="mon", hour=0, minute=20, timezone=timezone),
            args=[jobs.rebuild_reports],
            id=self.REBUILD,
            name="build last week's reports",
            replace_existing=True,
        )
        add(
            run,
            IntervalTrigger(minutes=1, timezone=timezone),
            args=[jobs.push_tick],
            id=self.PUSH,
            name="send due pushes",
            replace_existing=True,
        )
        add(
            run,
            CronTrigger(hour=4, minute=0, timezone=timezone),
            args=[jobs.housekeeping],
            id=self.HOUSEKEEPING,
            name="housekeeping",
            replace_existing=True,
        )

    def _run(self, job: Callable[[Clock], object]) -> object:
        return job(self.clock)

    @staticmethod
    def _on_error(event: JobExecutionEvent) -> None:
        log.error("scheduled job %s failed: %r", event.job_id, event.exception)

    def start(self, paused: bool = False) -> None:
        self.scheduler.start(paused=paused)

    def run_now(self, job_id: str) -> None:
        """Make a job due immediately (tests, `--catch-up` at start-up); it keeps its schedule after."""
        self.scheduler.modify_job(job_id, next_run_time=datetime.now(self.scheduler.timezone))
        if self.scheduler.state == 2:  # paused
            self.scheduler.resume()

    def shutdown(self, wait: bool = True) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=wait)
