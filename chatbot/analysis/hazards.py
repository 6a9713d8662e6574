"""Diff lines whose mechanism is a risk of its own, each kept with the evidence a risk names: TLS
certificate checks turned off, environment variables a process sets for everything it runs, new
options that are on by default, deleted modules, edits to the masks of loss, value or advantage code;
and, read from whole blocks of added Python, Go, Rust and TypeScript, tests that assert nothing, tokens
read unverified or without expiry, locks held across a return, and goroutines, tasks, timers and
threads that nothing stops. Read from a PR's patches beside its features; `heuristic.py` words them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from chatbot.analysis.features import (
    ConfigChange,
    FileFacts,
    LineHit,
    PRFeatures,
    enclosing_function,
    file_config_changes,
    ships,
)
from chatbot.analysis.types import RiskCategory, Severity
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
    tests: Tests = field(default_factory=lambda: Tests())
    code: tuple[CodeHazard, ...] = ()


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
    return Hazards(
        tuple(tls),
        tuple(env.values()),
        tuple(switches),
        _packages(removed, files),
        tuple(masks),
        find_tests(pr, f),
        find_code_hazards(pr, f),
    )


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


# --- code mechanisms: tests that assert nothing, tokens read unchecked, workers nothing stops, locks
# held across a return. Each is read from whole blocks of the new file that the patch shows, in Python,
# Go, Rust and TypeScript/JavaScript; a block the patch cuts off is left alone (what it does past the cut
# is unknown).

_BRACES = frozenset({"go", "rs", "ts", "tsx", "mts", "js", "jsx", "mjs"})
_SCRIPTS = frozenset({"ts", "tsx", "mts", "js", "jsx", "mjs"})
_STRING = r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`[^`]*`'
_STRING_OR_COMMENT = {
    "py": re.compile(rf"{_STRING}|#.*$"),
    "go": re.compile(rf"{_STRING}|//.*$"),
    "rs": re.compile(r'"(?:\\.|[^"\\])*"|//.*$'),  # a Rust `'a` is a lifetime, not a string
    "ts": re.compile(rf"{_STRING}|//.*$"),
}


def language_of(path: str) -> str:
    """The language a file's blocks are read in: "py", "go", "rs", "ts" (TypeScript and JavaScript), or
    "" for one whose blocks are not read."""
    ext = path.rpartition(".")[2].lower()
    if ext in ("py", "go", "rs"):
        return ext
    return "ts" if ext in _SCRIPTS else ""


@dataclass(frozen=True, slots=True)
class _Line:
    sign: str  # "+" added, " " kept; "@" a hunk header (the new file skips lines there)
    text: str


def _new_side(patch: str) -> list[_Line]:
    """The patch's lines of the new file, a hunk header marking where lines are not shown."""
    lines = []
    for raw in patch.split("\n"):
        if raw.startswith("@@"):
            lines.append(_Line("@", ""))
        elif raw.startswith(("+", " ")) and not raw.startswith("+++"):
            lines.append(_Line(raw[0], raw[1:]))
        elif raw == "":
            lines.append(_Line(" ", ""))
    return lines


def _code_only(text: str, language: str) -> str:
    """A line without its string literals and comments, so their braces and words do not count."""
    return _STRING_OR_COMMENT[language].sub('""', text)


def _block_end(lines: list[_Line], start: int, language: str, whole: bool) -> int | None:
    """The index of the last line of the block opened at `start` (a function, a test, a closure), or
    None when the patch does not show where it ends."""
    if language in ("go", "rs", "ts"):
        depth, opened = 0, False
        for index in range(start, len(lines)):
            line = lines[index]
            if line.sign == "@":
                return None
            code = _code_only(line.text, language)
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth <= 0:
                return index
        return None
    indent = len(lines[start].text) - len(lines[start].text.lstrip())
    last = start
    quoted = False  # inside a triple-quoted string, whose lines may start at any column
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if line.sign == "@":
            return None
        was_quoted = quoted
        quoted ^= (line.text.count('"""') + line.text.count("'''")) % 2 == 1
        if was_quoted or not line.text.strip():
            last = index if was_quoted else last
            continue
        if len(line.text) - len(line.text.lstrip()) <= indent and not line.text.lstrip().startswith(
            (")", "]")
        ):
            return last
        last = index
    return last if whole else None


def whole_file(status: str, patch: str, additions: int) -> bool:
    """Whether `patch` shows all of a new file: GitHub cuts long patches, so an added file's patch is
    whole only when it holds as many added lines as the file has."""
    shown = sum(1 for line in patch.split("\n") if line.startswith("+") and not line.startswith("+++"))
    return status == "added" and shown == additions


def _block(lines: list[_Line], start: int, end: int) -> list[_Line]:
    return lines[start : end + 1]


def _all_added(block: list[_Line]) -> bool:
    return all(line.sign == "+" or not line.text.strip() for line in block)


# Where a test begins, by language: Python's `def test_…`, Go's `func TestX(t *testing.T)`, Rust's
# `#[test]` (or `#[tokio::test]`) function, and a TypeScript/JavaScript `it(…)` or `test(…)` block.
_TEST_START = {
    "py": re.compile(r"^(\s*)(?:async\s+)?def\s+(test\w*)\s*\("),
    "go": re.compile(r"^func\s+(Test\w*)\s*\(\s*(\w+)\s+\*testing\.T\s*\)"),
    "rs": re.compile(r"^\s*(?:pub\s+)?(?:async\s+)?fn\s+(\w+)\s*\("),
    "ts": re.compile(r"^\s*(?:it|test)(?:\.only)?\(\s*([\"'`])(.+?)\1"),
}
# A Python test is a module function or a method of a test class; one indented deeper is a function
# defined inside a test.
PY_TEST_INDENT = 4
_RUST_TEST_ATTRIBUTE = re.compile(r"^\s*#\[(?:\w+::)?test\b")
# What makes a test fail when the code misbehaves, by language: an assertion, an expectation, a failure
# call, an error turned into a panic, or a helper whose name says it checks (`check_loaded(…)`).
_CHECK_HELPER = r"\b\w*(?i:assert|check|verify|expect|compare|validate|ensure)\w*\s*\("
_ASSERTS = {
    "py": re.compile(
        rf"\bassert\b|\.assert\w*\(|\bpytest\.(?:raises|warns|fail|approx|skip|importorskip|xfail)\b|"
        rf"\bself\.fail\(|\braise\b|{_CHECK_HELPER}"
    ),
    "go": re.compile(
        rf"\b(?:assert|require|is)\.\w+\(|\bExpect\(|\bpanic\(|\b(?!fmt\.)\w+\.(?:Errorf?|Fatalf?|Fail|FailNow|Skip\w*)\(|"
        rf"{_CHECK_HELPER}"
    ),
    "rs": re.compile(
        rf"\b(?:assert\w*|debug_assert\w*|panic|unreachable|todo|unimplemented)!|\.unwrap\(|\.expect\(|"
        rf"\?\s*;|should_panic|{_CHECK_HELPER}"
    ),
    "ts": re.compile(rf"\bexpect\(|\bassert\w*[.(]|\.should\b|\bt\.\w+\(|{_CHECK_HELPER}"),
}


def _go_test_checks(param: str) -> re.Pattern[str]:
    """A Go test's own failure calls (`t.Fatalf`, `t.Error`, `t.Skip`), or `t` handed to a helper."""
    name = re.escape(param)
    return re.compile(rf"\b{name}\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow|Skip\w*)\(|\(\s*{name}\s*[,)]")


@dataclass(frozen=True, slots=True)
class Tests:
    """The tests a PR adds, read from their code: the names of those that assert nothing (`hollow`, each a
    LineHit of its file, name and first line), and whether every test the PR adds or changes is one of
    them (`only_hollow`: nothing in its test code can fail but a crash)."""

    hollow: tuple[LineHit, ...] = ()
    only_hollow: bool = False


def _tests_in(path: str, patch: str, whole: bool) -> list[LineHit]:
    """The wholly added tests of one file that assert nothing."""
    language = language_of(path)
    start_of = _TEST_START.get(language)
    if start_of is None:
        return []
    lines = _new_side(patch)
    hollow: list[LineHit] = []
    helpers = _checking_helpers(lines, language, whole)
    for index, line in enumerate(lines):
        if line.sign != "+":
            continue
        match = start_of.match(line.text)
        if match is None:
            continue
        if language == "rs" and not any(
            _RUST_TEST_ATTRIBUTE.match(lines[k].text) for k in range(max(0, index - 2), index)
        ):
            continue
        if language == "py" and len(match.group(1)) > PY_TEST_INDENT:
            continue  # a function defined inside a test (`def test_fn():` registered by it) is none
        end = _block_end(lines, index, language, whole)
        if end is None:
            continue
        block = _block(lines, index, end)
        if not _all_added(block):
            continue
        # The test's own opening (`def test_check_x(`) is no check; what follows it on that line may be.
        opening = line.text[match.end() :]
        body = "\n".join(_code_only(text, language) for text in (opening, *(b.text for b in block[1:])))
        checks = _ASSERTS[language].search(body) is not None or any(
            re.search(rf"\b{re.escape(name)}\b", body) for name in helpers
        )
        if language == "py" and _RETURNS_VALUE.search(body):
            continue  # a function that returns a value is a fixture module's, not a test
        if language == "go":
            checks = checks or _go_test_checks(match.group(2)).search(body) is not None
        if not checks:
            name = match.group(2) if language in ("py", "ts") else match.group(1)
            hollow.append(LineHit(path, name, name))
    return hollow


_HELPER_START = {
    "py": re.compile(r"^\s*(?:async\s+)?def\s+(\w+)\s*\("),
    "go": re.compile(r"^func\s+(?:\([^)]*\)\s*)?(\w+)\s*\("),
    "rs": re.compile(r"^\s*(?:pub\s+)?(?:async\s+)?fn\s+(\w+)\s*[<(]"),
    "ts": re.compile(
        r"^\s*(?:export\s+)?(?:async\s+)?function\s+(\w+)\s*\(|^\s*(?:export\s+)?const\s+(\w+)\s*=.*=>"
    ),
}
_RETURNS_VALUE = re.compile(r"^\s*return\s+\S", re.M)


def _checking_helpers(lines: list[_Line], language: str, whole: bool) -> set[str]:
    """The functions of a test file's added lines that assert something: a test that calls one (or hands
    it to `mp.spawn`) checks through it."""
    start_of = _HELPER_START[language]
    names: set[str] = set()
    for index, line in enumerate(lines):
        match = start_of.match(line.text) if line.sign == "+" else None
        if match is None:
            continue
        end = _block_end(lines, index, language, whole)
        block = lines[index + 1 : end + 1] if end is not None else lines[index + 1 :]
        body = "\n".join(_code_only(b.text, language) for b in block)
        if _ASSERTS[language].search(body):
            names.add(match.group(1) or match.group(match.lastindex or 1))
    return names


def find_tests(pr: PullRequest, f: PRFeatures) -> Tests:
    """The PR's added tests that assert nothing. `only_hollow` when at least one added test asserts
    nothing and no other test code of the PR checks anything: every test file it touches shows its whole
    patch, rewrites no line, and adds no line that asserts, expects or fails (a hollow test holds none)."""
    hollow: list[LineHit] = []
    checking = False
    for raw, facts in zip(pr.files, f.files, strict=True):
        patch = raw.patch or ""
        language = language_of(facts.path)
        in_source = facts.kind == "source" and language == "rs" and "#[" in patch
        if facts.status == "removed" or (facts.kind != "test" and not in_source):
            continue
        if facts.kind == "test" and (not patch or facts.deletions or language not in _ASSERTS):
            checking = True  # changed tests, a patch not shown, or a language not read: assume they check
            continue
        found = _tests_in(facts.path, patch, whole_file(facts.status, patch, facts.additions))
        hollow += found
        if facts.kind == "test":
            pattern = _ASSERTS[language]
            added_code = (_code_only(line.text, language) for line in _new_side(patch) if line.sign == "+")
            checking = checking or any(pattern.search(code) for code in added_code)
    return Tests(tuple(hollow), bool(hollow) and not checking)


@dataclass(frozen=True, slots=True)
class CodeHazard:
    """A mechanism read from the shipped code a PR adds: its `kind` (a key of `CODE_HAZARDS`), the file,
    the statement that shows it and the function it is in."""

    kind: str
    path: str
    code: str
    where: str = ""


# The kinds of code hazard, in the order their risks are listed, each with its category and severity.
CODE_HAZARDS: dict[str, tuple[RiskCategory, Severity]] = {
    "token_unverified": ("security", "high"),
    "token_checks_off": ("security", "high"),
    "token_no_expiry": ("security", "medium"),
    "lock_return": ("concurrency", "high"),
    "lock_unreleased": ("concurrency", "medium"),
    "goroutine": ("concurrency", "medium"),
    "task": ("concurrency", "medium"),
    "timer": ("concurrency", "medium"),
    "thread": ("concurrency", "low"),
}

# Reading a token without checking its signature: jsonwebtoken's `jwt.decode` (JavaScript), golang-jwt's
# `ParseUnverified`, PyJWT's `verify_signature: False`, the Rust crate's switch that turns it off.
_TOKEN_UNVERIFIED = {
    "ts": re.compile(r"\bjwt\.decode\(|\bjwtDecode\(|\bdecodeJwt\("),
    "go": re.compile(r"\.ParseUnverified\("),
    "py": re.compile(r"[\"']verify_signature[\"']\s*:\s*False"),
    "rs": re.compile(r"insecure_disable_signature_validation\("),
}
# Checks of a token's claims turned off: expiry ignored, claims left unvalidated.
_TOKEN_CHECKS_OFF = re.compile(
    r"WithoutClaimsValidation\(|[\"']verify_exp[\"']\s*:\s*False|ignoreExpiration\s*:\s*true|"
    r"\bvalidate_exp\s*=\s*false"
)
# Parsing a verified token whose library checks `exp` only when the token carries one (golang-jwt,
# PyJWT, jsonwebtoken's `verify`, jose's `jwtVerify`): nothing requires it unless the code says so.
_TOKEN_PARSE = {
    "go": re.compile(r"\bjwt\.Parse(?:WithClaims)?\("),
    "py": re.compile(r"\bjwt\.decode\("),
    "ts": re.compile(r"\bjwt\.verify\(|\bjwtVerify\("),
}
_EXPIRY = re.compile(r"\bexp\b|[Ee]xpir|ExpiresAt|max_?[Aa]ge|\brequire\b", re.I)

# A goroutine that loops for ever (`for {`, `for range ticker.C`) and what could end it: a context, a
# done channel, a WaitGroup, a `select`, a stop or close.
_GOROUTINE = re.compile(r"^\s*go\s+func\s*\(")
_FOREVER = {
    "go": re.compile(r"^\s*for\s*\{|^\s*for\s+range\s+[\w.]+\.C\b|time\.Tick\("),
    "rs": re.compile(r"^\s*loop\s*\{|^\s*while\s+true\b"),
}
_STOPS = {
    "go": re.compile(
        r"\bctx\b|\.Done\(\)|context\.|\bcancel\w*\b|WaitGroup|\bwg\.|errgroup|\bselect\b|\.Stop\(\)|\bclose\(|"
        r"\breturn\b|\bbreak\b|<-\s*\w*(?:done|stop|quit|exit|closing)\w*",
        re.I,
    ),
    "rs": re.compile(
        r"select!|cancel\w*|shutdown|\.recv\(|\bbreak\b|\breturn\b|CancellationToken|watch::|abort|\?;",
        re.I,
    ),
}
# A task whose handle is dropped: the statement opens with the spawn (`tokio::spawn(…);`), not `let h =`.
_DETACHED_TASK = re.compile(
    r"^\s*(?:tokio::(?:task::)?spawn|(?:std::)?thread::spawn|async_std::task::spawn)\("
)
_INTERVAL = re.compile(r"\bsetInterval\(")
# A lock taken in a function: Go's `mu.Lock()`, Python's `lock.acquire()`.
_LOCK = {
    "go": re.compile(r"^\s*([\w.]+)\.(R?)Lock\(\)"),
    "py": re.compile(r"^\s*([\w.]+)\.acquire\(\s*\)"),
}
_FUNCTION_START = {
    "go": re.compile(r"^func\b"),
    "py": re.compile(r"^(\s*)(?:async\s+)?def\s"),
}
_THREAD = re.compile(r"\bthreading\.Thread\(")


def _unlock(language: str, name: str, read: str) -> re.Pattern[str]:
    if language == "go":
        return re.compile(rf"^\s*(defer\s+)?{re.escape(name)}\.{read}Unlock\(\)")
    return re.compile(rf"^\s*(finally\b)?.*?{re.escape(name)}\.release\(\s*\)")


def _code_hazards_of(path: str, patch: str, whole: bool) -> list[CodeHazard]:
    """The code hazards of one shipped source file's patch (its added lines, read in whole blocks)."""
    language = language_of(path)
    if not language:
        return []
    lines = _new_side(patch)
    found: list[CodeHazard] = []
    added = [(i, line.text) for i, line in enumerate(lines) if line.sign == "+"]
    added_text = "\n".join(_code_only(text, language) for _, text in added)

    def where(index: int) -> str:
        return enclosing_function(patch, _position(patch, lines, index)) or ""

    unverified = _TOKEN_UNVERIFIED.get(language)
    parse = _TOKEN_PARSE.get(language)
    for index, text in added:
        code = _code_only(text, language)
        token = (
            ("token_unverified", unverified.search(text) if unverified else None),
            ("token_checks_off", _TOKEN_CHECKS_OFF.search(text)),
            ("token_no_expiry", parse.search(code) if parse and not _EXPIRY.search(added_text) else None),
        )
        kind, match = next(((k, m) for k, m in token if m), ("", None))
        if match:
            shown = match.group(0)
            found.append(CodeHazard(kind, path, f"{shown}…)" if shown.endswith("(") else shown, where(index)))
        if language == "go" and _GOROUTINE.match(text):
            end = _block_end(lines, index, language, whole)
            body = [_code_only(b.text, language) for b in lines[index : end + 1]] if end is not None else []
            if any(_FOREVER["go"].search(b) for b in body) and not any(_STOPS["go"].search(b) for b in body):
                found.append(CodeHazard("goroutine", path, "go func() { … }()", where(index)))
        if language == "rs" and _DETACHED_TASK.match(text):
            end = _block_end(lines, index, language, whole)
            body = [_code_only(b.text, language) for b in lines[index : end + 1]] if end is not None else []
            if any(_FOREVER["rs"].search(b) for b in body) and not any(_STOPS["rs"].search(b) for b in body):
                spawn = text.strip().split("(", 1)[0]
                found.append(CodeHazard("task", path, f"{spawn}(…)", where(index)))
        if language == "ts" and _INTERVAL.search(code) and "clearInterval" not in added_text:
            found.append(CodeHazard("timer", path, "setInterval(…)", where(index)))
        if (
            language == "py"
            and _THREAD.search(code)
            and ".join(" not in added_text
            and "daemon" not in added_text
        ):
            found.append(CodeHazard("thread", path, "threading.Thread(…)", where(index)))
    found += _held_locks(path, patch, lines, language, whole)
    return found


def _position(patch: str, lines: list[_Line], index: int) -> int:
    """The offset in `patch` of new-side line `index` (for `enclosing_function`)."""
    seen = -1
    offset = 0
    for raw in patch.split("\n"):
        if raw.startswith("@@") or (raw.startswith(("+", " ")) and not raw.startswith("+++")) or raw == "":
            seen += 1
            if seen == index:
                return offset
        offset += len(raw) + 1
    return max(0, len(patch) - 1)


def _held_locks(path: str, patch: str, lines: list[_Line], language: str, whole: bool) -> list[CodeHazard]:
    """Locks an added function takes and does not let go of: a `return` between the lock and its first
    unlock (no deferred unlock, no `finally`), or no unlock at all in the function."""
    lock_of = _LOCK.get(language)
    start_of = _FUNCTION_START.get(language)
    if lock_of is None or start_of is None:
        return []
    found: list[CodeHazard] = []
    for index, line in enumerate(lines):
        if line.sign != "+" or not start_of.match(line.text):
            continue
        end = _block_end(lines, index, language, whole)
        if end is None:
            continue
        block = lines[index : end + 1]
        if not _all_added(block):
            continue
        name = _DEF_NAME_IN.match(line.text)
        function = name.group(1) if name else ""
        for offset, taken in enumerate(block):
            lock = lock_of.match(taken.text)
            if not lock:
                continue
            read = lock.group(2) if language == "go" else ""
            unlock = _unlock(language, lock.group(1), read)
            after = block[offset + 1 :]
            releases = [(k, unlock.match(b.text)) for k, b in enumerate(after) if unlock.match(b.text)]
            if any(m.group(1) for _, m in releases if m):
                continue  # `defer mu.Unlock()` / a `finally:` release covers every return
            if language == "py" and any(b.text.strip().startswith("finally") for b in after):
                continue
            code = taken.text.strip()
            if not releases:
                if "lock" not in function.lower() and "acquire" not in function.lower():
                    found.append(CodeHazard("lock_unreleased", path, code, function))
                continue
            first = releases[0][0]
            if any(re.match(r"^\s*return\b", b.text) for b in after[:first]):
                found.append(CodeHazard("lock_return", path, code, function))
    return found


_DEF_NAME_IN = re.compile(r"^\s*(?:async\s+)?(?:def|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)")


def find_code_hazards(pr: PullRequest, f: PRFeatures) -> tuple[CodeHazard, ...]:
    """The code hazards of a PR's shipped source (tests, examples and scripts left out), one per kind and
    file."""
    found: dict[tuple[str, str], CodeHazard] = {}
    for raw, facts in zip(pr.files, f.files, strict=True):
        if facts.kind != "source" or facts.status == "removed" or not raw.patch or not ships(facts.path):
            continue
        whole = whole_file(facts.status, raw.patch, facts.additions)
        for hazard in _code_hazards_of(facts.path, raw.patch, whole):
            found.setdefault((hazard.kind, hazard.path), hazard)
    order = list(CODE_HAZARDS)
    return tuple(sorted(found.values(), key=lambda h: order.index(h.kind)))
