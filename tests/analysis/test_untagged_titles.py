"""A PR reads the same with or without verl's `[module] type:` title tags: in a repository without a map,
its core is inferred from its layout, and a title that names only a place leaves its type to what the
description and the diff say (a reported bug makes a fix, a diff of docs a docs change)."""

from __future__ import annotations

import dataclasses

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.features import extract_features
from chatbot.analysis.modules import load_module_map
from chatbot.models import PullRequest

from .builders import code, make_pr

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
