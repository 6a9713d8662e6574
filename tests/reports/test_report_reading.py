"""The report as a reader reads it: English sentences start with a capital (never a mangled identifier),
themes follow what a PR changes rather than a bare word, a breaking change known only from its title
says what breaks instead of quoting the title, follow-ups are of distinct kinds, the headline names its
risk without the evidence. Asserted on structure, on the trl-like week and on verl weeks (where present)."""

from __future__ import annotations

import re

import pytest

from chatbot.analysis.types import Analysis, LocalizedAnalysis, Risk
from chatbot.messages import say
from chatbot.reports.builder import AnalyzedPR, clean_title, sentence_start
from tests.analysis.builders import changed, code, make_pr
from tests.reports.test_builder import ANALYZER, compose, trl_like_week, weeks
from tests.reports.test_themes import concern

# A sentence opening with a lowercase word that is not an identifier.
LOWERCASE_START = re.compile(r"^[a-z]+(?![\w./`(-])")
UNIT_TEST = re.compile(r"\b(?:unit|regression) tests?\b|单元测试|回归测试")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("memory (vllm): 3 PRs", "Memory (vllm): 3 PRs"),
        ("the megatron module · #1: x", "The megatron module · #1: x"),
        ("ci.yml changed", "ci.yml changed"),
        ("foo_bar is new", "foo_bar is new"),
        ("`ci` rose", "`ci` rose"),
        ("run(x) fails", "run(x) fails"),
        ("#12: breaking", "#12: breaking"),
    ],
)
def test_an_english_sentence_opens_with_a_capital_unless_it_opens_with_an_identifier(
    text: str, expected: str
) -> None:
    assert sentence_start(text, "en") == expected
    assert sentence_start(text, "zh") == text


@pytest.mark.parametrize("records", weeks())
def test_every_english_highlight_follow_up_and_theme_heading_opens_with_a_capital(
    records: list[AnalyzedPR],
) -> None:
    report = compose(records, "en")
    modules = {m for r in records for m in r.analysis.modules}
    openings = [i.text for i in report.highlights] + list(report.follow_ups) + [t.name for t in report.themes]
    assert openings
    assert not [text for text in openings if LOWERCASE_START.match(text)]
    # A trend sentence never opens with a module: a module is an identifier, never capitalised.
    assert not [note for note in report.trend_notes if note.split(" ", 1)[0] in modules]


@pytest.mark.parametrize(
    ("title", "path"),
    [
        ("Add AGENTS.md with guidance for coding agents", "AGENTS.md"),
        ("docs: Claude Code instructions for contributors", "CLAUDE.md"),
        ("chore: add copilot instructions", ".github/copilot-instructions.md"),
        ("add agent instructions and skills for easier tests", ".agent/skills/pr.md"),
    ],
)
def test_instructions_for_coding_assistants_are_never_the_rollout_theme(title: str, path: str) -> None:
    assert concern(title, path) != "rollout"


@pytest.mark.parametrize(
    "title",
    ["feat: multi-turn agent loop with tool calling", "Fix tool call parsing in the agent loop"],
)
def test_an_agent_loop_change_is_still_rollout(title: str) -> None:
    assert concern(title, "pkg/rollout/agent_loop.py") == "rollout"


def _breaking_record(number: int, key_points: tuple[str, ...], *extra: Risk) -> AnalyzedPR:
    title = "[BREAKING][trainer] refactor: drop the legacy worker"
    pr = make_pr(title, files=[code("pkg/trainer/worker.py", 80)], number=number)
    base = ANALYZER.analyze(pr)
    risks = (
        Risk("breaking-change", "high", "breaking change: callers may need updating", f"title: {title}"),
        *extra,
    )
    texts = LocalizedAnalysis(
        gist=clean_title(title),
        verdict_reason="",
        key_points=key_points,
        risks=tuple(r.text for r in risks),
        follow_ups=(),
    )
    analysis = Analysis(
        **{
            **{f: getattr(base, f) for f in ("title_zh", "summary", "modules", "change_type", "verdict")},
            "breaking": True,
            "importance": 9.0,
            "insight": 5.0,
            "verdict_reason": "",
            "key_points": key_points,
            "risks": risks,
            "texts": {"zh": texts, "en": texts},
        }
    )
    return AnalyzedPR(pr, analysis)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_breaking_change_known_from_its_title_says_what_breaks_never_the_title(language: str) -> None:
    config = Risk(
        "config", "medium", "config defaults changed (workers 1 → 8)", "pkg/conf.yaml: workers: 1 → 8"
    )
    records = [
        _breaking_record(901, (), config),
        _breaking_record(902, ("Removes the legacy worker class and its flags.",)),
        _breaking_record(903, ("Adds a faster path.",)),
    ]
    report = compose(records, language)
    lines = {r.prs[0]: r.text for r in report.risks if r.category != "missing-tests"}
    title = clean_title(records[0].pr.title)
    for line in lines.values():
        assert "title:" not in line and title not in line
    assert "pkg/conf.yaml" in lines[901] and "workers 1 → 8" in lines[901]
    assert sum(1 for r in report.risks if r.prs == (901,)) == 1  # the config risk is not listed again
    assert "Removes the legacy worker" in lines[902]
    assert "Adds a faster path" not in lines[903]  # a key point that is not about what breaks


@pytest.mark.parametrize("records", weeks())
@pytest.mark.parametrize("language", ["zh", "en"])
def test_follow_ups_are_of_distinct_kinds(records: list[AnalyzedPR], language: str) -> None:
    report = compose(records, language)
    suggestions = [f.rsplit(":", 1)[-1].rsplit("：", 1)[-1].strip() for f in report.follow_ups]
    assert len(set(suggestions)) == len(suggestions)
    assert sum(1 for f in report.follow_ups if UNIT_TEST.search(f)) <= 1


@pytest.mark.parametrize("records", weeks())
def test_the_headline_names_its_risk_without_the_evidence(records: list[AnalyzedPR]) -> None:
    report = compose(records, "en")
    first = report.risks[0]
    evidence = re.search(r"\(([^()]*)\)$", first.text)
    if first.category != "missing-tests" and evidence:
        assert evidence.group(1) not in report.headline
    assert len(report.headline) < len(say("report.headline", "en", count=0, themes="", attention="")) + 400


def test_a_docs_pr_about_agents_stays_out_of_the_highlights_of_a_busy_week() -> None:
    docs = make_pr("Add AGENTS.md for coding agents", files=[changed("AGENTS.md", ["x"] * 30)], number=950)
    records = [*trl_like_week(), AnalyzedPR(docs, ANALYZER.analyze(docs))]
    report = compose(records, "en")
    assert not [item for item in report.highlights if 950 in item.prs]
