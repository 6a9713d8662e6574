"""Sync planner simulation: 50 repos (10 to 500 merged PRs a week each) on one GitHub App installation's
budgets (5,000 REST requests and 5,000 GraphQL points an hour), planned every 5 minutes by
`chatbot.ingest.planner` over simulated days, PRs arriving at random at each repo's pace.

    .venv/bin/python bench/planner.py                 # steady state: every repo synced before
    .venv/bin/python bench/planner.py --cold          # every repo backfilled from nothing first
    .venv/bin/python bench/planner.py --rest 1500     # a tight budget: backing off, nobody starves

A sync costs what the hybrid source spends (bench/ingest.py): a listing request when something changed
(an unchanged listing is a free 304), 1.01 REST requests per new PR, and per batch of 25 PRs one GraphQL
query at GitHub's cost formula. Prints the worst staleness per repo (target: every repo synced at least
hourly), the lowest budget left (target: never exhausted), and what was spent.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from chatbot.ingest.planner import INTERVAL, TICK, Allowance, RepoLoad, plan_syncs  # noqa: E402

CREDENTIAL = "installation:1"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repos", type=int, default=50)
    parser.add_argument("--hours", type=int, default=48)
    parser.add_argument("--rest", type=int, default=5000, help="REST requests per hour")
    parser.add_argument("--points", type=int, default=5000, help="GraphQL points per hour")
    parser.add_argument("--cold", action="store_true", help="start with nothing synced (8-week backfills)")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    start = datetime(2026, 6, 1, tzinfo=UTC)
    names = [f"org/repo-{i:02}" for i in range(args.repos)]
    # 10..500 PRs a week, spread evenly on a log scale; every third repo has subscribers
    rates = {n: 10 * 50 ** (i / max(args.repos - 1, 1)) for i, n in enumerate(names)}
    subscribers = {n: 1 if i % 3 == 0 else 0 for i, n in enumerate(names)}
    last: dict[str, datetime | None] = {
        n: None if args.cold else start - timedelta(minutes=rng.uniform(0, 55)) for n in names
    }
    pending = {n: 0.0 for n in names}  # PRs merged since the repo's last sync
    backlog = {n: rates[n] * 8 if args.cold else 0.0 for n in names}
    rest = points = 0
    rest_left, points_left, reset = args.rest, args.points, start + timedelta(hours=1)
    lowest_rest, lowest_points = rest_left, points_left
    worst = {n: timedelta(0) for n in names}
    exhausted = 0
    capped = 0
    syncs = 0
    first_complete: datetime | None = None

    now = start
    end = start + timedelta(hours=args.hours)
    while now < end:
        if now >= reset:
            rest_left, points_left, reset = args.rest, args.points, reset + timedelta(hours=1)
        for n in names:  # PRs merge at random at each repo's pace
            pending[n] += _poisson(rng, rates[n] * TICK.total_seconds() / (7 * 86400))
        loads = [
            RepoLoad(n, CREDENTIAL, subscribers[n], rates[n], last[n], order=i) for i, n in enumerate(names)
        ]
        allowance = Allowance(rest_left, args.rest, reset, points_left, args.points, reset)
        plan = plan_syncs(loads, {CREDENTIAL: allowance}, now)
        for n in plan.now:
            prs = int(pending[n] + backlog[n])
            cap = plan.caps.get(n)
            if cap is not None and prs * 1.01 + 1 > cap:  # a capped part of a backfill: stops at the cap
                done = int((cap - 1) / 1.01)
                used_points = sum(max(1, round(13 * min(25, done - b) / 100)) for b in range(0, done, 25))
                rest_left, points_left = rest_left - cap, points_left - used_points
                rest, points = rest + cap, points + used_points
                taken = min(backlog[n], done)
                backlog[n] -= taken
                pending[n] = max(0.0, pending[n] - (done - taken))
                capped += 1
                continue
            cost_rest = (1 + math.ceil(prs * 1.01)) if prs else 0
            cost_points = sum(max(1, round(13 * min(25, prs - b) / 100)) for b in range(0, prs, 25))
            if cost_rest > rest_left or cost_points > points_left:
                exhausted += 1  # the sync would stop at the limit and resume later
                rest_left, points_left = max(0, rest_left - cost_rest), max(0, points_left - cost_points)
                continue
            rest_left -= cost_rest
            points_left -= cost_points
            rest += cost_rest
            points += cost_points
            pending[n] = backlog[n] = 0.0
            last[n] = now
            syncs += 1
        lowest_rest, lowest_points = min(lowest_rest, rest_left), min(lowest_points, points_left)
        if first_complete is None and all(v is not None for v in last.values()):
            first_complete = now
        for n in names:  # staleness counts from a repo's first sync (a backfill is not staleness)
            seen = last[n]
            if seen is not None:
                worst[n] = max(worst[n], now - seen)
        now += TICK

    staleness = sorted(worst.values())
    print(
        f"{args.repos} repos, {min(rates.values()):.0f}-{max(rates.values()):.0f} PRs/week, "
        f"{args.hours} h simulated, {args.rest} REST/h + {args.points} points/h, "
        f"{'cold start' if args.cold else 'steady state'}"
    )
    if args.cold:
        took = (first_complete - start) if first_complete else None
        print(f"every repo backfilled after: {took or 'never'}")
    print(
        f"worst staleness of a synced repo: max {_minutes(staleness[-1])}, median "
        f"{_minutes(staleness[len(staleness) // 2])} (target: at most {_minutes(INTERVAL)})"
    )
    print(f"repos ever more than an hour stale: {sum(1 for s in staleness if s > INTERVAL)}")
    print(f"syncs: {syncs}; spent {rest} REST requests and {points} GraphQL points")
    print(
        f"lowest budget left: {lowest_rest} REST, {lowest_points} points; syncs cut short by an "
        f"exhausted budget: {exhausted}; backfill parts capped by the planner: {capped}"
    )


def _poisson(rng: random.Random, mean: float) -> int:
    threshold, k, p = math.exp(-mean), 0, 1.0
    while True:
        p *= rng.random()
        if p <= threshold:
            return k
        k += 1


def _minutes(delta: timedelta) -> str:
    return f"{delta.total_seconds() / 60:.0f} min"


if __name__ == "__main__":
    main()
