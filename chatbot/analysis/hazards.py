"""Diff lines whose mechanism is a risk of its own, each kept with the evidence a risk names: TLS
certificate checks turned off, environment variables a process sets for everything it runs, new
options that are on by default, deleted modules, and edits to the masks of loss, value or advantage
code. Read from a PR's patches beside its features; `heuristic.py` words them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from chatbot.analysis.features import (
    ConfigChange,
    FileFacts,
    LineHit,
    PRFeatures,
    enclosing_function,
    file_config_changes,
    ships,
)
from chatbot.models import PullRequest

# Added lines that turn certificate checks off, in code, images, scripts and CI alike: `verify=False`,
# `ENV GIT_SSL_NO_VERIFY=true`, `git -c http.sslVerify=false`, `pip --trusted-host`, `wget
# --no-check-certificate`, `curl -k`, `PYTHONHTTPSVERIFY=0`, an unverified SSL context.
_TLS_OFF = re.compile(
    r"^\+(?!\+\+)(.*?((?:\bverify\s*=\s*False\b|GIT_SSL_NO_VERIFY\s*[=:]?\s*[\"']?(?:true|1)\b|"
    r"\bsslverify\s*[=:\s]\s*[\"']?false\b|PYTHONHTTPSVERIFY\s*[=:]\s*[\"']?0|"
    r"NODE_TLS_REJECT_UNAUTHORIZED\s*[=:]\s*[\"']?0|--no-check-certificate|trusted[-_]host|"
    r"\bcurl\b[^\n#]*\s(?:-k|--insecure)\b|_create_unverified_context|\bCERT_NONE\b|"
    r"check_hostname\s*=\s*False|strict-ssl\s*[=:\s]\s*false)).*)$",
    re.M | re.I,
)
# Every match of _TLS_OFF holds one of these words (lowercased).
_TLS_WORDS = (
    "verify",
    "node_tls_reject_unauthorized",
    "--no-check-certificate",
    "trusted",
    "curl",
    "_create_unverified_context",
    "cert_none",
    "check_hostname",
    "strict-ssl",
)
# `os.environ["X"] = …`, `os.environ.setdefault("X", …)`, `os.putenv("X", …)`: a variable set for the
# process and every library and child process it starts.
_ENV_SET = re.compile(
    r"^\+(?!\+\+)\s*(?:os\.)?(?:environ\s*\[\s*[\"']([A-Z][A-Z0-9_]{2,})[\"']\s*\]\s*=(?!=)\s*(.*)|"
    r"environ\.setdefault\(\s*[\"']([A-Z][A-Z0-9_]{2,})[\"']\s*,\s*(.*)\)|"
    r"putenv\(\s*[\"']([A-Z][A-Z0-9_]{2,})[\"']\s*,\s*(.*)\))\s*$",
    re.M,
)
_LITERAL = re.compile(r"^[\"']([^\"']*)[\"']$|^(-?\d+(?:\.\d+)?|True|False)$")
# Variables every process of a distributed job or a logger sets: setting one is no news.
ROUTINE_ENV = re.compile(
    r"^(?:(?:LOCAL_|NODE_|GROUP_)?RANK|(?:LOCAL_)?WORLD_SIZE|MASTER_(?:ADDR|PORT)|HOME|PATH|USER|PWD|TMPDIR)$|"
    r"(?:^|_)LOG_?LEVEL$|(?:^|_)LOGGING_LEVEL$"
)
_ON = frozenset({"true", "yes", "on"})
_SWITCHES_OFF = re.compile(r"^(?:disable|no|skip|without|ignore)_", re.I)
# Loss, value and advantage code, by its file or function; and a line that uses a mask (not an import,
# a comment or a docstring naming one).
_SCORING_CODE = re.compile(
    r"loss|advantage|\bgae\b|_gae|critic|core_algos|value|return|policy|reward|entropy|kl", re.I
)
_MASK = re.compile(r"\b\w*(?:mask|padding)\w*\b", re.I)
# A line that applies a mask (names normalised to MASK): multiplies, combines, slices or reduces with it,
# not one that only passes, declares or looks it up (`attention_mask,`, `response_mask: torch.Tensor`).
_APPLIES_MASK = re.compile(
    r"[*&|~]\s*\(?\s*MASK|MASK\s*[*&|]|MASK\s*\[[^\]\"']|MASK\.(?:sum|bool|float|any|all|logical_\w+)\(|"
    r"\bMASKed_\w+\(|\bwhere\(.*MASK"
)
_NOT_CODE = re.compile(r"^[+-]\s*(?:#|from\s|import\s|\"\"\"|'''|def\s|class\s|$)")
_HUNK_START = re.compile(r"^@@", re.M)


@dataclass(frozen=True, slots=True)
class EnvSet:
    """An environment variable set by an added line, with its value when the line gives a literal."""

    path: str
    name: str
    value: str | None
    where: str = ""


@dataclass(frozen=True, slots=True)
class Hazards:
    """What `find_hazards` found in one PR's diff."""

    tls_off: tuple[LineHit, ...] = ()
    env_set: tuple[EnvSet, ...] = ()
    on_by_default: tuple[ConfigChange, ...] = ()
    modules_removed: tuple[str, ...] = ()  # dotted module or package names
    mask_edits: tuple[LineHit, ...] = ()  # the added line, with the function it is in


def module_name(path: str) -> str:
    """`verl/third_party/sglang/__init__.py` -> `verl.third_party.sglang`; `src/pkg/a.py` -> `pkg.a`."""
    stem = path.removesuffix(".py").removesuffix("/__init__")
    parts = stem.split("/")
    if parts[0] in ("src", "lib", "python") and len(parts) > 1:
        parts = parts[1:]
    return ".".join(parts)


def _env_value(expression: str) -> str | None:
    match = _LITERAL.match(expression.strip())
    if not match:
        return None
    return match.group(1) if match.group(1) is not None else match.group(2)


def _tls_off(patch: str) -> list[re.Match[str]]:
    """The matches of _TLS_OFF in `patch`. An ASCII patch without one of _TLS_WORDS has none, and
    `str.find` says so at a sixth of the cost of the pattern, which tries its alternation at every
    position of every added line."""
    if patch.isascii():
        lowered = patch.lower()
        if not any(word in lowered for word in _TLS_WORDS):
            return []
    return list(_TLS_OFF.finditer(patch))


def _names_mask(patch: str) -> bool:
    """Whether `patch` names a mask or padding anywhere (where `_MASK` matches): by `str.find` in an
    ASCII patch, a tenth of the cost of the pattern, which tries `\\w*` at every word."""
    if not patch.isascii():
        return _MASK.search(patch) is not None
    lowered = patch.lower()
    return "mask" in lowered or "padding" in lowered


def _mask_edit(patch: str) -> LineHit | None:
    """The first added line that applies a mask differently, in a hunk that removes a line applying one:
    the mask itself changed, not only its name (`eos_mask` -> `response_mask`) or the code around it."""
    starts = [m.start() for m in _HUNK_START.finditer(patch)] or [0]
    for begin, end in zip(starts, [*starts[1:], len(patch)], strict=True):
        lines = patch[begin:end].split("\n")
        removed = {
            _MASK.sub("MASK", ln[1:]).strip()
            for ln in lines
            if ln.startswith("-") and not _NOT_CODE.match(ln) and _APPLIES_MASK.search(_MASK.sub("MASK", ln))
        }
        position = begin
        for line in lines:
            normal = _MASK.sub("MASK", line[1:]).strip()
            if (
                removed
                and line.startswith("+")
                and not _NOT_CODE.match(line)
                and _APPLIES_MASK.search(normal)
                and normal not in removed
            ):
                return LineHit("", _first_line(line[1:]), enclosing_function(patch, position) or "")
            position += len(line) + 1
    return None


def _around(line: str, match: re.Match[str], limit: int = 60) -> str:
    """The evidence of a long line: the part around what matched, so the switch itself shows."""
    text = line.strip().removesuffix("\\").strip().removesuffix("&&").strip()
    if len(text) <= limit:
        return text
    token = match.group(2)
    at = max(0, text.find(token) - 15)
    piece = text[at : at + limit].strip()
    return f"{'…' if at else ''}{piece}{'…' if at + limit < len(text) else ''}"


def _first_line(line: str, limit: int = 100) -> str:
    text = line.strip().removesuffix("\\").rstrip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def find_hazards(pr: PullRequest, f: PRFeatures) -> Hazards:
    """The hazards of one PR, read from its patches and the config keys its features found."""
    files = [(facts, raw.patch or "") for raw, facts in zip(pr.files, f.files, strict=True)]
    tls: list[LineHit] = []
    env: dict[str, EnvSet] = {}
    removed: list[str] = []
    masks: list[LineHit] = []
    for facts, patch in files:
        if facts.kind == "doc":
            continue
        shipped = ships(facts.path)
        if facts.status == "removed" and facts.kind == "source" and facts.path.endswith(".py") and shipped:
            removed.append(facts.path)
        if not patch:
            continue
        if facts.kind != "test":
            tls += [LineHit(facts.path, _around(m.group(1), m)) for m in _tls_off(patch)]
        if facts.kind != "source" or not shipped or facts.status == "removed":
            continue
        for m in _ENV_SET.finditer(patch):
            name = m.group(1) or m.group(3) or m.group(5)
            value = _env_value(m.group(2) or m.group(4) or m.group(6) or "")
            if not ROUTINE_ENV.search(name):
                where = enclosing_function(patch, m.start()) or ""
                env.setdefault(name, EnvSet(facts.path, name, value, where))
        if facts.is_code and _names_mask(patch):
            hit = _mask_edit(patch)
            if hit is not None and (_SCORING_CODE.search(facts.path) or _SCORING_CODE.search(hit.where)):
                masks.append(LineHit(facts.path, hit.line, hit.where))
    # Recipes' and examples' YAML too: a new switch that is on there changes what their users run.
    config = [*f.config_changes]
    for facts, patch in files:
        if facts.tier == "peripheral" and facts.kind == "config" and facts.path.endswith((".yaml", ".yml")):
            config += file_config_changes(facts, patch) if patch else []
    # Only a switch added to a file that existing runs already read reaches them; a new file's keys are
    # a new component's (or a split file's) defaults, and `disable_x: true` switches something off.
    existing = {x.path for x in f.files if x.status not in ("added", "renamed")}
    on = [
        c
        for c in config
        if c.old is None
        and c.new is not None
        and c.new.strip("\"'").lower() in _ON
        and c.path in existing
        and not _SWITCHES_OFF.match(c.key.rsplit(".", 1)[-1])
    ]
    # A switch among several new keys of one prefix in its file (`muon_momentum`, `muon_nesterov`,
    # `muon_split_qkv: true`) is an option of a new feature, read only when that feature is chosen.
    families = Counter(_family(c) for c in config if c.old is None and c.new is not None)
    on = [c for c in on if families[_family(c)] < FAMILY_KEYS]
    # The same switch in several files (a recipe's two trainer configs) is one switch.
    switches = list({c.key: c for c in reversed(on)}.values())[::-1]
    return Hazards(tuple(tls), tuple(env.values()), tuple(switches), _packages(removed, files), tuple(masks))


FAMILY_KEYS = 3


# Words that open switches of every kind (`use_dynamic_bsz`, `enable_x`): no feature's name.
_SWITCH_WORDS = frozenset({"use", "enable", "enabled", "is", "has", "with", "allow", "do", "apply"})


def _family(c: ConfigChange) -> tuple[str, str, str]:
    """A key's file, parent and the first word of its leaf (two when the first only says "switch"):
    `a.optim.muon_split_qkv` -> (path, `a.optim`, `muon`); `use_remove_padding` -> `use_remove`."""
    parent, _, leaf = c.key.rpartition(".")
    words = leaf.lower().split("_")
    return c.path, parent, "_".join(words[:2] if words[0] in _SWITCH_WORDS else words[:1])


def _packages(removed: list[str], files: Sequence[tuple[FileFacts, str]]) -> tuple[str, ...]:
    """Deleted modules by name, a deleted package once (its `__init__.py` stands for its modules); a
    module whose file name comes back elsewhere in the PR moved rather than went."""
    added = {f.path.rsplit("/", 1)[-1] for f, _ in files if f.status in ("added", "renamed")}
    packages = [p.removesuffix("/__init__.py") for p in removed if p.endswith("/__init__.py")]
    names: list[str] = []
    for path in removed:
        inside = any(path.startswith(f"{pkg}/") and not path.endswith("/__init__.py") for pkg in packages)
        if inside or (not path.endswith("__init__.py") and path.rsplit("/", 1)[-1] in added):
            continue
        names.append(module_name(path))
    return tuple(dict.fromkeys(names))
