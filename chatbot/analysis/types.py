"""Neutral analysis types (DESIGN §6): what the index stores about one PR, whichever analyzer wrote it.

Kept self-contained (standard library only) so they can move into `chatbot/models.py` unchanged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast, get_args

ChangeType = Literal["feat", "fix", "refactor", "perf", "test", "doc", "chore"]
Verdict = Literal["must-read", "worth-reading", "skim"]
RiskCategory = Literal[
    "missing-tests",
    "dependency",
    "breaking-change",
    "memory",
    "concurrency",
    "config",
    "performance",
    "security",
    "compatibility",
    "other",
]
Severity = Literal["high", "medium", "low"]

CHANGE_TYPES: tuple[ChangeType, ...] = get_args(ChangeType)
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
RISK_CATEGORIES: tuple[RiskCategory, ...] = get_args(RiskCategory)
SEVERITIES: tuple[Severity, ...] = get_args(Severity)


def _choice(value: Any, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}; expected one of {', '.join(allowed)}")
    return str(value)


def _score(value: Any, what: str) -> float:
    score = float(value)
    if not 0.0 <= score <= 10.0:
        raise ValueError(f"{what} must be within 0..10, got {score}")
    return round(score, 1)


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(item) for item in value or ())


@dataclass(frozen=True, slots=True)
class Risk:
    """One risk observation: its category, severity, a sentence, and the file or line that shows it."""

    category: RiskCategory
    severity: Severity
    text: str
    evidence: str = ""

    def __post_init__(self) -> None:
        _choice(self.category, RISK_CATEGORIES, "risk category")
        _choice(self.severity, SEVERITIES, "severity")

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "severity": self.severity,
            "text": self.text,
            "evidence": self.evidence,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Risk:
        return cls(
            category=cast(RiskCategory, _choice(data["category"], RISK_CATEGORIES, "risk category")),
            severity=cast(Severity, _choice(data["severity"], SEVERITIES, "severity")),
            text=str(data.get("text", "")),
            evidence=str(data.get("evidence", "")),
        )


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of one PR. Scores are 0–10 with one decimal; `analyzer`/`analyzer_version` say who
    wrote it, so a stored analysis from an older version can be recognised and recomputed."""

    title_zh: str
    summary: str
    modules: tuple[str, ...]
    change_type: ChangeType
    breaking: bool
    importance: float
    insight: float
    verdict: Verdict
    verdict_reason: str
    key_points: tuple[str, ...] = ()
    risks: tuple[Risk, ...] = ()
    tests: bool = False
    follow_ups: tuple[str, ...] = ()
    review_highlights: tuple[str, ...] = ()
    analyzer: str = "heuristic"
    analyzer_version: str = ""

    def __post_init__(self) -> None:
        _choice(self.change_type, CHANGE_TYPES, "change type")
        _choice(self.verdict, VERDICTS, "verdict")
        # Scores are normalised here so every analyzer stores the same shape (an LLM may say 7.25).
        object.__setattr__(self, "importance", _score(self.importance, "importance"))
        object.__setattr__(self, "insight", _score(self.insight, "insight"))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; `from_dict(to_dict(a)) == a`."""
        return {
            "title_zh": self.title_zh,
            "summary": self.summary,
            "modules": list(self.modules),
            "change_type": self.change_type,
            "breaking": self.breaking,
            "importance": self.importance,
            "insight": self.insight,
            "verdict": self.verdict,
            "verdict_reason": self.verdict_reason,
            "key_points": list(self.key_points),
            "risks": [risk.to_dict() for risk in self.risks],
            "tests": self.tests,
            "follow_ups": list(self.follow_ups),
            "review_highlights": list(self.review_highlights),
            "analyzer": self.analyzer,
            "analyzer_version": self.analyzer_version,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Analysis:
        """The inverse of `to_dict`. Raises ValueError (or KeyError) on a malformed record."""
        return cls(
            title_zh=str(data.get("title_zh", "")),
            summary=str(data.get("summary", "")),
            modules=_strings(data.get("modules")),
            change_type=cast(ChangeType, _choice(data["change_type"], CHANGE_TYPES, "change type")),
            breaking=bool(data.get("breaking", False)),
            importance=_score(data["importance"], "importance"),
            insight=_score(data["insight"], "insight"),
            verdict=cast(Verdict, _choice(data["verdict"], VERDICTS, "verdict")),
            verdict_reason=str(data.get("verdict_reason", "")),
            key_points=_strings(data.get("key_points")),
            risks=tuple(Risk.from_dict(item) for item in data.get("risks") or ()),
            tests=bool(data.get("tests", False)),
            follow_ups=_strings(data.get("follow_ups")),
            review_highlights=_strings(data.get("review_highlights")),
            analyzer=str(data.get("analyzer", "heuristic")),
            analyzer_version=str(data.get("analyzer_version", "")),
        )
