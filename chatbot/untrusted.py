"""Cleaning of text that comes from outside (PR titles, bodies, reviews, file names), once, where it
enters the index.

Why: PostgreSQL refuses a NUL byte in text and JSON (one such title stopped every sync of its repo), and
control characters, bidi overrides and zero-width characters from a PR title would otherwise reach chat
messages, HTML, Markdown and terminals, where they can reorder, hide or restyle what a reader sees.
"""

from __future__ import annotations

import re
from dataclasses import replace

from chatbot.models import Comment, PRFile, PullRequest, Review

# C0 controls but newline and tab, DEL and the C1 controls (0x9b is a one-byte terminal CSI).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Bidi embeddings, overrides and isolates, the Arabic letter mark, left-to-right/right-to-left marks,
# the zero-width space, the word joiner and a stray byte-order mark: invisible, yet they change what a
# reader sees. The zero-width (non-)joiners stay: scripts and emoji sequences need them.
_INVISIBLE = re.compile(r"[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
# Lone surrogates (from a broken upstream) cannot be encoded as UTF-8 by any database driver.
_SURROGATES = re.compile(r"[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """`text` with line breaks normalised to `\\n` and the characters above removed (a lone surrogate
    becomes U+FFFD). Idempotent, so cleaning twice changes nothing."""
    if text.isascii() and text.isprintable():
        return text
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _INVISIBLE.sub("", _CONTROLS.sub("", text))
    return _SURROGATES.sub("\ufffd", text)


def clean_optional(text: str | None) -> str | None:
    return None if text is None else clean_text(text)


def clean_patch(patch: str | None) -> str | None:
    """A diff stays as it is (its control and bidi characters are part of the change an analysis may
    have to flag) but for NUL and lone surrogates, which no database can store."""
    if patch is None:
        return None
    return _SURROGATES.sub("\ufffd", patch.replace("\x00", "\ufffd"))


def clean_pull_request(pr: PullRequest) -> PullRequest:
    """The PR with every text field cleaned; its content hash is computed over the cleaned text."""
    h = pr.header
    header = replace(
        h,
        title=clean_text(h.title),
        body=clean_text(h.body),
        author=clean_text(h.author),
        author_name=clean_optional(h.author_name),
        html_url=clean_text(h.html_url),
        base_ref=clean_text(h.base_ref),
        merge_commit_sha=clean_optional(h.merge_commit_sha),
        labels=tuple(clean_text(label) for label in h.labels),
    )
    return PullRequest(
        header=header,
        files=tuple(_clean_file(f) for f in pr.files),
        reviews=tuple(
            Review(clean_text(r.author), clean_text(r.state), clean_text(r.body), r.submitted_at)
            for r in pr.reviews
        ),
        comments=tuple(
            Comment(clean_text(c.author), clean_text(c.body), c.created_at, clean_optional(c.path))
            for c in pr.comments
        ),
        additions=pr.additions,
        deletions=pr.deletions,
        changed_files=pr.changed_files,
    )


def _clean_file(f: PRFile) -> PRFile:
    return PRFile(
        filename=clean_text(f.filename),
        status=clean_text(f.status),
        additions=f.additions,
        deletions=f.deletions,
        patch=clean_patch(f.patch),
        previous_filename=clean_optional(f.previous_filename),
    )
