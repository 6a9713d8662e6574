"""Ingest benchmark: a backfill and an unchanged re-sync through the real PyGithub client against the
fake GitHub on 127.0.0.1 (zero latency), into a fresh SQLite index.

    .venv/bin/python bench/ingest.py                       # 2,000 synthetic PRs
    .venv/bin/python bench/ingest.py --data ../shared/data/verl-pulls.jsonl.gz

    .venv/bin/python bench/ingest.py --rest-only           # a server without GraphQL (older GHE)

Prints REST requests and GraphQL points per PR on backfill and on an unchanged re-sync, PRs per second,
and the peak RSS of the syncing process (the fake runs in a child process so its memory is not counted).
The fake's GraphQL endpoint charges GitHub's documented cost formula.
Targets (issue 16): hybrid backfill <= 1.1 REST requests/PR + <= 0.3 GraphQL points/PR (REST-only:
about 4), re-sync <= 0.01 of either per PR; >= 100 PRs/s.
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing as mp
import resource
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adapters.github.source import GitHubSource  # noqa: E402
from chatbot.clock import SystemClock  # noqa: E402
from chatbot.config import Settings  # noqa: E402
from chatbot.ingest.sync import sync_repo  # noqa: E402
from chatbot.store.db import open_database  # noqa: E402

REPO = "bench/repo"


def serve(count: int, data: str | None, graphql: bool, conn: mp.connection.Connection) -> None:
    """Child process: start the fake, fill it, report its URL and the PR count, serve until told."""
    from tests.fakes.github import FakeGitHub, comment, make_file, review

    fake = FakeGitHub(rate_limit=10_000_000, graphql=graphql)  # throughput, not the 5,000/h budget
    fake.user_graphql_bucket.limit = fake.user_graphql_bucket.remaining = 10_000_000
    fake.start()
    if data:
        with gzip.open(data, "rt", encoding="utf-8") as lines:
            for line in lines:
                fake.load_pull(REPO, json.loads(line))
    else:
        now = datetime.now(UTC)
        for n in range(1, count + 1):
            files = [
                make_file(f"pkg/mod_{n % 40}/file_{i}.py", 20 + i, 3, patch="+x\n" * 40) for i in range(6)
            ]
            at = now - timedelta(minutes=count - n + 1)
            fake.add_pull(
                REPO,
                n,
                merged_at=at,
                body="Synthetic PR. " * 30,
                files=files,
                reviews=[review(f"r{i}", "COMMENTED", "Looks fine.", at) for i in range(n % 4)],
                review_comments=[
                    comment(f"r{i}", "Why here?", at, path=files[0]["filename"]) for i in range(n % 3)
                ],
                issue_comments=[comment(f"c{i}", "Thanks!", at) for i in range(n % 5)],
            )
    conn.send((fake.url, sum(len(p) for p in fake.repos.values())))
    conn.recv()
    fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=2000, help="synthetic PRs to serve")
    parser.add_argument("--data", help="a verl-pulls.jsonl.gz-shaped file to serve instead")
    parser.add_argument("--rest-only", action="store_true", help="serve no GraphQL API (older GHE)")
    args = parser.parse_args()

    parent, child = mp.Pipe()
    server = mp.get_context("fork").Process(
        target=serve, args=(args.count, args.data, not args.rest_only, child), daemon=True
    )
    server.start()
    url, served = parent.recv()

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None,
            database_url=f"sqlite:///{tmp}/bench.db",
            github_token="test-token",
            github_api_url=url,
            github_retry_backoff=0,
        )
        db = open_database(settings.database_url)
        source = GitHubSource(settings)
        since = datetime(2000, 1, 1, tzinfo=UTC)

        start = time.perf_counter()
        backfill = sync_repo(db, source, REPO, clock=SystemClock(), since=since)
        backfill_s = time.perf_counter() - start
        stored = backfill.new

        start = time.perf_counter()
        resync = sync_repo(db, source, REPO, clock=SystemClock())
        resync_s = time.perf_counter() - start
    parent.send("stop")
    server.join(timeout=10)

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    mode = "REST only" if args.rest_only else "GraphQL + REST"
    print(f"source: {args.data or f'{args.count} synthetic PRs'} ({served} closed PRs served), {mode}")
    per = max(stored, 1)
    print(
        f"backfill:  {stored} PRs stored, {backfill.failed} failed, {backfill.requests} REST requests "
        f"= {backfill.requests / per:.3f}/PR, {backfill.graphql_points} GraphQL points "
        f"= {backfill.graphql_points / per:.3f}/PR, {backfill_s:.1f} s = {stored / backfill_s:.0f} PRs/s"
    )
    print(
        f"re-sync:   {resync.requests} REST requests = {resync.requests / per:.4f}/PR, "
        f"{resync.graphql_points} GraphQL points = {resync.graphql_points / per:.4f}/PR, "
        f"{resync_s * 1000:.0f} ms, not modified: {resync.not_modified}"
    )
    print(f"peak RSS of the syncing process: {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
