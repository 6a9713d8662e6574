"""Repo names: only GitHub's `owner/name` shapes pass, whatever way they arrive."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from chatbot.repos import is_repo_name
from prhub_cli.main import app

GOOD = ["verl-project/verl", "torvalds/linux", "a/b", "Org_emu/.github", "x1/repo.name_with-all", "o/..x"]
BAD = [
    "../../rate_limit",
    "torvalds/linux/../../verl-project/verl",
    "verl-project/verl?x=1",
    "verl-project/verl#1",
    "owner/..",
    "owner/.",
    "-owner/name",
    "owner/",
    "/name",
    "owner/na me",
    "owner/näme",
    "ｖｅｒｌ/verl",
    "owner/name\n",
    "owner/%2e%2e",
    "o" * 40 + "/name",
    "owner/" + "n" * 101,
    "verl",
]


@pytest.mark.parametrize("name", GOOD)
def test_github_shaped_names_pass(name):
    assert is_repo_name(name)


@pytest.mark.parametrize("name", BAD)
def test_anything_else_is_refused(name):
    assert not is_repo_name(name)


@pytest.mark.parametrize("name", BAD[:4])
def test_the_cli_refuses_them_before_touching_anything(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {"PRHUB_DATABASE_URL": f"sqlite:///{tmp_path / 'prhub.db'}", "GITHUB_TOKEN": "t"}
    result = CliRunner().invoke(app, ["sync", name], env=env)
    assert result.exit_code == 2
    assert "expected OWNER/REPO" in result.output
    assert not (tmp_path / "prhub.db").exists()
