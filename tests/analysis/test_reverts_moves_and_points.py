"""What an analysis says about reverts, moved definitions and keys, removed public definitions, and
which lines of a description are key points: by class, on titles with and without `[module]` tags,
conventional commits, Chinese titles and bodies, and bodies without a template."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.types import Analysis
from chatbot.models import PRFile, PullRequest

from .builders import changed, code, make_pr

ANALYZER = HeuristicAnalyzer()

# The code a change added: two public functions and a config key, then taken out again by its revert.
RESUME = changed(
    "verl/workers/rollout/agent_loop.py",
    ["    return generate(prompt)"],
    [
        "def resume_on_abort(request):",
        "    return generate(request, resume=True)",
        "class ResumeWrapper:",
        "    pass",
        *[f"    step_{i} = retry({i})" for i in range(40)],
    ],
)
SWIFT_TEMPLATE = changed(
    "swift/llm/template/base.py",
    ["    return TEMPLATES[name](tokenizer)"],
    [
        "def get_template_v1(name, tokenizer):",
        "    return LEGACY[name](tokenizer)",
        "def _legacy_lookup(name):",
        "    return LEGACY[name]",
    ],
)


def analyze(pr: PullRequest, language: str = "en") -> Analysis:
    return ANALYZER.analyze(pr, language)  # type: ignore[arg-type]


def categories(analysis: Analysis) -> set[str]:
    return {r.category for r in analysis.risks}


# --- reverts ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "body", "number"),
    [
        ('Revert "[rollout] feat: automatically resume generation on abort"', "", None),
        (
            "revert: feat(rollout): automatically resume generation on abort",
            "Reverts #5071; it broke DPO.",
            5071,
        ),
        ("回滚 #5071", "多卡上恢复生成报错，先回退。", 5071),
        ("[rollout] fix: revert resume on abort", "This reverts o/r#5071 because it hangs on 8 GPUs.", 5071),
    ],
)
def test_a_revert_is_typed_revert_and_names_what_it_undoes_without_removal_risks(
    title: str, body: str, number: int | None
) -> None:
    for language in ("zh", "en"):
        analysis = analyze(make_pr(title, body, files=[RESUME]), language)
        assert analysis.change_type == "revert"
        # What it takes out is the undone change's code: neither a removal of public API nor untested code.
        assert not categories(analysis) & {"compatibility", "missing-tests"}
        assert not any(
            p.startswith(("Public definitions removed", "删除公共接口")) for p in analysis.key_points
        )
        if number is not None and title != "回滚 #5071":
            assert any(f"#{number}" in p for p in analysis.key_points)


def test_a_revert_belongs_to_the_modules_of_the_change_it_quotes() -> None:
    analysis = analyze(
        make_pr('Revert "[rollout] feat: automatically resume generation"', files=[code("a/b.py", 30)])
    )
    assert analysis.modules == ("rollout",)


def test_a_revert_names_the_pr_it_undoes_only_where_the_title_does_not() -> None:
    quoted = 'Revert "[rollout] feat: automatically resume generation (#5071)"'
    bare = make_pr('Revert "[rollout] feat: automatically resume generation"', files=[code("a/b.py", 30)])
    assert not any(p.startswith("Reverts") for p in analyze(bare).key_points)  # the title says it all
    assert not any(p.startswith("Reverts") for p in analyze(make_pr(quoted, files=[RESUME])).key_points)
    told = make_pr(quoted, body="This reverts #5080, the re-land of #5071.", files=[RESUME])
    assert analyze(told).key_points[0].startswith("Reverts #5080")


# --- moved and removed definitions ---------------------------------------------------------------------


def test_a_definition_moved_to_another_file_is_moved_not_removed() -> None:
    for target in ("verl/utils/reward/math.py", "recipe/entropy/reward/math.py"):  # library, then a recipe
        pr = make_pr(
            "Move the math reward next to its users",
            files=[
                changed(
                    "verl/utils/reward_score/math.py", [], ["def normalize_answer(text):", "    return text"]
                ),
                changed(target, ["def normalize_answer(text):", "    return text"], status="added"),
            ],
        )
        analysis = analyze(pr)
        assert "compatibility" not in categories(analysis)
        assert any(p.startswith("Moved: normalize_answer") and target in p for p in analysis.key_points)
        assert not any("removed" in p.lower() for p in analysis.key_points)


@pytest.mark.parametrize(
    ("title", "body"),
    [
        ("Remove the old template helper", ""),  # no [module] tag, no template
        ("重构 template 模块", "删除旧接口。"),  # Chinese title and body
        ("refactor(template): drop v1 helpers", "Cleans up the template registry."),
    ],
)
def test_a_deleted_public_function_of_a_library_module_is_a_possible_break_with_its_evidence(
    title: str, body: str
) -> None:
    analysis = analyze(make_pr(title, body, repo="modelscope/ms-swift", files=[SWIFT_TEMPLATE]))
    removal = [r for r in analysis.risks if r.category == "compatibility"]
    assert removal and removal[0].evidence == "swift/llm/template/base.py: get_template_v1"
    assert "_legacy_lookup" not in removal[0].text  # a private helper is nobody's API


def test_an_authors_chinese_breaking_note_makes_the_change_breaking() -> None:
    body = "破坏性变更：`get_template_v1` 被删除，请改用 `get_template`。"
    analysis = analyze(
        make_pr("重构 template 模块", body, repo="modelscope/ms-swift", files=[SWIFT_TEMPLATE]), "zh"
    )
    assert analysis.breaking
    assert "breaking-change" in categories(analysis)


def test_config_keys_moved_to_another_file_are_moved_not_removed() -> None:
    pr = make_pr(
        "[cfg] refactor: split the data config out",
        files=[
            changed(
                "verl/trainer/config/ppo_trainer.yaml",
                ["data: ${data}"],
                ["data:", "  max_prompt_length: 512", "  filter_overlong_prompts: False"],
            ),
            changed(
                "verl/trainer/config/data/data.yaml",
                ["max_prompt_length: 512", "filter_overlong_prompts: False"],
                status="added",
            ),
        ],
    )
    analysis = analyze(pr)
    assert not any(r.category == "compatibility" for r in analysis.risks)
    moved = [p for p in analysis.key_points if p.startswith("Config keys moved")]
    assert moved and "data.max_prompt_length" in moved[0] and "data/data.yaml" in moved[0]


# --- key points --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "Fix the resume path.\n\n- See https://github.com/o/r/issues/12 for details.\n- cc @alice @bob\n"
        "- Thanks @bob for the help!\n- https://github.com/o/r/pull/11\n- Waiting for testing from @carol",
        "修复恢复生成的路径。\n\n- 相关 issue：#12，请 @alice 帮忙看一下\n- 详见 https://example.com/doc\n"
        "- ![显存曲线](https://img.example.com/a.png)\n- [x] 已添加单元测试并在本地通过",
        "This resolves issue https://github.com/o/r/issues/12.\n\nRelated to this issue #12",
    ],
)
def test_links_mentions_checklists_and_images_are_never_key_points(body: str) -> None:
    for language in ("zh", "en"):
        analysis = analyze(make_pr("Fix resume on abort", body, files=[code("pkg/resume.py", 12)]), language)
        for point in analysis.key_points:
            assert "@" not in point and "http" not in point and "#12" not in point and "[x]" not in point


def test_a_default_changed_in_a_dataclass_and_its_mirrored_yaml_is_one_point() -> None:
    pr = make_pr(
        "[algo] refactor: make the veto opt-in",
        files=[
            changed(
                "verl/trainer/config/algorithm.py",
                ["    rollout_is_veto_threshold: Optional[float] = None"],
                ["    rollout_is_veto_threshold: Optional[float] = 1e-4"],
            ),
            changed(
                "verl/trainer/config/ppo_trainer.yaml",
                ["  rollout_is_veto_threshold: null"],
                ["  rollout_is_veto_threshold: 1e-4"],
            ),
        ],
    )
    for language in ("zh", "en"):
        analysis = analyze(pr, language)
        defaults = [p for p in analysis.key_points if "rollout_is_veto_threshold" in p]
        assert len(defaults) == 1
        config = [r for r in analysis.risks if r.category == "config"]
        assert config and config[0].text.count("rollout_is_veto_threshold") == 1


def test_an_authors_note_and_its_quote_are_one_key_point() -> None:
    body = "BREAKING CHANGE: configs using `sharegpt:chat` must move to `chat_template`."
    analysis = analyze(
        make_pr("refactor!: drop legacy dataset strings", body, files=[code("src/pkg/data.py", 20)])
    )
    assert len([p for p in analysis.key_points if "sharegpt" in p]) == 1


@pytest.mark.parametrize(
    ("removed", "added"),
    [
        # a rename GitHub did not pair: test_module.py → _test_module.py
        ([("tests/utils/test_module.py", 31)], [("tests/utils/_test_module.py", 31)]),
        # three per-engine tests merged into two correctness tests
        (
            [
                ("tests/ckpt/test_nccl.py", 112),
                ("tests/ckpt/test_hccl.py", 114),
                ("tests/ckpt/test_nixl.py", 123),
            ],
            [("tests/ckpt/test_correctness_on_gpu.py", 139), ("tests/ckpt/test_correctness_on_npu.py", 220)],
        ),
        # a script renamed in an e2e folder
        ([("tests/e2e/run_sft_gsm8k.sh", 114)], [("tests/e2e/run_sft.sh", 115)]),
    ],
)
def test_tests_moved_or_rewritten_in_the_same_pr_are_not_tests_removed(
    removed: list[tuple[str, int]], added: list[tuple[str, int]]
) -> None:
    files = [code("pkg/trainer/core.py", 80)]
    files += [PRFile(path, "removed", 0, n, "@@ -1 +0,0 @@\n-def test_a(): pass") for path, n in removed]
    files += [PRFile(path, "added", n, 0, "@@ -0,0 +1 @@\n+def test_a(): pass") for path, n in added]
    analysis = HeuristicAnalyzer(language="en").analyze(make_pr("Rework the checkpoint engine", files=files))
    assert analysis.tests
    assert not [r for r in analysis.risks if r.text.startswith("tests removed")], analysis.risks


def test_tests_taken_away_without_as_many_brought_back_are_a_risk() -> None:
    files = [
        code("pkg/trainer/core.py", 80),
        PRFile("tests/test_tool_calling.py", "removed", 0, 278, "@@ -1 +0,0 @@\n-def test_a(): pass"),
        PRFile("tests/test_scheduler.py", "added", 40, 0, "@@ -0,0 +1 @@\n+def test_a(): pass"),
    ]
    analysis = HeuristicAnalyzer(language="en").analyze(make_pr("Replace the tool scheduler", files=files))
    assert [r.evidence for r in analysis.risks if r.text.startswith("tests removed")] == [
        "tests/test_tool_calling.py"
    ]
