"""ISO weeks in a timezone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from chatbot.weeks import Week, parse_day_or_time, parse_week

SHANGHAI = ZoneInfo("Asia/Shanghai")


def test_a_week_runs_monday_to_monday_in_its_timezone():
    week = parse_week("2026-W25", SHANGHAI)
    assert week.start == datetime(2026, 6, 15, tzinfo=SHANGHAI)
    assert week.end == datetime(2026, 6, 22, tzinfo=SHANGHAI)
    assert week.label == "2026-W25"


def test_the_week_containing_a_moment_uses_the_local_date():
    # Sunday 17:00 UTC is already Monday in Shanghai
    assert Week.containing(datetime.fromisoformat("2026-06-21T17:00:00+00:00"), SHANGHAI).week == 26


@pytest.mark.parametrize("text", ["2026-25", "W25", "2026-W54", "next week"])
def test_bad_weeks_are_refused_with_an_example(text):
    with pytest.raises(ValueError):
        parse_week(text, SHANGHAI)


def test_a_bare_date_is_midnight_in_the_configured_zone():
    assert parse_day_or_time("2026-06-01", SHANGHAI) == datetime(2026, 6, 1, tzinfo=SHANGHAI)
    assert parse_day_or_time("2026-06-22T09:00+08:00", SHANGHAI).hour == 9


@pytest.mark.parametrize("text", ["0001-W01", "1969-W52", "9999-W52", "٢٠٢٦-W25", "２０２６-W25", "2026-W٢٥"])
def test_weeks_outside_the_known_years_or_in_other_digits_are_refused(text):
    with pytest.raises(ValueError):
        parse_week(text, ZoneInfo("Asia/Shanghai"))


@pytest.mark.parametrize("text", ["0001-01-01", "1969-12-31", "9999-12-31"])
def test_days_outside_the_known_years_are_refused(text):
    with pytest.raises(ValueError):
        parse_day_or_time(text, ZoneInfo("Asia/Shanghai"))
