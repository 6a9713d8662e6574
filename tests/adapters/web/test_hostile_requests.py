"""What anonymous clients can cost on the report pages and /metrics: no rows for weeks without PRs,
one row per week and language however often a page is viewed, PDFs rendered once, a rate limit per
client, 4xx for odd weeks and tokens, and a token option for /metrics."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
import requests
from sqlalchemy import func, select

from adapters.web.app import BackgroundServer, create_app
from adapters.web.metrics import Metrics
from adapters.web.reports import ReportPages
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.clock import FixedClock
from chatbot.store.schema import WeeklyReportRow
from tests.reports.fixtures import SHANGHAI, WEEK_START, seed

BASE = "/reports/acme/widgets"


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(WEEK_START + timedelta(days=8))


@pytest.fixture
def served(db, clock) -> Iterator[tuple[str, ReportPages]]:  # type: ignore[no-untyped-def]
    seed(db)
    pages = ReportPages(db, clock, SHANGHAI, "zh", HeuristicAnalyzer().analyze, token=None, rate=1000)
    metrics = Metrics(db, clock, token="metrics-token")
    with BackgroundServer(create_app([pages.mount, metrics.mount])) as server:
        yield server.url, pages


def get(url: str, **kwargs: object) -> requests.Response:
    headers = {"Connection": "close", **kwargs.pop("headers", {})}  # type: ignore[dict-item]
    return requests.get(url, headers=headers, timeout=30, **kwargs)  # type: ignore[arg-type]


def report_rows(db) -> int:  # type: ignore[no-untyped-def]
    with db.session() as session:
        return session.scalar(select(func.count()).select_from(WeeklyReportRow)) or 0


def test_views_of_weeks_without_prs_store_nothing(db, served):
    url, _pages = served
    for year, week in [(2020, w) for w in range(1, 41)] + [(2026, 20), (2026, 22)]:
        response = get(f"{url}{BASE}/{year}-W{week:02d}")
        assert response.status_code == 200
    assert report_rows(db) == 0


def test_many_views_of_a_week_store_one_report_per_language(db, served):
    url, _pages = served
    for _ in range(10):
        assert get(f"{url}{BASE}/2026-W25").status_code == 200
        assert get(f"{url}{BASE}/2026-W25.md", params={"lang": "en"}).status_code == 200
    assert report_rows(db) == 2


def test_a_pdf_is_rendered_once_per_report(served):
    url, pages = served
    first = get(f"{url}{BASE}/2026-W25.pdf")
    second = get(f"{url}{BASE}/2026-W25.pdf")
    assert first.content.startswith(b"%PDF") and first.content == second.content
    assert len(pages._pdfs) == 1


@pytest.mark.parametrize(
    "week",
    ["0001-W01", "1969-W52", "9999-W52", "٢٠٢٦-W25", "２０２６-W25", "2026-W２５", "2026-W25%00", "2026-W00"],
)
def test_weeks_out_of_range_or_in_other_digits_are_404(served, week):
    url, _pages = served
    assert get(f"{url}{BASE}/{week}").status_code == 404


def test_repo_names_that_are_not_github_names_are_404(served):
    url, _pages = served
    for path in ("/reports/acme/..%2F..%2Fwidgets/2026-W25", "/reports/-acme/widgets/2026-W25"):
        assert get(url + path).status_code == 404


def test_each_client_gets_a_bounded_number_of_requests_a_minute(db, clock):
    seed(db)
    pages = ReportPages(db, clock, SHANGHAI, "zh", HeuristicAnalyzer().analyze, rate=5)
    with BackgroundServer(create_app([pages.mount])) as server:
        statuses = [get(f"{server.url}{BASE}/2020-W01").status_code for _ in range(7)]
        assert statuses == [200] * 5 + [429] * 2
        clock.sleep(12)  # one request's worth of refill
        assert get(f"{server.url}{BASE}/2020-W01").status_code == 200
        assert get(f"{server.url}{BASE}/2020-W01").status_code == 429


def test_a_non_ascii_token_is_a_401_not_a_500(db, clock):
    seed(db)
    pages = ReportPages(db, clock, SHANGHAI, "zh", HeuristicAnalyzer().analyze, token="s3cret")
    with BackgroundServer(create_app([pages.mount])) as server:
        for token in ("秘密", "s3cret\u200b", "ｓ3cret"):
            assert get(f"{server.url}{BASE}/2026-W25", params={"token": token}).status_code == 401
        assert get(f"{server.url}{BASE}/2026-W25", params={"token": "s3cret"}).status_code == 200


def test_metrics_can_require_a_token(served):
    url, _pages = served
    assert get(f"{url}/metrics").status_code == 401
    assert get(f"{url}/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    scraped = get(f"{url}/metrics", headers={"Authorization": "Bearer metrics-token"})
    assert scraped.status_code == 200 and "prhub_deliveries" in scraped.text
