"""Exactly-once handling of inbound platform events, by event id, across threads and processes."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

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
    worker that died). Same table and unique key as events, so two workers cannot both hold one. One
    transaction: the free keys are inserted together (one savepoint; a key another worker took in the
    meantime sends the batch to a savepoint per key), stale ones are taken over one by one. Give them
    back with `release_leases` when the work is stored."""
    wanted = {key[:200]: key for key in keys}
    held: set[str] = set()
    with db.session() as session:
        taken = set(
            session.scalars(
                select(ProcessedEventRow.event_id).where(
                    ProcessedEventRow.platform == kind, ProcessedEventRow.event_id.in_(list(wanted))
                )
            )
        )
        free = [k for k in wanted if k not in taken]
        try:
            if free:  # one multi-row INSERT, not an ORM object per key
                with session.begin_nested():
                    session.execute(
                        insert(ProcessedEventRow),
                        [{"platform": kind, "event_id": k, "received_at": now} for k in free],
                    )
            held.update(wanted[k] for k in free)
        except IntegrityError:
            taken.update(free)  # a race with another worker: decide key by key below
        for stored in sorted(taken):
            if _claim_one(session, kind, stored, now, lease):
                held.add(wanted[stored])
    return held


def _claim_one(session: Session, kind: str, key: str, now: datetime, lease: timedelta) -> bool:
    """Insert the lease, or take it over when its holder has had it longer than `lease`."""
    try:
        with session.begin_nested():
            session.add(ProcessedEventRow(platform=kind, event_id=key, received_at=now))
        return True
    except IntegrityError:
        stolen = session.execute(
            update(ProcessedEventRow)
            .where(
                ProcessedEventRow.platform == kind,
                ProcessedEventRow.event_id == key,
                ProcessedEventRow.received_at < now - lease,
            )
            .values(received_at=now)
        )
        return getattr(stolen, "rowcount", 0) == 1


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
