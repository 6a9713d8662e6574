"""A sliding window of send times, the unit of every platform limit the adapters keep below (Feishu's
per-chat and per-app message limits, Slack's per-workspace streaming tiers, CardKit's per-card rate)."""

from __future__ import annotations

from collections import deque


class SlidingWindow:
    """At most `limit` events in any `period` seconds (a sliding log of event times)."""

    def __init__(self, limit: int, period: float) -> None:
        self.limit, self.period = limit, period
        self.times: deque[float] = deque()

    def delay(self, now: float) -> float:
        """Seconds until one more event fits; forgets events that left the window."""
        while self.times and self.times[0] <= now - self.period:
            self.times.popleft()
        return 0.0 if len(self.times) < self.limit else self.times[0] + self.period - now

    def take(self, now: float) -> bool:
        """Record an event at `now` when one more fits; False (nothing recorded) when it does not."""
        if self.delay(now) > 0:
            return False
        self.times.append(now)
        return True
