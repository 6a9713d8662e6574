"""Building the pieces the commands need from the settings: the one place that picks implementations."""

from __future__ import annotations

import io
import json
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from rich.console import Console

from adapters.console.render import render_console
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import SystemClock
from chatbot.config import ConfigError, Settings, require_secret
from chatbot.models import PullRequest
from chatbot.ports import LLM, ChatSender, Clock, RepoValidator
from chatbot.reports.cards import ReportLinks, report_card, report_document
from chatbot.reports.markdown import render_markdown
from chatbot.reports.model import WeeklyReport
from chatbot.reports.weekly import BuiltReport, build_weekly_report
from chatbot.store.db import Database
from chatbot.subscriptions.service import BACKFILL_WEEKS, SubscriptionPolicy, SubscriptionService
from chatbot.weeks import Week

if TYPE_CHECKING:  # imported where used: `prhub ask` needs neither batch analysis nor the LLM writer
    from chatbot.analysis.runner import BatchAnalyzer
    from chatbot.reports.llm_prose import LLMReportWriter

ANALYZERS = ("heuristic", "llm")
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class AnalyzerSetup:
    analyzer: BatchAnalyzer
    concurrency: int
    estimate: Callable[[PullRequest], int] | None  # prompt tokens, for --dry-run (LLM only)
    price_per_token: tuple[float, float] = (0.0, 0.0)  # USD per input / output token


def heuristic(settings: Settings, language: str | None = None) -> HeuristicAnalyzer:
    return HeuristicAnalyzer(language=language or settings.language, maps_dir=settings.module_map_dir)  # type: ignore[arg-type]


def make_analyzer(
    settings: Settings, choice: str | None = None, language: str | None = None
) -> AnalyzerSetup:
    """The analyzer named by `choice` (default PRHUB_ANALYZER). `auto` is the LLM when OPENAI_API_KEY
    is set, else the heuristic analyzer. An unknown name is an error listing the known ones."""
    name = choice or settings.analyzer
    if name == "auto":
        name = "llm" if settings.llm_configured else "heuristic"
    offline = heuristic(settings, language)
    from chatbot.analysis.runner import OfflineBatch

    if name == "heuristic":
        return AnalyzerSetup(OfflineBatch(offline.analyze, offline.name, offline.version), 1, None)
    if name == "llm":
        from adapters.llm.openai_client import LLMSettings, OpenAICompatibleLLM
        from chatbot.analysis.llm import LLMAnalyzer

        llm = OpenAICompatibleLLM(LLMSettings.from_settings(settings))
        analyzer = LLMAnalyzer(
            llm,
            offline,
            language=language or settings.language,  # type: ignore[arg-type]
            diff_budget_tokens=settings.llm_diff_budget_tokens,
            model=settings.llm_model,
        )
        prices = (settings.llm_price_input / 1e6, settings.llm_price_output / 1e6)
        return AnalyzerSetup(analyzer, settings.llm_concurrency, analyzer.estimate_tokens, prices)
    raise ConfigError(f"unknown analyzer {name!r}; known: auto, {', '.join(ANALYZERS)}")


def build_report(
    settings: Settings, db: Database, repo: str, week: Week, language: str, *, rebuild: bool = False
) -> BuiltReport:
    """The week's report: PRs lacking an analysis get the offline one; the LLM writes the prose when
    configured (falling back to the templates)."""
    return build_weekly_report(
        db,
        repo,
        week,
        clock=SystemClock(),
        language=language,  # type: ignore[arg-type]
        fallback=heuristic(settings, language).analyze,
        writer=report_writer(settings),
        rebuild=rebuild,
    )


def render_report(report: WeeklyReport, output_format: str, public_url: str | None) -> str | bytes:
    """The report in one of the `prhub report --format` formats, as written to a file (on a terminal the
    caller prints the "terminal" format itself, with hyperlinks)."""
    links = ReportLinks.for_report(public_url, report)
    if output_format == "json":
        return report.model_dump_json(indent=2)
    if output_format == "md":
        return render_markdown(report_document(report, links))
    if output_format == "html":
        from chatbot.reports.html import render_html

        return render_html(report_document(report, links), report.language)
    if output_format == "pdf":
        from chatbot.reports.pdf import render_pdf

        return render_pdf(report_document(report, links), report.language)
    if output_format == "slack":
        from adapters.slack.blocks import render_blocks

        card = render_blocks(report_card(report, links), language=report.language, max_messages=1)
        return json.dumps(card, ensure_ascii=False, indent=2)
    if output_format == "feishu":
        from adapters.feishu.card import render_card

        return json.dumps(
            render_card(report_card(report, links), language=report.language), ensure_ascii=False, indent=2
        )
    if output_format == "text":
        return report_card(report, links).plain_text() + "\n"
    # "terminal" into a file: laid out as for a pipe (no escape codes, no wrapping, URLs listed).
    out = io.StringIO()
    render_console(report_document(report, links), Console(file=out, color_system=None, soft_wrap=True))
    return out.getvalue()


def make_bot(settings: Settings, db: Database, clock: Clock | None = None) -> ChatBot:
    """The chat bot over the index: subscriptions (PRHUB_ADMINS, PRHUB_ALLOWED_REPOS, new repos checked on
    GitHub and backfilled in the background), and with an LLM configured the report writer, the parser
    for unsure questions and the answer summaries."""
    clock = clock or SystemClock()
    policy = SubscriptionPolicy(settings.timezone, settings.admin_ids, settings.allowed_repo_names)
    service = SubscriptionService(
        db, clock, policy, repo_validator(settings), backfill_in_background(settings, db)
    )
    parser = phraser = None
    llm = configured_llm(settings)
    if llm is not None and settings.llm_answers:
        from chatbot.qa.llm import LLMAnswerPhraser, LLMQueryParser

        parser, phraser = LLMQueryParser(llm), LLMAnswerPhraser(llm)
    return ChatBot(
        db,
        BotConfig(settings.tz, settings.public_url, settings.admin_ids),
        clock,
        heuristic(settings).analyze,
        writer=report_writer(settings),
        subscriptions=service,
        query_parser=parser,
        phraser=phraser,
    )


def configured_llm(settings: Settings) -> LLM | None:
    """The LLM port over the configured endpoint, unless there is none (or PRHUB_ANALYZER=heuristic)."""
    if settings.analyzer == "heuristic" or not settings.llm_configured:
        return None
    from adapters.llm.openai_client import LLMSettings, OpenAICompatibleLLM

    return OpenAICompatibleLLM(LLMSettings.from_settings(settings))


def backfill_in_background(settings: Settings, db: Database) -> Callable[[str], None] | None:
    """A function that syncs and analyses a newly subscribed (or followed) repo on a thread (None without
    GitHub credentials)."""
    if not settings.github_configured:
        return None

    def run(repo: str) -> None:
        from adapters.github.source import GitHubSource
        from chatbot.analysis.runner import analyze_stored
        from chatbot.ingest.sync import sync_repo

        try:
            sync_repo(
                db,
                GitHubSource(settings),
                repo,
                clock=SystemClock(),
                backfill=timedelta(weeks=BACKFILL_WEEKS),
                max_wait=settings.sync_max_wait,
            )
            setup = make_analyzer(settings)
            analyze_stored(
                db,
                setup.analyzer,
                language=settings.language,
                clock=SystemClock(),
                repo=repo,
                concurrency=setup.concurrency,
            )
        except Exception:  # a background job: the failure is logged; the hourly sync tries again
            log.exception("backfill of %s failed", repo)

    return lambda repo: threading.Thread(
        target=run, args=(repo,), name=f"backfill-{repo}", daemon=True
    ).start()


def report_writer(settings: Settings) -> LLMReportWriter | None:
    """The LLM prose writer for reports when an LLM is configured (and not switched off)."""
    llm = configured_llm(settings)
    if llm is None:
        return None
    from chatbot.reports.llm_prose import LLMReportWriter

    return LLMReportWriter(llm)


def repo_validator(settings: Settings) -> RepoValidator | None:
    """GitHub, to check that a repo a channel subscribes to exists; None without GitHub credentials."""
    if not settings.github_configured:
        return None
    from adapters.github.source import GitHubSource

    return GitHubSource(settings)


def chat_senders(
    settings: Settings, db: Database, have: Mapping[str, ChatSender] | None = None
) -> dict[str, ChatSender]:
    """The platforms' senders for pushes, for each platform that is configured; `have` are senders
    already built (the running chat adapters'), used as they are."""
    senders: dict[str, ChatSender] = dict(have or {})
    if settings.slack_bot_token is not None and "slack" not in senders:
        from adapters.slack.push import SlackPushSender
        from adapters.slack.sender import ChannelPacer, SlackSender, web_client

        token = require_secret(
            settings.slack_bot_token, "SLACK_BOT_TOKEN", "the Slack app's bot token (xoxb-…)"
        )
        client = web_client(token, settings.slack_api_url, SystemClock())
        senders["slack"] = SlackPushSender(SlackSender(client, ChannelPacer(SystemClock())))
    if settings.feishu_app_id and settings.feishu_app_secret is not None and "feishu" not in senders:
        from adapters.feishu.app import feishu_client
        from adapters.feishu.sender import FeishuSender

        app_secret = require_secret(settings.feishu_app_secret, "FEISHU_APP_SECRET", "the app's App Secret")
        client = feishu_client(settings.feishu_app_id, app_secret, settings.feishu_domain)
        senders["feishu"] = FeishuSender(client, settings.feishu_app_id, SystemClock())
    return senders
