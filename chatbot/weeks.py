"""ISO weeks in a timezone: the unit of reports and of `--week` filters (DESIGN §8)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

_ISO_WEEK = re.compile(r"^\s*([0-9]{4})-?W([0-9]{1,2})\s*$", re.IGNORECASE)
# Weeks outside these years cannot be a merge week, and their neighbours (the previous week, for
# trends) may not exist as datetimes: 0001-W01 was a 500.
FIRST_YEAR, LAST_YEAR = 1970, 9998


@dataclass(frozen=True, slots=True)
class Week:
    """One ISO week (Monday 00:00 to the next Monday 00:00) in a timezone."""

    year: int
    week: int
    tz: ZoneInfo

    @property
    def start(self) -> datetime:
        return datetime.combine(date.fromisocalendar(self.year, self.week, 1), time(), self.tz)

    @property
    def end(self) -> datetime:
        """Exclusive: the Monday after."""
        return datetime.combine(
            date.fromisocalendar(self.year, self.week, 1) + timedelta(days=7), time(), self.tz
        )

    @property
    def label(self) -> str:
        return f"{self.year}-W{self.week:02d}"

    @classmethod
    def containing(cls, moment: datetime, tz: ZoneInfo) -> Week:
        iso = moment.astimezone(tz).isocalendar()
        return cls(iso.year, iso.week, tz)


def parse_week(text: str, tz: ZoneInfo) -> Week:
    """`2026-W25` (or `2026W25`) as a Week; ValueError with a readable message otherwise."""
    match = _ISO_WEEK.match(text)
    if not match:
        raise ValueError(f"not an ISO week: {text!r} (expected e.g. 2026-W25)")
    year, week = int(match.group(1)), int(match.group(2))
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise ValueError(f"{year} is outside the years prhub knows ({FIRST_YEAR}–{LAST_YEAR})")
    try:
        date.fromisocalendar(year, week, 1)
    except ValueError as exc:
        raise ValueError(f"{year} has no week {week}") from exc
    return Week(year, week, tz)


def parse_day_or_time(text: str, tz: ZoneInfo) -> datetime:
    """`2026-06-01` (midnight in `tz`) or a full ISO time (`2026-06-22T09:00+08:00`) as an aware time."""
    try:
        parsed = datetime.fromisoformat(text.strip())
    except ValueError as exc:
        raise ValueError(f"not a date or time: {text!r} (expected e.g. 2026-06-01)") from exc
    if not FIRST_YEAR <= parsed.year <= LAST_YEAR:
        raise ValueError(f"{text.strip()} is outside the years prhub knows ({FIRST_YEAR}–{LAST_YEAR})")
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=tz)


def last_complete_week(moment: datetime, tz: ZoneInfo) -> Week:
    """The last ISO week that has fully ended at `moment`: on Monday 2026-06-22 09:00 that is 2026-W25."""
    return Week.containing(Week.containing(moment, tz).start - timedelta(days=1), tz)


def local_time(moment: datetime, tz: ZoneInfo) -> str:
    """`moment` as a reader in `tz` reads it, the zone named: `2026-06-15 17:25 Asia/Shanghai`.
    The IANA name, not an abbreviation: "CST" is China, Cuba and US Central alike."""
    return f"{moment.astimezone(tz):%Y-%m-%d %H:%M} {tz.key}"
