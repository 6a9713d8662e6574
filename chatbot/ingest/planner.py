"""The sync planner: which repos to sync now, so that dozens of repos on one rate budget all stay fresh.

Called every `tick` (5 minutes) by the scheduler, it plans from what the index knows (each repo's last
sync, its subscribers, how many PRs it merged lately) and what GitHub last reported of each credential's
budgets (REST requests and GraphQL points apart; repos of one installation share its budgets):

- A repo is due one tick before its last sync is `interval` old, so every repo is synced at least
  every `interval` (an hour) while the budget lasts. Repos never synced start a few a tick (their
  share of the interval) instead of all at once, which staggers the hourly syncs that follow.
- Due repos go in priority order: staleness (how many intervals since the last sync; it keeps growing
  while a repo waits, so no repo starves), doubled for repos with subscribers, raised for busy repos.
- A sync is planned only when its expected cost (one listing request, plus about 1 REST request and
  0.12 GraphQL points per PR merged since the last sync, at the repo's recent pace) fits the budget
  left above a reserve (`reserve` of the limit): near the limit the planner backs off until the budget
  resets and says why. Backfills and large catch-ups spend within a tick at most a share of the usable
  budget proportional to the tick's part of the time left before the reset, so the budget lasts the
  hour (the hourly syncs, and the most urgent due repo, are not paced), and a sync
  larger than what is left (a big backfill on a small budget) runs capped at what is left, resuming
  where it stopped at the next window, so it is never held back for good.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

INTERVAL = timedelta(hours=1)
TICK = timedelta(minutes=5)
RESERVE = 0.1
# What one PR costs the hybrid source (bench/ingest.py: 1.01 REST requests and 0.12 GraphQL points),
# and the weeks a new repo's first sync reaches back.
REST_PER_PR = 1.01
POINTS_PER_PR = 0.12
FIRST_SYNC_WEEKS = 8
MIN_SHARE = 50  # fewest REST requests worth starting a sync that must stop part way


@dataclass(frozen=True, slots=True)
class RepoLoad:
    """One repo as the planner sees it. `credential` names the budget it is read with."""

    repo: str
    credential: str
    subscribers: int
    prs_per_week: float
    last_synced_at: datetime | None
    order: int = 0  # position among repos never synced (staggering)


@dataclass(frozen=True, slots=True)
class Allowance:
    """One credential's budgets as GitHub last reported them (None: not known yet)."""

    rest_remaining: int | None = None
    rest_limit: int | None = None
    rest_reset_at: datetime | None = None
    graphql_remaining: int | None = None
    graphql_limit: int | None = None
    graphql_reset_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Cost:
    rest: float
    graphql: float


@dataclass
class Plan:
    """Repos to sync now (in this order), when each repo is planned next, and why some wait."""

    now: list[str] = field(default_factory=list)
    next_at: dict[str, datetime] = field(default_factory=dict)
    held: dict[str, str] = field(default_factory=dict)
    caps: dict[str, int] = field(default_factory=dict)  # repo -> most REST requests its sync may make


def expected_cost(load: RepoLoad, now: datetime) -> Cost:
    """The requests and points a sync of `load` should take, at the repo's recent pace."""
    if load.last_synced_at is None:
        prs = load.prs_per_week * FIRST_SYNC_WEEKS
    else:
        prs = load.prs_per_week * max(0.0, (now - load.last_synced_at).total_seconds()) / (7 * 86400)
    return Cost(rest=1 + REST_PER_PR * prs, graphql=POINTS_PER_PR * prs)


def due_at(load: RepoLoad, now: datetime, interval: timedelta = INTERVAL, tick: timedelta = TICK) -> datetime:
    """When a synced repo is next due: a tick before its last sync is an interval old (so the period
    never exceeds the interval); a repo never synced is due now (`plan_syncs` staggers those)."""
    if load.last_synced_at is None:
        return now
    return load.last_synced_at + interval - tick


def priority(load: RepoLoad, now: datetime, interval: timedelta = INTERVAL) -> float:
    """Higher first. Staleness in intervals grows without bound while a repo waits, so a busy subscribed
    repo cannot hold a quiet one back forever; a repo never synced ranks after the repos due again."""
    # a repo never synced counts as half stale: after the repos due again (a backfill can wait)
    last = load.last_synced_at
    staleness = 0.5 if last is None else max(0.0, (now - last) / interval)
    return staleness * (2.0 if load.subscribers else 1.0) * (1.0 + math.log1p(load.prs_per_week) / 10)


def plan_syncs(
    loads: Sequence[RepoLoad],
    allowances: Mapping[str, Allowance],
    now: datetime,
    *,
    interval: timedelta = INTERVAL,
    tick: timedelta = TICK,
    reserve: float = RESERVE,
) -> Plan:
    """Which of `loads` to sync now, given each credential's `allowances`."""
    result = Plan()
    due: list[RepoLoad] = []
    # Repos never synced start a few a tick (their share of the interval), in `order`, not all at once.
    quota = max(1, math.ceil(len(loads) * (tick / interval)))
    new = sorted((load for load in loads if load.last_synced_at is None), key=lambda load: load.order)
    for position, load in enumerate(new):
        result.next_at[load.repo] = now + tick * (position // quota)
        if position < quota:
            due.append(load)
    for load in loads:
        if load.last_synced_at is not None:
            result.next_at[load.repo] = due_at(load, now, interval, tick)
            if result.next_at[load.repo] <= now:
                due.append(load)
    due.sort(key=lambda load: priority(load, now, interval), reverse=True)
    keep = _upkeep(loads, allowances, now)  # what the synced repos will need until the budgets reset
    usable: dict[str, list[float]] = {}  # credential -> [rest, graphql] left above the reserve
    paced: dict[str, list[float]] = {}  # credential -> [rest, graphql] this tick may spend
    first: set[str] = set()
    capped: set[str] = set()
    for load in due:
        allowance = allowances.get(load.credential, Allowance())
        if load.credential not in usable:
            usable[load.credential] = [
                _above_reserve(allowance.rest_remaining, allowance.rest_limit, reserve),
                _above_reserve(allowance.graphql_remaining, allowance.graphql_limit, reserve),
            ]
            paced[load.credential] = [
                left * _share(reset, now, tick)
                for left, reset in zip(
                    usable[load.credential],
                    (allowance.rest_reset_at, allowance.graphql_reset_at),
                    strict=True,
                )
            ]
        cost = expected_cost(load, now)
        left, pace = usable[load.credential], paced[load.credential]
        # paced: backfills and other large catch-ups, except the most urgent of each credential; a
        # repo due for its hourly sync only needs the budget above the reserve
        exempt = load.credential not in first or (
            load.last_synced_at is not None and now - load.last_synced_at <= 2 * interval
        )
        if load.last_synced_at is None:  # a backfill leaves the synced repos their hourly syncs
            upkeep = keep.get(load.credential, Cost(0.0, 0.0))
            left = [left[0] - upkeep.rest, left[1] - upkeep.graphql]
        fits = min(
            left[0] / cost.rest,
            left[1] / cost.graphql if cost.graphql else math.inf,
            1.0 if exempt else pace[0] / cost.rest,
            1.0 if exempt or not cost.graphql else pace[1] / cost.graphql,
        )
        if fits < 1 and cost.rest * fits >= MIN_SHARE and load.credential not in capped:
            # larger than what is left (a big backfill): one a tick runs a part, stopping at its share
            # (GraphQL points go with the PRs its REST requests read), and resumes where it stopped
            capped.add(load.credential)
            result.caps[load.repo] = int(cost.rest * fits)
            cost = Cost(cost.rest * fits, cost.graphql * fits)
        if cost.rest > left[0] or cost.graphql > left[1]:
            which = "REST" if cost.rest > left[0] else "GraphQL"
            reset = allowance.rest_reset_at if which == "REST" else allowance.graphql_reset_at
            result.held[load.repo] = f"{which} budget near its limit until it resets"
            result.next_at[load.repo] = max(reset or now + tick, now + tick)
            continue
        if not exempt and (cost.rest > pace[0] or cost.graphql > pace[1]):
            result.held[load.repo] = "paced: this tick's share of the budget is spent"
            result.next_at[load.repo] = now + tick
            continue
        first.add(load.credential)
        for budget in (usable[load.credential], pace):
            budget[0] -= cost.rest
            budget[1] -= cost.graphql
        result.now.append(load.repo)
        result.next_at[load.repo] = now + interval - tick
    return result


def _upkeep(loads: Sequence[RepoLoad], allowances: Mapping[str, Allowance], now: datetime) -> dict[str, Cost]:
    """Per credential, what its synced repos are expected to spend until its budgets reset."""
    needs: dict[str, list[float]] = {}
    for load in loads:
        if load.last_synced_at is None:
            continue
        allowance = allowances.get(load.credential, Allowance())
        reset = allowance.rest_reset_at or now + INTERVAL
        horizon = max(reset - now, TICK)
        syncs = horizon / INTERVAL
        cost = expected_cost(RepoLoad(load.repo, load.credential, 0, load.prs_per_week, now - horizon), now)
        need = needs.setdefault(load.credential, [0.0, 0.0])
        need[0] += cost.rest - 1 + syncs  # one listing a sync
        need[1] += cost.graphql
    return {credential: Cost(rest, graphql) for credential, (rest, graphql) in needs.items()}


def _above_reserve(remaining: int | None, limit: int | None, reserve: float) -> float:
    if remaining is None:
        return math.inf  # not reported yet: the first sync will tell
    return remaining - reserve * (limit or 0)


def _share(reset_at: datetime | None, now: datetime, tick: timedelta) -> float:
    """The part of the budget left that one tick may spend: its share of the time until the reset."""
    if reset_at is None or reset_at <= now + tick:
        return 1.0
    return tick / (reset_at - now)
