"""`prhub` subcommands. Each builds what it needs from the settings and calls into the core."""

from __future__ import annotations

import importlib
import json
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from typer.core import TyperGroup

from adapters.console.render import render_console
from chatbot.cards import pr_card
from chatbot.clock import FixedClock, SystemClock
from chatbot.config import Settings
from chatbot.models import Message
from chatbot.ports import Clock
from chatbot.qa.compose import Answer
from chatbot.reports.cards import ReportLinks, report_document
from chatbot.reports.model import WeeklyReport
from chatbot.store.analyses import current_analysis, window_tokens
from chatbot.store.db import Database, current_revision, make_engine, upgrade
from chatbot.store.index import PRIndex, to_pull_request
from chatbot.untrusted import clean_text
from chatbot.weeks import Week, last_complete_week, parse_day_or_time, parse_week
from prhub_cli.common import (
    EXIT_STOPPED,
    Context,
    cli_context,
    console,
    err_console,
    fail,
    open_db,
    print_table,
    repo_name,
    user_errors,
)
from prhub_cli.wiring import AnalyzerSetup, build_report, heuristic, make_analyzer, make_bot, render_report

if TYPE_CHECKING:
    from chatbot.analysis.runner import AnalyzeReport
    from chatbot.ingest.sync import SyncProgress

# Commands and groups of commands defined in other modules, by name: imported only when one of them runs
# (or `prhub --help` lists them), so `prhub ask` does not import what `serve`, `push` or `subscriptions`
# need. Listed after the commands and groups of this module, as they were written.
COMMANDS_ELSEWHERE = {
    "push": "prhub_cli.admin:push",
    "status": "prhub_cli.admin:status",
    "serve": "prhub_cli.serve:serve",
    "calibrate": "prhub_cli.feedback:calibrate",
}
GROUPS_ELSEWHERE = {
    "subscriptions": "prhub_cli.admin:subscriptions_app",
    "github": "prhub_cli.github:github_app",
    "slack": "prhub_cli.slack:slack_app",
    "risks": "prhub_cli.risks:risks_app",
    "feedback": "prhub_cli.feedback:feedback_app",
}


class _Commands(TyperGroup):
    """The root command: its own commands, and those defined elsewhere imported on first use."""

    def list_commands(self, ctx: typer.Context) -> list[str]:
        elsewhere = COMMANDS_ELSEWHERE | GROUPS_ELSEWHERE
        own = [name for name in super().list_commands(ctx) if name not in elsewhere]
        commands = [name for name in own if not isinstance(self.commands[name], TyperGroup)]
        groups = [name for name in own if isinstance(self.commands[name], TyperGroup)]
        return [*commands, *COMMANDS_ELSEWHERE, *groups, *GROUPS_ELSEWHERE]

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:
        where = COMMANDS_ELSEWHERE.get(cmd_name) or GROUPS_ELSEWHERE.get(cmd_name)
        if where is not None and cmd_name not in self.commands:
            module, attribute = where.split(":")
            target = getattr(importlib.import_module(module), attribute)
            if isinstance(target, typer.Typer):
                command = typer.main.get_group(target)
            else:
                single = typer.Typer(add_completion=False)
                single.command(cmd_name)(target)
                command = typer.main.get_command(single)
            command.name = cmd_name
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


app = typer.Typer(
    cls=_Commands,
    name="prhub",
    help="prhub: an index of merged GitHub pull requests, and a chat bot that answers questions about it.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
prs_app = typer.Typer(help="Look at the pull requests stored in the index.", no_args_is_help=True)
pr_app = typer.Typer(help="Look at one pull request and its analysis.", no_args_is_help=True)
db_app = typer.Typer(help="Manage the database schema.", no_args_is_help=True)
app.add_typer(prs_app, name="prs")
app.add_typer(pr_app, name="pr")
app.add_typer(db_app, name="db")


@app.callback()
def main(
    ctx: typer.Context,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show full tracebacks on errors.")] = False,
) -> None:
    ctx.obj = Context(verbose=verbose)


@app.command()
def sync(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(help="OWNER/REPO, e.g. verl-project/verl.", callback=repo_name)],
    since: Annotated[
        str | None,
        typer.Option(
            help="Fetch every PR merged since this date (YYYY-MM-DD). Default: continue from the "
            "last sync, or the last PRHUB_SYNC_DEFAULT_WEEKS weeks for a new repo."
        ),
    ] = None,
    analyze: Annotated[
        bool, typer.Option(help="Analyse the new and changed PRs after storing them (PRHUB_ANALYZER).")
    ] = True,
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
    # Imported here, not at the top: `prhub ask` and `prhub chat` should not pay for what they never run.
    from adapters.github.source import GitHubSource
    from chatbot.ingest.sync import sync_repo

    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        since_at = parse_day_or_time(since, settings.tz) if since else None
        source = GitHubSource(settings)
        db = open_db(settings)
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
    if report.graphql_points:
        summary += f", {report.graphql_points} GraphQL points"
    if report.not_modified:
        summary += " (nothing changed on GitHub since the last sync)"
    console.print(summary)
    for number, error in report.failures[:10]:
        err_console.print(f"  [yellow]#{number}[/yellow] {escape(error)} (retried on the next sync)")
    if analyze and (report.complete or report.new or report.updated):
        with user_errors(ctx):
            setup = make_analyzer(settings)
            _print_analysis(_run_analysis(settings, db, setup, repo, None), setup, dry_run=False)
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
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

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
    repo: Annotated[str, typer.Option(help="OWNER/REPO the PRs belong to.", callback=repo_name)],
) -> None:
    """Load PRs from a JSON-lines export through the same upsert path as `sync`."""
    # Imported here, not at the top: `prhub ask` and `prhub chat` should not pay for what they never run.
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from adapters.github.jsonl import read_pull_requests
    from chatbot.ingest.importer import import_pull_requests

    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
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
    repo: Annotated[str, typer.Argument(help="OWNER/REPO.", callback=repo_name)],
    week: Annotated[str | None, typer.Option(help="ISO week, e.g. 2026-W25 (in PRHUB_TIMEZONE).")] = None,
    limit: Annotated[int, typer.Option(help="Show at most this many (newest first).", min=1)] = 50,
) -> None:
    """List stored PRs of a repo, by merge time."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
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
    table.add_column(f"merged ({settings.tz.key})")
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
            escape(clean_text(pr.header.author)),  # rows stored before ingest cleaned text
            escape(clean_text(pr.title)),
            f"+{pr.additions}/-{pr.deletions}",
            str(pr.changed_files),
        )
    print_table(table)


def _span_text(week: Week) -> str:
    return f"{week.start:%m-%d} to {(week.end - timedelta(days=1)):%m-%d}"


@app.command()
def analyze(
    ctx: typer.Context,
    repo: Annotated[str | None, typer.Argument(help="OWNER/REPO; default: every indexed repo.")] = None,
    since: Annotated[str | None, typer.Option(help="Only PRs merged since this date (YYYY-MM-DD).")] = None,
    reanalyze: Annotated[
        bool, typer.Option(help="Analyse again even when a current analysis exists.")
    ] = False,
    analyzer: Annotated[
        str | None,
        typer.Option(help="heuristic or llm. Default: PRHUB_ANALYZER (auto = llm when configured)."),
    ] = None,
    dry_run: Annotated[bool, typer.Option(help="Estimate the LLM tokens and cost; analyse nothing.")] = False,
) -> None:
    """(Re)analyse stored PRs; unchanged PRs already analysed are skipped (cached)."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        name = repo_name(repo) if repo else None
        setup = make_analyzer(settings, analyzer)
        if dry_run and setup.estimate is None:
            fail("--dry-run estimates LLM tokens; the heuristic analyzer costs nothing")
        db = open_db(settings)
        report = _run_analysis(
            settings,
            db,
            setup,
            name,
            parse_day_or_time(since, settings.tz) if since else None,
            reanalyze=reanalyze,
            dry_run=dry_run,
        )
    _print_analysis(report, setup, dry_run)


def _run_analysis(
    settings: Settings,
    db: Database,
    setup: AnalyzerSetup,
    repo: str | None,
    since: datetime | None,
    *,
    reanalyze: bool = False,
    dry_run: bool = False,
) -> AnalyzeReport:
    # Imported here, not at the top: `prhub ask` and `prhub chat` should not pay for what they never run.
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from chatbot.analysis.runner import analyze_stored

    with Progress(
        SpinnerColumn(),
        TextColumn("analysing ({task.fields[analyzer]})"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
    ) as progress:
        task = progress.add_task("analyse", total=None, analyzer=setup.analyzer.name)
        return analyze_stored(
            db,
            setup.analyzer,
            language=settings.language,
            clock=SystemClock(),
            repo=repo,
            since=since,
            reanalyze=reanalyze,
            concurrency=setup.concurrency,
            estimate=setup.estimate if dry_run else None,
            on_progress=lambda done, total: progress.update(task, completed=done, total=total),
        )


def _print_analysis(report: AnalyzeReport, setup: AnalyzerSetup, dry_run: bool) -> None:
    price_in, price_out = setup.price_per_token
    if dry_run:
        console.print(
            f"{report.to_analyze} PRs to analyse ({report.cached} cached): about "
            f"{report.estimated_tokens:,} prompt tokens, ≈ ${report.estimated_tokens * price_in:.2f} "
            "before output tokens"
        )
        return
    line = (
        f"analyzed {report.analyzed}, cached {report.cached}, fell back {report.fell_back}, "
        f"failed {report.failed}"
    )
    if setup.estimate is not None:
        cost = report.prompt_tokens * price_in + report.completion_tokens * price_out
        line += (
            f"; tokens {report.prompt_tokens:,} in / {report.completion_tokens:,} out, "
            f"estimated cost ${cost:.2f}"
        )
        requested = report.analyzed + report.fell_back
        if requested:
            line += f" (≈ ${cost / requested:.4f} per PR)"
    console.print(line)
    for repo, number, error in report.errors[:10]:
        err_console.print(f"  [yellow]{escape(repo)}#{number}[/yellow] {escape(error)}")


@pr_app.command("show")
def pr_show(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(help="OWNER/REPO.", callback=repo_name)],
    number: Annotated[int, typer.Argument(help="The PR number.", min=1)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the PR and its analysis as JSON.")] = False,
) -> None:
    """Show a stored PR with its current analysis."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        with db.session() as session:
            index = PRIndex(session)
            repo_row = index.repo(repo)
            row = index.pull_request_row(repo_row, number) if repo_row else None
            if repo_row is None or row is None:
                fail(
                    f"{repo}#{number} is not in the index"
                    + ("" if repo_row else f"; run `prhub sync {repo}`")
                )
            pr = to_pull_request(repo_row, row)
            stored = current_analysis(session, row)
    if as_json:
        payload = {
            "repo": pr.repo,
            "number": pr.number,
            "title": pr.title,
            "url": pr.header.html_url,
            "author": pr.header.author,
            "merged_at": pr.header.merged_at.isoformat() if pr.header.merged_at else None,
            "additions": pr.additions,
            "deletions": pr.deletions,
            "changed_files": pr.changed_files,
            "content_hash": pr.content_hash,
            "analysis": stored.analysis.to_dict() if stored else None,
            "analysis_meta": {
                "analyzer": stored.analyzer,
                "fallback_reason": stored.fallback_reason,
                "prompt_tokens": stored.prompt_tokens,
                "completion_tokens": stored.completion_tokens,
                "created_at": stored.created_at.isoformat(),
            }
            if stored
            else None,
        }
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
        return
    analyzer_name = None
    if stored:
        analyzer_name = stored.analyzer + (
            f" (fallback: {stored.fallback_reason})" if stored.fallback_reason else ""
        )
    render_console(
        pr_card(pr, stored.analysis if stored else None, settings.language, analyzer_name, settings.tz),
        console,
    )


@db_app.command("upgrade")
def db_upgrade(ctx: typer.Context) -> None:
    """Create or migrate the database to the newest schema."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
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


def _print_report_cost(settings: Settings, db: Database, report: WeeklyReport) -> None:
    """The week's LLM cost (its PRs' analyses and the report's prose), on stderr; nothing when no LLM
    was used."""
    with db.session() as session:
        repo_row = PRIndex(session).repo(report.repo)
        spent = window_tokens(session, repo_row, report.start, report.end) if repo_row else None
    price_in, price_out = settings.llm_price_input / 1e6, settings.llm_price_output / 1e6
    prose_in, prose_out = report.prose_tokens
    analyses = spent.prompt_tokens * price_in + spent.completion_tokens * price_out if spent else 0.0
    prose = prose_in * price_in + prose_out * price_out
    if not (analyses or prose):
        return
    per_pr = f" (≈ ${analyses / spent.prs:.4f} per PR over {spent.prs})" if spent and spent.prs else ""
    err_console.print(
        f"LLM cost of {report.label}: analyses ${analyses:.2f}{per_pr}, report prose ${prose:.4f} "
        f"({prose_in:,} in / {prose_out:,} out); total ${analyses + prose:.2f}"
    )


REPORT_FORMATS = ("terminal", "text", "md", "html", "pdf", "json", "slack", "feishu")


@app.command()
def report(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(help="OWNER/REPO.", callback=repo_name)],
    week: Annotated[str | None, typer.Option(help="ISO week, e.g. 2026-W25 (in PRHUB_TIMEZONE).")] = None,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="Without --week: the last complete week as of this time.")
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help=f"One of {', '.join(REPORT_FORMATS)}.")
    ] = "terminal",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
    lang: Annotated[str | None, typer.Option("--lang", help="zh or en (default PRHUB_LANGUAGE).")] = None,
    rebuild: Annotated[bool, typer.Option(help="Build again even if the stored report is current.")] = False,
) -> None:
    """Build (or reuse) the weekly report of a repo and write it in a format."""
    if output_format not in REPORT_FORMATS:
        raise typer.BadParameter(f"unknown format {output_format!r}; use one of {', '.join(REPORT_FORMATS)}")
    if output_format == "pdf" and output is None:
        raise typer.BadParameter("--format pdf needs --output FILE")
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        language = lang or settings.language
        if language not in ("zh", "en"):
            raise typer.BadParameter("--lang must be zh or en")
        clock = FixedClock(parse_day_or_time(as_of, settings.tz)) if as_of else SystemClock()
        span = parse_week(week, settings.tz) if week else last_complete_week(clock.now(), settings.tz)
        db = open_db(settings)
        built = build_report(settings, db, repo, span, language, rebuild=rebuild)
        _print_report_cost(settings, db, built.report)
    payload = render_report(built.report, output_format, settings.public_url)
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_bytes(payload if isinstance(payload, bytes) else payload.encode("utf-8"))
        state = "reused" if built.reused else f"built (version {built.report.version})"
        console.print(f"{built.report.title}: {state}, {built.report.pr_count} PRs → {output}")
    elif output_format == "terminal":
        render_console(
            report_document(built.report, ReportLinks.for_report(settings.public_url, built.report)), console
        )
    elif isinstance(payload, bytes):
        sys.stdout.buffer.write(payload)
    else:
        sys.stdout.write(payload)


def _as_of_clock(as_of: str | None, settings: Settings) -> Clock:
    return FixedClock(parse_day_or_time(as_of, settings.tz)) if as_of else SystemClock()


def answer_json(answer: Answer) -> dict[str, object]:
    query, window = answer.query, answer.window
    return {
        "intent": query.intent,
        "repo": query.repo,
        "window": {"start": window.start.isoformat(), "end": window.end.isoformat()} if window else None,
        "language": query.language,
        # Who read the question (the rules, or the LLM for a phrasing they could not place), and the
        # words the answer searched for.
        "read_by": query.parser,
        "searched_for": list(query.understood),
        "pull_requests": list(answer.cited),
        "text": answer.reply.plain_text(),
        "reply": answer.reply.to_dict(),
    }


# A question may begin with "-" ("-x 是什么意思？"): an unknown option is read as the question.
@app.command(context_settings={"ignore_unknown_options": True})
def ask(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help='The question, e.g. "本周 verl 有哪些风险？"')],
    repo: Annotated[str | None, typer.Option(help="OWNER/REPO, when the question does not name it.")] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Answer as of this time (ISO 8601).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the structured answer as JSON.")] = False,
) -> None:
    """Answer one question the way the chat platforms would."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        bot = make_bot(settings, db, _as_of_clock(as_of, settings))
        if repo:
            default = repo_name(repo)
            bot.channel_repo = lambda message: default
        answer = bot.handle(Message(question))
    if as_json:
        sys.stdout.write(json.dumps(answer_json(answer), ensure_ascii=False, indent=2, default=str) + "\n")
    else:
        render_console(answer.reply, console)


@app.command()
def chat(
    ctx: typer.Context,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Answer as of this time (ISO 8601).")] = None,
) -> None:
    """Chat with the bot in the terminal (Ctrl-D to quit); reads one question per line from a pipe."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        bot = make_bot(settings, db, _as_of_clock(as_of, settings))
    interactive = sys.stdin.isatty()
    # One conversation per session: follow-ups ("那上上周呢？") are read against the last question.
    conversation = f"chat-{uuid.uuid4().hex[:12]}"
    if interactive:
        import readline  # noqa: F401  (line editing and history for input())

        console.print("prhub chat — ask about merged PRs (帮助 / help for examples, Ctrl-D to quit)")
    while True:
        try:
            line = input("› " if interactive else "")
        except EOFError:
            if interactive:
                console.print()  # Ctrl-D leaves the cursor after "› ": the shell prompt gets a line of its own
            break
        if not line.strip():
            continue
        if not interactive:
            console.print(f"› {escape(line)}")
        render_console(bot.handle(Message(line, direct=True, thread=conversation)).reply, console)
        console.print()


@app.command()
def demo(
    ctx: typer.Context,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Pretend it is this time (ISO 8601).")] = None,
) -> None:
    """Try prhub on a bundled demo repository: no token, no network."""
    # Imported here, not at the top: `prhub ask` and `prhub chat` should not pay for what they never run.
    from adapters.github.rest import pull_request_from_rest
    from chatbot.demo import DEMO_QUESTIONS, DEMO_REPO, demo_pull_requests, seed_demo

    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        clock = _as_of_clock(as_of, settings)
        db = open_db(settings)
        offline = heuristic(settings)
        prs = [
            pull_request_from_rest(item, DEMO_REPO) for item in demo_pull_requests(clock.now(), settings.tz)
        ]
        summary = seed_demo(
            db, prs, clock=clock, tz=settings.tz, language=settings.language, analyzer=offline
        )
        week = last_complete_week(clock.now(), settings.tz)
        bot = make_bot(settings, db, clock)
    console.rule(f"prhub demo · {DEMO_REPO}")
    console.print(
        f"{summary.pull_requests} merged PRs indexed and analysed in {escape(settings.database_url)}"
    )
    # The weekly card is the answer to the first question, so it is printed once.
    for question in DEMO_QUESTIONS:
        console.rule(style="dim")
        console.print(f"› {escape(question.text)}")
        render_console(bot.handle(Message(question.text, direct=True)).reply, console)
    console.rule(style="dim")
    port = settings.port
    console.print(
        "Next:\n"
        f"  • the report page: .venv/bin/prhub serve, then open http://127.0.0.1:{port}/reports/{DEMO_REPO}/{week.label}\n"
        "  • your own repo: set GITHUB_TOKEN in .env, then .venv/bin/prhub sync OWNER/REPO\n"
        "  • Slack or Feishu: docs/slack.md and docs/feishu.md, then .venv/bin/prhub serve\n"
    )
    if sys.stdin.isatty():
        ctx.invoke(chat, ctx=ctx, as_of=as_of)
