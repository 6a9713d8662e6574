"""Warnings in the PR's own words become risks: the author's labelled notes ("注意：…", "Caveat: …"), a
hedge about what the change does to its users, and a reviewer's warning. The description of the bug a
PR fixes, a definition, or a design statement is no warning. Bodies of several shapes and languages."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.types import Analysis
from chatbot.models import Review

from .builders import code, make_pr

REPO = "acme/ferry"
FILES = [code("internal/dlq/store.go", 40)]


def analyze(body: str, language: str, title: str = "Persist the dead-letter queue", **kw: object) -> Analysis:
    pr = make_pr(title, body, files=FILES, repo=REPO, **kw)  # type: ignore[arg-type]
    return HeuristicAnalyzer().analyze(pr, language=language)  # type: ignore[arg-type]


WARNINGS = {
    "chinese note": (
        "死信队列现在持久化到 BoltDB。注意：升级前已在死信队列中的消息会丢失一次。",
        "升级前已在死信队列中的消息会丢失一次",
        "other",
    ),
    "english caveat": (
        "Queue entries now live on disk.\n\nCaveat: entries written by 1.x are lost on the first start.",
        "entries written by 1.x are lost",
        "other",
    ),
    "users hedge": (
        "Raise the frame limit to 4 MiB. Memory per connection may grow up to 4x for clients sending big frames.",
        "Memory per connection may grow up to 4x",
        "memory",
    ),
    "after the change": (
        "Configs are typed now. With this change unknown keys will be rejected at startup.",
        "unknown keys will be rejected at startup",
        "other",
    ),
    "bullets": (
        "- move the queue to disk\n- **Warning**: existing deployments will have to re-run the migration tool",
        "existing deployments will have to re-run the migration tool",
        "compatibility",
    ),
}


@pytest.mark.parametrize("case", sorted(WARNINGS))
def test_a_warning_in_the_authors_words_is_a_risk_in_them(case: str) -> None:
    body, said, category = WARNINGS[case]
    analysis = analyze(body, "zh")
    risks = [r for r in analysis.risks if said in r.text]
    assert len(risks) == 1 and risks[0].category == category and said in risks[0].evidence


def test_an_english_reader_of_a_chinese_warning_is_told_what_it_warns_of() -> None:
    body = WARNINGS["chinese note"][0]
    risk = next(r for r in analyze(body, "en").risks if "丢失" in r.evidence)
    assert "data loss" in risk.text and not any("\u4e00" <= ch <= "\u9fff" for ch in risk.text)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_reviewers_warning_is_a_risk_that_names_them(language: str) -> None:
    reviews = [
        Review("kenji", "COMMENTED", "This will surprise people on cross-region S3."),
        Review("maria", "APPROVED", ""),
        Review("alice", "CHANGES_REQUESTED", "Please reject tokens without exp."),  # a request, no warning
    ]
    analysis = analyze("Lower the default sink timeout to 10s.", language, reviews=reviews)
    quoted = [r for r in analysis.risks if "cross-region S3" in r.text]
    assert len(quoted) == 1 and "@kenji" in quoted[0].text
    assert not any("exp." in r.text for r in analysis.risks)


NOT_WARNINGS = {
    "the bug being fixed": "Setting sleep_level=1 will cause an OOM during wake-up. This PR frees the cache first.",
    "the bug, in Chinese": "之前重启会丢失死信队列中的消息，本 PR 把它持久化。",
    "how it was": "Every worker sent its full output back, which could lose data under load.",
    "a legend": "Note: Speed + means tiled is slower, Memory - means tiled uses less memory.",
    "a design statement": "Boundaries must be derived locally: blocking on the wire would deadlock.",
    "a hedge with no harm": "This will make the queue easier to inspect.",
    "a list intro": "This could crash in edge cases such as:",
}


@pytest.mark.parametrize("case", sorted(NOT_WARNINGS))
@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_description_of_the_problem_or_the_design_is_no_warning(case: str, language: str) -> None:
    body = NOT_WARNINGS[case]
    analysis = analyze(body, language)
    assert not any(r.evidence in body for r in analysis.risks if r.evidence)


def test_a_warning_in_the_test_plan_is_how_it_was_checked() -> None:
    body = "Persist the queue.\n\n## Test plan\n\nNote: the soak test may lose messages when killed with -9."
    assert not any("soak" in r.text for r in analyze(body, "en").risks)
