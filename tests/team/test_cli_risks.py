"""`prhub risks list|show|resolve|accept|unlink` as an admin runs them, on both databases."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chatbot.store.db import open_database
from prhub_cli.main import app
from tests.team.ledger_fixtures import FOLLOW_PATCH, MEMORY, REPO, ROLLOUT_PATCH, W25, analysis, pull, store

NOW = W25 + timedelta(days=30)


@pytest.fixture
def env(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)
    db = open_database(database_url)
    store(db, pull(10, W25, {"pkg/rollout.py": ROLLOUT_PATCH}), analysis(MEMORY), NOW)
    store(db, pull(20, W25 + timedelta(days=2), {"pkg/rollout.py": FOLLOW_PATCH}), analysis(), NOW)
    db.dispose()
    return {"PRHUB_DATABASE_URL": database_url, "COLUMNS": "250", "PRHUB_LANGUAGE": "en"}


def prhub(env: dict[str, str], *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), env=env)


def test_list_show_unlink_and_accept_a_risk(env):
    listed = prhub(env, "risks", "list", REPO)
    assert listed.exit_code == 0, listed.output
    assert "#10" in listed.output and "followed-up" in listed.output and "#20 function" in listed.output
    shown = prhub(env, "risks", "show", "#10", "--repo", REPO)
    assert shown.exit_code == 0, shown.output
    assert "gather_buffers" in shown.output and "#20" in shown.output
    unlinked = prhub(env, "risks", "unlink", "#10", "20", "--repo", REPO, "--why", "unrelated", "--by", "li")
    assert unlinked.exit_code == 0, unlinked.output
    assert "(undone)" in prhub(env, "risks", "show", "#10", "--repo", REPO).output
    accepted = prhub(env, "risks", "accept", "#10", "--repo", REPO, "--why", "intended", "--by", "li")
    assert accepted.exit_code == 0, accepted.output
    assert "#10" not in prhub(env, "risks", "list", REPO).output
    assert "accepted by li: intended" in prhub(env, "risks", "show", "#10", "--repo", REPO).output


def test_an_unknown_reference_is_one_line_on_stderr(env):
    result = prhub(env, "risks", "resolve", "R-zzzzzz", "--why", "x")
    assert result.exit_code == 1
    assert "No risk has the id R-zzzzzz" in result.output


def test_an_unknown_state_is_refused(env):
    result = prhub(env, "risks", "list", REPO, "--state", "closed")
    assert result.exit_code != 0
