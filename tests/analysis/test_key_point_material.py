"""Key points come from the right material: what the author wrote (even inside the template's quoted
prompt), never tidying bullets (formatting, lint, typos), never a sentence whose subject is another PR
when the next one says what this PR does, and never a filler naming the function the change centres on."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.models import PRFile, PullRequest

from .builders import changed, make_pr
from .claims import ungrounded

ANALYZER = HeuristicAnalyzer()

SHAPE_FIX = changed(
    "verl/experimental/agent_loop/agent_loop.py",
    ["        position_ids = torch.cat([text_ids, vision_ids], dim=0)", "        return position_ids"],
    ["        return vision_ids"],
)
# A hunk inside a function the hunk header names: the function the change centres on.
IN_FUNCTION = PRFile(
    filename="verl/experimental/agent_loop/agent_loop.py",
    status="modified",
    additions=2,
    deletions=1,
    patch="\n".join(
        [
            "@@ -40,3 +40,4 @@ class AgentLoopWorker:",
            "     def _postprocess(self, batch):",
            "-        return vision_ids",
            "+        position_ids = torch.cat([text_ids, vision_ids], dim=0)",
            "+        return position_ids",
        ]
    ),
)
QUOTED_TEMPLATE = """### What does this PR do?

> Fix the position_ids shape mismatch: `process_position_ids` expects a shape of
`(4, batch_size, seq_length)` but the agent loop returns `(3, batch_size, seq_length)`, ignoring the
text dimension.

### Test

> For changes that can not be tested by CI (e.g., algorithm implementation, new model support), validate by experiment(s) and show results like training curve plots, evaluation results, etc.
"""
REFERENCE_LED = """https://github.com/acme/rl/pull/4280 refactored the rollout and broke the async trainer. This PR adds
a manager that coordinates weight synchronisation between the trainer and the rollout replicas.
"""
REFERENCE_LED_ZH = """#4280 重构了 rollout，导致异步训练无法使用。本 PR 新增一个管理器，协调训练端与推理副本之间的权重同步。
"""
MANAGER = changed(
    "verl/checkpoint_engine/base.py",
    [
        "class WeightSyncManager:",
        "    def sync(self, replicas):",
        "        return [r.pull() for r in replicas]",
    ],
)
TIDY_BULLETS = """- Add support for LoRA adapters in the FSDP2 sharding manager
- Format: automatic code formatting changes initiated by the pre-commit tool
- Fix typos in the docstrings
- Merge main
"""
TIDY_BULLETS_ZH = """- 为 FSDP2 分片管理器增加 LoRA 适配器支持
- 格式化代码
- 修复拼写错误
"""
LORA = changed(
    "verl/workers/sharding_manager/fsdp_lora.py",
    ["def collect_lora_params(module):", "    return {k: v for k, v in module.state_dict().items()}"],
)


def test_the_authors_words_inside_the_templates_quoted_prompt_are_the_lead() -> None:
    case = make_pr("[rollout] fix: qwen2_vl position_ids shape mismatch", QUOTED_TEMPLATE, [SHAPE_FIX])
    analysis = ANALYZER.analyze(case)
    said = " ".join([analysis.localized("en").gist, *analysis.localized("en").key_points])
    assert "process_position_ids" in said
    assert "For changes that can not be tested" not in said


@pytest.mark.parametrize("body", [REFERENCE_LED, REFERENCE_LED_ZH], ids=["english", "chinese"])
def test_a_sentence_about_another_pr_gives_way_to_the_one_saying_what_this_pr_does(body: str) -> None:
    case = make_pr("Add a weight sync manager", body, [MANAGER])
    for language in ("zh", "en"):
        texts = ANALYZER.analyze(case).localized(language)
        said = [texts.gist, *texts.key_points]
        assert not any(s.lstrip().startswith(("https://", "#4280")) for s in said), said


def test_a_reference_led_sentence_stays_when_nothing_after_it_says_what_the_pr_does() -> None:
    body = "#4280 made the vllm engine arguments fail to initialise, and its CI did not catch it.\n"
    case = make_pr("fix engine args", body, [MANAGER])
    texts = ANALYZER.analyze(case).localized("en")
    assert any("engine arguments fail" in s for s in [texts.gist, *texts.key_points])


@pytest.mark.parametrize("body", [TIDY_BULLETS, TIDY_BULLETS_ZH], ids=["english", "chinese"])
def test_tidying_bullets_are_no_key_points(body: str) -> None:
    case = make_pr("lora for fsdp2", body, [LORA])
    for language in ("zh", "en"):
        points = " ".join(ANALYZER.analyze(case).localized(language).key_points).lower()
        for tidy in ("pre-commit", "typo", "merge main", "格式化", "拼写"):
            assert tidy not in points, points


@pytest.mark.parametrize(
    "case",
    [
        make_pr("[rollout] fix: partial loading logic", "Fix partial loading logic.", [IN_FUNCTION]),
        make_pr("fix partial loading", "", [IN_FUNCTION], repo="huggingface/trl"),
        make_pr("修复部分加载逻辑", "修复部分加载逻辑。", [IN_FUNCTION]),
    ],
    ids=["template title", "trl, empty body", "chinese"],
)
def test_a_pr_with_nothing_to_say_beyond_its_title_gets_no_filler_point(case: PullRequest) -> None:
    for language in ("zh", "en"):
        points = ANALYZER.analyze(case).localized(language).key_points
        assert not any("centres on" in p or "改动集中在" in p for p in points), points
        assert not ungrounded(case, points)
