"""Where a reading guide starts: the public definition with the most added or changed lines, in a core
file first; never a definition the PR deletes, never a helper of a line or two that opens a new file,
never a bare dunder without its class."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.models import PRFile, PullRequest

from .builders import make_pr
from .claims import ungrounded

ANALYZER = HeuristicAnalyzer()
BREAKING = "[BREAKING][trainer] feat: "


def patch_file(path: str, lines: list[str], status: str = "modified") -> PRFile:
    added = sum(1 for ln in lines if ln.startswith("+"))
    removed = sum(1 for ln in lines if ln.startswith("-"))
    return PRFile(path, status, added, removed, "\n".join(lines))


def starts(pr: PullRequest) -> dict[str, str]:
    analysis = ANALYZER.analyze(pr)
    assert analysis.verdict != "skim", analysis.verdict
    return {lang: analysis.localized(lang).reading_guide[0] for lang in ("zh", "en")}


# A new kernel file: a one-line helper first, the function doing the work after it.
KERNEL = patch_file(
    "verl/trainer/ppo/fp8_kernel.py",
    [
        "@@ -0,0 +1,40 @@",
        "+def ceil_div(a, b):",
        "+    return (a + b - 1) // b",
        "+",
        "+def quantize_blockwise(weight, block):",
        *[f"+    part_{i} = weight[{i}] * block" for i in range(30)],
        "+    return part_0",
    ],
    status="added",
)
# A class deleted in one file, its replacement grown in another.
GATHER = patch_file(
    "verl/workers/sharding_manager/megatron_vllm.py",
    [
        "@@ -10,30 +10,2 @@ import torch",
        "-class AllGatherPPModel:",
        *[f"-    layer_{i} = gather({i})" for i in range(30)],
    ],
)
ENTER = patch_file(
    "verl/workers/sharding_manager/megatron_sglang.py",
    [
        "@@ -40,4 +40,20 @@ class MegatronSGLangShardingManager(BaseShardingManager):",
        "     def __enter__(self):",
        *[f"+        step_{i} = self.sync({i})" for i in range(16)],
    ],
)


@pytest.mark.parametrize(
    ("case", "expected", "never"),
    [
        (
            make_pr(BREAKING + "fp8 rollout", "Adds blockwise FP8 quantisation.", [KERNEL]),
            "quantize_blockwise",
            "ceil_div",
        ),
        (
            make_pr(BREAKING + "drop pp gather", "", [GATHER, ENTER]),
            "MegatronSGLangShardingManager.__enter__",
            "AllGatherPPModel",
        ),
        (
            make_pr("Quantise weights in fp8 blocks", "", [KERNEL], repo="acme/trl-like", additions=900),
            "quantize_blockwise",
            "ceil_div",
        ),
    ],
    ids=["new file with a helper first", "deleted class", "trl-like repo"],
)
def test_the_guide_starts_at_the_largest_kept_public_definition(
    case: PullRequest, expected: str, never: str
) -> None:
    for language, start in starts(case).items():
        assert expected in start and never not in start, (language, start)
    assert not ungrounded(case, ANALYZER.analyze(case).localized("en").reading_guide)
