"""Neutral domain types of prhub. Vendor objects are converted into these at the adapter edge."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Literal

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
    # surrogatepass: a lone surrogate from a broken upstream must not make hashing (and the sync) fail
    return hashlib.sha256(encoded.encode("utf-8", "surrogatepass")).hexdigest()


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


# The neutral reply model (DESIGN §4) ---------------------------------------------------------------
# Answers and cards are built once, as data; each renderer (Slack, Feishu, console, Markdown, HTML)
# escapes every span itself, so text from GitHub or an LLM can never become markup.

SpanStyle = Literal["plain", "bold", "italic", "code"]


@dataclass(frozen=True, slots=True)
class Span:
    """A run of text with one style, optionally a link. `text` is always plain, never markup."""

    text: str
    style: SpanStyle = "plain"
    url: str | None = None


Inline = tuple[Span, ...]


def plain(text: str) -> Span:
    return Span(text)


def bold(text: str) -> Span:
    return Span(text, "bold")


def code(text: str) -> Span:
    return Span(text, "code")


def link(text: str, url: str) -> Span:
    return Span(text, "plain", url)


def inline_text(spans: Inline) -> str:
    return "".join(span.text for span in spans)


@dataclass(frozen=True, slots=True)
class Heading:
    text: str
    level: int = 1  # 1 = the reply's title, 2 = a section, 3 = a sub-section


@dataclass(frozen=True, slots=True)
class Paragraph:
    spans: Inline


@dataclass(frozen=True, slots=True)
class BulletList:
    items: tuple[Inline, ...]
    ordered: bool = False


@dataclass(frozen=True, slots=True)
class Fields:
    """Key/value pairs, shown side by side where the platform can."""

    pairs: tuple[tuple[str, Inline], ...]


@dataclass(frozen=True, slots=True)
class Table:
    """Rows of cells under column names. Where a grid does not fit (a chat card, a phone), each row is
    shown as a small card: its first `lead` cells as the card's heading, the others labelled."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]
    lead: int = 1


@dataclass(frozen=True, slots=True)
class Context:
    """A small, muted line: freshness, sources, "as of" times."""

    spans: Inline


@dataclass(frozen=True, slots=True)
class Divider:
    pass


@dataclass(frozen=True, slots=True)
class Button:
    """A link button (`url`) or an action button (`action_id` + `value`, answered by the bot)."""

    label: str
    url: str | None = None
    action_id: str | None = None
    value: str | None = None
    primary: bool = False


@dataclass(frozen=True, slots=True)
class Actions:
    buttons: tuple[Button, ...]


Block = Heading | Paragraph | BulletList | Fields | Table | Context | Divider | Actions


@dataclass(frozen=True, slots=True)
class Reply:
    """What the bot says: blocks for rich platforms, and a plain-text rendering for notifications,
    terminals and logs. `more_url` is where a renderer that must truncate points the reader."""

    blocks: tuple[Block, ...]
    more_url: str | None = None
    ephemeral: bool = False

    @property
    def title(self) -> str:
        for block in self.blocks:
            if isinstance(block, Heading):
                return block.text
        return ""

    def to_dict(self) -> dict[str, Any]:
        """The reply as JSON-ready data: each block with its `type` (`prhub ask --json`)."""
        return {
            "blocks": [{"type": type(block).__name__.lower(), **asdict(block)} for block in self.blocks],
            "more_url": self.more_url,
        }

    def plain_text(self) -> str:
        """Every block as plain text, one per paragraph: the notification fallback."""
        lines: list[str] = []
        for block in self.blocks:
            if isinstance(block, Heading):
                lines.append(block.text)
            elif isinstance(block, Paragraph | Context):
                lines.append(inline_text(block.spans))
            elif isinstance(block, BulletList):
                lines.extend(
                    f"{f'{n}.' if block.ordered else '•'} {inline_text(item)}"
                    for n, item in enumerate(block.items, start=1)
                )
            elif isinstance(block, Fields):
                lines.extend(f"{key}: {inline_text(value)}" for key, value in block.pairs)
            elif isinstance(block, Table):
                lines.append(" | ".join(block.columns))
                lines.extend(" | ".join(inline_text(cell) for cell in row) for row in block.rows)
            elif isinstance(block, Actions):
                lines.extend(f"{b.label}: {b.url}" for b in block.buttons if b.url)
        return "\n".join(line for line in lines if line)


@dataclass(frozen=True, slots=True)
class Message:
    """A chat message as every platform's adapter hands it to the bot."""

    text: str
    platform: str = "console"
    channel: str | None = None
    user: str | None = None
    workspace: str | None = None
    direct: bool = False  # a direct message (no mention needed)
    # The conversation the message belongs to within its channel (Slack thread_ts, Feishu root message
    # id, "console" for `prhub chat`): follow-ups are read against its last question. None: no memory.
    thread: str | None = None
    # The channel a side conversation was opened beside (Slack's assistant panel next to a channel): its
    # subscriptions give the default repo; the conversation itself stays in `channel`.
    context_channel: str | None = None
