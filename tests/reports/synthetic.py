"""A week of realistic analysed PRs built in memory, of any size: for renderer tests and benchmarks
that need a real report but no database."""

from __future__ import annotations

from datetime import timedelta

from chatbot.analysis.types import Analysis, ChangeType, Risk, Verdict
from chatbot.messages import Language
from chatbot.reports.builder import AnalyzedPR, compose_weekly_report
from chatbot.reports.model import WeeklyReport
from chatbot.weeks import Week
from tests.reports.fixtures import REPO, SHANGHAI, WEEK_START, pr

WEEK = Week(2026, 25, SHANGHAI)
FIRST_NUMBER = 4000

# (title, Chinese title as an LLM analyzer writes it, modules, change type, verdict, risks, breaking)
_KINDS: tuple[tuple[str, str, tuple[str, ...], ChangeType, Verdict, tuple[Risk, ...], bool], ...] = (
    (
        "[megatron] feat: pipeline parallel for Qwen3-MoE",
        "Megatron 后端支持 Qwen3-MoE 流水线并行",
        ("megatron",),
        "feat",
        "must-read",
        (Risk("missing-tests", "medium", "新增并行路径没有测试", "verl/models/mcore/qwen3.py"),),
        False,
    ),
    (
        "[rollout] fix: OOM in vLLM rollout with long prompts",
        "修复长提示词下 vLLM rollout 显存溢出",
        ("rollout", "vllm"),
        "fix",
        "must-read",
        (Risk("memory", "high", "KV cache 预留过大", "verl/workers/rollout/vllm_rollout.py"),),
        False,
    ),
    (
        "[BREAKING][trainer] refactor: rename PPO config keys",
        "重命名 PPO 训练配置项",
        ("trainer",),
        "refactor",
        "worth-reading",
        (Risk("breaking-change", "high", "旧配置文件需要迁移", "verl/trainer/config/ppo_trainer.yaml"),),
        True,
    ),
    (
        "[fsdp] perf: overlap FSDP2 checkpoint saving with training",
        "FSDP2 检查点保存与训练重叠执行",
        ("fsdp",),
        "perf",
        "worth-reading",
        (),
        False,
    ),
    (
        "[ci] chore: bump CUDA base image to 12.8",
        "",
        ("ci", "docker"),
        "chore",
        "skim",
        (Risk("dependency", "low", "base image bumped", "docker/Dockerfile.vllm"),),
        False,
    ),
    (
        "[doc] doc: explain multi-turn rollout configuration",
        "补充多轮 rollout 配置说明",
        ("doc",),
        "doc",
        "skim",
        (),
        False,
    ),
    (
        "[sglang] feat: async multi-turn tool calling",
        "SGLang 支持异步多轮工具调用",
        ("rollout", "sglang"),
        "feat",
        "worth-reading",
        (Risk("concurrency", "medium", "工具调用并发时共享会话状态", "verl/tools/base_tool.py"),),
        False,
    ),
    (
        "[algo] feat: add GSPO advantage estimator",
        "新增 GSPO 优势估计器",
        ("algo",),
        "feat",
        "must-read",
        (),
        False,
    ),
)


def synthetic_records(count: int) -> list[AnalyzedPR]:
    """`count` analysed PRs spread over the week, numbered from FIRST_NUMBER, cycling through the kinds
    above with varied scores."""
    records = []
    for i in range(count):
        title, title_zh, modules, change_type, verdict, risks, breaking = _KINDS[i % len(_KINDS)]
        importance = round(9.5 - (i * 7 % 80) / 10, 1)
        analysis = Analysis(
            title_zh=title_zh,
            summary="本 PR 修改了训练与推理路径中的若干细节。",
            modules=modules,
            change_type=change_type,
            breaking=breaking,
            importance=importance,
            insight=round(importance * 0.8, 1),
            verdict=verdict,
            verdict_reason="影响默认训练路径",
            key_points=(f"关键改动在 {modules[0]} 模块的主循环",),
            risks=risks,
            tests=not risks,
            follow_ups=("补充端到端测试",),
        )
        merged = WEEK_START + timedelta(minutes=30 + i * (7 * 24 * 60 - 60) // max(count, 1))
        records.append(AnalyzedPR(pr(FIRST_NUMBER + i, title, merged), analysis))
    return records


def synthetic_report(
    count: int, language: Language = "zh", extra: tuple[AnalyzedPR, ...] = ()
) -> WeeklyReport:
    """The report of a week of `count` synthetic PRs plus `extra`, against a previous week of half as many."""
    return compose_weekly_report(
        REPO,
        WEEK,
        [*synthetic_records(count), *extra],
        synthetic_records(count // 2),
        language=language,
        generated_at=WEEK_START + timedelta(days=7, hours=9),
    )
