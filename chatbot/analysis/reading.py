"""Where a reading guide starts: the public function or class with the most added or changed lines, in
a core file before any other code file; a class's own lines (fields) after functions and methods, an
entry point such as `main` last. Never a definition the PR deletes, and never a helper of a
line or two that happens to open a new file."""

from __future__ import annotations

from collections import Counter

from chatbot.analysis.features import _DEF_NAME, _HUNK, _LANDMARKS, LineHit, PRFeatures
from chatbot.models import PullRequest

# A definition this small is a helper (`def ceil_div(a, b): return (a + b - 1) // b`), not a place to
# start reading; a start needs this many of its lines added or changed.
START_MIN_LINES = 4
_TIER_ORDER = {"core": 0, "normal": 1, "peripheral": 2}


def _sizes(patch: str) -> tuple[Counter[str], set[str]]:
    """Added lines per definition the new file keeps (`Class.method` for a method), and which of those
    names are classes: lines counted to a class are its fields, or a method whose `def` the hunk does
    not show (for Python the hunk header names the enclosing top-level class), less telling of where
    the logic changed than a function's."""
    sizes: Counter[str] = Counter()
    class_names: set[str] = set()
    current: str | None = None
    classes: list[tuple[int, str]] = []  # (indentation, name) of the classes enclosing the current line
    for line in patch.split("\n"):
        hunk = _HUNK.match(line)
        if hunk:
            header = _DEF_NAME.match(hunk.group(1))
            current = header.group(1) if header else None
            # A header naming a class encloses every indented definition of the hunk.
            is_class = bool(header and current and hunk.group(1).lstrip().startswith("class "))
            classes = [(0, current)] if is_class and current else []
            if is_class and current:
                class_names.add(current)
            continue
        if not line:
            continue
        definition = _DEF_NAME.match(line)
        if definition:
            body = line[1:]
            indent = len(body) - len(body.lstrip())
            if line.startswith("-"):
                current = None  # lines under a deleted definition belong to nothing kept
                continue
            classes = [(i, n) for i, n in classes if i < indent]
            name = definition.group(1)
            current = f"{classes[-1][1]}.{name}" if classes else name
            if body.lstrip().startswith("class "):
                classes.append((indent, name))
                class_names.add(current)
        if line.startswith("+") and current:
            sizes[current] += 1
    return sizes, class_names


def _public(name: str) -> bool:
    """A public name, or a dunder of a named class (`Worker.__init__`, never a bare `__enter__`)."""
    leaf = name.rsplit(".", 1)[-1]
    return not leaf.startswith("_") or (leaf.startswith("__") and leaf.endswith("__") and "." in name)


def reading_start(pr: PullRequest, f: PRFeatures) -> LineHit | None:
    """The definition to start reading at, as `LineHit(path, name)`; None when no kept public definition
    has START_MIN_LINES added or changed lines (the guide then starts at the file the features chose)."""
    removed = {h.line.split("(")[0] for h in f.api_removed}
    best: tuple[bool, bool, int, int, str, str] | None = None
    for raw, facts in zip(pr.files, f.files, strict=True):
        if not facts.is_code or facts.status == "removed" or not raw.patch:
            continue
        sizes, class_names = _sizes(raw.patch)
        for name, size in sizes.items():
            if size < START_MIN_LINES or not _public(name) or name.rsplit(".", 1)[-1] in removed:
                continue
            # An entry point (`main`) says where a program starts, not what changed: last.
            landmark = name.rsplit(".", 1)[-1] in _LANDMARKS
            ranked = (landmark, name in class_names, _TIER_ORDER.get(facts.tier, 1), -size, facts.path, name)
            if best is None or ranked < best:
                best = ranked
    return LineHit(best[4], best[5]) if best else None
