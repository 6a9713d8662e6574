"""Importance as a maintainer would rank it, on a repository of another shape than verl (a trl-like
library: plain titles without [module] tags, Chinese, bullet-only and empty bodies, the default module
map): new capabilities, memory and correctness fixes rank above a breaking rename, which ranks above
version bumps, CI and docs, and is flagged breaking without becoming must-read."""

from __future__ import annotations

import pytest

from chatbot.analysis import Analysis, HeuristicAnalyzer
from chatbot.analysis.heuristic import names_semantics
from chatbot.models import PullRequest

from .builders import changed, make_pr

REPO = "acme/trl-like"
ANALYZER = HeuristicAnalyzer()


def lines(prefix: str, n: int) -> list[str]:
    return [f"        {prefix}_{i} = self._step({i})" for i in range(n)]


def pr(title: str, body: str, *files: object, number: int) -> PullRequest:
    return make_pr(title, body=body, files=list(files), repo=REPO, number=number)  # type: ignore[arg-type]


CAPABILITY = pr(
    "Add vision-language model support to GRPOTrainer",
    "本 PR 让 GRPOTrainer 支持视觉语言模型：图像与文本一起编码，奖励函数可以读取图像。",
    changed(
        "trl/trainer/grpo_trainer.py",
        ["class VisionCollator:", "    def __call__(self, batch):", *lines("pixels", 120)],
    ),
    changed("trl/trainer/utils.py", ["def encode_images(processor, images):", *lines("image", 40)]),
    changed("tests/test_grpo_trainer.py", ["def test_vlm():", "    assert train()"]),
    number=1,
)
OOM_FIX = pr(
    "Fix OOM in DPOTrainer with gradient checkpointing",
    "- reference logits were kept on GPU for the whole epoch\n- free them after each step",
    changed("trl/trainer/dpo_trainer.py", [*lines("ref", 25), "        del ref_logits"]),
    changed("tests/test_dpo_trainer.py", ["def test_no_oom():", "    assert peak() < limit"]),
    number=2,
)
CORRECTNESS_FIX = pr(
    "Fix wrong loss normalization with gradient accumulation",
    "",
    changed("trl/trainer/sft_trainer.py", lines("loss", 30), lines("old_loss", 10)),
    number=3,
)
RENAME = pr(
    "Rename args to training_args in SFTTrainer",
    "BREAKING CHANGE: `SFTTrainer(args=...)` is now `SFTTrainer(training_args=...)`.",
    changed(
        "trl/trainer/sft_trainer.py",
        ["    def build(self, training_args):", *[f"        training_args_{i} = {i}" for i in range(150)]],
        ["    def build(self, args):", *[f"        args_{i} = {i}" for i in range(150)]],
    ),
    changed("trl/trainer/sft_config.py", ["    training_args: dict = None"], ["    args: dict = None"]),
    number=4,
)
BUMP = pr(
    "Bump transformers to 4.57",
    "",
    changed("setup.py", ['    "transformers>=4.57.0",'], ['    "transformers>=4.56.0",']),
    number=5,
)
CI = pr(
    "Update CI workflow",
    "",
    changed(".github/workflows/tests.yml", ["  python: '3.12'"], ["  python: '3.11'"]),
    number=6,
)
DOCS = pr("Fix typo in README", "", changed("README.md", ["trainer"], ["trainre"]), number=7)


def analysed(*prs: PullRequest) -> list[Analysis]:
    return [ANALYZER.analyze(p) for p in prs]


def test_capabilities_and_memory_or_correctness_fixes_rank_above_a_breaking_rename() -> None:
    capability, oom, correctness, rename = analysed(CAPABILITY, OOM_FIX, CORRECTNESS_FIX, RENAME)
    assert rename.breaking
    assert min(capability.importance, oom.importance, correctness.importance) > rename.importance


def test_a_breaking_rename_ranks_above_bumps_ci_and_docs_but_is_not_must_read() -> None:
    rename, bump, ci, docs = analysed(RENAME, BUMP, CI, DOCS)
    assert rename.verdict != "must-read"
    assert rename.importance > max(bump.importance, ci.importance, docs.importance)


def test_the_week_top_is_never_the_rename() -> None:
    week = analysed(CAPABILITY, OOM_FIX, CORRECTNESS_FIX, RENAME, BUMP, CI, DOCS)
    top = max(week, key=lambda a: a.importance)
    assert top is not week[3]


def test_version_bumps_ci_and_docs_are_skimmed() -> None:
    assert all(a.verdict == "skim" for a in analysed(BUMP, CI, DOCS))


REMOVALS = [
    pr(
        title,
        body,
        *[
            changed(path, [], [f"class Layer{i}_{j}(nn.Module):" for j in range(400)], status=status)
            for i, path in enumerate(paths)
        ],
        changed("trl/models/__init__.py", ["from .auto import AutoModel"], ["from .llama import LlamaModel"]),
        number=20 + n,
    )
    for n, (title, body, status, paths) in enumerate(
        [
            (
                "[models] fix: remove llama and qwen2 files",
                "",
                "removed",
                ["trl/models/llama.py", "trl/models/qwen2.py"],
            ),
            (
                "Drop the legacy PPO trainer",
                "It has been deprecated for two releases.",
                "modified",
                ["trl/trainer/ppo_v1.py"],
            ),
            (
                "删除旧版的 reward 模型实现",
                "已由新的 RewardModel 取代。",
                "removed",
                ["trl/rewards/old_reward.py", "trl/rewards/old_head.py"],
            ),
            (
                "chore: clean up unused megatron utils",
                "",
                "modified",
                ["trl/utils/megatron_utils.py", "trl/utils/legacy.py"],
            ),
        ]
    )
]


def test_removing_code_ranks_below_capabilities_and_fixes_whatever_its_size() -> None:
    """Deleting thousands of lines is not a large change to read: a removal (by its title or by a diff that
    mostly deletes, in any phrasing) stays below the must-read line and below real changes."""
    real = analysed(CAPABILITY, OOM_FIX, CORRECTNESS_FIX)
    for removal in analysed(*REMOVALS):
        assert removal.verdict != "must-read"
        assert removal.importance < min(a.importance for a in real)


def test_a_pr_that_ticks_every_box_stays_below_the_top_of_the_scale() -> None:
    """Importance saturates: breaking + new API + config keys + semantics is must-read, not 9.5."""
    everything = pr(
        "[BREAKING] feat: add FP8 weight sync to the rollout engine",
        "This PR adds FP8 refit: weights are quantized during sync.",
        changed(
            "trl/rollout/weight_sync.py",
            [
                "def quantize_fp8(tensor):",
                "class FP8Quantizer:",
                "def sync_weights(model, engine, dtype):",
                *lines("fp8", 300),
            ],
            ["def sync_weights(model, engine):", "def quant_weights_by_name(name):", *lines("old", 80)],
        ),
        changed("trl/config/rollout.yaml", ["  fp8: true", "  moe_tp_size: 1"], ["  legacy_sync: true"]),
        number=30,
    )
    analysis = ANALYZER.analyze(everything)
    assert analysis.verdict == "must-read"
    assert analysis.importance <= 9.0


def small_fix(
    title: str, body: str, *, tested: bool = True, path: str = "trl/trainer/grpo_trainer.py"
) -> PullRequest:
    """A few lines changed in a trainer's formula, with or without a regression test."""
    files: list[object] = [
        changed(
            path,
            ["        std = (sq - mean**2).clamp_min(0).sqrt()", *lines("adv", 3)],
            ["        std = x.std()"],
        )
    ]
    if tested:
        files.append(
            changed("tests/test_grpo_trainer.py", ["def test_low_variance():", "    assert close()"])
        )
    return pr(title, body, *files, number=40)


WRONG_RESULTS_BODIES = [
    "For low-variance reward groups the vectorized path could silently shrink the advantages by orders of "
    "magnitude; this makes it match the reference implementation.",
    "- advantages were computed with the wrong std when groups had one sample\n- use the unbiased estimate",
    "当 batch 中存在 padding 时，优势的计算结果与逐条计算的结果不一致，本 PR 修正了归一化。",
    "The per-group std did not match the canonical formula, giving NaN for constant rewards.",
]


def test_a_small_tested_fix_of_wrong_results_ranks_with_a_breaking_rename_in_any_phrasing() -> None:
    """A few lines that fix what training computes, backed by a regression test, are worth reading, whatever
    the title calls them: the description says the results were wrong."""
    rename = ANALYZER.analyze(RENAME)
    for body in WRONG_RESULTS_BODIES:
        for title in ("Fix vectorized group scaling", "[trainer] fix: low-variance scaling", "修复分组缩放"):
            analysis = ANALYZER.analyze(small_fix(title, body))
            assert analysis.verdict != "skim", (title, body, analysis.importance)
            assert analysis.importance >= rename.importance, (title, body)


def test_saying_results_were_wrong_is_not_enough_without_a_test_or_outside_shipped_code() -> None:
    body = WRONG_RESULTS_BODIES[0]
    untested = ANALYZER.analyze(small_fix("Fix vectorized group scaling", body, tested=False))
    tested = ANALYZER.analyze(small_fix("Fix vectorized group scaling", body))
    example = ANALYZER.analyze(small_fix("Fix example scaling", body, path="examples/grpo/run.py"))
    assert untested.importance < tested.importance
    assert example.importance < tested.importance


@pytest.mark.parametrize(
    "title",
    [
        "Fix the seed reused in random sampling",
        "[trainer] fix: off-by-one in the loss mask",
        "修复 KL 损失的符号",
        "fix: temperature not applied to logits",
    ],
)
def test_a_one_line_fix_of_what_training_computes_counts_its_semantics(title: str) -> None:
    line = changed("trl/trainer/grpo_trainer.py", ["        seed = None"], ["        seed = self.seed"])
    plain = ANALYZER.analyze(pr("Fix an edge case in the trainer", "", line, number=50))
    semantic = ANALYZER.analyze(pr(title, "", line, number=51))
    assert semantic.importance > plain.importance, (title, semantic.importance, plain.importance)
    outside = ANALYZER.analyze(
        pr(title, "", changed("examples/run.py", ["seed = None"], ["seed = 1"]), number=52)
    )
    assert outside.importance < semantic.importance


SEMANTIC_ONE_LINERS = [
    "Fix the seed reused in random sampling",
    "fix: `vf_loss` factor",
    "Fix old log probs for on policy training",
    "修复 KL 损失的符号",
    "fix: checkpoint loading restores the wrong optimizer",
    "修复随机种子在各 rank 上相同的问题",
    "Fix reshard of the reference model",
    "fix(grpo): handle reward functions that return None",
]


@pytest.mark.parametrize("title", SEMANTIC_ONE_LINERS)
def test_a_one_line_fix_of_what_training_computes_is_worth_reading_above_every_rename(title: str) -> None:
    """Its reach is every run, not its line count: it ranks above a (breaking) rename of 300 lines and is
    worth reading, whatever the title's shape; the same line with a plain title stays a skim."""
    line = changed("trl/trainer/grpo_trainer.py", ["        seed = None"], ["        seed = self.seed"])
    semantic = ANALYZER.analyze(pr(title, "", line, number=60))
    plain = ANALYZER.analyze(pr("Fix an edge case in the trainer", "", line, number=61))
    (rename,) = analysed(RENAME)
    assert semantic.verdict == "worth-reading", (title, semantic.importance)
    assert semantic.importance > rename.importance, (title, semantic.importance, rename.importance)
    assert plain.verdict == "skim"


def test_a_one_line_fix_of_what_training_computes_outside_core_code_stays_a_skim() -> None:
    for title in SEMANTIC_ONE_LINERS:
        example = ANALYZER.analyze(
            pr(title, "", changed("examples/run.py", ["seed = 1"], ["seed = None"]), number=62)
        )
        assert example.verdict == "skim", title


@pytest.mark.parametrize(
    ("change_type", "title"),
    [
        ("feat", "Support model resharding between the trainer and the rollout engine"),
        ("perf", "Faster checkpoint loading with parallel reads"),
        ("feat", "新增分片导出"),
        ("fix", "Fix empty class_dict for the standalone reward model resource pool"),
        ("fix", "fix: make the agent loop reward worker thread-safe"),
        ("fix", "修复奖励模型资源池为空的问题"),
    ],
)
def test_a_new_sharding_scheme_a_faster_load_or_a_reward_component_changes_no_semantics(
    change_type: str, title: str
) -> None:
    assert not names_semantics(change_type, title)


def test_removing_deprecated_knobs_of_the_optimizer_is_no_semantic_fix() -> None:
    removal = pr(
        "fix: remove deprecated optimizer args",
        "",
        changed("trl/trainer/grpo_trainer.py", [], ["        lr_warmup = None", "        clip = None"]),
        number=63,
    )
    assert ANALYZER.analyze(removal).verdict == "skim"
