"""The titles an LLM writes in each language reach their readers: an English answer, card and report use
its English title and a Chinese one its Chinese title, never the other language's (the fake OpenAI
server plays the model)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from prhub_cli.main import app
from tests.fakes.openai import FakeOpenAI, analysis_payload
from tests.reports.fixtures import REPO

TITLE_ZH = "为调度器增加异步队列"
TITLE_EN = "Queue scheduler work asynchronously"


@pytest.fixture
def env(llm_env: dict[str, str], server: FakeOpenAI) -> dict[str, str]:
    """The seeded repo analysed by a model that writes both titles."""
    server.answer = lambda body: analysis_payload(title_zh=TITLE_ZH, title_en=TITLE_EN)
    analyzed = CliRunner().invoke(app, ["analyze", REPO, "--reanalyze"], env=llm_env)
    assert analyzed.exit_code == 0, analyzed.output
    return llm_env


@pytest.mark.parametrize(
    ("question", "shown", "hidden"),
    [
        (f"what changed in {REPO} last week?", TITLE_EN, TITLE_ZH),
        (f"上周 {REPO} 有哪些改动？", TITLE_ZH, TITLE_EN),
    ],
)
def test_a_list_answer_shows_the_title_in_the_askers_language(env, question, shown, hidden):
    result = CliRunner().invoke(app, ["ask", "--as-of", "2026-06-22T10:00", question], env=env)
    assert result.exit_code == 0, result.output
    assert shown in result.output and hidden not in result.output


@pytest.mark.parametrize(
    ("language", "shown", "hidden"), [("en", TITLE_EN, TITLE_ZH), ("zh", TITLE_ZH, TITLE_EN)]
)
def test_the_pr_card_and_the_report_show_the_title_in_their_language(env, tmp_path, language, shown, hidden):
    card = CliRunner().invoke(app, ["pr", "show", REPO, "101"], env=env | {"PRHUB_LANGUAGE": language})
    assert card.exit_code == 0, card.output
    assert shown in card.output and hidden not in card.output
    out = tmp_path / f"week-{language}.md"
    args = [
        "report",
        REPO,
        "--week",
        "2026-W25",
        "--format",
        "md",
        "--lang",
        language,
        "--rebuild",
        "-o",
        str(out),
    ]
    assert CliRunner().invoke(app, args, env=env).exit_code == 0
    report = out.read_text(encoding="utf-8")
    assert shown in report and hidden not in report
