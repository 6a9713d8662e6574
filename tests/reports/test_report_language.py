"""A report is in its reader's language: an English report quotes no Chinese sentence (a PR's own title
aside, which is its name), whatever the repository's shape. Checked on six repos unlike verl (plain and
conventional-commit titles, Chinese titles and bodies, no template) and on weeks of the verl export."""

from __future__ import annotations

import re

import pytest

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.reports.builder import AnalyzedPR, compose_weekly_report
from chatbot.reports.model import WeeklyReport
from tests.qa import fresh_repos, other_repos
from tests.reports.test_builder import NOW, VERL_WEEKS, WEEK

ANALYZER = HeuristicAnalyzer(language="zh")
HAN = re.compile(r"[\u4e00-\u9fff]")
WRITTEN = (*other_repos.PRS, *fresh_repos.PRS)
REPOS = (*other_repos.REPOS, *fresh_repos.REPOS)


def repo_records(repo: str) -> list[AnalyzedPR]:
    prs = [w.pull_request() for w in WRITTEN if w.repo == repo]
    return [AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in prs]


def said(report: WeeklyReport) -> list[str]:
    """Every sentence the report writes, key-PR rows and reading guides included."""
    texts = [report.headline, report.executive_summary, report.participants, *report.follow_ups]
    texts += [*report.trend_notes, *(i.text for i in report.highlights), *(r.text for r in report.risks)]
    texts += [i.text for t in report.themes for i in t.items] + [t.name for t in report.themes]
    for row in report.key_prs:
        texts += [row.key_point, row.gist, *row.reading_guide]
    return texts


def cases() -> list[object]:
    params = [pytest.param(repo_records(repo), id=repo) for repo in REPOS]
    return params + [pytest.param(w, id=f"verl-{i}") for i, w in enumerate(VERL_WEEKS)]


@pytest.mark.parametrize("records", cases())
def test_an_english_report_quotes_no_chinese_but_its_titles(records: list[AnalyzedPR]) -> None:
    report = compose_weekly_report("acme/x", WEEK, records, [], language="en", generated_at=NOW)
    titles = sorted(
        {r.pr.title for r in records} | {r.analysis.title_zh for r in records}, key=len, reverse=True
    )
    chinese = []
    for text in said(report):
        for title in titles:
            text = text.replace(title, " ")
        if HAN.search(text):
            chinese.append(text)
    assert not chinese, chinese


@pytest.mark.parametrize("records", cases())
def test_a_chinese_report_of_any_repo_has_themes_highlights_and_key_prs(records: list[AnalyzedPR]) -> None:
    report = compose_weekly_report("acme/x", WEEK, records, [], language="zh", generated_at=NOW)
    assert report.highlights and report.themes and report.key_prs
    assert all(row.key_point for row in report.key_prs)
