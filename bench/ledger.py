"""Risk ledger benchmark: maintenance after a sync of 1,000 new PRs over a ledger of 20,000 risks.

    .venv/bin/python bench/ledger.py [--old-prs 10000] [--new-prs 1000] [--database-url URL]

Builds a repo of `--old-prs` merged PRs, each with two risks in a function of one of 2,000 files (40
functions each), and takes them into the ledger (timed separately: a first run over a whole repo). Then `--new-prs` later
PRs arrive with their analyses: each changes two functions of those files, one in five cites an earlier
PR and one in ten says it fixes one. The figure to compare with the target (issue 14: ≤ 2 s) is the
maintenance run that takes them in: new entries, links and states. Default database: a temporary
SQLite file; a PostgreSQL URL gets a scratch database.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, insert, select  # noqa: E402

from chatbot.analysis.types import Analysis, Risk  # noqa: E402
from chatbot.store.analyses import NewAnalysis, analysis_row_values  # noqa: E402
from chatbot.store.db import Database, open_database  # noqa: E402
from chatbot.store.ledger import RiskEntryRow, RiskLinkRow  # noqa: E402
from chatbot.store.schema import AnalysisRow, PullRequestRow, RepoRow  # noqa: E402
from chatbot.team.ledger import maintain_ledger  # noqa: E402
from tests.scratch_db import scratch_postgres  # noqa: E402

REPO = "bench/ledger"
START = datetime(2025, 1, 1, tzinfo=UTC)
FILES = [f"pkg/mod{i // 20}/file{i}.py" for i in range(2000)]
FUNCTIONS = [f"step_{i}" for i in range(40)]
CATEGORIES = ("memory", "concurrency", "missing-tests", "config", "performance")


def _patch(functions: list[str]) -> str:
    hunks = []
    for i, name in enumerate(functions):
        hunks.append(
            f"@@ -{10 + 40 * i},4 +{10 + 40 * i},5 @@ class Worker:\n"
            f"     def {name}(self, batch):\n-        x = batch.cpu()\n+        x = batch.to('cuda')\n"
            f"+        torch.cuda.empty_cache()\n         return x\n"
        )
    return "".join(hunks)


def _pr(rng: random.Random, repo_id: int, number: int, merged: datetime, body: str) -> dict[str, Any]:
    files = []
    for path in rng.sample(FILES, 2):
        files.append(
            {
                "filename": path,
                "status": "modified",
                "additions": 2,
                "deletions": 1,
                "patch": _patch(rng.sample(FUNCTIONS, 2)),
            }
        )
    return {
        "repo_id": repo_id,
        "number": number,
        "title": f"change {number}",
        "body": body,
        "author": "dev",
        "created_at": merged - timedelta(hours=2),
        "updated_at": merged,
        "merged_at": merged,
        "html_url": f"https://github.com/{REPO}/pull/{number}",
        "base_ref": "main",
        "labels": [],
        "additions": 4,
        "deletions": 2,
        "changed_files": 2,
        "files": files,
        "reviews": [],
        "comments": [],
        "content_hash": f"h{number}",
        "fetched_at": merged,
    }


def _analysis(rng: random.Random, files: list[dict[str, Any]]) -> Analysis:
    risks = tuple(
        Risk(
            rng.choice(CATEGORIES),
            rng.choice(("high", "medium", "low")),
            f"risk in {f['filename']}",
            f["filename"],
        )
        for f in files
    )
    return Analysis(
        title_zh="",
        summary="s",
        modules=("rollout",),
        change_type="fix",
        breaking=False,
        importance=5.0,
        insight=3.0,
        verdict="skim",
        verdict_reason="r",
        risks=risks,
    )


def add_prs(db: Database, rng: random.Random, first: int, count: int, linking: bool) -> None:
    """`count` PRs numbered from `first`, a minute apart, with their analyses stored."""
    with db.session() as session:
        repo_id = session.scalar(select(RepoRow.id).where(RepoRow.full_name == REPO))
        assert repo_id is not None
        rows = []
        for number in range(first, first + count):
            body = ""
            if linking and rng.random() < 0.1:
                body = f"Fixes #{rng.randrange(1, first)}"
            elif linking and rng.random() < 0.2:
                body = f"Follow-up to #{rng.randrange(1, first)}"
            rows.append(_pr(rng, repo_id, number, START + timedelta(minutes=number), body))
        for i in range(0, len(rows), 2000):
            session.execute(insert(PullRequestRow), rows[i : i + 2000])
        ids = dict(
            session.execute(
                select(PullRequestRow.number, PullRequestRow.id).where(
                    PullRequestRow.repo_id == repo_id, PullRequestRow.number >= first
                )
            ).all()
        )
        values = [
            analysis_row_values(
                NewAnalysis(ids[r["number"]], repo_id, r["content_hash"], _analysis(rng, r["files"]), ""),
                "heuristic",
                "bench",
                "en",
                START,
            )
            for r in rows
        ]
        for i in range(0, len(values), 2000):
            session.execute(insert(AnalysisRow), values[i : i + 2000])


def run(url: str, old: int, new: int) -> None:
    db = open_database(url)
    rng = random.Random(14)
    with db.session() as session:
        session.add(RepoRow(full_name=REPO, aliases=[], created_at=START))
    add_prs(db, rng, 1, old, linking=False)
    started = time.perf_counter()
    first = maintain_ledger(db, START)
    initial = time.perf_counter() - started
    add_prs(db, rng, old + 1, new, linking=True)
    started, cpu = time.perf_counter(), time.process_time()
    report = maintain_ledger(db, START)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    started = time.perf_counter()
    maintain_ledger(db, START)
    idle = time.perf_counter() - started
    with db.session() as session:
        entries = session.scalar(select(func.count()).select_from(RiskEntryRow))
        links = session.scalar(select(func.count()).select_from(RiskLinkRow))
    backend = db.engine.dialect.name
    print(f"{backend}: first run over {old:,} PRs: {first.raised:,} entries in {initial:.2f} s")
    print(
        f"{backend}: sync of {new:,} new PRs over {first.raised:,} risks: {elapsed:.2f} s wall, {cpu:.2f} s CPU "
        f"({report.raised:,} new entries, {report.linked:,} links, {report.resolved:,} resolved)"
    )
    print(f"{backend}: nothing new: {idle * 1000:.1f} ms; ledger now {entries:,} entries, {links:,} links")
    db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--old-prs", type=int, default=10_000)
    parser.add_argument("--new-prs", type=int, default=1_000)
    parser.add_argument("--database-url", help="default: a temporary SQLite file")
    args = parser.parse_args()
    if args.database_url and args.database_url.startswith("postgresql"):
        with scratch_postgres(args.database_url) as url:
            run(url, args.old_prs, args.new_prs)
        return
    with tempfile.TemporaryDirectory() as folder:
        run(args.database_url or f"sqlite:///{folder}/ledger.db", args.old_prs, args.new_prs)


if __name__ == "__main__":
    main()
