"""`prhub slack …`: the workspaces that added the Slack app ("Add to Slack"), and key rotation."""

from __future__ import annotations

import typer

from prhub_cli.common import cli_context, console, fail, open_db, user_errors

slack_app = typer.Typer(help="Slack installed in several workspaces (Add to Slack).", no_args_is_help=True)


@slack_app.command("rotate-key")
def rotate_key(ctx: typer.Context) -> None:
    """Re-encrypt every stored Slack token with the first key of PRHUB_SECRET_KEY. Rotation: put a new
    key first (`NEW,OLD`), run this, then remove OLD."""
    from adapters.slack.installations import EncryptedInstallationStore, token_cipher

    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        if not settings.slack_oauth_configured:
            fail("SLACK_CLIENT_ID is not set: tokens are stored only for Add to Slack (docs/slack.md)")
        store = EncryptedInstallationStore(
            (settings.slack_client_id or "").strip(), open_db(settings).engine, token_cipher(settings)
        )
        rows = store.rotate()
    console.print(f"re-encrypted the tokens of {rows} installation row(s) with the first key")
