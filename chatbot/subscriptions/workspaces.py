"""A workspace that removed the bot (Slack `app_uninstalled`, its bot token revoked): its subscriptions
stop, each with an audit entry, so no push is attempted with a token that no longer exists."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import select

from chatbot.store.db import Database
from chatbot.store.schema import RepoRow, SubscriptionEventRow, SubscriptionRow

log = logging.getLogger(__name__)


def deactivate_workspace(db: Database, platform: str, workspace: str, reason: str, now: datetime) -> int:
    """Deactivate every active subscription of `workspace` on `platform`, recording `deactivated` with
    `reason` in the audit log for each; returns how many. Idempotent: a retried event finds none."""
    with db.session() as session:
        rows = session.execute(
            select(SubscriptionRow, RepoRow.full_name)
            .join(RepoRow, RepoRow.id == SubscriptionRow.repo_id)
            .where(
                SubscriptionRow.platform == platform,
                SubscriptionRow.workspace == workspace,
                SubscriptionRow.active.is_(True),
            )
        ).all()
        for row, repo in rows:
            row.active = False
            row.updated_at = now
            session.add(
                SubscriptionEventRow(
                    subscription_id=row.id,
                    action="deactivated",
                    actor=None,
                    platform=platform,
                    channel=row.channel,
                    repo=repo,
                    detail={"reason": reason, "workspace": workspace},
                    created_at=now,
                )
            )
    if rows:
        log.warning(
            "deactivated %d subscription(s) of %s workspace %s: %s", len(rows), platform, workspace, reason
        )
    return len(rows)
