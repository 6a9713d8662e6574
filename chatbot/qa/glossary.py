"""The bilingual glossary (`glossary.toml`): concepts a question may name in Chinese or English, and the
words that find them in PR texts, so "显存" finds "OOM" and "memory" finds "显存"."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

GLOSSARY_FILE = Path(__file__).with_name("glossary.toml")
_HAN = re.compile(r"[\u3400-\u9fff]")


def term_pattern(term: str) -> re.Pattern[str]:
    """`term` as it may occur in lower-cased text: a Chinese term anywhere, an English term as whole
    words (Han characters, punctuation and underscores around it count as boundaries, so "sglang" is
    found in `sglang_rollout.py` and "test" in `test_dpo.py`), with its inflections ("reverted",
    "tests", "pinning" find "revert", "test", "pin") and, for a name ending in a letter, the versions
    people write after it ("qwen" finds "Qwen3" and "qwen2.5", "llama" "Llama-3.1")."""
    if _HAN.search(term):
        return re.compile(re.escape(term))
    version = r"|-?\d+(?:\.\d+)*" if term[-1:].isalpha() else ""
    return re.compile(
        rf"(?<![a-z0-9]){re.escape(term)}(?:s|es|ed|d|ing|{re.escape(term[-1:])}ed|{re.escape(term[-1:])}ing{version})?(?![a-z0-9])"
    )


@dataclass(frozen=True, slots=True)
class Glossary:
    """Concept name → its terms (lower-case), per-repo additions, and each concept's narrower terms:
    instances it also finds ("精度" finds "fp8") that, named in a question, mean only themselves (a
    question about FP8 is not about NaN or bf16)."""

    concepts: Mapping[str, tuple[str, ...]]
    per_repo: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    narrower: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # By repo (lower-cased): `find`'s terms, longest first, with their concepts and keys (`_candidates`).
    _by_repo: dict[str, list[tuple[str, str, str]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def terms(self, concept: str, repo: str | None = None) -> tuple[str, ...]:
        """Every term that finds `concept` in PR texts: its own, the repo's additions, its narrower ones."""
        return tuple(dict.fromkeys((*self._naming(concept, repo), *self.narrower.get(concept, ()))))

    def _naming(self, concept: str, repo: str | None) -> tuple[str, ...]:
        """The terms that name `concept` in a question (narrower ones excluded)."""
        extra = self.per_repo.get((repo or "").lower(), {}).get(concept, ())
        return (*self.concepts.get(concept, ()), *extra)

    def find(self, text: str, repo: str | None = None) -> list[tuple[str, list[tuple[int, int]]]]:
        """The concepts named in lower-cased `text`, in order of first mention, each with the spans of
        `text` that named it (a longer term wins over a shorter one inside it; of two concepts sharing a
        term, the one the glossary lists first, in every process: a set's order changed with the hash seed,
        so "版本升级" was the dependency concept in one run and the upgrade concept in the next)."""
        found: dict[str, list[tuple[int, int]]] = {}
        taken: list[tuple[int, int]] = []
        for term, name, key in self._candidates(repo):
            if key not in text:
                continue  # its pattern matches only where the key occurs: not compiled, not run for nothing
            for match in _patterns(term)[1].finditer(text):
                span = match.span()
                if any(span[0] < end and start < span[1] for start, end in taken):
                    continue
                taken.append(span)
                found.setdefault(name, []).append(span)
        return sorted(found.items(), key=lambda item: min(start for start, _ in item[1]))

    def _candidates(self, repo: str | None) -> list[tuple[str, str, str]]:
        """Every term naming a concept for `repo` with its concept and key (`_key`), longest first (of
        equal length, in the glossary's order): worked out once per repo, not for each question (each
        is read through `find` a few times)."""
        by = (repo or "").lower()
        candidates = self._by_repo.get(by)
        if candidates is None:
            names = dict.fromkeys((*self.concepts, *self.per_repo.get(by, {})))
            pairs = sorted(
                ((term, name) for name in names for term in self._naming(name, repo)),
                key=lambda pair: -len(pair[0]),
            )
            candidates = self._by_repo[by] = [(term, name, _key(term)) for term, name in pairs]
        return candidates


# A term of several English words ("flash-attn", "peak memory", "out of memory").
_SEPARATED = re.compile(r"[a-z0-9]+(?:[ _-][a-z0-9]+)+")


@cache
def _key(term: str) -> str:
    """The text every match of `term`'s pattern (`_patterns`) holds: the term, or the longest of its words.
    Found without compiling the pattern: a question names few of the glossary's 400-odd terms, and
    compiling them all cost every process's first question ~70 ms."""
    return max(_parts(term), key=len) if _SEPARATED.fullmatch(term) else term


@cache
def _patterns(term: str) -> tuple[str, re.Pattern[str]]:
    """How a question names `term`: the text every match holds, and the pattern; a term of several words
    with any of a space, an underscore, a hyphen or nothing between them, as people write a name
    ("flash attn", "flash-attn", "flash_attn" all name flash-attn)."""
    if not _SEPARATED.fullmatch(term):
        return term, term_pattern(term)
    parts = _parts(term)
    pattern = term_pattern(" ".join(parts)).pattern.replace(re.escape(" "), "[ _-]?")
    return _key(term), re.compile(pattern)


def _parts(term: str) -> list[str]:
    return re.split(r"[ _-]", term)


def _terms(entry: object, key: str = "terms") -> tuple[str, ...]:
    words = entry.get(key, []) if isinstance(entry, dict) else []
    return tuple(str(word).lower() for word in words)


def parse_glossary(text: str) -> Glossary:
    """A glossary from TOML text: `[concepts.<name>] terms = [...]` (and optionally `narrower = [...]`),
    `[repo."owner/name".<name>] terms = [...]`."""
    data = tomllib.loads(text)
    concepts = {name: _terms(entry) for name, entry in data.get("concepts", {}).items()}
    narrower = {name: _terms(entry, "narrower") for name, entry in data.get("concepts", {}).items()}
    per_repo = {
        repo.lower(): {name: _terms(entry) for name, entry in entries.items()}
        for repo, entries in data.get("repo", {}).items()
    }
    return Glossary(concepts, per_repo, {name: terms for name, terms in narrower.items() if terms})


@cache
def default_glossary() -> Glossary:
    """The glossary shipped with prhub."""
    return parse_glossary(GLOSSARY_FILE.read_text(encoding="utf-8"))
