"""One hostile or unstorable PR never stops indexing: `prhub sync` and `prhub import-jsonl` on both
databases, with NUL and other control characters in every text field, and with a PR the database
refuses outright (a trigger), which is recorded in `fetch_failures` while the batch goes on."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from chatbot.store.db import Database, make_engine, open_database
from chatbot.store.index import PRIndex
from chatbot.store.schema import FetchFailureRow, PullRequestRow
from prhub_cli.main import app
from tests.fakes.github import FakeGitHub, comment, make_file, review

REPO = "acme/widgets"
MERGED = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
HOSTILE = [
    "NUL\x00in the middle",
    "bell\x07 and escape \x1b[2J\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07",
    "right-to-left \u202eoverride\u202c and zero\u200bwidth",
    "C1 \x9b31m control and DEL\x7f",
    "lone surrogate \ud800 here",
]
UNSAFE = set("\x00\x07\x1b\u202e\u202c\u200b\x9b\x7f\ud800")


def prhub(env: dict[str, str], *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), env=env)


def hostile(n: int) -> str:
    return HOSTILE[n % len(HOSTILE)]


def seed(github: FakeGitHub, count: int) -> None:
    """`count` PRs, every one with hostile text in its title, body, review, comment, file name and patch."""
    for n in range(1, count + 1):
        at = MERGED + timedelta(hours=n)
        github.add_pull(
            REPO,
            n,
            title=f"[trainer] fix {n}: {hostile(n)}",
            body=f"body {n}\r\n{hostile(n + 1)}",
            merged_at=at,
            files=[make_file(f"src/f{n}\x00.py", 3, 1, patch=f"+x = '{hostile(n)}'")],
            reviews=[review("bob", "APPROVED", f"lgtm {hostile(n + 2)}", at)],
            issue_comments=[comment("carol", f"thanks {hostile(n + 3)}", at)],
        )


def stored_text(db: Database) -> list[str]:
    with db.session() as session:
        index = PRIndex(session)
        repo = index.repo(REPO)
        assert repo is not None
        prs = index.merged_between(repo, MERGED, MERGED + timedelta(days=30))
    texts: list[str] = []
    for pr in prs:
        texts += [pr.title, pr.header.body, pr.header.author]
        texts += [f.filename for f in pr.files] + [r.body for r in pr.reviews] + [c.body for c in pr.comments]
    return texts


def refuse_pr(database_url: str, number: int) -> None:
    """Make the database itself refuse to store PR `number`, as a constraint or encoding error would."""
    open_database(database_url).dispose()
    engine = make_engine(database_url)
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql(
                f"CREATE TRIGGER refuse BEFORE INSERT ON pull_requests WHEN NEW.number = {number} "
                "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
            )
        else:
            connection.exec_driver_sql(
                "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                f"IF NEW.number = {number} THEN RAISE EXCEPTION 'refused by the test'; END IF; "
                "RETURN NEW; END $$ LANGUAGE plpgsql"
            )
            connection.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE INSERT ON pull_requests FOR EACH ROW EXECUTE FUNCTION refuse()"
            )
    engine.dispose()


def failures(database_url: str) -> list[tuple[int, str]]:
    db = open_database(database_url)
    with db.session() as session:
        rows = session.execute(select(FetchFailureRow.number, FetchFailureRow.error)).all()
    db.dispose()
    return [(n, e) for n, e in rows]


def stored_numbers(database_url: str) -> set[int]:
    db = open_database(database_url)
    with db.session() as session:
        numbers = set(session.scalars(select(PullRequestRow.number)))
    db.dispose()
    return numbers


def rest_item(n: int) -> dict[str, Any]:
    at = MERGED + timedelta(hours=n)
    stamp = at.strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "number": n,
        "title": f"[rollout] feat {n}: {hostile(n)}",
        "body": f"why {n}: {hostile(n + 1)}",
        "user": {"login": f"dev\x00{n}"},
        "created_at": stamp,
        "merged_at": stamp,
        "updated_at": stamp,
        "html_url": f"https://github.com/{REPO}/pull/{n}",
        "base": {"ref": "main"},
        "labels": [{"name": f"bug\x1b[31m{n}"}],
        "files": [{"filename": f"verl/x{n}.py", "status": "modified", "additions": 1, "deletions": 0}],
    }


def write_jsonl(path: Path, items: list[dict[str, Any]]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for item in items:
            out.write(json.dumps(item) + "\n")
    return path


def test_sync_stores_every_pr_with_control_characters_cleaned(cli_env, github, database_url):
    seed(github, 154)
    result = prhub(cli_env, "sync", REPO, "--since", "2026-03-01", "--no-analyze")
    assert result.exit_code == 0, result.output
    assert f"{REPO}: 154 new, 0 updated, 0 unchanged, 0 failed" in result.output
    db = open_database(database_url)
    texts = stored_text(db)
    db.dispose()
    assert len(texts) == 154 * 6
    assert not [t for t in texts if UNSAFE & set(t)]
    assert "NULin the middle" in " ".join(texts)
    assert failures(database_url) == []


def test_a_second_sync_of_cleaned_prs_rewrites_nothing(cli_env, github):
    seed(github, 12)
    prhub(cli_env, "sync", REPO, "--since", "2026-03-01", "--no-analyze")
    again = prhub(cli_env, "sync", REPO, "--since", "2026-02-01", "--no-analyze")
    assert again.exit_code == 0, again.output
    assert "0 new, 0 updated, 12 unchanged, 0 failed" in again.output


def test_import_jsonl_stores_every_pr_with_control_characters_cleaned(cli_env, tmp_path, database_url):
    path = write_jsonl(tmp_path / "pulls.jsonl.gz", [rest_item(n) for n in range(1, 155)])
    result = prhub(cli_env, "import-jsonl", str(path), "--repo", REPO)
    assert result.exit_code == 0, result.output
    assert "154 new, 0 updated, 0 unchanged, 0 not merged (skipped), 0 failed" in result.output
    db = open_database(database_url)
    texts = stored_text(db)
    with db.session() as session:
        labels = session.scalars(select(PullRequestRow.labels)).all()
    db.dispose()
    assert not [t for t in texts if UNSAFE & set(t)]
    assert "dev3" in texts
    assert all("\x1b" not in label for row in labels for label in row)


@pytest.mark.parametrize("refused", [1, 69, 154])
def test_sync_records_a_pr_the_database_refuses_and_goes_on(cli_env, github, database_url, refused):
    seed(github, 154)
    refuse_pr(database_url, refused)
    result = prhub(cli_env, "sync", REPO, "--since", "2026-03-01", "--no-analyze")
    assert result.exit_code == 0, result.output
    assert "153 new, 0 updated, 0 unchanged, 1 failed" in result.output
    assert f"#{refused}" in result.output
    assert stored_numbers(database_url) == set(range(1, 155)) - {refused}
    [(number, error)] = failures(database_url)
    assert number == refused
    assert "refused by the test" in error
    assert "INSERT" not in error  # the statement and its parameters (the PR's text) stay out


def test_import_jsonl_records_a_pr_the_database_refuses_and_goes_on(cli_env, tmp_path, database_url):
    refuse_pr(database_url, 69)
    path = write_jsonl(tmp_path / "pulls.jsonl.gz", [rest_item(n) for n in range(1, 155)])
    result = prhub(cli_env, "import-jsonl", str(path), "--repo", REPO)
    assert result.exit_code == 0, result.output
    assert "153 new, 0 updated, 0 unchanged, 0 not merged (skipped), 1 failed" in result.output
    assert "#69" in result.output
    assert stored_numbers(database_url) == set(range(1, 155)) - {69}
    assert [n for n, _ in failures(database_url)] == [69]


def test_the_refused_pr_is_fetched_again_by_the_next_sync(cli_env, github, database_url):
    seed(github, 20)
    refuse_pr(database_url, 7)
    prhub(cli_env, "sync", REPO, "--since", "2026-03-01", "--no-analyze")
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "DROP TRIGGER refuse" + ("" if engine.dialect.name == "sqlite" else " ON pull_requests")
        )
    engine.dispose()
    again = prhub(cli_env, "sync", REPO, "--no-analyze")
    assert again.exit_code == 0, again.output
    assert stored_numbers(database_url) == set(range(1, 21))
    assert failures(database_url) == []


def test_prs_list_prints_no_terminal_escapes_even_from_rows_stored_before_cleaning(
    cli_env, github, database_url
):
    seed(github, 3)
    prhub(cli_env, "sync", REPO, "--since", "2026-03-01", "--no-analyze")
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "UPDATE pull_requests SET title = 'clear \x1b[2J\x1b]8;;https://evil.example/\x07x\x1b]8;;\x07 \u202eevil'"
        )
    engine.dispose()
    listed = prhub(cli_env, "prs", "list", REPO)
    assert listed.exit_code == 0, listed.output
    assert "clear [2J" in listed.output
    assert not {"\x1b", "\x07", "\u202e"} & set(listed.output)
