"""Reading GitHub-REST-shaped pull requests from a JSON-lines file, plain or gzip-compressed."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from adapters.github.rest import MalformedPayload, pull_request_from_rest
from chatbot.models import PullRequest


def read_pull_requests(path: Path, repo: str) -> Iterator[PullRequest | MalformedPayload]:
    """One PullRequest per non-empty line, streamed; a bad line yields a MalformedPayload naming it."""
    with path.open("rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    with _open_text(path, gzipped) as lines:
        for lineno, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                if not isinstance(item, dict):
                    raise MalformedPayload("not a JSON object")
                yield pull_request_from_rest(item, repo)
            except (ValueError, MalformedPayload) as exc:
                yield MalformedPayload(f"{path.name} line {lineno}: {exc}")


def _open_text(path: Path, gzipped: bool) -> IO[str]:
    if gzipped:
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return path.open("r", encoding="utf-8", errors="replace")
