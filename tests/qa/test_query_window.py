"""`Window.previous`: what a comparison sets beside the window asked about."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from chatbot.qa.parse import cn_number
from chatbot.qa.query import Window
from chatbot.weeks import Week


def month(year: int, number: int, tz: ZoneInfo) -> Window:
    start = datetime(year, number, 1, tzinfo=tz)
    following = datetime(year + number // 12, number % 12 + 1, 1, tzinfo=tz)
    return Window(start, following)


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/New_York", "UTC"])
@pytest.mark.parametrize("number", range(1, 13))
def test_the_window_before_a_calendar_month_is_the_month_before(zone: str, number: int) -> None:
    tz = ZoneInfo(zone)
    before = month(2026, number, tz).previous()
    expected = month(2026 if number > 1 else 2025, number - 1 if number > 1 else 12, tz)
    assert (before.start, before.end) == (expected.start, expected.end)


def test_the_window_before_a_week_is_the_iso_week_before() -> None:
    tz = ZoneInfo("Asia/Shanghai")
    week = Week(2026, 12, tz)
    before = Window(week.start, week.end, week).previous()
    assert before.week == Week(2026, 11, tz)


def test_the_window_before_any_other_span_has_its_length() -> None:
    tz = ZoneInfo("Asia/Shanghai")
    start = datetime(2026, 3, 5, 0, 0, tzinfo=tz)
    before = Window(start, start + timedelta(days=3)).previous()
    assert (before.start, before.end) == (start - timedelta(days=3), start)


@pytest.mark.parametrize(
    ("token", "value"),
    [
        ("十五", 15),
        ("二十一", 21),
        ("两", 2),
        ("一百零五", 105),
        ("一百五", 150),
        ("二百零八", 208),
        ("三千二百", 3200),
        ("一千零一", 1001),
        ("两千零二十六", 2026),
        ("一万二", 12000),
        ("六七三八", 6738),
        ("105", 105),
        ("abc", None),
    ],
)
def test_chinese_numerals_read_with_their_units(token: str, value: int | None) -> None:
    assert cn_number(token) == value


def test_the_windows_beside_a_calendar_year_are_the_years_beside_it() -> None:
    tz = ZoneInfo("Asia/Shanghai")
    year = Window(datetime(2024, 1, 1, tzinfo=tz), datetime(2025, 1, 1, tzinfo=tz))  # a leap year
    before, after = year.previous(), year.following()
    assert (before.start, before.end) == (datetime(2023, 1, 1, tzinfo=tz), year.start)
    assert (after.start, after.end) == (year.end, datetime(2026, 1, 1, tzinfo=tz))


def test_a_year_cut_short_at_now_is_compared_with_the_same_days_of_the_year_before() -> None:
    tz = ZoneInfo("Asia/Shanghai")
    start = datetime(2026, 1, 1, tzinfo=tz)
    before = Window(start, datetime(2026, 5, 20, 10, tzinfo=tz)).comparable_previous()
    assert (before.start, before.end) == (
        datetime(2025, 1, 1, tzinfo=tz),
        datetime(2025, 5, 20, 10, tzinfo=tz),
    )
