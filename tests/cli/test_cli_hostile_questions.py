"""Hostile questions through `prhub ask`: out-of-range dates and weeks, huge PR numbers and questions
that start with "-" get an answer, never a traceback or a usage error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chatbot.store.db import open_database
from prhub_cli.main import app
from tests.reports.fixtures import seed

QUESTIONS = [
    "widgets 0001-W01",
    "acme/widgets 9999-W52 有哪些风险？",
    "since 0001-01-01 widgets",
    "widgets 从 0001-01-01 到 9999-12-31 的改动",
    "widgets 9999年12月",
    "widgets 0001年1月有什么",
    "widgets #18446744073709551617",
    "what did PR 99999999999999999999999 of widgets change?",
    "-x widgets 风险",
    "--what changed in widgets last week",
]


@pytest.fixture
def env(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)
    db = open_database(database_url)
    seed(db)
    db.dispose()
    return {"PRHUB_DATABASE_URL": database_url, "OPENAI_API_KEY": "", "PRHUB_TIMEZONE": "Asia/Shanghai"}


def test_hostile_questions_get_an_answer_and_no_traceback(env, caplog):
    caplog.set_level(logging.ERROR)
    for question in QUESTIONS:
        result = CliRunner().invoke(app, ["ask", question], env=env)
        assert result.exit_code == 0, (question, result.output)
        assert "No such option" not in result.output and "Traceback" not in result.output
        assert result.output.strip(), question
    assert [r.getMessage() for r in caplog.records] == []
