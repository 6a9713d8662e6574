"""`prhub analyze` and `prhub report` with an LLM (the fake OpenAI server): the cost per PR and per week
is printed, and a report whose prose the model wrote says so."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from prhub_cli.main import app
from tests.fakes.openai import analysis_payload
from tests.reports.fixtures import REPO


@pytest.fixture
def env(llm_env: dict[str, str]) -> dict[str, str]:
    return llm_env


def prhub(env: dict[str, str], *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), env=env)


def week_prose(body: dict) -> object:  # type: ignore[type-arg]
    """The fake model: PR analyses for analysis requests, week prose for the report's request."""
    if body["response_format"]["json_schema"]["name"] != "weekly_report_prose":
        return analysis_payload()
    return {
        "headline": "本周合并 7 个 PR，重点是 #101。",
        "highlights": [{"text": "#101 与 #102 值得关注", "prs": [101, 102]}],
        "risks": [],
        "follow_ups": [{"text": "为 #101 补充测试。", "prs": [101]}],
        "executive_summary": "平均重要性 5.5。",
    }


def test_analyze_prints_the_cost_per_pr(env, server):
    server.answer = week_prose
    result = prhub(env, "analyze", REPO, "--reanalyze")
    assert result.exit_code == 0, result.output
    assert "estimated cost $" in result.output and "per PR)" in result.output


def test_report_prints_the_week_cost_of_analyses_and_prose(env, server, tmp_path):
    server.answer = week_prose
    assert prhub(env, "analyze", REPO, "--reanalyze").exit_code == 0
    out = tmp_path / "week.json"
    result = prhub(env, "report", REPO, "--week", "2026-W25", "--format", "json", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "LLM cost of 2026-W25: analyses $" in result.output and "per PR over" in result.output
    assert '"prose": "llm"' in out.read_text(encoding="utf-8")
