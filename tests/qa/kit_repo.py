"""A fourth repo shape for the QA tests: `acme/kit`, plain titles (no [module] tags, no conventional
commits), short bodies in English or Chinese, no PR template, analysed by the heuristic analyzer. Written
for classes of questions the other fixtures do not reach: words mentioned in passing, who works on a
part of the code, breaking changes stated only in words, and ordinals over a list.

The clock is Wednesday 2026-06-24 10:00 in Asia/Shanghai (2026-W26)."""

from __future__ import annotations

from datetime import datetime

from chatbot.clock import FixedClock
from chatbot.store.db import Database
from tests.qa.other_repos import SHANGHAI, Written, store_written

NOW = datetime(2026, 6, 24, 10, 0, tzinfo=SHANGHAI)
KIT = "acme/kit"


def clock() -> FixedClock:
    return FixedClock(NOW)


def at(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=SHANGHAI)


def kit(number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(KIT, number, merged, author, title, body, files)


PRS: tuple[Written, ...] = (
    # memory: two PRs about it this week, one last week; two mention it only in passing
    kit(501, at(6, 22), "ivy", "Fix crash when merging LoRA adapters",
        "Merging a 70B LoRA on GPU ran out of memory; the merge now runs layer by layer on CPU.",
        "kit/merge.py"),
    kit(502, at(6, 22), "sam", "Add Qwen3 chat template",
        "Adds the Qwen3 chat template and its tests. Minor memory usage increase from the longer prompt.",
        "kit/templates/qwen3.py", "tests/test_templates.py"),
    kit(503, at(6, 23), "sam", "支持 Gemma3 数据集格式",
        "新增 Gemma3 数据集格式的转换。不影响显存占用。", "kit/data/gemma3.py"),
    kit(504, at(6, 23), "ivy", "修复 DPO 训练中的显存泄漏",
        "每一步保存的 logits 没有释放，长时间训练后显存持续增长，最终 OOM。", "kit/trainer/dpo.py"),
    kit(505, at(6, 19), "ivy", "Reduce activation memory with a chunked loss",
        "The loss is computed in chunks of 4k tokens; peak memory drops by 20% on 8B models.",
        "kit/trainer/loss.py"),
    # the dataloader: lin twice, mei once
    kit(506, at(6, 10), "lin", "Speed up dataloader collation",
        "Collation now runs in the worker processes instead of the main process.", "kit/data/loader.py"),
    kit(507, at(6, 15), "lin", "Fix dataloader worker hang on exit",
        "Workers were joined before the queue was drained, so the loader hung at exit.",
        "kit/data/loader.py"),
    kit(508, at(6, 17), "mei", "Add a streaming mode to the dataloader",
        "数据集可以按流式读取，不再需要一次载入内存。", "kit/data/loader.py", "kit/data/stream.py"),
    # breaking changes stated in words only; and one saying there is none
    kit(509, at(6, 18), "sam", "Rename max_len to max_length in the trainer config",
        "BREAKING: configs that still use `max_len` must be updated.", "kit/trainer/config.py"),
    kit(510, at(6, 16), "mei", "调整默认学习率调度",
        "这是一个不兼容的改动：旧的 warmup_ratio 参数被移除，请改用 warmup_steps。",
        "kit/trainer/schedule.py"),
    kit(511, at(6, 16), "lin", "Drop Python 3.9",
        "This is a breaking change for anyone still running Python 3.9; the minimum is now 3.10.",
        "pyproject.toml"),
    kit(512, at(6, 18), "ivy", "Fix a typo in the README",
        "Just a typo. No breaking changes.", "README.md"),
)  # fmt: skip

BY_NUMBER = {pr.number: pr for pr in PRS}


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)
