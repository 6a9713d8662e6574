"""A correctness fix in core code ranks above renames, docs, CI and version bumps however few its lines:
a fix whose title says results were wrong (off by one, silently, a wrong value) and a second sign agrees
(the title names what training computes, the description says results were wrong, or a test comes with
it). One word alone, or the same words in docs or examples, does not raise a PR."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.models import PRFile, PullRequest

from .builders import changed, make_pr

ANALYZER = HeuristicAnalyzer()


def one_line(path: str) -> PRFile:
    return changed(
        path, ["        mask = batch['loss_mask'][:, 1:]"], ["        mask = batch['loss_mask'][:, :-1]"]
    )


def go_line(path: str) -> PRFile:
    return changed(path, ["\tend := start + n"], ["\tend := start + n - 1"])


# (repo, title, body, changed file): verl-like tagged titles, plain titles, Chinese, a Go service.
WRONG_RESULTS = [
    (
        "verl-project/verl",
        "[trainer] fix: Correct off-by-one error in SFT loss mask slicing",
        "This PR fixes the SFT loss mask, which always masked the first generated token.",
        one_line("verl/trainer/fsdp_sft_trainer.py"),
    ),
    (
        "acme/trl-like",
        "Fix off-by-one in the completion mask",
        "",
        one_line("trl/trainer/sft_trainer.py"),
    ),
    (
        "acme/swift-like",
        "修复 SFT 损失掩码错位一个 token 的问题",
        "之前的掩码总是把第一个生成的 token 屏蔽掉，训练出的模型第一个 token 是错误的。",
        one_line("swift/trainers/sft.py"),
    ),
    (
        "acme/flowkit",
        "fix(window): rate window silently drops the last bucket",
        "The window end was computed with an off-by-one, so the limiter silently counted one bucket short "
        "and admitted more requests than configured.",
        go_line("internal/limiter/window.go"),
    ),
]


def analysed(repo: str, title: str, body: str, *files: PRFile, number: int = 1) -> PullRequest:
    return make_pr(title, body=body, files=files, repo=repo, number=number)


def rename_of(repo: str, path: str) -> PullRequest:
    """A breaking rename of 300 lines in the same repository: what a correctness fix must rank above."""
    return analysed(
        repo,
        "Rename args to training_args",
        "BREAKING CHANGE: `build(args=...)` is now `build(training_args=...)`.",
        changed(
            path,
            [
                "    def build(self, training_args):",
                *[f"        training_args_{i} = {i}" for i in range(150)],
            ],
            ["    def build(self, args):", *[f"        args_{i} = {i}" for i in range(150)]],
        ),
        number=2,
    )


@pytest.mark.parametrize(("repo", "title", "body", "file"), WRONG_RESULTS)
def test_a_one_line_fix_of_wrong_results_in_core_code_ranks_above_a_breaking_rename(
    repo: str, title: str, body: str, file: PRFile
) -> None:
    fix = ANALYZER.analyze(analysed(repo, title, body, file))
    rename = ANALYZER.analyze(rename_of(repo, file.filename))
    assert fix.verdict == "worth-reading", (title, fix.importance)
    assert fix.importance > rename.importance, (title, fix.importance, rename.importance)


@pytest.mark.parametrize(("repo", "title", "body", "file"), WRONG_RESULTS)
def test_the_same_fix_in_an_example_or_docs_stays_a_skim(
    repo: str, title: str, body: str, file: PRFile
) -> None:
    example = ANALYZER.analyze(analysed(repo, title, body, one_line("examples/sft/run.py")))
    docs = ANALYZER.analyze(
        analysed(repo, title, body, changed("docs/sft.md", ["`[:, 1:]`"], ["`[:, :-1]`"]))
    )
    assert example.verdict == "skim", (title, example.importance)
    assert docs.verdict == "skim", (title, docs.importance)


@pytest.mark.parametrize(
    "title",
    ["Fix wrong import path in the trainer", "fix: typo in a wrong error message", "修复错误的日志格式"],
)
def test_one_word_of_wrong_results_in_a_tiny_fix_raises_nothing(title: str) -> None:
    """A title's "wrong" alone, with no semantics, no description and no test, is a crash or cosmetic fix."""
    line = changed(
        "verl/trainer/main_ppo.py", ["from verl.utils import tracking"], ["from verl import tracking"]
    )
    plain = ANALYZER.analyze(analysed("verl-project/verl", "Fix an edge case in the trainer", "", line))
    worded = ANALYZER.analyze(analysed("verl-project/verl", title, "", line))
    assert worded.importance <= plain.importance + 0.1, (title, worded.importance, plain.importance)
    assert worded.verdict == "skim"


@pytest.mark.parametrize(
    ("title", "body"),
    [
        (
            "[reward] fix: disable signal.alarm() in math_verify to fix silent scoring failure in Ray workers",
            "signal.alarm() only works in the main thread, so the scorer raised ValueError in Ray workers; "
            "the exception was swallowed and every MATH score returned 0.",
        ),
        ("Fix scoring silently returning 0 in worker threads", ""),
        (
            "修复评分在子线程中静默返回 0 的问题",
            "signal.alarm 只能在主线程调用，子线程中异常被吞掉，所有分数都是 0。",
        ),
    ],
)
def test_a_silent_scoring_failure_outside_core_paths_is_a_correctness_fix(title: str, body: str) -> None:
    """A scorer in a helper module is what training optimises: a fix whose title says it failed silently
    ranks with the fixes that name wrong results, above the same diff titled as an edge case."""
    patch = changed(
        "verl/utils/reward_score/math_verify.py",
        [f"        extracted_{i} = parse(text_{i}, TARGETS, parsing_timeout=None)" for i in range(14)],
        [f"        verify_{i} = math_metric(targets_{i})" for i in range(10)],
    )
    plain = ANALYZER.analyze(
        analysed("verl-project/verl", "fix: handle an edge case in math_verify", "", patch)
    )
    fix = ANALYZER.analyze(analysed("verl-project/verl", title, body, patch))
    assert fix.importance >= plain.importance + 0.8, (title, fix.importance, plain.importance)
    assert fix.verdict == "worth-reading"
