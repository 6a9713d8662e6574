"""Which PR a revert undid: from what the revert says ("Reverts owner/repo#N", "This reverts #N", "回滚
#N", "This reverts commit <sha>") or, failing that, from the title it quotes (`Revert "X"`, `revert: X`),
found in the index. Answers to "哪些 PR 被回滚了" / "which PRs were reverted" name both."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from chatbot.analysis.reverts import TITLE_NUMBER, revert_clues
from chatbot.store.schema import PullRequestRow, RepoRow


@dataclass(frozen=True, slots=True)
class Reverted:
    """The PR a revert undid, as the index has it."""

    number: int
    title: str
    html_url: str
    merged_at: datetime | None


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
            written = TITLE_NUMBER.sub("", clues.title).strip().lower()
            candidates += session.execute(
                columns.where(func.lower(pr.title).in_({clues.title.lower(), written})).order_by(
                    pr.merged_at.desc()
                )
            ).all()
        if candidates:
            first = candidates[0]
            found[number] = Reverted(first.number, first.title, first.html_url, first.merged_at)
    return found
