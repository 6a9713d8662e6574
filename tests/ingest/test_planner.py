"""The sync planner as a pure function: due times, priorities, budgets kept apart per credential and per
API, backing off near the limit, pacing, staggered first syncs, and no starvation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from chatbot.ingest.planner import INTERVAL, TICK, Allowance, RepoLoad, expected_cost, plan_syncs

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
RESET = NOW + timedelta(minutes=40)
FULL = Allowance(5000, 5000, RESET, 5000, 5000, RESET)


def load(
    name: str,
    minutes_ago: float | None,
    *,
    rate: float = 50,
    subscribers: int = 0,
    credential: str = "token",
    order: int = 0,
) -> RepoLoad:
    last = None if minutes_ago is None else NOW - timedelta(minutes=minutes_ago)
    return RepoLoad(name, credential, subscribers, rate, last, order)


def test_a_repo_is_due_a_tick_before_its_last_sync_is_an_hour_old():
    plan = plan_syncs([load("a/due", 56), load("a/fresh", 30), load("a/exact", 55)], {"token": FULL}, NOW)
    assert plan.now == ["a/due", "a/exact"]
    assert plan.next_at["a/fresh"] == NOW + timedelta(minutes=25)
    assert plan.next_at["a/due"] == NOW + INTERVAL - TICK  # planned again within the hour


def test_subscribed_busy_and_stale_repos_go_first_and_staleness_wins_in_the_end():
    loads = [
        load("quiet/old", 180, rate=1),
        load("busy/subscribed", 56, rate=500, subscribers=3),
        load("quiet/due", 56, rate=1),
    ]
    assert plan_syncs(loads, {"token": FULL}, NOW).now == ["quiet/old", "busy/subscribed", "quiet/due"]


@pytest.mark.parametrize("api", ["rest", "graphql"])
def test_near_the_limit_it_backs_off_until_the_reset_and_says_which_budget(api: str):
    low = (
        Allowance(520, 5000, RESET, 5000, 5000, RESET)
        if api == "rest"
        else Allowance(5000, 5000, RESET, 501, 5000, RESET)
    )
    busy = load("a/busy", 56, rate=5000)  # about 30 PRs since the last sync
    plan = plan_syncs([busy], {"token": low}, NOW)
    assert plan.now == []
    assert ("REST" if api == "rest" else "GraphQL") in plan.held["a/busy"]
    assert plan.next_at["a/busy"] == RESET


def test_credentials_have_budgets_of_their_own():
    loads = [load("org/a", 56, credential="installation:1"), load("me/b", 56, credential="token")]
    spent = Allowance(100, 5000, RESET, 5000, 5000, RESET)
    plan = plan_syncs(loads, {"installation:1": spent, "token": FULL}, NOW)
    assert plan.now == ["me/b"] and "org/a" in plan.held


def test_an_unknown_budget_does_not_hold_anything_back():
    assert plan_syncs([load("a/b", 56)], {}, NOW).now == ["a/b"]


def test_repos_never_synced_start_a_few_a_tick_and_leave_room_for_the_hourly_syncs():
    new = [load(f"new/r{i}", None, order=i, rate=10) for i in range(24)]
    plan = plan_syncs(new, {"token": FULL}, NOW)
    assert plan.now == ["new/r0", "new/r1"]  # 24 repos * 5 min / 60 min = 2 a tick
    assert plan.next_at["new/r23"] == NOW + 11 * TICK
    # a backfill larger than the budget runs in parts, leaving what the synced repos need until the reset
    synced = [load(f"old/r{i}", 30, rate=2000) for i in range(10)]
    big = load("new/huge", None, rate=600, order=0)  # 8 weeks at 600/week: about 4,850 requests
    bigger = load("new/huger", None, rate=900, order=1)
    plan = plan_syncs([*synced, big, bigger], {"token": FULL}, NOW)
    assert plan.now == ["new/huge"] and expected_cost(big, NOW).rest > 4500
    upkeep = 10 * (2000 * (40 / 60) / 168 * 1.01 + 40 / 60)  # the synced repos' next 40 minutes
    assert 4500 - upkeep - 1 <= plan.caps["new/huge"] <= 4500 - upkeep
    assert plan.next_at["new/huger"] == NOW + TICK  # new repos start one a tick here


def test_pacing_spreads_the_budget_over_the_time_to_the_reset():
    # 12 catch-ups of ~150 requests each: the tick may spend 5/40 of ~4,500 usable requests
    loads = [load(f"a/r{i:02}", 150, rate=10_000) for i in range(12)]  # catch-ups, 2.5 h stale
    plan = plan_syncs(loads, {"token": FULL}, NOW)
    cost = expected_cost(loads[0], NOW).rest
    assert cost > 90
    assert 1 <= len(plan.now) <= 1 + int((4500 * 5 / 40) // cost) < 12
    assert all("paced" in why for why in plan.held.values())
    # the same load with the reset a tick away spends what the budget holds
    soon = Allowance(5000, 5000, NOW + TICK, 5000, 5000, NOW + TICK)
    assert len(plan_syncs(loads, {"token": soon}, NOW).now) == 12


def test_no_repo_waits_forever_behind_busier_ones():
    """A simulated day on a budget that only fits some of the repos each hour: every repo is synced,
    and the quiet unsubscribed one is never more than a few hours stale."""
    clock = NOW
    last = {f"busy/r{i}": clock - timedelta(minutes=55) for i in range(6)}
    last["quiet/one"] = clock - timedelta(minutes=55)
    worst = timedelta(0)
    remaining, reset = 400, clock + INTERVAL
    while clock < NOW + timedelta(hours=24):
        if clock >= reset:
            remaining, reset = 400, reset + INTERVAL
        loads = [
            RepoLoad(
                name,
                "token",
                0 if name.startswith("quiet") else 5,
                2000 if name.startswith("busy") else 1,
                seen,
            )
            for name, seen in last.items()
        ]
        plan = plan_syncs(loads, {"token": Allowance(remaining, 400, reset, 5000, 5000, reset)}, clock)
        for name in plan.now:
            remaining -= int(expected_cost(next(x for x in loads if x.repo == name), clock).rest)
            last[name] = clock
        assert remaining > 0
        worst = max(worst, clock - last["quiet/one"])
        clock += TICK
    assert worst <= timedelta(hours=3)
    assert all(NOW + timedelta(hours=20) < seen for seen in last.values())
