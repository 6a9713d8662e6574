"""A repo shape for questions naming a part of the code beside a module ("the ray backend", "ray 后端")
and Chinese verbs ("保存", "加载", "卸载"): `acme/forge`, plain titles (no [module] tags), Chinese and
English bodies without a template, analysed by the heuristic analyzer.

The clock is Wednesday 2026-04-22 10:00 in Asia/Shanghai (2026-W17); "last week" is 2026-W16."""

from __future__ import annotations

from datetime import datetime

from chatbot.clock import FixedClock
from chatbot.store.db import Database
from tests.qa.other_repos import SHANGHAI, Written, store_written

NOW = datetime(2026, 4, 22, 10, 0, tzinfo=SHANGHAI)
FORGE = "acme/forge"


def clock() -> FixedClock:
    return FixedClock(NOW)


def at(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=SHANGHAI)


def forge(number: int, merged: datetime, title: str, body: str, *files: str) -> Written:
    return Written(FORGE, number, merged, "dev", title, body, files)


# A long description naming ray only in a list of CI jobs, past its opening sentence.
_CI_LIST = (
    "新增音频数据的读取，并在采样阶段携带音频特征。\n\n测试情况：\n"
    "- `e2e_grpo_fsdp`: 通过\n- `e2e_grpo_ray_cluster`: ray job failed with a flaky timeout, rerun passed\n"
    + "其余任务均通过，日志见 CI 页面。"
    * 8
)

PRS: tuple[Written, ...] = (
    # the ray backend: three PRs under forge/ray/, one naming ray only in a CI job list and a file path
    forge(801, at(4, 13), "Ray 后端支持多节点自动重连",
          "节点掉线后，ray 后端会自动重连并恢复任务。", "forge/ray/cluster.py", "forge/ray/reconnect.py"),
    forge(802, at(4, 14), "Fix actor placement on heterogeneous nodes",
          "Actors were placed on nodes without GPUs; placement now checks resources.",
          "forge/ray/placement.py"),
    forge(803, at(4, 16), "ray：移除旧的 launch 辅助函数",
          "删除了 launch_legacy，调用方改用 launch。", "forge/ray/launch.py"),
    # not under forge/ray/ nor titled by it, but its description (past a template) opens with ray
    forge(810, at(4, 17), "Back off before reconnecting",
          "### What does this PR do?\n\n> Ray workers now wait with exponential backoff before reconnecting.\n\n"
          "### Test\n- [x] unit tests", "forge/net/backoff.py"),
    forge(804, at(4, 15), "支持音频数据", _CI_LIST, "forge/data/audio.py", "configs/ray_cluster.yaml"),
    forge(805, at(4, 15), "整理示例脚本", "把示例脚本按任务分目录。", "examples/run_ray_grpo.sh",
          "examples/run_fsdp_grpo.sh"),
    # saving, loading and offloading, written in English in the PRs
    forge(806, at(4, 14), "Drop tied keys before save_pretrained",
          "Tied weights were written twice when saving the checkpoint; they are dropped before saving.",
          "forge/checkpoint/hf.py"),
    forge(807, at(4, 16), "Load sharded weights lazily",
          "Weights are now loaded shard by shard, which halves peak host memory.",
          "forge/checkpoint/loader.py"),
    forge(808, at(4, 17), "Offload optimizer states to CPU between steps",
          "Optimizer states are offloaded to CPU memory after each step and fetched back before the next.",
          "forge/optim/offload.py"),
    forge(809, at(4, 17), "Fix a typo in the README", "Just a typo.", "README.md"),
)  # fmt: skip


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)
