"""`prhub risks list|show|resolve|accept|unlink`: the risk ledger from the terminal (the admin's tool,
like `prhub subscriptions`; in chat the same actions need PRHUB_ADMINS)."""

from __future__ import annotations

import getpass
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from chatbot.clock import SystemClock
from chatbot.messages import Language, say
from chatbot.store.ledger import RiskEntryRow
from chatbot.team.chat import as_it_stood
from chatbot.team.ledger import (
    STATES,
    LedgerError,
    close_entry,
    entry_views,
    find_entries,
    in_modules,
    maintain_ledger,
    open_where,
    repo_is,
    unlink,
)
from chatbot.team.views import closed_sentence, link_sentence
from chatbot.weeks import parse_day_or_time
from prhub_cli.common import cli_context, console, fail, open_db, print_table, repo_name, user_errors

risks_app = typer.Typer(help="The risk ledger: risks followed across weeks.", no_args_is_help=True)

By = Annotated[str | None, typer.Option("--by", help="Who decides (recorded in the audit trail).")]
Why = Annotated[str, typer.Option("--why", help="Why (recorded in the audit trail).")]
Repo = Annotated[str | None, typer.Option("--repo", help="OWNER/REPO, to read a PR number in.")]


def _actor(by: str | None) -> str:
    return by or f"cli:{getpass.getuser()}"


def _language(ctx: typer.Context) -> Language:
    return cli_context(ctx).get_settings().language


def _ledger_error(ctx: typer.Context, error: LedgerError) -> None:
    fail(say(error.reason, "en", **error.values))


@risks_app.command("list")
def risks_list(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(help="OWNER/REPO.", callback=repo_name)],
    state: Annotated[
        str, typer.Option(help=f"open (open and followed-up), all, or one of {', '.join(STATES)}.")
    ] = "open",
    module: Annotated[list[str] | None, typer.Option(help="Only risks of PRs in this module.")] = None,
    limit: Annotated[int, typer.Option(min=1, help="At most this many.")] = 50,
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            help="The ledger as it stood then (YYYY-MM-DD or an ISO time): risks raised before it; "
            "with --state open, those still unresolved then.",
        ),
    ] = None,
) -> None:
    """The ledger's entries of a repo, most severe and then oldest first."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        if state not in ("open", "all", *STATES):
            raise typer.BadParameter(f"--state must be open, all or one of {', '.join(STATES)}")
        maintain_ledger(db, SystemClock().now(), repo)
        now = parse_day_or_time(as_of, settings.tz) if as_of else SystemClock().now()
        where: list[Any] = [repo_is(repo)]
        if state == "open":
            where = open_where(repo, as_of=now if as_of else None)
        elif state != "all":
            where.append(RiskEntryRow.state == state)
        if as_of and state != "open":
            where.append(RiskEntryRow.raised_at < now)
        if module:
            where.append(in_modules(module))
        with db.session() as session:
            views = entry_views(session, *where, limit=limit, linked_until=now if as_of else None)
        if as_of:
            views = [as_it_stood(v, now) if v.open_at(now) else v for v in views]
    language = _language(ctx)
    when = f" as of {now:%Y-%m-%d %H:%M}" if as_of else ""
    table = Table(title=f"{len(views)} risks of {repo} ({state}){when}", title_justify="left")
    for column in ("id", "PR", "severity", "category", "state", "age", "where", "risk", "follow-ups"):
        table.add_column(column)
    for view in views:
        table.add_row(
            view.display_key,
            f"#{view.number}",
            view.severity,
            view.category,
            view.state,
            f"{(now - view.raised_at).days}d",
            escape(f"{view.file} {view.symbol}".strip() or "-"),
            escape(view.text(language)),
            escape(", ".join(f"#{link.number} {link.kind}" for link in view.live_links()) or "-"),
        )
    print_table(table)


@risks_app.command("show")
def risks_show(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(help="A risk id (R-…) or a PR number (#6512) with --repo.")],
    repo: Repo = None,
) -> None:
    """One entry (or every entry of a PR): its mechanism, evidence, follow-ups and history."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        maintain_ledger(db, SystemClock().now(), repo)
        language = _language(ctx)
        with db.session() as session:
            try:
                ids = [row.id for row in find_entries(session, repo, ref)]
            except LedgerError as error:
                _ledger_error(ctx, error)
            views = entry_views(session, RiskEntryRow.id.in_(ids))
    for view in views:
        console.print(
            f"[bold]{view.display_key}[/bold] {escape(view.repo)}#{view.number} · {view.severity} · "
            f"{view.category} · {view.state} since {view.state_at:%Y-%m-%d}"
        )
        console.print(f"  {escape(view.text(language))}")
        console.print(
            f"  evidence: {escape(view.evidence or '-')}; where: {escape(view.file or '-')} "
            f"{escape(view.symbol)}"
        )
        for link in view.links:
            undone = " (undone)" if link.undone else ""
            console.print(f"  follow-up: {escape(link_sentence(link, view.number, language))}{undone}")
        closed = closed_sentence(view, language)
        if closed:
            console.print(f"  {escape(closed)}")


def _close(ctx: typer.Context, ref: str, state: str, why: str, by: str | None, repo: str | None) -> None:
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        try:
            rows = close_entry(db, ref, state, _actor(by), why, SystemClock().now(), repo)
        except LedgerError as error:
            _ledger_error(ctx, error)
    console.print(say(f"ledger.done.{state}", "en", keys=", ".join(f"R-{r.key}" for r in rows)))


@risks_app.command("resolve")
def risks_resolve(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(help="A risk id (R-…) or a PR number with --repo.")],
    why: Why,
    by: By = None,
    repo: Repo = None,
) -> None:
    """Mark a risk resolved, with who and why."""
    _close(ctx, ref, "resolved", why, by, repo)


@risks_app.command("accept")
def risks_accept(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(help="A risk id (R-…) or a PR number with --repo.")],
    why: Why,
    by: By = None,
    repo: Repo = None,
) -> None:
    """Accept a risk (不处理): it stays known but is no longer open."""
    _close(ctx, ref, "accepted", why, by, repo)


@risks_app.command("unlink")
def risks_unlink(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(help="A risk id (R-…) or a PR number with --repo.")],
    follow_up: Annotated[int, typer.Argument(help="The follow-up PR wrongly linked.", min=1)],
    why: Why = "",
    by: By = None,
    repo: Repo = None,
) -> None:
    """Undo a wrong follow-up link; it is never made again."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        try:
            rows = unlink(db, ref, follow_up, _actor(by), why, SystemClock().now(), repo)
        except LedgerError as error:
            _ledger_error(ctx, error)
    keys = ", ".join(f"R-{r.key}" for r in rows)
    console.print(say("ledger.done.unlinked", "en", keys=keys, number=follow_up))
