"""Per-repository module maps: which module a changed path belongs to, how title words are normalised,
which paths are core, peripheral or memory/concurrency-sensitive. Maps are TOML files in `module_maps/`."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

MAPS_DIR = Path(__file__).resolve().parent / "module_maps"
DEFAULT_MAP = MAPS_DIR / "default.toml"

# A bracket word that is a sequence marker (`[1/n]`, `[2/3]`, `[3]`) or punctuation is never a module.
_NOT_A_NAME = re.compile(r"^(?:\d+(?:/(?:\d+|n))?|n|[\W_]*)$")
_VALID_NAME = re.compile(r"^[\w.+-]{2,32}$")
PATH_CACHE_SIZE = 50_000
# Folders of a package that hold its helpers, experiments or vendored code rather than what it is for (a
# trainer, workers, models): the folder inside one names the module (`pkg/utils/dataset/x.py` -> dataset),
# and in a repository whose map names no core paths they are not core.
HELPER_FOLDERS = frozenset(
    {
        "utils",
        "util",
        "helpers",
        "helper",
        "common",
        "misc",
        "experimental",
        "contrib",
        "third_party",
        "vendor",
        "vendored",
        "_vendor",
        "compat",
        "extras",
        "extra",
    }
)
# A package folder named in the plural (`workers/`, `models/`, `backends/`, `handlers/`) holds components:
# the subfolder inside it is the module (`pkg/workers/rollout/x.py` -> rollout), as a title tag would name
# it; a file directly inside (`pkg/workers/fsdp_workers.py`) stays in the collection's module.
_COLLECTION = re.compile(r"^[a-z][a-z0-9_]*[a-rt-z0-9_](?<![iu])s$")


class ModuleMapError(ValueError):
    """A module map file is missing, is not TOML, or has entries of the wrong shape."""


def _glob_to_regex(glob: str) -> str:
    """A glob over a whole path where '*' also crosses '/' (so `docs/*` covers every file under docs/)."""
    out: list[str] = []
    for char in glob:
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        else:
            out.append(re.escape(char))
    return "".join(out)


class GlobSet:
    """An ordered list of globs compiled into one regex: one C-level match per path, first match wins."""

    __slots__ = ("_labels", "_pattern")

    def __init__(self, pairs: Iterable[tuple[str, str]]) -> None:
        items = list(pairs)
        self._labels = [label for _, label in items]
        alternatives = [f"(?P<g{i}>{_glob_to_regex(glob)})\\Z" for i, (glob, _) in enumerate(items)]
        self._pattern = re.compile("|".join(alternatives)) if alternatives else None

    def first(self, path: str) -> str | None:
        """The label of the first glob matching the whole path, or None."""
        if self._pattern is None:
            return None
        match = self._pattern.match(path)
        if match is None or match.lastgroup is None:
            return None
        return self._labels[int(match.lastgroup[1:])]

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.first(path) is not None


@dataclass(frozen=True)
class ModuleMap:
    """How one repository's paths and title words map to modules (see `module_maps/default.toml`)."""

    repo: str
    rules: tuple[tuple[str, str], ...]
    synonyms: Mapping[str, str] = field(default_factory=dict)
    not_modules: frozenset[str] = frozenset()
    core: tuple[str, ...] = ()
    peripheral: tuple[str, ...] = ()
    memory_sensitive: tuple[str, ...] = ()
    distributed_sensitive: tuple[str, ...] = ()
    key_dependencies: frozenset[str] = frozenset()
    _rules: GlobSet = field(init=False, repr=False, compare=False)
    _tiers: GlobSet = field(init=False, repr=False, compare=False)
    _memory: GlobSet = field(init=False, repr=False, compare=False)
    _distributed: GlobSet = field(init=False, repr=False, compare=False)
    # Path -> (module, tier, memory-sensitive, distributed-sensitive): a repository's PRs touch the same
    # files again and again, so each path is matched against the globs once.
    _paths: dict[str, tuple[str, str, bool, bool]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_rules", GlobSet(self.rules))
        # Core is checked before peripheral so a repo can mark `pkg/*` core while `*.md` stays peripheral
        # only where no core glob claims it.
        tiers = [(g, "core") for g in self.core] + [(g, "peripheral") for g in self.peripheral]
        object.__setattr__(self, "_tiers", GlobSet(tiers))
        object.__setattr__(self, "_memory", GlobSet((g, "memory") for g in self.memory_sensitive))
        object.__setattr__(self, "_distributed", GlobSet((g, "dist") for g in self.distributed_sensitive))

    def module_for_path(self, path: str) -> str:
        """The module of one changed file: the first matching rule, else a generic guess from folders: the
        folder under a top-level package (`pkg/trainer/x.py` -> trainer; under a helper folder, the one
        inside it: `pkg/utils/dataset/x.py` -> dataset, and under a folder of components named in the
        plural, the component's: `pkg/workers/rollout/x.py` -> rollout), else the top-level folder, else
        "misc"."""
        found = self._rules.first(path)
        if found is not None:
            return found
        parts = [p for p in path.split("/") if p]
        if parts and parts[0] == "src":
            parts = parts[1:]
        if len(parts) >= 4 and (
            parts[1].lower() in HELPER_FOLDERS
            or (_COLLECTION.match(parts[1].lower()) and parts[2].lower() not in HELPER_FOLDERS)
        ):
            return self.normalize(parts[2]) or "misc"
        if len(parts) >= 3:
            return self.normalize(parts[1]) or "misc"
        if len(parts) == 2:
            return self.normalize(parts[0]) or "misc"
        return "misc"

    def path_facts(self, path: str) -> tuple[str, str, bool, bool]:
        """Module, tier, memory- and distributed-sensitivity of one path (remembered per map)."""
        facts = self._paths.get(path)
        if facts is None:
            if len(self._paths) >= PATH_CACHE_SIZE:
                self._paths.clear()
            facts = (
                self.module_for_path(path),
                self.tier(path),
                self.is_memory_sensitive(path),
                self.is_distributed_sensitive(path),
            )
            self._paths[path] = facts
        return facts

    def tier(self, path: str) -> str:
        """'core', 'peripheral' or 'normal' (neither listed)."""
        return self._tiers.first(path) or "normal"

    def is_memory_sensitive(self, path: str) -> bool:
        return path in self._memory

    def is_distributed_sensitive(self, path: str) -> bool:
        return path in self._distributed

    def normalize(self, word: str) -> str | None:
        """A title or path word as a module name (`Docs` -> doc, `single controller` -> single_controller),
        or None when it is not a module (`[WIP]`, `[1/n]`, empty)."""
        name = word.strip().strip("`'\"*").strip().lower()
        if name.endswith(".py"):
            name = name[:-3]
        name = re.sub(r"[\s\-]+", "_", name)
        name = self.synonyms.get(name, name)
        if name in self.not_modules or _NOT_A_NAME.match(name) or not _VALID_NAME.match(name):
            return None
        return name


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as exc:
        raise ModuleMapError(f"module map not found: {path}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ModuleMapError(f"module map {path} is not valid TOML: {exc}") from exc


def _rules(data: Mapping[str, Any], source: Path) -> list[tuple[str, str]]:
    rules = data.get("rules", [])
    out: list[tuple[str, str]] = []
    for entry in rules:
        if (
            not isinstance(entry, Mapping)
            or not isinstance(entry.get("glob"), str)
            or not entry.get("module")
        ):
            raise ModuleMapError(f"{source}: every rule needs a string `glob` and a `module`, got {entry!r}")
        out.append((entry["glob"], str(entry["module"]).lower()))
    return out


def _strings(data: Mapping[str, Any], table: str, key: str, source: Path) -> list[str]:
    value = data.get(table, {}).get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ModuleMapError(f"{source}: [{table}].{key} must be a list of strings")
    return list(value)


def _map_file_for(repo: str, maps_dir: Path | None) -> Path:
    """`owner/name` -> owner__name.toml (lower case, as repos are stored) in `maps_dir` when it is there
    (PRHUB_MODULE_MAP_DIR), else in the bundled module_maps/."""
    name = repo.strip().lower().replace("/", "__") + ".toml"
    if maps_dir is not None and (maps_dir / name).exists():
        return maps_dir / name
    return MAPS_DIR / name


@lru_cache(maxsize=64)
def _load(repo: str, path: Path | None, maps_dir: Path | None) -> ModuleMap:
    layers = [(DEFAULT_MAP, _read_toml(DEFAULT_MAP))]
    specific = path if path is not None else _map_file_for(repo, maps_dir)
    if path is not None or specific.exists():
        layers.insert(0, (specific, _read_toml(specific)))
    # The repository's layer comes first: its rules are tried first, its synonyms override the default's,
    # and its lists extend the default's.
    rules: list[tuple[str, str]] = []
    synonyms: dict[str, str] = {}
    lists: dict[tuple[str, str], list[str]] = {}
    for source, data in layers:
        rules += _rules(data, source)
        for alias, name in data.get("synonyms", {}).items():
            synonyms.setdefault(str(alias).lower(), str(name).lower())
        for table, key in (
            ("titles", "not_modules"),
            ("tiers", "core"),
            ("tiers", "peripheral"),
            ("sensitive", "memory"),
            ("sensitive", "distributed"),
            ("dependencies", "key"),
        ):
            lists.setdefault((table, key), []).extend(_strings(data, table, key, source))
    return ModuleMap(
        repo=repo.lower(),
        rules=tuple(rules),
        synonyms=MappingProxyType(synonyms),
        not_modules=frozenset(w.lower() for w in lists[("titles", "not_modules")]),
        core=tuple(lists[("tiers", "core")]),
        peripheral=tuple(lists[("tiers", "peripheral")]),
        memory_sensitive=tuple(lists[("sensitive", "memory")]),
        distributed_sensitive=tuple(lists[("sensitive", "distributed")]),
        key_dependencies=frozenset(w.lower() for w in lists[("dependencies", "key")]),
    )


def load_module_map(repo: str, path: Path | None = None, maps_dir: Path | None = None) -> ModuleMap:
    """The module map of `repo`: `path` (or `owner__name.toml` in `maps_dir` or the bundled
    `module_maps/`, when it exists) layered over `module_maps/default.toml`. Raises ModuleMapError for a
    missing `path` or a malformed file."""
    return _load(repo.lower(), path, maps_dir)
