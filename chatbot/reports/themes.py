"""Which theme a PR belongs to, from its analysis: the grouping of the report's "key changes"."""

from __future__ import annotations

import re

from chatbot.analysis.types import Analysis

# Ordered: the first theme that claims a PR gets it. Module names are those of the module maps.
_STABILITY_WORDS = re.compile(
    r"\b(oom|crash|hang|deadlock|leak|nan|race|segfault|regression)\b|显存|内存泄漏|死锁|崩溃|卡死",
    re.IGNORECASE,
)
_MODULE_THEMES: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "training",
        frozenset(
            {
                "megatron",
                "fsdp",
                "trainer",
                "training_utils",
                "ckpt",
                "model",
                "veomni",
                "worker",
                "single_controller",
                "ray",
                "parallel",
                "distributed",
                "checkpoint",
            }
        ),
    ),
    (
        "rollout",
        frozenset(
            {
                "rollout",
                "vllm",
                "sglang",
                "inference",
                "serving",
                "env",
                "tool",
                "agent",
                "fully_async",
                "one_step_off",
                "multiturn",
            }
        ),
    ),
    ("algorithm", frozenset({"algo", "reward", "recipe", "data", "dataset"})),
    (
        "infra",
        frozenset(
            {
                "ci",
                "docker",
                "deps",
                "test",
                "scripts",
                "deployment",
                "hardware",
                "bench",
                "cfg",
                "misc",
                "build",
                "perf_test",
            }
        ),
    ),
    ("docs", frozenset({"doc", "example"})),
)
THEMES = ("stability", "performance", "training", "rollout", "algorithm", "infra", "docs", "other")


def theme_of(title: str, analysis: Analysis) -> str:
    """A PR's theme: fixes of crashes/OOM/hangs are stability, perf changes are performance, else the
    theme of its first module that has one."""
    if analysis.change_type == "fix" and (
        _STABILITY_WORDS.search(title) or any(r.category in ("memory", "concurrency") for r in analysis.risks)
    ):
        return "stability"
    if analysis.change_type == "perf" or "perf" in analysis.modules:
        return "performance"
    if analysis.change_type == "doc":
        return "docs"
    for module in analysis.modules:
        for theme, modules in _MODULE_THEMES:
            if module in modules:
                return theme
    return "other"
