"""Which PR a revert undid: from what the revert says ("Reverts owner/repo#N", "This reverts #N", "回滚
#N", "This reverts commit <sha>") or, failing that, from the title it quotes (`Revert "X"`, `revert: X`),
found in the index. Answers to "哪些 PR 被回滚了" / "which PRs were reverted" name both."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from chatbot.store.schema import PullRequestRow, RepoRow

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
_TITLE_NUMBER = re.compile(r"\s*\(#(\d{1,7})\)\s*$")


@dataclass(frozen=True, slots=True)
class Reverted:
    """The PR a revert undid, as the index has it."""

    number: int
    title: str
    html_url: str
    merged_at: datetime | None


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
        number = _TITLE_NUMBER.search(reverted_title)
        if number:
            numbers.append(int(number.group(1)))
    commits = tuple(m.group(1).lower() for m in _COMMIT.finditer(body or ""))
    return RevertClues(tuple(dict.fromkeys(numbers)), commits, reverted_title or None)


def reverted_prs(session: Session, repo: RepoRow, numbers: Collection[int]) -> dict[int, Reverted]:
    """For each PR of `numbers` that reverts another PR of the index, that PR (by the revert's number).
    A revert's candidates must be other PRs merged no later than it."""
    if not numbers:
        return {}
    pr = PullRequestRow
    rows = session.execute(
        select(pr.number, pr.title, pr.body, pr.merged_at).where(
            pr.repo_id == repo.id, pr.number.in_(list(numbers))
        )
    ).all()
    found: dict[int, Reverted] = {}
    for number, title, body, merged_at in rows:
        clues = revert_clues(title or "", body or "")
        if not (clues.numbers or clues.commits or clues.title):
            continue
        earlier = [pr.repo_id == repo.id, pr.number != number]
        if merged_at is not None:
            earlier.append(pr.merged_at <= merged_at)
        columns = select(pr.number, pr.title, pr.html_url, pr.merged_at).where(*earlier)
        candidates = []
        if clues.numbers:
            by_number = {
                row.number: row for row in session.execute(columns.where(pr.number.in_(clues.numbers)))
            }
            candidates = [by_number[n] for n in clues.numbers if n in by_number]
        for commit in clues.commits:
            candidates += session.execute(
                columns.where(func.lower(pr.merge_commit_sha).like(f"{commit}%"))
            ).all()
        if clues.title:
            written = _TITLE_NUMBER.sub("", clues.title).strip().lower()
            candidates += session.execute(
                columns.where(func.lower(pr.title).in_({clues.title.lower(), written})).order_by(
                    pr.merged_at.desc()
                )
            ).all()
        if candidates:
            first = candidates[0]
            found[number] = Reverted(first.number, first.title, first.html_url, first.merged_at)
    return found
