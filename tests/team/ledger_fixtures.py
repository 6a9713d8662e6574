"""A small repo whose PRs raise, follow up and fix risks, with hand-made analyses so links are exact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from chatbot.analysis.types import Analysis, Risk
from chatbot.models import PRFile, PullHeader, PullRequest
from chatbot.store.analyses import save_analysis
from chatbot.store.db import Database
from chatbot.store.index import PRIndex

REPO = "acme/engine"
# 2026-W25 in UTC: Monday 2026-06-15 to Monday 2026-06-22.
W25 = datetime(2026, 6, 15, tzinfo=UTC)

ROLLOUT_PATCH = """@@ -40,6 +40,12 @@ class Rollout:
     def gather_buffers(self, shards):
-        out = [s.cpu() for s in shards]
+        out = [s.to("cuda") for s in shards]
+        torch.cuda.empty_cache()
         return out
"""
FOLLOW_PATCH = """@@ -41,7 +41,7 @@ def gather_buffers(self, shards):
-        out = [s.to("cuda") for s in shards]
+        out = [s.to("cuda", non_blocking=True) for s in shards]
"""
OTHER_FUNCTION_PATCH = """@@ -90,3 +90,4 @@ def unrelated(self):
+        log.info("x")
"""


def pull(
    number: int, merged: datetime, files: dict[str, str], title: str = "", body: str = ""
) -> PullRequest:
    header = PullHeader(
        repo=REPO,
        number=number,
        title=title or f"change {number}",
        body=body,
        author="alice",
        created_at=merged - timedelta(hours=3),
        updated_at=merged,
        merged_at=merged,
        html_url=f"https://github.com/{REPO}/pull/{number}",
        base_ref="main",
    )
    return PullRequest(
        header=header,
        files=tuple(PRFile(path, "modified", 5, 1, patch) for path, patch in files.items()),
        additions=5,
        deletions=1,
        changed_files=len(files),
    )


def analysis(*risks: Risk, modules: tuple[str, ...] = ("rollout",)) -> Analysis:
    return Analysis(
        title_zh="",
        summary="a change",
        modules=modules,
        change_type="feat",
        breaking=False,
        importance=5.0,
        insight=3.0,
        verdict="worth-reading",
        verdict_reason="because",
        risks=risks,
    )


MEMORY = Risk(
    "memory", "high", "buffers gathered on the GPU and the cache emptied each step", "pkg/rollout.py"
)


def store(db: Database, pr: PullRequest, result: Analysis, now: datetime) -> None:
    """Index the PR and store `result` as its current analysis."""
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo(REPO, now)
        index.upsert(repo, pr, now)
        session.flush()
        row = index.pull_request_row(repo, pr.header.number)
        assert row is not None
        save_analysis(session, row, result, analyzer="test", version="1", language="en", now=now)
