"""The concern a PR belongs to (memory, hardware, a backend, the training API, dependencies…): what the
report's highlights and "key changes" gather PRs by.

Concerns are data: each names the words of titles and gists, the modules and the change types that
claim a PR, tried in order, so docs and CI changes are never "memory" because they mention OOM, and a
memory fix is memory whichever backend it touches. Words are generic ML-systems and engineering
vocabulary, not one repository's: module names come from each repository's module map."""

from __future__ import annotations

import re
from dataclasses import dataclass

from chatbot.analysis.types import Analysis


@dataclass(frozen=True, slots=True)
class Concern:
    """A concern claims a PR whose change type is in `change_types`, or one of whose modules is in
    `modules`, or whose title or gist matches `words`."""

    key: str
    words: re.Pattern[str] | None = None
    modules: frozenset[str] = frozenset()
    change_types: frozenset[str] = frozenset()

    def claims(self, text: str, analysis: Analysis) -> bool:
        """Whether the concern claims a PR; `text` is its title and gist, lowercased."""
        return (
            analysis.change_type in self.change_types
            or any(m in self.modules for m in analysis.modules)
            or bool(self.words and self.words.search(text))
        )


def _words(pattern: str) -> re.Pattern[str]:
    """Lowercase words, matched against lowercased text (cheaper than a case-insensitive pattern)."""
    return re.compile(pattern)


CONCERNS: tuple[Concern, ...] = (
    Concern("docs", change_types=frozenset({"doc"}), modules=frozenset({"doc", "docs"})),
    Concern("ci", change_types=frozenset({"test"}), modules=frozenset({"ci", "test", "tests"})),
    Concern(
        "dependencies",
        words=_words(
            r"\b(?:bump|upgrade|pin|unpin|dependenc\w*|requirements?|docker\w*|images?|wheels?|uv|pip|"
            r"conda|packag\w*|release|version)\b|依赖|镜像|升级"
        ),
        modules=frozenset({"deps", "docker", "build", "release"}),
    ),
    Concern(
        "memory",
        words=_words(
            r"\b(?:oom|out of memory|memory|leaks?|offload\w*|peak|empty_cache|activation checkpointing|"
            r"gradient checkpointing|recompute|summon)\b|显存|内存|泄漏"
        ),
    ),
    Concern(
        "hardware",
        words=_words(
            r"\b(?:npu|ascend|rocm|amd|mi\d{3}|xpu|mlu|hpu|gaudi|tpu|mps|910b|a2|a3|cann)\b|昇腾|国产"
        ),
        modules=frozenset({"hardware", "npu", "ascend", "rocm", "amd", "xpu"}),
    ),
    Concern(
        "algorithm",
        words=_words(
            r"\b(?:loss|advantages?|kl|entropy|rewards?|off-?policy|on-?policy|importance sampling|baseline|"
            r"estimator|critic|value model|curriculum|objective)\b|算法|奖励"
        ),
        modules=frozenset({"algo", "algorithm", "reward", "reward_model"}),
    ),
    Concern(
        "performance",
        words=_words(
            r"\b(?:speed ?up|faster|throughput|latency|overlap\w*|perf\w*|optimi[sz]\w*)\b|加速|吞吐"
        ),
        modules=frozenset({"perf"}),
        change_types=frozenset({"perf"}),
    ),
    Concern(
        "rollout",
        words=_words(
            r"\b(?:rollout|generation|generate|inference|sampling|kv ?cache|weight sync\w*|server|serving|"
            r"agent|tool|multi-?turn|vllm|sglang|trtllm|tensorrt)\b|推理|采样"
        ),
        modules=frozenset(
            {"rollout", "vllm", "sglang", "trtllm", "agent", "agent_loop", "inference", "serving", "tool"}
        ),
    ),
    Concern(
        "training",
        words=_words(
            r"\b(?:train\w*|worker|engine|checkpoint\w*|ckpt|optimizer|fsdp\d?|megatron|deepspeed|parallel\w*|"
            r"lora|peft|sharding|resharding|api|primitives?|rpc|controller)\b|训练"
        ),
        modules=frozenset(
            {
                "trainer",
                "worker",
                "workers",
                "engine",
                "ckpt",
                "checkpoint",
                "fsdp",
                "megatron",
                "veomni",
                "single_controller",
                "ray",
                "parallel",
                "distributed",
                "training_utils",
                "optim",
            }
        ),
    ),
    Concern(
        "models",
        words=_words(
            r"\b(?:models?|qwen\w*|llama\w*|deepseek\w*|gemma\w*|mistral\w*|vlm|vision|multimodal|moe)\b"
        ),
        modules=frozenset({"model", "models"}),
    ),
    Concern("fixes", change_types=frozenset({"fix"})),
)


def concern_of(title: str, analysis: Analysis, gist: str = "") -> str:
    """The first concern that claims the PR (by its title and gist, modules and type), else "other"."""
    text = f"{title}\n{gist}".lower()
    for concern in CONCERNS:
        if concern.claims(text, analysis):
            return concern.key
    return "other"
