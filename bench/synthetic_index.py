"""A synthetic PR index for benchmarks: 100,000 merged PRs over 50 repos by default, each with a stored
analysis and a search document, written in bulk through SQLAlchemy core (the ORM would take minutes).

    .venv/bin/python bench/synthetic_index.py [--database-url URL] [--prs 100000] [--repos 50]

Deterministic for a seed. Repo sizes follow a Zipf-like curve (the biggest repo gets about 14% of the
PRs: about 140 merges a week, a busy project), merges spread over the two years before `NOW`, and
authors, modules, change types, scores and risks are drawn from fixed distributions, with Chinese and
English titles and risk texts that the topic questions ("显存/OOM 的修复") can find.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, insert, select, text  # noqa: E402

from chatbot.analysis.types import Analysis, Risk  # noqa: E402
from chatbot.store.analyses import NewAnalysis, analysis_row_values, search_document  # noqa: E402
from chatbot.store.db import Database, open_database  # noqa: E402
from chatbot.store.schema import AnalysisRow, PullRequestRow, RepoRow, SearchDocumentRow  # noqa: E402

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 6, 24, 10, 0, tzinfo=SHANGHAI)  # Wednesday of 2026-W26, like the QA fixture
SPAN = timedelta(days=730)
CHUNK = 5_000
REPO_NAMES = ("verl-project/verl", "vllm-project/vllm", "sgl-project/sglang")
MODULES = (
    "megatron", "fsdp", "rollout", "trainer", "vllm", "sglang", "ci", "doc", "docker", "kernel",
    "scheduler", "model", "api", "data", "reward", "algo", "checkpoint", "config", "tests", "utils",
)  # fmt: skip
CHANGE_TYPES = ("feat", "fix", "refactor", "perf", "test", "doc", "chore")
CHANGE_WEIGHTS = (30, 30, 10, 8, 7, 8, 7)
SUBJECTS = (
    "pipeline parallel", "context parallel", "expert parallel", "sequence parallel", "weight sync",
    "KV cache", "CUDA graph", "FP8 GEMM", "reward model", "tokenizer", "checkpoint loading",
    "multi-turn rollout", "tool calling", "dynamic batching", "LoRA", "GRPO", "DAPO", "PPO critic",
    "Qwen3-MoE", "DeepSeek V3", "Llama 4", "flash attention", "NCCL 通信组", "显存占用", "数据加载",
    "配置系统", "日志输出", "单元测试", "文档示例", "镜像构建",
)  # fmt: skip
TEMPLATES = {
    "feat": ("support {s}", "支持 {s}", "add {s} for training", "新增 {s}"),
    "fix": ("fix OOM in {s}", "修复 {s} 的显存泄漏", "fix hang in {s}", "修复 {s} 偶发崩溃", "fix {s} dtype"),
    "refactor": ("refactor {s}", "重构 {s}", "split {s} into modules"),
    "perf": ("speed up {s}", "优化 {s} 的吞吐", "reduce {s} latency"),
    "test": ("add tests for {s}", "为 {s} 补充测试"),
    "doc": ("document {s}", "更新 {s} 文档"),
    "chore": ("bump {s} version", "升级 {s} 依赖", "clean up {s}"),
}
RISK_TEXTS = (
    ("memory", "{s} 的临时 buffer 占用额外显存，大模型可能 OOM"),
    ("memory", "peak memory of {s} grows with batch size"),
    ("missing-tests", "{s} 的改动没有新增测试"),
    ("dependency", "{s} 依赖版本升级"),
    ("concurrency", "{s} 的通信组初始化顺序敏感"),
    ("config", "{s} 的默认值改变"),
    ("performance", "{s} 在小 batch 下可能变慢"),
    ("compatibility", "{s} 需要新版本的 CUDA"),
    ("breaking-change", "{s} 的配置键改名"),
    ("security", "{s} 新增的接口没有鉴权"),
)
SEVERITIES = ("high", "medium", "low")


@dataclass(frozen=True, slots=True)
class SyntheticIndex:
    """What was generated: the repos, biggest first, and a few facts the question mix draws on."""

    repos: tuple[str, ...]
    authors: tuple[str, ...]
    modules: tuple[str, ...]
    numbers: dict[str, tuple[int, int]]  # repo -> (first, last) PR number


def repo_names(count: int) -> list[str]:
    names = list(REPO_NAMES[:count])
    names += [f"bench-org-{i // 10:02d}/project-{i:02d}" for i in range(len(names), count)]
    return names


def repo_sizes(prs: int, repos: int) -> list[int]:
    weights = [1 / (rank**0.8) for rank in range(1, repos + 1)]
    sizes = [int(prs * w / sum(weights)) for w in weights]
    sizes[0] += prs - sum(sizes)
    return sizes


def authors(count: int = 400) -> list[str]:
    return ["dependabot[bot]", *(f"dev{i:03d}" for i in range(count - 1))]


def describe(rng: random.Random, number: int) -> tuple[str, Analysis]:
    """A title and its analysis."""
    change_type = rng.choices(CHANGE_TYPES, CHANGE_WEIGHTS)[0]
    modules = tuple(dict.fromkeys(rng.sample(MODULES, rng.choice((1, 1, 1, 2, 2, 3)))))
    subject = rng.choice(SUBJECTS)
    phrase = rng.choice(TEMPLATES[change_type]).format(s=subject)
    breaking = rng.random() < 0.02
    title = f"{'[BREAKING]' if breaking else ''}[{', '.join(modules)}] {change_type}: {phrase}"
    importance = round(min(10.0, max(0.0, rng.gauss(4.0, 1.8) + (2.0 if breaking else 0.0))), 1)
    insight = round(min(10.0, max(0.0, rng.gauss(2.6, 1.4))), 1)
    verdict = "must-read" if importance >= 6.8 else "worth-reading" if importance >= 4.8 else "skim"
    risks = tuple(
        Risk(category, rng.choice(SEVERITIES), template.format(s=subject), f"{modules[0]}/x{number}.py")  # type: ignore[arg-type]
        for category, template in rng.sample(RISK_TEXTS, rng.choice((0, 0, 1, 1, 2)))
    )
    analysis = Analysis(
        title_zh=phrase,
        summary=f"{subject}: {phrase}。",
        modules=modules,
        change_type=change_type,  # type: ignore[arg-type]
        breaking=breaking,
        importance=importance,
        insight=insight,
        verdict=verdict,  # type: ignore[arg-type]
        verdict_reason="synthetic",
        key_points=(f"看 {subject} 的实现",),
        risks=risks,
        tests=change_type == "test",
        follow_ups=(f"follow up on {subject}",),
        analyzer="bench",
        analyzer_version="1",
    )
    return title, analysis


def rows(
    rng: random.Random, repo_id: int, repo: str, size: int, first_id: int, people: Sequence[str]
) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(pull request, analysis, search document) rows of one repo, oldest merge first."""
    start = NOW - SPAN
    moments = sorted(start + timedelta(seconds=rng.uniform(0, SPAN.total_seconds())) for _ in range(size))
    weights = [1 / (rank**1.1) for rank in range(1, len(people) + 1)]
    for offset, merged in enumerate(moments):
        pr_id, number = first_id + offset, 1000 + offset
        title, analysis = describe(rng, number)
        content_hash = hashlib.sha256(f"{repo}#{number}".encode()).hexdigest()
        pr = {
            "id": pr_id,
            "repo_id": repo_id,
            "number": number,
            "title": title,
            "body": f"Synthetic PR {number}.",
            "author": rng.choices(people, weights)[0],
            "author_name": None,
            "created_at": merged - timedelta(hours=rng.uniform(1, 96)),
            "updated_at": merged,
            "merged_at": merged,
            "closed_at": merged,
            "html_url": f"https://github.com/{repo}/pull/{number}",
            "base_ref": "main",
            "merge_commit_sha": None,
            "labels": [],
            "additions": rng.randint(1, 800),
            "deletions": rng.randint(0, 300),
            "changed_files": 1,
            "files": [{"filename": f"{analysis.modules[0]}/x{number}.py", "status": "modified"}],
            "reviews": [],
            "comments": [],
            "content_hash": content_hash,
            "fetched_at": NOW,
        }
        stored = {
            "id": pr_id,
            **analysis_row_values(
                NewAnalysis(pr_id, repo_id, content_hash, analysis, ""), "bench", "1", "zh", NOW
            ),
        }
        text = search_document(title, analysis, body=pr["body"], paths=[f["filename"] for f in pr["files"]])
        document = {"pr_id": pr_id, "repo_id": repo_id, "document": text.lower(), "merged_at": merged}
        yield pr, stored, document


def generate(db: Database, prs: int = 100_000, repos: int = 50, seed: int = 7) -> SyntheticIndex:
    """Fill an empty index with the synthetic PRs. Raises if the index already has repos."""
    rng = random.Random(seed)
    names = repo_names(repos)
    people = authors()
    numbers: dict[str, tuple[int, int]] = {}
    with db.session() as session:
        if session.scalar(select(func.count()).select_from(RepoRow)):
            raise SystemExit("the database already holds repos: give an empty one")
        session.execute(
            insert(RepoRow),
            [
                {"id": i, "full_name": name, "aliases": [], "last_synced_at": NOW, "created_at": NOW - SPAN}
                for i, name in enumerate(names, start=1)
            ],
        )
    next_id = 1
    for repo_id, (name, size) in enumerate(zip(names, repo_sizes(prs, repos), strict=True), start=1):
        batch: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = []
        for row in rows(rng, repo_id, name, size, next_id, people):
            batch.append(row)
            if len(batch) == CHUNK:
                _write(db, batch)
                batch = []
        _write(db, batch)
        numbers[name] = (1000, 1000 + size - 1)
        next_id += size
    if db.engine.dialect.name == "postgresql":
        with db.session() as session:  # explicit ids leave the sequences behind
            for table in ("repos", "pull_requests", "pr_analyses"):
                session.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
                    )
                )
            session.execute(text("ANALYZE"))
    else:
        with db.session() as session:
            session.execute(text("ANALYZE"))
    return SyntheticIndex(tuple(names), tuple(people), MODULES, numbers)


def _write(db: Database, batch: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]) -> None:
    if not batch:
        return
    with db.session() as session:
        session.execute(insert(PullRequestRow), [pr for pr, _, _ in batch])
        session.execute(insert(AnalysisRow), [analysis for _, analysis, _ in batch])
        session.execute(insert(SearchDocumentRow), [document for _, _, document in batch])


def describe_index(db: Database) -> SyntheticIndex | None:
    """The synthetic index already in `db` (repos biggest first), or None when it is empty."""
    with db.session() as session:
        counted = session.execute(
            select(RepoRow.full_name, func.min(PullRequestRow.number), func.max(PullRequestRow.number))
            .join(PullRequestRow, PullRequestRow.repo_id == RepoRow.id)
            .group_by(RepoRow.id, RepoRow.full_name)
            .order_by(func.count().desc(), RepoRow.full_name)
        ).all()
    if not counted:
        return None
    return SyntheticIndex(
        tuple(name for name, _, _ in counted),
        tuple(authors()),
        MODULES,
        {name: (first, last) for name, first, last in counted},
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=f"sqlite:///{ROOT / 'data' / 'bench-qa.db'}")
    parser.add_argument("--prs", type=int, default=100_000)
    parser.add_argument("--repos", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    db = open_database(args.database_url)
    started = time.perf_counter()
    index = generate(db, args.prs, args.repos, args.seed)
    print(
        f"{args.prs:,} PRs over {len(index.repos)} repos written in {time.perf_counter() - started:.1f} s "
        f"to {db.engine.url.render_as_string(hide_password=True)}"
    )
    db.dispose()


if __name__ == "__main__":
    main()
