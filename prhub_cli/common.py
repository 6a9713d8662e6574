"""What every `prhub` command shares: the consoles, settings from the context, one-line errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from sqlalchemy.exc import SQLAlchemyError

from chatbot.config import ConfigError, Settings, load_settings
from chatbot.ports import SourceError
from chatbot.reports.weekly import UnknownRepo
from chatbot.repos import is_repo_name
from chatbot.store.db import Database, open_database

console = Console()
err_console = Console(stderr=True)
# Off a terminal (a pipe, a file, a CI log) lines are never broken by us: a break inside an identifier,
# a URL or a command corrupts it for whoever copies it; log viewers wrap long lines themselves.
for _console in (console, err_console):
    _console.soft_wrap = not _console.is_terminal

UNWRAPPED = 100_000  # columns: wider than any line we print
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


def print_table(table: Table) -> None:
    """A table on stdout: fitted to a terminal; anywhere else as wide as its content, so no cell is
    folded inside a title, a name or a URL (a log viewer wraps long lines itself)."""
    if console.is_terminal:
        console.print(table)
    else:
        Console(width=UNWRAPPED, color_system=None, soft_wrap=True).print(table)


def cli_context(ctx: typer.Context) -> Context:
    obj = ctx.find_root().obj
    assert isinstance(obj, Context)
    return obj


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    err_console.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(code)


@contextmanager
def user_errors(ctx: typer.Context) -> Iterator[None]:
    """Turn expected failures into one line on stderr (or a traceback with --verbose)."""
    try:
        yield
    except (ConfigError, SourceError, ValueError, LookupError, OSError, SQLAlchemyError) as exc:
        if cli_context(ctx).verbose:
            err_console.print_exception()
        message = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        if isinstance(exc, UnknownRepo):
            known = ", ".join(exc.known) or "none yet"
            message = f"{exc.repo} is not in the index (indexed: {known}); run `prhub sync {exc.repo}` first"
        if isinstance(exc, SQLAlchemyError):
            message = f"database error: {message}"
        fail(message)


def repo_name(value: str) -> str:
    value = value.strip().removeprefix("https://github.com/").strip("/")
    if not is_repo_name(value):
        raise typer.BadParameter(f"expected OWNER/REPO, got {value!r}")
    return value.lower()


def open_db(settings: Settings) -> Database:
    return open_database(settings.database_url)
