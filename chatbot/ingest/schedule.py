"""The sync planner's state in the database: each repo's load (subscribers, recent pace, last sync, the
credential that reads it), the budgets GitHub last reported per credential, and the plan's next sync
and hold reason per repo, which `prhub status` shows."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import func, select

from chatbot.ingest.planner import Allowance, Plan, RepoLoad
from chatbot.ports import Budget
from chatbot.store.db import Database
from chatbot.store.schema import ApiBudgetRow, PullRequestRow, RepoRow, SubscriptionRow

PACE_WEEKS = 4  # a repo's pace is its merged PRs over the last four weeks


def credential_of(installation_id: int | None) -> str:
    return f"installation:{installation_id}" if installation_id is not None else "token"


def repo_loads(db: Database, repos: Sequence[str], now: datetime) -> list[RepoLoad]:
    """The planner's view of `repos`, in the order they were added to the index."""
    since = now - timedelta(weeks=PACE_WEEKS)
    with db.session() as session:
        merged = dict(
            session.execute(
                select(PullRequestRow.repo_id, func.count())
                .where(PullRequestRow.merged_at >= since)
                .group_by(PullRequestRow.repo_id)
            ).all()
        )
        subscribed = dict(
            session.execute(
                select(SubscriptionRow.repo_id, func.count())
                .where(SubscriptionRow.active.is_(True))
                .group_by(SubscriptionRow.repo_id)
            ).all()
        )
        rows = session.scalars(
            select(RepoRow).where(RepoRow.full_name.in_(list(repos))).order_by(RepoRow.created_at, RepoRow.id)
        ).all()
        return [
            RepoLoad(
                repo=row.full_name,
                credential=credential_of(row.installation_id),
                subscribers=int(subscribed.get(row.id, 0)),
                prs_per_week=merged.get(row.id, 0) / PACE_WEEKS,
                last_synced_at=row.last_synced_at,
                order=position,
            )
            for position, row in enumerate(rows)
        ]


def allowances(db: Database) -> dict[str, Allowance]:
    with db.session() as session:
        return {
            row.credential: Allowance(
                row.rest_remaining,
                row.rest_limit,
                row.rest_reset_at,
                row.graphql_remaining,
                row.graphql_limit,
                row.graphql_reset_at,
            )
            for row in session.scalars(select(ApiBudgetRow)).all()
        }


def record_budget(db: Database, repo: str, budget: Budget, now: datetime) -> None:
    """Keep what GitHub reported after syncing `repo`, under the credential that read it (and remember
    that credential on the repo, so its next plan counts against the right budget)."""
    if budget.credential is None:
        return
    with db.session() as session:
        row = session.get(ApiBudgetRow, budget.credential)
        if row is None:
            row = ApiBudgetRow(credential=budget.credential, observed_at=now)
            session.add(row)
        if budget.remaining is not None:
            row.rest_remaining, row.rest_limit, row.rest_reset_at = (
                budget.remaining,
                budget.limit,
                budget.reset_at,
            )
        if budget.graphql_remaining is not None:
            row.graphql_remaining = budget.graphql_remaining
            row.graphql_limit = budget.graphql_limit
            row.graphql_reset_at = budget.graphql_reset_at
        row.observed_at = now
        repo_row = session.scalar(select(RepoRow).where(RepoRow.full_name == repo))
        if repo_row is not None and budget.credential.startswith("installation:"):
            repo_row.installation_id = int(budget.credential.split(":", 1)[1])


def save_plan(db: Database, plan: Plan) -> None:
    with db.session() as session:
        for row in session.scalars(select(RepoRow).where(RepoRow.full_name.in_(list(plan.next_at)))).all():
            row.next_sync_at = plan.next_at[row.full_name]
            row.sync_note = plan.held.get(row.full_name)
