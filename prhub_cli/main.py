"""`prhub` subcommands. Each builds what it needs from the settings and calls into the core."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Annotated, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from sqlalchemy.exc import SQLAlchemyError

from adapters.github.jsonl import read_pull_requests
from adapters.github.source import GitHubSource
from chatbot.clock import SystemClock
from chatbot.config import ConfigError, Settings, load_settings
from chatbot.ingest.importer import import_pull_requests
from chatbot.ingest.sync import SyncProgress, sync_repo
from chatbot.ports import SourceError
from chatbot.store.db import Database, current_revision, make_engine, open_database, upgrade
from chatbot.store.index import PRIndex
from chatbot.weeks import Week, parse_day_or_time, parse_week

app = typer.Typer(
    name="prhub",
    help="prhub: an index of merged GitHub pull requests, and a chat bot that answers questions about it.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
prs_app = typer.Typer(help="Look at the pull requests stored in the index.", no_args_is_help=True)
db_app = typer.Typer(help="Manage the database schema.", no_args_is_help=True)
app.add_typer(prs_app, name="prs")
app.add_typer(db_app, name="db")

console = Console()
err_console = Console(stderr=True)
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
T = TypeVar("T")

EXIT_ERROR = 1
EXIT_STOPPED = 3  # the sync stopped early (rate limit); rerun later to continue


@dataclass
class Context:
    verbose: bool
    settings: Settings | None = None

    def get_settings(self) -> Settings:
        if self.settings is None:
            self.settings = load_settings()
        return self.settings


def _ctx(ctx: typer.Context) -> Context:
    obj = ctx.find_root().obj
    assert isinstance(obj, Context)
    return obj


@app.callback()
def main(
    ctx: typer.Context,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show full tracebacks on errors.")] = False,
) -> None:
    ctx.obj = Context(verbose=verbose)


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    err_console.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(code)


@contextmanager
def user_errors(ctx: typer.Context) -> Iterator[None]:
    """Turn expected failures into one line on stderr (or a traceback with --verbose)."""
    try:
        yield
    except (ConfigError, SourceError, ValueError, OSError, SQLAlchemyError) as exc:
        if _ctx(ctx).verbose:
            err_console.print_exception()
        message = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        if isinstance(exc, SQLAlchemyError):
            message = f"database error: {message}"
        fail(message)


def _repo_name(value: str) -> str:
    value = value.strip().removeprefix("https://github.com/").strip("/")
    if not _REPO.match(value):
        raise typer.BadParameter(f"expected OWNER/REPO, got {value!r}")
    return value.lower()


def _open(settings: Settings) -> Database:
    return open_database(settings.database_url)


@app.command()
def sync(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(help="OWNER/REPO, e.g. verl-project/verl.", callback=_repo_name)],
    since: Annotated[
        str | None,
        typer.Option(
            help="Fetch every PR merged since this date (YYYY-MM-DD). Default: continue from the "
            "last sync, or the last PRHUB_SYNC_DEFAULT_WEEKS weeks for a new repo."
        ),
    ] = None,
    max_wait: Annotated[
        int | None,
        typer.Option(
            "--max-wait",
            help="Longest wait (s) for a rate-limit reset before stopping cleanly. "
            "Default: PRHUB_SYNC_MAX_WAIT.",
        ),
    ] = None,
) -> None:
    """Fetch merged PRs of a repo from GitHub into the index (incremental; cheap to rerun)."""
    with user_errors(ctx):
        settings = _ctx(ctx).get_settings()
        since_at = parse_day_or_time(since, settings.tz) if since else None
        source = GitHubSource(settings)
        db = _open(settings)
        clock = SystemClock()
        with _sync_progress() as show:
            report = sync_repo(
                db,
                source,
                repo,
                clock=clock,
                since=since_at,
                backfill=timedelta(weeks=settings.sync_default_weeks),
                max_wait=settings.sync_max_wait if max_wait is None else max_wait,
                on_progress=show,
            )
    summary = (
        f"{repo}: {report.new} new, {report.updated} updated, {report.unchanged} unchanged, "
        f"{report.failed} failed; {report.requests} requests"
    )
    if report.not_modified:
        summary += " (nothing changed on GitHub since the last sync)"
    console.print(summary)
    for number, error in report.failures[:10]:
        err_console.print(f"  [yellow]#{number}[/yellow] {escape(error)} (retried on the next sync)")
    if not report.complete:
        when = (
            report.retry_at.astimezone(settings.tz).strftime("%Y-%m-%d %H:%M %Z")
            if report.retry_at
            else "later"
        )
        fail(
            f"stopped early: {report.stopped}; what was fetched is stored. Run the same command again after "
            f"{when} to continue.",
            EXIT_STOPPED,
        )


@contextmanager
def _sync_progress() -> Iterator[Callable[[SyncProgress], None]]:
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("requests {task.fields[requests]}  rate limit left {task.fields[remaining]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err_console, transient=False) as progress:
        task = progress.add_task("listing PRs", total=None, requests=0, remaining="?")

        def show(p: SyncProgress) -> None:
            remaining = "?" if p.remaining is None else p.remaining
            description = {
                "listing": f"listing PRs ({p.done} to fetch)",
                "fetching": "fetching PRs",
                "retrying": "retrying failed PRs",
                "waiting": f"rate limit reached, waiting {p.wait_seconds:.0f}s",
                "stopped": "stopped",
                "done": "done",
            }.get(p.phase, p.phase)
            completed = p.done if p.phase in ("fetching", "retrying") else None
            progress.update(
                task,
                description=description,
                total=p.total,
                requests=p.requests,
                remaining=remaining,
                **({"completed": completed} if completed is not None else {}),
            )

        yield show


@app.command("import-jsonl")
def import_jsonl(
    ctx: typer.Context,
    file: Annotated[
        Path,
        typer.Argument(
            help="JSON-lines file of GitHub REST pull request objects (.gz ok).",
            exists=True,
            dir_okay=False,
            readable=True,
        ),
    ],
    repo: Annotated[str, typer.Option(help="OWNER/REPO the PRs belong to.", callback=_repo_name)],
) -> None:
    """Load PRs from a JSON-lines export through the same upsert path as `sync`."""
    with user_errors(ctx):
        settings = _ctx(ctx).get_settings()
        db = _open(settings)
        with Progress(
            SpinnerColumn(),
            TextColumn("importing {task.completed} PRs"),
            TimeElapsedColumn(),
            console=err_console,
        ) as progress:
            task = progress.add_task("import", total=None)
            report = import_pull_requests(
                db,
                repo,
                read_pull_requests(file, repo),
                clock=SystemClock(),
                on_progress=lambda n: progress.update(task, completed=n),
            )
    console.print(
        f"{repo}: {report.new} new, {report.updated} updated, {report.unchanged} unchanged, "
        f"{report.skipped} not merged (skipped), {report.failed} failed"
    )
    for error in report.errors[:10]:
        err_console.print(f"  [yellow]{escape(error)}[/yellow]")
    if report.failed and not (report.new or report.updated or report.unchanged):
        fail("no line of the file could be read as a pull request")


@prs_app.command("list")
def prs_list(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(help="OWNER/REPO.", callback=_repo_name)],
    week: Annotated[str | None, typer.Option(help="ISO week, e.g. 2026-W25 (in PRHUB_TIMEZONE).")] = None,
    limit: Annotated[int, typer.Option(help="Show at most this many (newest first).", min=1)] = 50,
) -> None:
    """List stored PRs of a repo, by merge time."""
    with user_errors(ctx):
        settings = _ctx(ctx).get_settings()
        db = _open(settings)
        with db.session() as session:
            index = PRIndex(session)
            repo_row = index.repo(repo)
            if repo_row is None:
                known = ", ".join(r.full_name for r in index.repos()) or "none yet"
                fail(f"{repo} is not in the index (indexed: {known}); run `prhub sync {repo}` first")
            span = parse_week(week, settings.tz) if week else None
            if span is None:
                prs = index.latest_merged(repo_row, limit)
                title = f"{repo}: the {len(prs)} most recently merged PRs"
            else:
                prs = index.merged_between(repo_row, span.start, span.end)
                title = f"{repo}, {span.label} ({_span_text(span)}): {len(prs)} PRs merged"
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("merged")
    table.add_column("author")
    table.add_column("title", overflow="fold")
    table.add_column("+/-", justify="right")
    table.add_column("files", justify="right")
    for pr in prs:
        merged = (
            pr.header.merged_at.astimezone(settings.tz).strftime("%Y-%m-%d %H:%M")
            if pr.header.merged_at
            else ""
        )
        table.add_row(
            str(pr.number),
            merged,
            escape(pr.header.author),
            escape(pr.title),
            f"+{pr.additions}/-{pr.deletions}",
            str(pr.changed_files),
        )
    console.print(table)


def _span_text(week: Week) -> str:
    return f"{week.start:%m-%d} to {(week.end - timedelta(days=1)):%m-%d}"


@db_app.command("upgrade")
def db_upgrade(ctx: typer.Context) -> None:
    """Create or migrate the database to the newest schema."""
    with user_errors(ctx):
        settings = _ctx(ctx).get_settings()
        engine = make_engine(settings.database_url)
        before = current_revision(engine)
        upgrade(engine)
        after = current_revision(engine)
    console.print(
        f"database at revision {after}" + ("" if before == after else f" (was {before or 'empty'})")
    )


def run() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
