"""`prhub github …`: the GitHub App's installations, as GitHub reports them."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from chatbot.ingest.follow import followed_repos
from prhub_cli.common import cli_context, console, fail, open_db, print_table, user_errors

github_app = typer.Typer(help="The GitHub App: installations and the repos they grant.", no_args_is_help=True)


@github_app.command("installations")
def installations(
    ctx: typer.Context,
    repos: Annotated[bool, typer.Option(help="List every repo of each installation.")] = True,
) -> None:
    """List the app's installations (GITHUB_APP_ID + GITHUB_APP_PRIVATE_KEY) and their repos; `followed`
    marks repos prhub syncs because their account is in PRHUB_AUTOFOLLOW."""
    from adapters.github.app import GitHubApp

    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        if not settings.github_app_configured:
            fail(
                "no GitHub App is configured: set GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY (docs/github-app.md)"
            )
        found = GitHubApp(settings).installations()
        followed = set(followed_repos(open_db(settings)))
    if not found:
        console.print("The app has no installations yet: install it on an organisation or account first.")
        return
    autofollow = settings.autofollow_accounts
    table = Table(
        title=f"GitHub App {settings.github_app_id}: {len(found)} installations", title_justify="left"
    )
    for column in ("id", "account", "type", "repos", "autofollow"):
        table.add_column(column, justify="right" if column == "id" else "left")
    if repos:
        table.add_column("repositories", overflow="fold")
    for inst in found:
        row = [
            str(inst.id),
            escape(inst.account),
            inst.account_type,
            f"{len(inst.repos)} ({inst.selection})",
            "yes" if inst.account.lower() in autofollow else "no",
        ]
        if repos:
            row.append(
                escape(", ".join(f"{r} (followed)" if r in followed else r for r in inst.repos) or "none")
            )
        table.add_row(*row)
    print_table(table)
