"""What a revert's own title and description say about the change it undid: the PR numbers it names
("Reverts owner/repo#N", "This reverts #N", "回滚 #N"), the commits ("This reverts commit <sha>") and the
title it quotes (`Revert "X"`, `revert: X`). Pure text; `chatbot.qa.reverts` finds the PRs in the index."""

from __future__ import annotations

import re
from dataclasses import dataclass

_REVERT = r"(?:revert(?:s|ed|ing)?|回滚|回退|撤销|撤回|roll(?:s|ed)?\s+back)"
# A PR named right after a revert word, in the same sentence: "Reverts verl-project/verl#6350", "This
# reverts #3425", "回滚 #7004", "revert PR #12", "Revert the change of https://github.com/o/r/pull/3206".
_REFERENCE = re.compile(
    _REVERT
    + r"[^.。\n;；]{0,80}?(?:(?:[\w.-]+/[\w.-]+)?#(\d{1,7})\b|github\.com/[\w.-]+/[\w.-]+/pull/(\d{1,7}))",
    re.IGNORECASE,
)
_COMMIT = re.compile(r"\breverts? commit ([0-9a-f]{7,40})\b", re.IGNORECASE)
# `Revert "X"`, `Revert "X (#N)"`, `revert: X`, `[ci] Revert "X"`: the title of the PR it undid.
_QUOTED_TITLE = re.compile(
    r"^\s*(?:\[[^\]]*\]\s*)*(?:revert|回滚|回退)\s*(?::\s*|\s+)[\"“「'](?P<quoted>.+)[\"”」']\s*$"
    r"|^\s*(?:\[[^\]]*\]\s*)*revert\s*:\s*(?P<plain>.+?)\s*$",
    re.IGNORECASE,
)
TITLE_NUMBER = re.compile(r"\s*\(#(\d{1,7})\)\s*$")
# A title that opens with a revert word: `Revert "X"`, `revert: X`, `Revert #12`, `[ci] 回滚 "X"`.
_REVERT_TITLE = re.compile(r"\s*(?:\[[^\]]*\]\s*)*(?:revert|回滚|回退)(?![a-z])", re.IGNORECASE)


def is_revert_title(title: str) -> bool:
    """Whether a PR's title says it is a revert."""
    return bool(_REVERT_TITLE.match(title))


@dataclass(frozen=True, slots=True)
class RevertClues:
    """What a revert's own text says about the PR it undid: numbers (most reliable first), commits, and
    the quoted title."""

    numbers: tuple[int, ...] = ()
    commits: tuple[str, ...] = ()
    title: str | None = None


def revert_clues(title: str, body: str) -> RevertClues:
    """The references in a revert's title and description to what it reverts."""
    numbers: list[int] = []
    for text in (body or "", title):
        for match in _REFERENCE.finditer(text):
            numbers.append(int(match.group(1) or match.group(2)))
    quoted = _QUOTED_TITLE.match(title)
    reverted_title = None
    if quoted:
        reverted_title = (quoted.group("quoted") or quoted.group("plain") or "").strip()
        number = TITLE_NUMBER.search(reverted_title)
        if number:
            numbers.append(int(number.group(1)))
    commits = tuple(m.group(1).lower() for m in _COMMIT.finditer(body or ""))
    return RevertClues(tuple(dict.fromkeys(numbers)), commits, reverted_title or None)
