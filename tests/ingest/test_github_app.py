"""Reading GitHub as a GitHub App: JWTs verified by the fake with the app's public key, installation
tokens minted, refreshed before they expire and re-minted once when GitHub refuses one, the
installation's own rate budget, and the token beside the app for repos it does not cover."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from pydantic import SecretStr

from adapters.github.app import GitHubApp
from adapters.github.source import GitHubSource
from chatbot.config import ConfigError, Settings
from chatbot.ingest.sync import sync_repo
from chatbot.ports import AuthenticationFailed, RepoNotFound
from chatbot.store.index import PRIndex
from tests.fakes.github import FakeGitHub

APP_ID = 9031
ORG_REPO = "acme/widgets"
OTHER_ORG_REPO = "acme/gadgets"
PUBLIC_REPO = "someone/elsewhere"


def _key() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


PRIVATE, PUBLIC = _key()


@pytest.fixture
def app_github(github: FakeGitHub) -> FakeGitHub:
    github.enable_app(APP_ID, PUBLIC)
    github.add_installation(42, "acme", [ORG_REPO, OTHER_ORG_REPO], rate_limit=15_000)
    github.add_installation(43, "solo-dev", ["solo-dev/tool"], target_type="User")
    return github


@pytest.fixture
def app_settings(settings: Settings) -> Settings:
    return settings.model_copy(
        update={
            "github_token": None,
            "github_app_id": str(APP_ID),
            "github_app_private_key": SecretStr(PRIVATE),
        }
    )


def seed(github: FakeGitHub, clock, repo: str, count: int) -> None:  # type: ignore[no-untyped-def]
    for n in range(1, count + 1):
        github.add_pull(repo, n, merged_at=clock.now() - timedelta(hours=n))


def stored(db, repo: str) -> int:  # type: ignore[no-untyped-def]
    with db.session() as session:
        index = PRIndex(session)
        row = index.repo(repo)
        return len(index.stored_updated_at(row)) if row else 0


def test_a_repo_is_synced_with_its_installation_token_and_budget(db, app_github, app_settings, clock):
    seed(app_github, clock, ORG_REPO, 3)
    source = GitHubSource(app_settings)
    report = sync_repo(db, source, ORG_REPO, clock=clock, since=clock.now() - timedelta(days=2))
    assert (report.new, report.failed, report.complete) == (3, 0, True)
    assert stored(db, ORG_REPO) == 3
    repo_calls = [c for c in app_github.calls if c.request.path.startswith(f"/repos/{ORG_REPO}/")]
    tokens = {c.request.headers["authorization"] for c in repo_calls if "installation" not in c.request.path}
    assert tokens == {f"token {app_github.minted[0]}"} and len(app_github.minted) == 1
    jwt_calls = [c for c in app_github.calls if c.request.headers["authorization"].startswith("Bearer ")]
    assert {c.request.path for c in jwt_calls} == {
        f"/repos/{ORG_REPO}/installation",
        "/app/installations/42/access_tokens",
    }
    assert all(c.status < 300 for c in jwt_calls)  # the fake verified each JWT with the public key
    budget = source.budget()
    assert budget.limit == 15_000 and budget.remaining == app_github.installations[42].bucket.remaining
    assert budget.requests_made == report.requests == 1 + 3 * 4
    assert app_github.remaining == app_github.rate_limit  # the user token's budget is untouched


def test_a_token_about_to_expire_is_refreshed_mid_sync(db, app_github, app_settings, clock):
    seed(app_github, clock, ORG_REPO, 4)
    # The first token is minted 5 s from expiry: inside PyGithub's refresh margin, so the very next
    # request mints a new one; the fake would refuse the old one once its time is up.
    app_github.token_lifetimes = [timedelta(seconds=5)]
    report = sync_repo(
        db, GitHubSource(app_settings), ORG_REPO, clock=clock, since=clock.now() - timedelta(days=2)
    )
    assert (report.new, report.failed) == (4, 0)
    assert len(app_github.minted) == 2
    used = [
        c.request.headers["authorization"]
        for c in app_github.calls
        if c.request.path.startswith("/repos/acme/widgets/pulls")
    ]
    assert used[0] == f"token {app_github.minted[0]}" and set(used[1:]) == {f"token {app_github.minted[1]}"}


def test_a_token_github_refuses_is_minted_again_once(db, app_github, app_settings, clock):
    seed(app_github, clock, ORG_REPO, 2)
    source = GitHubSource(app_settings)
    sync_repo(db, source, ORG_REPO, clock=clock, since=clock.now() - timedelta(days=2))
    app_github.expire_tokens()  # revoked, or GitHub's clock ahead of ours: PyGithub still trusts it
    app_github.add_pull(ORG_REPO, 3, merged_at=clock.now())
    report = sync_repo(db, source, ORG_REPO, clock=clock)
    assert (report.new, report.failed, report.complete) == (1, 0, True)
    assert len(app_github.minted) == 2
    refused = [c for c in app_github.calls if c.status == 401]
    assert len(refused) == 1


def test_a_wrong_private_key_is_a_clear_error_that_shows_no_key(db, app_github, app_settings, clock):
    seed(app_github, clock, ORG_REPO, 1)
    other_private, _ = _key()
    wrong = app_settings.model_copy(update={"github_app_private_key": SecretStr(other_private)})
    with pytest.raises(AuthenticationFailed, match="GITHUB_APP_PRIVATE_KEY") as raised:
        sync_repo(db, GitHubSource(wrong), ORG_REPO, clock=clock)
    assert "PRIVATE KEY" not in str(raised.value)
    assert stored(db, ORG_REPO) == 0


def test_a_repo_no_installation_covers_is_read_with_the_token_beside_the_app(
    db, app_github, app_settings, clock
):
    seed(app_github, clock, PUBLIC_REPO, 2)
    seed(app_github, clock, ORG_REPO, 1)
    both = app_settings.model_copy(update={"github_token": SecretStr("test-token")})
    source = GitHubSource(both)
    assert sync_repo(db, source, PUBLIC_REPO, clock=clock, since=clock.now() - timedelta(days=1)).new == 2
    assert sync_repo(db, source, ORG_REPO, clock=clock, since=clock.now() - timedelta(days=1)).new == 1
    by_repo = {
        c.request.headers["authorization"].split()[0]
        + (":app" if "ghs_" in c.request.headers["authorization"] else "")
        for c in app_github.calls
        if c.request.path.startswith(f"/repos/{PUBLIC_REPO}/pulls")
    }
    assert by_repo == {"token"}  # the user token, not an installation's
    with pytest.raises(RepoNotFound, match="not installed"):
        sync_repo(db, GitHubSource(app_settings), PUBLIC_REPO, clock=clock)


def test_an_installation_token_reads_only_its_installations_repos(app_github, app_settings):
    app_github.add_repo(PUBLIC_REPO)
    source = GitHubSource(app_settings)
    assert source.repo_exists(ORG_REPO)
    assert not source.repo_exists(PUBLIC_REPO)  # no installation covers it, and no token beside
    outside = requests.get(
        f"{app_github.url}/repos/{PUBLIC_REPO}",
        headers={"Authorization": f"token {app_github.minted[0]}"},
        timeout=5,
    )
    assert outside.status_code == 404


def test_installations_and_their_repos_are_listed(app_github, app_settings):
    found = GitHubApp(app_settings).installations()
    assert [(i.id, i.account, i.account_type, i.repos) for i in found] == [
        (42, "acme", "Organization", (OTHER_ORG_REPO, ORG_REPO)),
        (43, "solo-dev", "User", ("solo-dev/tool",)),
    ]


# The private key setting ---------------------------------------------------------------------------


def test_the_key_may_be_a_path_or_the_pem_with_escaped_newlines(tmp_path: Path):
    pem_file = tmp_path / "app.pem"
    pem_file.write_text(PRIVATE)
    one_line = PRIVATE.strip().replace("\n", "\\n")
    for value in (str(pem_file), one_line, PRIVATE):
        settings = Settings(_env_file=None, github_app_id=str(APP_ID), github_app_private_key=value)
        assert settings.require_github_app() == (str(APP_ID), PRIVATE.strip() + "\n")
        assert "PRIVATE KEY" not in repr(settings) and settings.github_configured


@pytest.mark.parametrize(
    ("app_id", "key", "message"),
    [
        ("9031", "/nonexistent/app.pem", "cannot read the key file"),
        ("9031", "just-some-text", "cannot read the key file"),
        ("my-app", PRIVATE, "numeric id"),
        ("9031", "changeme", "placeholder"),
    ],
)
def test_a_bad_app_setting_is_one_clear_error(app_id: str, key: str, message: str, tmp_path: Path):
    settings = Settings(_env_file=None, github_app_id=app_id, github_app_private_key=key)
    with pytest.raises(ConfigError, match=message) as raised:
        settings.require_github_app()
    assert "PRIVATE KEY-----\n" not in str(raised.value)


def test_a_file_that_is_not_a_pem_key_is_refused(tmp_path: Path):
    not_pem = tmp_path / "app.pem"
    not_pem.write_text("hello")
    settings = Settings(_env_file=None, github_app_id="1", github_app_private_key=str(not_pem))
    with pytest.raises(ConfigError, match="not a PEM private key"):
        settings.require_github_app()


# `prhub github installations` ----------------------------------------------------------------------


def test_the_cli_lists_installations_with_their_repos_and_what_is_followed(app_github, cli_env, db):
    from typer.testing import CliRunner

    from chatbot.ingest.follow import follow_repos
    from prhub_cli.main import app

    follow_repos(db, [ORG_REPO], 42, datetime.now(UTC))
    env = {**cli_env, "GITHUB_TOKEN": "", "GITHUB_APP_ID": str(APP_ID), "PRHUB_AUTOFOLLOW": "acme"}
    env["GITHUB_APP_PRIVATE_KEY"] = PRIVATE.strip().replace("\n", "\\n")
    result = CliRunner().invoke(app, ["github", "installations"], env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    acme = next(line for line in lines if "acme" in line and "42" in line)
    assert "Organization" in acme and "2 (selected)" in acme and "yes" in acme
    assert f"{ORG_REPO} (followed)" in acme and f"{OTHER_ORG_REPO} (followed)" not in acme
    solo = next(line for line in lines if "solo-dev" in line)
    assert "User" in solo and "no" in solo
    assert "PRIVATE KEY" not in result.output


def test_the_cli_says_how_to_configure_the_app(cli_env):
    from typer.testing import CliRunner

    from prhub_cli.main import app

    result = CliRunner().invoke(app, ["github", "installations"], env=cli_env)
    assert result.exit_code == 1
    assert "GITHUB_APP_ID" in result.output and "docs/github-app.md" in result.output
