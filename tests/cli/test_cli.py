"""The `prhub` command as a user runs it, against a fake GitHub and both databases."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chatbot.store.db import head_revision
from prhub_cli.main import app
from tests.fakes.github import FakeGitHub

REPO = "acme/widgets"


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with FakeGitHub() as fake:
        assert isinstance(fake, FakeGitHub)
        yield fake


@pytest.fixture
def env(
    github: FakeGitHub, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)  # no developer .env is read
    return {
        "PRHUB_DATABASE_URL": database_url,
        "GITHUB_TOKEN": "test-token",
        "GITHUB_API_URL": github.url,
        "GITHUB_RETRY_BACKOFF": "0",
        "PRHUB_TIMEZONE": "Asia/Shanghai",
        "COLUMNS": "200",
        "OPENAI_API_KEY": "",
        "PRHUB_PUBLIC_URL": "",
    }


def prhub(env: dict[str, str], *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), env=env)


def test_sync_then_list_the_week(env, github):
    merged = datetime(2026, 6, 17, 3, 0, tzinfo=UTC)  # Wednesday of 2026-W25 in Asia/Shanghai
    github.add_pull(REPO, 6512, title="[megatron] fix: OOM in checkpoint <!channel>", merged_at=merged)
    github.add_pull(REPO, 6513, merged_at=merged + timedelta(days=10))
    result = prhub(env, "sync", REPO, "--since", "2026-06-01")
    assert result.exit_code == 0, result.output
    assert f"{REPO}: 2 new, 0 updated, 0 unchanged, 0 failed" in result.output

    again = prhub(env, "sync", REPO)
    assert again.exit_code == 0, again.output
    assert "0 new, 0 updated" in again.output and "1 requests" in again.output

    listed = prhub(env, "prs", "list", REPO, "--week", "2026-W25")
    assert listed.exit_code == 0, listed.output
    assert "6512" in listed.output and "6513" not in listed.output
    assert "<!channel>" in listed.output  # shown as plain text


def test_unknown_repo_is_one_clear_line_and_a_failing_exit_code(env):
    result = prhub(env, "sync", "acme/nope", "--since", "2026-06-01")
    assert result.exit_code == 1
    assert "error:" in result.output and "not found" in result.output
    assert "Traceback" not in result.output


def test_a_missing_token_is_named(env):
    result = prhub({**env, "GITHUB_TOKEN": ""}, "sync", REPO)
    assert result.exit_code == 1
    assert "GITHUB_TOKEN is not set" in result.output


def test_a_bad_repo_name_is_a_usage_error(env):
    result = prhub(env, "sync", "not a repo")
    assert result.exit_code == 2
    assert "OWNER/REPO" in result.output


def test_a_rate_limit_stop_says_when_to_retry(env, github):
    github.add_pull(REPO, 1, merged_at=datetime.now(UTC) - timedelta(hours=1))
    github.exhaust_rate_limit(reset_in=timedelta(hours=1))
    result = prhub(env, "sync", REPO, "--max-wait", "0")
    assert result.exit_code == 3
    assert "rate limit" in result.output and "Run the same command again after" in result.output


def test_import_jsonl_loads_rest_shaped_prs_and_reports_bad_lines(env, tmp_path):
    item = {
        "number": 42,
        "title": "[rollout] feat: faster sampling",
        "body": "Adds a cache.",
        "user": {"login": "alice"},
        "created_at": "2026-06-15T01:00:00Z",
        "merged_at": "2026-06-16T01:00:00Z",
        "updated_at": "2026-06-16T01:00:00Z",
        "html_url": "https://github.com/acme/widgets/pull/42",
        "base": {"ref": "main"},
        "labels": [],
        "additions": 10,
        "deletions": 1,
        "changed_files": 1,
        "files": [
            {
                "filename": "verl/rollout.py",
                "status": "modified",
                "additions": 10,
                "deletions": 1,
                "patch": "+x",
            }
        ],
    }
    unmerged = {**item, "number": 43, "merged_at": None}
    path = tmp_path / "pulls.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(json.dumps(item) + "\n" + json.dumps(unmerged) + "\n{broken\n")
    result = prhub(env, "import-jsonl", str(path), "--repo", REPO)
    assert result.exit_code == 0, result.output
    assert "1 new, 0 updated, 0 unchanged, 1 not merged (skipped), 1 failed" in result.output
    assert "line 3" in result.output
    again = prhub(env, "import-jsonl", str(path), "--repo", REPO)
    assert "0 new, 0 updated, 1 unchanged" in again.output
    listed = prhub(env, "prs", "list", REPO)
    assert "faster sampling" in listed.output


def test_db_upgrade_reports_the_revision(env):
    result = prhub(env, "db", "upgrade")
    assert result.exit_code == 0, result.output
    assert f"database at revision {head_revision()} (was empty)" in result.output


def test_the_console_script_is_installed():
    result = subprocess.run(
        [sys.executable, "-m", "prhub_cli", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    for command in ("sync", "import-jsonl", "prs", "db"):
        assert command in result.stdout
