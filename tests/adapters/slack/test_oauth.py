""" "Add to Slack" in several workspaces, for real: bolt's OAuth flow on the bot's web app against the fake
Slack's oauth.v2.access, installations in the database (SQLite and PostgreSQL) with tokens encrypted,
answers and pushes with each workspace's own token, and an uninstall stopping that workspace's pushes."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
import requests
from cryptography.fernet import Fernet
from sqlalchemy import select, text
from typer.testing import CliRunner, Result

from adapters.slack.app import build_slack
from adapters.slack.installations import EncryptedInstallationStore, token_cipher
from adapters.slack.oauth import INSTALL_PATH, REDIRECT_PATH, WorkspacePushSender
from adapters.web.app import BackgroundServer, create_app
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.clock import FixedClock
from chatbot.commands import parse_command
from chatbot.config import ConfigError, Settings
from chatbot.messages import say
from chatbot.models import Message
from chatbot.store.db import Database
from chatbot.store.schema import SubscriptionEventRow, SubscriptionRow
from chatbot.subscriptions.delivery import PushContext, push_due
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService
from prhub_cli.main import app
from prhub_cli.serve import build_service
from tests.adapters.slack.conftest import JSON, SlackHarness, make_bot
from tests.adapters.slack.test_manifest import _list as manifest_list
from tests.fakes.slack import CLIENT_ID, CLIENT_SECRET, SIGNING_SECRET, FakeSlack, mention, signed
from tests.reports.fixtures import seed
from tests.subscriptions.test_delivery import MONDAY_0900, SUBSCRIBED

STATE_COOKIE = "slack-app-oauth-state"


def oauth_settings(fake: FakeSlack, key: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "language": "zh",
        "slack_client_id": CLIENT_ID,
        "slack_client_secret": CLIENT_SECRET,
        "slack_signing_secret": SIGNING_SECRET,
        "secret_key": key,
        "slack_api_url": fake.api_url,
    }
    return Settings(_env_file=None, **(values | overrides))  # type: ignore[call-arg]


@pytest.fixture
def key() -> str:
    return Fernet.generate_key().decode()


@pytest.fixture
def slack(db: Database, key: str) -> Iterator[SlackHarness]:
    seed(db)
    with FakeSlack() as fake:
        assert isinstance(fake, FakeSlack)
        bot = make_bot(db)
        waits = FixedClock(bot.clock.now())
        adapter = build_slack(oauth_settings(fake, key), bot, db, bot.clock, waits=waits, jitter=lambda: 0.0)
        try:
            with BackgroundServer(create_app([adapter.mount])) as server:
                yield SlackHarness(fake, adapter, bot, server.url, waits)
        finally:
            adapter.stop()


def start_install(slack: SlackHarness) -> str:
    """GET /slack/install: the redirect to Slack's consent page; returns its state (also set as cookie)."""
    response = requests.get(slack.url + INSTALL_PATH, allow_redirects=False, timeout=5)
    assert response.status_code == 302
    consent = urlparse(response.headers["Location"])
    query = parse_qs(consent.query)
    assert query["client_id"] == [CLIENT_ID] and "chat:write" in query["scope"][0].split(",")
    [state] = query["state"]
    assert f"{STATE_COOKIE}={state}" in response.headers["Set-Cookie"]
    return state


def finish_install(
    slack: SlackHarness, code: str, state: str, cookie: str | None = None
) -> requests.Response:
    """Slack's redirect back to /slack/oauth_redirect, from the browser that started the install."""
    headers = {"Cookie": f"{STATE_COOKIE}={cookie if cookie is not None else state}"}
    return requests.get(
        slack.url + REDIRECT_PATH, params={"code": code, "state": state}, headers=headers, timeout=5
    )


def install(slack: SlackHarness, team_id: str, name: str) -> str:
    """The whole "Add to Slack" in workspace `team_id`; returns the bot token Slack gave it."""
    state = start_install(slack)
    response = finish_install(slack, slack.fake.consent(team_id, name), state)
    assert response.status_code == 200, response.text
    assert say("slack.install.done", "zh", team=name) in response.text
    return slack.fake.token_of(team_id)


def event_in(team_id: str, event: dict[str, Any], event_id: str) -> str:
    return json.dumps(
        {
            "team_id": team_id,
            "api_app_id": "A1",
            "event": event,
            "type": "event_callback",
            "event_id": event_id,
        }
    )


def post_event(slack: SlackHarness, body: str) -> requests.Response:
    headers = signed(body, content_type=JSON) | {"Connection": "close"}
    return requests.post(slack.url + "/slack/events", data=body.encode(), headers=headers, timeout=5)


def subscribe(db: Database, workspace: str, channel: str) -> None:
    service = SubscriptionService(db, FixedClock(SUBSCRIBED), SubscriptionPolicy("Asia/Shanghai"))
    command = parse_command("订阅 acme/widgets")
    assert command is not None
    message = Message("订阅 acme/widgets", platform="slack", channel=channel, workspace=workspace, user="U1")
    service.execute(command, message, "zh")


def store(db: Database, key: str) -> EncryptedInstallationStore:
    return EncryptedInstallationStore(
        CLIENT_ID, db.engine, token_cipher(Settings(_env_file=None, secret_key=key))
    )  # type: ignore[call-arg]


# The OAuth round trip -----------------------------------------------------------------------------------


def test_an_install_stores_the_workspace_token_encrypted_never_in_clear(slack, db, key):
    token = install(slack, "TB", "Beta")
    with db.engine.connect() as conn:
        raw = [
            str(value)
            for table in ("slack_installations", "slack_bots")
            for row in conn.execute(text(f"SELECT * FROM {table}"))
            for value in row
        ]
    assert raw and not any(token in value or "secret" in value for value in raw)
    assert store(db, key).bot_token("TB") == token
    [exchange] = slack.fake.called("oauth.v2.access", ok=True)
    assert exchange.params["code"].startswith("code-TB-")


def test_no_token_or_secret_reaches_the_log_even_at_debug(slack, caplog):
    caplog.set_level(logging.DEBUG)
    token = install(slack, "TB", "Beta")
    post_event(slack, event_in("TB", mention("本周有哪些 PR？", channel="CB"), "EvB"))
    slack.drain()
    assert "installed in workspace TB" in caplog.text
    assert token not in caplog.text and CLIENT_SECRET not in caplog.text


def test_a_replayed_state_is_refused_and_the_code_not_spent(slack, db, key):
    state = start_install(slack)
    assert finish_install(slack, slack.fake.consent("TA", "Alpha"), state).status_code == 200
    replay = finish_install(slack, slack.fake.consent("TB", "Beta"), state)
    assert replay.status_code == 401
    assert say("slack.install.failed", "zh", reason="invalid_state", url=INSTALL_PATH) in replay.text
    assert len(slack.fake.called("oauth.v2.access")) == 1
    assert store(db, key).bot_token("TB") is None


@pytest.mark.parametrize(
    ("state", "cookie", "status", "reason"),
    [
        ("made-up-state", None, 401, "invalid_state"),  # never issued, cookie matching
        ("", "", 401, "invalid_state"),  # an empty state
        (None, "another-browser", 400, "invalid_browser"),  # issued, but to another browser
    ],
)
def test_a_redirect_without_its_issued_state_is_refused(slack, db, key, state, cookie, status, reason):
    issued = start_install(slack)
    response = finish_install(
        slack, slack.fake.consent("TB", "Beta"), state if state is not None else issued, cookie
    )
    assert response.status_code == status
    assert say("slack.install.failed", "zh", reason=reason, url=INSTALL_PATH) in response.text
    assert slack.fake.called("oauth.v2.access") == []
    assert store(db, key).bot_token("TB") is None


def test_a_code_slack_refuses_is_a_failed_install(slack, db, key):
    response = finish_install(slack, "code-never-issued", start_install(slack))
    assert response.status_code == 401
    assert say("slack.install.failed", "zh", reason="invalid_code", url=INSTALL_PATH) in response.text
    assert store(db, key).bot_token("TX") is None


# Answers and pushes with each workspace's token ----------------------------------------------------------


def test_each_workspace_is_answered_with_its_own_token(slack):
    token_a, token_b = install(slack, "TA", "Alpha"), install(slack, "TB", "Beta")
    assert (
        post_event(slack, event_in("TB", mention("本周有哪些 PR？", channel="CB"), "EvB")).status_code == 200
    )
    assert (
        post_event(slack, event_in("TA", mention("本周有哪些 PR？", channel="CA"), "EvA")).status_code == 200
    )
    slack.drain()
    posts = {c.params["channel"]: c.token for c in slack.fake.called("chat.postMessage", ok=True)}
    assert posts == {"CB": token_b, "CA": token_a}
    assert all(c.token in (token_a, token_b) for c in slack.fake.called() if c.method != "oauth.v2.access")


def test_a_workspaces_token_is_checked_with_auth_test_once_not_per_event(slack):
    token = install(slack, "TB", "Beta")
    for n in range(3):
        post_event(slack, event_in("TB", mention(f"第 {n} 个问题：本周有哪些 PR？", channel="CB"), f"Ev{n}"))
    slack.drain()
    assert len(slack.fake.called("chat.postMessage", ok=True)) >= 3
    checks = [c for c in slack.fake.called("auth.test") if c.token == token]
    assert len(checks) == 2  # one by the install (for the bot id), one by the first event


def test_a_workspace_that_never_installed_gets_no_answer(slack):
    install(slack, "TA", "Alpha")
    response = post_event(slack, event_in("TZ", mention("本周有哪些 PR？", channel="CZ"), "EvZ"))
    slack.drain()
    assert response.status_code != 200 or slack.fake.called("chat.postMessage") == []
    assert slack.fake.called("chat.postMessage") == []


def test_a_push_uses_the_token_of_its_subscriptions_workspace(slack, db):
    token_a, token_b = install(slack, "TA", "Alpha"), install(slack, "TB", "Beta")
    subscribe(db, "TA", "CA")
    subscribe(db, "TB", "CB")
    at = MONDAY_0900 + timedelta(minutes=5)
    context = PushContext({"slack": slack.adapter.push_sender()}, HeuristicAnalyzer().analyze)
    assert push_due(db, FixedClock(at), context, worker="w").sent == 2
    posts = {c.params["channel"]: c.token for c in slack.fake.called("chat.postMessage", ok=True)}
    assert posts == {"CA": token_a, "CB": token_b}


def test_a_push_to_a_workspace_not_installed_yet_waits_instead_of_deactivating(slack, db):
    install(slack, "TA", "Alpha")
    subscribe(db, "TB", "CB")  # e.g. subscribed under SLACK_BOT_TOKEN, before the switch to Add to Slack
    context = PushContext({"slack": slack.adapter.push_sender()}, HeuristicAnalyzer().analyze)
    report = push_due(db, FixedClock(MONDAY_0900 + timedelta(minutes=5)), context, worker="w")
    assert (report.sent, report.gone) == (0, 0)
    assert slack.fake.called("chat.postMessage") == []
    with db.session() as session:
        assert session.scalar(select(SubscriptionRow.active)) is True


# Uninstall ----------------------------------------------------------------------------------------------


def test_an_uninstall_deactivates_that_workspaces_subscriptions_with_an_audit_entry(slack, db, key):
    token_a = install(slack, "TA", "Alpha")
    install(slack, "TB", "Beta")
    subscribe(db, "TA", "CA")
    subscribe(db, "TB", "CB1")
    subscribe(db, "TB", "CB2")
    slack.fake.uninstall("TB")
    uninstalled = event_in("TB", {"type": "app_uninstalled", "event_ts": "1750000300.1"}, "EvU")
    assert post_event(slack, uninstalled).status_code == 200
    assert post_event(slack, uninstalled).status_code == 200  # a retry changes nothing more
    with db.session() as session:
        active = dict(session.execute(select(SubscriptionRow.channel, SubscriptionRow.active)).all())
        audit = session.execute(
            select(SubscriptionEventRow.channel, SubscriptionEventRow.detail).where(
                SubscriptionEventRow.action == "deactivated"
            )
        ).all()
    assert active == {"CA": True, "CB1": False, "CB2": False}
    assert sorted(audit) == [
        ("CB1", {"reason": "app_uninstalled", "workspace": "TB"}),
        ("CB2", {"reason": "app_uninstalled", "workspace": "TB"}),
    ]
    assert store(db, key).bot_token("TB") is None
    context = PushContext({"slack": slack.adapter.push_sender()}, HeuristicAnalyzer().analyze)
    assert push_due(db, FixedClock(MONDAY_0900 + timedelta(minutes=5)), context, worker="w").sent == 1
    assert [(c.params["channel"], c.token) for c in slack.fake.called("chat.postMessage")] == [
        ("CA", token_a)
    ]


def test_a_revoked_bot_token_deactivates_too(slack, db, key):
    install(slack, "TB", "Beta")
    subscribe(db, "TB", "CB")
    slack.fake.uninstall("TB")
    revoked = event_in("TB", {"type": "tokens_revoked", "tokens": {"bot": ["UBOT"]}}, "EvR")
    assert post_event(slack, revoked).status_code == 200
    with db.session() as session:
        assert session.scalar(select(SubscriptionRow.active)) is False
        assert session.scalar(
            select(SubscriptionEventRow.detail).where(SubscriptionEventRow.action == "deactivated")
        ) == {
            "reason": "tokens_revoked",
            "workspace": "TB",
        }
    assert store(db, key).bot_token("TB") is None


def test_the_default_scopes_are_the_manifests():
    assert sorted(Settings(_env_file=None).slack_scope_list) == sorted(manifest_list("bot"))  # type: ignore[call-arg]


# Keys -----------------------------------------------------------------------------------------------------


def rotate_key(db: Database, keys: str) -> Result:
    env = {
        "PRHUB_DATABASE_URL": db.engine.url.render_as_string(hide_password=False),
        "SLACK_CLIENT_ID": CLIENT_ID,
        "PRHUB_SECRET_KEY": keys,
    }
    return CliRunner().invoke(app, ["slack", "rotate-key"], env=env)


def test_a_new_key_put_first_reads_old_tokens_and_rotate_key_rewrites_them(slack, db, key):
    token = install(slack, "TB", "Beta")
    new = Fernet.generate_key().decode()
    assert store(db, f"{new},{key}").bot_token("TB") == token
    result = rotate_key(db, f"{new},{key}")
    assert result.exit_code == 0, result.output
    assert "2 installation row(s)" in result.output  # the installation row and the bot row
    assert store(db, new).bot_token("TB") == token
    assert store(db, key).bot_token("TB") is None  # the old key alone no longer reads it


def test_rotate_key_without_the_old_key_says_so_and_changes_nothing(slack, db, key):
    token = install(slack, "TB", "Beta")
    result = rotate_key(db, Fernet.generate_key().decode())
    assert result.exit_code != 0 and "cannot be decrypted" in result.output
    assert store(db, key).bot_token("TB") == token


@pytest.mark.parametrize("value", [None, "changeme", "not-a-fernet-key"])
def test_a_missing_or_malformed_secret_key_stops_start_up_without_echoing_it(db, value):
    with FakeSlack() as fake:
        settings = oauth_settings(fake, value)
        with pytest.raises(ConfigError, match="PRHUB_SECRET_KEY") as error:
            build_slack(settings, make_bot(db), db, FixedClock(MONDAY_0900))
    assert value is None or value not in str(error.value)


def test_serve_mounts_add_to_slack_and_pushes_per_workspace_when_a_client_id_is_set(db, key):
    with FakeSlack() as fake:
        service = build_service(oauth_settings(fake, key), db, "web")
        try:
            assert "Slack Add to Slack at /slack/install (several workspaces)" in service.on
            assert isinstance(service.senders["slack"], WorkspacePushSender)
            with BackgroundServer(create_app(service.mounts)) as server:
                consent = requests.get(server.url + INSTALL_PATH, allow_redirects=False, timeout=5)
            assert consent.status_code == 302 and CLIENT_ID in consent.headers["Location"]
        finally:
            service.stop()
