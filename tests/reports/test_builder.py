"""Composing a report from analysed PRs, without a database: which texts and which PRs it shows."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.reports.builder import AnalyzedPR, compose_weekly_report
from chatbot.weeks import Week
from tests.analysis.builders import changed, code, make_pr

WEEK = Week.containing(datetime(2026, 3, 4, tzinfo=UTC), ZoneInfo("UTC"))
NOW = datetime(2026, 3, 9, tzinfo=UTC)


def _week() -> list[AnalyzedPR]:
    analyzer = HeuristicAnalyzer(language="zh")
    prs = [
        make_pr(
            "[trainer] feat: add gradient checkpointing option",
            body="Adds an option to enable gradient checkpointing in the trainer.",
            files=[
                code("verl/trainer/main_ppo.py", 260),
                changed("verl/trainer/config/ppo_trainer.yaml", ["  enable_gradient_checkpointing: false"]),
            ],
            number=11,
        ),
        make_pr("[doc] fix: typo", files=[changed("docs/index.md", ["ok"], ["okk"])], number=12),
    ]
    return [AnalyzedPR(pr, analyzer.analyze(pr)) for pr in prs]


def test_an_english_report_of_prs_analysed_in_chinese_reads_the_english_texts() -> None:
    records = _week()
    report = compose_weekly_report("acme/widgets", WEEK, records, [], language="en", generated_at=NOW)

    by_number = {r.number: r.analysis for r in records}
    for row in report.key_prs:
        english = by_number[row.number].localized("en")
        assert row.key_point in (*english.key_points, english.verdict_reason)
    english_risks = {t for r in records for t in r.analysis.localized("en").risks}
    assert report.risks
    assert all(any(t in risk.text for t in english_risks) for risk in report.risks)
