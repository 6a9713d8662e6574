"""Exactly-once handling of inbound platform events, by event id, across threads and processes."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError

from chatbot.store.db import Database
from chatbot.store.schema import ProcessedEventRow

RETENTION = timedelta(days=7)  # platforms retry within minutes; a week is plenty


def claim_event(db: Database, platform: str, event_id: str, now: datetime) -> bool:
    """True the first time (platform, event_id) is seen, False for every later copy. The unique key
    decides, so two workers racing on the same delivery cannot both win."""
    try:
        with db.session() as session:
            session.add(ProcessedEventRow(platform=platform, event_id=event_id[:200], received_at=now))
    except IntegrityError:
        return False
    return True


def forget_old_events(db: Database, now: datetime) -> int:
    """Delete claims older than RETENTION; returns how many."""
    with db.session() as session:
        result = session.execute(
            delete(ProcessedEventRow).where(ProcessedEventRow.received_at < now - RETENTION)
        )
        return int(getattr(result, "rowcount", 0) or 0)
