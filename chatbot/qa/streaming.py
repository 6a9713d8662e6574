"""LLM text let through to a chat surface one checked unit at a time.

A model's streamed reply is buffered up to a sentence or paragraph boundary; each unit is checked
before anyone sees it (every PR it names must be one the answer cites), then handed on. A unit that
fails the check stops the stream: nothing after it, nor the unit itself, is shown, and the caller falls
back to the template answer, which replaces what was streamed. Units are whole sentences, so a PR
number is never split between two of them and a sentence is never shown half-checked.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator

# How a text names a PR: "#6512", "PR 6512", "PR#6512", "PR-6512", ".../pull/6512".
PR_MENTION = re.compile(r"(?:#|(?<![A-Za-z])(?:PR[\s#-]*|pulls?/))(\d{1,9})(?!\d)", re.IGNORECASE)
# Where a unit may end: after a sentence mark (a Latin one only before whitespace: "v1.2" and "e.g."
# inside a sentence do not end it), or at a line break.
_BOUNDARY = re.compile(r"[。！？；!?;]|\.(?=\s)|\n")
# Past this many characters without a boundary, a unit ends at the last space or comma instead, so a
# model writing one endless sentence still shows something (never inside "#6512": no space in it).
MAX_UNIT = 240
_SOFT_BOUNDARY = re.compile(r"[\s，,、]")


class UncitedPR(Exception):
    """A unit names PRs the answer does not cite (`numbers`); the LLM text must not be shown."""

    def __init__(self, numbers: Collection[int]) -> None:
        super().__init__(f"the text names PRs the answer does not cite: {sorted(numbers)}")
        self.numbers = tuple(sorted(numbers))


def mentioned_prs(text: str) -> set[int]:
    """The PR numbers a text names."""
    return {int(number) for number in PR_MENTION.findall(text)}


def check_cites(text: str, cited: Collection[int]) -> str:
    """`text` unchanged when every PR it names is in `cited`; raises UncitedPR otherwise."""
    uncited = mentioned_prs(text) - set(cited)
    if uncited:
        raise UncitedPR(uncited)
    return text


def _cut(buffer: str) -> int:
    """Where the complete units at the start of `buffer` end (0: none yet)."""
    ends = [match.end() for match in _BOUNDARY.finditer(buffer)]
    if ends:
        return ends[-1]
    if len(buffer) <= MAX_UNIT:
        return 0
    soft = [match.end() for match in _SOFT_BOUNDARY.finditer(buffer, 0, MAX_UNIT)]
    return soft[-1] if soft else 0


def checked_units(pieces: Iterable[str], cited: Collection[int]) -> Iterator[str]:
    """The text of `pieces` (a model's streamed reply) regrouped into units that end at a sentence or
    paragraph boundary, each checked before it is yielded; the rest at the end is the last unit. Raises
    UncitedPR at the first unit naming a PR outside `cited` (and the LLM's own LLMError)."""
    buffer = ""
    for piece in pieces:
        buffer += piece
        cut = _cut(buffer)
        if cut and buffer[:cut].strip():  # a blank line alone waits, to lead the next unit
            unit, buffer = buffer[:cut], buffer[cut:]
            yield check_cites(unit, cited)
    if buffer.strip():
        yield check_cites(buffer, cited)
