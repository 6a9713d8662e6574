"""`prhub feedback list` and `prhub calibrate REPO`: the votes and corrections readers gave, and the
per-repo importance calibration learned from the corrections."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from chatbot.clock import SystemClock
from chatbot.team.calibration import calibrate as learn_calibration
from chatbot.team.corrections import correction_views
from chatbot.team.feedback import feedback_list as votes_of
from chatbot.weeks import parse_day_or_time
from prhub_cli.common import cli_context, console, open_db, print_table, repo_name, user_errors

feedback_app = typer.Typer(help="Feedback on answers and corrections of analyses.", no_args_is_help=True)

KINDS = ("all", "votes", "up", "down", "corrections", "importance", "breaking", "risk")


def _repo(value: str | None) -> str | None:
    return repo_name(value) if value else None


@feedback_app.command("list")
def feedback_list(
    ctx: typer.Context,
    repo: Annotated[str | None, typer.Option(help="Only of OWNER/REPO.", callback=_repo)] = None,
    since: Annotated[str | None, typer.Option(help="Only since this date (YYYY-MM-DD) or time.")] = None,
    kind: Annotated[str, typer.Option(help=f"One of {', '.join(KINDS)}.")] = "all",
) -> None:
    """Votes (👍/👎 with the question, cited PRs and reason) and corrections (by who and when), newest
    votes first and corrections oldest first."""
    if kind not in KINDS:
        raise typer.BadParameter(f"--kind must be one of {', '.join(KINDS)}")
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        since_at = parse_day_or_time(since, settings.tz) if since else None
        votes = (
            votes_of(db, repo, since_at, kind if kind in ("up", "down") else None)
            if kind in ("all", "votes", "up", "down")
            else []
        )
        with db.session() as session:
            corrections = (
                correction_views(
                    session, repo, since_at, kind if kind in ("importance", "breaking", "risk") else None
                )
                if kind in ("all", "corrections", "importance", "breaking", "risk")
                else []
            )
    tz = settings.tz
    if kind in ("all", "votes", "up", "down"):
        table = Table(title=f"{len(votes)} votes", title_justify="left")
        for column in ("when", "who", "vote", "reason", "question", "repo", "cited"):
            table.add_column(column)
        for v in votes:
            reason = " ".join(p for p in (v.reason or "", v.reason_text or "") if p) or "-"
            table.add_row(
                f"{v.updated_at.astimezone(tz):%Y-%m-%d %H:%M}",
                escape(f"{v.platform}:{v.name}"),
                "👍" if v.vote == "up" else "👎",
                escape(reason),
                escape(v.question),
                escape(v.repo or "-"),
                escape(" ".join(f"#{n}" for n in v.cited[:8]) or "-"),
            )
        print_table(table)
    if kind not in ("votes", "up", "down"):
        table = Table(title=f"{len(corrections)} corrections", title_justify="left")
        for column in ("when", "who", "PR", "kind", "value", "said"):
            table.add_column(column)
        for c in corrections:
            value = c.text if c.kind == "risk" and c.text else c.value
            table.add_row(
                f"{c.created_at.astimezone(tz):%Y-%m-%d %H:%M}",
                escape(f"{c.platform}:{c.name}"),
                escape(f"{c.repo}#{c.number}"),
                c.kind,
                escape(value),
                escape(c.source),
            )
        print_table(table)


def calibrate(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(help="OWNER/REPO.", callback=repo_name)],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print what it would learn; keep nothing.")
    ] = False,
) -> None:
    """Learn REPO's importance offsets by change type and module from its importance corrections,
    printing how many corrections the calibration agrees with before, after and held out."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        result = learn_calibration(open_db(settings), repo, SystemClock().now(), store=not dry_run)
    if not result.samples:
        console.print(f"{escape(repo)} has no importance corrections to calibrate from.")
        return
    console.print(
        f"Calibrated {escape(repo)} from {result.samples} corrected PRs" + (" (dry run)" if dry_run else "")
    )
    for label, figure in (("before", result.before), ("after", result.after), ("held out", result.held_out)):
        console.print(f"  agreement {label}: {figure.agreeing}/{figure.total} ({figure.share:.0%})")
    table = Table(title="importance offsets", title_justify="left")
    for column in ("class", "before", "after"):
        table.add_column(column)
    for key in sorted(set(result.previous) | set(result.offsets)):
        before, after = result.previous.get(key), result.offsets.get(key)
        table.add_row(
            key,
            f"{before:+.2f}" if before is not None else "-",
            f"{after:+.2f}" if after is not None else "-",
        )
    print_table(table)
