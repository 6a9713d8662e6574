"""A written week of PRs with hand-made analyses, so report expectations are exact."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from chatbot.analysis.types import Analysis, Risk
from chatbot.models import PRFile, PullHeader, PullRequest
from chatbot.store.analyses import save_analysis
from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow

REPO = "acme/widgets"
SHANGHAI = ZoneInfo("Asia/Shanghai")
# 2026-W25 in Asia/Shanghai: Monday 2026-06-15 00:00 to Monday 2026-06-22 00:00 (+08:00)
WEEK_START = datetime(2026, 6, 15, tzinfo=SHANGHAI)
INJECTION = '<!channel> 紧急 @all <at user_id="all"></at> [x](javascript:alert(1)) <script>alert(1)</script>'


def pr(number: int, title: str, merged: datetime, author: str = "alice") -> PullRequest:
    header = PullHeader(
        repo=REPO,
        number=number,
        title=title,
        body="",
        author=author,
        created_at=merged - timedelta(hours=3),
        updated_at=merged,
        merged_at=merged,
        html_url=f"https://github.com/{REPO}/pull/{number}",
        base_ref="main",
    )
    return PullRequest(
        header=header,
        files=(PRFile("pkg/x.py", "modified", 5, 1),),
        additions=5,
        deletions=1,
        changed_files=1,
    )


def analysis(
    modules: tuple[str, ...],
    importance: float,
    insight: float = 3.0,
    change_type: str = "feat",
    verdict: str = "skim",
    risks: tuple[Risk, ...] = (),
    breaking: bool = False,
    key_point: str = "look at the loop",
) -> Analysis:
    return Analysis(
        title_zh="",
        summary="a change",
        modules=modules,
        change_type=change_type,
        breaking=breaking,  # type: ignore[arg-type]
        importance=importance,
        insight=insight,
        verdict=verdict,
        verdict_reason="because",  # type: ignore[arg-type]
        key_points=(key_point,),
        risks=risks,
        follow_ups=("add a unit test",),
    )


MISSING_TESTS = Risk("missing-tests", "medium", "code changed without tests", "pkg/x.py")
MEMORY = Risk("memory", "high", "large buffers on GPU", "pkg/rollout.py")

# (number, title, merged at (local), analysis)
WEEK = [
    (
        101,
        "[megatron] feat: pipeline parallel for Qwen3",
        WEEK_START + timedelta(hours=10),
        analysis(("megatron",), 8.5, 7.0, verdict="must-read", risks=(MISSING_TESTS,)),
    ),
    (
        102,
        "[rollout] fix: OOM in vLLM rollout",
        WEEK_START + timedelta(days=1, hours=3),
        analysis(("rollout", "vllm"), 7.8, 6.5, "fix", "must-read", (MEMORY, MISSING_TESTS)),
    ),
    (
        103,
        "[BREAKING][trainer] refactor: rename config keys",
        WEEK_START + timedelta(days=2),
        analysis(("trainer",), 7.0, 4.0, "refactor", "worth-reading", breaking=True),
    ),
    (
        104,
        f"[doc] chore: {INJECTION}",
        WEEK_START + timedelta(days=2, hours=5),
        analysis(("doc",), 1.5, 1.0, "doc"),
    ),
    (
        105,
        "[ci] chore: bump CUDA image",
        WEEK_START + timedelta(days=3),
        analysis(
            ("ci", "docker"),
            3.0,
            1.0,
            "chore",
            risks=(Risk("dependency", "low", "image bumped", "docker/Dockerfile"),),
        ),
    ),
    (
        106,
        "[fsdp] perf: faster FSDP2 checkpoint",
        WEEK_START + timedelta(days=4),
        analysis(("fsdp",), 6.0, 6.0, "perf", "worth-reading"),
    ),
    # Sunday 23:59 local: still in the week
    (
        107,
        "[rollout] feat: sglang multi-turn",
        WEEK_START + timedelta(days=6, hours=23, minutes=59),
        analysis(("rollout", "sglang"), 5.0, 3.0, verdict="worth-reading"),
    ),
]
# Monday 00:00 local of the next week: not in it
NEXT_WEEK = [(108, "[trainer] feat: next week", WEEK_START + timedelta(days=7), analysis(("trainer",), 4.0))]
PREVIOUS_WEEK = [
    (90, "[megatron] fix: old", WEEK_START - timedelta(days=3), analysis(("megatron",), 4.0)),
    (91, "[megatron] feat: older", WEEK_START - timedelta(days=4), analysis(("megatron",), 4.0)),
    (92, "[ci] chore: older", WEEK_START - timedelta(minutes=1), analysis(("ci",), 2.0, change_type="chore")),
]


def seed(
    db: Database, rows=WEEK + NEXT_WEEK + PREVIOUS_WEEK, now: datetime = WEEK_START + timedelta(days=8)
) -> None:  # type: ignore[no-untyped-def]
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo(REPO, now)
        for number, title, merged, _analysis in rows:
            index.upsert(repo, pr(number, title, merged), now)
        session.flush()
        by_number = {r.number: r for r in session.query(PullRequestRow).filter_by(repo_id=repo.id)}
        for number, _title, _merged, a in rows:
            save_analysis(session, by_number[number], a, analyzer="test", version="1", language="zh", now=now)
