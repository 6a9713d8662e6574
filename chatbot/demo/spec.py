"""The shape of one written demo pull request: text, files with their patches, reviews, and when it was
merged relative to "now" (weeks ago, weekday and local time), so the demo is always about recent weeks."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$")
_DAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}


def patch(text: str) -> str:
    """A unified-diff hunk list written indented in Python source, as GitHub returns it: dedented, blank
    lines as blank context lines, and every `@@ -a +b @@` header given its true line counts."""
    lines = textwrap.dedent(text).strip("\n").split("\n")
    out: list[str] = []
    header: tuple[int, int, str, int] | None = None  # (old start, new start, context, index in out)
    old = new = 0

    def close() -> None:
        if header is not None:
            start_old, start_new, context, at = header
            out[at] = f"@@ -{start_old},{old} +{start_new},{new} @@{context}"

    for line in lines:
        match = _HUNK.match(line)
        if match:
            close()
            header = (int(match.group(1)), int(match.group(2)), match.group(3), len(out))
            old = new = 0
            out.append(line)
            continue
        if header is None:
            raise ValueError(f"patch line before the first hunk header: {line!r}")
        line = line or " "
        if line[0] not in "+- \\":
            raise ValueError(f"not a diff line: {line!r}")
        old += line[0] in "- "
        new += line[0] in "+ "
        out.append(line)
    close()
    return "\n".join(out)


def count_lines(diff: str) -> tuple[int, int]:
    """(added, removed) lines of a patch."""
    lines = diff.split("\n")
    return (
        sum(1 for x in lines if x.startswith("+")),
        sum(1 for x in lines if x.startswith("-")),
    )


@dataclass(frozen=True, slots=True)
class DemoFile:
    """One changed file. The totals default to the patch's own counts; a file whose patch is an excerpt
    of a larger diff states its real totals (`additions`, `deletions`)."""

    path: str
    diff: str
    status: str = "modified"
    additions: int | None = None
    deletions: int | None = None
    previous_path: str | None = None

    @property
    def totals(self) -> tuple[int, int]:
        added, removed = count_lines(self.diff)
        return (
            self.additions if self.additions is not None else added,
            self.deletions if self.deletions is not None else removed,
        )


@dataclass(frozen=True, slots=True)
class DemoReview:
    """A submitted review, `hours` after the PR was opened (never after it was merged)."""

    author: str
    state: str
    body: str
    hours: float = 4.0


@dataclass(frozen=True, slots=True)
class DemoComment:
    """A conversation comment, or a line comment when `path` is set."""

    author: str
    body: str
    path: str | None = None
    hours: float = 3.0


@dataclass(frozen=True, slots=True)
class DemoPR:
    """A merged pull request of the demo repository.

    `weeks_ago` is 0 for the current ISO week, 1 for the last complete one, up to 3; `merged` is the
    local weekday and time (`"tue 15:20"`); `open_hours` how long it was open before the merge."""

    number: int
    title: str
    author: str
    weeks_ago: int
    merged: str
    open_hours: float
    body: str
    files: tuple[DemoFile, ...]
    labels: tuple[str, ...] = ()
    reviews: tuple[DemoReview, ...] = ()
    comments: tuple[DemoComment, ...] = ()

    @property
    def weekday_minutes(self) -> int:
        """Minutes from the start of the week (Monday 00:00) to the merge."""
        day, _, clock = self.merged.partition(" ")
        hour, _, minute = clock.partition(":")
        return _DAYS[day.lower()] * 24 * 60 + int(hour) * 60 + int(minute)
