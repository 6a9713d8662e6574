"""The index on SQLite and PostgreSQL: upserts, time zones, Unicode, failures, migrations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from alembic import command
from sqlalchemy import inspect

from chatbot.models import Comment, PRFile, PullHeader, PullRequest, Review
from chatbot.store.db import alembic_config, current_revision, head_revision, make_engine, upgrade
from chatbot.store.index import PRIndex, UpsertOutcome

NOW = datetime(2026, 6, 22, 1, 0, tzinfo=UTC)


def make_pr(
    number: int = 1,
    title: str = "[rollout] feat: 显存优化 🚀",
    merged: datetime | None = NOW,
    files: tuple[PRFile, ...] = (PRFile("verl/rollout.py", "modified", 3, 1, "+a\n+b\n+c"),),
) -> PullRequest:
    header = PullHeader(
        repo="acme/widgets",
        number=number,
        title=title,
        body="修复 OOM\n<!channel> @here",
        author="alice",
        created_at=NOW - timedelta(days=1),
        updated_at=NOW,
        merged_at=merged,
        html_url=f"https://github.com/acme/widgets/pull/{number}",
        base_ref="main",
        labels=("bug",),
    )
    return PullRequest(
        header=header,
        files=files,
        reviews=(Review("bob", "APPROVED", "LGTM", NOW),),
        comments=(Comment("carol", "nit", NOW, "verl/rollout.py"),),
        additions=3,
        deletions=1,
        changed_files=1,
    )


def test_upsert_reports_new_then_unchanged_then_updated(db):
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo("Acme/Widgets", NOW)
        assert index.upsert(repo, make_pr(), NOW) is UpsertOutcome.NEW
    with db.session() as session:
        index = PRIndex(session)
        repo = index.repo("acme/widgets")
        assert index.upsert(repo, make_pr(), NOW) is UpsertOutcome.UNCHANGED
        assert index.upsert(repo, make_pr(title="another title"), NOW) is UpsertOutcome.UPDATED


def test_a_stored_pr_reads_back_identically_with_aware_utc_times(db):
    original = make_pr()
    with db.session() as session:
        index = PRIndex(session)
        index.upsert(index.ensure_repo("acme/widgets", NOW), original, NOW)
    with db.session() as session:
        index = PRIndex(session)
        stored = index.pull_request(index.repo("acme/widgets"), 1)
    assert stored == original
    assert stored.content_hash == original.content_hash
    assert stored.header.merged_at.tzinfo is not None and stored.header.merged_at == NOW


def test_weeks_are_selected_by_merge_time_across_time_zones(db):
    shanghai = timezone(timedelta(hours=8))
    monday_local = datetime(2026, 6, 15, 0, 30, tzinfo=shanghai)  # Sunday 16:30 UTC
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo("acme/widgets", NOW)
        index.upsert(repo, make_pr(1, merged=monday_local), NOW)
        index.upsert(repo, make_pr(2, merged=monday_local - timedelta(hours=1)), NOW)
        week = index.merged_between(
            repo, datetime(2026, 6, 15, tzinfo=shanghai), datetime(2026, 6, 22, tzinfo=shanghai)
        )
    assert [pr.number for pr in week] == [1]


def test_unmerged_prs_are_refused(db):
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo("acme/widgets", NOW)
        with pytest.raises(ValueError, match="not merged"):
            index.upsert(repo, make_pr(merged=None), NOW)


def test_failures_count_attempts_and_clear(db):
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo("acme/widgets", NOW)
        index.record_failure(repo, 9, "boom", NOW)
        session.flush()
        index.record_failure(repo, 9, "boom again", NOW)
        session.flush()
        [failure] = index.failures(repo)
        assert (failure.attempts, failure.error) == (2, "boom again")
        index.clear_failure(repo, 9)
        assert index.failures(repo) == []


def test_migrations_go_down_and_up_again(database_url):
    engine = make_engine(database_url)
    upgrade(engine)
    assert current_revision(engine) == head_revision()

    command.downgrade(alembic_config(engine), "base")
    assert not inspect(engine).has_table("pull_requests")
    assert not inspect(engine).has_table("pr_search")
    upgrade(engine)
    assert inspect(engine).has_table("pull_requests") and inspect(engine).has_table("pr_search")
    engine.dispose()
