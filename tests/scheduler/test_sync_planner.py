"""The sync planner wired into the scheduler's sync job, against the fake GitHub on both databases:
ticks sync the repos that are due (new repos a few a tick, then each within the hour), the budgets
GitHub reports are kept per credential, a low budget holds syncs back with a reason, and `prhub
status` shows the next sync per repo and the budgets left."""

from __future__ import annotations

from datetime import timedelta

import pytest
from typer.testing import CliRunner

from adapters.github.source import GitHubSource
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.analysis.runner import OfflineBatch
from chatbot.clock import FixedClock
from chatbot.config import Settings
from chatbot.ingest.follow import follow_repos
from chatbot.ingest.schedule import allowances
from chatbot.store.index import PRIndex
from prhub_cli.main import app
from scheduler.jobs import SyncJob
from tests.fakes.github import FakeGitHub

REPOS = ["acme/a", "acme/b", "acme/c"]


@pytest.fixture
def world(db, clock: FixedClock):  # type: ignore[no-untyped-def]
    with FakeGitHub(now=clock.now, graphql=True) as github:
        assert isinstance(github, FakeGitHub)
        for n, repo in enumerate(REPOS):
            github.add_pull(repo, n + 1, merged_at=clock.now() - timedelta(days=1))
        follow_repos(db, REPOS, None, clock.now())
        settings = Settings(
            _env_file=None, github_token="test-token", github_api_url=github.url, github_retry_backoff=0
        )
        heuristic = HeuristicAnalyzer()
        job = SyncJob(
            db,
            lambda: GitHubSource(settings),
            lambda: OfflineBatch(heuristic.analyze, heuristic.name, heuristic.version),
            "en",
        )
        yield job, github


def synced(db) -> dict[str, object]:  # type: ignore[no-untyped-def]
    with db.session() as session:
        return {r.full_name: r.last_synced_at for r in PRIndex(session).repos()}


def test_ticks_sync_new_repos_a_few_at_a_time_then_each_within_the_hour(db, world, clock):
    job, github = world
    seen: list[list[str]] = []
    for _ in range(14):  # 70 minutes of 5-minute ticks
        seen.append(sorted(job(clock)))
        clock.sleep(300)
    assert seen[:4] == [["acme/a"], ["acme/b"], ["acme/c"], []]  # 3 repos x 5 min / 60 min: 1 a tick
    assert seen[11:14] == [["acme/a"], ["acme/b"], ["acme/c"]]  # 55 minutes later, in the same order
    assert all(not tick for tick in seen[4:11])
    budget = allowances(db)["token"]
    assert (
        budget.rest_remaining == github.remaining
        and budget.graphql_remaining == github.user_graphql_bucket.remaining
    )
    assert budget.rest_limit == 5000 and budget.graphql_limit == 5000


def test_a_low_budget_holds_syncs_back_and_status_says_why(
    db, database_url, world, clock, tmp_path, monkeypatch
):
    job, github = world
    for _ in range(3):
        job(clock)
        clock.sleep(300)
    clock.sleep(3600)
    github.remaining = 300  # under the 10% reserve of 5,000, for the next two hours
    github.reset_at = clock.now() + timedelta(hours=2)
    github.add_pull("acme/a", 9, merged_at=clock.now())
    assert sorted(job(clock)) == REPOS  # planned on the budget known before; GitHub reports the drop
    before = synced(db)
    clock.sleep(3600)
    assert job(clock) == {}  # all due again, but the planner backs off until the reset
    assert synced(db) == before
    monkeypatch.chdir(tmp_path)
    env = {
        "PRHUB_DATABASE_URL": database_url,
        "PRHUB_TIMEZONE": "UTC",
        "COLUMNS": "250",
    }
    status = CliRunner().invoke(app, ["status"], env=env)
    assert status.exit_code == 0, status.output
    assert "REST budget near its limit until it resets" in status.output
    assert "GitHub budget (token): REST" in status.output and "of 5,000 left" in status.output
