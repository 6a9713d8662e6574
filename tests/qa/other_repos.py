"""Three small repos shaped unlike verl, for questions by class: no `[module]` title tags, Chinese or
English descriptions without a PR template, conventional-commit titles. Their analyses come from the
real heuristic analyzer, as a new deployment's would.

- huggingface/trl: plain English titles ("Fix GRPO loss scaling with PEFT models"), some Chinese bodies.
- hiyouga/llamafactory: Chinese titles and bodies.
- pytorch/torchtune: conventional commits ("fix(recipes): …"), English bodies.

The clock is Wednesday 2026-06-24 10:00 in Asia/Shanghai (2026-W26); trl has one PR merged later that
day and one on 06-26, which no answer at the clock may cite. #3433 exists in trl and in torchtune.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.models import Message, PRFile, PullHeader, PullRequest, Review
from chatbot.qa.compose import Answer
from chatbot.store.analyses import save_analysis
from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 6, 24, 10, 0, tzinfo=SHANGHAI)
TRL = "huggingface/trl"
FACTORY = "hiyouga/llamafactory"
TUNE = "pytorch/torchtune"
REPOS = (TRL, FACTORY, TUNE)


def clock() -> FixedClock:
    return FixedClock(NOW)


def at(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=SHANGHAI)


@dataclass(frozen=True, slots=True)
class Written:
    repo: str
    number: int
    merged: datetime
    author: str
    title: str
    body: str
    files: tuple[str, ...]
    review: str = ""
    open_days: float = 1.0  # how long the PR was open before it merged
    merge_commit_sha: str | None = None
    labels: tuple[str, ...] = ()  # GitHub labels, for repos that tag PRs with labels instead of titles

    @property
    def text(self) -> str:
        """Everything the PR itself says, lower-cased: what a question's words are checked against."""
        return "\n".join((self.title, self.body, *self.files, self.review)).lower()

    def pull_request(self) -> PullRequest:
        header = PullHeader(
            repo=self.repo,
            number=self.number,
            title=self.title,
            body=self.body,
            author=self.author,
            created_at=self.merged - timedelta(days=self.open_days),
            updated_at=self.merged,
            merged_at=self.merged,
            html_url=f"https://github.com/{self.repo}/pull/{self.number}",
            base_ref="main",
            merge_commit_sha=self.merge_commit_sha,
            labels=self.labels,
        )
        files = tuple(PRFile(path, "modified", 30, 5, "+x = 1\n-x = 0") for path in self.files)
        reviews = (Review("reviewer", "COMMENTED", self.review),) if self.review else ()
        return PullRequest(header, files, reviews, additions=30 * len(files), deletions=5 * len(files))


def trl(
    number: int, merged: datetime, author: str, title: str, body: str, *files: str, review: str = ""
) -> Written:
    return Written(TRL, number, merged, author, title, body, files, review)


def factory(number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(FACTORY, number, merged, author, title, body, files)


def tune(number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(TUNE, number, merged, author, title, body, files)


PRS: tuple[Written, ...] = (
    # huggingface/trl --------------------------------------------------------------------------------
    trl(3401, at(5, 20), "kashif", "Add PEFT support to the KTO trainer",
        "为 KTO trainer 增加 PEFT 支持，使用 get_peft_model 包装模型。", "trl/trainer/kto_trainer.py"),
    trl(3410, at(5, 28), "qgallouedec", "Fix reward model padding side",
        "The reward model padded on the left, which shifted the scores.", "trl/trainer/reward_trainer.py"),
    trl(3422, at(6, 2), "edbeeching", "Fix GRPO loss scaling with PEFT models",
        "在 PEFT 模型上 GRPO 的 loss 被重复缩放，导致梯度过小。", "trl/trainer/grpo_trainer.py",
        "tests/test_grpo_trainer.py"),
    trl(3425, at(6, 3), "qgallouedec", "Use vLLM colocate mode in GRPO",
        "Generation now runs inside the training process with vLLM, no separate server.",
        "trl/trainer/grpo_trainer.py", "trl/extras/vllm_client.py"),
    trl(3430, at(6, 5), "stevhliu", "Update installation docs",
        "Explain how to install the optional extras.", "docs/source/installation.md"),
    trl(3433, at(6, 9), "kashif", "Reduce peak memory in DPO by computing logps in chunks",
        "DPO 训练时显存峰值过高，容易 OOM，改为分块计算 logps。", "trl/trainer/dpo_trainer.py",
        review="Peak memory went from 71 GB to 52 GB on 8B."),
    trl(3436, at(6, 10), "qgallouedec", "Bump transformers requirement to 4.52",
        "Newer transformers is needed for the processing classes.", "pyproject.toml", "setup.cfg"),
    trl(3440, at(6, 11), "lewtun", "GRPO: support multi-turn rollouts with tools",
        "Tools can now be called between turns.", "trl/trainer/grpo_trainer.py", "trl/extras/tools.py"),
    trl(3444, at(6, 12), "qgallouedec", "Revert \"Use vLLM colocate mode in GRPO\"",
        "This reverts #3425: it hangs on multi-node jobs.", "trl/trainer/grpo_trainer.py"),
    trl(3447, at(6, 16), "ji-huazhong", "Add Ascend NPU device support to SFTTrainer",
        "支持昇腾设备，自动选择 torch_npu 后端。", "trl/trainer/sft_trainer.py"),
    trl(3450, at(6, 17), "kashif", "Fix PEFT model merging in SFT",
        "merge_and_unload was called before saving the adapter.", "trl/trainer/sft_trainer.py"),
    trl(3452, at(6, 18), "qgallouedec", "Add tests for the online DPO trainer",
        "Covers generation and the judge.", "tests/test_online_dpo_trainer.py"),
    trl(3455, at(6, 19), "qgallouedec", "Remove deprecated max_length argument from DPOConfig",
        "BREAKING CHANGE: `max_length` is removed from DPOConfig; use `max_seq_length`.",
        "trl/trainer/dpo_config.py"),
    trl(3458, at(6, 20), "edbeeching", "vLLM server: retry on connection errors",
        "The client now retries three times with backoff.", "trl/extras/vllm_client.py",
        "trl/scripts/vllm_serve.py"),
    trl(3461, at(6, 22), "kashif", "Fix PEFT adapter saving in GRPO checkpoints",
        "保存 checkpoint 时只保存了 base model，没有保存 adapter。", "trl/trainer/grpo_trainer.py",
        "trl/trainer/utils.py"),
    trl(3463, at(6, 23), "lewtun", "Speed up SFT packing",
        "packing 改为一次性拼接，速度提升约 2 倍。", "trl/trainer/sft_trainer.py", "trl/data_utils.py"),
    trl(3465, at(6, 24, 15), "kashif", "Fix GRPO generation batch size with PEFT",
        "Merged after the clock's time.", "trl/trainer/grpo_trainer.py"),
    trl(3466, at(6, 26), "stevhliu", "Add GRPO documentation for PEFT",
        "Merged after the clock's time.", "docs/source/grpo_trainer.md"),
    # hiyouga/llamafactory ---------------------------------------------------------------------------
    factory(7001, at(6, 2), "hiyouga", "修复 DPO 训练时的显存泄漏",
            "释放 reference model 的缓存，显存占用下降 20%。", "src/llamafactory/train/dpo/trainer.py"),
    factory(7004, at(6, 4), "hiyouga", "支持 Qwen3 模型的 LoRA 微调",
            "新增 Qwen3 的模板和 LoRA target。", "src/llamafactory/model/loader.py",
            "src/llamafactory/data/template.py"),
    factory(7008, at(6, 9), "contrib-a", "更新依赖：transformers 升级到 4.52",
            "requirements 中 transformers 的下限提高。", "requirements.txt"),
    factory(7010, at(6, 11), "contrib-b", "新增昇腾 NPU 的安装文档",
            "说明在 Ascend 910B 上的安装步骤。", "docs/npu.md"),
    factory(7013, at(6, 16), "contrib-a", "修复 PPO 训练中 reward 归一化错误",
            "reward 先归一化再裁剪，顺序写反了。", "src/llamafactory/train/ppo/trainer.py"),
    factory(7016, at(6, 17), "hiyouga", "回滚 #7004",
            "Qwen3 的 LoRA 加载出错，先回退。", "src/llamafactory/model/loader.py"),
    factory(7019, at(6, 18), "contrib-b", "增加 DPO 的单元测试",
            "覆盖 sigmoid 和 ipo 两种损失。", "tests/train/test_dpo.py"),
    factory(7022, at(6, 22), "contrib-a", "WebUI 支持多模态数据预览",
            "图片数据集可以在界面里预览。", "src/llamafactory/webui/components/data.py"),
    factory(7025, at(6, 23), "hiyouga", "修复 vLLM 推理时 OOM",
            "gpu_memory_utilization 默认值从 0.9 调到 0.7。", "src/llamafactory/chat/vllm_engine.py"),
    # pytorch/torchtune ------------------------------------------------------------------------------
    tune(2801, at(6, 1), "ebsmothers", "fix(recipes): OOM in full finetune with activation offloading",
         "Offloaded activations were kept alive by a closure.", "recipes/full_finetune_distributed.py"),
    tune(2805, at(6, 4), "joecummings", "feat(models): add Qwen3 builders",
         "Adds 0.6B to 32B builders.", "torchtune/models/qwen3/_model_builders.py"),
    tune(2810, at(6, 10), "svekars", "docs: add PEFT overview page",
         "One page comparing LoRA, QLoRA and DoRA.", "docs/source/tutorials/peft.rst"),
    tune(3433, at(6, 12), "ebsmothers", "chore(deps): pin torchao<0.12",
         "torchao 0.12 breaks the int8 path.", "pyproject.toml"),
    tune(2815, at(6, 16), "joecummings", "fix(checkpointing): resume from DCP checkpoints",
         "The step counter was not restored.", "torchtune/training/checkpointing/_checkpointer.py"),
    tune(2818, at(6, 18), "ebsmothers", "test: add tests for the LoRA DPO recipe",
         "Single device only.", "tests/recipes/test_lora_dpo_single_device.py"),
    tune(2821, at(6, 22), "felipemello1", "perf(attention): use flex attention for packed sequences",
         "Packed sequences no longer materialise the full mask.", "torchtune/modules/attention.py"),
    tune(2824, at(6, 23), "joecummings", "revert: feat(models): add Qwen3 builders",
         "Reverts #2805; it broke the 8B config.", "torchtune/models/qwen3/_model_builders.py"),
)  # fmt: skip

BY_KEY = {(pr.repo, pr.number): pr for pr in PRS}


class StoredPR(Protocol):
    """A PR a test suite writes: its repo and number, and the PullRequest it stands for."""

    @property
    def repo(self) -> str: ...

    @property
    def number(self) -> int: ...

    def pull_request(self) -> PullRequest: ...


def store_written(db: Database, prs: Sequence[StoredPR], now: datetime) -> None:
    """Store `prs`, repo by repo (synced ten minutes before `now`), each with the heuristic analyzer's
    analysis, which also fills the search index: what every repo of these test suites is built with."""
    analyzer = HeuristicAnalyzer()
    with db.session() as session:
        index = PRIndex(session)
        for name in dict.fromkeys(pr.repo for pr in prs):
            repo = index.ensure_repo(name, now - timedelta(days=60))
            repo.last_synced_at = now - timedelta(minutes=10)
            written = [p for p in prs if p.repo == name]
            for pr in written:
                index.upsert(repo, pr.pull_request(), now)
            session.flush()
            rows = {row.number: row for row in session.query(PullRequestRow).filter_by(repo_id=repo.id)}
            for pr in written:
                save_analysis(
                    session,
                    rows[pr.number],
                    analyzer.analyze(pr.pull_request()),
                    analyzer=analyzer.name,
                    version=analyzer.version,
                    language="zh",
                    now=now,
                )


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)


@dataclass(frozen=True, slots=True)
class ChannelBot:
    """The bot as a team meets it: each channel subscribed to one repo, questions asked there without
    naming the repo (`ask(repo, question)` asks in that repo's channel)."""

    bot: ChatBot
    channels: Mapping[str, str]  # channel -> repo

    @classmethod
    def over(cls, db: Database, channels: Mapping[str, str], clock: FixedClock) -> ChannelBot:
        bot = ChatBot(
            db,
            BotConfig(SHANGHAI),
            clock,
            HeuristicAnalyzer().analyze,
            channel_repo=lambda message: channels.get(message.channel or ""),
        )
        return cls(bot, channels)

    def ask(self, repo: str, question: str, thread: str | None = None) -> Answer:
        channel = next(name for name, subscribed in self.channels.items() if subscribed == repo)
        return self.bot.handle(Message(question, platform="slack", channel=channel, user="U1", thread=thread))
