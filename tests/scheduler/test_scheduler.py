"""The scheduler wiring: a real BackgroundScheduler fires the push tick (made due, not waited for), and
the job bodies do their work with a fixed clock."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from apscheduler.events import EVENT_JOB_EXECUTED

from adapters.github.source import GitHubSource
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.analysis.runner import OfflineBatch
from chatbot.clock import FixedClock
from chatbot.config import Settings
from chatbot.subscriptions.delivery import PushContext
from scheduler.jobs import SyncJob, push_tick, rebuild_reports
from scheduler.runner import Jobs, PrhubScheduler
from tests.fakes.github import FakeGitHub
from tests.reports.fixtures import REPO, seed
from tests.subscriptions.test_delivery import MONDAY_0900, RecordingSender, subscribe

SHANGHAI = ZoneInfo("Asia/Shanghai")


def test_the_push_tick_fires_in_a_real_scheduler_and_a_card_goes_out(db):
    seed(db)
    subscribe(db, "订阅 acme/widgets")
    sender = RecordingSender()
    context = PushContext({"slack": sender}, HeuristicAnalyzer().analyze)
    clock = FixedClock(MONDAY_0900 + timedelta(minutes=5))
    ran = threading.Event()
    noop = lambda clock: None  # noqa: E731
    jobs = Jobs(
        sync=noop,
        rebuild_reports=noop,
        housekeeping=noop,
        push_tick=lambda clock: push_tick(db, clock, context, "scheduler-test"),
    )
    scheduler = PrhubScheduler(jobs, SHANGHAI, clock=clock)
    scheduler.scheduler.add_listener(
        lambda event: event.job_id == PrhubScheduler.PUSH and ran.set(), EVENT_JOB_EXECUTED
    )
    scheduler.start(paused=True)
    try:
        ids = {job.id for job in scheduler.scheduler.get_jobs()}
        assert ids == {
            PrhubScheduler.SYNC,
            PrhubScheduler.REBUILD,
            PrhubScheduler.PUSH,
            PrhubScheduler.HOUSEKEEPING,
        }
        rebuild = scheduler.scheduler.get_job(PrhubScheduler.REBUILD)
        monday = rebuild.trigger.get_next_fire_time(None, datetime(2026, 6, 19, 12, tzinfo=SHANGHAI))
        assert monday == datetime(2026, 6, 22, 0, 20, tzinfo=SHANGHAI)  # Monday, not Tuesday
        scheduler.run_now(PrhubScheduler.PUSH)
        assert ran.wait(timeout=10)
    finally:
        scheduler.shutdown()
    assert len(sender.posts) == 1 and sender.posts[0][1].title.startswith("acme/widgets 2026年第25周")


def test_rebuild_builds_last_weeks_report_for_each_subscription_language(db):
    seed(db)
    subscribe(db, "订阅 acme/widgets")
    subscribe(db, "subscribe acme/widgets lang=en", channel="C2")
    clock = FixedClock(MONDAY_0900 - timedelta(hours=8))
    assert rebuild_reports(db, clock, HeuristicAnalyzer().analyze) == 2
    assert rebuild_reports(db, clock, HeuristicAnalyzer().analyze) == 0  # already current


def test_the_sync_job_takes_every_subscribed_repo_and_survives_a_failing_github(db):
    seed(db)
    subscribe(db, "订阅 acme/widgets")
    heuristic = HeuristicAnalyzer()
    with FakeGitHub() as github:
        assert isinstance(github, FakeGitHub)
        github.add_repo(REPO)
        github.fail(r"/pulls$", status=502, times=10)
        settings = Settings(
            _env_file=None,
            github_token="test-token",
            github_api_url=github.url,
            github_retry_backoff=0,
            github_retries=1,
        )
        job = SyncJob(
            db,
            lambda: GitHubSource(settings),
            lambda: OfflineBatch(heuristic.analyze, heuristic.name, heuristic.version),
            "zh",
        )
        assert job.repos() == [REPO]
        reports = job(FixedClock(datetime(2026, 6, 22, tzinfo=UTC)))
    assert not reports[REPO].complete and "502" in (reports[REPO].stopped or "")
