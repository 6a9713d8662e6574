"""Checks that what an analysis says is grounded in its PR: the code identifiers it names occur in the
PR, and the files it names are files the PR changes."""

from __future__ import annotations

import re
from collections.abc import Iterable

from chatbot.analysis.lead import names_unchanged_file
from chatbot.models import PullRequest

# Code-like tokens: dotted names, snake_case, camelCase/PascalCase with an inner capital, --flags and
# CONSTANT_NAMES. Plain words are not identifiers.
_IDENTIFIER = re.compile(
    r"--[A-Za-z][\w-]*|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b|\b\w*_\w+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b",
    re.ASCII,
)


def pr_text(pr: PullRequest) -> str:
    parts = [pr.title, pr.header.body or ""]
    parts += [f.filename for f in pr.files] + [f.patch or "" for f in pr.files]
    parts += [r.body for r in pr.reviews] + [c.body for c in pr.comments]
    return "\n".join(parts)


def identifiers(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in _IDENTIFIER.finditer(text)]


def _occurs(identifier: str, source: str) -> bool:
    """An identifier occurs when it is in the PR as written, as a plural of a name in it (`TopKRouter`s),
    or, for a dotted config key built from YAML nesting (`actor.fsdp.param_offload`), part by part."""
    if identifier in source or (identifier.endswith("s") and identifier[:-1] in source):
        return True
    return "." in identifier and all(part in source for part in identifier.split("."))


def ungrounded(pr: PullRequest, texts: Iterable[str], labels: Iterable[str] = ()) -> list[str]:
    """Identifiers in `texts` that occur nowhere in the PR (module `labels` are the index's own names),
    and texts naming a file it does not change."""
    source = pr_text(pr)
    known = set(labels)
    changed = [f.filename for f in pr.files]
    texts = list(texts)
    problems = [i for t in texts for i in identifiers(t) if i not in known and not _occurs(i, source)]
    problems += [t for t in texts if names_unchanged_file(t, changed)]
    return problems
