"""Repos followed because a GitHub App installation grants them (PRHUB_AUTOFOLLOW): following one gives it
an index row that the webhook accepts deliveries for and the hourly sync includes; unfollowing stops the
hourly sync but keeps what is indexed (subscriptions of the repo keep it synced)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import select

from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.store.schema import RepoRow


def follow_repos(db: Database, repos: Iterable[str], installation_id: int | None, now: datetime) -> list[str]:
    """Follow `repos` (read with `installation_id`); returns the ones that were not followed before."""
    started = []
    with db.session() as session:
        index = PRIndex(session)
        for name in repos:
            row = index.ensure_repo(name, now)
            if not row.followed:
                started.append(row.full_name)
            row.followed = True
            row.installation_id = installation_id
    return started


def unfollow_repos(db: Database, repos: Iterable[str] = (), installation_id: int | None = None) -> list[str]:
    """Stop following `repos`, and with `installation_id` every repo that installation granted (the app
    was uninstalled); returns the ones that were followed."""
    names = [r.lower() for r in repos]
    stopped = []
    with db.session() as session:
        query = select(RepoRow).where(RepoRow.followed.is_(True))
        rows = session.scalars(query).all()
        for row in rows:
            if row.full_name in names or (
                installation_id is not None and row.installation_id == installation_id
            ):
                row.followed = False
                stopped.append(row.full_name)
    return stopped


def followed_repos(db: Database) -> Sequence[str]:
    with db.session() as session:
        return session.scalars(
            select(RepoRow.full_name).where(RepoRow.followed.is_(True)).order_by(RepoRow.full_name)
        ).all()
