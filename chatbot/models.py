"""Neutral domain types of prhub. Vendor objects are converted into these at the adapter edge."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# Caps that keep one enormous PR (3,000 files, megabytes of diff) from blowing memory or the database.
# They match what GitHub itself does for large diffs: later files simply have no patch.
MAX_PATCH_CHARS = 8_000
MAX_TOTAL_PATCH_CHARS = 200_000
MAX_TEXT_CHARS = 4_000
MAX_BODY_CHARS = 65_536


@dataclass(frozen=True, slots=True)
class PRFile:
    """One changed file of a pull request; `patch` is None when GitHub (or our cap) left it out."""

    filename: str
    status: str = "modified"
    additions: int = 0
    deletions: int = 0
    patch: str | None = None
    previous_filename: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "filename": self.filename,
            "status": self.status,
            "additions": self.additions,
            "deletions": self.deletions,
        }
        if self.patch is not None:
            data["patch"] = self.patch
        if self.previous_filename:
            data["previous_filename"] = self.previous_filename
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PRFile:
        return cls(
            filename=data["filename"],
            status=data.get("status", "modified"),
            additions=int(data.get("additions", 0)),
            deletions=int(data.get("deletions", 0)),
            patch=data.get("patch"),
            previous_filename=data.get("previous_filename"),
        )


@dataclass(frozen=True, slots=True)
class Review:
    """A submitted review: who, the verdict (APPROVED, CHANGES_REQUESTED, COMMENTED…) and its text."""

    author: str
    state: str
    body: str = ""
    submitted_at: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "author": self.author,
            "state": self.state,
            "body": self.body,
            "submitted_at": self.submitted_at.isoformat() if self.submitted_at else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        at = data.get("submitted_at")
        return cls(
            data["author"], data["state"], data.get("body", ""), datetime.fromisoformat(at) if at else None
        )


@dataclass(frozen=True, slots=True)
class Comment:
    """A conversation comment, or a review comment on a line when `path` is set."""

    author: str
    body: str
    created_at: datetime | None = None
    path: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "author": self.author,
            "body": self.body,
            "created_at": self.created_at.isoformat() if self.created_at else None,
            "path": self.path,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Comment:
        at = data.get("created_at")
        return cls(
            data["author"], data.get("body", ""), datetime.fromisoformat(at) if at else None, data.get("path")
        )


@dataclass(frozen=True, slots=True)
class PullHeader:
    """What a pull-request list page says about one PR, before its files and reviews are fetched."""

    repo: str
    number: int
    title: str
    body: str
    author: str
    created_at: datetime
    updated_at: datetime
    merged_at: datetime | None
    closed_at: datetime | None = None
    html_url: str = ""
    base_ref: str = ""
    merge_commit_sha: str | None = None
    labels: tuple[str, ...] = ()
    author_name: str | None = None


@dataclass(frozen=True, slots=True)
class PullRequest:
    """A merged pull request with everything the index keeps about it."""

    header: PullHeader
    files: tuple[PRFile, ...] = ()
    reviews: tuple[Review, ...] = ()
    comments: tuple[Comment, ...] = ()
    # Totals from GitHub; they stay right even when the file list or patches were capped.
    additions: int = 0
    deletions: int = 0
    changed_files: int = 0
    content_hash: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.content_hash:
            object.__setattr__(self, "content_hash", compute_content_hash(self))

    @property
    def repo(self) -> str:
        return self.header.repo

    @property
    def number(self) -> int:
        return self.header.number

    @property
    def title(self) -> str:
        return self.header.title


def compute_content_hash(pr: PullRequest) -> str:
    """A digest of everything an analysis reads: a change here makes the PR's analysis stale."""
    h = pr.header
    material = {
        "title": h.title,
        "body": h.body,
        "labels": sorted(h.labels),
        "merged_at": h.merged_at.isoformat() if h.merged_at else None,
        "base": h.base_ref,
        "totals": [pr.additions, pr.deletions, pr.changed_files],
        "files": [f.to_dict() for f in pr.files],
        "reviews": [[r.author, r.state, r.body] for r in pr.reviews],
        "comments": [[c.author, c.body, c.path] for c in pr.comments],
    }
    encoded = json.dumps(material, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def cap_text(text: str | None, limit: int = MAX_TEXT_CHARS) -> str:
    """Text cut to `limit` characters, with a marker so a reader knows it was cut."""
    if not text:
        return ""
    return text if len(text) <= limit else text[:limit] + "\n…[truncated]"


def cap_files(files: list[PRFile]) -> tuple[PRFile, ...]:
    """Apply the per-file and per-PR patch caps; files past the budget keep their stats, lose the patch."""
    budget = MAX_TOTAL_PATCH_CHARS
    capped: list[PRFile] = []
    for f in files:
        patch = f.patch
        if patch is not None:
            patch = patch[:MAX_PATCH_CHARS]
            if len(patch) > budget:
                patch = None
            else:
                budget -= len(patch)
        capped.append(
            f
            if patch == f.patch
            else PRFile(f.filename, f.status, f.additions, f.deletions, patch, f.previous_filename)
        )
    return tuple(capped)
