"""`prhub serve`: one process with the HTTP server (platform events, report pages, the GitHub webhook,
health and metrics), the Slack Socket Mode / Feishu long connections when configured, and the scheduler.

Each adapter starts only when its settings are present; the start-up log says which are on and which
settings the others miss. SIGTERM (or Ctrl-C) stops taking new work, drains what is in flight, and exits 0.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

import typer

from chatbot.bot import ChatBot
from chatbot.clock import SystemClock
from chatbot.config import Settings
from chatbot.ports import ChatSender, Clock
from chatbot.store.db import Database
from prhub_cli.common import cli_context, console, open_db, user_errors
from prhub_cli.wiring import (
    backfill_in_background,
    chat_senders,
    heuristic,
    make_analyzer,
    make_bot,
    report_writer,
)

if TYPE_CHECKING:
    from adapters.web.app import Mount

log = logging.getLogger("prhub.serve")
ROLES = ("all", "web", "worker")


@dataclass
class Service:
    """What a running `prhub serve` holds, and how to stop each part (in reverse order of start)."""

    mounts: list[Mount] = field(default_factory=list)
    # The chat adapters' own senders, shared with the push so that one pacer keeps each app's limits.
    senders: dict[str, ChatSender] = field(default_factory=dict)
    stops: list[Callable[[], None]] = field(default_factory=list)
    on: list[str] = field(default_factory=list)
    off: list[str] = field(default_factory=list)

    def stop(self) -> None:
        for stop in reversed(self.stops):
            try:
                stop()
            except Exception:  # keep stopping the rest
                log.exception("error while stopping")


def build_service(settings: Settings, db: Database, role: str) -> Service:
    """Everything the role runs, for the settings present."""
    # The web stack is imported when a service is built, so other commands start without it.
    from adapters.web.metrics import Metrics
    from adapters.web.reports import ReportPages

    service = Service()
    clock = SystemClock()
    bot = make_bot(settings, db, clock)
    web = role in ("all", "web")
    worker = role in ("all", "worker")
    metrics = Metrics(
        db, clock, settings.metrics_token.get_secret_value() if settings.metrics_token else None
    )
    service.mounts.append(metrics.mount)
    bot.observers.append(
        lambda message, answer: metrics.answers.labels(message.platform, answer.query.intent).inc()
    )
    if web:
        pages = ReportPages(
            db,
            clock,
            settings.tz,
            settings.language,
            heuristic(settings).analyze,
            report_writer(settings),
            settings.public_url,
            settings.reports_token.get_secret_value() if settings.reports_token else None,
        )
        service.mounts.append(pages.mount)
        service.on.append("report pages at /reports/OWNER/REPO/WEEK")
        _github_webhook(settings, db, service)
    _chat_platforms(settings, db, bot, service, web=web, worker=worker)
    if worker:
        _scheduler(settings, db, service)
    return service


def _github_webhook(settings: Settings, db: Database, service: Service) -> None:
    missing = [
        name
        for name, value in (
            ("GITHUB_WEBHOOK_SECRET", settings.github_webhook_secret is not None),
            ("GITHUB_TOKEN or GITHUB_APP_ID + GITHUB_APP_PRIVATE_KEY", settings.github_configured),
        )
        if not value
    ]
    if missing:
        service.off.append(f"GitHub webhook (missing {', '.join(missing)})")
        return
    from adapters.github.source import GitHubSource
    from adapters.github.webhook import GitHubWebhook

    assert settings.github_webhook_secret is not None
    webhook = GitHubWebhook(
        db,
        SystemClock(),
        settings.github_webhook_secret.get_secret_value(),
        lambda: GitHubSource(settings),
        lambda: make_analyzer(settings).analyzer,
        settings.language,
        settings.allowed_repo_names,
        autofollow=settings.autofollow_accounts,
        on_follow=backfill_in_background(settings, db),
    )
    service.mounts.append(webhook.mount)
    service.stops.append(webhook.drain)
    service.on.append("GitHub webhook at /github/webhook")


def _chat_platforms(
    settings: Settings, db: Database, bot: ChatBot, service: Service, *, web: bool, worker: bool
) -> None:
    """Slack over HTTP (web role) or Socket Mode (worker role), when its tokens are set."""
    if settings.slack_bot_token is None and not settings.slack_oauth_configured:
        service.off.append(
            "Slack (missing SLACK_BOT_TOKEN or SLACK_CLIENT_ID, and SLACK_SIGNING_SECRET or SLACK_APP_TOKEN)"
        )
    else:
        from adapters.slack.app import build_slack

        socket_mode = settings.slack_app_token is not None
        if (socket_mode and worker) or (not socket_mode and web):
            slack = build_slack(settings, bot, db, SystemClock())
            service.senders["slack"] = slack.push_sender()
            service.mounts.append(slack.mount)
            slack.start()
            service.stops.append(slack.stop)
            service.on.append("Slack " + ("Socket Mode" if socket_mode else "events at /slack/events"))
            if slack.installs is not None:
                service.on.append("Slack Add to Slack at /slack/install (several workspaces)")
    if not (settings.feishu_app_id and settings.feishu_app_secret):
        service.off.append(
            "Feishu (missing FEISHU_APP_ID, FEISHU_APP_SECRET, and for HTTP FEISHU_ENCRYPT_KEY, "
            "FEISHU_VERIFICATION_TOKEN)"
        )
        return
    long_connection = settings.feishu_mode == "ws"
    if (long_connection and worker) or (not long_connection and web):
        from adapters.feishu.app import build_feishu  # imports lark-oapi (~160 MB): only when configured

        feishu = build_feishu(settings, bot, db, SystemClock())
        feishu.check()
        service.senders["feishu"] = feishu.sender
        if long_connection:
            feishu.start()
        else:
            service.mounts.append(feishu.mount)
        service.stops.append(feishu.stop)
        service.on.append("Feishu " + ("long connection" if long_connection else "events at /feishu/events"))


def _scheduler(settings: Settings, db: Database, service: Service) -> None:
    from chatbot.subscriptions.delivery import PushContext
    from scheduler.jobs import SyncJob, housekeeping, push_tick, rebuild_reports
    from scheduler.runner import Jobs, PrhubScheduler

    offline = heuristic(settings)
    senders = chat_senders(settings, db, have=service.senders)
    context = PushContext(senders, offline.analyze, report_writer(settings), settings.public_url)
    worker_id = f"{os.uname().nodename}:{os.getpid()}"
    if settings.github_configured:
        from adapters.github.source import GitHubSource

        sync: Callable[[Clock], object] = SyncJob(
            db, lambda: GitHubSource(settings), lambda: make_analyzer(settings).analyzer, settings.language
        )
        service.on.append("sync planner every 5 minutes (subscribed and followed repos, at least hourly)")
    else:
        sync = lambda clock: None  # noqa: E731
        service.off.append("sync planner (missing GITHUB_TOKEN or GITHUB_APP_ID + GITHUB_APP_PRIVATE_KEY)")
    jobs = Jobs(
        sync=sync,
        rebuild_reports=lambda clock: rebuild_reports(db, clock, offline.analyze, report_writer(settings)),
        push_tick=lambda clock: push_tick(db, clock, context, worker_id),
        housekeeping=lambda clock: housekeeping(db, clock),
    )
    scheduler = PrhubScheduler(jobs, settings.tz)
    scheduler.start()
    scheduler.run_now(PrhubScheduler.PUSH)  # catch up at once on pushes missed while the bot was down
    service.stops.append(scheduler.shutdown)
    service.on.append(
        f"scheduler (push tick every minute; platforms: {', '.join(context.senders) or 'none'})"
    )


def serve(
    ctx: typer.Context,
    role: Annotated[
        str, typer.Option(help="all, web (HTTP only) or worker (scheduler and connections).")
    ] = "all",
    host: Annotated[str | None, typer.Option(help="Default PRHUB_HOST.")] = None,
    port: Annotated[int | None, typer.Option(help="Default PRHUB_PORT; 0 picks a free port.")] = None,
) -> None:
    """Run the bot: HTTP server, chat connections and scheduler, until SIGTERM."""
    if role not in ROLES:
        raise typer.BadParameter(f"--role must be one of {', '.join(ROLES)}")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("apscheduler", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    with user_errors(ctx):
        settings = cli_context(ctx).get_settings()
        db = open_db(settings)
        service = build_service(settings, db, role)
        from adapters.web.app import BackgroundServer, create_app

        server = BackgroundServer(
            create_app(service.mounts), host or settings.host, settings.port if port is None else port
        )
        server.start()
        service.stops.insert(0, server.stop)  # stopped last: health checks answer while draining
    for line in service.on:
        log.info("on: %s", line)
    for line in service.off:
        log.info("off: %s", line)
    console.print(f"prhub serve ({role}) listening on {server.url}", highlight=False)
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    stopping.wait()
    log.info("stopping: draining in-flight work")
    service.stop()
    log.info("stopped")
