"""Clocks: the system clock, and a fixed clock for `--as-of` and tests."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta


class SystemClock:
    """Real time."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def sleep(self, seconds: float) -> None:
        time.sleep(max(0.0, seconds))


class FixedClock:
    """A clock that stands still until told to move; `sleep` advances it instead of waiting."""

    def __init__(self, at: datetime) -> None:
        if at.tzinfo is None:
            raise ValueError("FixedClock needs a timezone-aware time")
        self._at = at
        self.slept: list[float] = []

    def now(self) -> datetime:
        return self._at

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self._at += timedelta(seconds=max(0.0, seconds))
