"""Feature extraction: the facts the heuristic analyzer scores, read from a PR's title, description,
files, patches and reviews. Pure functions; PR text is only ever matched against patterns, never obeyed."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from chatbot.analysis import weights as w
from chatbot.analysis.boilerplate import CleanBody, clean_body
from chatbot.analysis.lead import ACTION_PREFIX, Caveat, caveats
from chatbot.analysis.modules import HELPER_FOLDERS, ModuleMap
from chatbot.analysis.types import ChangeType, ConfigKind
from chatbot.models import PRFile, PullRequest

# --- title ---------------------------------------------------------------------------------------------

_PREFIX = re.compile(r"^\s*((?:[\[【][^\]】]*[\]】]\s*)+)")
_BRACKET = re.compile(r"[\[【]([^\]】]*)[\]】]")
_CONVENTIONAL = re.compile(
    r"^\s*([A-Za-z][A-Za-z-]*|[\u4e00-\u9fff]{2,4})\s*(?:\(([^)]*)\))?\s*(!)?\s*[:：]\s*(.*)$", re.S
)
# Gitmoji (`🐛 Fix …`, `:sparkles: Add …`) open the titles of many repositories instead of a type word:
# the emoji, or its shortcode, says the type; 💥 says the change breaks.
_EMOJI = re.compile(r"^\s*((?:(?:[\u2190-\u2bff\U0001f000-\U0001faff]\ufe0f?|:[a-z_]+:)\s*)+)")
GITMOJI: dict[str, str] = {
    "🐛": "fix",
    "🚑": "fix",
    "🩹": "fix",
    "✨": "feat",
    "🎉": "feat",
    "📝": "doc",
    "📚": "doc",
    "✏": "doc",
    "♻": "refactor",
    "🔥": "refactor",
    "🚚": "refactor",
    "🧹": "refactor",
    "🗑": "refactor",
    "⚡": "perf",
    "🏎": "perf",
    "✅": "test",
    "🧪": "test",
    "👷": "chore",
    "💚": "chore",
    "⬆": "chore",
    "⬇": "chore",
    "📌": "chore",
    "➕": "chore",
    "➖": "chore",
    "🔧": "chore",
    "🎨": "chore",
    "🚨": "chore",
    "🔖": "chore",
    "⏪": "revert",
}
GITMOJI_CODES: dict[str, str] = {
    ":bug:": "fix",
    ":ambulance:": "fix",
    ":sparkles:": "feat",
    ":memo:": "doc",
    ":books:": "doc",
    ":recycle:": "refactor",
    ":fire:": "refactor",
    ":zap:": "perf",
    ":white_check_mark:": "test",
    ":construction_worker:": "chore",
    ":green_heart:": "chore",
    ":arrow_up:": "chore",
    ":pushpin:": "chore",
    ":wrench:": "chore",
    ":art:": "chore",
    ":rewind:": "revert",
}
_BREAKING_EMOJI = ("💥", ":boom:")
# A title that undoes another change: `Revert "[rollout] feat: X"`, `Reverts #12`, `回滚 #4126`, and a
# description that opens with the word (`fix: revert megatron actor refactor`).
_REVERT = re.compile(r"^\s*(?:revert(?:s|ed|ing)?\b|回滚|回退|撤销|撤回)", re.I)
# The title a revert quotes (`Revert "[rollout] feat: X"`): its modules are the reverted change's.
_REVERTED_TITLE = re.compile(r"^\s*\S+\s*:?\s*[\"“「'](.+)[\"”」']\s*$")
_SPLIT_MODULES = re.compile(r"\s*(?:[,;|&+/，、]|\band\b)\s*")

# What authors write as the conventional-commit type -> the index's change types.
TYPE_ALIASES: dict[str, ChangeType] = {
    "feat": "feat",
    "feature": "feat",
    "features": "feat",
    "enhancement": "feat",
    "enhance": "feat",
    "new": "feat",
    "fix": "fix",
    "fixes": "fix",
    "bugfix": "fix",
    "bug_fix": "fix",
    "bug": "fix",
    "hotfix": "fix",
    "revert": "revert",
    "refactor": "refactor",
    "refact": "refactor",
    "refactoring": "refactor",
    "cleanup": "refactor",
    "perf": "perf",
    "performance": "perf",
    "optim": "perf",
    "optimize": "perf",
    "test": "test",
    "tests": "test",
    "doc": "doc",
    "docs": "doc",
    "documentation": "doc",
    "chore": "chore",
    "chrore": "chore",
    "misc": "chore",
    "style": "chore",
    "build": "chore",
    "ci": "chore",
    "deps": "chore",
    "release": "chore",
    "lint": "chore",
    # Chinese titles declare the type the same way (`修复：…`, `文档：…`, `【优化】…`)
    "新功能": "feat",
    "功能": "feat",
    "特性": "feat",
    "新增": "feat",
    "修复": "fix",
    "修正": "fix",
    "回滚": "revert",
    "重构": "refactor",
    "优化": "perf",
    "性能": "perf",
    "性能优化": "perf",
    "测试": "test",
    "文档": "doc",
    "杂项": "chore",
    "依赖": "chore",
    "更新依赖": "chore",
    "构建": "chore",
}
# Bracket words that only name a type: `[fix]` says what the change is, not where it is.
_TYPE_ONLY_WORDS = frozenset(
    {
        "feat",
        "feature",
        "fix",
        "bugfix",
        "bug_fix",
        "bug",
        "hotfix",
        "refactor",
        "refact",
        "chore",
        "enhancement",
        *(word for word in TYPE_ALIASES if not word.isascii()),
    }
)
# A title that cuts a cost ("Reduce peak memory of…", "lower latency", "avoid redundant copies", "减少显存")
# announces a performance change, whatever its conventional-commit type says about features.
_COST_CUT = (
    r"\b(?:reduc\w*|lower\w*|cut\w*|sav(?:e|es|ed|ing)|decreas\w*|minimi[sz]\w*|avoid\w*|eliminat\w*)\s+"
    r"(?:[\w-]+\s+){0,3}?(?:memory|vram|latency|overhead|footprint|copies|copy|allocations?|"
    r"(?:startup|step|sync|load(?:ing)?|compile|wall[- ]?clock) time)\b|"
    r"(?:减少|降低|节省|减小).{0,12}?(?:显存|内存|延迟|开销|耗时)"
)
# Verbs that start an untyped title (`Add model merger…`), tried in this order.
_TITLE_VERBS: tuple[tuple[ChangeType, re.Pattern[str]], ...] = (
    ("doc", re.compile(r"\b(?:docs?|documentation|readme|typos?|docstrings?|tutorials?)\b|文档", re.I)),
    ("perf", re.compile(rf"^(?:{_COST_CUT})", re.I)),  # "Avoid redundant copies…" before "avoid" as a fix
    ("fix", re.compile(r"^(?:fix|fixed|fixes|fixing|resolve|correct|avoid|prevent|handle)\b|修复", re.I)),
    ("perf", re.compile(rf"\b(?:speed ?up|optimi[sz]e|accelerat\w*|faster)\b|{_COST_CUT}|优化|加速", re.I)),
    # A title naming the symptom it cures ("DP > 1 hang with vllm rollout", "Relocate cache free logic to
    # avoid GPU OOM", "max_num_seqs does not take effect", "训练卡住") is a fix, unless it opens by adding,
    # restructuring or bumping something ("Add error mechanism…", "Refactor error handling"); adding what
    # is missing ("Add missing FP8 padding") is a fix too.
    (
        "fix",
        re.compile(
            r"^add(?:s|ed)? (?:the |a )?missing\b|"
            r"^(?!(?:add|adds|added|support|introduce|implement|enable|allow|new|refactor|clean ?up|simplify|"
            r"rename|bump|upgrade|pin)\b)(?:.*?\b(?:hang|hangs|"
            r"hanging|crash\w*|deadlock\w*|race|races|oom|nan|leak\w*|fail\w*|bugs?|broken|invalid|"
            r"wrong\w*|incorrect\w*|mismatch\w*|regression|troubles?|issues?|missing|won't|can't|cannot|"
            r"(?:does|do|did|is|are|was|were)(?:n't| not) (?:\w+ ){0,2}?(?:work\w*|take effects?|"
            r"(?:get |be )?(?:respected|applied|updated|processed|honou?red|loaded|saved|called|used))|"
            r"not (?:\w+ ){0,2}?(?:correctly|properly|take effects?))\b|"
            r".*?(?:报错|崩溃|卡住|卡死|死锁|失败|泄漏|不一致|异常|不生效|无效))",
            re.I,
        ),
    ),
    (
        "refactor",
        re.compile(
            r"^(?:refactor\w*|clean(?:s|ed)?(?: ?up)?|simplif(?:y|ies)|renames?|moves?|removes?|deletes?|"
            r"deprecates?|unif(?:y|ies)|migrates?|standardi[sz]es?|re-?formats?|polish(?:es)?|tid(?:y|ies)|"
            r"reorgani[sz]es?|restructures?|decouples?|consolidates?|dedup(?:licate)?s?|extracts?|"
            r"separates?)\b|重构|整理|拆分|迁移",
            re.I,
        ),
    ),
    ("test", re.compile(r"^(?:add|update|fix)? ?(?:unit |e2e )?tests?\b", re.I)),
    ("chore", re.compile(r"^(?:bump|upgrade|pin|update|ci|lint|format|release)\b", re.I)),
    ("feat", re.compile(r"^(?:add|support|introduce|implement|enable|allow|new)\b|支持|新增", re.I)),
)
_PERF_HINT = re.compile(
    rf"\b(?:speed ?up|optimi[sz](?:e[sd]?|ing|ation)|accelerat\w*|faster|throughput|latency|perf)\b|{_COST_CUT}",
    re.I,
)


@dataclass(frozen=True, slots=True)
class TitleInfo:
    """What the title declares: modules (from `[…]` and the scope), type, breaking marker, description."""

    text: str
    modules: tuple[str, ...]
    type_word: str | None
    breaking: bool
    description: str


def parse_title(title: str, module_map: ModuleMap) -> TitleInfo:
    """`[BREAKING][megatron, fsdp] feat(rollout)!: add X` -> modules, type, breaking, description."""
    modules: list[str] = []
    breaking = False
    type_word: str | None = None
    rest = title.strip()
    emoji, rest = _leading_emoji(rest)
    prefix = _PREFIX.match(rest)
    if prefix:
        rest = rest[prefix.end() :]
        for group in _BRACKET.findall(prefix.group(1)):
            for token in _SPLIT_MODULES.split(group):
                word = token.strip().lower()
                if word.startswith("breaking"):
                    breaking = True
                    word = word[len("breaking") :]
                key = re.sub(r"[\s-]+", "_", word.strip())
                if key in _TYPE_ONLY_WORDS:
                    type_word = type_word or key
                    continue
                name = module_map.normalize(word)
                if name and name not in modules:
                    modules.append(name)
        if emoji is None:
            emoji, rest = _leading_emoji(rest)  # `[GRPO] 🐛 Fix …`
    if emoji is not None:
        type_word = type_word or emoji[0]
        breaking = breaking or emoji[1]
    if _REVERT.match(rest):
        type_word = "revert"
        quoted = _REVERTED_TITLE.match(rest)
        if quoted:
            # What a revert undoes is where it belongs: the modules of the title it quotes (not whether
            # that change was breaking: undoing it is not).
            undone = parse_title(quoted.group(1), module_map)
            modules += [m for m in undone.modules if m not in modules]
            rest = undone.description
    else:
        conventional = _CONVENTIONAL.match(rest)
        if conventional and conventional.group(1).lower() in TYPE_ALIASES:
            type_word = conventional.group(1).lower()
            breaking = breaking or bool(conventional.group(3))
            for token in _SPLIT_MODULES.split(conventional.group(2) or ""):
                name = module_map.normalize(token)
                if name and name not in modules:
                    modules.append(name)
            rest = conventional.group(4)
            if _REVERT.match(rest):
                type_word = "revert"  # `fix: revert megatron actor refactor` undoes a change
    return TitleInfo(title.strip(), tuple(modules), type_word, breaking, rest.strip() or title.strip())


def _leading_emoji(title: str) -> tuple[tuple[str | None, bool] | None, str]:
    """The type and breaking marker that a title's leading gitmoji declare (None without one), and the
    title without them: `🐛 Fix OOM` -> (("fix", False), "Fix OOM")."""
    match = _EMOJI.match(title)
    if match is None:
        return None, title
    marks = match.group(1)
    found = [GITMOJI_CODES.get(m.group(0)) or GITMOJI.get(m.group(0)[0]) for m in _EMOJI_MARK.finditer(marks)]
    kind = next((k for k in found if k), None)
    return (kind, any(b in marks for b in _BREAKING_EMOJI)), title[match.end() :]


_EMOJI_MARK = re.compile(r"[\u2190-\u2bff\U0001f000-\U0001faff]|:[a-z_]+:")


# --- files ---------------------------------------------------------------------------------------------

_TEST_PATH = re.compile(
    r"(?:^|/)(?:tests?|testing|__tests__)/|(?:^|/)test_[^/]*$|_test\.(?:py|go|cc|cpp|rs)$|"
    r"\.(?:test|spec)\.[jt]sx?$|(?:^|/)conftest\.py$",
    re.I,
)
_DEPS_NAME = re.compile(
    r"^(?:requirements[^/]*\.txt|pyproject\.toml|setup\.py|setup\.cfg|environment[^/]*\.ya?ml|pipfile|"
    r"package\.json|go\.mod|cargo\.toml|constraints[^/]*\.txt)$"
)
_GENERATED = re.compile(
    r"(?:^|/)_generated|\.generated\.|(?:^|/)generated/|\.lock$|(?:^|/)package-lock\.json$"
)
_SOURCE_EXT = frozenset(
    [
        "py",
        "pyi",
        "pyx",
        "c",
        "cc",
        "cpp",
        "cxx",
        "cu",
        "cuh",
        "h",
        "hpp",
        "go",
        "rs",
        "java",
        "kt",
        "scala",
        "ts",
        "tsx",
        "js",
        "jsx",
        "rb",
        "jl",
        "swift",
        "m",
        "mm",
        "proto",
    ]
)
_CONFIG_EXT = frozenset(["yaml", "yml", "toml", "json", "ini", "cfg", "conf", "jinja", "j2"])
_ASSET_EXT = frozenset(
    ["png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "pdf", "mp4", "pt", "bin", "safetensors", "parquet"]
)
_DOC_EXT = frozenset(["md", "rst", "adoc", "ipynb"])
_DOC_SUFFIXES = tuple(f".{ext}" for ext in sorted(_DOC_EXT))


@lru_cache(maxsize=16_384)
def file_kind(path: str) -> str:
    """source, test, doc, config, ci, deps, docker, script, generated, asset or other."""
    lower = path.lower()
    name = lower.rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    if _GENERATED.search(lower):
        return "generated"
    if _TEST_PATH.search(lower) and ext not in _DOC_EXT:
        return "test"
    if lower.startswith((".github/", ".circleci/", ".gitlab")) or name in (
        ".pre-commit-config.yaml",
        "jenkinsfile",
    ):
        return "ci"
    # The repository's other tooling: a dot-folder or dotfile at its root that is no page (`.gemini/`
    # for a review bot, `.vscode/`, `.readthedocs.yaml`): no user runs with it.
    if lower.startswith(".") and ext not in _DOC_EXT:
        return "ci"
    if _DEPS_NAME.match(name) or (ext == "txt" and "requirements/" in lower):
        return "deps"  # `requirements/framework.txt` as well as `requirements-dev.txt`
    if ("dockerfile" in name and ext not in _DOC_EXT) or lower.startswith("docker/") or "/docker/" in lower:
        return "docker"  # a page about a Dockerfile (`amd_build_dockerfile_page.rst`) is a doc
    if ext in _DOC_EXT or lower.startswith(("docs/", "doc/")) or name.startswith(("readme", "changelog")):
        return "doc"
    if ext in _SOURCE_EXT:
        return "source"
    if ext in ("sh", "bash", "zsh"):
        return "script"
    if ext in _CONFIG_EXT:
        return "config"
    if ext in _ASSET_EXT:
        return "asset"
    return "other"


@dataclass(frozen=True, slots=True)
class FileFacts:
    """One changed file as the analyzer sees it."""

    path: str
    status: str
    kind: str
    module: str
    tier: str
    additions: int
    deletions: int
    memory_sensitive: bool
    distributed_sensitive: bool
    patched: bool = True  # GitHub sent its patch (it cuts them on large PRs)

    @property
    def lines(self) -> int:
        return self.additions + self.deletions

    @property
    def is_code(self) -> bool:
        """Source code outside peripheral paths: what tests are expected for."""
        return self.kind == "source" and self.tier != "peripheral"


# --- patches -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LineSignal:
    """A pattern matched against whole patch lines (anchored at the line start), with the literals one
    of which every matching line contains. Python's regex engine tries an alternation at every position
    of every line; finding the literals with `str.find` first and matching only the lines that hold one
    gives the same matches, in order, at a fraction of the cost. With `fold` the literals are lowercase
    and are looked for in the lowercased patch (for a pattern that ignores case)."""

    pattern: re.Pattern[str]
    needles: tuple[str, ...]
    fold: bool = False

    def matches(self, patch: str) -> list[re.Match[str]]:
        """The pattern's matches in `patch`, one per line at most, in line order."""
        if self.fold and not patch.isascii():
            # Lowercasing may change the length of non-ASCII text, so positions would not line up.
            return list(self.pattern.finditer(patch))
        text = patch.lower() if self.fold else patch
        starts: set[int] = set()
        for needle in self.needles:
            at = text.find(needle)
            while at >= 0:
                starts.add(text.rfind("\n", 0, at) + 1)
                end = text.find("\n", at)
                at = text.find(needle, end) if end >= 0 else -1
        found = []
        for start in sorted(starts):
            end = patch.find("\n", start)
            match = self.pattern.match(patch, start, end if end >= 0 else len(patch))
            if match:
                found.append(match)
        return found


_TODO = LineSignal(
    re.compile(r"^\+(?!\+\+)(.*?(?:\b(?:TODO|FIXME|HACK|XXX)\b|#\s*[Hh]ack\b).*)$", re.M),
    ("TODO", "FIXME", "HACK", "XXX", "hack", "Hack"),
)
_TEST_DEF = re.compile(r"^([+-])\s*(?:async\s+)?def\s+test_\w*", re.M)
# Definitions other code may call, by language, each with the groups (side, indent, keyword, name, what
# follows the name): Python's module and class `def`/`class` (a leading underscore is private); Go's
# capitalised (exported) `func`, methods included, and `type`; Rust's `pub` items (not `pub(crate)`, which
# nobody outside the crate calls); TypeScript's and JavaScript's `export`ed declarations; Java's `public`
# members and types; Kotlin's declarations not marked private, internal or protected.
_PYTHON_DEF = LineSignal(
    re.compile(r"^([+-])( {0,4})(?:async\s+)?(def|class)\s+([A-Za-z]\w*)\s*(.*)$", re.M), ("def", "class")
)
_PUBLIC_DEFS = {
    "py": _PYTHON_DEF,
    "pyi": _PYTHON_DEF,
    "go": LineSignal(
        re.compile(r"^([+-])()(func|type)\s+(?:\([^)]*\)\s*)?([A-Z]\w*)\s*(.*)$", re.M), ("func", "type")
    ),
    "rs": LineSignal(
        re.compile(
            r"^([+-])(\s*)pub\s+(?:(?:const|async|unsafe|extern(?:\s+\"[^\"]*\")?)\s+)*"
            r"(fn|struct|enum|trait|type)\s+([A-Za-z_]\w*)\s*(.*)$",
            re.M,
        ),
        ("pub ",),
    ),
    **dict.fromkeys(
        ("ts", "tsx", "mts", "js", "jsx", "mjs"),
        LineSignal(
            re.compile(
                r"^([+-])(\s*)export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?"
                r"(function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)\s*(.*)$",
                re.M,
            ),
            ("export ",),
        ),
    ),
    "java": LineSignal(
        re.compile(
            r"^([+-])(\s*)public\s+(?:(?:static|final|abstract|synchronized|default|sealed|native)\s+)*"
            r"(?:<[^>]*>\s+)?(class|interface|enum|record|[\w.\[\]?]+(?:<[^()]*>)?)\s+([A-Za-z_]\w*)\s*"
            r"(\(.*|\{.*|<.*|(?:extends|implements)\b.*|)$",
            re.M,
        ),
        ("public ",),
    ),
    "kt": LineSignal(
        re.compile(
            r"^([+-])(\s*)(?!(?:\w+\s+)*(?:private|internal|protected)\s)"
            r"(?:(?:public|open|override|suspend|inline|data|sealed|abstract|enum|inner|operator|infix)\s+)*"
            r"(fun|class|interface|object)\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)\s*(.*)$",
            re.M,
        ),
        ("fun ", "class ", "interface ", "object "),
    ),
}


def public_definitions(path: str, patch: str) -> list[re.Match[str]]:
    """The added and removed lines of a source file's patch that declare a public definition, in the
    file's language (see `_PUBLIC_DEFS`); none for a language it does not know."""
    signal = _PUBLIC_DEFS.get(path.rpartition(".")[2].lower())
    return signal.matches(patch) if signal else []


def _signature(rest: str) -> str:
    """What follows a definition's name, as compared between the old and new file: whitespace folded,
    the block opener (`:` or `{`) dropped, and "(…)" for a parameter list that continues on later lines."""
    sig = " ".join(rest.split()).rstrip(":{").rstrip()
    return "(…)" if sig.count("(") > sig.count(")") else sig


_FUNCTION_LINE = ("def ", "async def ")


def _inside_function(patch: str, position: int, side: str) -> bool:
    """Whether the indented definition at `position` of a patch, on its `side` ("+" the new file, "-" the
    old), sits inside a top-level function, not a class: the nearest line of that file before it at column
    0 (in the hunk, else the hunk header's context, which git takes from the last column-0 line above the
    hunk) is a `def`."""
    other = "-" if side == "+" else "+"
    for line in reversed(patch[:position].splitlines()):
        if line.startswith("@@"):
            return line.partition("@@")[2].partition("@@")[2].strip().startswith(_FUNCTION_LINE)
        if line.startswith(other):
            continue
        code = line[1:]
        if code.strip() and not code[:1].isspace():
            return code.startswith(_FUNCTION_LINE)
    return False


_CLI_CALLS = ("add_argument", "click.option", "typer.Option")
_CLI_ARG = LineSignal(
    re.compile(
        r"^\+.*?(?:add_argument|click\.option|typer\.Option)\(\s*(?:[^\n)]*?,\s*)?[\"'](--[\w-]+)[\"']", re.M
    ),
    _CLI_CALLS,
)
_CLI_ARG_REMOVED = LineSignal(
    re.compile(
        r"^-.*?(?:add_argument|click\.option|typer\.Option)\(\s*(?:[^\n)]*?,\s*)?[\"'](--[\w-]+)[\"']", re.M
    ),
    _CLI_CALLS,
)
# Environment variables the code reads: `os.environ["X"]`, `os.environ.get("X")`, `os.getenv("X")`.
_ENV_READ = LineSignal(
    re.compile(
        r"^([+-])(?![+-]).*?(?:environ(?:\.get|\.setdefault)?\s*[\[(]\s*|getenv\(\s*)[\"']([A-Z][A-Z0-9_]{2,})[\"']",
        re.M,
    ),
    ("environ", "getenv("),
)
_HUNK = re.compile(r"^@@[^@]*@@[ \t]*(.*)$")
# A definition's name, in the languages a repository may be written in: Python `def`/`class`, Go `func`
# (methods too: `func (w *Watcher) resume(`), Rust `fn`/`struct`/`enum`/`trait` (`pub(crate) async fn`),
# TypeScript/JavaScript `function`/`class`/`interface` (`export default async function`).
_DEF_NAME = re.compile(
    r"^[+ -]?\s*(?:"
    r"(?:export\s+(?:default\s+)?)?(?:abstract\s+)?(?:async\s+)?(?:def|class|function\*?|interface)|"
    r"func(?:\s*\([^)]*\))?|"
    r"(?:pub(?:\([\w:]+\))?\s+)?(?:async\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait)"
    r")\s+([A-Za-z_$][\w$]*)"
)
_PLATFORM = LineSignal(
    re.compile(
        r"^\+(?!\+\+)(.*?(?:\b(?:npu|ascend|torch_npu|rocm|hip|xpu|mlu|musa|hpu|gaudi)\b|"
        r"torch\.version\.(?:cuda|hip)|is_\w*(?:npu|cuda|rocm|xpu|hip)\w*_available|cuda_version|"
        r"__version__|version\.parse\(|is_version_ge|get_version\().*)$",
        re.M | re.I,
    ),
    (
        "npu",
        "ascend",
        "rocm",
        "hip",
        "xpu",
        "mlu",
        "musa",
        "hpu",
        "gaudi",
        "torch.version",
        "_available",
        "cuda_version",
        "__version__",
        "version.parse(",
        "is_version_ge",
        "get_version(",
    ),
    fold=True,
)
_PLATFORM_PATH = re.compile(r"(?:^|[/_.-])(?:npu|ascend|rocm|amd|xpu|mlu|hpu)(?:[/_.-]|$)", re.I)
_SECURITY = LineSignal(
    re.compile(
        r"^\+(?!\+\+)(.*?(?:(?<![.\w])(?:eval|exec)\(|pickle\.loads?\(|shell\s*=\s*True|trust_remote_code\s*=\s*True|"
        r"verify\s*=\s*False|yaml\.load\((?![^\n]*Loader)|torch\.load\((?![^\n]*weights_only\s*=\s*True)).*)$",
        re.M,
    ),
    ("eval(", "exec(", "pickle.load", "shell", "trust_remote_code", "verify", "yaml.load(", "torch.load("),
)
# Paths whose code does not ship with the product whatever the repository's module map says (example runs,
# recipes, tutorials, benchmarks, helper scripts): a flag such as `trust_remote_code=True` there is a user's
# choice in a launch command, not an unsafe call in the product.
_NOT_SHIPPED = re.compile(
    r"(?:^|/)(?:examples?|recipes?|tutorials?|notebooks?|demos?|benchmarks?|bench|scripts?|docs?|cookbooks?)/",
    re.I,
)


def ships(path: str) -> bool:
    """Whether a file is part of what the project ships to its users (code, configs, images, dependency
    files), not an example, recipe, tutorial, benchmark, helper script, doc, test or CI workflow: a pin
    or a removed key there breaks a launch command or a CI job, not the product."""
    return not _NOT_SHIPPED.search(path) and file_kind(path) not in ("ci", "doc", "script", "test")


# Calls (not imports, definitions or prose) that move memory around or synchronise processes and threads;
# asking a process group its rank or size (`dist.get_rank()`, `dist.is_initialized()`) synchronises nothing.
_MEMORY_SIGNAL = LineSignal(
    re.compile(
        r"^[+-](?![+-])(?!\s*(?:from|import|#|def|async|class)\s).*?(?:empty_cache\(|\w*offload\w*\(|pin_memory|memory_allocated\(|"
        r"\.to\([\"']cpu|gc\.collect\(|torch\.cuda\.memory|\.cpu\(\)|\bdel\s+[\w.\[\]]+\s*$)",
        re.M,
    ),
    (
        "empty_cache(",
        "offload",
        "pin_memory",
        "memory_allocated(",
        '.to("cpu',
        ".to('cpu",
        "gc.collect(",
        "torch.cuda.memory",
        ".cpu()",
        "del ",
        "del\t",
    ),
)
_CONCURRENCY_SIGNAL = LineSignal(
    re.compile(
        r"^[+-](?![+-])(?!\s*(?:from|import|#|def|async def|class)\s)"
        r".*?(?:\b(?:dist|torch\.distributed)\.(?!get_|is_)\w+\(|new_group\(|"
        r"threading\.\w+\(|Lock\(\)|asyncio\.(?:run|new_event_loop|get_event_loop|run_coroutine_threadsafe)\(|"
        r"ray\.get\(|ThreadPoolExecutor\(|multiprocessing\.\w+\(|Semaphore\(|barrier\()",
        re.M,
    ),
    (
        "dist.",
        "torch.distributed.",
        "new_group(",
        "threading.",
        "Lock()",
        "asyncio.",
        "ray.get(",
        "ThreadPoolExecutor(",
        "multiprocessing.",
        "Semaphore(",
        "barrier(",
    ),
)
_YAML_KEY = re.compile(r"^([ +-])( *)([A-Za-z_][\w.-]*)\s*:(?=\s|$)\s*(.*?)\s*$")
_PY_FIELD = re.compile(r"^([+-])(\s+)([A-Za-z_]\w*)\s*:\s*[\w\[\], .|\"']+?=\s*(.+?)\s*$")
_ARG_DEFAULT = re.compile(r"^([+-])(\s*).*?add_argument\(\s*[\"'](--?[\w-]+)[\"'].*?default\s*=\s*([^,)]+)")
_COMMENT = re.compile(r"\s+#.*$")
# Dependency specifiers. A package name is PEP 508's; in prose-like places (install lines, quoted strings)
# it must stand alone (start of line, after a space, quote, bracket or comma) and be glued to its operator
# and a version that starts with a digit, so "upgrade to >= 2.12" or `$status==0` is never a package.
_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_OPERATOR = r"===|==|>=|<=|~=|!=|>|<"
_REQUIREMENT = re.compile(
    rf"^\s*({_NAME})\s*(?:\[[^\]]*\])?\s*((?:(?:{_OPERATOR})\s*[\w.*+!-]+\s*,?\s*)*)(?:@\s*(\S+))?\s*(?:[;#].*)?$"
)
_QUOTED_REQUIREMENT = re.compile(
    rf"[\"']({_NAME})\s*(?:\[[^\]]*\])?\s*((?:(?:{_OPERATOR})\s*\d[\w.*+!-]*\s*,?\s*)+)(?:;[^\"']*)?[\"']"
)
_INSTALL_SPEC = re.compile(
    rf"(?:(?<=[\s\"'(,])|^)({_NAME})(?:\[[^\]]*\])?((?:(?:{_OPERATOR})\d[\w.*+!-]*,?)+)(?=[\s\"'),;\\]|$)"
)
_INSTALL_COMMAND = re.compile(
    r"\b(?:pip3?|uv pip|uv add|conda|mamba|micromamba|poetry add|pipx)\b.*?\binstall\b|\buv add\b"
)
_VERSION_VARIABLE = re.compile(
    r"^\s*(?:ARG\s+|ENV\s+|export\s+|-\s*)?[\"']?([A-Z][A-Z0-9_]*?)_VERSION[\"']?\s*[:=]\s*[\"']?v?(\d[\w.+-]*)[\"']?\s*(?:#.*)?$"
)
_PYTHON_REQUIRES = re.compile(r"^\s*(?:requires-python|python_requires)\s*=\s*[\"']([^\"']+)[\"']")
# The manifests of other ecosystems, one dependency a line: package.json (`"clsx": "^2.1.0"`), go.mod
# (`github.com/x/y v1.2.3`, in a `require` block or not; `go 1.22` is the toolchain) and Cargo.toml
# (`serde = "1.0"`, `tokio = { version = "1.37", … }`). Keys that are the manifest's own fields (its
# version, a crate's edition) are no dependencies.
_NPM_DEPENDENCY = re.compile(r"^\s*\"(@?[\w.-]+(?:/[\w.-]+)?)\"\s*:\s*\"((?:[~^]|[<>=]=?)?\s*\d[\w.+-]*)\"")
_GO_REQUIREMENT = re.compile(
    r"^\s*(?:require\s+)?([\w.-]+\.[a-z]{2,}/[\w./-]+)\s+(v\d[\w.+-]*)|^\s*(go)\s+(\d[\d.]*)\s*$"
)
_CARGO_DEPENDENCY = re.compile(
    r"^\s*([\w-]+)\s*=\s*(?:\"([~^<>=]*\s*\d[\w.+-]*)\"|\{[^}]*\bversion\s*=\s*\"([^\"]+)\")"
)
_MANIFEST_FIELDS = frozenset({"version", "edition", "rust-version"})
# A workflow step's action and its version (`uses: actions/checkout@v4`): a CI dependency, like an image.
_ACTION = re.compile(r"^[+-]\s*(?:-\s*)?uses:\s*[\"']?([\w.-]+/[\w./-]+)@([\w.-]+)")
_SHELL_COMMENT = re.compile(r"^\s*(?:#|//)")
_STAGE = re.compile(r"^[ +-]?\s*FROM\s+\S+\s+AS\s+(\S+)", re.M | re.I)
_IMAGE = re.compile(
    r"^([+-])\s*(?:FROM\s+|(?:[\w-]*image|container)\s*:\s*|[A-Z_]*IMAGE[A-Z_]*\s*[:=]\s*)[\"']?([^\s\"']+)",
    re.I,
)


# OmegaConf's mark of a value that must be given (`name: ???`, `name: str = MISSING` in a structured
# config): no default, the run fails without it.
REQUIRED_VALUES = frozenset({"???", "MISSING", "omegaconf.MISSING", "dataclasses.MISSING"})


@dataclass(frozen=True, slots=True)
class ConfigChange:
    """A configuration key whose default changed, or that was added (old None) or removed (new None)."""

    path: str
    key: str
    old: str | None
    new: str | None

    @property
    def kind(self) -> ConfigKind:
        """What changed (a `ConfigKind` of `chatbot.analysis.types`): "added", "removed", "required" (the
        new value is OmegaConf's `???`), "follows" (the new value refers to other keys or variables than
        the old one, or the old was a literal: where the value comes from changed, not a default written
        here) or "default_changed"."""
        if self.old is None:
            return "added"
        if self.new is None:
            return "removed"
        if self.new in REQUIRED_VALUES:
            return "required"
        return "follows" if source_moved(self.old, self.new) else "default_changed"


# Interpolations: OmegaConf's `${a.b}`, `${..x}`, `${oc.select:a.b,default}`, `${oc.env:VAR,default}`
# (and the legacy `${env:VAR}`), other resolvers over nested ones (`${oc.decode:${oc.env:X}}`), and the
# shell's `${VAR:-default}` of compose files and scripts. A reference is shown as the key it reads, or
# `$VAR` for an environment variable.
_RESOLVER = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*:(.*)$", re.S)
_SHELL_DEFAULT = re.compile(r"^([A-Za-z_]\w*):?[-=?+]")
_KEY_REFERENCE = re.compile(r"^\s*(\.*[A-Za-z_][\w.\-\[\]]*)\s*$")
_ENV_RESOLVERS = frozenset({"oc.env", "env"})


def _closing(text: str, start: int) -> int:
    """The index of the `}` closing the `${` at `start`, or -1."""
    depth = 0
    for at in range(start, len(text)):
        if text.startswith("${", at):
            depth += 1
        elif text[at] == "}":
            depth -= 1
            if depth == 0:
                return at
    return -1


def _first_argument(text: str) -> str:
    """A resolver's first argument: up to the first comma outside nested interpolations and brackets."""
    depth = 0
    for at, char in enumerate(text):
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
        elif char == "," and depth == 0:
            return text[:at].strip()
    return text.strip()


def _interpolations(value: str) -> list[tuple[str, bool]]:
    """Each key or environment variable a value's interpolations read, in order, and whether a fallback
    is given for it (`${oc.select:a.b,1}`, `${oc.env:P,8000}`, `${P:-8000}`)."""
    text = value.strip().strip("\"'")
    found: list[tuple[str, bool]] = []
    position = 0
    while (start := text.find("${", position)) >= 0:
        end = _closing(text, start)
        if end < 0:
            break
        body = text[start + 2 : end]
        shell = _SHELL_DEFAULT.match(body)
        resolver = _RESOLVER.match(body)
        if _KEY_REFERENCE.match(body):
            found.append((body.strip(), False))
        elif shell:
            found.append((f"${shell.group(1)}", True))
        elif resolver and resolver.group(1) in _ENV_RESOLVERS | {"oc.select"}:
            arguments = resolver.group(2).strip()
            name = _first_argument(arguments)
            fallback = arguments[len(name) :]
            found.append((f"${name}" if resolver.group(1) in _ENV_RESOLVERS else name, bool(fallback)))
            found += _interpolations(fallback)  # a fallback that reads another key: `${oc.select:a,${b}}`
        elif resolver:
            found += _interpolations(resolver.group(2))  # `${oc.decode:${oc.env:X}}`: what its arguments read
        position = end + 1
    return found


def references(value: str) -> tuple[str, ...]:
    """The keys and environment variables a value's interpolations read, in order:
    `${oc.select:a.b, null}` -> (`a.b`,), `${oc.env:PORT,8000}` and `${PORT:-8000}` -> (`$PORT`,),
    `"${data.dir}/train"` -> (`data.dir`,), `1e-6` -> ()."""
    return tuple(name for name, _ in _interpolations(value))


def only_fallback_given(old: str, new: str) -> bool:
    """Whether a changed value reads the same keys as before and only gains or loses the fallback of one
    (`${rollout.n}` -> `${oc.select:rollout.n,1}`): the value still comes from the key, which a composed
    config has, so no default changed. A fallback that changes (`${oc.select:x,1}` -> `${oc.select:x,2}`)
    is a new default, and so is one for an environment variable, which is often unset."""
    before, after = _interpolations(old), _interpolations(new)
    if not before or [name for name, _ in before] != [name for name, _ in after]:
        return False
    changed = [name for (name, had), (_, has) in zip(before, after, strict=True) if had != has]
    return bool(changed) and not any(name.startswith("$") for name in changed)


def source_moved(old: str, new: str) -> bool:
    """Whether a changed value is one that follows another key or variable now: the new value refers to
    other keys than the old one (`${actor.x}` -> `${model.x}`), or the old was a literal. Not when only
    the fallback around the same reference changed (`${oc.env:P,1}` -> `${oc.env:P,2}`: a new default)."""
    now = references(new)
    return bool(now) and references(old) != now


@dataclass(frozen=True, slots=True)
class DependencyChange:
    """A dependency or image that was added, removed or changed version. `image` for a base or CI image
    and a workflow's action; `declared` when it comes from a dependency file (requirements, pyproject,
    setup.py) rather than an install line or image; `key` when the module map lists it as a key dependency
    (a framework whose version changes behaviour; an image never is)."""

    path: str
    name: str
    change: str  # "added", "removed" or "changed"
    old: str | None = None
    new: str | None = None
    image: bool = False
    declared: bool = False
    key: bool = False


@dataclass(frozen=True, slots=True)
class LineHit:
    """An added line worth pointing at, with its file (and, for a call, the function it is in)."""

    path: str
    line: str
    where: str = ""


@dataclass(frozen=True, slots=True)
class Rename:
    """A public definition whose name changed in one file, its signature kept (or, as a move, a name
    that left the file `old` for the file `new`)."""

    path: str
    old: str
    new: str


# Entry points that say where a program starts, not what a change does: a reading guide names them only
# when no other function of the most changed files is the centre of a change.
_LANDMARKS = frozenset({"main", "cli", "entrypoint", "entry_point"})


def _focus(code_patches: list[tuple[int, str, str]]) -> tuple[LineHit, ...]:
    """The most changed code file whose change centres on a named function other than an entry point
    such as `main` (only the first few files are read: the reading guide starts at one)."""
    landmark: tuple[LineHit, ...] = ()
    for _, path, patch in sorted(code_patches, key=lambda item: (-item[0], item[1]))[:3]:
        centre = focus_function(patch)
        if centre and centre.rsplit(".", 1)[-1] not in _LANDMARKS:
            return (LineHit(path, centre),)
        landmark = landmark or ((LineHit(path, centre),) if centre else ())
    return landmark


def _tests_of(focus: LineHit, test_patches: list[tuple[str, str]]) -> tuple[str, ...]:
    """The changed test files about the focus: their patch names its function, or their file name its
    module (`test_core_algos.py` for `core_algos.py`)."""
    stem = focus.path.rsplit("/", 1)[-1].removesuffix(".py")
    return tuple(
        path
        for path, patch in test_patches
        if focus.line in patch or (len(stem) > 3 and stem in path.rsplit("/", 1)[-1])
    )


def focus_function(patch: str) -> str | None:
    """The function or class where a file's change concentrates: in the hunk with the most changed lines
    (a hunk in an entry point such as `main` only when no other hunk names a function), the first
    definition added there (else the first removed), else the one the hunk header names as its
    context. A dunder is named with its class (`ToolAgentLoop.__init__`, not a bare `__init__`): the hunk
    header names the class a method's change sits in."""
    best: tuple[bool, int, str | None] = (False, 0, None)
    changed, name, removed, context, dunder = 0, None, None, None, None

    def close() -> None:
        nonlocal best
        method = name or removed or dunder
        if method and method.startswith("__") and context:
            method = f"{context}.{method}"
        centre = method or context
        if centre and changed:
            # An entry point (`main`) is the centre only when no other function changed.
            ranked = (centre.rsplit(".", 1)[-1] not in _LANDMARKS, changed, centre)
            if ranked[:2] > best[:2]:
                best = ranked

    for line in patch.split("\n"):
        hunk = _HUNK.match(line)
        if hunk:
            close()
            header = _DEF_NAME.match(hunk.group(1))
            changed, name, removed, context, dunder = 0, None, None, header.group(1) if header else None, None
            continue
        if line.startswith(("+", "-")):
            changed += 1
            # A definition the PR keeps is where to read; one it removes only when nothing replaces it.
            definition = _DEF_NAME.match(line) if name is None else None
            if definition and line.startswith("+"):
                name = definition.group(1)
            elif definition and removed is None:
                removed = definition.group(1)
        elif name is None and context is not None:
            definition = _DEF_NAME.match(line)
            if definition and definition.group(1).startswith("__"):
                dunder = definition.group(1)  # opened inside the hunk above the change, in the class
            elif definition:
                context, dunder = definition.group(1), None  # a definition opened above the change
    close()
    return best[2]


def _still_called(name: str, patches: Iterable[str]) -> bool:
    """Whether an added line of `patches` calls `name` (as a function or a method) or imports it
    (`from pkg.tool_parser import ToolParser`: it moved to a module the PR may not show)."""
    needle = f"{name}("
    imported = re.compile(rf"^\+\s*(?:from\s+\S+\s+)?import\b[^\n]*\b{re.escape(name)}\b", re.M)
    for patch in patches:
        at = patch.find(needle)
        while at >= 0:
            added = patch.startswith("+", patch.rfind("\n", 0, at) + 1)
            if added and not (patch[at - 1].isalnum() or patch[at - 1] == "_"):
                return True
            at = patch.find(needle, at + 1)
        if name in patch and imported.search(patch):
            return True
    return False


def _call(path: str, patch: str, match: re.Match[str]) -> LineHit:
    """A matched call as evidence: its sign and statement (`+dist.barrier()`), and the function it is in."""
    end = patch.find("\n", match.start())
    line = patch[match.start() : end if end >= 0 else len(patch)]
    return LineHit(path, line[0] + _first_line(line[1:], 100), enclosing_function(patch, match.start()) or "")


def enclosing_function(patch: str, position: int) -> str | None:
    """The function or class a patch line at `position` belongs to: the nearest definition above it that
    the new file keeps and that is indented less, else the one its hunk header names."""
    end = patch.find("\n", position)
    own = patch[position + 1 : end if end >= 0 else len(patch)]
    indent = len(own) - len(own.lstrip())
    for line in reversed(patch[:position].split("\n")):
        hunk = _HUNK.match(line)
        if hunk:
            header = _DEF_NAME.match(hunk.group(1))
            return header.group(1) if header else None
        definition = _DEF_NAME.match(line) if not line.startswith("-") else None
        if definition and len(line[1:]) - len(line[1:].lstrip()) < indent:
            return definition.group(1)
    return None


def _leaf(key: str) -> str:
    """`Args.lr` -> `lr`, `generate(temperature)` -> `temperature`, `--max-len` -> `max_len`."""
    leaf = key.rsplit(".", 1)[-1]
    if leaf.endswith(")"):
        leaf = leaf[leaf.index("(") + 1 : -1]
    return leaf.lstrip("-").replace("-", "_")


def _strip_value(value: str) -> str:
    """A config value without its trailing comment; a value that is only a comment is no value."""
    return "" if value.startswith("#") else _COMMENT.sub("", value).strip().strip(",")


# A Kubernetes object's header (`apiVersion: policy/v1` with `kind: PodDisruptionBudget`) at the top level.
_MANIFEST_KIND = re.compile(r"^[ +-]apiVersion:\s*\S+\s*\n[ +-]kind:\s*[A-Z]\w*\s*$", re.M)


def file_config_changes(f: FileFacts, patch: str) -> list[ConfigChange]:
    """Keys changed within one run of -/+ lines are paired: `-  lr: 1e-6` `+  lr: 1e-5` is a changed default.
    Pairing stops at context lines, so two unrelated `enable:` keys in different hunks never pair up.
    YAML keys are named by their enclosing keys as far as the hunk shows them (`rollout.agent.path`)."""
    is_yaml = f.path.endswith((".yaml", ".yml"))
    if is_yaml and _MANIFEST_KIND.search(patch):
        return []  # a Kubernetes manifest (a chart's template): its fields are the API's, not the app's settings
    removed: dict[tuple[str, str], tuple[str, str]] = {}  # (indent, key) -> (dotted key, old value)
    sections: list[tuple[int, str]] = []  # the YAML keys enclosing the current line, by indentation
    changes: list[ConfigChange] = []

    def unpaired() -> list[ConfigChange]:
        return [ConfigChange(f.path, dotted, old, None) for dotted, old in removed.values() if old]

    for line in patch.split("\n"):
        dotted = ""
        if is_yaml:
            if line.startswith("@@"):
                sections = []
            any_key = _YAML_KEY.match(line)
            if any_key:
                depth = len(any_key.group(2))
                while sections and sections[-1][0] >= depth:
                    sections.pop()
                dotted = ".".join([k for _, k in sections] + [any_key.group(3)])
                if not _strip_value(any_key.group(4)):
                    sections.append((depth, any_key.group(3)))
        if not line.startswith(("+", "-")):
            changes += unpaired()
            removed = {}
            continue
        match = (_YAML_KEY if is_yaml else _PY_FIELD).match(line)
        if match is None and not is_yaml:
            match = _ARG_DEFAULT.match(line)
        if match is None or match.group(3).startswith("_"):
            continue  # no setting here, or framework plumbing such as Hydra's `_target_`
        sign, indent, key, value = (
            match.group(1),
            match.group(2),
            match.group(3),
            _strip_value(match.group(4)),
        )
        dotted = dotted or key
        if sign == "-":
            removed[(indent, key)] = (dotted, value)
        elif (indent, key) in removed:
            old = removed.pop((indent, key))[1]
            if old != value and old and value:
                changes.append(ConfigChange(f.path, dotted, old, value))
        elif value:
            changes.append(ConfigChange(f.path, dotted, None, value))
    changes += unpaired()
    # A key removed at one place and added at another (re-nested, reordered) was moved, not added or removed.
    leaf = {c.key.rsplit(".", 1)[-1] for c in changes if c.old is None}
    moved = leaf & {c.key.rsplit(".", 1)[-1] for c in changes if c.new is None}
    return [
        c
        for c in changes
        if (c.old is not None and c.new is not None) or c.key.rsplit(".", 1)[-1] not in moved
    ]


# Python defaults a user of the code relies on: dataclass and pydantic fields (`name: T = 0.9`,
# `name: T = field(default=0.9, …)`), argparse options (`add_argument("--x", …, default=0.9)`, on one
# line or spread over several), keyword defaults of a function (`def f(x=0.9)`, one parameter a line or
# all on the `def` line) and module constants in UPPER_CASE.
_PY_SCOPE = re.compile(r"^[+ -]?(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)")
_PY_ANNOTATED = re.compile(r"^(\s+)([A-Za-z_]\w*)\s*:\s*[^=\n]+?=\s*(.+?)\s*$")
_PY_PARAM = re.compile(r"^(\s+)([A-Za-z_]\w*)\s*(?::\s*[^=\n]+?)?=\s*(.+?)\s*$")
_PY_CONSTANT = re.compile(r"^([A-Z][A-Z0-9_]*[A-Z0-9])\s*(?::\s*[^=\n]+?)?=\s*(.+?)\s*$")
_PY_FACTORY = re.compile(r"^(?:dataclasses\.)?(?:field|Field)\(\s*(?:default\s*=\s*)?(.*)$")
_PY_KWARG_DEFAULT = re.compile(r"\bdefault\s*=\s*([^,)\n]+)")
_PY_FLAG = re.compile(r"[\"'](--[\w-]+)[\"']")
_PY_DEF_PARAMS = re.compile(r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\((.*)\)\s*(?:->[^:]*)?:\s*(?:#.*)?$")
_PY_PARAM_DEFAULT = re.compile(r"([A-Za-z_]\w*)\s*(?::\s*[^=,()\[\]]+)?=\s*([^,()\[\]]+|\[\]|\(\)|\{\})")
# A default worth naming is a literal or a dotted name (`0.9`, `"bf16"`, `None`, `torch.float32`), not a
# call or an expression a reader would have to evaluate.
_PY_LITERAL = re.compile(
    r"""^(?:[-+]?\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|"[^"\n]{0,40}"|'[^'\n]{0,40}'|True|False|None|"""
    r"""[A-Za-z_][\w.]{0,40}|\[\]|\(\)|\{\})$""",
    re.I,
)


# OmegaConf's interpolation helpers in structured configs: `II("optim.lr")` is `"${optim.lr}"`.
_PY_INTERPOLATION = re.compile(r"""^(?:omegaconf\.)?II\(\s*["']([^"'\n]{1,60})["']\s*\)""")


def _py_value(text: str) -> str | None:
    """The default in `text` (a trailing comma, closing parenthesis or comment dropped) when it is a
    literal or a dotted name (or OmegaConf's `II("key")`, as the `${key}` it stands for), else None;
    strings in double quotes, so a change of quotes is no change."""
    value = _COMMENT.sub("", text).strip().rstrip(",").strip()
    interpolation = _PY_INTERPOLATION.match(value)
    if interpolation:
        return f'"${{{interpolation.group(1)}}}"'
    if value.endswith(")") and value.count("(") < value.count(")"):
        value = value[:-1].rstrip().rstrip(",").strip()
    if not _PY_LITERAL.match(value) or value.endswith("."):
        return None
    return f'"{value[1:-1]}"' if value.startswith("'") else value


def python_defaults(path: str, patch: str) -> list[ConfigChange]:
    """Defaults of Python settings whose value the patch changes (see above), named with where they are
    set: `VllmArguments.gpu_memory_utilization`, `--gpu-memory-utilization`, `generate(temperature)`,
    `MAX_RETRIES`. A removed and an added line are paired within one run of changed lines, so a default
    is only ever compared with its own old value."""
    changes: list[ConfigChange] = []
    for hunk in patch.split("\n@@"):
        removed = _assigned(hunk, "\n-")  # first: most hunks only add, and then this is all the work
        if not removed or not removed & _assigned(hunk, "\n+"):
            continue  # no removed line sets what an added line sets: no default changed here
        lines = hunk.split("\n")
        header = _PY_SCOPE.match(lines[0].rpartition("@@")[2].lstrip()) if "@@" in lines[0] else None
        scopes: list[tuple[int, str, str]] = []  # enclosing (indent, "def"/"class", name), innermost last
        if header:
            scopes.append((-1, header.group(2), header.group(3)))
        signature: str | None = None  # the function whose parameters are being listed, one a line
        call: str | None = None  # the flag or field of an open argparse call / field(...), and its
        depth = 0  # parentheses still open
        old: dict[str, str] = {}
        for line in lines[1:]:
            sign, text = (line[:1], line[1:]) if line[:1] in ("+", "-") else (" ", line[1:])
            if sign == " " and old:
                old = {}  # a context line ends the run: an old value pairs only within it
            stripped = text.strip()
            if not stripped or stripped.startswith("#"):
                continue
            indent = len(text) - len(text.lstrip())
            scope = _PY_SCOPE.match(text)
            if scope:
                while scopes and scopes[-1][0] >= indent:
                    scopes.pop()
                scopes.append((indent, scope.group(2), scope.group(3)))
                single = _PY_DEF_PARAMS.match(text) if scope.group(2) == "def" else None
                signature = _callable(scopes) if scope.group(2) == "def" and not single else None
                if single and sign != " ":
                    for name, written in _PY_PARAM_DEFAULT.findall(single.group(2)):
                        _pair(changes, old, sign, path, f"{_callable(scopes)}({name})", _py_value(written))
                continue
            while scopes and scopes[-1][0] >= indent and scopes[-1][0] >= 0 and stripped[0] not in ")]}":
                scopes.pop()  # a closing bracket at the def's indentation is still the def's
            if "add_argument(" in text:
                flag = _PY_FLAG.search(text)
                call, depth = (flag.group(1) if flag else "add_argument"), 0
            elif call == "add_argument":
                flag = _PY_FLAG.search(text)
                call = flag.group(1) if flag else call
            key: str | None = None
            value: str | None = None
            owner = scopes[-1] if scopes else None
            annotated = _PY_ANNOTATED.match(text)
            kwarg = _PY_KWARG_DEFAULT.search(text) if "default" in text else None
            if signature:
                param = _PY_PARAM.match(text)
                if param:
                    key, value = f"{signature}({param.group(2)})", _py_value(param.group(3))
                if stripped.startswith(")") or stripped.endswith(":"):
                    signature = None  # the parameter list has closed
            elif annotated and owner is not None and owner[1] == "class":
                factory = _PY_FACTORY.match(annotated.group(3))
                name = f"{owner[2]}.{annotated.group(2)}"
                if factory:
                    call, depth = name, 0
                    inner = _PY_KWARG_DEFAULT.search(annotated.group(3))
                    value = _py_value(inner.group(1)) if inner else None
                    key = name if value is not None else None
                else:
                    key, value = name, _py_value(annotated.group(3))
            elif kwarg and call and call != "add_argument":
                key, value = call, _py_value(kwarg.group(1))
            elif indent == 0:
                constant = _PY_CONSTANT.match(text)
                if constant and not constant.group(1).endswith("VERSION"):
                    key, value = constant.group(1), _py_value(constant.group(2))
            if key is not None and sign != " ":
                _pair(changes, old, sign, path, key, value)
            if call:
                depth += text.count("(") - text.count(")")
                call = call if depth > 0 else None
    return changes


def _assigned(hunk: str, marker: str) -> set[str]:
    """What the changed lines of one sign set to a literal (the text before their `=`), or "default" for
    a line naming one: a default changed in a hunk is set on a removed and on an added line."""
    found = set()
    for piece in hunk.split(marker)[1:]:
        line = piece[: piece.find("\n")] if "\n" in piece else piece
        if "default" in line:
            found.add("default")
        elif "=" in line and line.lstrip().startswith(("def ", "async def ")):
            found.add(line[: line.find("(")].strip())
        elif "=" in line:
            at = line.index("=")
            value = line[at + 1 :].strip()
            if _PY_LITERAL.match(value.rstrip(",)").strip()) or _PY_INTERPOLATION.match(value):
                found.add(line[:at].strip())
    return found


def _callable(scopes: list[tuple[int, str, str]]) -> str:
    """How a reader calls the innermost function: `generate`, `Engine.generate`, or `Engine` for its
    `__init__`."""
    name = scopes[-1][2]
    owner = scopes[-2] if len(scopes) > 1 and scopes[-2][1] == "class" else None
    if owner is None:
        return name
    return owner[2] if name == "__init__" else f"{owner[2]}.{name}"


def _pair(
    changes: list[ConfigChange], old: dict[str, str], sign: str, path: str, key: str, value: str | None
) -> None:
    """A removed default waits in `old` for the added line that sets the same key to another value."""
    if value is None:
        return
    if sign == "-":
        old[key] = value
    elif key in old:
        before = old.pop(key)
        if before != value:
            changes.append(ConfigChange(path, key, before, value))


def canonical_package(name: str) -> str:
    """PEP 503's normal form: `Torch_NPU` and `torch-npu` are the same package."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _specifier(spec: str) -> str | None:
    """`==2.1.0` -> `2.1.0` (an exact pin reads as its version); a range keeps its operators: `>=2.1,<3`."""
    spec = spec.replace(" ", "").rstrip(",")
    if not spec:
        return None
    return spec[2:] if spec.startswith("==") and not spec.startswith("===") and "," not in spec else spec


def _declared_requirements(path: str, content: str) -> list[tuple[str, str | None]]:
    """The requirements one line of a dependency file declares: a requirements/constraints line, quoted
    specifiers in pyproject.toml or setup.py lists, bare specifiers in setup.cfg / environment.yml, or
    the Python versions supported (`requires-python`, `python_requires`), as package `python`."""
    python = _PYTHON_REQUIRES.match(content) if "python" in content else None
    if python:
        return [("python", _specifier(python.group(1)))]
    if path.endswith(".txt"):
        req = _REQUIREMENT.match(content)
        return [(req.group(1), _specifier(req.group(2)))] if req else []
    manifest = path.rsplit("/", 1)[-1]
    if manifest in ("package.json", "go.mod", "cargo.toml"):
        return _manifest_requirement(manifest, content)
    found = [(m.group(1), _specifier(m.group(2))) for m in _QUOTED_REQUIREMENT.finditer(content)]
    if not found and path.endswith((".cfg", ".yml", ".yaml")):
        found = [(m.group(1), _specifier(m.group(2))) for m in _INSTALL_SPEC.finditer(content)]
    return found


def _manifest_requirement(manifest: str, content: str) -> list[tuple[str, str | None]]:
    """The dependency one line of a package.json, go.mod or Cargo.toml declares, with its version."""
    if manifest == "go.mod":
        go = _GO_REQUIREMENT.match(content)
        return [(go.group(1) or go.group(3), go.group(2) or go.group(4))] if go else []
    found = (_NPM_DEPENDENCY if manifest == "package.json" else _CARGO_DEPENDENCY).match(content)
    if found is None or found.group(1).lower() in _MANIFEST_FIELDS:
        return []
    version = next(v for v in found.groups()[1:] if v is not None)
    return [(found.group(1), version.replace(" ", ""))]


def _dependency_changes(f: FileFacts, patch: str, key_deps: frozenset[str]) -> list[DependencyChange]:
    """Version changes of declared requirements (requirements*.txt, pyproject.toml, setup.py, setup.cfg,
    environment.yml, package.json, go.mod, Cargo.toml), of packages on install lines (`pip install`, `uv pip install`, conda; continued
    lines included) and `*_VERSION` build arguments in Dockerfiles, workflows and scripts, and of base or
    CI images. Comments and prose are not read: only what would be installed."""
    path = f.path.lower()
    old: dict[str, str | None] = {}
    new: dict[str, str | None] = {}
    shown: dict[str, str] = {}
    images: set[str] = set()
    actions: set[str] = set()
    # `FROM base AS builder` then `FROM builder`: build stages are not images, nor is `scratch`.
    not_images = {"scratch", *(a.lower() for a in _STAGE.findall(patch))}
    installing = False  # inside a shell command that installs packages (it may continue over lines)
    previous_continues = False
    for line in patch.split("\n"):
        if line.startswith(("+++", "---", "@@")):
            installing = False
            continue
        line = line.rstrip("\r")
        sign, content = (line[0], line[1:]) if line[:1] in ("+", "-", " ") else (" ", line)
        if _SHELL_COMMENT.match(content):
            continue
        # The patterns below run only where their keyword is (`install`/`uv add`, an image, `_VERSION`).
        lowered = content.lower()
        command = ("install" in lowered or "uv add" in lowered) and bool(_INSTALL_COMMAND.search(content))
        installing = command or (installing and previous_continues)
        previous_continues = content.rstrip().endswith("\\")
        if sign == " ":
            continue
        found: list[tuple[str, str | None]] = []
        image = (
            _IMAGE.match(line)
            if ("from" in lowered or "image" in lowered or "container" in lowered)
            else None
        )
        ref = image.group(2) if image else ""
        action = _ACTION.match(line) if f.kind == "ci" and "uses:" in content else None
        if action:
            found.append((action.group(1), action.group(2)))
            actions.add(canonical_package(action.group(1)))
        elif image and "{" not in ref and "$" not in ref and ref.lower() not in not_images:
            name, _, tag = ref.rpartition(":") if ":" in ref.split("/")[-1] else (ref, "", "")
            found.append((name, tag or None))
            images.add(canonical_package(name))
        elif f.kind == "deps":
            found += _declared_requirements(path, content)
        else:
            if installing:
                found += [(m.group(1), _specifier(m.group(2))) for m in _INSTALL_SPEC.finditer(content)]
            variable = _VERSION_VARIABLE.match(content) if "_VERSION" in content else None
            if variable:
                found.append((variable.group(1).lower().replace("_", "-"), variable.group(2)))
        for name, version in found:
            key = canonical_package(name)
            (old if sign == "-" else new)[key] = version
            shown.setdefault(key, name)
    changes = []
    for key in list(old) + [n for n in new if n not in old]:
        if key in old and key in new and old[key] == new[key]:
            continue
        if key in actions and not (key in old and key in new):
            continue  # a workflow added or removed brings its actions along: only a new version is news
        change = "changed" if key in old and key in new else "removed" if key in old else "added"
        changes.append(
            DependencyChange(
                f.path,
                shown[key],
                change,
                old.get(key),
                new.get(key),
                image=key in images or key in actions,
                declared=f.kind == "deps",
                key=key not in images and (key in key_deps or shown[key].lower() in key_deps),
            )
        )
    return changes


# --- description ----------------------------------------------------------------------------------------

# Keyword classes read from the title and the author's prose (template text is gone by then).
KEYWORDS: dict[str, re.Pattern[str]] = {
    "oom": re.compile(r"\bOOM\b|out of memory|显存不足|显存溢出|内存溢出|爆显存", re.I),
    "leak": re.compile(r"\bleak(?:s|ed|ing|age)?\b|内存泄[漏露]|显存泄[漏露]|泄[漏露]", re.I),
    "deadlock": re.compile(r"\bdead-?locks?\b|死锁", re.I),
    "crash": re.compile(r"\bcrash(?:es|ed|ing)?\b|segfault|segmentation fault|core dump|崩溃", re.I),
    "hang": re.compile(r"\bhang(?:s|ing)?\b|\bhung\b|\bstuck\b|卡死|卡住|挂起", re.I),
    "regression": re.compile(r"\bregress(?:ion|ions|ed)?\b(?![- ]tests?)|性能回退|回归", re.I),
    "security": re.compile(r"\bsecurity\b|\bvulnerab\w*|\bCVE-\d{4}-\d+|\bCVE\b|安全漏洞|漏洞", re.I),
    "race": re.compile(r"\brace(?: condition)?s?\b|data race|竞态|竞争条件", re.I),
    "nan": re.compile(r"\bNaN\b|\bnan (?:loss|grad\w*)|\binf (?:loss|grad\w*)|梯度爆炸|数值不稳定"),
    "corruption": re.compile(r"\bcorrupt\w*|data loss|数据丢失|数据损坏", re.I),
    "memory": re.compile(r"显存|\bmemory (?:usage|footprint|peak)|peak memory", re.I),
}
# For each keyword class, lowercase literals one of which every match of its pattern contains.
_KEYWORD_NEEDLES: dict[str, tuple[str, ...]] = {
    "oom": ("oom", "out of memory", "显存不足", "显存溢出", "内存溢出", "爆显存"),
    "leak": ("leak", "泄"),
    "deadlock": ("dead", "死锁"),
    "crash": ("crash", "segfault", "segmentation fault", "core dump", "崩溃"),
    "hang": ("hang", "hung", "stuck", "卡死", "卡住", "挂起"),
    "regression": ("regress", "性能回退", "回归"),
    "security": ("security", "vulnerab", "cve", "漏洞"),
    "race": ("race", "竞态", "竞争条件"),
    "nan": ("nan", "inf ", "梯度爆炸", "数值不稳定"),
    "corruption": ("corrupt", "data loss", "数据丢失", "数据损坏"),
    "memory": ("显存", "memory"),
}
# Common words that hold a needle without being the keyword ("change" holds "hang", "trace" "race"): the
# needle counts only when it occurs more often than such a word.
_NEEDLE_HOSTS = {"hang": "change", "race": "trace"}
_PERCENT = re.compile(r"(?<![\w.])[-+−~]?\d+(?:\.\d+)?\s?%")
# The prose patterns below are lowercase and read the lowercased prose (cheaper than ignoring case).
_SPEEDUP = re.compile(
    r"\b\d+(?:\.\d+)?\s?[x×]\s*(?:speed-?up|faster|higher|lower|less|more|throughput|improvement|reduction)|"
    r"(?:speed-?up|faster|acceleration|加速|提速)[^.\n]{0,30}?\d+(?:\.\d+)?\s?[x×倍]|\d+(?:\.\d+)?\s?倍|"
    # A metric and its ratio: "throughput up 1.6x", "latency cut by 2x", "mfu improved ~1.3×".
    r"\b(?:throughput|latency|speed|step time|tokens?/s|tok/s|mfu)\b[^.\n]{0,25}?\b\d+(?:\.\d+)?\s?[x×](?!\w)"
)
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*\|", re.M)
_METRIC = re.compile(
    r"\b(?:throughput|latency|tokens?/s|tok/s|tflops|mfu|it/s|samples?/s|accuracy|acc(?:@|/)|score|reward|"
    r"wall[- ]clock|step time|peak memory|memory usage|speed-?up|perplexity|loss curve|benchmark)\b|"
    r"吞吐|延迟|精度|准确率|耗时|显存占用"
)
_UNIT_NUMBER = re.compile(
    r"\b\d+(?:\.\d+)?\s?(?:(?:ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|GB|GiB|MB|TFLOPS|tokens/s|"
    r"tok/s|it/s)\b|毫秒|秒|分钟|小时|倍)"
)
_DESIGN_HEADING = re.compile(
    r"design|motivation|background|root[- ]?cause|problem|analysis|\bwhy\b|solution|approach|implementation|"
    r"alternative|limitation|trade-?off|benchmark|result|experiment|evaluation|performance|accuracy|profil|"
    r"investigation|原因|设计|背景|方案|问题|实验|结果|分析",
    re.I,
)
_TEST_HEADING = re.compile(r"\btest|validation|verification|测试|验证", re.I)
_ROOT_CAUSE = re.compile(r"root[- ]?cause|\bculprit\b|\bbisect\w*|根因|根本原因")
_ROOT_CAUSE_NEEDLES = ("root", "culprit", "bisect", "根")
# Every speed-up figure has a digit before its `x`, `×` or `倍`: prose without one holds none (most
# descriptions), so the long pattern runs only on the rest.
_TIMES = re.compile(r"\d\s?[x×倍]")
_CAUSAL = re.compile(
    r"\b(?:because|caused by|due to|the reason|this happens when|which causes|leads? to|results? in)\b|由于|导致|因为"
)
# The author's note on what breaks: "BREAKING CHANGE: …", "BREAKING: …", and the same label in Chinese
# ("破坏性变更：…", "不兼容变更：…").
_BREAKING_NOTE = re.compile(
    # at a line's start, or a sentence's ("… Helm values. **Breaking:** a config that …"), after an emoji
    r"(?:^[ \t>*-]*|(?<=[.!?] )|(?<=[。！？]))\**(?:(?:[\u2190-\u2bff\U0001f000-\U0001faff]\ufe0f?|:[a-z_]+:)\s*)*\**"
    r"(?:BREAKING(?:[ -]CHANGES?)?|(?:破坏性|不兼容)(?:变更|改动|修改))\**\s*[:：]\**\s*(.*)$",
    re.M | re.I,
)
_CJK_LINE_BREAK = re.compile(
    r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])[ \t]*\n[ \t]*(?=[\u4e00-\u9fff])"
)
# The author saying in a sentence that the PR breaks ("This is a breaking change for SDKs older than 0.9",
# "这是一个破坏性变更"); "not a breaking change", "no breaking changes" say the opposite.
_SAYS_BREAKING = re.compile(
    r"(?<![\w-])(?:this (?:pr |change |release )?(?:is|introduces) a breaking change|"
    r"(?:it|this(?: pr| change)?) breaks (?:backwards? )?compatibility)\b|"
    r"这是(?:一个|一次)?(?:破坏性|不兼容)(?:的)?(?:变更|改动|修改)|不(?:再)?向后兼容",
    re.I,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？\n]")  # not the dot of "0.9" or "a.b"
# Where a note's paragraph ends: a blank line, a heading, a list item, a quote or a rule.
_PARAGRAPH_END = re.compile(r"\n[ \t]*(?:\n|#|[-*+>|]|\d+[.)]\s)")
# A template's answer that nothing breaks ("Breaking changes: None", "破坏性变更：无").
_NOTHING_BREAKS = re.compile(
    r"^(?:none|no|nope|n/?a|nothing|not applicable|-+|无|没有|否|不涉及)[\s.。)）]*$", re.I
)
_WORD = re.compile(r"[A-Za-z0-9_]+")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_BOTS = frozenset(
    {"codecov", "github-actions", "gemini-code-assist", "coderabbitai", "copilot", "dependabot", "mergify"}
)


@dataclass(frozen=True, slots=True)
class Measurements:
    """Evidence of measured results in the description."""

    percents: int
    speedups: int
    tables: int
    metric_words: int
    unit_numbers: int
    images: int

    @property
    def found(self) -> bool:
        """Numbers a reader can check: a results table, a %, an x speed-up, a time or a size."""
        return bool(self.percents or self.speedups or self.tables or self.unit_numbers)


@dataclass(frozen=True, slots=True)
class ReviewActivity:
    """Human review activity (bots excluded)."""

    reviews: int
    comments: int
    changes_requested: bool

    @property
    def total(self) -> int:
        return self.reviews + self.comments


@dataclass(frozen=True, slots=True)
class PRFeatures:
    """Everything the analyzer scores, for one PR."""

    title: TitleInfo
    body: CleanBody
    breaking_note: str | None
    caveats: tuple[Caveat, ...]  # warnings in the author's and the reviewers' words
    files: tuple[FileFacts, ...]
    changed_files: int
    additions: int
    deletions: int
    weighted_lines: float
    core_share: float
    path_modules: tuple[str, ...]
    tests_changed: bool
    tests_removed: tuple[str, ...]
    config_changes: tuple[ConfigChange, ...]
    cli_args: tuple[LineHit, ...]
    api_changed: tuple[LineHit, ...]
    api_extended: tuple[LineHit, ...]  # definitions that only gained optional parameters: `name(new ones)`
    api_resigned: tuple[Rename, ...]  # the same definitions, each with its old and new signature
    api_removed: tuple[LineHit, ...]
    api_added: tuple[LineHit, ...]
    api_renamed: tuple[Rename, ...]
    cli_removed: tuple[LineHit, ...]
    env_added: tuple[LineHit, ...]
    env_removed: tuple[LineHit, ...]
    focus: tuple[LineHit, ...]  # the most changed code file with the function its change centres on
    focus_tests: tuple[str, ...]  # changed test files that name the focus function or its file
    dependency_changes: tuple[DependencyChange, ...]
    todos: tuple[LineHit, ...]
    platform_hits: tuple[LineHit, ...]
    security_hits: tuple[LineHit, ...]
    memory_signals: tuple[LineHit, ...]
    concurrency_signals: tuple[LineHit, ...]
    keywords: tuple[str, ...]
    title_keywords: tuple[str, ...]
    measurements: Measurements
    design_sections: tuple[str, ...]
    test_section: bool
    root_cause: bool
    causal_phrases: int
    words: int
    review: ReviewActivity
    # Definitions and config keys taken out of one file and put in another under the same name: moved,
    # neither removed nor added (`old` and `new` are the two files; the name is in `path`).
    api_moved: tuple[Rename, ...] = ()
    config_moved: tuple[Rename, ...] = ()
    # Module functions that became methods of a class in the same file, and methods that became module
    # functions (`old` and `new` are the two names, `Class.name` where the diff shows the class).
    api_into_class: tuple[Rename, ...] = ()
    api_out_of_class: tuple[Rename, ...] = ()
    # Config keys one file removes and adds back under another name with the same value.
    config_renamed: tuple[Rename, ...] = ()
    # Shipped source files renamed or moved (`path` the new path, `old` and `new` the changed part of
    # the two paths: `src/pkg/utils/` -> `src/pkg/helpers/`).
    files_renamed: tuple[Rename, ...] = ()
    # The type a GitHub label declares (`bug`, `enhancement`, `type: documentation`, `kind/performance`).
    label_type: ChangeType | None = None

    @property
    def breaking(self) -> bool:
        return self.title.breaking or self.breaking_note is not None

    @property
    def total_lines(self) -> int:
        return self.additions + self.deletions

    @property
    def code_files(self) -> tuple[FileFacts, ...]:
        return tuple(f for f in self.files if f.is_code)

    @property
    def code_lines(self) -> int:
        return sum(f.lines for f in self.files if f.is_code)

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(f.kind for f in self.files)


# In a repository whose map names no core paths, shipped source outside its helper folders is its core,
# as verl's map names trainer/, workers/ and models/ core and utils/ or experimental/ not.
_AUXILIARY = re.compile(rf"(?:^|/)(?:{'|'.join(sorted(HELPER_FOLDERS))})/", re.I)


def _tests_lost(removed: list[str], files: Sequence[FileFacts]) -> tuple[str, ...]:
    """The test files a PR takes away, when it takes away more test code than it brings: one that deletes
    tests while adding as many test lines moved or rewrote them (a rename GitHub did not pair, three
    per-engine tests merged into one correctness test), and nothing says coverage was lost."""
    brought = sum(f.additions for f in files if f.kind == "test")
    taken = sum(f.deletions for f in files if f.kind == "test")
    return tuple(dict.fromkeys(removed)) if removed and taken > brought else ()


def _inferred_tier(path: str, kind: str, tier: str, module_map: ModuleMap) -> str:
    """The tier of a path, inferred from the repository's own layout when its map names no core paths:
    shipped source outside helper folders is core."""
    if (
        module_map.core
        or tier != "normal"
        or kind != "source"
        or _NOT_SHIPPED.search(path)
        or _AUXILIARY.search(path)
    ):
        return tier
    return "core"


def _file_facts(f: PRFile, module_map: ModuleMap) -> FileFacts:
    module, tier, memory, distributed = module_map.path_facts(f.filename)
    kind = file_kind(f.filename)
    return FileFacts(
        path=f.filename,
        status=f.status,
        kind=kind,
        module=module,
        tier=_inferred_tier(f.filename, kind, tier, module_map),
        additions=f.additions,
        deletions=f.deletions,
        memory_sensitive=memory,
        distributed_sensitive=distributed,
        patched=bool(f.patch),
    )


def _path_modules(files: Iterable[FileFacts]) -> tuple[str, ...]:
    """Modules covering a real share of the change, largest first. Tests are left out when anything else
    changed, since a feature and its tests belong to the feature's module."""
    lines: Counter[str] = Counter()
    weight: dict[str, float] = {}  # the weightiest kind of file in each module breaks a tie of sizes
    for f in files:
        lines[f.module] += max(1, f.lines)
        kind = w.KIND_WEIGHTS.get(f.kind, w.KIND_WEIGHTS["other"])
        weight[f.module] = max(weight.get(f.module, 0.0), kind)
    if len(lines) > 1:
        lines.pop("test", None)
    total = sum(lines.values())
    # Of equal sizes, code before dependencies before CI ("deps" leads a bump that also edits a workflow).
    ranked = sorted(lines.items(), key=lambda kv: (-kv[1], -weight[kv[0]], kv[0]))
    picked = [m for m, n in ranked if n / total >= w.PATH_MODULE_MIN_SHARE][: w.PATH_MODULE_MAX]
    return tuple(picked or [m for m, _ in ranked[:1]])


def _first_line(patch_line: str, limit: int = 120) -> str:
    """One added line as evidence: trimmed, without a shell or Python line-continuation backslash that
    would leave the quote dangling, clipped to `limit` characters."""
    text = patch_line.strip().removesuffix("\\").rstrip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _keywords(text: str) -> tuple[str, ...]:
    """The keyword classes `text` names. Each pattern runs only when one of its literals is in the
    lowercased text (a necessary condition: every match contains one), which skips most patterns; a
    literal found only inside its common host word ("hang" in "change") is not there."""
    lowered = text.lower()
    hosted = {n for n, host in _NEEDLE_HOSTS.items() if lowered.count(n) <= lowered.count(host)}
    return tuple(
        name
        for name, pattern in KEYWORDS.items()
        if any(n in lowered and n not in hosted for n in _KEYWORD_NEEDLES[name]) and pattern.search(text)
    )


def _word_count(prose: str) -> int:
    # Two Han characters carry about as much as one English word.
    return len(_WORD.findall(prose)) + len(_HAN.findall(prose)) // 2


def _reviewer(pr: PullRequest, login: str) -> bool:
    """Whether `login` reviewed as a person: not a bot, not the PR's author."""
    name = login.lower()
    return not name.endswith("[bot]") and name not in _BOTS and name != pr.header.author.lower()


def _review_texts(pr: PullRequest) -> list[tuple[str, str]]:
    """What the PR's human reviewers wrote (reviews, then comments), as login and text."""
    said = [(r.author, r.body) for r in pr.reviews if r.body and _reviewer(pr, r.author)]
    return said + [(c.author, c.body) for c in pr.comments if c.body and _reviewer(pr, c.author)]


def _review_activity(pr: PullRequest) -> ReviewActivity:
    reviews = [r for r in pr.reviews if _reviewer(pr, r.author)]
    comments = [c for c in pr.comments if _reviewer(pr, c.author)]
    return ReviewActivity(
        reviews=len(reviews),
        comments=len(comments),
        changes_requested=any(r.state.upper() == "CHANGES_REQUESTED" for r in reviews),
    )


def valid_text(text: str | None) -> str:
    """Text that encodes as UTF-8: lone surrogates from a broken upstream become U+FFFD, so everything
    quoted from the PR into the analysis can be stored and sent."""
    return _SURROGATE.sub("\ufffd", text) if text else ""


def extract_features(pr: PullRequest, module_map: ModuleMap) -> PRFeatures:
    """All features of one PR. Linear in the size of the patches; no network, no clock."""
    title = parse_title(valid_text(pr.header.title), module_map)
    body = clean_body(valid_text(pr.header.body))
    files = tuple(_file_facts(f, module_map) for f in pr.files)
    additions = pr.additions or sum(f.additions for f in files)
    deletions = pr.deletions or sum(f.deletions for f in files)

    weighted = 0.0
    core = 0.0
    for f in files:
        lines = w.KIND_WEIGHTS.get(f.kind, w.KIND_WEIGHTS["other"]) * w.TIER_WEIGHTS[f.tier] * f.lines
        if f.status == "removed" or not f.additions:
            lines *= w.REMOVED_FILE_LINE_WEIGHT
        weighted += lines
        if f.tier == "core":
            core += lines
    # Files past GitHub's 3,000-file listing still count, at the weight of an average peripheral line.
    unseen = max(0, additions + deletions - sum(f.lines for f in files))
    weighted += unseen * w.UNLISTED_LINE_WEIGHT

    tests_changed = False
    tests_removed: list[str] = []
    config: list[ConfigChange] = []
    cli: list[LineHit] = []
    cli_removed: list[LineHit] = []
    env: dict[str, dict[str, str]] = {"+": {}, "-": {}}  # sign -> variable -> file
    code_patches: list[tuple[int, str, str]] = []  # (lines, path, patch) of code files
    test_patches: list[tuple[str, str]] = []  # (path, patch) of test files the PR keeps
    defs_old: dict[str, tuple[str, str]] = {}
    defs_new: dict[str, tuple[str, str]] = {}
    # name -> (indentation, patch, position) of its first definition on each side, to tell a function
    # that became a method (or a method that became a function) from one whose signature changed.
    places: dict[str, dict[str, tuple[int, str, int]]] = {"-": {}, "+": {}}
    defs_elsewhere: dict[str, str] = {}  # name -> the peripheral file that now defines it
    deps: list[DependencyChange] = []
    todos: list[LineHit] = []
    platform: list[LineHit] = []
    security: list[LineHit] = []
    memory: list[LineHit] = []
    concurrency: list[LineHit] = []
    for raw, f in zip(pr.files, files, strict=True):
        patch = raw.patch or ""
        if f.kind == "test":
            if f.status == "removed":
                tests_removed.append(f.path)
            else:
                tests_changed = tests_changed or f.lines > 0 or f.status in ("added", "renamed")
        test_defs = (
            Counter(m.group(1) for m in _TEST_DEF.finditer(patch)) if "def test_" in patch else Counter()
        )
        if test_defs["+"] and f.kind != "test":
            tests_changed = True
        if (
            f.kind == "test"
            and f.status != "removed"
            and test_defs["-"] > test_defs["+"]
            and f.deletions > f.additions
        ):
            tests_removed.append(f.path)
        if f.kind == "test" and f.status != "removed" and patch:
            test_patches.append((f.path, patch))
        if not patch:
            if _PLATFORM_PATH.search(f.path) and f.kind == "source" and f.tier != "peripheral":
                platform.append(LineHit(f.path, ""))
            continue
        if f.kind in ("config", "source") and f.tier != "peripheral":
            is_config = f.kind == "config" and f.path.endswith((".yaml", ".yml"))
            found = (
                file_config_changes(f, patch)
                if is_config or (f.kind == "source" and w.CONFIG_SOURCE.search(f.path))
                else []
            )
            if (
                f.kind == "source"
                and f.deletions
                and f.path.endswith(".py")
                and not _NOT_SHIPPED.search(f.path)
            ):
                # Defaults anywhere in shipped Python, named where they are set (`Args.lr`); a pair the
                # settings-file reading found too (by its old value: the new may be read differently,
                # `II("optim.lr")` as the `${optim.lr}` it stands for) counts once, under that name.
                defaults = python_defaults(f.path, patch)
                named = {(_leaf(c.key), c.old) for c in defaults}
                found = [c for c in found if (_leaf(c.key), c.old) not in named] + defaults
            config += found
        reads_dependencies = f.kind in ("deps", "docker", "ci", "script") or (
            f.kind == "config" and "docker" in f.path.lower()
        )
        if reads_dependencies and not f.path.lower().endswith(_DOC_SUFFIXES):
            deps += _dependency_changes(f, patch, module_map.key_dependencies)
        if f.kind not in ("source", "script"):
            continue
        if f.kind == "source" and f.tier != "peripheral" and not _NOT_SHIPPED.search(f.path):
            security += [LineHit(f.path, _first_line(m.group(1))) for m in _SECURITY.matches(patch)]
        if f.tier == "peripheral":
            # Examples and recipes: their TODOs and platform branches are not the product's, but a
            # definition that lands here from the library was moved, not deleted.
            if f.kind == "source" and "+" in patch:
                for m in public_definitions(f.path, patch):
                    if m.group(1) == "+":
                        defs_elsewhere.setdefault(m.group(4), f.path)
            continue
        cli += [LineHit(f.path, m.group(1)) for m in _CLI_ARG.matches(patch)]
        cli_removed += [LineHit(f.path, m.group(1)) for m in _CLI_ARG_REMOVED.matches(patch)]
        for m in _ENV_READ.matches(patch):
            env[m.group(1)].setdefault(m.group(2), f.path)
        todos += [LineHit(f.path, _first_line(m.group(1))) for m in _TODO.matches(patch)]
        hits = [
            LineHit(f.path, _first_line(m.group(1)), enclosing_function(patch, m.start()) or "")
            for m in _PLATFORM.matches(patch)
        ]
        if not hits and _PLATFORM_PATH.search(f.path):
            hits = [LineHit(f.path, "")]
        platform += hits
        if f.is_code:
            if f.status != "removed":  # a reading guide never starts in a deleted file
                code_patches.append((f.lines, f.path, patch))
            memory += [_call(f.path, patch, m) for m in _MEMORY_SIGNAL.matches(patch)]
            concurrency += [_call(f.path, patch, m) for m in _CONCURRENCY_SIGNAL.matches(patch)]
            for m in public_definitions(f.path, patch):
                if m.group(2) and _inside_function(patch, m.start(), m.group(1)):
                    continue  # a closure (a patch function defined in a function): nobody outside calls it
                sig = _signature(m.group(5))
                (defs_old if m.group(1) == "-" else defs_new).setdefault(m.group(4), (f.path, sig))
                places[m.group(1)].setdefault(m.group(4), (len(m.group(2)), patch, m.start()))

    # A definition removed in one file and added in another was moved, not removed; only a changed
    # signature, or a name that disappears from the whole diff, is a public API change.
    changed_names = [n for n in sorted(defs_old.keys() & defs_new.keys()) if defs_old[n][1] != defs_new[n][1]]
    extended = {n: _extended(defs_old[n][1], defs_new[n][1]) for n in changed_names}
    resigned = [n for n in changed_names if not extended[n]]
    api_extended = tuple(
        LineHit(defs_new[n][0], f"{n}({', '.join(extra)})") for n, extra in extended.items() if extra
    )
    into_class, out_of_class = _rehomed(resigned, defs_old, defs_new, places)
    rehomed = {r.old for r in into_class} | {r.new for r in out_of_class}
    api_changed = tuple(
        LineHit(defs_new[name][0], f"{name}{defs_new[name][1]}") for name in resigned if name not in rehomed
    )
    api_resigned = tuple(
        Rename(hit.path, f"{name}{defs_old[name][1]}", hit.line)
        for hit in api_changed
        for name in (hit.line.split("(")[0],)
    )
    gone = sorted(defs_old.keys() - defs_new.keys())
    new_names = sorted(defs_new.keys() - defs_old.keys())
    # A name that disappears while another appears in the same file with the same signature was renamed;
    # so was one whose only new neighbour in its file is its name with words added (`…_torch_v28` ->
    # `…_torch_v28_v29`), whatever its signature became.
    renamed: list[Rename] = []
    for name in gone:
        path, sig = defs_old[name]
        twins = [n for n in new_names if defs_new[n] == (path, sig) and sig not in ("", "(…)", "()")]
        if not twins:
            twins = [n for n in new_names if defs_new[n][0] == path and _extends(name, n)]
        if len(twins) == 1:
            renamed.append(Rename(path, name, twins[0]))
            new_names.remove(twins[0])
    renamed_old = {r.old for r in renamed}
    moved = [
        Rename(name, defs_old[name][0], defs_new[name][0] if name in defs_new else defs_elsewhere[name])
        for name in sorted(defs_old)
        if (name in defs_new and defs_new[name][0] != defs_old[name][0])
        or (name in gone and name not in renamed_old and name in defs_elsewhere)
    ]
    renamed_old |= {r.path for r in moved}
    # A name the PR's own added lines still call (`helper.quant_weights_by_name(…)`) or import lives on, as
    # a method or in a file whose patch GitHub cut: it was not removed.
    added_code = [patch for _, _, patch in code_patches] + [patch for _, patch in test_patches]
    api_removed = tuple(
        LineHit(defs_old[n][0], n) for n in gone if n not in renamed_old and not _still_called(n, added_code)
    )
    api_added = tuple(LineHit(defs_new[n][0], n) for n in new_names)
    env_added = tuple(LineHit(path, name) for name, path in env["+"].items() if name not in env["-"])
    env_removed = tuple(LineHit(path, name) for name, path in env["-"].items() if name not in env["+"])
    # A flag declared again elsewhere (moved, reformatted) was neither added nor removed.
    cli_added_names, cli_removed_names = {h.line for h in cli}, {h.line for h in cli_removed}
    cli = [h for h in cli if h.line not in cli_removed_names]
    cli_removed = [h for h in cli_removed if h.line not in cli_added_names]

    # a reference that only gains or loses its fallback still reads the same key: no change to a reader
    config = [c for c in config if c.old is None or c.new is None or not only_fallback_given(c.old, c.new)]
    config, config_moved = _moved_keys(config)
    config, config_renamed = _renamed_keys(config, f"{pr.header.title}\n{pr.header.body or ''}")
    focus = _focus(code_patches)
    prose = body.prose
    lowered = prose.lower()
    text_for_keywords = f"{pr.header.title}\n{prose}"
    design: list[str] = []
    test_section = False
    for section in body.sections:
        words = _word_count(section.plain)
        if words < w.DESIGN_SECTION_MIN_WORDS:
            continue
        if _DESIGN_HEADING.search(section.heading):
            design.append(section.heading)
        elif _TEST_HEADING.search(section.heading):
            test_section = True
    note = next(
        (m for m in _BREAKING_NOTE.finditer(body.text) if not _NOTHING_BREAKS.match(m.group(1).strip("* "))),
        None,
    )
    breaking_note = None
    # A revert's "This PR introduces a breaking change" is about the PR it undoes.
    reverting = _REVERT.match(pr.header.title or "") is not None
    says = _SAYS_BREAKING.search(body.prose) if note is None and not reverting else None
    if says:
        # The sentence that says it: from the last sentence end before it to the next one after.
        start = max((m.end() for m in _SENTENCE_END.finditer(body.prose, 0, says.start())), default=0)
        end = _SENTENCE_END.search(body.prose, says.end())
        breaking_note = body.prose[start : end.end() if end else len(body.prose)].strip()
    if note:
        # The note goes on to the end of its paragraph ("Removes X. Users must\nmigrate to Y.").
        end = _PARAGRAPH_END.search(body.text, note.end())
        rest = body.text[note.end() : end.start() if end else len(body.text)]
        # A note given as a list under its heading ("**Breaking Changes:**\n- **vLLM**: …") reads as prose.
        said = (note.group(1) + rest).replace("**", "").lstrip("-*+ \t")
        said = _CJK_LINE_BREAK.sub("", said)  # Chinese lines join without a space
        breaking_note = " ".join(said.split()) or "BREAKING CHANGE"
    return PRFeatures(
        title=title,
        body=body,
        breaking_note=breaking_note,
        caveats=caveats(body, _review_texts(pr)),
        files=files,
        changed_files=max(pr.changed_files, len(files)),
        additions=additions,
        deletions=deletions,
        weighted_lines=weighted,
        core_share=core / weighted if weighted else 0.0,
        path_modules=_path_modules(files),
        tests_changed=tests_changed,
        tests_removed=_tests_lost(tests_removed, files),
        config_changes=tuple(config),
        cli_args=tuple(cli),
        api_changed=api_changed,
        api_extended=api_extended,
        api_resigned=api_resigned,
        api_removed=api_removed,
        api_added=api_added,
        api_renamed=tuple(renamed),
        cli_removed=tuple(dict.fromkeys(cli_removed)),
        env_added=env_added,
        env_removed=env_removed,
        focus=focus,
        focus_tests=_tests_of(focus[0], test_patches) if focus else (),
        dependency_changes=_one_per_package(_not_moved(deps)),
        todos=tuple(todos),
        platform_hits=tuple(platform),
        security_hits=tuple(security),
        memory_signals=tuple(memory),
        concurrency_signals=tuple(concurrency),
        keywords=_keywords(text_for_keywords),
        title_keywords=_keywords(pr.header.title),
        measurements=Measurements(
            percents=len(_PERCENT.findall(prose)) if "%" in prose else 0,
            speedups=len(_SPEEDUP.findall(lowered)) if _TIMES.search(lowered) else 0,
            tables=len(_TABLE_RULE.findall(prose)) if "---" in prose else 0,
            metric_words=len(set(_METRIC.findall(lowered))),
            unit_numbers=len(_UNIT_NUMBER.findall(prose)),
            images=body.images,
        ),
        design_sections=tuple(design),
        test_section=test_section,
        root_cause=any(n in lowered for n in _ROOT_CAUSE_NEEDLES) and bool(_ROOT_CAUSE.search(lowered)),
        causal_phrases=len(_CAUSAL.findall(lowered)),
        words=_word_count(prose),
        review=_review_activity(pr),
        api_moved=tuple(moved),
        config_moved=tuple(config_moved),
        api_into_class=into_class,
        api_out_of_class=out_of_class,
        config_renamed=tuple(config_renamed),
        files_renamed=tuple(
            _moved_path(raw.previous_filename, f.path)
            for raw, f in zip(pr.files, files, strict=True)
            if f.status == "renamed"
            and raw.previous_filename
            and f.is_code
            and not _NOT_SHIPPED.search(f.path)
        ),
        label_type=label_type(pr.header.labels),
    )


def label_type(labels: Iterable[str]) -> ChangeType | None:
    """The change type the first label naming one declares: `bug`, `type: bug`, `kind/feature`,
    `documentation`, `dependencies` (a version bump, a chore)."""
    for label in labels:
        word = re.split(r"[:/]", label.lower())[-1].strip().replace(" ", "_").replace("-", "_")
        found = TYPE_ALIASES.get(word) or ("chore" if word in ("dependencies", "deps", "ci") else None)
        if found:
            return found
    return None


def _not_moved(changes: list[DependencyChange]) -> list[DependencyChange]:
    """The changes without the pins that only moved between files: one removed from a file and added at
    the same version to another (a Dockerfile copied to `Dockerfile.rocm702` before the original is
    rewritten, `requirements.txt` split into `requirements/*.txt`) installs what it did before."""

    def pin(c: DependencyChange) -> tuple[str, str | None, bool]:
        return canonical_package(c.name), c.new if c.change == "added" else c.old, c.image

    added = {pin(c): c.path for c in changes if c.change == "added"}
    removed = {pin(c): c.path for c in changes if c.change == "removed"}
    moved = {p for p in added.keys() & removed.keys() if added[p] != removed[p]}
    return [c for c in changes if c.change == "changed" or pin(c) not in moved]


def _one_per_package(changes: list[DependencyChange]) -> tuple[DependencyChange, ...]:
    """Each package's change once: the pin of a dependency file before an install line that repeats it
    (`vllm>=0.8.5` in requirements and `pip install vllm==0.8.5` in the Dockerfile are one upgrade).
    Images stay apart: one image name with two tags is two builds."""
    ranked = sorted(range(len(changes)), key=lambda i: (not changes[i].declared, i))
    seen: set[tuple[str, str]] = set()
    kept: set[int] = set()
    for i in ranked:
        same = (canonical_package(changes[i].name), changes[i].change)
        if changes[i].image:
            kept.add(i)
        elif same not in seen:
            seen.add(same)
            kept.add(i)
    return tuple(c for i, c in enumerate(changes) if i in kept)


def _moved_path(old: str, new: str) -> Rename:
    """A renamed file as the part of its path that changed: `src/pkg/utils/text.py` ->
    `src/pkg/helpers/text.py` is `src/pkg/utils/` -> `src/pkg/helpers/`."""
    before, after = old.split("/"), new.split("/")
    tail = 0
    while tail < min(len(before), len(after)) - 1 and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    if tail == 0:
        return Rename(new, old, new)
    return Rename(new, "/".join(before[:-tail]) + "/", "/".join(after[:-tail]) + "/")


def _rehomed(
    names: Iterable[str],
    old: dict[str, tuple[str, str]],
    new: dict[str, tuple[str, str]],
    places: dict[str, dict[str, tuple[int, str, int]]],
) -> tuple[tuple[Rename, ...], tuple[Rename, ...]]:
    """Of the definitions whose signature changed, the module functions that became methods of a class in
    the same file (`get_logps(model)` -> `GRPOTrainer.get_logps(self, model)`) and the methods that
    became module functions: the parameters are the same but for `self` or `cls`. Each as a Rename of
    the file, the old name and the new (`Class.name` where the diff shows the class)."""
    into: list[Rename] = []
    out: list[Rename] = []
    for name in names:
        before, after = places["-"].get(name), places["+"].get(name)
        if (
            before is None
            or after is None
            or old[name][0] != new[name][0]
            or (before[0] == 0) == (after[0] == 0)
        ):
            continue
        if _parameters(old[name][1]) != _parameters(new[name][1]) or "(…)" in (old[name][1], new[name][1]):
            continue
        method = after if after[0] else before
        owner = enclosing_function(method[1], method[2])
        qualified = f"{owner}.{name}" if owner else name
        if after[0]:
            into.append(Rename(new[name][0], name, qualified))
        else:
            out.append(Rename(new[name][0], qualified, name))
    return tuple(into), tuple(out)


def _extended(old: str, new: str) -> list[str]:
    """The parameters a signature gained when it only gained optional ones after those it had (`(x)` ->
    `(x, pin: bool = False)`, TypeScript's `y?: T`), its return type kept: every call that worked still
    works, so callers need not change. Empty for any other change."""
    if "(…)" in (old, new) or not old.startswith("(") or not new.startswith("("):
        return []
    before, after = _split_signature(old), _split_signature(new)
    if before is None or after is None or before[1] != after[1]:
        return []
    kept, extra = after[0][: len(before[0])], after[0][len(before[0]) :]
    return extra if kept == before[0] and all(_optional(p) for p in extra) else []


def _split_signature(signature: str) -> tuple[list[str], str] | None:
    """A signature's top-level parameters and what follows their closing parenthesis (the return type),
    or None when the parentheses do not close."""
    depth, params, start = 0, [], 1
    for at, char in enumerate(signature):
        if char in "([{<":
            depth += 1
        elif char in ")]}>" and not (char == ">" and signature[at - 1 : at] == "-"):
            depth -= 1
            if depth == 0:
                params.append(signature[start:at])
                tail = signature[at + 1 :].strip()
                return [p.strip() for p in params if p.strip()], tail
        elif char == "," and depth == 1:
            params.append(signature[start:at])
            start = at + 1
    return None


def _optional(parameter: str) -> bool:
    """A parameter a call may leave out: one with a default, TypeScript's `name?:`, or a catch-all
    (`*args`, `**kwargs`, `...rest`)."""
    return "=" in parameter or "?:" in parameter or parameter.startswith(("*", "..."))


def _parameters(signature: str) -> list[str]:
    """The parameters of `(self, model, x: int = 1) -> T` without a leading `self` or `cls`."""
    inner = signature[signature.find("(") + 1 : signature.rfind(")")]
    params = [p.strip() for p in inner.split(",") if p.strip()]
    return params[1:] if params and params[0].split(":")[0].strip() in ("self", "cls") else params


def _moved_keys(changes: list[ConfigChange]) -> tuple[list[ConfigChange], list[Rename]]:
    """Config keys removed from one file and added to another with the same value, where one dotted key
    ends with the other (`actor_rollout_ref.rollout.layered_summon` in the trainer's YAML, now
    `layered_summon` in the composed `rollout/rollout.yaml`): moved, neither removed nor added. The
    changes without them, and the moves (key, old file, new file)."""
    added = [c for c in changes if c.old is None and c.new is not None]
    if not added:
        return changes, []
    taken: set[int] = set()
    moves: list[Rename] = []
    for c in changes:
        if c.new is not None or c.old is None:
            continue
        for twin in added:
            # One added key may be the new home of a key several mirrored files removed.
            if twin.path == c.path or (twin.new or "").lower() != c.old.lower():
                continue
            short, long = sorted((c.key, twin.key), key=len)
            if long == short or long.endswith(f".{short}"):
                taken |= {id(c), id(twin)}
                moves.append(Rename(c.key, c.path, twin.path))
                break
    return [c for c in changes if id(c) not in taken], moves


def _renamed_keys(changes: list[ConfigChange], text: str) -> tuple[list[ConfigChange], list[Rename]]:
    """A key removed from a file and one added to it with the same value, the only such pair of that
    value there, renamed when one name is the other with words added (`resume_path` ->
    `resume_from_path` is not, `max_len` -> `max_len_per_gpu` is) or the title or description names
    both, by leaf or whole key (`Rename beta to kl_coef`, `queue.size to queue.capacity`): neither
    removed nor added. The changes without them, and the
    renames (file, old key, new key)."""
    pairs: dict[tuple[str, str], tuple[list[ConfigChange], list[ConfigChange]]] = {}
    for c in changes:
        if (c.old is None) != (c.new is None):
            removed, added = pairs.setdefault((c.path, (c.old or c.new or "").lower()), ([], []))
            (added if c.old is None else removed).append(c)
    taken: set[int] = set()
    renames: list[Rename] = []
    for removed, added in pairs.values():
        if len(removed) != 1 or len(added) != 1:
            continue
        old, new = removed[0], added[0]
        old_leaf, new_leaf = old.key.rsplit(".", 1)[-1], new.key.rsplit(".", 1)[-1]
        if _extends(old_leaf, new_leaf) or (_names_key(old.key, text) and _names_key(new.key, text)):
            taken |= {id(old), id(new)}
            renames.append(Rename(old.path, old.key, new.key))
    return [c for c in changes if id(c) not in taken], renames


def _extends(old: str, new: str) -> bool:
    """Whether one snake_case name is the other with words before or after it (`max_len_per_gpu` of
    `max_len`), the shorter of at least two words or five letters."""
    short, long = sorted((old.lower(), new.lower()), key=len)
    if short == long or not (short.count("_") or len(short) >= 5):
        return False
    return long.startswith(f"{short}_") or long.endswith(f"_{short}")


def _names_key(key: str, text: str) -> bool:
    """Whether `text` names a config key by its leaf, alone or as the last part of a dotted name
    (`queue.size` names the `size` a YAML file nests under `queue:`), a sentence's full stop after it."""
    leaf = re.escape(key.rsplit(".", 1)[-1])
    return re.search(rf"(?<![\w.])(?:[\w-]+\.)*{leaf}(?!\w|\.\w)", text) is not None


def log_scale(value: float) -> float:
    """log2(1 + value): 0 -> 0, 1 -> 1, 10 -> 3.5, 100 -> 6.7, 1,000 -> 10."""
    return math.log2(1.0 + max(0.0, value))


# A scope opening an untyped title ("GRPO: support multi-turn rollouts", "Wandb timing: add…").
_SCOPE = re.compile(r"^[\w .+/-]{1,30}?:\s+(?=\w)")
# "Update …": a chore when it updates a version, docs or CI, but said of code as often as not.
_UPDATE = re.compile(r"^updat(?:e|es|ed|ing)\b", re.I)
# A description that reports a bug: what a fix says when its title names only the place it changes.
_BUG_REPORT = re.compile(
    r"\b(?:bugs?|errors?|fail(?:s|ed|ing|ures?)?|crash\w*|broken|incorrect\w*|wrong\w*|exceptions?|"
    r"traceback|raises?|fix(?:es|ed)?|not (?:\w+ )?(?:work\w*|correctly|properly))\b|"
    r"报错|错误|失败|崩溃|异常|修复|不生效",
    re.I,
)


def _verb_type(
    text: str, rules: tuple[tuple[ChangeType, re.Pattern[str]], ...], features: PRFeatures
) -> ChangeType | None:
    """The type the first matching verb rule gives `text`, else `text` past a scope it opens with ("GRPO:
    support multi-turn…"; a scope such as "ci:" says the type itself); none for "Update the type check
    to…" over shipped code, which is no chore."""
    unscoped = _SCOPE.sub("", text, count=1)
    for words in dict.fromkeys((text, unscoped)):
        for change_type, pattern in rules:
            if pattern.search(words):
                if change_type == "chore" and features.code_lines and _UPDATE.match(words):
                    return None
                return change_type
    return None


def _doc_lines(features: PRFeatures) -> int:
    return sum(x.lines for x in features.files if x.kind == "doc")


def infer_change_type(features: PRFeatures, stated: str | None = None) -> ChangeType:
    """The change type: docs-only and tests-only diffs say it themselves; else the title's type (a feature
    or refactor in the perf module, or announced as a speed-up, is perf); else the title's leading verb;
    else the verb of `stated`, the author's sentence of what the PR does ("This PR fixes…"); else a
    description reporting a bug makes it a fix; else the shape of the diff. A GitHub label declaring a
    type (`bug`, `enhancement`) stands for a title's type when the title has none. A title that names only the
    place it changes ("Megatron async checkpoint save") says as much with or without a `fix:` prefix,
    so the description decides what a prefix would have."""
    kinds = features.kinds
    if features.title.type_word == "revert":
        return "revert"  # undoing a change, whatever the files it touches
    if kinds and kinds <= {"doc", "asset"}:
        return "doc"
    if kinds and kinds <= {"test", "ci"} and "test" in kinds:
        return "test"
    title = features.title
    declared = TYPE_ALIASES.get(title.type_word) if title.type_word else features.label_type
    if declared in ("feat", "refactor") and ("perf" in title.modules or _PERF_HINT.search(title.description)):
        return "perf"
    if declared:
        return declared
    if not features.code_lines and 5 * _doc_lines(features) >= 4 * max(1, features.total_lines):
        # Mostly docs, no shipped code ("Add vllm 0.8 page" with its Dockerfile): a docs change, whatever
        # verb the title opens with.
        return "doc"
    said = _verb_type(title.description, _TITLE_VERBS, features)
    if said is None and stated:
        # Not the docs rule: a sentence of what the PR does mentions docs in passing more often than not.
        said = _verb_type(ACTION_PREFIX.sub("", stated), _TITLE_VERBS[1:], features)
    if said is not None:
        return said
    if _BUG_REPORT.search(features.body.prose):
        return "fix"
    if not features.code_lines:
        return "chore"
    # Mostly new code reads as a feature. Code changed in place reads as a restructuring when the diff
    # renames, moves or removes definitions, files or keys; otherwise as a correction: a title naming only
    # where it changes ("megatron save checkpoints with strict false…") is a fix more often than not (on
    # verl's untagged titles 68 fixes to 32 refactors and 28 features).
    if features.additions > 1.5 * features.deletions:
        return "feat"
    restructured = (
        features.api_renamed
        or features.api_moved
        or features.api_removed
        or features.files_renamed
        or features.config_renamed
        or features.config_moved
    )
    return "refactor" if restructured else "fix"
