"""Pure conversions from GitHub REST JSON objects to prhub's neutral types, shared by the PyGithub
source and the JSON-lines import so both produce exactly the same PullRequest."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from chatbot.models import (
    MAX_BODY_CHARS,
    Comment,
    PRFile,
    PullHeader,
    PullRequest,
    Review,
    cap_files,
    cap_text,
)


class MalformedPayload(ValueError):
    """A GitHub object lacks a field prhub needs, or has one of the wrong type."""


def parse_time(value: Any) -> datetime | None:
    """GitHub's ISO-8601 timestamps (`2026-06-15T08:00:00Z`) as aware UTC datetimes."""
    if value in (None, ""):
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError as exc:
        raise MalformedPayload(f"not a timestamp: {value!r}") from exc
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _login(user: Any) -> str:
    if isinstance(user, Mapping):
        return str(user.get("login") or "ghost")
    return "ghost"  # GitHub's name for a deleted account


def _text(value: Any) -> str:
    """Text as Python str; invalid surrogates from a broken upstream are replaced, not raised later."""
    if value is None:
        return ""
    return str(value).encode("utf-8", "replace").decode("utf-8")


def header_from_rest(item: Mapping[str, Any], repo: str) -> PullHeader:
    """A PullHeader from one element of `GET /repos/{o}/{r}/pulls` (or the PR object itself)."""
    try:
        number = int(item["number"])
        created = parse_time(item.get("created_at"))
        updated = parse_time(item.get("updated_at")) or parse_time(item.get("merged_at")) or created
        if created is None or updated is None:
            raise MalformedPayload(f"PR #{number} has no created_at")
        labels = item.get("labels") or []
        return PullHeader(
            repo=repo.lower(),
            number=number,
            title=_text(item.get("title")),
            body=cap_text(_text(item.get("body")), MAX_BODY_CHARS),
            author=_login(item.get("user")),
            author_name=item.get("author_name"),
            created_at=created,
            updated_at=updated,
            merged_at=parse_time(item.get("merged_at")),
            closed_at=parse_time(item.get("closed_at")),
            html_url=str(item.get("html_url") or f"https://github.com/{repo}/pull/{number}"),
            base_ref=str((item.get("base") or {}).get("ref") or ""),
            merge_commit_sha=item.get("merge_commit_sha"),
            labels=tuple(
                str(label["name"]) if isinstance(label, Mapping) else str(label) for label in labels
            ),
        )
    except MalformedPayload:
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise MalformedPayload(f"unexpected pull request object: {exc!r}") from exc


def file_from_rest(item: Mapping[str, Any]) -> PRFile:
    return PRFile(
        filename=str(item["filename"]),
        status=str(item.get("status") or "modified"),
        additions=int(item.get("additions") or 0),
        deletions=int(item.get("deletions") or 0),
        patch=_text(item["patch"]) if item.get("patch") is not None else None,
        previous_filename=item.get("previous_filename"),
    )


def assemble(
    header: PullHeader,
    files: Iterable[PRFile],
    reviews: Iterable[Review] = (),
    comments: Iterable[Comment] = (),
    totals: Mapping[str, Any] | None = None,
) -> PullRequest:
    """The full PullRequest; totals come from the PR object when it has them, else from the files."""
    file_list = list(files)
    totals = totals or {}
    return PullRequest(
        header=header,
        files=cap_files(file_list),
        reviews=tuple(reviews),
        comments=tuple(comments),
        additions=int(totals.get("additions") or sum(f.additions for f in file_list)),
        deletions=int(totals.get("deletions") or sum(f.deletions for f in file_list)),
        changed_files=int(totals.get("changed_files") or len(file_list)),
    )


def pull_request_from_rest(item: Mapping[str, Any], repo: str) -> PullRequest:
    """A PullRequest from one self-contained object (a PR with `files`, as in JSON-lines exports)."""
    header = header_from_rest(item, repo)
    try:
        files = [file_from_rest(f) for f in item.get("files") or []]
        reviews = [
            Review(
                _login(r.get("user")),
                str(r.get("state") or ""),
                cap_text(_text(r.get("body"))),
                parse_time(r.get("submitted_at")),
            )
            for r in item.get("reviews") or []
        ]
        comments = [
            Comment(
                _login(c.get("user")),
                cap_text(_text(c.get("body"))),
                parse_time(c.get("created_at")),
                c.get("path"),
            )
            for c in item.get("comments_list") or []
        ]
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedPayload(f"PR #{header.number}: unexpected files or reviews: {exc!r}") from exc
    return assemble(header, files, reviews, comments, totals=item)
