"""When a subscription's card is due, in its own timezone (DST included), and which week it reports."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from chatbot.weeks import Week, last_complete_week

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # index + 1 = ISO weekday (1 = Monday)
WEEKDAY_WORDS: dict[str, int] = {
    **{name: i for i, name in enumerate(WEEKDAYS, start=1)},
    "monday": 1,
    "tuesday": 2,
    "wednesday": 3,
    "thursday": 4,
    "friday": 5,
    "saturday": 6,
    "sunday": 7,
    "周一": 1,
    "周二": 2,
    "周三": 3,
    "周四": 4,
    "周五": 5,
    "周六": 6,
    "周日": 7,
    "周天": 7,
    "星期一": 1,
    "星期二": 2,
    "星期三": 3,
    "星期四": 4,
    "星期五": 5,
    "星期六": 6,
    "星期日": 7,
    "星期天": 7,
    "礼拜一": 1,
    "礼拜二": 2,
    "礼拜三": 3,
    "礼拜四": 4,
    "礼拜五": 5,
    "礼拜六": 6,
    "礼拜天": 7,
}


def parse_time_of_day(text: str) -> time:
    """`9:30`, `09:30` or `9` as a time; ValueError otherwise."""
    hour, _, minute = text.strip().partition(":")
    value = time(int(hour), int(minute or 0))
    return value


def _occurrence(day: date, at: time, tz: ZoneInfo) -> datetime:
    """The wall-clock time `at` on `day` in `tz`. A time skipped by a DST jump moves forward with the
    clock (zoneinfo's fold=0 gives the pre-transition offset; normalising through UTC settles it)."""
    local = datetime.combine(day, at, tz)
    return local.astimezone(ZoneInfo("UTC")).astimezone(tz)


def last_occurrence(weekday: int, at: time, tz: ZoneInfo, now: datetime) -> datetime:
    """The latest scheduled time at or before `now`."""
    today = now.astimezone(tz).date()
    day = today - timedelta(days=(today.isoweekday() - weekday) % 7)
    occurrence = _occurrence(day, at, tz)
    return occurrence if occurrence <= now else _occurrence(day - timedelta(days=7), at, tz)


def next_occurrence(weekday: int, at: time, tz: ZoneInfo, now: datetime) -> datetime:
    """The first scheduled time strictly after `now`."""
    return _occurrence(
        last_occurrence(weekday, at, tz, now).astimezone(tz).date() + timedelta(days=7), at, tz
    )


def period_of(occurrence: datetime, tz: ZoneInfo) -> Week:
    """The week a push at `occurrence` reports: the last ISO week that ended before it."""
    return last_complete_week(occurrence, tz)
