"""Small builders for the pull requests the analysis tests write themselves."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from chatbot.models import Comment, PRFile, PullHeader, PullRequest, Review

WHEN = datetime(2026, 6, 15, 8, 0, tzinfo=UTC)


def diff(added: Sequence[str] = (), removed: Sequence[str] = (), context: str = "    pass") -> str:
    """A one-hunk unified diff: a context line, the removed lines, then the added ones."""
    lines = [f"@@ -1,{len(removed) + 1} +1,{len(added) + 1} @@", f" {context}"]
    lines += [f"-{line}" for line in removed]
    lines += [f"+{line}" for line in added]
    return "\n".join(lines)


def changed(
    path: str,
    added: Sequence[str] = (),
    removed: Sequence[str] = (),
    status: str = "modified",
    additions: int | None = None,
    deletions: int | None = None,
) -> PRFile:
    """A changed file whose patch adds and removes the given lines (counts default to the lines)."""
    return PRFile(
        filename=path,
        status=status,
        additions=len(added) if additions is None else additions,
        deletions=len(removed) if deletions is None else deletions,
        patch=diff(added, removed) if added or removed else None,
    )


def code(path: str, lines: int, status: str = "modified") -> PRFile:
    """A source file with `lines` plain added lines of code."""
    return changed(path, [f"    value_{i} = compute({i})" for i in range(lines)], status=status)


def make_pr(
    title: str,
    body: str = "",
    files: Iterable[PRFile] = (),
    reviews: Iterable[Review] = (),
    comments: Iterable[Comment] = (),
    repo: str = "verl-project/verl",
    number: int = 1,
    changed_files: int | None = None,
    additions: int | None = None,
    deletions: int | None = None,
    content_hash: str = "",
) -> PullRequest:
    """A merged PR; totals default to the sums over `files`. Pass `content_hash` to skip hashing (text
    with lone surrogates cannot be hashed, and only the GitHub adapter is expected to clean it)."""
    file_list = tuple(files)
    header = PullHeader(
        repo=repo,
        number=number,
        title=title,
        body=body,
        author="alice",
        created_at=WHEN,
        updated_at=WHEN,
        merged_at=WHEN,
    )
    return PullRequest(
        header=header,
        files=file_list,
        reviews=tuple(reviews),
        comments=tuple(comments),
        additions=sum(f.additions for f in file_list) if additions is None else additions,
        deletions=sum(f.deletions for f in file_list) if deletions is None else deletions,
        changed_files=len(file_list) if changed_files is None else changed_files,
        content_hash=content_hash,
    )


def review(author: str, state: str, body: str) -> Review:
    return Review(author=author, state=state, body=body, submitted_at=WHEN)


def comment(author: str, body: str, path: str | None = None) -> Comment:
    return Comment(author=author, body=body, created_at=WHEN, path=path)
