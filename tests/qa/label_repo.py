"""A small inference-server repo of yet another shape, for questions by class: conventional-commit
titles with scopes (`feat(scheduler): …`, `refactor(scheduler)!: …`), GitHub labels instead of title
tags, English and Chinese descriptions, no template. The clock is other_repos' (Wednesday 2026-06-24
10:00, Asia/Shanghai); one PR is merged after it."""

from __future__ import annotations

from datetime import datetime

from chatbot.store.db import Database
from tests.qa.other_repos import NOW, Written, at, clock, store_written

RELAY = "acme/relay"
__all__ = ["NOW", "PRS", "RELAY", "clock", "seed"]


def relay(
    number: int, merged: datetime, labels: tuple[str, ...], title: str, body: str, *files: str
) -> Written:
    return Written(RELAY, number, merged, "dev-" + str(number % 3), title, body, files, labels=labels)


PRS: tuple[Written, ...] = (
    relay(810, at(6, 12), ("enhancement", "model"), "feat(model): add Gemma3 loader",
          "Loads Gemma3 checkpoints and their chat template.", "relay/model/gemma3.py"),
    relay(801, at(6, 15), ("enhancement", "area/scheduler"), "feat(scheduler): chunked prefill for long prompts",
          "Prefill is split into 2k-token chunks so decode steps are not starved. Measured: p99 latency "
          "drops from 1.9 s to 0.8 s on 32k prompts.", "relay/scheduler/prefill.py", "relay/scheduler/core.py",
          "tests/test_prefill.py"),
    relay(802, at(6, 16), ("bug",), "fix(kv-cache): free blocks of aborted requests",
          "Aborted requests kept their KV blocks, so GPU memory grew until the server hit OOM.",
          "relay/cache/blocks.py"),
    relay(803, at(6, 17), ("documentation",), "docs: document the speculative decoding flags",
          "说明 --speculative-model 和 --num-draft-tokens 两个参数。", "docs/speculative.md"),
    relay(804, at(6, 18), ("bug",), "fix(sampler): temperature 0 divides by zero",
          "temperature=0 时贪心采样得到 NaN logits，现在按 argmax 处理。", "relay/sampler.py"),
    relay(808, at(6, 19), ("breaking",), "refactor(scheduler)!: rename max_batch to max_num_seqs",
          "BREAKING CHANGE: the `max_batch` option is gone; use `max_num_seqs`.", "relay/config.py"),
    relay(811, at(6, 20), ("bug",), "fix(sampler): normalize logits before top-p filtering",
          "Top-p was applied to unnormalized logits, so it kept too many tokens.", "relay/sampler.py"),
    relay(812, at(6, 20), ("enhancement",), "feat(kernels): fp8 quantization for the MoE layers",
          "Per-channel scales; accuracy within 0.2 points on MMLU.", "relay/kernels/moe_fp8.py"),
    relay(805, at(6, 22), ("enhancement",), "feat(speculative): add EAGLE draft model support",
          "Adds EAGLE-style draft heads for speculative decoding; acceptance rate 0.7 on ShareGPT.",
          "relay/speculative/eagle.py", "relay/speculative/__init__.py"),
    relay(807, at(6, 22), ("dependencies",), "chore(deps): bump torch to 2.7", "Needed by the new kernels.",
          "requirements.txt"),
    relay(806, at(6, 23), ("performance",), "perf(kernels): fuse rotary embedding into attention",
          "融合 rotary 与 attention kernel，H100 上 decode 快 1.2 倍。", "relay/kernels/rotary.py"),
    relay(809, at(6, 25), ("bug",), "fix(scheduler): preemption loses the prefix cache",
          "Merged after the clock's time.", "relay/scheduler/core.py"),
)  # fmt: skip


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)
