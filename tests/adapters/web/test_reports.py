"""Report pages over HTTP: HTML, Markdown and PDF variants, tokens, and nothing about unknown repos."""

from __future__ import annotations

from datetime import timedelta

import pytest
import requests

from adapters.web.app import BackgroundServer, create_app
from adapters.web.reports import ReportPages
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.clock import FixedClock
from tests.reports.fixtures import SHANGHAI, WEEK_START, seed

CLOCK = FixedClock(WEEK_START + timedelta(days=8))


@pytest.fixture
def pages(db):  # type: ignore[no-untyped-def]
    seed(db)

    def serve(token: str | None = None) -> BackgroundServer:
        pages = ReportPages(
            db,
            CLOCK,
            SHANGHAI,
            "zh",
            HeuristicAnalyzer().analyze,
            public_url="https://prhub.example.com",
            token=token,
        )
        return BackgroundServer(create_app([pages.mount]))

    return serve


def test_the_page_and_its_markdown_and_pdf_variants(pages):
    with pages() as server:
        page = requests.get(f"{server.url}/reports/acme/widgets/2026-W25", timeout=10)
        assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
        assert "acme/widgets 2026年第25周" in page.text and "<table>" in page.text
        assert "default-src 'none'" in page.headers["Content-Security-Policy"]
        markdown = requests.get(f"{server.url}/reports/acme/widgets/2026-W25.md", timeout=10)
        assert (
            markdown.headers["Content-Type"].startswith("text/markdown") and "# acme/widgets" in markdown.text
        )
        pdf = requests.get(f"{server.url}/reports/acme/widgets/2026-W25.pdf", timeout=30)
        assert pdf.content.startswith(b"%PDF") and pdf.headers["Content-Type"] == "application/pdf"
        english = requests.get(f"{server.url}/reports/acme/widgets/2026-W25?lang=en", timeout=10)
        assert "acme/widgets weekly report, 2026-W25" in english.text


def test_unknown_repos_bad_weeks_and_future_weeks_are_plain_404s(pages):
    with pages() as server:
        for path in (
            "acme/secret/2026-W25",
            "acme/widgets/2026-W99",
            "acme/widgets/next",
            "acme/widgets/2027-W10",
        ):
            response = requests.get(f"{server.url}/reports/{path}", timeout=10)
            assert response.status_code == 404 and "acme/widgets" not in response.text


def test_a_token_protects_the_pages(pages):
    with pages(token="s3cret-token") as server:
        url = f"{server.url}/reports/acme/widgets/2026-W25"
        assert requests.get(url, timeout=10).status_code == 401
        assert requests.get(url, params={"token": "nope"}, timeout=10).status_code == 401
        assert requests.get(url, params={"token": "s3cret-token"}, timeout=10).status_code == 200
        assert (
            requests.get(url, headers={"Authorization": "Bearer s3cret-token"}, timeout=10).status_code == 200
        )
