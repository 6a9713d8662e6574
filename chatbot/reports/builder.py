"""Composing a weekly report from the analyses of one ISO week (the template prose; no network).

Themes group PRs by module and keywords; highlights and the key-PR table rank by importance; risks of
one category are merged across PRs, naming them all; trends compare with the previous week.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from chatbot.analysis.types import Analysis, Risk
from chatbot.messages import Language, join, pr_refs, say
from chatbot.models import PullRequest
from chatbot.reports.model import KeyPR, ReportItem, RiskObservation, Theme, Trend, WeeklyReport
from chatbot.reports.themes import theme_of
from chatbot.weeks import Week

HIGHLIGHTS = 6
RISK_OBSERVATIONS = 5
KEY_PR_ROWS = 10
THEME_ITEMS = 5
TRENDS = 12
FOLLOW_UPS = 6
_SEVERITY_RANK = {"high": 3, "medium": 2, "low": 1}
_TITLE_PREFIX = re.compile(r"^\s*(?:\[[^\]]*\]\s*)+|^\s*\w+(?:\([^)]*\))?!?:\s*")


@dataclass(frozen=True, slots=True)
class AnalyzedPR:
    pr: PullRequest
    analysis: Analysis

    @property
    def number(self) -> int:
        return self.pr.number


def clean_title(title: str) -> str:
    """A PR title without its `[module]` prefixes and `type(scope):` marker: `[megatron] feat: add X` → `add X`."""
    previous = None
    while previous != title:
        previous, title = title, _TITLE_PREFIX.sub("", title, count=1)
    return title.strip() or previous.strip()


def _ranked(records: Sequence[AnalyzedPR]) -> list[AnalyzedPR]:
    return sorted(records, key=lambda r: (-r.analysis.importance, -r.analysis.insight, r.number))


def _module(record: AnalyzedPR) -> str:
    return record.analysis.modules[0] if record.analysis.modules else "misc"


def compose_weekly_report(
    repo: str,
    week: Week,
    records: Sequence[AnalyzedPR],
    previous: Sequence[AnalyzedPR],
    *,
    language: Language,
    generated_at: datetime,
    version: int = 1,
) -> WeeklyReport:
    """The report of `week` from its analysed PRs, compared with the previous week's."""
    last_day = week.end - timedelta(days=1)
    title = say(
        "report.title",
        language,
        repo=repo,
        year=week.year,
        week=week.week,
        start=f"{week.start:%m-%d}",
        end=f"{last_day:%m-%d}",
    )
    ranked = _ranked(records)
    common: dict[str, Any] = dict(
        repo=repo,
        year=week.year,
        week=week.week,
        start=week.start,
        end=week.end,
        timezone=str(week.tz),
        language=language,
        generated_at=generated_at,
        version=version,
        prose="template",
        title=title,
        pr_count=len(records),
        previous_pr_count=len(previous),
        prs=tuple(sorted(r.number for r in records)),
    )
    if not records:
        period = say("report.period", language, start=f"{week.start:%Y-%m-%d}", end=f"{last_day:%Y-%m-%d}")
        return WeeklyReport(
            **common,
            headline=say("report.quiet", language, repo=repo, period=period),
            highlights=(),
            risks=(),
            executive_summary="",
            avg_importance=0.0,
            avg_insight=0.0,
            themes=(),
            module_trends=(),
            theme_trends=(),
            key_prs=(),
            follow_ups=(),
        )

    themes_of = {r.number: theme_of(r.pr.title, r.analysis) for r in records}
    key = _key_prs(ranked)
    risks = merge_risks(ranked, language)
    themes = _themes(ranked, themes_of, language)
    theme_names = [t.name for t in themes[:3]]
    attention = (
        say("report.attention", language, risk=_short_risk(risks[0], language))
        if risks
        else say("report.no_attention", language)
    )
    headline = say(
        "report.headline",
        language,
        count=len(records),
        themes=join(theme_names, language),
        attention=attention,
    )
    avg_importance = round(sum(r.analysis.importance for r in records) / len(records), 1)
    avg_insight = round(sum(r.analysis.insight for r in records) / len(records), 1)
    return WeeklyReport(
        **common,
        headline=headline,
        highlights=tuple(
            ReportItem(
                text=say(
                    "report.highlight",
                    language,
                    module=_module(r),
                    text=clean_title(r.analysis.title_zh or r.pr.title),
                ),
                prs=(r.number,),
            )
            for r in key[:HIGHLIGHTS]
        ),
        risks=tuple(risks[:RISK_OBSERVATIONS]),
        executive_summary=_executive_summary(
            records, previous, ranked, theme_names, avg_importance, avg_insight, language
        ),
        avg_importance=avg_importance,
        avg_insight=avg_insight,
        themes=tuple(themes),
        module_trends=_trends(
            Counter(m for r in records for m in r.analysis.modules),
            Counter(m for r in previous for m in r.analysis.modules),
        ),
        theme_trends=_trends(
            Counter(themes_of.values()),
            Counter(theme_of(r.pr.title, r.analysis) for r in previous),
            name=lambda theme: say(f"theme.{theme}", language),
        ),
        key_prs=tuple(
            KeyPR(
                number=r.number,
                title=r.pr.title,
                url=r.pr.header.html_url,
                author=r.pr.header.author,
                modules=r.analysis.modules,
                importance=r.analysis.importance,
                insight=r.analysis.insight,
                verdict=r.analysis.verdict,
                key_point=_key_point(r.analysis, language),
            )
            for r in key[:KEY_PR_ROWS]
        ),
        follow_ups=tuple(_follow_ups(ranked, risks, language)),
    )


def _key_point(analysis: Analysis, language: Language) -> str:
    texts = analysis.localized(language)
    return texts.key_points[0] if texts.key_points else texts.verdict_reason


def _key_prs(ranked: list[AnalyzedPR]) -> list[AnalyzedPR]:
    """PRs worth attention (must-read or worth-reading); at least the top three when the week has them."""
    key = [r for r in ranked if r.analysis.verdict != "skim"]
    return key if len(key) >= 3 else ranked[: max(3, len(key))]


def merge_risks(ranked: Sequence[AnalyzedPR], language: Language) -> list[RiskObservation]:
    """Risks of one category merged across PRs (ranked most important first), naming every PR, with the
    worst one as the example; high severity first."""
    by_category: dict[str, list[tuple[AnalyzedPR, Risk]]] = defaultdict(list)
    for record in ranked:
        seen: set[str] = set()
        worded = record.analysis.localized(language).risks
        for risk, text in zip(record.analysis.risks, worded, strict=True):
            if risk.category not in seen:
                seen.add(risk.category)
                by_category[risk.category].append((record, replace(risk, text=text)))
    observations = []
    for category, hits in by_category.items():
        worst = max(hits, key=lambda hit: (_SEVERITY_RANK[hit[1].severity], hit[0].analysis.importance))
        prs = tuple(record.number for record, _ in hits)
        text = say(f"report.risk.{category}", language, n=len(prs), prs=pr_refs(prs, language))
        example = f"#{worst[0].number} {worst[1].text}" + (
            f" ({worst[1].evidence})" if worst[1].evidence else ""
        )
        text += ("；" if language == "zh" else "; ") + say("report.risk.example", language, example=example)
        observations.append(
            RiskObservation(category=category, severity=worst[1].severity, text=text, prs=prs)
        )
    observations.sort(key=lambda o: (-_SEVERITY_RANK[o.severity], -len(o.prs), o.category))
    return observations


def _short_risk(observation: RiskObservation, language: Language) -> str:
    return say(
        f"report.risk.{observation.category}",
        language,
        n=len(observation.prs),
        prs=pr_refs(observation.prs, language, limit=3),
    )


def _themes(ranked: list[AnalyzedPR], themes_of: dict[int, str], language: Language) -> list[Theme]:
    grouped: dict[str, list[AnalyzedPR]] = defaultdict(list)
    for record in ranked:
        grouped[themes_of[record.number]].append(record)
    ordered = sorted(grouped.items(), key=lambda item: (-len(item[1]), item[0]))
    return [
        Theme(
            name=say(f"theme.{theme}", language),
            items=tuple(
                ReportItem(text=clean_title(r.analysis.title_zh or r.pr.title), prs=(r.number,))
                for r in records[:THEME_ITEMS]
            ),
        )
        for theme, records in ordered
    ]


def _trends(
    current: Counter[str], previous: Counter[str], name: Callable[[str], str] = str
) -> tuple[Trend, ...]:
    keys = sorted(set(current) | set(previous), key=lambda k: (-current[k], -previous[k], k))
    return tuple(Trend(name=name(k), count=current[k], previous=previous[k]) for k in keys[:TRENDS])


def _executive_summary(
    records: Sequence[AnalyzedPR],
    previous: Sequence[AnalyzedPR],
    ranked: list[AnalyzedPR],
    theme_names: list[str],
    avg_importance: float,
    avg_insight: float,
    language: Language,
) -> str:
    delta = len(records) - len(previous)
    delta_text = (
        say("report.delta_up", language, n=delta)
        if delta > 0
        else say("report.delta_down", language, n=-delta)
        if delta < 0
        else say("report.delta_same", language)
    )
    must_read = [r.number for r in ranked if r.analysis.verdict == "must-read"]
    breaking = [r.number for r in ranked if r.analysis.breaking]
    return say(
        "report.summary",
        language,
        count=len(records),
        previous=len(previous),
        delta=delta_text,
        importance=f"{avg_importance:.1f}",
        insight=f"{avg_insight:.1f}",
        themes=join(theme_names, language),
        must_read=say("report.must_read", language, n=len(must_read), prs=pr_refs(must_read, language))
        if must_read
        else "",
        breaking=say("report.breaking", language, n=len(breaking), prs=pr_refs(breaking, language))
        if breaking
        else "",
    )


def _follow_ups(ranked: list[AnalyzedPR], risks: list[RiskObservation], language: Language) -> list[str]:
    follow_ups: list[str] = []
    breaking = [r.number for r in ranked if r.analysis.breaking]
    if breaking:
        follow_ups.append(say("report.follow_up.breaking", language, prs=pr_refs(breaking, language)))
    high = [n for o in risks if o.severity == "high" for n in o.prs]
    if high:
        follow_ups.append(
            say("report.follow_up.high_risk", language, prs=pr_refs(dict.fromkeys(high), language))
        )
    must_read = [r.number for r in ranked if r.analysis.verdict == "must-read"][:3]
    if must_read:
        follow_ups.append(say("report.follow_up.read", language, prs=pr_refs(must_read, language)))
    seen = set(follow_ups)
    for record in ranked:
        for suggestion in record.analysis.localized(language).follow_ups[:1]:
            line = f"#{record.number}: {suggestion}"
            if suggestion not in seen and len(follow_ups) < FOLLOW_UPS:
                seen.add(suggestion)
                follow_ups.append(line)
    return follow_ups[:FOLLOW_UPS]
