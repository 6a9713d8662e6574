"""The neutral analysis types: validated on the way in, lossless through JSON."""

from __future__ import annotations

import json

import pytest

from chatbot.analysis.types import Analysis, LocalizedAnalysis, Risk, strip_verdict_label


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


def test_an_analysis_with_texts_in_both_languages_survives_a_json_round_trip() -> None:
    texts = {
        "zh": LocalizedAnalysis(
            "释放 KV cache", "涉及内存泄漏", ("释放缓存",), ("大范围改动",), ("压测",), ("从 x.py 读起",)
        ),
        "en": LocalizedAnalysis(
            "Frees the KV cache", "about a leak", ("Frees it",), ("large change",), (), ()
        ),
    }
    analysis = _analysis(texts=texts)
    restored = Analysis.from_dict(json.loads(json.dumps(analysis.to_dict(), ensure_ascii=False)))
    assert restored == analysis
    assert restored.localized("en") == texts["en"]


def test_an_analysis_stored_in_one_language_reads_in_any_without_its_verdict_label() -> None:
    stored = _analysis().to_dict()
    del stored["texts"]  # a row written before the texts existed
    analysis = Analysis.from_dict(stored)
    for language in ("zh", "en"):
        text = analysis.localized(language)
        assert text.verdict_reason == "涉及 内存泄漏"
        assert text.risks == ("large change",) and text.key_points == ("Frees the cache",)
        assert text.gist == "Frees the KV cache on sleep."


@pytest.mark.parametrize(
    ("reason", "bare"),
    [
        ("必读：必读：改动较大", "改动较大"),
        ("Worth reading: 值得一读：涉及 OOM", "涉及 OOM"),
        ("Skim: docs only", "docs only"),
        ("must read:large change", "large change"),
        ("改动较大：必读", "改动较大：必读"),
    ],
)
def test_a_verdict_label_in_front_of_a_reason_is_dropped(reason: str, bare: str) -> None:
    assert strip_verdict_label(reason) == bare


def test_texts_whose_risks_are_not_parallel_to_the_analysis_risks_are_refused() -> None:
    with pytest.raises(ValueError, match="risks"):
        _analysis(texts={"en": LocalizedAnalysis("gist", "why", risks=())})


def test_texts_in_an_unknown_language_are_refused() -> None:
    with pytest.raises(ValueError, match="language"):
        _analysis(texts={"fr": LocalizedAnalysis("gist", "why", risks=("r",))})


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
