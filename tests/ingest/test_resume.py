"""An interrupted backfill is resumed by any later sync: a `prhub sync --since` subprocess killed with
SIGKILL part way through its walk (the fake GitHub holds one request open, so the point is exact), or
stopped by the rate limit, then a plain `prhub sync` (what the hourly job runs); both databases."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from typer.testing import CliRunner

from chatbot.store.db import open_database
from chatbot.store.schema import PullRequestRow, RepoRow
from prhub_cli.main import app
from tests.fakes.github import FakeGitHub

REPO = "acme/widgets"
FIRST_MERGE = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)  # long before the plain sync's default window
TOTAL = 250


def prhub(env: dict[str, str], *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), env=env)


def seed(github: FakeGitHub) -> None:
    for n in range(1, TOTAL + 1):
        github.add_pull(REPO, n, merged_at=FIRST_MERGE + timedelta(hours=6 * n))


def index_state(database_url: str) -> tuple[int, datetime | None, datetime | None]:
    """(PRs stored, the repo's unfinished backfill floor, how far back it is complete)."""
    db = open_database(database_url)
    with db.session() as session:
        count = session.scalar(select(func.count()).select_from(PullRequestRow)) or 0
        row = session.scalar(select(RepoRow).where(RepoRow.full_name == REPO))
        floor, since = (row.backfill_floor, row.synced_since) if row else (None, None)
    db.dispose()
    return count, floor, since


def status_line(env: dict[str, str]) -> str:
    result = prhub(env, "status")
    assert result.exit_code == 0, result.output
    return next(line for line in result.output.splitlines() if REPO in line)


def test_a_backfill_killed_mid_walk_is_resumed_by_a_plain_sync(cli_env, github, database_url):
    seed(github)
    stall = github.stall(r"/pulls/\d+/files$", after=80)  # the 81st PR's files: 80 stored by then
    sync = subprocess.Popen(
        [sys.executable, "-m", "prhub_cli", "sync", REPO, "--since", "2026-01-01", "--no-analyze"],
        env={**cli_env, "HOME": os.environ.get("HOME", "/tmp")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert stall.reached.wait(timeout=120), "the sync never reached the held request"
        sync.send_signal(signal.SIGKILL)
        assert sync.wait(timeout=30) == -signal.SIGKILL
    finally:
        sync.kill()
        stall.release.set()

    stored, floor, since = index_state(database_url)
    assert stored == 80
    assert floor == datetime(2026, 1, 1, tzinfo=UTC)
    assert since is None
    assert "incomplete: backfill to 2026-01-01 unfinished" in status_line(cli_env)

    github.reset_calls()
    resumed = prhub(cli_env, "sync", REPO, "--no-analyze")
    assert resumed.exit_code == 0, resumed.output
    assert f"{REPO}: {TOTAL - 80} new, 0 updated, 80 unchanged, 0 failed" in resumed.output
    assert index_state(database_url) == (TOTAL, None, datetime(2026, 1, 1, tzinfo=UTC))
    assert "complete since 2026-01-01" in status_line(cli_env)
    # the 80 stored PRs cost no request: 3 listing pages and 4 requests for each missing PR (this
    # fake has no GraphQL, found with one request)
    assert len(github.calls) == 1 + 3 + 4 * (TOTAL - 80)


def test_a_backfill_stopped_by_the_rate_limit_is_resumed_by_a_plain_sync(cli_env, github, database_url):
    seed(github)
    github.rate_limit = github.remaining = 3 + 4 * 100  # the listing and 100 PRs, then 403
    stopped = prhub(cli_env, "sync", REPO, "--since", "2026-01-01", "--no-analyze", "--max-wait", "0")
    assert stopped.exit_code == 3, stopped.output
    assert index_state(database_url)[:2] == (100, datetime(2026, 1, 1, tzinfo=UTC))
    assert "incomplete" in status_line(cli_env)

    github.rate_limit = github.remaining = 5000
    resumed = prhub(cli_env, "sync", REPO, "--no-analyze")
    assert resumed.exit_code == 0, resumed.output
    assert index_state(database_url) == (TOTAL, None, datetime(2026, 1, 1, tzinfo=UTC))


def test_a_deeper_unfinished_backfill_is_resumed_by_a_shallower_since(cli_env, github, database_url):
    seed(github)
    github.rate_limit = github.remaining = 3 + 4 * 10
    prhub(cli_env, "sync", REPO, "--since", "2026-01-01", "--no-analyze", "--max-wait", "0")
    github.rate_limit = github.remaining = 5000
    later = prhub(cli_env, "sync", REPO, "--since", "2026-02-01", "--no-analyze")
    assert later.exit_code == 0, later.output
    assert index_state(database_url) == (TOTAL, None, datetime(2026, 1, 1, tzinfo=UTC))


def test_a_repo_github_does_not_know_gets_no_row_and_no_backfill(cli_env, database_url):
    result = prhub(cli_env, "sync", "acme/missing", "--since", "2026-01-01", "--no-analyze")
    assert result.exit_code != 0
    db = open_database(database_url)
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(RepoRow)) == 0
    db.dispose()
