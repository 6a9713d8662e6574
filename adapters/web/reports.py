"""Report pages: `/reports/{owner}/{repo}/{week}` as HTML, with `.md` and `.pdf` variants.

Read-only; only indexed repos exist here (any other name is a plain 404, so the pages reveal nothing
else), and with PRHUB_REPORTS_TOKEN set a token is required (`?token=` or `Authorization: Bearer`).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from flask import Flask, Response, abort, request

from chatbot.analysis.types import Analysis
from chatbot.messages import Language
from chatbot.models import PullRequest
from chatbot.ports import Clock
from chatbot.reports.cards import ReportLinks, report_document
from chatbot.reports.html import render_html
from chatbot.reports.markdown import render_markdown
from chatbot.reports.weekly import ReportWriter, UnknownRepo, build_weekly_report
from chatbot.store.db import Database
from chatbot.weeks import parse_week

FORMATS = {"": "text/html; charset=utf-8", ".md": "text/markdown; charset=utf-8", ".pdf": "application/pdf"}


@dataclass(frozen=True, slots=True)
class ReportPages:
    db: Database
    clock: Clock
    tz: ZoneInfo
    language: Language
    fallback: Callable[[PullRequest], Analysis]
    writer: ReportWriter | None = None
    public_url: str | None = None
    token: str | None = None

    def mount(self, app: Flask) -> None:
        app.add_url_rule("/reports/<owner>/<name>/<week>", "report_page", self.page)

    def _authorized(self) -> bool:
        if not self.token:
            return True
        given = request.args.get("token") or request.headers.get("Authorization", "").removeprefix("Bearer ")
        return hmac.compare_digest(given.strip(), self.token)

    def page(self, owner: str, name: str, week: str) -> Response:
        if not self._authorized():
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
        if span.start > self.clock.now():
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
            )
        except UnknownRepo:
            abort(404)
        report = built.report
        document = report_document(report, ReportLinks.for_report(self.public_url, report))
        if suffix == ".md":
            body: str | bytes = render_markdown(document)
        elif suffix == ".pdf":
            from chatbot.reports.pdf import render_pdf

            body = render_pdf(document, report.language)
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
