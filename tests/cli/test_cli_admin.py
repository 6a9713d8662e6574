"""`prhub subscriptions`, `prhub push --dry-run` and `prhub status` as an admin runs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from chatbot.store.db import open_database
from prhub_cli.main import app
from tests.reports.fixtures import seed


@pytest.fixture
def env(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)
    db = open_database(database_url)
    seed(db)
    db.dispose()
    return {
        "PRHUB_DATABASE_URL": database_url,
        "PRHUB_TIMEZONE": "Asia/Shanghai",
        "COLUMNS": "200",
        "GITHUB_TOKEN": "",
        "SLACK_BOT_TOKEN": "",
        "FEISHU_APP_ID": "",
        "PRHUB_ALLOWED_REPOS": "",
    }


def prhub(env: dict[str, str], *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), env=env)


def test_add_list_and_remove_a_subscription(env):
    added = prhub(
        env,
        "subscriptions",
        "add",
        "acme/widgets",
        "--platform",
        "slack",
        "--channel",
        "C42",
        "--workspace",
        "T1",
        "--weekday",
        "fri",
        "--time",
        "17:30",
        "--tz",
        "Europe/Berlin",
        "--modules",
        "megatron,fsdp",
        "--min-importance",
        "6",
    )
    assert added.exit_code == 0, added.output
    assert "every Friday at 17:30 (Europe/Berlin)" in added.output and "modules megatron,fsdp" in added.output
    listed = prhub(env, "subscriptions", "list")
    assert "C42" in listed.output and "fri 17:30 Europe/Berlin" in listed.output
    removed = prhub(
        env,
        "subscriptions",
        "remove",
        "acme/widgets",
        "--platform",
        "slack",
        "--channel",
        "C42",
        "--workspace",
        "T1",
    )
    assert "Unsubscribed from acme/widgets" in removed.output


def test_an_unknown_repo_without_a_token_is_refused_with_the_reason(env):
    result = prhub(env, "subscriptions", "add", "acme/unknown", "--platform", "feishu", "--channel", "oc_1")
    assert "GITHUB_TOKEN is not configured" in result.output


def test_the_allowlist_applies_to_the_cli(env):
    result = prhub(
        {**env, "PRHUB_ALLOWED_REPOS": "acme/other"},
        "subscriptions",
        "add",
        "acme/widgets",
        "--platform",
        "slack",
        "--channel",
        "C1",
    )
    assert "PRHUB_ALLOWED_REPOS" in result.output


def test_push_dry_run_lists_what_is_due_and_status_shows_it(env):
    prhub(env, "subscriptions", "add", "acme/widgets", "--platform", "slack", "--channel", "C1")
    # subscribed "now" (2026-11-30): the first push is the next Monday's
    due = prhub(env, "push", "--dry-run", "--as-of", "2027-01-04T09:10:00+08:00")
    assert due.exit_code == 0, due.output
    assert "1 pushes due" in due.output and "slack:C1 acme/widgets 2026-W53 (new)" in due.output
    assert "1 pushes due" in prhub(env, "push", "--dry-run", "--as-of", "2027-01-04T09:10:00+08:00").output
    status = prhub(env, "status")
    assert "acme/widgets" in status.output and "next pushes (1 active subscriptions)" in status.output


def test_push_without_a_configured_platform_says_so(env):
    result = prhub(env, "push")
    assert result.exit_code == 1 and "no chat platform is configured" in result.output
