"""Neutral analysis types (DESIGN §6): what the index stores about one PR, whichever analyzer wrote it.

Kept self-contained (standard library only) so they can move into `chatbot/models.py` unchanged."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

ChangeType = Literal["feat", "fix", "refactor", "perf", "test", "doc", "chore", "revert"]
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
# What a PR's diff does to one setting: a config key added, removed, renamed (old name in `before`) or
# moved to another file (files in `before`/`after`); its default changed, made required (OmegaConf's
# `???`), or made to follow another key or variable (an interpolation's source: `${model.x}`); a
# command-line option or an environment variable read added or removed.
ConfigKind = Literal[
    "added",
    "removed",
    "renamed",
    "moved",
    "default_changed",
    "required",
    "follows",
    "flag_added",
    "flag_removed",
    "env_added",
    "env_removed",
]

CHANGE_TYPES: tuple[ChangeType, ...] = get_args(ChangeType)
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
RISK_CATEGORIES: tuple[RiskCategory, ...] = get_args(RiskCategory)
SEVERITIES: tuple[Severity, ...] = get_args(Severity)
CONFIG_KINDS: tuple[ConfigKind, ...] = get_args(ConfigKind)
TEXT_LANGUAGES: tuple[str, ...] = ("zh", "en")

# Analyses stored before verdict reasons lost their label ("必读：…", "Must read: …"): renderers add the
# label, so the stored one is dropped when such a reason is read.
_VERDICT_LABEL = re.compile(r"^\s*(?:必读|值得一读|可略读|must read|worth reading|skim)\s*[:：]\s*", re.I)


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
    return tuple(map(str, value)) if value else ()


_SENTENCE_END = re.compile(r"[.!?。！？](?=\s|$)")


def _first_line(text: str) -> str:
    """The first sentence of `text` on one line (a gist for analyses stored without one)."""
    line = " ".join(text.split())
    match = _SENTENCE_END.search(line)
    return line[: match.end()] if match else line


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
        return cls(  # the category and severity are checked by __post_init__
            category=cast(RiskCategory, str(data["category"])),
            severity=cast(Severity, str(data["severity"])),
            text=str(data.get("text", "")),
            evidence=str(data.get("evidence", "")),
        )


@dataclass(frozen=True, slots=True)
class ConfigFact:
    """One configuration change the diff shows (`ConfigKind`), language-neutral: answers about
    configuration read these, not the sentences of the key points. `before`/`after` are the old and new
    value (a default), name (a rename), file (a move) or source (what a key now follows); "" when there
    is none. `file` is where the diff shows it."""

    key: str
    kind: ConfigKind
    before: str = ""
    after: str = ""
    file: str = ""

    def __post_init__(self) -> None:
        _choice(self.kind, CONFIG_KINDS, "config change kind")

    def to_dict(self) -> dict[str, str]:
        return {
            "key": self.key,
            "kind": self.kind,
            "before": self.before,
            "after": self.after,
            "file": self.file,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConfigFact:
        get = data.get
        return cls(
            key=str(data["key"]),
            kind=cast(ConfigKind, str(data["kind"])),
            before=str(get("before", "")),
            after=str(get("after", "")),
            file=str(get("file", "")),
        )


def strip_verdict_label(reason: str) -> str:
    """`必读：必读：改动较大` -> `改动较大`: a verdict reason without the verdict's own label."""
    match = _VERDICT_LABEL.match(reason)
    while match:
        reason = reason[match.end() :]
        match = _VERDICT_LABEL.match(reason)
    return reason


@dataclass(frozen=True, slots=True)
class LocalizedAnalysis:
    """The texts of an analysis in one language. `risks` is parallel to `Analysis.risks` (the same
    risks, same order); `reading_guide` says how to read a must-read or worth-reading PR (where to start,
    the design decision worth learning, what to verify, what a follow-up should add); empty for a skim."""

    gist: str
    verdict_reason: str
    key_points: tuple[str, ...] = ()
    risks: tuple[str, ...] = ()
    follow_ups: tuple[str, ...] = ()
    reading_guide: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "gist": self.gist,
            "verdict_reason": self.verdict_reason,
            "key_points": list(self.key_points),
            "risks": list(self.risks),
            "follow_ups": list(self.follow_ups),
            "reading_guide": list(self.reading_guide),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LocalizedAnalysis:
        return cls(
            gist=str(data.get("gist", "")),
            verdict_reason=strip_verdict_label(str(data.get("verdict_reason", ""))),
            key_points=_strings(data.get("key_points")),
            risks=_strings(data.get("risks")),
            follow_ups=_strings(data.get("follow_ups")),
            reading_guide=_strings(data.get("reading_guide")),
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
    # The texts in each language the analyzer wrote ("zh", "en"); the single-language fields above hold
    # the analyzer's own language. Read them through `localized`.
    texts: Mapping[str, LocalizedAnalysis] = field(default_factory=dict)
    # What readers corrected in it ("importance", "breaking", "risk"): shown marked as corrected. Set
    # at display by `chatbot/team/corrections.py`, never by an analyzer.
    corrected: tuple[str, ...] = ()
    # A one-line English title when the analyzer wrote one (the LLM does, for a title in another
    # language); "" means the PR's own title serves English readers.
    title_en: str = ""
    # The configuration changes the diff shows, as facts (the heuristic analyzer's, kept by the LLM
    # analyzer: they come from the diff); none in analyses stored before they were recorded.
    config: tuple[ConfigFact, ...] = ()

    def __post_init__(self) -> None:
        _choice(self.change_type, CHANGE_TYPES, "change type")
        _choice(self.verdict, VERDICTS, "verdict")
        for language, text in self.texts.items():
            _choice(language, TEXT_LANGUAGES, "language")
            if len(text.risks) != len(self.risks):
                raise ValueError(
                    f"the {language} texts have {len(text.risks)} risks for the analysis' {len(self.risks)}"
                )
        # Scores are normalised here so every analyzer stores the same shape (an LLM may say 7.25).
        object.__setattr__(self, "importance", _score(self.importance, "importance"))
        object.__setattr__(self, "insight", _score(self.insight, "insight"))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; `from_dict(to_dict(a)) == a`."""
        return (
            {
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
                "texts": {language: text.to_dict() for language, text in self.texts.items()},
            }
            | ({"corrected": list(self.corrected)} if self.corrected else {})
            | ({"title_en": self.title_en} if self.title_en else {})
            | ({"config": [fact.to_dict() for fact in self.config]} if self.config else {})
        )

    def title_in(self, language: str) -> str:
        """The title the analyzer wrote for a reader of `language` ("" when it wrote none: the PR's own
        title serves)."""
        return self.title_zh if language == "zh" else self.title_en

    def localized(self, language: str) -> LocalizedAnalysis:
        """The texts to show a reader of `language`. An analysis stored in one language only (older rows,
        an analyzer that wrote one) gives its single-language fields, with any verdict label dropped."""
        text = self.texts.get(language)
        if text is not None:
            return text
        return LocalizedAnalysis(
            gist=_first_line(self.summary) or self.title_zh,
            verdict_reason=strip_verdict_label(self.verdict_reason),
            key_points=self.key_points,
            risks=tuple(risk.text for risk in self.risks),
            follow_ups=self.follow_ups,
        )

    @classmethod
    def scores_and_risks(
        cls,
        data: dict[str, Any],
        texts: Mapping[str, LocalizedAnalysis] | None = None,
        *,
        summary: bool = False,
    ) -> Analysis:
        """Part of a stored analysis (`to_dict`), for readers of many that need only its tags, scores,
        verdict, tests and risks (a risks answer, a report's previous week): with `texts` as given and,
        with `summary`, its Chinese title and summary; its key points, guides and other texts are left
        out, since decoding them is most of reading a month of a busy repo's analyses."""
        get = data.get
        return cls(
            title_zh=str(get("title_zh", "")) if summary else "",
            summary=str(get("summary", "")) if summary else "",
            modules=_strings(get("modules")),
            change_type=data["change_type"],
            breaking=bool(get("breaking", False)),
            importance=data["importance"],
            insight=data["insight"],
            verdict=data["verdict"],
            verdict_reason="",
            risks=tuple(map(Risk.from_dict, get("risks") or ())),
            tests=bool(get("tests", False)),
            texts=texts or {},
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Analysis:
        """The inverse of `to_dict`. Raises ValueError (or KeyError) on a malformed record. The change
        type, verdict and scores are checked (and the scores rounded) once, by `__post_init__`: a week's
        report reads 300 of these."""
        get = data.get
        texts = get("texts")
        return cls(
            title_zh=str(get("title_zh", "")),
            summary=str(get("summary", "")),
            modules=_strings(get("modules")),
            change_type=data["change_type"],
            breaking=bool(get("breaking", False)),
            importance=data["importance"],
            insight=data["insight"],
            verdict=data["verdict"],
            verdict_reason=str(get("verdict_reason", "")),
            key_points=_strings(get("key_points")),
            risks=tuple(map(Risk.from_dict, get("risks") or ())),
            tests=bool(get("tests", False)),
            follow_ups=_strings(get("follow_ups")),
            review_highlights=_strings(get("review_highlights")),
            analyzer=str(get("analyzer", "heuristic")),
            analyzer_version=str(get("analyzer_version", "")),
            texts={str(language): LocalizedAnalysis.from_dict(text) for language, text in texts.items()}
            if texts
            else {},
            corrected=_strings(get("corrected")),
            title_en=str(get("title_en", "")),
            config=tuple(map(ConfigFact.from_dict, get("config") or ())),
        )
