"""Admin commands: `prhub subscriptions list|add|remove`, `prhub push`, `prhub status`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from zoneinfo import ZoneInfo

import typer
from rich.markup import escape
from rich.table import Table
from sqlalchemy import func, select

from chatbot.clock import FixedClock, SystemClock
from chatbot.commands import Command
from chatbot.models import Message
from chatbot.ports import Clock
from chatbot.store.db import Database
from chatbot.store.schema import ApiBudgetRow, DeliveryRow, RepoRow, SubscriptionRow
from chatbot.subscriptions.delivery import PushContext, due_pushes, push_due
from chatbot.subscriptions.schedule import WEEKDAYS, next_occurrence, parse_time_of_day
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService, describe_filters
from chatbot.weeks import parse_day_or_time
from prhub_cli.common import cli_context, console, fail, open_db, print_table, repo_name, user_errors
from prhub_cli.wiring import chat_senders, heuristic, repo_validator, report_writer

subscriptions_app = typer.Typer(help="Manage channel subscriptions (admin).", no_args_is_help=True)
PLATFORMS = ("slack", "feishu")


def _service(ctx: typer.Context, clock: Clock) -> SubscriptionService:
    settings = cli_context(ctx).get_settings()
    # The CLI is the admin's tool: no PRHUB_ADMINS check; the allowlist still applies.
    policy = SubscriptionPolicy(settings.timezone, allowed_repos=settings.allowed_repo_names)
    return SubscriptionService(open_db(settings), clock, policy, repo_validator(settings))


def _target(platform: str, channel: str, workspace: str) -> Message:
    if platform not in PLATFORMS:
        raise typer.BadParameter(f"--platform must be one of {', '.join(PLATFORMS)}")
    return Message("", platform=platform, channel=channel, workspace=workspace, user="cli")


@subscriptions_app.command("list")
def subscriptions_list(ctx: typer.Context) -> None:
    """Every subscription with its next push."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        now = SystemClock().now()
        with db.session() as session:
            rows = session.execute(
                select(SubscriptionRow, RepoRow.full_name)
                .join(RepoRow, RepoRow.id == SubscriptionRow.repo_id)
                .order_by(SubscriptionRow.platform, SubscriptionRow.channel, RepoRow.full_name)
            ).all()
    table = Table(title=f"{len(rows)} subscriptions", title_justify="left")
    for column in (
        "id",
        "platform",
        "workspace",
        "channel",
        "repo",
        "when",
        "lang",
        "filters",
        "next push",
        "active",
    ):
        table.add_column(column)
    for sub, repo in rows:
        tz = ZoneInfo(sub.timezone)
        upcoming = next_occurrence(sub.weekday, parse_time_of_day(sub.time_of_day), tz, now)
        table.add_row(
            str(sub.id),
            sub.platform,
            sub.workspace or "-",
            escape(sub.channel),
            repo,
            f"{WEEKDAYS[sub.weekday - 1]} {sub.time_of_day} {sub.timezone}",
            sub.language,
            escape(describe_filters(sub.filters, "en").removeprefix("; filters: ")) or "-",
            f"{upcoming:%Y-%m-%d %H:%M %Z}" if sub.active else "-",
            "yes" if sub.active else "no",
        )
    print_table(table)


@subscriptions_app.command("add")
def subscriptions_add(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(help="OWNER/REPO.", callback=repo_name)],
    platform: Annotated[str, typer.Option(help="slack or feishu.")],
    channel: Annotated[str, typer.Option(help="Slack channel id or Feishu chat id.")],
    workspace: Annotated[str, typer.Option(help="Slack team id / Feishu tenant key.")] = "",
    weekday: Annotated[str, typer.Option(help="mon … sun.")] = "mon",
    time: Annotated[str, typer.Option(help="HH:MM in --tz.")] = "09:00",
    tz: Annotated[str | None, typer.Option(help="IANA timezone (default PRHUB_TIMEZONE).")] = None,
    lang: Annotated[str | None, typer.Option(help="zh or en (default PRHUB_LANGUAGE).")] = None,
    modules: Annotated[str | None, typer.Option(help="Only these modules, comma-separated.")] = None,
    min_importance: Annotated[float | None, typer.Option(help="Only PRs at least this important.")] = None,
    exclude_authors: Annotated[
        str | None, typer.Option(help="Leave out these authors, comma-separated.")
    ] = None,
) -> None:
    """Subscribe a channel to a repo (or update its settings)."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        options = {
            "weekday": weekday,
            "time": time,
            "tz": tz or settings.timezone,
            "lang": lang or settings.language,
        }
        extra = {"modules": modules, "min-importance": min_importance, "exclude-authors": exclude_authors}
        options |= {key: str(value) for key, value in extra.items() if value is not None}
        reply = _service(ctx, SystemClock()).execute(
            Command("subscribe", repo, options), _target(platform, channel, workspace), "en"
        )
    console.print(reply.plain_text())


@subscriptions_app.command("remove")
def subscriptions_remove(
    ctx: typer.Context,
    repo: Annotated[str, typer.Argument(help="OWNER/REPO.", callback=repo_name)],
    platform: Annotated[str, typer.Option(help="slack or feishu.")],
    channel: Annotated[str, typer.Option(help="Slack channel id or Feishu chat id.")],
    workspace: Annotated[str, typer.Option(help="Slack team id / Feishu tenant key.")] = "",
) -> None:
    """Unsubscribe a channel from a repo."""
    with user_errors(ctx):
        reply = _service(ctx, SystemClock()).execute(
            Command("unsubscribe", repo), _target(platform, channel, workspace), "en"
        )
    console.print(reply.plain_text())


def push(
    ctx: typer.Context,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="Act as if it were this time (ISO 8601).")
    ] = None,
    dry_run: Annotated[bool, typer.Option(help="List what is due; send nothing.")] = False,
) -> None:
    """Send the weekly cards that are due now (what the scheduler does every minute)."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        clock = FixedClock(parse_day_or_time(as_of, settings.tz)) if as_of else SystemClock()
        db = open_db(settings)
        if dry_run:
            _print_due(db, clock.now())
            return
        senders = chat_senders(settings, db)
        if not senders:
            fail("no chat platform is configured (SLACK_BOT_TOKEN or FEISHU_APP_ID + FEISHU_APP_SECRET)")
        context = PushContext(
            senders, heuristic(settings).analyze, report_writer(settings), settings.public_url
        )
        report = push_due(db, clock, context, worker="cli")
    console.print(
        f"sent {report.sent}, recovered {report.recovered}, failed {report.failed}, "
        f"channels gone {report.gone}, skipped (too late) {report.skipped}"
    )


def _print_due(db: Database, now: datetime) -> None:
    """What a push now would send, without writing anything."""
    with db.session() as session:
        pending = session.execute(
            select(DeliveryRow.subscription_id, DeliveryRow.period, DeliveryRow.state).where(
                DeliveryRow.state.in_(("pending", "failed", "sending")), DeliveryRow.due_at <= now
            )
        ).all()
        targets = dict(
            session.execute(
                select(
                    SubscriptionRow.id,
                    SubscriptionRow.platform + ":" + SubscriptionRow.channel + " " + RepoRow.full_name,
                ).join(RepoRow, RepoRow.id == SubscriptionRow.repo_id)
            ).all()
        )
    lines = [(sub_id, period, state) for sub_id, period, state in pending]
    lines += [
        (p.subscription_id, p.period, "too late, would be skipped" if p.late else "new")
        for p in due_pushes(db, now)
    ]
    console.print(f"{len(lines)} pushes due")
    for sub_id, period, state in lines:
        console.print(f"  {escape(targets.get(sub_id, str(sub_id)))} {period} ({state})")


def status(ctx: typer.Context) -> None:
    """Last and next sync per repo, GitHub budgets left, next pushes, and failed deliveries."""
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        now = SystemClock().now()
        with db.session() as session:
            repos = session.execute(
                select(
                    RepoRow.full_name,
                    RepoRow.last_synced_at,
                    RepoRow.synced_since,
                    RepoRow.backfill_floor,
                    func.count(SubscriptionRow.id),
                    RepoRow.next_sync_at,
                    RepoRow.sync_note,
                )
                .outerjoin(
                    SubscriptionRow,
                    (SubscriptionRow.repo_id == RepoRow.id) & SubscriptionRow.active.is_(True),
                )
                .group_by(
                    RepoRow.id,
                    RepoRow.full_name,
                    RepoRow.last_synced_at,
                    RepoRow.synced_since,
                    RepoRow.backfill_floor,
                    RepoRow.next_sync_at,
                    RepoRow.sync_note,
                )
                .order_by(RepoRow.full_name)
            ).all()
            budgets = session.scalars(select(ApiBudgetRow).order_by(ApiBudgetRow.credential)).all()
            subs = session.scalars(select(SubscriptionRow).where(SubscriptionRow.active.is_(True))).all()
            failed = session.execute(
                select(DeliveryRow, RepoRow.full_name, SubscriptionRow.channel)
                .join(SubscriptionRow, SubscriptionRow.id == DeliveryRow.subscription_id)
                .join(RepoRow, RepoRow.id == SubscriptionRow.repo_id)
                .where(DeliveryRow.state.in_(("failed", "gone", "skipped")))
                .order_by(DeliveryRow.id.desc())
                .limit(20)
            ).all()
    table = Table(title="repos", title_justify="left")
    for column in ("repo", "last synced", "index", "subscriptions", "next sync"):
        table.add_column(column)
    for name, synced, since, unfinished, count, next_sync, note in repos:
        if unfinished is not None:
            coverage = f"incomplete: backfill to {unfinished:%Y-%m-%d} unfinished (the next sync resumes it)"
        elif since is not None:
            coverage = f"complete since {since.astimezone(settings.tz):%Y-%m-%d}"
        else:
            coverage = "incomplete: never synced to the end"
        table.add_row(
            name,
            f"{synced.astimezone(settings.tz):%Y-%m-%d %H:%M}" if synced else "never",
            coverage,
            str(count),
            _next_sync(next_sync, note, settings.tz),
        )
    print_table(table)
    for budget in budgets:
        console.print(_budget_line(budget, settings.tz))
    upcoming = sorted(
        (next_occurrence(s.weekday, parse_time_of_day(s.time_of_day), ZoneInfo(s.timezone), now), s)
        for s in subs
    )[:10]
    console.print(f"next pushes ({len(subs)} active subscriptions):")
    for when, sub in upcoming:
        console.print(f"  {when.astimezone(settings.tz):%Y-%m-%d %H:%M} {sub.platform}:{escape(sub.channel)}")
    console.print(f"deliveries needing attention: {len(failed)}")
    for delivery, name, channel in failed:
        console.print(
            f"  #{delivery.id} {name} {delivery.period} → {escape(channel)}: {delivery.state}, "
            f"{delivery.attempts} attempts, {escape(delivery.last_error or '')}"
        )


def _next_sync(at: datetime | None, note: str | None, tz: ZoneInfo) -> str:
    """The sync planner's next sync of a repo (planned every 5 minutes by `prhub serve`), and why it
    waits when the budget holds it back."""
    if at is None:
        return "not planned (prhub serve plans subscribed and followed repos)"
    return f"{at.astimezone(tz):%Y-%m-%d %H:%M}" + (f" ({note})" if note else "")


def _budget_line(budget: ApiBudgetRow, tz: ZoneInfo) -> str:
    """What GitHub last reported of one credential's budgets."""

    def part(name: str, remaining: int | None, limit: int | None, reset: datetime | None) -> str:
        if remaining is None:
            return f"{name} not reported yet"
        resets = f", resets {reset.astimezone(tz):%H:%M}" if reset else ""
        return f"{name} {remaining:,} of {limit or 0:,} left{resets}"

    rest = part("REST", budget.rest_remaining, budget.rest_limit, budget.rest_reset_at)
    graphql = part("GraphQL points", budget.graphql_remaining, budget.graphql_limit, budget.graphql_reset_at)
    observed = budget.observed_at.astimezone(tz)
    return f"GitHub budget ({budget.credential}): {rest}; {graphql} (as of {observed:%Y-%m-%d %H:%M})"
