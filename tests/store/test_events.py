"""Event claims: one winner per event id, also under concurrency, on both databases."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from chatbot.store.events import claim_event, forget_old_events

NOW = datetime(2026, 6, 22, 1, 0, tzinfo=UTC)


def test_an_event_is_claimed_once_per_platform(db):
    assert claim_event(db, "slack", "Ev1", NOW)
    assert not claim_event(db, "slack", "Ev1", NOW)
    assert claim_event(db, "feishu", "Ev1", NOW)


def test_concurrent_copies_of_one_event_have_exactly_one_winner(db):
    with ThreadPoolExecutor(max_workers=8) as pool:
        wins = list(pool.map(lambda _: claim_event(db, "slack", "EvRace", NOW), range(16)))
    assert wins.count(True) == 1


def test_old_claims_are_forgotten(db):
    claim_event(db, "slack", "old", NOW - timedelta(days=8))
    claim_event(db, "slack", "new", NOW)
    assert forget_old_events(db, NOW) == 1
    assert claim_event(db, "slack", "old", NOW)
