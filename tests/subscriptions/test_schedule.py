"""Push times in each subscription's timezone: weekdays, DST, and which week a push reports."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from chatbot.subscriptions.schedule import WEEKDAY_WORDS, last_occurrence, next_occurrence, period_of

SHANGHAI = ZoneInfo("Asia/Shanghai")
BERLIN = ZoneInfo("Europe/Berlin")
UTC = ZoneInfo("UTC")


def test_monday_0900_in_shanghai_is_monday_0100_utc():
    now = datetime(2026, 6, 22, 1, 0, 30, tzinfo=UTC)  # Monday 09:00:30 Shanghai
    due = last_occurrence(1, time(9, 0), SHANGHAI, now)
    assert due == datetime(2026, 6, 22, 1, 0, tzinfo=UTC)
    assert period_of(due, SHANGHAI).label == "2026-W25"


def test_one_second_before_the_time_the_last_push_was_a_week_ago():
    now = datetime(2026, 6, 22, 0, 59, 59, tzinfo=UTC)
    assert last_occurrence(1, time(9, 0), SHANGHAI, now) == datetime(2026, 6, 15, 1, 0, tzinfo=UTC)
    assert next_occurrence(1, time(9, 0), SHANGHAI, now) == datetime(2026, 6, 22, 1, 0, tzinfo=UTC)


def test_the_weekday_trap_monday_is_one_not_zero():
    assert WEEKDAY_WORDS["mon"] == WEEKDAY_WORDS["周一"] == 1 and WEEKDAY_WORDS["sun"] == 7
    friday = datetime(2026, 6, 19, 2, 0, tzinfo=SHANGHAI)
    assert next_occurrence(1, time(9, 30), SHANGHAI, friday).isoweekday() == 1


def test_berlin_across_the_march_dst_change():
    # Clocks jump from 02:00 to 03:00 on Sunday 2026-03-29; Monday 09:00 is then UTC+2.
    before = next_occurrence(1, time(9, 0), BERLIN, datetime(2026, 3, 25, tzinfo=BERLIN))
    after = next_occurrence(1, time(9, 0), BERLIN, datetime(2026, 3, 31, tzinfo=BERLIN))
    assert before.astimezone(UTC).hour == 7 and after.astimezone(UTC).hour == 7
    assert before == datetime(2026, 3, 30, 9, 0, tzinfo=BERLIN)
    # a time inside the skipped hour moves forward with the clock
    skipped = next_occurrence(7, time(2, 30), BERLIN, datetime(2026, 3, 28, 12, tzinfo=BERLIN))
    assert skipped.astimezone(BERLIN).hour == 3
