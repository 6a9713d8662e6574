"""The LLM writes the report's headline, themes, risk mechanisms, follow-ups and executive summary from
the structured facts of the week (the stored analyses as the template report holds them) only.

The prompt is data (`chatbot/analysis/prompts/weekly_v1.toml`). Every PR number the model mentions must
be one of the week's, every code identifier must occur in the facts it was given, and a risk may name at
most two PRs; an answer that breaks a rule is sent back once with the problems listed, and a second
failure (or any error) keeps the template prose. The tokens spent are recorded on the report."""

from __future__ import annotations

import json
import logging
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from chatbot.analysis.lead import code_identifiers
from chatbot.analysis.llm import strict_json_schema
from chatbot.analysis.types import RiskCategory, Severity
from chatbot.ports import LLM, LLMError
from chatbot.reports.model import ReportItem, RiskObservation, WeeklyReport

log = logging.getLogger(__name__)

PROMPT_FILE = Path(__file__).resolve().parents[1] / "analysis" / "prompts" / "weekly_v1.toml"
SCHEMA_NAME = "weekly_report_prose"
MAX_HIGHLIGHTS = 6
MAX_RISKS = 5
MAX_FOLLOW_UPS = 6
MAX_RISK_PRS = 2
_PR_MENTION = re.compile(r"#(\d+)")


class _Item(BaseModel):
    text: str = Field(description="one sentence")
    prs: list[int] = Field(description="the PR numbers it is about")


class _RiskItem(BaseModel):
    category: RiskCategory
    severity: Severity
    text: str = Field(description="the mechanism: evidence and what could go wrong")
    prs: list[int] = Field(description="one or two PR numbers")


class ProseAnswer(BaseModel):
    headline: str = Field(description="one sentence")
    highlights: list[_Item] = Field(description="at most 6 themes")
    risks: list[_RiskItem] = Field(description="at most 5 mechanisms")
    follow_ups: list[_Item] = Field(description="at most 6, over distinct concerns")
    executive_summary: str = Field(description="3 to 5 sentences")


PROSE_SCHEMA = strict_json_schema(ProseAnswer)


@dataclass(frozen=True, slots=True)
class WeeklyPrompt:
    """The texts of one prompt version (see the TOML file)."""

    version: str
    system: dict[str, str]
    user_template: str
    repair_template: str

    @classmethod
    def load(cls, path: Path = PROMPT_FILE) -> WeeklyPrompt:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return cls(
            version=str(data["version"]),
            system={language: data[language]["system"].strip() for language in ("zh", "en")},
            user_template=data["template"]["user"],
            repair_template=data["template"]["repair"],
        )


def report_facts(report: WeeklyReport) -> dict[str, object]:
    """What the LLM may know: counts, averages, the themes with each PR's gist, the key PRs with their key
    points and reading guides, the risk mechanisms, trends and participants."""
    return {
        "repo": report.repo,
        "week": report.label,
        "prs_merged": report.pr_count,
        "prs_merged_previous_week": report.previous_pr_count,
        "average_importance": report.avg_importance,
        "average_insight": report.avg_insight,
        "themes": [
            {"name": t.name, "changes": [{"pr": i.prs[0], "gist": i.text} for i in t.items if i.prs]}
            for t in report.themes
        ],
        "key_prs": [
            {
                "pr": p.number,
                "title": p.title,
                "modules": list(p.modules),
                "importance": p.importance,
                "insight": p.insight,
                "verdict": p.verdict,
                "gist": p.gist,
                "key_point": p.key_point,
                "reading_guide": list(p.reading_guide),
            }
            for p in report.key_prs
        ],
        "risk_mechanisms": [
            {"category": r.category, "severity": r.severity, "prs": list(r.prs), "text": r.text}
            for r in report.risks
        ],
        "module_trends": [
            {"module": t.name, "this_week": t.count, "last_week": t.previous} for t in report.module_trends
        ],
        "trend_notes": list(report.trend_notes),
        "participants": report.participants,
        "template_follow_ups": list(report.follow_ups),
    }


def problems(answer: ProseAnswer, allowed: set[int], facts: str) -> list[str]:
    """Why the answer cannot be used: PRs outside the week, identifiers not in the facts, a risk naming
    more than two PRs, a blank headline or no highlights. Empty when it can."""
    found: list[str] = []
    texts = [answer.headline, answer.executive_summary]
    texts += [i.text for i in (*answer.highlights, *answer.follow_ups)] + [r.text for r in answer.risks]
    mentioned = {int(n) for t in texts for n in _PR_MENTION.findall(t)}
    mentioned |= {n for items in (answer.highlights, answer.follow_ups) for i in items for n in i.prs}
    mentioned |= {n for r in answer.risks for n in r.prs}
    if mentioned - allowed:
        found.append(f"PRs not in the facts: {', '.join(f'#{n}' for n in sorted(mentioned - allowed))}")
    unknown = sorted({i for t in texts for i in code_identifiers(t) if i not in facts})
    if unknown:
        found.append(f"identifiers not in the facts: {', '.join(unknown[:10])}")
    crowded = [r.text[:40] for r in answer.risks if not 1 <= len(r.prs) <= MAX_RISK_PRS]
    if crowded:
        found.append(f"risks naming no PR or more than {MAX_RISK_PRS}: {'; '.join(crowded)}")
    if not answer.headline.strip() or not answer.highlights:
        found.append("a blank headline or no highlights")
    return found


class LLMReportWriter:
    """A `ReportWriter`: one LLM call per report (two when the first answer breaks a rule); returns the
    report unchanged when anything is off."""

    def __init__(self, llm: LLM, prompt: WeeklyPrompt | None = None) -> None:
        self._llm = llm
        self._prompt = prompt or WeeklyPrompt.load()

    def __call__(self, report: WeeklyReport) -> WeeklyReport:
        facts = json.dumps(report_facts(report), ensure_ascii=False, indent=1)
        user = self._prompt.user_template.format(facts=facts).strip()
        system = self._prompt.system[report.language]
        allowed = set(report.prs)
        tokens = [0, 0]
        try:
            answer = self._ask(system, user, tokens)
            issues = problems(answer, allowed, facts)
            if issues:
                repair = self._prompt.repair_template.format(problems="\n".join(f"- {p}" for p in issues))
                answer = self._ask(system, user + repair.rstrip(), tokens)
                issues = problems(answer, allowed, facts)
        except (LLMError, ValidationError) as exc:
            log.warning(
                "%s %s: LLM prose unavailable, keeping the templates: %s", report.repo, report.label, exc
            )
            return report.model_copy(update={"prose_tokens": (tokens[0], tokens[1])})
        if issues:
            log.warning(
                "%s %s: LLM prose rejected (%s); keeping the templates", report.repo, report.label, issues
            )
            return report.model_copy(update={"prose_tokens": (tokens[0], tokens[1])})
        return self._apply(report, answer, (tokens[0], tokens[1]))

    def _ask(self, system: str, user: str, tokens: list[int]) -> ProseAnswer:
        reply = self._llm.complete_json(system, user, SCHEMA_NAME, PROSE_SCHEMA)
        tokens[0] += reply.prompt_tokens
        tokens[1] += reply.completion_tokens
        return ProseAnswer.model_validate_json(reply.text)

    @staticmethod
    def _apply(report: WeeklyReport, answer: ProseAnswer, tokens: tuple[int, int]) -> WeeklyReport:
        risks = [
            RiskObservation(
                category=r.category,
                severity=r.severity,
                text=r.text.strip(),
                prs=tuple(r.prs),
            )
            for r in answer.risks[:MAX_RISKS]
        ]
        # The gathered missing-tests line is a fact of the week, kept whatever the model wrote.
        risks += [r for r in report.risks if r.category == "missing-tests"]
        return report.model_copy(
            update={
                "headline": answer.headline.strip(),
                "highlights": tuple(
                    ReportItem(text=h.text.strip(), prs=tuple(h.prs))
                    for h in answer.highlights[:MAX_HIGHLIGHTS]
                ),
                "risks": tuple(risks) or report.risks,
                "follow_ups": tuple(f.text.strip() for f in answer.follow_ups[:MAX_FOLLOW_UPS])
                or report.follow_ups,
                "executive_summary": answer.executive_summary.strip(),
                "prose": "llm",
                "prose_tokens": tokens,
            }
        )
