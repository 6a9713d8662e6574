"""Report themes are subjects (memory, data, a backend, dependencies…), never kinds of change: a fix
belongs to what it fixes. Checked on titles without `[module]` tags, Chinese and English phrasings,
repos of other shapes, and the verl export's weeks outside June 2026."""

from __future__ import annotations

import re

import pytest

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.reports.builder import AnalyzedPR, compose_weekly_report
from chatbot.reports.themes import CONCERNS, concern_name, concern_of
from tests.analysis.builders import changed, code, make_pr
from tests.reports.test_builder import NOW, VERL_WEEKS, WEEK, trl_like_week

ANALYZER = HeuristicAnalyzer(language="zh")
# Theme names built from a kind of change ("缺陷修复", "bug fixes", "new features").
CHANGE_KIND = re.compile(r"修复|新功能|重构|维护|\bfix(?:es)?\b|\bfeatures?\b|\brefactor", re.I)


def concern(title: str, *files: str, body: str = "", repo: str = "acme/plain") -> str:
    pr = make_pr(title, body=body, files=[code(f, 40) for f in files or ("pkg/core/x.py",)], repo=repo)
    analysis = ANALYZER.analyze(pr)
    return concern_of(title, analysis, analysis.localized("en").gist)


def test_no_concern_is_a_kind_of_change() -> None:
    # Docs, tests and performance are subjects as well as kinds; a fix or a feature is never one.
    assert all(not c.change_types - {"doc", "test", "perf"} for c in CONCERNS)
    assert "fixes" not in {c.key for c in CONCERNS}


@pytest.mark.parametrize(
    ("title", "subject"),
    [
        ("Fix: accept jsonl dataset files", "data"),
        ("fix tokenizer padding side in the dataloader", "data"),
        ("修复数据集加载时的编码错误", "data"),
        ("Fix the wandb logger dropping step metrics", "observability"),
        ("修复监控指标上报丢失", "observability"),
        ("fix: yaml option ignored on the command line", "config"),
        ("修复配置项未生效", "config"),
        ("Fix OOM when offloading the optimizer", "memory"),
        ("修复 NPU 上的精度问题", "hardware"),
    ],
)
def test_a_fix_belongs_to_the_subject_it_fixes(title: str, subject: str) -> None:
    assert concern(title) == subject


@pytest.mark.parametrize(
    ("title", "path", "repo"),
    [
        ("fix: handle empty batches", "src/llamafactory/webui/runner.py", "hiyouga/llamafactory"),
        ("修复空批次导致的崩溃", "src/llamafactory/webui/runner.py", "hiyouga/llamafactory"),
        ("Handle empty batches in the web UI", "src/llamafactory/webui/runner.py", "hiyouga/llamafactory"),
    ],
)
def test_a_pr_no_subject_claims_belongs_to_its_module(title: str, path: str, repo: str) -> None:
    assert concern(title, path, repo=repo) == "module:webui"
    assert "webui" in concern_name("module:webui", "zh") and "webui" in concern_name("module:webui", "en")


@pytest.mark.parametrize("path", ["pkg/core/x.py", "src/axolotl/utils/collate_helpers.py"])
def test_a_fix_in_a_generic_module_is_other_not_a_fix_theme(path: str) -> None:
    assert concern("fix: handle empty batches", path, repo="axolotl-ai-cloud/axolotl") == "other"


def test_a_fix_mentioning_an_optimisation_is_about_what_broke_not_performance() -> None:
    assert concern("Fix vLLM synchronization error caused by SGLang skipping resume optimize") == "rollout"
    assert concern("Speed up SFT packing") == "performance"


@pytest.mark.parametrize(
    "title",
    ["Add Muon optimizer support", "Allow overriding the optimizer config", "feat: abstract optimizers"],
)
def test_an_optimizer_is_training_not_performance(title: str) -> None:
    assert concern(title, "pkg/trainer/optim.py") != "performance"
    assert concern("Optimize the rollout's weight sync", "pkg/rollout/sync.py") == "performance"


def test_a_pin_change_filed_under_ci_is_about_dependencies() -> None:
    title = "[ci] fix: all CIs, transformers upgrade to 5.3.0"
    pr = make_pr(
        title, files=[changed("requirements.txt", ["transformers==5.3.0"], ["transformers==4.57.0"])]
    )
    assert concern_of(title, ANALYZER.analyze(pr)) == "dependencies"


@pytest.mark.parametrize(
    "title",
    [
        "[doc] chore: update vllm from v0.13.0 to v0.18.0 in docs and dockerfile",
        "docs: move the install guide to the new base image",
        "更新文档与镜像中的 vllm 版本",
    ],
)
def test_a_docs_pr_that_moves_what_gets_installed_is_about_dependencies(title: str) -> None:
    pr = make_pr(
        title,
        files=[
            changed(
                "docker/Dockerfile.npu", ["RUN pip install vllm==0.18.0"], ["RUN pip install vllm==0.13.0"]
            ),
            changed("docs/start/install.rst", ["pip install vllm==0.18.0"], ["pip install vllm==0.13.0"]),
        ],
    )
    assert concern_of(title, ANALYZER.analyze(pr)) == "dependencies"


def test_a_docs_pr_with_a_pin_only_in_its_pages_stays_docs() -> None:
    title = "docs: refresh the install guide"
    pr = make_pr(
        title,
        files=[changed("docs/start/install.rst", ["pip install vllm==0.18.0"], ["pip install vllm==0.13.0"])],
    )
    assert concern_of(title, ANALYZER.analyze(pr)) == "docs"


def test_a_feature_that_adds_a_requirement_is_about_the_feature() -> None:
    title = "Add the mooncake checkpoint engine backend"
    pr = make_pr(
        title,
        files=[
            code("pkg/checkpoint_engine/mooncake.py", 200),
            changed("requirements.txt", ["mooncake==0.3"]),
        ],
    )
    assert concern_of(title, ANALYZER.analyze(pr)) == "training"


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize(
    "records",
    [pytest.param(trl_like_week(), id="trl-like")]
    + [pytest.param(w, id=f"verl-{i}") for i, w in enumerate(VERL_WEEKS)],
)
def test_no_theme_of_a_report_is_named_after_a_kind_of_change(
    records: list[AnalyzedPR], language: str
) -> None:
    report = compose_weekly_report("acme/x", WEEK, records, [], language=language, generated_at=NOW)  # type: ignore[arg-type]
    names = [t.name for t in report.themes] + [t.name for t in report.theme_trends]
    assert names
    assert not [name for name in names if CHANGE_KIND.search(name)]


@pytest.mark.parametrize(
    ("title", "files", "repo", "subject"),
    [
        (
            "Add trust region masking to the policy loss",
            ("verl/trainer/ppo/core_algos.py", "docs/algo/tr.md"),
            "verl-project/verl",
            "algorithm",
        ),
        (
            "Add trust region masking to the policy loss",
            ("trl/trainer/grpo_trainer.py", "docs/source/grpo.md"),
            "huggingface/trl",
            "algorithm",
        ),
        ("新增 DRO 损失：按组重加权优势", ("src/pkg/losses.py", "docs/dro.md"), "acme/plain", "algorithm"),
        (
            "Fix rotary embedding cache in the engine",
            ("verl/workers/engine/fsdp/x.py", ".github/workflows/gpu.yml"),
            "verl-project/verl",
            "training",
        ),
        (
            "Handle empty batches in the runner",
            ("src/pkg/runner.py", "docs/runner.md"),
            "acme/plain",
            "module:pkg",
        ),
        ("Update the installation guide", ("docs/install.md",), "huggingface/trl", "docs"),
        ("更新安装文档", ("docs/install.md", "README.md"), "acme/plain", "docs"),
    ],
)
def test_docs_or_ci_beside_code_do_not_make_a_pr_about_docs_or_ci(
    title: str, files: tuple[str, ...], repo: str, subject: str
) -> None:
    """A change to code that also updates its docs page or a CI workflow is about what the code does;
    a PR is docs or CI when that is all it touches."""
    assert concern(title, *files, repo=repo) == subject


@pytest.mark.parametrize(
    "title",
    [
        "Retain model output from the forward backward pass",
        "Keep the model in eval mode during validation",
        "修复保存模型时的路径错误",
    ],
)
def test_the_word_model_alone_does_not_make_a_pr_about_model_support(title: str) -> None:
    assert concern(title) != "models"


@pytest.mark.parametrize(
    "title",
    [
        "Support Kimi-K2 models",
        "add Gemma 3 support",
        "feat: add the GLM4V model",
        "新增 Qwen3-VL 模型支持",
        "支持 InternVL 多模态模型",
    ],
)
def test_a_pr_adding_or_supporting_a_model_is_about_model_support(title: str) -> None:
    assert concern(title) == "models"


@pytest.mark.parametrize(
    "title",
    [
        "Handle empty image inputs in the tool agent loop",
        "fix: training stuck with mixed text-image data",
        "Use a bicubic resampler when resizing images",
        "Move the KV cache wake-up after the model weights release",
        "Add missing __init__.py to the rollout package",
        "Compatible with older megatron version on NPU",
        "修复多模态数据中图片为空时的报错",
    ],
)
def test_an_image_a_version_a_package_or_a_release_alone_is_no_dependency_change(title: str) -> None:
    """A vision input, a compatibility fix, a Python package's `__init__` or freeing memory: not builds."""
    assert concern(title) != "dependencies"


@pytest.mark.parametrize(
    "title",
    [
        "Bump the CI image to CUDA 12.8",
        "Update the base image and the docker image tags",
        "Update the TransferQueue version",
        "Bump version to 0.7.1",
        "Resolve pypi missing directory",
        "Include config files in package data",
        "升级 NPU 镜像",
    ],
)
def test_builds_images_and_versions_of_what_gets_installed_are_dependencies(title: str) -> None:
    assert concern(title) == "dependencies"


@pytest.mark.parametrize(
    "title",
    [
        "Patch MoEAlltoAllTokenDispatcher.preprocess for router replay",
        "Call DataCollator.tokenize lazily in the trainer",
        "fix: wrap Dataset.shuffle in the megatron worker",
    ],
)
def test_a_name_in_code_in_the_title_is_not_the_subject(title: str) -> None:
    """`Dispatcher.preprocess` is a method the change touches; the PR is about its module, not data."""
    assert concern(title, "pkg/megatron/moe.py", repo="acme/x") != "data"


@pytest.mark.parametrize(
    "title",
    [
        "support log memory in engine worker",
        "Log peak memory after each step",
        "report GPU memory in the step metrics",
        "Print memory usage when the trainer starts",
    ],
)
def test_logging_memory_is_about_what_gets_logged(title: str) -> None:
    assert concern(title, "pkg/worker/engine.py") == "observability"


@pytest.mark.parametrize(
    ("title", "subject"),
    [
        ("add shared memory support for weight transfer", "rollout"),
        ("Use shared memory for IPC between the vLLM workers", "rollout"),
        ("Reduce memory of weight transfer", "memory"),
    ],
)
def test_shared_memory_is_a_way_to_pass_tensors_not_memory_use(title: str, subject: str) -> None:
    assert concern(title, "pkg/rollout/weights.py") == subject


@pytest.mark.parametrize(
    ("title", "body", "path"),
    [
        (
            "[recipe] feat: add FlowRL recipe",
            "Implements FlowRL (Flow-based Reinforcement Learning), a novel policy optimization algorithm "
            "for LLM reasoning.",
            "recipe/flowrl/flowrl_actor.py",
        ),
        ("Add GSPO", "This PR adds Group Sequence Policy Optimization to the trainer.", "src/rl/gspo.py"),
        (
            "Add a preference tuning recipe",
            "Implements Direct Preference Optimization for chat models.",
            "x/y.py",
        ),
        ("新增 FlowRL：基于流的策略优化", "本 PR 实现 FlowRL，用于大模型推理。", "recipe/flowrl/main.py"),
    ],
)
def test_a_new_rl_algorithm_is_an_algorithm_not_performance(title: str, body: str, path: str) -> None:
    """An RL algorithm named by what it is ("a policy optimization algorithm": PPO, GRPO, GSPO, DPO…)
    is an algorithm, never a speed-up."""
    assert concern(title, path, body=body) == "algorithm"


@pytest.mark.parametrize(
    ("title", "body", "subject"),
    [
        (
            "Support Megatron-FSDP mode for the Megatron backend",
            "Adds Megatron-FSDP for SFT and RL, so users can compare its throughput with full Megatron.",
            "training",
        ),
        (
            "Fix the tool parser dropping the last argument",
            "Fixes a bug found while profiling memory use: the parser dropped the last argument of each call.",
            "rollout",
        ),
        (
            "修复数据集加载时的编码错误",
            "## 这个 PR 做了什么\n\n修复读取 UTF-16 数据集时的报错，问题是在分析吞吐时发现的。",
            "data",
        ),
        ("fix: yaml option ignored on the command line", "Found while profiling the loader.", "config"),
    ],
)
def test_the_title_names_the_subject_before_words_its_description_merely_uses(
    title: str, body: str, subject: str
) -> None:
    """A PR is about what its title says (then its kind of change and its modules); a word of its
    description's opening (a side effect, where the bug was found) places it only when nothing else
    does."""
    assert concern(title, body=body) == subject


@pytest.mark.parametrize(
    "title",
    [
        "feat: add top-k distillation overlap metrics",
        "Support AgentLoop performance metrics",
        "Add rollout longtail observation metrics",
        "支持 AgentLoop 性能指标",
    ],
)
def test_metrics_of_something_are_about_what_gets_measured(title: str) -> None:
    assert concern(title, "pkg/trainer/metrics.py") == "observability"


@pytest.mark.parametrize(
    "title",
    [
        "[trainer] feat: support ReMax in synchronous TransferQueue trainer",
        "Add GDPO (Group reward-Decoupled Normalization Policy Optimization) algorithm",
        "Implement RLOO for the online trainer",
        "支持 DAPO 算法",
    ],
)
def test_a_pr_adding_an_rl_algorithm_is_about_the_algorithm(title: str) -> None:
    assert concern(title, "pkg/trainer/x.py") == "algorithm"


@pytest.mark.parametrize(
    "title",
    [
        "Add GRPO training scripts for Qwen3-VL-30B",
        "LoRA support for PPO",
        "[ci] chore: add grpo ci",
        "新增 GRPO 训练脚本",
        "add qwen3 grpo example",
    ],
)
def test_a_pr_training_with_an_rl_algorithm_is_not_about_the_algorithm(title: str) -> None:
    """A script, a CI job or a feature that trains with an algorithm is about those."""
    assert concern(title, "pkg/trainer/x.py") != "algorithm"


@pytest.mark.parametrize(
    ("title", "subject"),
    [
        ("[trainer] fix: Handle None sandbox_config in load_reward_manager", "algorithm"),
        ("[trainer] fix: make `reward_extra_info` optional in `reward_result`", "algorithm"),
        ("修复 reward_fn 在多进程下的序列化错误", "algorithm"),
        ("fix: return NaN for empty tensors in compute_data_metrics", "observability"),
    ],
)
def test_a_name_in_code_holding_a_subjects_noun_is_that_subjects_code(title: str, subject: str) -> None:
    assert concern(title, "pkg/trainer/x.py") == subject
