"""A repo whose PRs change settings in every shape the analyzer reads, with real patches analysed by the
heuristic analyzer: `acme/dials`, plain titles, short bodies in English or Chinese, no template. Defaults
written anew (YAML, dataclass fields, argparse options, an `oc.env` fallback), values made required
(`???`, `MISSING`), and interpolations whose source moved (`oc.select`, a relative `${..x}`, a shell
`${VAR:-x}`, `II("key")`, a literal replaced by a reference): the last are no new defaults.

The clock is Wednesday 2026-03-18 10:00 in Asia/Shanghai (2026-W12); "last week" is 2026-W11
(03-09 to 03-15)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from chatbot.clock import FixedClock
from chatbot.models import PRFile, PullHeader, PullRequest
from chatbot.store.db import Database
from tests.qa.other_repos import SHANGHAI, store_written

NOW = datetime(2026, 3, 18, 10, 0, tzinfo=SHANGHAI)
DIALS = "acme/dials"


def clock() -> FixedClock:
    return FixedClock(NOW)


@dataclass(frozen=True, slots=True)
class SettingsPR:
    number: int
    day: int  # of March 2026
    title: str
    body: str
    path: str
    patch: str
    repo: str = DIALS

    def pull_request(self) -> PullRequest:
        merged = datetime(2026, 3, self.day, 12, tzinfo=SHANGHAI)
        header = PullHeader(
            repo=DIALS,
            number=self.number,
            title=self.title,
            body=self.body,
            author="dev",
            created_at=merged - timedelta(days=1),
            updated_at=merged,
            merged_at=merged,
            html_url=f"https://github.com/{DIALS}/pull/{self.number}",
            base_ref="main",
        )
        added = sum(1 for line in self.patch.split("\n") if line.startswith("+"))
        removed = sum(1 for line in self.patch.split("\n") if line.startswith("-"))
        files = (PRFile(self.path, "modified", added, removed, self.patch),)
        return PullRequest(header, files, additions=added, deletions=removed)


def hunk(context: str, removed: tuple[str, ...], added: tuple[str, ...], header: str = "") -> str:
    lines = [
        f"@@ -1,{len(removed) + 1} +1,{len(added) + 1} @@{' ' + header if header else ''}",
        f" {context}",
    ]
    return "\n".join(lines + [f"-{line}" for line in removed] + [f"+{line}" for line in added])


PRS: tuple[SettingsPR, ...] = (
    # defaults written anew
    SettingsPR(701, 10, "Raise the default learning rate", "Training converged too slowly with 1e-5.",
               "conf/trainer.yaml", hunk("optim:", ("  lr: 1.0e-5",), ("  lr: 3.0e-5",))),
    SettingsPR(704, 11, "服务端口默认值改为 9000", "8000 端口常被占用。", "conf/runtime.yaml",
               hunk("server:", ("  port: ${oc.env:DIALS_PORT,8000}",), ("  port: ${oc.env:DIALS_PORT,9000}",))),
    SettingsPR(706, 12, "Larger default batch size", "Uses the memory the new kernels free.",
               "dials/config.py",
               hunk("    seed: int = 0", ("    batch_size: int = 32",), ("    batch_size: int = 64",),
                    "class TrainConfig:")),
    SettingsPR(708, 13, "More data workers by default, and a dry-run flag", "默认 worker 数改为 8，新增 --dry-run。",
               "dials/cli.py",
               hunk("def build_parser():",
                    ('    parser.add_argument("--workers", type=int, default=4)',),
                    ('    parser.add_argument("--workers", type=int, default=8)',
                     '    parser.add_argument("--dry-run", action="store_true")'))),
    # values that must now be set
    SettingsPR(707, 12, "模型路径必须显式指定", "不再默认使用 base 模型。", "dials/config.py",
               hunk("    seed: int = 0", ('    model_path: str = "base"',), ("    model_path: str = MISSING",),
                    "class ModelConfig:")),
    SettingsPR(711, 14, "Require the training data path", "There is no sensible default location.",
               "conf/data.yaml", hunk("data:", ("  train_path: /data/train",), ("  train_path: ???",))),
    # interpolations whose source moved: no new default
    SettingsPR(702, 10, "Sampling temperature moves to the sampling section", "Part of the config cleanup.",
               "conf/rollout.yaml",
               hunk("rollout:", ("  temperature: ${oc.select:actor.temperature,1.0}",),
                    ("  temperature: ${oc.select:sampling.temperature,1.0}",))),
    SettingsPR(703, 11, "模型最大长度改为跟随 tokenizer", "与 tokenizer 的设置保持一致。", "conf/model.yaml",
               hunk("model:", ("  max_len: ${..data.max_len}",), ("  max_len: ${..tokenizer.max_len}",))),
    SettingsPR(705, 11, "Read the host from HOST", "Every other service reads HOST.", "conf/server.yaml",
               hunk("server:", ("  host: ${DIALS_HOST:-0.0.0.0}",), ("  host: ${HOST:-0.0.0.0}",))),
    SettingsPR(709, 13, "Evaluation learning rate follows the optimizer", "No second number to keep in sync.",
               "dials/config.py",
               hunk("    seed: int = 0", ("    eval_lr: float = 1e-4",), ('    eval_lr: float = II("optim.lr")',),
                    "class EvalConfig:")),
    SettingsPR(710, 14, "warmup 改为引用调度配置", "warmup 步数统一由 schedule 决定。", "conf/trainer.yaml",
               hunk("optim:", ("  warmup: 100",), ("  warmup: ${schedule.warmup}",))),
    # talks about defaults, changes none
    SettingsPR(712, 14, "Document the default settings", "Explains every default value in the README.",
               "docs/settings.md", hunk("# Settings", (), ("The default learning rate is 3e-5.",))),
)  # fmt: skip

DEFAULTS_CHANGED = (701, 704, 706, 708, 707, 711)
SOURCES_MOVED = (702, 703, 705, 709, 710)


def seed(db: Database) -> None:
    """The PRs, each with the heuristic analyzer's analysis (which fills the search index too)."""
    store_written(db, PRS, NOW)
