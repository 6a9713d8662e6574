"""Sync against a fake GitHub with the real PyGithub client, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from pydantic import SecretStr
from sqlalchemy import func, select

from adapters.github.source import GitHubSource
from chatbot.clock import FixedClock
from chatbot.config import ConfigError
from chatbot.ingest.sync import sync_repo
from chatbot.ports import AuthenticationFailed, RepoNotFound, SourceUnavailable
from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow
from tests.fakes.github import FakeGitHub, comment, make_file, review

REPO = "acme/widgets"


def seed(github: FakeGitHub, clock: FixedClock, merged: int, unmerged: int = 0) -> None:
    """`merged` PRs merged one an hour back from now, and some closed without merging."""
    for n in range(1, merged + 1):
        github.add_pull(REPO, n, merged_at=clock.now() - timedelta(hours=merged - n + 1))
    for n in range(merged + 1, merged + unmerged + 1):
        github.add_pull(REPO, n, merged_at=None, updated_at=clock.now() - timedelta(minutes=n))


def stored(db: Database) -> int:
    with db.session() as session:
        return session.scalar(select(func.count()).select_from(PullRequestRow)) or 0


def run(db: Database, source: GitHubSource, clock: FixedClock, **kwargs: object):  # type: ignore[no-untyped-def]
    kwargs.setdefault("since", clock.now() - timedelta(days=30))
    return sync_repo(db, source, REPO, clock=clock, **kwargs)  # type: ignore[arg-type]


def test_backfill_fetches_every_merged_pr_across_pages(db, source, github, clock):
    seed(github, clock, merged=230, unmerged=15)
    report = run(db, source, clock)
    assert (report.new, report.updated, report.failed) == (230, 0, 0)
    assert stored(db) == 230
    list_calls = [p for p in github.paths() if p == f"/repos/{REPO}/pulls"]
    assert len(list_calls) == 3  # 245 closed PRs, 100 a page
    # files, reviews, review comments and conversation comments: four requests a PR
    assert report.requests == 3 + 4 * 230


def test_a_second_sync_costs_one_conditional_request_and_writes_nothing(db, source, github, clock):
    seed(github, clock, merged=120)
    run(db, source, clock)
    github.reset_calls()
    report = run(db, source, clock, since=None)
    assert report.not_modified
    assert (report.new, report.updated, report.requests) == (0, 0, 1)
    assert [c.status for c in github.calls] == [304]


def test_an_edited_pr_is_updated_and_its_content_hash_changes(db, source, github, clock):
    seed(github, clock, merged=5)
    run(db, source, clock)
    with db.session() as session:
        before = PRIndex(session).pull_request(PRIndex(session).repo(REPO), 3)
    clock.sleep(60)
    github.edit_pull(
        REPO,
        3,
        at=clock.now(),
        title="[trainer] fix: a better title",
        files=[make_file("src/other.py", 1, 1)],
    )
    github.reset_calls()
    report = run(db, source, clock, since=None)
    assert (report.new, report.updated, report.failed) == (0, 1, 0)
    with db.session() as session:
        after = PRIndex(session).pull_request(PRIndex(session).repo(REPO), 3)
    assert after.title == "[trainer] fix: a better title"
    assert after.content_hash != before.content_hash
    assert [f.filename for f in after.files] == ["src/other.py"]
    # only the edited PR was fetched again
    assert sorted({p for p in github.paths() if "/pulls/" in p or "/issues/" in p}) == sorted(
        {
            f"/repos/{REPO}/pulls/3/files",
            f"/repos/{REPO}/pulls/3/reviews",
            f"/repos/{REPO}/pulls/3/comments",
            f"/repos/{REPO}/issues/3/comments",
        }
    )


def test_a_touched_but_unchanged_pr_is_not_rewritten(db, source, github, clock):
    seed(github, clock, merged=3)
    run(db, source, clock)
    clock.sleep(60)
    github.edit_pull(REPO, 2, at=clock.now())  # updated_at moves, content does not
    report = run(db, source, clock, since=None)
    assert (report.new, report.updated, report.requests) == (0, 0, 5)  # the listing and PR 2
    github.reset_calls()
    assert run(db, source, clock, since=None).requests == 1  # and the new updated_at was recorded


def test_reviews_and_comments_are_stored(db, source, github, clock):
    at = clock.now() - timedelta(hours=2)
    github.add_pull(
        REPO,
        7,
        merged_at=at,
        reviews=[review("bob", "APPROVED", "LGTM, nice fix", at)],
        review_comments=[comment("carol", "Could this OOM?", at, path="src/app.py")],
        issue_comments=[comment("dave", "Benchmarks look good", at)],
    )
    run(db, source, clock)
    with db.session() as session:
        pr = PRIndex(session).pull_request(PRIndex(session).repo(REPO), 7)
    assert [(r.author, r.state) for r in pr.reviews] == [("bob", "APPROVED")]
    assert {(c.author, c.path) for c in pr.comments} == {("carol", "src/app.py"), ("dave", None)}


def test_prs_merged_before_since_are_not_fetched(db, source, github, clock):
    github.add_pull(REPO, 1, merged_at=clock.now() - timedelta(days=40))
    github.add_pull(REPO, 2, merged_at=clock.now() - timedelta(days=2))
    report = run(db, source, clock, since=clock.now() - timedelta(days=7))
    assert report.new == 1
    # an earlier --since walks further back and picks up the older PR
    report = run(db, source, clock, since=clock.now() - timedelta(days=60))
    assert (report.new, report.unchanged) == (1, 1)


def test_rate_limit_reached_mid_sync_waits_for_the_reset_without_sleeping(db, source, github, clock):
    seed(github, clock, merged=10)
    # the budget runs out after the listing and three PRs, and comes back in 90 s
    github.remaining = 1 + 4 * 3
    github.reset_at = clock.now() + timedelta(seconds=90)
    report = run(db, source, clock, max_wait=600)
    assert report.complete and report.new == 10
    assert 90 <= sum(clock.slept) <= 92  # waited on the test clock, in one-second countdown steps
    assert max(clock.slept) <= 1


def test_rate_limit_beyond_max_wait_stops_cleanly_and_a_rerun_continues(db, source, github, clock):
    seed(github, clock, merged=10)
    done_before_limit = 3
    # let the listing and three PRs through, then the budget is gone for an hour
    github.rate_limit = github.remaining = 1 + 4 * done_before_limit
    report = run(db, source, clock, max_wait=60)
    assert not report.complete
    assert report.retry_at is not None and report.stopped and "rate limit" in report.stopped
    assert stored(db) == done_before_limit
    clock.sleep(3601)
    github.rate_limit = 5000
    report = run(db, source, clock, max_wait=60)
    assert report.complete and report.new == 10 - done_before_limit
    assert stored(db) == 10


def test_a_5xx_burst_is_retried_and_recovered(db, source, github, clock):
    seed(github, clock, merged=4)
    github.fail(r"/pulls/2/files$", status=502, times=2)
    github.fail(r"/pulls$", status=503, times=1)
    report = run(db, source, clock)
    assert (report.new, report.failed) == (4, 0)


def test_one_failing_pr_is_recorded_and_retried_next_time_without_losing_the_others(
    db, source, github, clock
):
    seed(github, clock, merged=6)
    github.fail(r"/pulls/4/files$", status=500, times=10)  # beyond the 3 retries
    report = run(db, source, clock)
    assert (report.new, report.failed) == (5, 1)
    assert report.failures[0][0] == 4
    with db.session() as session:
        index = PRIndex(session)
        assert [f.number for f in index.failures(index.repo(REPO))] == [4]
    github.reset_calls()
    github._injected.clear()
    report = run(db, source, clock, since=None)
    assert (report.new, report.failed) == (1, 0)
    assert f"/repos/{REPO}/pulls/4" in github.paths()  # the retry fetched it by number
    with db.session() as session:
        index = PRIndex(session)
        assert index.failures(index.repo(REPO)) == []
    assert stored(db) == 6


def test_unknown_repo_is_a_clear_error_and_writes_nothing(db, source, clock):
    with pytest.raises(RepoNotFound, match="not found"):
        sync_repo(db, source, "acme/nope", clock=clock, since=clock.now() - timedelta(days=1))
    with db.session() as session:
        assert PRIndex(session).repos() == []


def test_a_refused_token_is_a_clear_error(db, github, settings, clock):
    seed(github, clock, merged=1)
    bad = GitHubSource(settings.model_copy(update={"github_token": SecretStr("wrong")}))
    with pytest.raises(AuthenticationFailed, match="GITHUB_TOKEN"):
        run(db, bad, clock)


def test_malformed_json_from_the_server_is_a_clear_error(db, source, github, clock):
    seed(github, clock, merged=1)
    github.malformed(r"/pulls$")
    with pytest.raises(SourceUnavailable, match="malformed JSON"):
        run(db, source, clock)
    assert stored(db) == 0


def test_a_pr_with_3000_files_and_huge_patches_is_stored_capped(db, source, github, clock):
    huge = "@@ -1 +1 @@\n" + "+" + "x" * 50_000
    files = [make_file(f"pkg/module_{i}.py", 100, 3, patch=huge) for i in range(3_000)]
    github.add_pull(REPO, 1, merged_at=clock.now() - timedelta(hours=1), files=files)
    report = run(db, source, clock)
    assert report.new == 1
    with db.session() as session:
        pr = PRIndex(session).pull_request(PRIndex(session).repo(REPO), 1)
    assert len(pr.files) == 3_000
    assert pr.additions == 300_000
    kept = [f.patch for f in pr.files if f.patch is not None]
    assert 0 < len(kept) < 3_000
    assert sum(len(p) for p in kept) <= 200_000


@pytest.mark.parametrize("token", ["changeme", "<your token>", "ghp_xxxxxxxx", ""])
def test_a_missing_or_placeholder_token_is_refused_before_any_request(settings, github, token):
    with pytest.raises(ConfigError, match="GITHUB_TOKEN"):
        GitHubSource(settings.model_copy(update={"github_token": SecretStr(token)}))
    assert github.calls == []
