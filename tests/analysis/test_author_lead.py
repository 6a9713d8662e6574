"""What the author wrote up front leads a PR's key points and gives its gist, over bodies of every shape
(verl's template, no template, Chinese sections, bullets only, empty); the diff's facts follow, one line
a kind; lists of a problem's symptoms, plans for later work and files of other PRs are no claims."""

from __future__ import annotations

import pytest

from chatbot.analysis import Analysis, HeuristicAnalyzer
from chatbot.models import PullRequest

from . import service_shapes as s
from .builders import changed, make_pr

ANALYZER = HeuristicAnalyzer()
CODE = changed(
    "pkg/engine/units.py",
    [
        "def summon_unit_params(module):",
        "    for unit in module.units():",
        "        with unit.summon():",
        "            yield unit",
    ],
)
STATEMENT = "Summon each unit separately so peak memory is bounded by the largest unit, not the whole model."


def analysed(pr: PullRequest) -> Analysis:
    return ANALYZER.analyze(pr)


BODIES = {
    "verl template": f"### What does this PR do?\n\n{STATEMENT}\n\n### Checklist Before Starting\n\n- [x] Search",
    "no template": f"{STATEMENT}\n\nTested on 8 GPUs.",
    "what heading": f"## What\n{STATEMENT}\n\n## Why\nThe whole model was gathered at once.",
    "bullets only": f"- {STATEMENT}\n- keep the old path behind `legacy=True`",
    "acting verb": "### What does this PR do?\n\nAdds a per-unit gather so peak memory is bounded by the largest unit.",
}


@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES.keys())
@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_authors_statement_is_the_first_key_point_and_the_diff_follows(body: str, language: str) -> None:
    analysis = analysed(make_pr("[fsdp] feat: per-unit summon", body, [CODE], repo="acme/engine"))
    points = analysis.localized(language).key_points
    assert "peak memory is bounded" in points[0], points
    assert any("summon_unit_params" in p for p in points[1:]), points


def test_the_gist_is_the_authors_sentence_when_it_says_what_the_pr_does() -> None:
    analysis = analysed(s.GO_STREAM)
    assert analysis.localized("en").gist.startswith("Stream large responses")
    assert analysis.localized("en").key_points[0].startswith("Stream large responses")


def test_a_chinese_list_of_changes_gives_the_gist_when_no_paragraph_says_what_the_pr_does() -> None:
    gist = analysed(s.GO_HEALTH).localized("zh").gist
    assert gist.startswith("新增 StartHealthChecks")


def test_an_empty_body_leaves_the_diffs_facts_one_line_a_kind() -> None:
    files = [
        changed(
            "cmd/serve.py", [f'    parser.add_argument("--{name}", type=int)' for name in ("a", "b", "c")]
        ),
        changed("pkg/api.py", ["def alpha(x):", "    return x", "def beta(y):", "    return y"]),
    ]
    points = analysed(make_pr("Add serve options", "", files, repo="acme/engine")).localized("en").key_points
    flags = [p for p in points if "--a" in p or "--b" in p or "--c" in p]
    assert len(flags) == 1 and all(f"--{n}" in flags[0] for n in "abc"), points
    assert len([p for p in points if "alpha" in p or "beta" in p]) == 1, points


SYMPTOMS = (
    "## Summary\nThis PR pads the completions on the right.\n\n"
    "## Problem\nWhen the prompts are left-padded, the batch goes wrong, leading to:\n"
    "- Biased gradient estimates\n- Training instability and collapse\n- Reduced sample efficiency\n"
)


def test_a_list_of_a_problems_symptoms_is_no_key_point() -> None:
    points = analysed(make_pr("Fix padding", SYMPTOMS, [CODE], repo="acme/engine")).localized("en").key_points
    assert not [p for p in points if "Biased" in p or "instability" in p or "Reduced" in p], points


def test_a_list_of_changes_after_an_introduction_is_kept() -> None:
    body = "This PR makes two changes:\n- Pad the completions on the right\n- Build the mask from the lengths"
    points = analysed(make_pr("Fix padding", body, [CODE], repo="acme/engine")).localized("en").key_points
    assert any("Pad the completions" in p for p in points), points


def test_a_changes_sections_paragraph_that_says_a_change_is_a_key_point() -> None:
    body = (
        "### What does this PR do?\n\nImplement the sandbox backend on FaaS.\n\n"
        "### Specific Changes\n\nAdded a code branch in summon_unit_params to choose the unit by its size."
    )
    points = analysed(make_pr("Implement sandbox backend on FaaS", body, [CODE])).localized("en").key_points
    assert any(p.startswith("Added a code branch") for p in points), points


@pytest.mark.parametrize("heading", ["Future changes", "Follow-up", "Next steps", "后续计划"])
def test_a_plan_for_later_work_is_no_claim_about_this_pr(heading: str) -> None:
    body = (
        f"## Summary\n{STATEMENT}\n\n## {heading}\nSwitch the exporters to the new writer in a later change."
    )
    analysis = analysed(make_pr("Per-unit summon", body, [CODE], repo="acme/engine"))
    for language in ("zh", "en"):
        t = analysis.localized(language)
        assert not [p for p in (t.gist, *t.key_points) if "exporters" in p], t.key_points


def test_files_a_body_names_for_another_pr_are_never_claimed() -> None:
    analysis = analysed(s.GO_STREAM)
    for language in ("zh", "en"):
        t = analysis.localized(language)
        assert not [p for p in (t.gist, *t.key_points, *t.risks) if "csv.go" in p or "xlsx.go" in p]
