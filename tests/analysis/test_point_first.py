"""The first key point says what the PR does or found, not the background to it: a sentence of how
something is meant to work yields to the one stating the problem, the change or its effect, and figures
the author measured before and after (in prose, tables or short labelled code blocks) are a key point.
Bodies of several shapes: the verl template, no template, Chinese, bullets only, empty, another repo."""

from __future__ import annotations

import re

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.lead import complete_clauses, introduced_statement

from .builders import changed, code, make_pr
from .claims import ungrounded

ANALYZER = HeuristicAnalyzer()
SOURCE = [
    changed(
        "pkg/algos/advantage.py",
        ["def grouped_advantage(scores, index):", "    return (scores - mean) / (std + eps)"],
    )
]


def _points(title: str, body: str, repo: str = "verl-project/verl", language: str = "en") -> list[str]:
    pr = make_pr(title, body, files=SOURCE, repo=repo)
    points = ANALYZER.analyze(pr, language).key_points
    assert not ungrounded(pr, points), points
    return list(points)


BACKGROUND_THEN_FINDING = [
    (
        "verl-project/verl",
        "[algo] fix: grouped advantage scaling",
        "### What does this PR do?\n\n`grouped_advantage()` is intended to match the reference implementation "
        "while avoiding Python loops. For groups of close scores, the grouped path could silently shrink the "
        "advantages by orders of magnitude.\n\n### Test\n\nUnit tests.",
        "For groups of close scores, the grouped path could silently shrink",
    ),
    (
        "acme/plain",
        "Fix device selection",
        "Currently, the device to run on depends on whether CUDA is visible to the driver process. "
        "However, the driver may be a CPU process that cannot see the GPUs of its workers.",
        "However, the driver may be a CPU process",
    ),
    (
        "acme/plain",
        "Fix the router",
        "The router is used to pick a server for each request. Picking reads a stale list after a server "
        "is removed, so requests fail with a connection error.",
        "Picking reads a stale list after a server is removed",
    ),
    (
        "huggingface/trl-like",
        "Grouped advantage fix",
        "Normally the grouped estimator computes the variance per group of completions. With a single "
        "completion per group the variance is NaN and training diverges.",
        "With a single completion per group the variance is NaN",
    ),
]


@pytest.mark.parametrize(("repo", "title", "body", "finding"), BACKGROUND_THEN_FINDING)
def test_a_sentence_of_how_things_are_meant_to_work_yields_to_the_finding(
    repo: str, title: str, body: str, finding: str
) -> None:
    points = _points(title, body, repo)
    assert points and points[0].startswith(finding), points


def test_a_chinese_background_sentence_yields_to_the_problem() -> None:
    body = "grouped_advantage 用于计算每组的优势值。当组内分数接近时，归一化后的优势值会被缩小几个数量级。"
    points = _points("修复分组优势缩放", body, "acme/plain", "zh")
    assert points and points[0].startswith("当组内分数接近时"), points


def test_a_background_paragraph_yields_to_what_the_pr_does_in_the_next() -> None:
    body = (
        "Currently, each worker computes the advantage of its own shard of groups.\n\n"
        "This PR computes the grouped advantage once on the driver and scatters it to the workers."
    )
    points = _points("Compute advantages on the driver", body, "acme/plain", "zh")
    assert points and points[0].startswith("Computes the grouped advantage once on the driver"), points
    assert not any(p.startswith("Currently") for p in points), points


@pytest.mark.parametrize(
    "body",
    [
        "Currently, the trainer fails to save a checkpoint when the step is zero, so the run cannot resume.",
        "Previously the loader was too slow to keep eight GPUs busy.",
        "目前 grouped_advantage 不支持长度为 1 的组。",
    ],
)
def test_a_current_state_that_is_the_problem_stays_first(body: str) -> None:
    points = _points("Fix grouped advantage", body, "acme/plain", "zh")
    assert points and points[0].startswith(body[:20]), points


def test_a_background_sentence_with_nothing_after_it_is_kept() -> None:
    body = "The grouped estimator is used to normalise the scores of each group of completions."
    points = _points("Document grouped estimator", body, "acme/plain")
    assert points and points[0].startswith("The grouped estimator is used to normalise"), points


@pytest.mark.parametrize(
    ("label", "lines", "expected"),
    [
        (
            "Before the fix:",
            [
                "reference:  [-0.6196,  0.6196, -0.6196,  0.6196]",
                "grouped:    [-0.0050,  0.0050, -0.0050,  0.0050]",
            ],
            "Before the fix: reference: [-0.6196, 0.6196, -0.6196, 0.6196]; grouped: [-0.0050, 0.0050",
        ),
        (
            "Peak memory was measured. After this PR:",
            ["peak memory  63.2 GB", "step time  7.9 s"],
            "After this PR: peak memory: 63.2 GB; step time: 7.9 s",
        ),
        ("修复前：", ["advantage: 0.0050"], "修复前: advantage: 0.0050"),
    ],
)
def test_figures_in_a_short_code_block_labelled_before_or_after_are_a_key_point(
    label: str, lines: list[str], expected: str
) -> None:
    block = "\n".join(["```text", *lines, "```"])
    body = f"Fix the scaling of grouped advantages for groups of close scores.\n\n{label}\n\n{block}\n"
    points = _points("[algo] fix: grouped advantage", body, language="zh")
    assert any(expected in p for p in points), points


@pytest.mark.parametrize(
    ("label", "block"),
    [
        ("Before:", "```python\nscores = torch.tensor(id2score[idx])  # 2 copies\n```"),
        (
            "Before the fix:",
            '```\nTraceback (most recent call last):\n  File "x.py", line 374\nAssertionError\n```',
        ),
        ("Run it with:", "```\nbatch_size 8\nlr 1e-6\n```"),
    ],
)
def test_code_logs_and_settings_after_a_label_are_no_measurement(label: str, block: str) -> None:
    body = f"Fix the scaling of grouped advantages for groups of close scores.\n\n{label}\n\n{block}\n"
    points = _points("[algo] fix: grouped advantage", body)
    assert not any(p.startswith("Measured") for p in points), points


def test_a_bullet_only_body_leads_with_its_first_change_and_an_empty_body_with_the_diff() -> None:
    bullets = (
        "- Compute the group variance with centred sums\n- Drop the variance floor inside the grouped std"
    )
    assert (
        _points("Fix grouped advantage", bullets, "acme/plain")[0]
        == "Compute the group variance with centred sums"
    )
    assert _points("Fix grouped advantage", "", "acme/plain") == ["New public definitions: grouped_advantage"]


# --- dependency pins are a PR's point only where it is about them ------------------------------------

SCRIPT_PINS = changed(
    "examples/npu/install_env.sh",
    ["pip install torch==2.7.1 torchvision==0.22.1", "pip install torch_npu==2.7.1.post2"],
)
CI_IMAGE = changed(
    ".github/workflows/e2e_rollout.yml",
    ["    image: acme/ci-image:cu126-vllm0.9"],
    ["    image: acme/ci-image:cu124-vllm0.8"],
)
RUN_SCRIPTS = [
    changed(
        "examples/npu/run_grpo_30b.sh",
        [f"python3 -m pkg.main trainer.step_{i}=1" for i in range(40)],
        status="added",
    ),
    changed("docs/npu/quick_start.md", [f"Step {i}: run the script." for i in range(30)]),
]


def _dependency_points(title: str, body: str, files: list, repo: str = "verl-project/verl") -> list[str]:
    pr = make_pr(title, body, files=files, repo=repo)
    points = [p for p in ANALYZER.analyze(pr, "en").key_points if p.startswith("Dependency/image changes")]
    zh = [p for p in ANALYZER.analyze(pr, "zh").key_points if p.startswith("依赖/镜像变化")]
    assert len(points) == len(zh)
    return points


@pytest.mark.parametrize(
    ("repo", "title", "body"),
    [
        ("verl-project/verl", "[sglang, doc] feat: add NPU GRPO training scripts for a 30B model", ""),
        (
            "verl-project/verl",
            "[doc] feat: NPU quick start",
            "### What does this PR do?\n\nAdd NPU training scripts.",
        ),
        ("huggingface/trl-like", "Add NPU training example", "Adds an example of GRPO training on NPUs."),
        ("acme/plain", "新增 NPU 训练脚本", "新增 30B 模型在 NPU 上的 GRPO 训练脚本和文档。"),
    ],
)
def test_pins_in_the_example_scripts_of_a_pr_about_something_else_are_no_key_point(
    repo: str, title: str, body: str
) -> None:
    assert _dependency_points(title, body, [SCRIPT_PINS, *RUN_SCRIPTS], repo) == []


def test_the_pins_are_still_a_risk_there() -> None:
    pr = make_pr("[doc] feat: NPU quick start", files=[SCRIPT_PINS, *RUN_SCRIPTS])
    assert any(r.category == "dependency" and "torch_npu" in r.text for r in ANALYZER.analyze(pr, "en").risks)


@pytest.mark.parametrize(
    "title",
    [
        "[ci] chore: bump torch to 2.7.1 in the NPU install script",
        "Upgrade torch_npu for the NPU example",
        "[doc] fix: pin torch 2.7.1 in the quick start",
        "升级 NPU 示例的依赖",
        "Use torch_npu 2.7.1 on NPU",
    ],
)
def test_pins_in_examples_are_the_point_of_a_pr_about_them(title: str) -> None:
    points = _dependency_points(title, "", [SCRIPT_PINS, *RUN_SCRIPTS])
    assert points and "torch_npu 2.7.1.post2" in points[0], points


def test_a_pr_that_is_a_pin_and_little_else_keeps_it() -> None:
    only = changed("examples/multiturn/run.sh", ["pip install 'huggingface-hub>=0.34.0'"], ["pip install hf"])
    points = _dependency_points("[sglang] fix: no command 'hf' found in the multi-turn example", "", [only])
    assert points and "huggingface-hub" in points[0], points


def test_a_ci_image_is_the_point_of_a_ci_pr_not_of_a_rollout_feature() -> None:
    feature = [CI_IMAGE, code("pkg/rollout/multi_turn.py", 60)]
    assert _dependency_points("[rollout] feat: async multi-turn rollout", "", feature) == []
    assert _dependency_points("[ci] feat: run the rollout e2e test on cu126", "", [CI_IMAGE, CI_IMAGE])
    assert _dependency_points("CI: move the rollout job to new machines", "", [CI_IMAGE])


def test_a_ci_image_comes_after_what_the_author_says() -> None:
    body = "This PR adds an async multi-turn rollout that overlaps tool calls with generation."
    pr = make_pr(
        "[rollout] feat: async multi-turn rollout",
        body,
        files=[CI_IMAGE, code("pkg/rollout/multi_turn.py", 60)],
    )
    points = ANALYZER.analyze(pr, "zh").key_points
    assert points[0].startswith("Adds an async multi-turn rollout")
    assert points[-1].startswith("依赖/镜像变化")


def test_shipped_pins_stay_a_point_of_any_pr() -> None:
    requirements = changed("requirements.txt", ["vllm==0.9.1"], ["vllm==0.8.5"])
    points = _dependency_points(
        "[rollout] feat: async multi-turn rollout", "", [requirements, code("pkg/rollout/x.py", 60)]
    )
    assert points and "vllm 0.8.5 → 0.9.1" in points[0], points


# --- a fact of the diff that names only what the title names adds nothing ----------------------------

CONFIG_KEY = changed("pkg/config/trainer.yaml", ["  enable_prefix_caching: true"])
NEW_FUNCTION = changed("pkg/engine/moe.py", ["def unfuse_moe_params(module):", "    return module"])


@pytest.mark.parametrize(
    ("title", "files", "repo"),
    [
        ("[rollout] chore: Add enable_prefix_caching into config", [CONFIG_KEY], "verl-project/verl"),
        ("Add `enable_prefix_caching` to the trainer config", [CONFIG_KEY], "acme/plain"),
        ("[fsdp] refactor: move unfuse_moe_params to the FSDP backend", [NEW_FUNCTION], "verl-project/verl"),
        ("Add unfuse_moe_params helper", [NEW_FUNCTION], "huggingface/trl-like"),
        ("新增 enable_prefix_caching 配置", [CONFIG_KEY], "acme/plain"),
    ],
)
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_diff_fact_that_names_only_the_titles_names_is_no_key_point(
    title: str, files: list, repo: str, language: str
) -> None:
    pr = make_pr(title, "", files=files, repo=repo)
    assert ANALYZER.analyze(pr, language).key_points == ()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_diff_fact_naming_more_than_the_title_stays(language: str) -> None:
    pr = make_pr("[rollout] feat: prefix caching", "", files=[CONFIG_KEY])
    points = ANALYZER.analyze(pr, language).key_points
    assert points and "enable_prefix_caching" in points[0], points


@pytest.mark.parametrize("language", ["en", "zh"])
def test_pins_in_the_example_scripts_are_no_reason_to_read_the_pr(language: str) -> None:
    scripts = [
        changed(
            f"examples/npu/run_grpo_{n}.sh", [f"python3 -m pkg.main trainer.step_{i}=1" for i in range(300)]
        )
        for n in range(6)
    ]
    pr = make_pr(
        "[sglang, doc] feat: add NPU GRPO training scripts", "", files=[SCRIPT_PINS, *scripts, *RUN_SCRIPTS]
    )
    analysis = ANALYZER.analyze(pr, language)
    assert analysis.verdict != "skim"
    assert not any(word in analysis.verdict_reason for word in ("dependency", "依赖")), (
        analysis.verdict_reason
    )


@pytest.mark.parametrize("mark", ["…", "..."])
@pytest.mark.parametrize(
    ("repo", "rest", "after"),
    [
        (
            "verl-project/verl",
            "ion when the val dataset is large",
            "### What does this PR do?\n\nThe grouped path could silently shrink the advantages of close scores.",
        ),
        (
            "acme/plain",
            "ge groups of close scores",
            "The grouped path could silently shrink the advantages of close scores.",
        ),
    ],
)
def test_the_rest_of_a_title_github_cut_is_no_lead(mark: str, repo: str, rest: str, after: str) -> None:
    points = _points("Fix grouped advantage scaling for lar…", f"{mark}{rest}\n\n{after}", repo)
    assert points and points[0].startswith("The grouped path could silently shrink"), points


RUN_ON_INTO_A_LINK = [
    (
        "[rollout] fix: the seed reused in sampling",
        "There is an optional config `rollout.seed` for the engines, which is used in\n\n"
        "[https://github.com/o/r/blob/abc/pkg/rollout.py#L10](https://github.com/o/r/blob/abc/pkg/rollout.py#L10)"
        "\n\nIt makes identical prompts get identical responses.",
        "There is an optional config rollout.seed for the engines",
    ),
    (
        "Retry downloads on network errors",
        "This PR retries the downloads that fail on network errors like\n\n```\nConnectionResetError\n```",
        "retries the downloads that fail on network errors",
    ),
    (
        "Add a transformation layer to the workers",
        "- Introduces a transformation layer within the actor and critic workers, see more here\n"
        "- Keeps the old path behind a flag",
        "Introduces a transformation layer within the actor and critic workers",
    ),
]


@pytest.mark.parametrize(("title", "body", "kept"), RUN_ON_INTO_A_LINK)
def test_a_lead_that_ran_on_into_a_removed_link_or_code_block_keeps_the_rest_of_its_sentence(
    title: str, body: str, kept: str
) -> None:
    pr = make_pr(title, body, files=SOURCE, repo="acme/rl")
    text = ANALYZER.analyze(pr, "en").texts["en"]
    said = [text.gist, *text.key_points]  # the lead is the gist or a key point
    assert any(kept.lower() in s.lower() for s in said), said
    assert not any(s.rstrip(" .").endswith((" in", " like", " here")) for s in said), said


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        (
            "There is a config X for the rollout engines, which is used in",
            "There is a config X for the rollout engines",
        ),
        ("Trying to fix network errors like", "Trying to fix network errors"),
        ("Bump the engine version from 0.8.2 to", "Bump the engine version from 0.8.2 to …"),
        ("具体的实现方式参考", "具体的实现方式参考 …"),
        ("Adds a test for cot and raw q&a", "Adds a test for cot and raw q&a"),
        ("Fixes the loss mask, which is used in.", "Fixes the loss mask, which is used in."),
        ("Fix the loss mask which is used in", "Fix the loss mask which is used in …"),
    ],
)
def test_a_clause_that_runs_on_into_removed_text_is_cut_or_marked(sentence: str, said: str) -> None:
    assert complete_clauses(sentence) == said


@pytest.mark.parametrize(
    "body",
    [
        "### Design & Code Changes\n\n**File changed:** `pkg/algos/advantage.py` (+12 lines)\n\n"
        "When every score of a group is equal, grouped_advantage crashes with:\n\n```\nZeroDivisionError\n```",
        "When every score of a group is equal, grouped_advantage crashes with:\n```\nZeroDivisionError\n```\n\n"
        "- Files changed: pkg/algos/advantage.py (+2/−1)",
        "修改文件：pkg/algos/advantage.py（+12 行）\n\nWhen every score of a group is equal, grouped_advantage "
        "crashes with:\n\n```\nZeroDivisionError\n```",
    ],
)
def test_a_pasted_file_statistic_yields_to_the_problem_the_author_shows(body: str) -> None:
    """A file statistic says less than the diff; the sentence that introduces the error log states the
    problem ("… grouped_advantage crashes"), without the word that wanted the log."""
    for language in ("en", "zh"):
        pr = make_pr("[algo] fix: equal scores", body, files=SOURCE, repo="acme/rl")
        text = ANALYZER.analyze(pr, language).texts[language]
        said = [text.gist, *text.key_points]
        assert not any(re.search(r"\+\d+", s) for s in said), said
        assert any(s.rstrip(" .").endswith("grouped_advantage crashes") for s in said), said


@pytest.mark.parametrize(
    "sentence",
    ["Here is the matrix:", "The current collate_fn processes values with:", "Bump vllm from 0.8.2 to:"],
)
def test_a_sentence_that_only_introduces_a_block_is_left_as_it_is(sentence: str) -> None:
    assert introduced_statement(sentence) == sentence
