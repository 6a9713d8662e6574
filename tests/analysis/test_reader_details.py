"""Details a reader acts on, by class: the reading guide starts at the function a change is about, not
at an entry point such as `main`; a huge PR's risk says how many files came without a patch; a revert
says what it undoes and why, not its title again; of modules of equal size the code or dependency file
leads; a speed-up of packing or attention is not a change of what training computes; a greeting or a
copy of the title opening the description is no key point."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.features import focus_function
from chatbot.analysis.heuristic import names_semantics
from chatbot.models import PRFile, PullRequest

from .builders import changed, code, diff, make_pr
from .shapes import FLOW_S3

ANALYZER = HeuristicAnalyzer()
LANGUAGES = ("zh", "en")


def test_a_change_centres_on_the_function_it_is_about_rather_than_main() -> None:
    patch = "\n".join(
        [
            diff([f"    parser.add_argument('--flag{i}')" for i in range(12)], context="def main():"),
            "@@ -40,3 +52,6 @@ def compute_advantage(rewards, mask):",
            *[f"+    adv_{i} = rewards[{i}] * mask" for i in range(5)],
        ]
    )
    assert focus_function(patch) == "compute_advantage"


def test_main_is_the_centre_when_nothing_else_changed() -> None:
    patch = diff(["    run(parse())"], context="def main():")
    assert focus_function("@@ -1,2 +1,3 @@ def main():\n" + patch.split("\n", 1)[1]) == "main"


@pytest.mark.parametrize("repo", ["acme/trl-like", "verl-project/verl"])
def test_a_reading_guide_skips_a_file_that_only_changes_main(repo: str) -> None:
    entry = PRFile(
        "acme/cli/main.py",
        "modified",
        60,
        0,
        "@@ -1,2 +1,62 @@ def main():\n" + "\n".join(["+    x = 1"] * 60),
    )
    loss = PRFile(
        "acme/trainer/loss.py",
        "modified",
        30,
        0,
        "@@ -5,2 +5,32 @@ def compute_loss(logits, labels):\n" + "\n".join(["+    y = 2"] * 30),
    )
    pr = make_pr("feat: token-level loss option", "Adds a token-level loss.", [entry, loss], repo=repo)
    a = ANALYZER.analyze(pr)
    guides = [a.localized(language).reading_guide for language in LANGUAGES]
    assert all(guide and "compute_loss" in guide[0] and "main" not in guide[0] for guide in guides)


def test_a_huge_pr_says_how_many_files_github_sent_no_patch_for() -> None:
    a = ANALYZER.analyze(FLOW_S3)
    for language in LANGUAGES:
        huge = [r for r in a.localized(language).risks if "110" in r and "112" in r]
        assert huge, a.localized(language).risks


def test_a_huge_pr_with_every_patch_says_nothing_of_missing_patches() -> None:
    files = [code(f"acme/ops/mod_{i}.py", 3) for i in range(120)]
    a = ANALYZER.analyze(make_pr("chore: touch every op", files=files, repo="acme/rl"))
    risks = [r for r in a.localized("en").risks if "120 files" in r]
    assert risks and "patch" not in risks[0]


def revert(body: str, repo: str = "acme/rl") -> PullRequest:
    return make_pr(
        'Revert "feat: remove workers from HttpServer"',
        body,
        [changed("acme/rollout/server.py", ["        self.workers = workers"], ["        pass"])],
        repo=repo,
    )


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (
            "Reverts acme/rl#5330\n\nThis PR introduces a breaking change that fails the fully-async CI.",
            "fails",
        ),
        ("Reverts #5330\n\ntorch-npu 2.7.1.post2 contains known bugs in the VLM model.", "bugs"),
        ("回滚 #5330\n\n该改动导致多机训练卡住。", "导致"),
    ],
)
def test_a_revert_says_what_it_undoes_and_why(body: str, reason: str) -> None:
    a = ANALYZER.analyze(revert(body))
    for language in ("zh",) if "回滚" in body else LANGUAGES:
        texts = a.localized(language)
        first = texts.key_points[0]
        assert "5330" in first and reason in first
        assert "remove workers from HttpServer" not in first  # the title says that already
        assert "introduces" not in texts.gist  # the body's "This PR…" is the undone PR


def test_a_revert_without_a_reason_names_what_it_undoes_once() -> None:
    a = ANALYZER.analyze(revert("Reverts acme/rl#5330"))
    points = a.localized("en").key_points
    assert points[0] == "Reverts #5330"


def test_of_modules_of_equal_size_the_dependency_file_leads_the_workflow() -> None:
    pr = make_pr(
        "Bump vllm",
        files=[
            changed(
                ".github/workflows/gpu.yml", ["      - run: pip install vllm==0.9.0"], ["      - run: x"]
            ),
            changed("requirements.txt", ["vllm==0.9.0"], ["vllm==0.8.5"]),
        ],
        repo="acme/rl",
    )
    assert ANALYZER.analyze(pr).modules[0] == "deps"


@pytest.mark.parametrize(
    "title",
    [
        "Faster sequence packing in the SFT dataset",
        "Speed up padding removal with a fused kernel",
        "Optimize weight sync between trainer and rollout",
        "加速打包数据的预处理",
    ],
)
def test_a_speed_up_of_packing_or_attention_is_no_change_of_semantics(title: str) -> None:
    assert not names_semantics("perf", title)


@pytest.mark.parametrize(
    ("change_type", "title"),
    [
        ("fix", "Fix packing that mixed sequences across samples"),
        ("perf", "Compute the loss in bf16 to save memory"),
        ("perf", "Faster sampling with a lower temperature floor"),
        ("feat", "Add attention sink support"),
    ],
)
def test_a_fix_of_packing_or_a_speed_up_of_the_loss_still_changes_semantics(
    change_type: str, title: str
) -> None:
    assert names_semantics(change_type, title)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("Hi folks! This PR adds trace logging to the rollout via a new backend.", "adds trace logging"),
        (
            "Hi there, when the batch is empty the runner divides by zero and crashes.",
            "When the batch is empty",
        ),
        (
            "Hello all! The runner now skips empty batches instead of dividing by zero.",
            "The runner now skips",
        ),
        ("大家好！本 PR 让 runner 跳过空 batch，避免除零。", "runner 跳过空 batch"),
    ],
)
def test_a_greeting_before_the_description_is_no_part_of_its_points(body: str, said: str) -> None:
    pr = make_pr("Empty batches in the runner", body, [code("acme/runner/loop.py", 20)], repo="acme/rl")
    a = ANALYZER.analyze(pr)
    texts = [a.localized("zh").gist, *a.localized("zh").key_points]
    assert any(said.lower() in t.lower() for t in texts)  # a quote of "This PR adds…" opens "Adds…"
    assert not any(t.lower().startswith(("hi", "hello", "大家好")) for t in texts)


@pytest.mark.parametrize(
    ("title", "body"),
    [
        (
            "Fix position ids for Qwen2.5-VL",
            "[bugfix] Fix position ids for Qwen2.5-VL\n\nIn `get_rope_index` the 3D position ids were"
            " computed from the text length only, so images shifted every later token.",
        ),
        (
            "fix(data): position ids for Qwen2.5-VL",
            "fix: position ids for Qwen2.5-VL\n\nIn `get_rope_index` the 3D position ids were computed"
            " from the text length only, so images shifted every later token.",
        ),
        (
            "修复 Qwen2.5-VL 的 position ids",
            "【修复】修复 Qwen2.5-VL 的 position ids\n\nget_rope_index 只按文本长度计算三维 position ids，图像之后的 token 全部错位。",
        ),
    ],
)
def test_a_description_opening_with_its_title_is_read_from_the_next_paragraph(title: str, body: str) -> None:
    files = [changed("acme/models/qwen2_vl.py", ["def get_rope_index(ids):", "    return ids"])]
    a = ANALYZER.analyze(make_pr(title, body, files, repo="acme/rl"))
    assert any("get_rope_index" in point for point in a.localized("zh").key_points)


def moved_out(*extra: PRFile) -> PullRequest:
    loop = changed(
        "acme/agent/tool_loop.py",
        ["from acme.agent.helpers import run_tools", *[f"    step_{i} = run_tools({i})" for i in range(12)]],
        ["class ToolParser:", "    pass", "class HermesToolParser(ToolParser):", "    pass"],
    )
    return make_pr(
        "Split the tool loop", "Moves the parsers out of the loop.", [loop, *extra], repo="acme/rl"
    )


def test_a_definition_the_pr_imports_again_was_moved_not_removed() -> None:
    imports = changed(
        "acme/agent/session.py", ["from acme.agent.parsers import ToolParser, HermesToolParser"]
    )
    a = ANALYZER.analyze(moved_out(imports))
    for language in LANGUAGES:
        assert not any("ToolParser" in r for r in a.localized(language).risks)


def test_definitions_removed_beside_a_file_without_its_patch_may_have_moved_there() -> None:
    a = ANALYZER.analyze(moved_out(PRFile("acme/agent/parsers.py", "modified", 106, 0, None)))
    for language in LANGUAGES:
        points = [p for p in a.localized(language).key_points if "ToolParser" in p]
        assert points and "acme/agent/parsers.py" in points[0]
    (removal,) = [r for r in a.risks if "ToolParser" in r.text]
    assert removal.severity == "low" and "acme/agent/parsers.py" in removal.text


def test_definitions_removed_with_every_patch_read_are_removed() -> None:
    a = ANALYZER.analyze(moved_out())
    (removal,) = [r for r in a.risks if "ToolParser" in r.text]
    assert removal.severity == "medium"


def test_a_reading_guide_never_cuts_the_path_it_points_at() -> None:
    config = "acme/experimental/fully_async_policy/config/fully_async_ppo_megatron_trainer_defaults.yaml"
    files = [
        changed(config, ["  partial_rollout: true"], ["  partial_rollout_resume_from_last_checkpoint: true"]),
        changed(
            "acme/trainer/async_trainer.py",
            ["def resume_partial_rollouts(self, state):", *[f"    x_{i} = step({i})" for i in range(150)]],
        ),
    ]
    pr = make_pr("feat: resume partial rollouts", "Adds resuming of partial rollouts.", files, repo="acme/rl")
    a = ANALYZER.analyze(pr)
    guides = [g for language in LANGUAGES for g in a.localized(language).reading_guide if "config/" in g]
    assert guides and all(config in g for g in guides)
