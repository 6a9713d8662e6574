"""Report pages: `/reports/{owner}/{repo}/{week}` as HTML, with `.md` and `.pdf` variants.

Only indexed repos exist here (any other name is a plain 404, so the pages reveal nothing else), and
with PRHUB_REPORTS_TOKEN set a token is required (`?token=` or `Authorization: Bearer`). What an
anonymous client can cost is bounded: a page serves the stored report (built on the first view of a
week that has PRs: at most one row per repo, week and language; a week without PRs is never stored),
PDFs are cached by the report's fingerprint, and each client address gets RATE requests a minute.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

from flask import Flask, Response, abort, request

from adapters.web.app import has_token
from chatbot.analysis.types import Analysis
from chatbot.messages import Language
from chatbot.models import PullRequest, Reply
from chatbot.ports import Clock
from chatbot.reports.cards import ReportLinks, report_document
from chatbot.reports.html import render_html
from chatbot.reports.markdown import render_markdown
from chatbot.reports.weekly import BuiltReport, ReportWriter, UnknownRepo, build_weekly_report
from chatbot.repos import is_repo_name
from chatbot.store.db import Database
from chatbot.weeks import parse_week

FORMATS = {"": "text/html; charset=utf-8", ".md": "text/markdown; charset=utf-8", ".pdf": "application/pdf"}


RATE = 60  # requests a minute per client address; a burst of up to RATE, refilled continuously
PDF_CACHE = 32  # rendered PDFs kept (a few hundred KB each)


class RateLimit:
    """A token bucket per client: `capacity` requests at once, refilled at `capacity` a minute. The
    table is pruned of full buckets when it grows, so many addresses cost bounded memory."""

    def __init__(self, clock: Clock, capacity: int = RATE, max_clients: int = 10_000) -> None:
        self.clock, self.capacity, self.max_clients = clock, capacity, max_clients
        self._buckets: dict[str, tuple[float, datetime]] = {}
        self._lock = threading.Lock()

    def allow(self, client: str) -> bool:
        now = self.clock.now()
        with self._lock:
            tokens = self._level(client, now)
            if tokens < 1:
                return False
            if len(self._buckets) >= self.max_clients and client not in self._buckets:
                self._prune(now)
            self._buckets[client] = (tokens - 1, now)
            return True

    def _level(self, client: str, now: datetime) -> float:
        tokens, at = self._buckets.get(client, (float(self.capacity), now))
        refill = max(0.0, (now - at).total_seconds()) * self.capacity / 60
        return min(float(self.capacity), tokens + refill)

    def _prune(self, now: datetime) -> None:
        full = [c for c in self._buckets if self._level(c, now) >= self.capacity]
        for client in full or list(self._buckets)[: len(self._buckets) // 2]:
            del self._buckets[client]


class ReportPages:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        tz: ZoneInfo,
        language: Language,
        fallback: Callable[[PullRequest], Analysis],
        writer: ReportWriter | None = None,
        public_url: str | None = None,
        token: str | None = None,
        rate: int = RATE,
    ) -> None:
        self.db, self.clock, self.tz, self.language, self.fallback = db, clock, tz, language, fallback
        self.writer, self.public_url, self.token = writer, public_url, token
        self.limit = RateLimit(clock, rate)
        self._pdfs: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._pdf_lock = threading.Lock()

    def mount(self, app: Flask) -> None:
        app.add_url_rule("/reports/<owner>/<name>/<week>", "report_page", self.page)

    def _pdf(self, built: BuiltReport, document: Reply) -> bytes:
        """The PDF of a report, rendered once per fingerprint and language (0.7 s each otherwise)."""
        from chatbot.reports.pdf import render_pdf

        key = (built.fingerprint or built.report.model_dump_json(), built.report.language)
        with self._pdf_lock:
            if key in self._pdfs:
                self._pdfs.move_to_end(key)
                return self._pdfs[key]
        body = render_pdf(document, built.report.language)
        with self._pdf_lock:
            self._pdfs[key] = body
            while len(self._pdfs) > PDF_CACHE:
                self._pdfs.popitem(last=False)
        return body

    def page(self, owner: str, name: str, week: str) -> Response:
        if not self.limit.allow(request.remote_addr or "-"):
            abort(429)
        if not has_token(self.token):
            abort(401)
        label, suffix = week, ""
        for candidate in (".md", ".pdf"):
            if week.endswith(candidate):
                label, suffix = week[: -len(candidate)], candidate
        language: Language = "en" if request.args.get("lang") == "en" else self.language
        try:
            span = parse_week(label, self.tz)
        except ValueError:
            abort(404)
        if span.start > self.clock.now() or not is_repo_name(f"{owner}/{name}"):
            abort(404)
        try:
            built = build_weekly_report(
                self.db,
                f"{owner}/{name}".lower(),
                span,
                clock=self.clock,
                language=language,
                fallback=self.fallback,
                writer=self.writer,
                store_empty=False,
            )
        except UnknownRepo:
            abort(404)
        report = built.report
        document = report_document(report, ReportLinks.for_report(self.public_url, report))
        if suffix == ".md":
            body: str | bytes = render_markdown(document)
        elif suffix == ".pdf":
            body = self._pdf(built, document)
        else:
            body = render_html(document, report.language)
        response = Response(body, content_type=FORMATS[suffix])
        if suffix:
            filename = f"{report.repo.replace('/', '-')}-{report.label}{suffix}"
            response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
        response.headers["Cache-Control"] = "private, max-age=300"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
        )
        return response
