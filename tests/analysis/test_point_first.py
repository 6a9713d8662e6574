"""The first key point says what the PR does or found, not the background to it: a sentence of how
something is meant to work yields to the one stating the problem, the change or its effect, and figures
the author measured before and after (in prose, tables or short labelled code blocks) are a key point.
Bodies of several shapes: the verl template, no template, Chinese, bullets only, empty, another repo."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer

from .builders import changed, make_pr
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
