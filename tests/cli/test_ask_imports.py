"""`prhub ask` imports what answering needs and nothing else: the schema tools, GitHub, the web server,
the demo and the other commands' modules are imported by the commands that use them (start-up time;
docs/benchmarks.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from chatbot.store.db import open_database
from tests.qa.fixture_repo import seed_fixture

# Packages and modules `ask` never uses (on a database at the newest schema).
NOT_FOR_ASK = (
    "alembic",
    "mako",
    "github",
    "cryptography",
    "waitress",
    "flask",
    "openai",
    "slack_bolt",
    "lark_oapi",
    "apscheduler",
    "weasyprint",
    "rich.progress",
    "chatbot.demo",
    "chatbot.ingest",
    "chatbot.analysis.runner",
    "chatbot.analysis.llm",
    "chatbot.reports.html",
    "chatbot.reports.llm_prose",
    "chatbot.subscriptions.delivery",
    "prhub_cli.admin",
    "prhub_cli.feedback",
    "prhub_cli.github",
    "prhub_cli.risks",
    "prhub_cli.serve",
    "prhub_cli.slack",
)

# Runs `prhub ask` in this interpreter, then writes the names of the modules it imported.
ASK = """
import json, sys
from prhub_cli.main import app
try:
    app(["ask", "--as-of", "2026-06-24T10:00+08:00", "上周 verl 有哪些风险？"])
except SystemExit:
    pass
with open(sys.argv[1], "w") as out:
    json.dump(sorted(sys.modules), out)
"""


def test_ask_imports_none_of_what_other_commands_use(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'prhub.db'}"
    db = open_database(url)  # at the newest schema, as after any earlier command
    seed_fixture(db)
    db.dispose()
    listed = tmp_path / "modules.json"
    environment = {**os.environ, "PRHUB_DATABASE_URL": url, "OPENAI_API_KEY": "", "GITHUB_TOKEN": ""}
    result = subprocess.run(
        [sys.executable, "-c", ASK, str(listed)],
        cwd=tmp_path,  # no developer .env is read
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "#" in result.stdout  # it answered with the week's risks: the answer path ran
    imported = set(json.loads(listed.read_text()))
    unexpected = sorted(
        name for name in imported if any(name == m or name.startswith(m + ".") for m in NOT_FOR_ASK)
    )
    assert unexpected == []


def test_every_command_is_still_listed_and_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "prhub_cli", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    for command in ("push", "status", "serve", "calibrate", "subscriptions", "github", "slack", "risks"):
        assert command in result.stdout
    nested = subprocess.run(
        [sys.executable, "-m", "prhub_cli", "risks", "--help"], capture_output=True, text=True, check=False
    )
    assert nested.returncode == 0, nested.stderr
    assert "resolve" in nested.stdout
