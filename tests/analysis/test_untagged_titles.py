"""A PR reads the same with or without verl's `[module] type:` title tags: in a repository without a map,
its core is inferred from its layout, and a title that names only a place leaves its type to what the
description and the diff say (a reported bug makes a fix, a diff of docs a docs change)."""

from __future__ import annotations

import dataclasses

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis import weights as w
from chatbot.analysis.features import extract_features
from chatbot.analysis.heuristic import importance_parts
from chatbot.analysis.modules import load_module_map
from chatbot.models import PullRequest

from .builders import changed, code, make_pr

REPO = "acme/rl"
ANALYZER = HeuristicAnalyzer()


def core_share(path: str, repo: str = REPO) -> float:
    pr = make_pr("Update", files=[code(path, 40)], repo=repo)
    return extract_features(pr, load_module_map(repo)).core_share


@pytest.mark.parametrize(
    "path",
    ["trl/trainer/grpo_trainer.py", "src/acme/models/llama.py", "pkg/rollout/engine.go", "acme/loss.py"],
)
def test_shipped_source_of_a_repository_without_a_map_is_core(path: str) -> None:
    assert core_share(path) == 1.0


@pytest.mark.parametrize(
    "path",
    [
        "trl/utils/logging.py",
        "acme/experimental/new_algo.py",
        "acme/third_party/vllm/patch.py",
        "examples/run_grpo.py",
        "recipes/dapo/main.py",
        "scripts/convert.py",
        "tests/test_loss.py",
        "docs/conf.py",
    ],
)
def test_helpers_examples_and_tests_of_a_repository_without_a_map_are_not_core(path: str) -> None:
    assert core_share(path) == 0.0


def test_a_repository_map_that_names_core_paths_keeps_them() -> None:
    assert core_share("verl/trainer/ppo/ray_trainer.py", "verl-project/verl") == 1.0
    assert core_share("verl/tools/search_tool.py", "verl-project/verl") == 0.0


def test_a_trainer_change_outranks_the_same_change_to_a_helper() -> None:
    def importance(path: str) -> float:
        return ANALYZER.analyze(make_pr("Change the step", files=[code(path, 80)], repo=REPO)).importance

    assert importance("acme/trainer/step.py") > importance("acme/utils/step.py")


def untagged(title: str, body: str = "", *files: object) -> PullRequest:
    chosen = list(files) or [code("acme/trainer/step.py", 30)]
    return make_pr(title, body=body, files=chosen, repo=REPO)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("title", "body"),
    [
        (
            "Megatron async checkpoint save",
            "This PR fixes the async save, which dropped the optimizer state.",
        ),
        ("Reward manager with multiple data sources", "Fix the reward manager when a batch mixes sources."),
        (
            "Rollout n>1 with agent loop",
            "When n > 1 the agent loop crashes with an IndexError in postprocess.",
        ),
        (
            "Tokenizer path in config",
            "Training failed because the tokenizer path was read from the wrong key.",
        ),
        ("多轮对话的奖励", "本 PR 修复了多轮对话中奖励错位的问题。"),
        ("Checkpoint 合并", "合并 LoRA 权重时报错：KeyError。"),
    ],
)
def test_a_title_naming_only_a_place_is_a_fix_when_the_description_reports_a_bug(
    title: str, body: str
) -> None:
    assert ANALYZER.analyze(untagged(title, body)).change_type == "fix"


@pytest.mark.parametrize(
    "title",
    [
        "max_num_seqs does not take effect",
        "Megatron workers batch_size config is not processed correctly",
        "Model won't be updated on the first training step",
        "Add missing FP8 padding for router replay",
        "Custom model config can't be pickled",
        "rollout 配置不生效",
    ],
)
def test_a_title_naming_a_symptom_is_a_fix(title: str) -> None:
    assert ANALYZER.analyze(untagged(title)).change_type == "fix"


@pytest.mark.parametrize(
    ("title", "body"),
    [
        (
            "Rollout server mode",
            "Adds a server mode to the rollout so engines can be shared across trainers.",
        ),
        ("Async reward loop", "This PR introduces an asynchronous reward loop."),
        ("Agent loop for tools", ""),
    ],
)
def test_a_title_naming_only_a_place_is_no_fix_without_a_reported_bug(title: str, body: str) -> None:
    assert ANALYZER.analyze(untagged(title, body)).change_type != "fix"


def test_a_declared_type_wins_over_a_description_that_mentions_errors() -> None:
    pr = untagged("feat: retry rollout requests", "Requests that fail with a timeout error are retried.")
    assert ANALYZER.analyze(pr).change_type == "feat"


@pytest.mark.parametrize(
    ("title", "files"),
    [
        ("Add vllm 0.8 page", [code("docs/README_vllm0.8.md", 44), code("docker/Dockerfile.vllm", 8)]),
        ("Add multinode training and debug tutorial", [code("docs/start/multinode.rst", 99)]),
        ("更新 Ascend 快速上手", [code("docs/ascend/quick_start.rst", 60), code("examples/run_npu.sh", 3)]),
        ("Add docstrings to metric functions", [code("docs/api/metrics.rst", 20)]),
    ],
)
def test_a_diff_of_docs_is_a_docs_change_whatever_verb_the_title_opens_with(title: str, files: list) -> None:
    assert ANALYZER.analyze(untagged(title, "", *files)).change_type == "doc"


def test_a_docs_title_over_shipped_code_is_no_docs_change_by_its_diff() -> None:
    pr = untagged("Add vllm 0.8 page", "", code("docs/vllm.md", 40), code("acme/rollout/vllm.py", 80))
    assert ANALYZER.analyze(pr).change_type != "doc"


@pytest.mark.parametrize(
    "title",
    [
        "Remove deprecated max_length argument from DPOConfig",
        "Drop the legacy rollout worker",
        "Drop support for Python 3.8",
        "移除已废弃的 max_length 参数",
    ],
)
def test_removing_what_was_deprecated_is_flagged_without_leading_the_reading_list(title: str) -> None:
    removal = untagged(
        title,
        "BREAKING CHANGE: `max_length` is removed; use `max_seq_length`.",
        *[code(f"acme/trainer/config_{i}.py", 60) for i in range(4)],
    )
    a = ANALYZER.analyze(removal)
    assert a.breaking and a.verdict == "worth-reading"


@pytest.mark.parametrize(
    ("labels", "change_type"),
    [
        (("bug",), "fix"),
        (("type: bug", "area/rollout"), "fix"),
        (("kind/feature",), "feat"),
        (("enhancement",), "feat"),
        (("performance",), "perf"),
        (("dependencies",), "chore"),
    ],
)
def test_a_label_declares_the_type_a_title_does_not(labels: tuple[str, ...], change_type: str) -> None:
    pr = untagged("Rollout engine and the reward loop", "Rollout and reward now share one engine.")
    labelled = dataclasses.replace(pr, header=dataclasses.replace(pr.header, labels=labels))
    assert ANALYZER.analyze(labelled).change_type == change_type


def test_a_title_type_wins_over_a_label() -> None:
    pr = untagged("feat: shared engine for rollout and reward")
    labelled = dataclasses.replace(pr, header=dataclasses.replace(pr.header, labels=("bug",)))
    assert ANALYZER.analyze(labelled).change_type == "feat"


def _in_place(renamed: bool = False) -> list[object]:
    """A change of 24 lines rewritten in place; with `renamed`, the definition it changes is renamed."""
    old = "def load_state(path):" if renamed else "def save_state(path, strict=True):"
    new = "def restore_state(path):" if renamed else "def save_state(path, strict=False):"
    lines = [f"    state_{i} = read(path, {i})" for i in range(12)]
    return [
        changed("acme/trainer/ckpt.py", [new, *lines], [old, *[f"    s{i} = read(path)" for i in range(12)]])
    ]


@pytest.mark.parametrize(
    "title",
    [
        "Megatron save checkpoints with strict false",
        "AsyncServer wake_up/sleep path",
        "Checkpoint 的保存逻辑",
    ],
)
def test_a_title_naming_only_a_place_over_code_changed_in_place_is_a_fix(title: str) -> None:
    """No verb, no reported bug, code rewritten in place and nothing renamed, moved or removed: a
    correction more often than a restructuring."""
    assert ANALYZER.analyze(untagged(title, "", *_in_place())).change_type == "fix"


def test_a_title_naming_only_a_place_over_renamed_definitions_is_a_refactor() -> None:
    assert (
        ANALYZER.analyze(untagged("Checkpoint state loading", "", *_in_place(renamed=True))).change_type
        == "refactor"
    )


@pytest.mark.parametrize(
    "title",
    [
        "Migrate the diffusion stack to its own package",
        "Standardize deterministic environment variables for NCCL",
        "Polish the megatron engine",
        "Separate metric utils from the PPO trainer",
        "Consolidate the rollout configs",
        "Deduplicate the weight loaders",
        "拆分 rollout 配置",
        "整理 megatron 引擎代码",
    ],
)
def test_restructuring_verbs_say_refactor(title: str) -> None:
    assert ANALYZER.analyze(untagged(title, "", *_in_place())).change_type == "refactor"


@pytest.mark.parametrize(
    ("tagged", "plain", "conventional", "files"),
    [
        (
            "[ci] chore: run the e2e suite on the release branch",
            "Run the e2e suite on the release branch",
            "chore(ci): run the e2e suite on the release branch",
            [
                changed(
                    ".github/workflows/e2e.yml", [f"    - run: bash scripts/e2e_{i}.sh" for i in range(8)]
                ),
                changed("scripts/e2e.sh", [f"python -m acme.run --case {i}" for i in range(12)]),
            ],
        ),
        (
            "[trainer] refactor: share the checkpoint loader",
            "Share the checkpoint loader",
            "refactor(trainer): share the checkpoint loader",
            _in_place(),
        ),
        (
            "[trainer] fix: save checkpoints with strict false",
            "Save checkpoints with strict false",
            "fix(trainer): save checkpoints with strict false",
            _in_place(),
        ),
    ],
)
def test_the_same_pr_in_any_title_shape_gets_close_importance_and_the_same_verdict(
    tagged: str, plain: str, conventional: str, files: list[object]
) -> None:
    """A PR's importance is its diff's, mostly: a type label one repo writes and another does not moves it
    by less than a point, and never across a verdict line here."""
    analyses = [ANALYZER.analyze(make_pr(t, files=files, repo=REPO)) for t in (tagged, plain, conventional)]  # type: ignore[arg-type]
    scores = [a.importance for a in analyses]
    assert max(scores) - min(scores) < 1.0, scores
    assert len({a.verdict for a in analyses}) == 1


def test_a_chore_that_is_mostly_shipped_code_starts_where_a_refactor_does() -> None:
    """`chore:` over a rewrite of shipped code changes what users run; a bump adapting a few lines does not."""
    bump = [
        changed("requirements.txt", [f"pkg{i}>=1.{i}" for i in range(30)]),
        code("acme/trainer/ckpt.py", 12),
    ]

    def base(title: str, files: list[object]) -> float:
        parts = importance_parts(
            extract_features(make_pr(title, files=files, repo=REPO), load_module_map(REPO)), "chore", ()
        )  # type: ignore[arg-type]
        return next(p.points for p in parts if p.key == "type")

    assert base("chore: share the checkpoint loader", _in_place()) == w.IMPORTANCE_BASE["refactor"]
    assert base("chore: bump dependencies", bump) == w.IMPORTANCE_BASE["chore"]
