"""The neutral analysis types: validated on the way in, lossless through JSON."""

from __future__ import annotations

import json

import pytest

from chatbot.analysis.types import Analysis, Risk


def _analysis(**overrides: object) -> Analysis:
    fields: dict[str, object] = {
        "title_zh": "[rollout] fix: 修复显存泄漏",
        "summary": "Frees the KV cache on sleep.",
        "modules": ("rollout",),
        "change_type": "fix",
        "breaking": False,
        "importance": 6.25,
        "insight": 3.0,
        "verdict": "worth-reading",
        "verdict_reason": "值得一读：涉及 内存泄漏",
        "key_points": ("Frees the cache",),
        "risks": (Risk("memory", "medium", "large change", "verl/workers/rollout/x.py"),),
        "tests": True,
        "follow_ups": ("Stress-test",),
        "review_highlights": ("@bob: please add a test",),
        "analyzer": "heuristic",
        "analyzer_version": "1.0",
    }
    fields.update(overrides)
    return Analysis(**fields)  # type: ignore[arg-type]


def test_an_analysis_survives_a_json_round_trip() -> None:
    analysis = _analysis()
    restored = Analysis.from_dict(json.loads(json.dumps(analysis.to_dict(), ensure_ascii=False)))
    assert restored == analysis


def test_scores_are_stored_with_one_decimal() -> None:
    assert _analysis(importance=6.25).importance == 6.2
    assert _analysis(insight=7.06).insight == 7.1


@pytest.mark.parametrize(
    "overrides",
    [
        {"importance": 10.5},
        {"insight": -0.1},
        {"verdict": "read-it"},
        {"change_type": "feature"},
    ],
)
def test_out_of_range_or_unknown_values_are_refused(overrides: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        _analysis(**overrides)


def test_a_risk_with_an_unknown_category_or_severity_is_refused() -> None:
    with pytest.raises(ValueError, match="risk category"):
        Risk("vibes", "high", "text")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="severity"):
        Risk.from_dict({"category": "memory", "severity": "critical", "text": "t"})


def test_analyses_are_immutable() -> None:
    with pytest.raises(AttributeError):
        _analysis().importance = 1.0  # type: ignore[misc]
