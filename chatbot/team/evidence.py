"""Where a risk sits and what a later PR touches, read from unified-diff patches and PR texts.

A risk's place is its file and the function (or configuration key) its evidence points at; a later PR
follows it up when its own patch of that file changes the same function, when its text cites the PR, or
when it says it fixes it. Everything here is a pure function of strings, so linking is deterministic.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

LinkKind = Literal["fixes", "cites", "function"]

_HUNK = re.compile(r"^@@[^@]*@@[ \t]*(.*)$")
# A definition in the languages the followed repos are written in (Python, JS/TS, Go, Rust). Only a
# function encloses a change: git names the class in a hunk header for any method's change, and "the same
# class" would make every later change of a big class a follow-up.
_DEF = re.compile(
    r"^\s*(?:export\s+)?(?:pub(?:\([\w:]+\))?\s+)?(?:async\s+)?(?P<kind>def|class|function|func|fn|struct|impl)"
    r"\s+(?:\([^)]*\)\s*)?(?P<name>[A-Za-z_]\w*)"
)
_CONTAINERS = ("class", "struct", "impl")
# Function names that do not identify a change: special methods (every class has an `__init__`) and the
# usual names of closures. A risk is not placed in one, so a later change there is no follow-up.
_GENERIC = re.compile(r"^(?:__\w+__|wrapper|inner|decorator|wrapped|fn|func|f|_)$")
# A configuration key or an assignment at the start of a line: `ppo_epochs: 2`, `max_len = 4096`.
_KEY = re.compile(r"^\s*-?\s*([A-Za-z_][\w.-]*)\s*(?::(?:\s|$)|=(?!=))")
_ARROW = " → "
# A configuration key names one place only when it is compound (`max_prompt_length`, `dataLoader`): a
# bare word (`enable`, `steps`, `path`) recurs under many sections of one file, and a diff line shows only
# the leaf, so a later change of "the same" bare key is most often another section's.
_COMPOUND_KEY = re.compile(r"[_-]|[a-z][A-Z]")
# "fixes #12", "closes owner/repo#12", "resolved: #12", "修复 #12", "修复了问题 #12".
_FIXES = re.compile(
    r"(?:\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\b\s*:?\s*|(?:修复|修正|解决|关闭)了?\s*(?:问题|issue)?\s*)"
    r"(?:(?P<repo>[\w.-]+/[\w.-]+))?#(?P<n>\d+)",
    re.I,
)
_FIXES_URL = re.compile(
    r"(?:\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\b\s*:?\s*|(?:修复|修正|解决|关闭)了?\s*)"
    r"https?://github\.com/(?P<repo>[\w.-]+/[\w.-]+)/(?:pull|issues)/(?P<n>\d+)",
    re.I,
)
_URL = re.compile(r"https?://github\.com/(?P<repo>[\w.-]+/[\w.-]+)/(?:pull|issues)/(?P<n>\d+)", re.I)
_CITE = re.compile(r"(?:(?<![\w/&#])|(?<=\())(?:(?P<repo>[\w.-]+/[\w.-]+))?#(?P<n>\d{1,7})\b")


@dataclass(frozen=True, slots=True)
class Place:
    """Where a risk sits: a file of the PR ("" when the evidence names none) and the function or key."""

    file: str
    symbol: str


def _function(match: re.Match[str] | None) -> str | None:
    """The function a definition line opens; None for a class (or no definition)."""
    if match is None or match.group("kind") in _CONTAINERS:
        return None
    return match.group("name")


def _lines(patch: str) -> Iterator[tuple[str, str | None, re.Match[str] | None]]:
    """Each diff line after the file header, with the function enclosing it (the last one opened above
    it in its hunk, else the one the hunk header names; a class line closes it) and its own definition."""
    current: str | None = None
    for line in patch.split("\n"):
        hunk = _HUNK.match(line)
        if hunk:
            current = _function(_DEF.match(hunk.group(1)))
            continue
        if line.startswith(("+++", "---")):
            continue
        body = line[1:] if line[:1] in ("+", "-", " ") else line
        definition = _DEF.match(body)
        yield line, current, definition
        if definition:
            current = _function(definition)


def _changed_symbols(patch: str) -> tuple[Counter[str], set[str]]:
    """The functions enclosing the changed lines of a patch, counted; and the names defined, or keys
    set, on the changed lines themselves."""
    enclosing: Counter[str] = Counter()
    own: set[str] = set()
    for line, current, definition in _lines(patch):
        if not line.startswith(("+", "-")):
            continue
        if definition:
            own.add(definition.group("name"))
        else:
            key = _KEY.match(line[1:])
            if key:
                own.add(key.group(1))
        if current:
            enclosing[current] += 1
    return enclosing, own


def touched_symbols(patch: str | None) -> frozenset[str]:
    """The functions and keys a patch changes: those enclosing a changed line, and those defined or set
    on one."""
    if not patch:
        return frozenset()
    enclosing, own = _changed_symbols(patch)
    return frozenset(enclosing) | frozenset(own)


def _enclosing_at(patch: str, text: str) -> str:
    """Where `text`, a risk's detail, sits in a patch: the name itself when a changed line defines it
    (a removed or re-signed `def`/`class` is the place, not the function the file's change centres on);
    else the function enclosing the first changed line that starts with `text` (the line's own function
    when it opens one); "" when no line matches."""
    lines = [item for item in _lines(patch) if item[0].startswith(("+", "-"))]
    if any(definition and definition.group("name") == text for _, _, definition in lines):
        return text
    for line, current, definition in lines:
        if line[1:].strip().startswith(text):
            return _function(definition) or current or ""
    return ""


def risk_place(evidence: str, patches: Mapping[str, str | None]) -> Place:
    """Where a risk whose evidence reads `evidence` sits in a PR with these `patches` (file -> patch):
    the longest file path the evidence names, then the function of the line it quotes, the key it names
    (`path: key: old → new`), or, for a whole file, the function where the file's change concentrates."""
    file = next((path for path in sorted(patches, key=len, reverse=True) if path and path in evidence), "")
    if not file:
        return Place("", "")
    patch = patches.get(file) or ""
    detail = evidence.split(file, 1)[1].lstrip(": ").strip()
    if detail and (_ARROW in detail or detail.startswith("-")):
        key = detail.split(":", 1)[0].lstrip("-").strip()[:200]
        return Place(file, key if "." in key or _COMPOUND_KEY.search(key) else "")
    if detail:
        symbol = _enclosing_at(patch, detail[:80])
        if symbol and not _GENERIC.match(symbol):
            return Place(file, symbol)
    enclosing, _ = _changed_symbols(patch)
    ranked = [name for name, _ in enclosing.most_common() if not _GENERIC.match(name)]
    return Place(file, ranked[0] if ranked else "")


def same_symbol(symbol: str, touched: Iterable[str]) -> bool:
    """Whether a later patch's touched names include the risk's symbol; a dotted configuration key
    (`rollout.agent.max_turns`) also matches by its last part, the key as the later diff's line shows it,
    when that part is compound (`rollout.n` is not every `n:` of the file)."""
    names = set(touched)
    if not symbol:
        return False
    leaf = symbol.rsplit(".", 1)[-1]
    return symbol in names or (leaf != symbol and bool(_COMPOUND_KEY.search(leaf)) and leaf in names)


def references(text: str, repo: str) -> dict[int, LinkKind]:
    """The PR numbers of `repo` a PR's title and description name, each as `fixes` (after a closing
    keyword: fixes, closes, resolves, 修复, 解决) or `cites`. References to another repo are ignored."""
    found: dict[int, LinkKind] = {}

    def same_repo(named: str | None) -> bool:
        return named is None or named.lower() == repo.lower()

    for pattern in (_FIXES, _FIXES_URL):
        for match in pattern.finditer(text):
            if same_repo(match.group("repo")):
                found[int(match.group("n"))] = "fixes"
    for pattern in (_URL, _CITE):
        for match in pattern.finditer(text):
            if same_repo(match.group("repo")):
                found.setdefault(int(match.group("n")), "cites")
    return found
