"""Exactly-once handling of inbound platform events, by event id, across threads and processes."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import delete, update
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


def claim_leases(db: Database, kind: str, keys: Iterable[str], now: datetime, lease: timedelta) -> set[str]:
    """Of `keys`, those this worker now holds: not held by another, or held longer than `lease` (a
    worker that died). Same table and unique key as events, so two workers cannot both hold one; one
    transaction, a savepoint per key. Give them back with `release_leases` when the work is stored."""
    held: set[str] = set()
    with db.session() as session:
        for key in keys:
            try:
                with session.begin_nested():
                    session.add(ProcessedEventRow(platform=kind, event_id=key[:200], received_at=now))
                held.add(key)
            except IntegrityError:
                stolen = session.execute(
                    update(ProcessedEventRow)
                    .where(
                        ProcessedEventRow.platform == kind,
                        ProcessedEventRow.event_id == key[:200],
                        ProcessedEventRow.received_at < now - lease,
                    )
                    .values(received_at=now)
                )
                if getattr(stolen, "rowcount", 0) == 1:
                    held.add(key)
    return held


def release_leases(db: Database, kind: str, keys: Iterable[str]) -> None:
    with db.session() as session:
        session.execute(
            delete(ProcessedEventRow).where(
                ProcessedEventRow.platform == kind, ProcessedEventRow.event_id.in_([k[:200] for k in keys])
            )
        )


def forget_old_events(db: Database, now: datetime) -> int:
    """Delete claims older than RETENTION; returns how many."""
    with db.session() as session:
        result = session.execute(
            delete(ProcessedEventRow).where(ProcessedEventRow.received_at < now - RETENTION)
        )
        return int(getattr(result, "rowcount", 0) or 0)
