"""Rules that turn a chat question into a Query (Chinese, English, or both mixed).

Text is NFKC-normalised first, so full-width punctuation and digits read like ASCII. Each part — PR,
repo, window, filters, intent — is found independently; what the rules cannot settle lowers
`confidence`, which lets an optional LLM parser have a go (see `chatbot/qa/llm_parse.py`).
"""

from __future__ import annotations

import calendar
import gzip
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cache
from importlib.resources import files
from itertools import pairwise
from zoneinfo import ZoneInfo

from rapidfuzz.distance import OSA
from rapidfuzz.process import extract

from chatbot.analysis.types import Severity
from chatbot.messages import Language, join_either
from chatbot.qa.glossary import default_glossary
from chatbot.qa.query import (
    COUPLE,
    FEW,
    LIST_MAX,
    Busiest,
    Intent,
    Order,
    Query,
    ReviewQuestion,
    Window,
    is_calendar_month,
)
from chatbot.weeks import FIRST_YEAR, LAST_YEAR, Week, parse_week

_HAN = re.compile(r"[\u3400-\u9fff]")
_CJK_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]")
_LATIN = re.compile(r"[A-Za-z\uff21-\uff3a\uff41-\uff5a]")
_CN_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "俩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "半": 0,
}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000}
_NUM = r"(\d+|[零〇一二两俩三四五六七八九十百千万]+)"
_MONTHS_EN = {m.lower(): i for i, m in enumerate(calendar.month_name) if m} | {
    m.lower(): i for i, m in enumerate(calendar.month_abbr) if m
}
_EN_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "fourteen": 14,
    "thirty": 30,
    "a": 1,
}


@dataclass(frozen=True, slots=True)
class KnownRepo:
    full_name: str
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """What a question may call the repo: its short name, the name without a short prefix people
        drop ("ms-swift" is "swift", "lm-evaluation-harness" "evaluation-harness"), its aliases."""
        short = self.full_name.split("/", 1)[1]
        prefix, _, rest = short.partition("-")
        dropped = (rest,) if rest and len(prefix) <= 3 and len(rest) >= 4 else ()
        return (short, *dropped, *self.aliases)


@dataclass(frozen=True, slots=True)
class ParseContext:
    """What the parser knows besides the text: "now", the timezone, the indexed repos, the channel's
    repo (its subscription), and the module names the index uses."""

    now: datetime
    tz: ZoneInfo
    repos: Sequence[KnownRepo] = ()
    default_repo: str | None = None
    modules: frozenset[str] = frozenset()
    # Logins of the indexed PRs' authors (lower-case): "X 的 PR" names a person only when X is one.
    authors: frozenset[str] = frozenset()
    # Whether a word occurs in some indexed PR's title: "grpo/dpo" is two words, not a repo.
    title_word: Callable[[str], bool] | None = None
    # Whether a word occurs anywhere in some PR of the channel's repo (`default_repo`): "今天上海天气怎么样"
    # asked in a subscribed channel is off-topic, "MinIO 支持吗" is not.
    mentioned: Callable[[str], bool] | None = None
    # Whether a word is a top-level directory of the indexed PRs' changed files ("docs", "recipe"):
    # "the recipe directory" names a path.
    directory: Callable[[str], bool] | None = None
    # Whether a word no PR uses is a typo of a word of the PR titles ("tokenzier"): a question of such
    # words is about the repo all the same, and its words are respelled when they find nothing.
    title_typo: Callable[[str], bool] | None = None
    # Whether a login (lower-case) reviewed some indexed PR: a person who wrote none of them may still be
    # asked about ("what did erin review", "erin 最近在干什么").
    reviewer: Callable[[str], bool] | None = None


# Control characters and lone surrogates (a broken client's JSON) mean nothing in a question, and no
# database accepts them in a search term.
_UNUSABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def normalize(text: str) -> str:
    """NFKC (full-width → ASCII), lower-case, control characters and lone surrogates dropped,
    whitespace squeezed."""
    text = _UNUSABLE.sub(" ", unicodedata.normalize("NFKC", _UNUSABLE.sub(" ", text)))
    return re.sub(r"\s+", " ", text).strip().lower()


# The language the asker wants the answer in ("in English", "answer in Chinese", "用中文说", "请用英文回答",
# "英文回复"): it sets the answer's language and is no search word.
_ANSWER_LANGUAGE = re.compile(
    r"(?:请|麻烦)?\s*(?:用|以|使用|换成|改用)\s*(?P<zh>中文|汉语|简体中文|英文|英语)\s*(?:来)?\s*"
    r"(?:说|讲|回答|回复|答复|写|输出|总结|描述|解释|介绍|答)?(?:一下)?(?:吧)?"
    r"|(?P<zh_reply>中文|汉语|英文|英语)\s*(?:回答|回复|答复|作答|输出)"
    r"|(?:\b(?:please\s+)?(?:answer|reply|respond|write|say|explain|tell me|summari[sz]e it|do it)\s+)?"
    r"\bin\s+(?P<en>english|chinese|mandarin)\b(?:\s+please)?(?=\s*(?:[.,!?;:，。！？)）]|please\b|$))"
    r"|\b(?:answer|reply|respond|write)\s+in\s+(?P<en_verb>english|chinese|mandarin)\b"
)
_ENGLISH_NAMES = frozenset(("英文", "英语", "english"))


def answer_language(text: str) -> tuple[Language | None, list[tuple[int, int]]]:
    """The language normalized `text` asks its answer in (None when it asks none), and the spans that
    asked it."""
    found = list(_ANSWER_LANGUAGE.finditer(text))
    if not found:
        return None, []
    named = next(g for g in found[-1].groups() if g)
    return ("en" if named in _ENGLISH_NAMES else "zh"), [m.span() for m in found]


def language_of(text: str) -> Language:
    """Chinese as soon as the question has Han characters, or Chinese punctuation and no Latin letters
    (`？`); else English."""
    if _HAN.search(text) or (_CJK_PUNCTUATION.search(text) and not _LATIN.search(text)):
        return "zh"
    return "en"


def cn_number(token: str) -> int | None:
    """`25`, `十五`, `二十一`, `两`, `一百零五`, `三千二百`, `一万二` as integers; digits without units
    (`六七三八`) read one after another."""
    if token.isdigit():
        return int(token)
    if not token or any(ch not in _CN_DIGITS and ch not in _CN_UNITS for ch in token):
        return None
    if not any(ch in _CN_UNITS for ch in token):
        value = 0
        for ch in token:
            value = value * 10 + _CN_DIGITS[ch]
        return value
    total = section = digit = 0
    unit = 1  # the unit of the last numeral read, so a trailing digit is its tenth ("一万二" = 12000)
    for ch in token:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch == "万":
            total += (section + digit) * 10_000
            section = digit = 0
            unit = 10_000
        else:
            unit = _CN_UNITS[ch]
            section += (digit or (1 if ch == "十" else 0)) * unit
            digit = 0
    if digit and unit >= 100 and not token.endswith(("零", "〇")) and "零" not in token[-2:]:
        digit *= unit // 10  # "一百五" is 150, "一万二" 12000
    return total + section + digit


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    """Edit distance with two neighbouring letters swapped counting as one edit, as people mistype
    ("grop" for "grpo", "megatorn" for "megatron"); `limit + 1` once it exceeds `limit`."""
    return int(OSA.distance(a, b, score_cutoff=limit))


def typo_limit(word: str) -> int:
    """How many edits a mistyped word of this length may be from the word meant: none under four
    letters (too many short words are one edit apart), one up to seven, two from eight."""
    return 2 if len(word) >= 8 else 1 if len(word) >= 4 else 0


def closest_word(word: str, vocabulary: Mapping[str, int]) -> str | None:
    """The word of `vocabulary` (word → how often it occurs) that `word` is a typo of: the closest within
    `typo_limit`, the most frequent among equally close ones; None when `word` is in it or none is."""
    limit = typo_limit(word)
    if not limit or word in vocabulary:
        return None
    close = [
        (int(distance), -vocabulary[known], known)
        for known, distance, _ in extract(
            word, vocabulary.keys(), scorer=OSA.distance, score_cutoff=limit, limit=None
        )
    ]
    return min(close)[2] if close else None


@cache
def _english_words() -> frozenset[str]:
    """The English words of pyspellchecker's frequency list (160k words, read on first need: a third
    of a second, paid only by a question with a word that might be corrected)."""
    data = files("spellchecker").joinpath("resources", "en.json.gz").read_bytes()
    return frozenset(json.loads(gzip.decompress(data)))


def is_english_word(word: str) -> bool:
    """Whether `word` is an English dictionary word: never a typo to correct ("tracing" is no
    "tracking", "weak" no "leak"), however close a word of the index is."""
    return word.lower() in _english_words()


def _word(term: str) -> re.Pattern[str]:
    """`term` as a whole ASCII word; Han characters around it count as boundaries."""
    return re.compile(rf"(?<![a-z0-9_./-]){re.escape(term)}(?![a-z0-9_-])")


# PR ------------------------------------------------------------------------------------------------

_PR_URL = re.compile(r"github\.com/([\w.-]+)/([\w.-]+)/pull/(\d+)")
_REPO_URL = re.compile(r"github\.com/([\w.-]+)/([\w.-]+)")
_PR_PATTERNS = (
    # "#6512", "PR 6738", "pr#6738", "pull 6738", "pull request 6738", "第 6512 号"
    re.compile(r"(?:#|\bpr\s*#?|\bpull(?:\s*request)?\s*#?|第\s*)(\d{1,7})(?:\s*号)?"),
    # "6738 这个 PR", "6738 号 PR", "6738 pr"
    re.compile(
        r"(?<![\w./#-])(?:(\d{1,7})\s*(?:号|这个|那个|这条|这一个)|(\d{3,7}))\s*(?:pr|pull request|合并请求)(?![a-z])"
    ),
    # "展开 6512", "expand 6512"
    re.compile(r"(?:展开|详细讲讲|expand|details? (?:of|on))\s*#?(\d{2,7})(?![\w./-])"),
    re.compile(
        r"(?<![\w./-])(\d{2,7})(?![\w./-])\s*(?:号\s*)?(?:讲了什么|讲的什么|是什么|做了什么|改了什么|干了什么|说了什么|的内容|怎么样|值得|有什么风险|有哪些风险)"
        r"|what (?:did|does|is) (?:pr )?#?(\d{2,7})"
    ),
)
_COUNT_BEFORE = re.compile(r"(?:top|first|前|最近|last|past)\s*$")
# Last: a bare number of three to seven digits that no unit follows ("5418 这个改动对我们有影响吗", "is
# verl 5454 safe to pick up?") is a PR; not a year (1970-2100 unless a PR word follows), a count, a date
# or a version.
_BARE_NUMBER = re.compile(
    r"(?<![\w./#:,-])(\d{3,7})(?![\w./:%,-])"
    r"(?!\s*(?:年|月|日|周|天|个|條|条|项|篇|行|次|人|位|小时|分钟|秒|倍|万|千|百|多|余|左右"
    r"|(?:days?|weeks?|months?|years?|hours?|minutes?|prs?|pull requests?|files?|lines?|times|commits?|gb|mb|k)\b))"
)
_PR_WORD_AFTER = re.compile(r"\s*(?:号\s*)?(?:这个|那个|这条)?\s*(?:pr|pull|改动|变更|修改|提交|合并请求)")


def _bare_pr_number(text: str) -> int | None:
    for match in _BARE_NUMBER.finditer(text):
        number = int(match.group(1))
        if 1970 <= number <= 2100 and not _PR_WORD_AFTER.match(text[match.end() :]):
            continue  # a year
        if _COUNT_BEFORE.search(text[: match.start()]):
            continue
        return number
    return None


def _pr(text: str) -> tuple[int | None, str | None]:
    url = _PR_URL.search(text)
    if url:
        return int(url.group(3)), f"{url.group(1)}/{url.group(2)}"
    for pattern in _PR_PATTERNS:
        for match in pattern.finditer(text):
            number = next(g for g in match.groups() if g)
            after = text[match.end() :].lstrip()
            if match.group(0).startswith("第") and (
                after.startswith("周") or not match.group(0).endswith("号")
            ):
                continue  # 第 25 周 is a week, 第 3 个 a position
            if _COUNT_BEFORE.search(text[: match.start()]):
                continue  # "top 10 PRs" is a count
            return int(number), None
    return _bare_pr_number(text), None


# Several PRs named together ("448 and 457", "#12、#15", "PRs 101, 102 and 105", "#7 和 #9"): each is asked
# about. Numbers joined so are PRs, not a count or a date.
_PR_LIST = re.compile(
    r"(?<![\w./:-])#?\d{2,7}(?![\w./:%-])"
    r"(?:\s*(?:,|，|、|和|与|跟|及|以及|还有|\band\b|&|\bor\b|或|或者)\s*(?:pr\s*|pull\s*)?#?\d{2,7}(?![\w./:%-]))+"
)


def _listed_prs(text: str, first: int | None) -> tuple[int, ...]:
    """The PRs named together with `first` ("448 and 457"), in the order written; `first` alone when it
    is in no such list."""
    if first is None:
        return ()
    for match in _PR_LIST.finditer(text):
        numbers = tuple(dict.fromkeys(int(n) for n in re.findall(r"\d+", match.group(0))))
        if first in numbers:
            return numbers
    return (first,)


# Repo and paths ------------------------------------------------------------------------------------

_OWNER_NAME = re.compile(r"(?<![\w.-])([a-z0-9][\w.-]*)/([a-z0-9][\w.-]*)(?![\w-])")
_PATH = re.compile(
    r"(?<![\w@:/.-])((?:[a-z0-9_.-]+/)+[a-z0-9_.-]*|[a-z0-9_-]+\.(?:py|md|rst|yaml|yml|toml|cfg|ini|lock|mod|sum|sh|cu|cuh|cpp|cc|c|h|hpp|json|txt|rs|go|ts|tsx|js|jsx"
    r"|java|kt|kts|gradle|proto|html|css|ipynb))(?![\w/-])"
)
# Words that say a slash-separated name is a place in the code, not a repo.
_PATH_CONTEXT = re.compile(
    r"目录|文件|路径|下的|下面|里的代码|代码|谁改|谁动|动了|动过|碰了|file|folder|director|path|touch|under|模块下"
    r"|who (?:changed|modified|edited)|\b(?:changed|changes|modified) in\b"
)
# A word named as a directory: "the recipe directory", "examples 目录", "docs 下的文件", "PRs under tests".
_DIRECTORY_WORD = re.compile(
    r"(?<![\w@:/.-])(?P<word>[a-z0-9_][a-z0-9_.-]*)\s*/?\s*"
    r"(?=目录|文件夹|底下|下面|下(?=的|有|面|文件|代码|改)|\s*(?:directory|folder|dir)\b)"
    r"|\bunder (?:the )?(?P<under>[a-z0-9_][a-z0-9_.-]*)(?![\w/-])"
)
# First segments that make `a/b` a directory of a repo, never an owner and a repo: where source, tests,
# docs and CI live in most projects ("packages/ui", "test/convergence", ".github/workflows").
_SOURCE_ROOTS = frozenset(
    (
        "packages", "package", "src", "lib", "libs", "apps", "app", "test", "tests", "docs", "doc", "examples",
        "example", "scripts", "script", "tools", "benchmarks", "benchmark", "configs", "config", "recipes",
        "e2e", ".github", "cmd", "pkg", "internal", "crates", "components", "modules", "python", "csrc",
        "include", "docker", "deploy", "locales", "web", "api", "server", "client", "frontend", "backend",
    )
)  # fmt: skip
# "support" as a noun ("vLLM support in trl"), not a verb with an object ("does trl support new models").
_RELATED = r"\s*(?:-|\s)?\s*(?:相关|有关|related|specific|support(?!\s+(?!(?:in|for|of|on|to|with)\b)[a-z\u4e00-\u9fff])|集成)"


def _paths(text: str, context: ParseContext) -> tuple[list[tuple[str, tuple[int, int]]], str | None]:
    """The file and directory paths the question names (with their spans), and the repo one of a path's
    first two segments names ("verl/workers/rollout", "src/axolotl/core")."""
    known = {r.full_name.lower() for r in context.repos}
    short = {name.lower(): r.full_name for r in context.repos for name in r.names}
    found: list[tuple[str, tuple[int, int]]] = []
    repo: str | None = None
    for match in _PATH.finditer(_GITHUB_URL.sub(lambda m: " " * len(m.group(0)), text)):
        token = match.group(1).strip("./")
        segments = [part for part in token.split("/") if part]
        if not segments or _looks_like_a_date(token) or token in known:
            continue
        is_file = "." in segments[-1] and not segments[-1][0].isdigit()
        first_is_repo = segments[0] in short and len(segments) >= 2
        # The repo's own package directory names it too, first or under a source root ("src/axolotl/…").
        named = (
            next((short[part] for part in segments[:2] if part in short), None)
            if len(segments) >= 2
            else None
        )
        if (
            len(segments) >= 3
            or is_file
            or first_is_repo
            or segments[0] in _SOURCE_ROOTS
            or match.group(1).endswith("/")
            or (len(segments) == 2 and _PATH_CONTEXT.search(text))
        ):
            # "docs/": a top-level directory, matched where a changed file's path starts, not as a word
            top = len(segments) == 1 and not is_file
            top = top and context.directory is not None and context.directory(token)
            found.append((f"{token}/" if top else token, match.span()))
        else:
            continue
        if named and repo is None:
            repo = named
    # "the recipe directory", "examples 目录", "docs 下的文件", "under examples": a top-level directory
    # of the indexed files is a path, however it is written
    for match in _DIRECTORY_WORD.finditer(text):
        word = match.group("word") or match.group("under") or ""
        span = match.span("word") if match.group("word") else match.span("under")
        if (
            context.directory is None
            or word in short
            or any(start < span[1] and span[0] < end for _, (start, end) in found)
            or not context.directory(word)
        ):
            continue
        found.append((f"{word}/", span))
    found.sort(key=lambda pair: pair[1])
    return found, repo


def _repo(text: str, context: ParseContext, url_repo: str | None) -> tuple[str | None, str | None, float]:
    """(repo, unknown repo named, confidence). `text` has its paths blanked out already."""
    known = {r.full_name.lower(): r for r in context.repos}
    candidates: list[str] = []
    if url_repo:
        candidates.append(url_repo.lower())
    else:
        url = _REPO_URL.search(text)
        if url:
            candidates.append(f"{url.group(1)}/{url.group(2)}".lower().removesuffix(".git"))
        candidates += [f"{m.group(1)}/{m.group(2)}" for m in _OWNER_NAME.finditer(text)]
    for candidate in candidates:
        if candidate in known:
            return candidate, None, 1.0
        if not _reads_as_words(candidate, context):
            return None, candidate, 1.0
    ordered = _repos_named(text, context)
    if ordered:
        # "verl 里 vllm 相关的改动": a repo name that is also a module name is the module here.
        plain = [r for r in ordered if not any(name.lower() in context.modules for name in r.names)]
        return (plain or ordered)[0].full_name, None, 1.0
    for word in sorted(set(re.findall(r"[a-z][a-z0-9_-]{3,}", text))):
        if word in context.modules or word in _STOP:
            continue
        for repo in context.repos:
            if any(edit_distance(word, name.lower(), 1) <= 1 for name in repo.names if len(name) >= 4):
                return repo.full_name, None, 0.8
    return None, None, 1.0


def _repos_named(text: str, context: ParseContext) -> list[KnownRepo]:
    """The indexed repos `text` names by a short name, in order of first mention; a repo name said as a
    topic ("vLLM-related changes in trl", "verl 里 sglang 相关") is not the repo."""
    named: list[tuple[int, KnownRepo]] = []
    for repo in context.repos:
        for name in repo.names:
            for m in _word(name.lower()).finditer(text):
                if not re.match(_RELATED, text[m.end() :]):
                    named.append((m.start(), repo))
    return list(dict.fromkeys(repo for _, repo in sorted(named, key=lambda pair: pair[0])))


_NAMES_JOIN = r"(?:和|与|跟|及|、|,|，|\band\b|&|\bvs\.?|versus|\bor\b|还是)"


def _joined_name(name: str) -> re.Pattern[str]:
    """`name` joined to another name ("trl 和 torchtune", "llamafactory and trl"): a repo, even where the
    index also has a module of that name."""
    word = re.escape(name)
    return re.compile(
        rf"{_NAMES_JOIN}\s*(?<![\w-]){word}(?![\w-])|(?<![\w-]){word}(?![\w-])\s*{_NAMES_JOIN}\s*[a-z]"
    )


def _looks_like_a_date(candidate: str) -> bool:
    return bool(re.fullmatch(r"[\d.]+/[\d.-]+(?:/[\d.-]+)?", candidate))


_INFLECTED = re.compile(r"[a-z]{3,}(?:ing|ed)")


def _reads_as_words(candidate: str, context: ParseContext) -> bool:
    """Whether an `owner/name` the index does not hold is words offered as alternatives, not a repo:
    a date, or two halves each an inflected word, a module, a glossary concept or a word of the indexed
    titles ("saving/loading", "fsdp/megatron", "oom/leak", "grpo/dpo"); "vllm-project/vllm" stays a
    repo."""
    if _looks_like_a_date(candidate):
        return True
    halves = candidate.split("/", 1)
    return all(
        _INFLECTED.fullmatch(half)
        or half in context.modules
        or default_glossary().find(half)
        or (context.title_word is not None and context.title_word(half))
        for half in halves
    )


_GITHUB_URL = re.compile(r"(?:https?://)?(?:www\.)?github\.com/\S*")


def _without_repo_references(text: str, context: ParseContext) -> str:
    """The text without GitHub URLs and `owner/name` references, whose words are no module, author or
    search term (`sgl-project/sglang` names a repo, not the sglang module); an indexed repo's is always
    one, other pairs may be words (`_reads_as_words`)."""
    text = _GITHUB_URL.sub(_spaces, text)
    known = {r.full_name.lower() for r in context.repos}

    def blank(m: re.Match[str]) -> str:
        pair = m.group(0)
        return pair if pair not in known and _reads_as_words(pair, context) else _spaces(m)

    return _OWNER_NAME.sub(blank, text)


def _spaces(match: re.Match[str]) -> str:
    """A match blanked out in place: spans found in the blanked text stay spans of the question."""
    return " " * len(match.group(0))


def _blank_pattern(text: str, pattern: re.Pattern[str]) -> str:
    """`text` with every match of `pattern` blanked, widened to whole English words ("worth read" in
    "worth reading" takes "reading" with it)."""
    spans = []
    for m in pattern.finditer(text):
        start, end = m.span()
        # A match that begins or ends with a space ("\s*3月") ends a word there: nothing to widen into.
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        while start > 0 and text[start - 1].isascii() and text[start - 1].isalnum():
            start -= 1
        while end < len(text) and text[end].isascii() and text[end].isalnum():
            end += 1
        spans.append((start, end))
    return _blank(text, spans)


def _repo_words(context: ParseContext, repo: str | None, text: str = "") -> set[str]:
    """Words that name a repo rather than a module, author or search term: every name of the repo the
    question is about (but for module names when the question wrote it as owner/name: "sgl-project/sglang
    sglang 相关" asks about the sglang module), and the names of the other repos unless they are module
    names too."""
    words: set[str] = set()
    for known in context.repos:
        names = {n.lower() for n in (*known.names, known.full_name)}
        own = known.full_name == repo and known.full_name.lower() not in text
        words |= names if own else names - context.modules
    return words


# Window --------------------------------------------------------------------------------------------


def _day_start(day: date, tz: ZoneInfo) -> datetime:
    return datetime.combine(day, time(), tz)


def _week_window(week: Week) -> Window:
    return Window(week.start, week.end, week)


def _month_window(year: int, month: int, tz: ZoneInfo) -> Window:
    start = date(year, month, 1)
    end = date(year + (month == 12), month % 12 + 1, 1)
    return Window(_day_start(start, tz), _day_start(end, tz))


def _date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _range(first: date | None, last: date | None, tz: ZoneInfo) -> Window | None:
    if first is None or last is None:
        return None
    if last < first:
        first, last = last, first
    return Window(_day_start(first, tz), _day_start(last + timedelta(days=1), tz))


_MONTH_NAME = "|".join(sorted(_MONTHS_EN, key=len, reverse=True))
_CN = r"[零〇一二两三四五六七八九十百千]+"
# A year stands alone ("hjh0119 三月" names March, not the year 119).
_YEAR_WORD = r"(?:(?<![\w-])((?:19|20)\d{2})\s*年?|(去年|今年|前年|last year|this year))"
# The words "the 10th" follows when it names a day ("on the 10th", "since the 3rd"), not a position ("the
# 2nd one").
_DAY_ALONE_AFTER = (
    "(?:"
    + "|".join(
        rf"(?<=\b{word} )"
        for word in ("on", "since", "from", "to", "and", "after", "until", "till", "before", "between")
    )
    + ")"
)
# One calendar day, in every form people write: 2026-06-08, 2026/6/8, 6/8, 09-01 (a dashed day only with a
# two-digit month, as "3-5 个" is no date), 6月8日, 六月八号, june 8(th), 8 june, june 8, 2026.
_DATE = re.compile(
    r"(?<!\d)(?P<iy>\d{4})[-/.](?P<im>\d{1,2})[-/.](?P<id>\d{1,2})(?!\d|[/.-]\d)"
    rf"|(?:(?P<zy>\d{{4}})\s*年|(?P<zyw>去年|今年))?\s*(?P<zm>\d{{1,2}}|{_CN})\s*月\s*(?P<zd>\d{{1,2}}|{_CN})\s*[日号]?"
    r"|(?<![\d/.:])(?P<sm>\d{1,2})/(?P<sd>\d{1,2})(?!\d|[/.:]\d)"
    r"|(?<![0-9A-Za-z_/.:-])(?P<dm>0[1-9]|1[0-2])-(?P<dd>[0-3]\d)(?![0-9A-Za-z_/.:-])"
    rf"|\b(?P<em>{_MONTH_NAME})\.?\s+(?P<ed>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(?P<ey>\d{{4}}))?"
    rf"|\b(?P<fd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<fm>{_MONTH_NAME})\b(?:,?\s*(?P<fy>\d{{4}}))?"
    # a day of the month alone: "on the 10th", "since the 3rd", "from the 10th to the 14th", "10号"
    rf"|{_DAY_ALONE_AFTER}the\s+(?P<od>\d{{1,2}})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:{_MONTH_NAME})\b)"
    rf"|(?<![\d/.#-])(?<![\d零〇一二两三四五六七八九十]月)(?P<zod>\d{{1,2}}|{_CN})\s*号(?!\s*(?:pr|prs)\b)"
)
_RANGE_JOIN = re.compile(r"\s*(?:到|至|~|～|–|—|-|\.\.|to|until|till|through|and)\s*")
_RANGE_START = re.compile(r"(?:between|from|从|自)\s*$")
_DAY_CONTINUATION = re.compile(r"(\d{1,2}|" + _CN + r")\s*[日号]")
_SINCE_BEFORE = re.compile(r"(?:since|from|after|自从|自|从)\s*$")
# Before a month alone, English "from" names the month ("the risks from January"); "from January on" and
# "从一月" start there.
_SINCE_BEFORE_MONTH = re.compile(r"(?:since|after|自从|自|从)\s*$")
_SINCE_AFTER = re.compile(r"^\s*(?:以来|开始|起|至今|之后|以后|后|onwards|onward|on)")
_MONTH_ONLY = re.compile(
    rf"(?:{_YEAR_WORD}\s*)?(?<!\d)(\d{{1,2}}|{_CN})\s*月(?:份)?(?!\s*(?:\d|{_CN})\s*[日号])"
    rf"|\b(?:(in|during|since|from|of|for|last|this|early|mid|late)[\s-]+)?({_MONTH_NAME})\b(?:\s+(\d{{4}}))?"
    # 2026-10, 2026/10: a year and a month, no day
    r"|(?<![\w./-])((?:19|20)\d{2})[-/.](0?[1-9]|1[0-2])(?![\w/-]|\.\d)"
)
_WEEKDAYS_EN = {d.lower(): i for i, d in enumerate(calendar.day_name)}
_WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6}  # fmt: skip
_WEEKDAY = re.compile(
    r"(上上|上|本|这|下)?\s*(?:个)?\s*(?:周|星期|礼拜)([一二三四五六日天1-7])(?![\d一二三四五六七八九十个条项次共些起直下志常期报])"
    r"|\b(?:(last|this|on|past|previous)\s+)?(" + "|".join(_WEEKDAYS_EN) + r")\b"
)
# A weekend: 上周末 / last weekend (the one before this week), 这周末 / this weekend, 周末 / over the
# weekend (the latest one begun).
_WEEKEND = re.compile(
    r"(上上|上|本|这)?\s*(?:个)?\s*(?:周末|礼拜六日|星期六日)"
    r"|\b(?:(last|this|past|previous|the|over the)\s+)?weekend\b"
)
# Holidays teams date things by: 春节 / 过年 (the new-year week, from a week before it), 国庆 (1-7 October,
# from a few days before), Christmas and New Year (18 December to 3 January): the latest one begun.
# Lunar new-year days are data.
_HOLIDAY = re.compile(
    r"(?:(春节|过年|农历新年|chinese new year|lunar new year|spring festival)|(国庆节?|十一长假|national day(?: holidays?)?(?: golden week)?)"
    r"|(圣诞节?|christmas|xmas|the holidays|holiday season)|(元旦|new year'?s? day)|(五一|劳动节|may day|labou?r day))"
    r"(?P<around>\s*(?:前后|左右|around))?(?:\s*(?:期间|假期|长假|小长假|黄金周|那周|那几天|holidays?|break|week))?"
)
# The public holidays' days (month, day) to (month, day); "前后" / "around" widens them by AROUND_HOLIDAY days.
_HOLIDAY_DAYS = {2: ((10, 1), (10, 7)), 4: ((1, 1), (1, 1)), 5: ((5, 1), (5, 5))}
AROUND_HOLIDAY = 3
_LUNAR_NEW_YEAR = {
    2024: date(2024, 2, 10), 2025: date(2025, 1, 29), 2026: date(2026, 2, 17), 2027: date(2027, 2, 6),
    2028: date(2028, 1, 26), 2029: date(2029, 2, 13), 2030: date(2030, 2, 3), 2031: date(2031, 1, 23),
}  # fmt: skip
_YEAR = re.compile(
    r"今年|this year|去年|last year|前年"
    r"|(?<![\d./-])((?:19[7-9]|20\d)\d)\s*年(?!\s*\d{1,2}\s*月)(?:份|度)?|\b(?:in|during|of|for|since)\s+((?:19[7-9]|20\d)\d)\b(?![-/.]\d)"
)
_ZH_UNIT = r"小时|天|日|周|星期|礼拜|个月|月|年"
_EN_UNIT = r"hours?|days?|weeks?|months?|years?"
# After a bare number, months are counted with 个: "六月内" is within June, "六个月内" six months.
_ZH_UNIT_COUNTED = r"小时|天|日|周|星期|礼拜|个月|年"
# The past N units up to now: 最近 7 天, 过去48小时, 近两周, 前几天, 半个月内, past 3 days, within 2 weeks.
_LAST_N = re.compile(
    r"(?:(?:最近|过去|近|这|last|past|within)\s*(?P<n>\d+|[零〇一二两俩三四五六七八九十百千万]+|几|半)?"
    r"|前\s*(?P<front>\d+|[两俩三四五六七八九十]|几|半))"
    rf"\s*(?:个)?\s*(?P<unit>{_ZH_UNIT}|{_EN_UNIT})(?!\s*(?:前|之前|以前|ago))"
    rf"|(?<![\d.])(?P<inside>\d+|[一两三四五六七八九十]+|几|半)\s*(?:个)?\s*(?P<inside_unit>{_ZH_UNIT_COUNTED})\s*(?:以内|之内|内)"
    r"|(?:last|past|within)\s+(?P<en>one|two|three|four|five|six|seven|eight|nine|ten|fourteen|thirty|a|few|couple of)"
    rf"\s+(?P<en_unit>{_EN_UNIT})"
)
# How many days a unit of `_LAST_N` or `_AGO` is.
_UNIT_DAYS = {"小时": 1 / 24, "天": 1, "日": 1, "周": 7, "星期": 7, "礼拜": 7, "月": 30, "年": 365}  # fmt: skip
# "三天前", "两周前合的", "a month ago": the day, ISO week or calendar month that many units before today.
_AGO = re.compile(
    r"(\d+|[一二两三四五六七八九十]+)\s*(天|日|个?周|个?星期|个?礼拜|个月)\s*(?:前|之前|以前)"
    r"|\b(\d+|one|two|three|four|five|six|a)\s+(days?|weeks?|months?)\s+ago\b"
)
# A window written with its end at now: "这周一到现在", "自上周三以来", "since last Friday", "上个月中旬至今".
_UP_TO_NOW = re.compile(
    r"以来|至今|迄今|到现在|到目前(?:为止)?|到今天|截至目前|截止目前|为止"
    r"|\bsince\b|\b(?:till|until|up to|through)\s+(?:now|today)\b|\bto date\b|自从"
    r"|从\s*[^，,。？?\s]{0,6}?(?:周|星期|礼拜|月|年|天|号|日)[一二三四五六日天1-7]?\s*(?:起|开始)"
)
# A quarter: 上个季度, 本季度, 今年第三季度, 去年 Q4, Q3, 2026Q1, last quarter, this quarter.
_QUARTER = re.compile(
    r"(?:(?P<zy>(?:19|20)\d{2})\s*年|(?P<zyw>今年|去年))?\s*(?:的)?\s*(?:(?P<zp>上|本|这|下)\s*个?\s*季度|第\s*(?P<zn>[一二三四1-4])\s*(?:个)?\s*季度)"
    r"|\b(?P<ep>last|this|previous|current)\s+quarter\b"
    r"|(?<![\w-])(?:(?P<qy>(?:19|20)\d{2})\s*-?\s*)?q(?P<qn>[1-4])(?![\w-])(?:\s*(?P<qy2>(?:19|20)\d{2})\b)?"
)
# "最近几天", "the past few days": a few is three.
_A_FEW_UNITS = 3
_WEEK_NUMBER = re.compile(
    r"(?:(\d{4})\s*-?\s*)?(?<![a-z])w(?:eek)?\s*(\d{1,2})(?!\d)|(?:(\d{4})\s*年\s*)?第\s*" + _NUM + r"\s*周"
)
# The whole index, when no window is named: "到目前为止所有", "有史以来", "so far", "ever", "all time".
_ALL_TIME = re.compile(
    r"到目前为止|迄今为止|至今为止|有史以来|一直以来|历来|从来|所有时间|全部时间|全部历史|历史上"
    r"|\bso far\b|\bever\b|\ball[- ]time\b|\bto date\b|\bsince (?:the )?(?:beginning|start)\b|\bin history\b"
)
# One config key or command-line flag ("sink.timeout", "--max-inflight") asked about as such: its value
# was set whenever it was, so the whole index is searched.
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+")
_DOTTED_KEY = re.compile(r"(?<![\w./-])[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+(?![\w/-])")
_CONFIG_WORDS = re.compile(
    r"默认|配置|参数|选项|设置|取值|改成|改为|设为|设成|\bdefaults?\b|\bconfig|\boptions?\b|\bsettings?\b|\bkeys?\b"
    r"|\bvalues?\b|\bset to\b"
)


# A key written as one identifier with an underscore ("max_inflight", "retry_max_backoff") asked beside a
# word of configuration is a key too.
_SNAKE_KEY = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/-])")


def config_keys_named(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The config keys and command-line flags `text` asks about, with their spans: every flag, and a
    dotted key (not a file) or an identifier with an underscore beside a word of configuration."""
    keys = [(m.group(0), m.span()) for m in _FLAG.finditer(text)]
    if _CONFIG_WORDS.search(text):
        keys += [
            (m.group(0), m.span()) for m in _DOTTED_KEY.finditer(text) if not _PATH.fullmatch(m.group(0))
        ]
        keys += [(m.group(0), m.span()) for m in _SNAKE_KEY.finditer(text)]
    return sorted(keys, key=lambda pair: pair[1])


def _names_a_config_key(text: str) -> bool:
    """Whether `text` asks about a flag, or a dotted key beside a word of configuration (not a file)."""
    return bool(config_keys_named(text))


# "上上上周", "上上上个星期": three (or more) weeks before this one, one week a "上".
_WEEKS_BEFORE = re.compile(r"(上{3,})\s*个?\s*(?:周|星期|礼拜)")
_BEFORE_LAST_WEEK = re.compile(r"上上周|上上个?星期|上上个?礼拜|week before last|the week before|前一周")
_LAST_WEEK = re.compile(r"上周|上个?星期|上个?礼拜|上一周|last week|previous week|past week")
_NEXT_WEEK = re.compile(r"下周|下个?星期|next week")
_THIS_WEEK = re.compile(r"本周|这周|这个?星期|这个?礼拜|本星期|这一周|this week|current week")
_LAST_MONTH = re.compile(r"上个?月|last month|previous month")
_THIS_MONTH = re.compile(r"本月|这个?月|this month")
_THREE_DAYS_AGO = re.compile(r"大前天")
_DAY_BEFORE_YESTERDAY = re.compile(r"前天|day before yesterday")
_YESTERDAY = re.compile(r"昨天|昨日|yesterday")
_TODAY = re.compile(r"今天|今日|today")
_RECENTLY = re.compile(
    r"最近|近期|近来|近日|这阵子|这一阵子?|这段时间|这些日子|recently|lately|recent|these days|of late"
)
# A part of a month: 上旬 / 月初 / early (days 1-10), 中旬 / mid (11-20), 下旬 / 月底 / late (21 to the end).
# English words count only before a month ("early June", "mid-March", "end of last month", "the start of
# the month": this one): "early stopping" names no window.
_MONTH_PART = re.compile(
    r"(上旬|月初|初)|(中旬)|(下旬|月底|月末|底)"
    rf"|\b(?:(early|beginning of|start of)|(mid|middle of)|(late|end of))[- ]+(?:the\s+)?(?=(?:this|last|previous)\s+month|month\b|(?:{_MONTH_NAME})\b)"
)
# Half a month: 上半月 / first half of (days 1-15), 下半月 / second half of (16 to the end).
_MONTH_HALF = re.compile(
    r"(上半月|前半月|上半个月|前半个月)|(下半月|后半月|下半个月|后半个月)"
    rf"|\b(?:the\s+)?(?:(first half of)|(second half of))\s+(?:the\s+)?(?=(?:this|last|previous)\s+month|month\b|(?:{_MONTH_NAME})\b)"
)
_MONTH_HALF_DAYS = ((1, 16), (16, 32))
_MONTH_PART_ZH_AFTER = re.compile(rf"(?:\d{{1,2}}|{_CN}|上个?|本|这个?)\s*月(?:份)?\s*$")
_MONTH_PART_DAYS = ((1, 11), (11, 21), (21, 32))
# The nth or the last week of a month or year it follows or names ("12月第一周", "去年最后一周", "上个月第二
# 周", "the last week of December", "the first week of last month"): its days 7(n-1)+1 to 7n, or its last
# seven days. Without a month or year, "第一周" is week 1 and "the last week" the past one.
_WEEK_OF_PERIOD = re.compile(
    r"(?:(?<=月)\s*(?:的)?\s*(?:第\s*(?P<zh_n>[一二三四五1-5])|(?P<zh_last>最后))|(?<=年)\s*(?:的)?\s*(?P<year_last>最后))"
    r"\s*一?\s*个?(?:周|星期|礼拜)"
    r"|\b(?:the\s+)?(?:(?P<en_n>first|second|third|fourth|fifth)|(?P<en_last>last|final))\s+week(?=\s+of\b)"
)
_ORDINAL_WEEKS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
# Everything that names a window, so that a search can leave it out of its terms.
_WINDOW_PATTERNS: tuple[re.Pattern[str], ...] = (
    _WEEK_OF_PERIOD,  # first: "第一周" after a month is no week number
    _MONTH_HALF,  # first: it looks ahead at the month ("the second half of last month")
    # Before the month names, which would take the "of" of "the end of June" with them.
    # ("early stopping" is no part of a month: the words count before a month only, as `_MONTH_PART` reads)
    re.compile(
        r"上旬|中旬|下旬|月初|月底|月末|\b(?:early|mid|middle of|late|beginning of|start of|end of)[- ]+(?:the\s+)?"
        rf"(?=(?:this|last|previous)\s+month|month\b|(?:{_MONTH_NAME})\b)"
    ),
    _DATE,
    _QUARTER,
    _WEEK_NUMBER,
    _AGO,
    _LAST_N,
    _WEEKEND,
    _HOLIDAY,
    _WEEKDAY,
    _MONTH_ONLY,
    _YEAR,
    _ALL_TIME,
    _WEEKS_BEFORE,
    _BEFORE_LAST_WEEK,
    _LAST_WEEK,
    _NEXT_WEEK,
    _THIS_WEEK,
    _LAST_MONTH,
    _THIS_MONTH,
    _DAY_BEFORE_YESTERDAY,
    _YESTERDAY,
    _TODAY,
    _RECENTLY,
    _UP_TO_NOW,
    re.compile(r"以来|至今|开始|之后|以后|之前|以前|之间|期间|以内|so far|since|between|from|until|till|now"),
)


# Window words people mistype ("lsat week", "this weel", "yesterdy", "last mnoth"), by the part they play:
# a modifier counts only before a unit and a unit only after a modifier or a count (or before "ago"),
# where a near miss can mean nothing else; a long word alone ("yesterdy", "wendesday", "setpember").
# Singular "day" is no unit here: "this way" is one edit from "this day".
_WINDOW_MODIFIERS = ("last", "this", "past", "previous", "next", "recent")
_WINDOW_UNITS = ("week", "weeks", "month", "months", "year", "years", "days", "quarter", "weekend")
_WINDOW_WORDS_ALONE = (
    "yesterday",
    "today",
    "recently",
    "weekend",
    *(d.lower() for d in calendar.day_name),
    *(m for m in _MONTHS_EN if len(m) >= 6),
)
_JOINED_WINDOWS = {m + u: f"{m} {u}" for m in _WINDOW_MODIFIERS for u in _WINDOW_UNITS}
_WINDOW_COUNTS = frozenset(("a", "few", "couple", "of", *_EN_NUMBERS))
# A word or number standing alone, not a piece of a path, URL, login or identifier.
_ASCII_WORD = re.compile(r"(?<![a-z0-9_./@#-])(?:[a-z]+(?:'s)?|\d+)(?![a-z0-9_/@-]|\.[a-z0-9])")


def _window_typo(word: str, vocabulary: Sequence[str]) -> str | None:
    """The word of `vocabulary` that `word` is a near miss of: one edit for words of up to six letters
    (two neighbouring letters swapped counting as one, a letter dropped: "lsat", "las", "weel"), two from
    seven; the first of equally close ones."""
    limit = 1 if len(word) <= 6 else 2
    close = [(edit_distance(word, known, limit), known) for known in vocabulary]
    best = min(close)
    return best[1] if best[0] <= limit else None


def _respell_window_words(text: str, context: ParseContext) -> str:
    """`text` with its mistyped window words respelt (`_WINDOW_MODIFIERS`, `_WINDOW_UNITS`,
    `_WINDOW_WORDS_ALONE`, a modifier and a unit written as one: "lastweek"). A word is never respelt when
    it is a word already (a window word, a stop word, the glossary's), nor when the index knows it (a repo,
    module or author name, a word of some PR's title): "lost" or a login "weel" stay as they are."""
    tokens = list(_ASCII_WORD.finditer(text))
    known = {*_WINDOW_MODIFIERS, *_WINDOW_UNITS, *_WINDOW_WORDS_ALONE, *_MONTHS_EN, "day", "ago"}
    repo_names = {n.lower() for r in context.repos for n in r.names}

    def named(word: str) -> bool:
        return word in repo_names or word in context.modules or word in context.authors

    def typo(word: str, vocabulary: Sequence[str], shortest: int) -> str | None:
        if len(word) < shortest or word in known or word in _CONTENT_STOP or named(word):
            return None
        if word in _glossary_words() or not word.isalpha():
            return None
        meant = _window_typo(word, vocabulary)
        if meant is None or (context.title_word is not None and context.title_word(word)):
            return None
        return meant

    words = [t.group(0) for t in tokens]
    respelt: dict[int, str] = {}
    for i, word in enumerate(words):
        if word in known or word.isdigit():
            continue
        if word in _JOINED_WINDOWS and not named(word):  # "lastweek", "thismonth"
            respelt[i] = _JOINED_WINDOWS[word]
            continue
        # a unit after a modifier or a count, or before "ago": "last weel", "past 3 dyas", "2 weks ago"
        before = next((w for w in reversed(words[:i]) if not (w.isdigit() or w in _WINDOW_COUNTS)), "")
        counted = i > 0 and (words[i - 1].isdigit() or words[i - 1] in _WINDOW_COUNTS)
        modified = before in _WINDOW_MODIFIERS or _window_typo(before, _WINDOW_MODIFIERS) is not None
        if modified or counted or (i + 1 < len(words) and words[i + 1] == "ago"):
            unit = typo(word, _WINDOW_UNITS, 3)
            if unit is not None:
                respelt[i] = unit
                continue
        # a modifier before a unit: "lsat week", "las month", "tihs weel"
        after = next((w for w in words[i + 1 :] if not (w.isdigit() or w in _WINDOW_COUNTS)), "")
        if after in _WINDOW_UNITS or _window_typo(after, _WINDOW_UNITS) is not None:
            modifier = typo(word, _WINDOW_MODIFIERS, 3)
            if modifier is not None:
                respelt[i] = modifier
                continue
        alone = typo(word, _WINDOW_WORDS_ALONE, 5)
        if alone is not None:
            respelt[i] = alone
    for i in sorted(respelt, reverse=True):
        start, end = tokens[i].span()
        text = text[:start] + respelt[i] + text[end:]
    return text


def _year_of(word: str | None, number: str | None, today: date) -> int | None:
    if number:
        return int(number)
    return {"去年": today.year - 1, "last year": today.year - 1, "前年": today.year - 2}.get(
        word or "", today.year if word else None
    )


def _date_of(match: re.Match[str], today: date) -> tuple[date | None, bool]:
    """The day a `_DATE` match names, and whether its year was given (else: the latest such day not
    after today)."""
    g = match.groupdict()
    if g["iy"]:
        return _date(int(g["iy"]), int(g["im"]), int(g["id"])), True
    if g["zm"]:
        month, day = cn_number(g["zm"]), cn_number(g["zd"])
        year = _year_of(g["zyw"], g["zy"], today)
        guess = _date(year or today.year, month or 0, day or 0)
        return guess, year is not None
    if g["sm"] or g["dm"]:
        return _date(today.year, int(g["sm"] or g["dm"]), int(g["sd"] or g["dd"])), False
    if g["em"]:
        return _date(int(g["ey"] or today.year), _MONTHS_EN[g["em"]], int(g["ed"])), bool(g["ey"])
    if g["fm"]:
        return _date(int(g["fy"] or today.year), _MONTHS_EN[g["fm"]], int(g["fd"])), bool(g["fy"])
    # A day of the month alone is this month's, or last month's when this month's is yet to come.
    number = int(g["od"]) if g["od"] else cn_number(g["zod"]) or 0
    month_index = today.year * 12 + today.month - 1 - (number > today.day)
    return _date(month_index // 12, month_index % 12 + 1, number), True


def _not_after(day: date | None, explicit_year: bool, today: date) -> date | None:
    """A day written without a year is the latest such day not after today ("12 月" in June: last year)."""
    if day is not None and not explicit_year and day > today:
        return _date(day.year - 1, day.month, day.day)
    return day


def _dates_window(text: str, now: datetime, tz: ZoneInfo) -> Window | None:
    """A window from calendar days: a range (X 到 Y, between X and Y, from X to Y), a start (since X,
    自 X 以来), or one day."""
    today = now.date()
    matches = list(_DATE.finditer(text))
    for i, first in enumerate(matches):
        start, explicit = _date_of(first, today)
        after = text[first.end() :]
        join = _RANGE_JOIN.match(after)
        if join:
            rest = after[join.end() :]
            if i + 1 < len(matches) and matches[i + 1].start() == first.end() + join.end():
                last, explicit_last = _date_of(matches[i + 1], today)
                start = _not_after(start, explicit, today)
                if start is not None and last is not None and not explicit_last:
                    last = _date(start.year, last.month, last.day)
                return _range(start, last, tz)
            day = _DAY_CONTINUATION.match(rest)
            if day and start is not None and first.group("zm"):
                last = _date(start.year, start.month, cn_number(day.group(1)) or 0)
                return _range(_not_after(start, explicit, today), last, tz)
        if _SINCE_BEFORE.search(text[: first.start()]) or _SINCE_AFTER.match(after):
            start = _not_after(start, explicit, today)
            return Window(_day_start(start, tz), now) if start else None
        day_ = _not_after(start, explicit, today)
        return _range(day_, day_, tz)
    return None


# Two months joined ("八月和九月", "August and September", "8月到9月"): both, from the first to the end
# of the second (a comparison asks about the later one, see `_compared_month`).
_MONTHS_JOINED = re.compile(
    r"^\s*(?:和|跟|与|及|、|,|，|到|至|~|-|\band\b|\bvs\.?|\bversus\b|\bor\b|还是)\s*$"
)


def _month_only(text: str, now: datetime, tz: ZoneInfo) -> Window | None:
    """六月, 6月份, 去年 12 月, 2025 年 12 月, in June, June 2025, last December, since June; two joined
    months ("八月和九月") span both."""
    first = _one_month(text, now, tz)
    if first is None:
        return None
    window, end = first
    second = _one_month(text, now, tz, pos=end, start_of=True)
    if second is None or not _MONTHS_JOINED.match(text[end : second[1]]):
        return window
    return Window(min(window.start, second[0].start), max(window.end, second[0].end))


# Month names that are also words or names ("what may break", "mar the API", "jan's PRs"): months only
# where the question reads them as one (`_reads_as_month`).
_AMBIGUOUS_MONTHS = frozenset(("may", "mar", "jun", "jan", "dec"))
# Another month beside one ("may or may not break" pairs no months).
_A_MONTH = rf"(?:\b(?:{'|'.join(n for n in _MONTH_NAME.split('|') if n not in _AMBIGUOUS_MONTHS)})\b|(?:\d{{1,2}}|{_CN})\s*月|(?:last|this|previous) month|上个?月|本月|这个?月)"
_MONTH_LINK = r"(?:and|or|vs\.?|versus|to|through|till|until|with|against|than|compared (?:to|with)|和|跟|与|及|到|至|比|相比|对比|,|，|、|-|~)"
# A month another month or a comparison's verb stands beside: "compare may with april", "april vs may",
# "may and june", "between march and may", "how did may compare".
_MONTH_BEFORE = re.compile(
    rf"(?:{_A_MONTH}\s*{_MONTH_LINK}|\b(?:compare|comparing|compared|vs\.?|versus|than|between))\s*$"
)
_MONTH_AFTER = re.compile(rf"^\s*(?:{_MONTH_LINK}\s*{_A_MONTH}|(?:'s|compar(?:e|ed|es|ing)\b|vs\b|versus\b))")


_ENGLISH_WORD_NEXT = re.compile(r"\s+[a-z]")


def _reads_as_month(text: str, m: re.Match[str]) -> bool:
    """Whether an ambiguous month name (`_AMBIGUOUS_MONTHS`) names the month: after a window word or
    before a year ("in may", "may 2026"), beside another month or in a comparison ("compare may with
    april", "may vs june"), or in a Chinese question ("may 的 PR"), where it is no English verb unless an
    English word follows ("哪些 PR may break 现有代码")."""
    _, _, _, prefix, _, en_year, _, _ = m.groups()
    return bool(
        prefix
        or en_year
        or (_HAN.search(text) and not _ENGLISH_WORD_NEXT.match(text, m.end()))
        or _MONTH_BEFORE.search(text, 0, m.start())
        or _MONTH_AFTER.match(text[m.end() :])
    )


def _one_month(
    text: str, now: datetime, tz: ZoneInfo, *, pos: int = 0, start_of: bool = False
) -> tuple[Window, int] | None:
    """The first month `_month_only` reads in the text from `pos`, and where its words end (where they
    start, with `start_of`)."""
    today = now.date()
    for m in _MONTH_ONLY.finditer(text, pos):
        year_number, year_word, month_text, prefix, name, en_year, iso_year, iso_month = m.groups()
        year: int | None
        if iso_month:
            month, year = int(iso_month), int(iso_year)
        elif name:
            if name in _AMBIGUOUS_MONTHS and not _reads_as_month(text, m):
                continue
            month = _MONTHS_EN[name]
            year = int(en_year) if en_year else None
            if prefix == "last" and year is None:
                year = today.year if month < today.month else today.year - 1
        else:
            month = cn_number(month_text) or 0
            year = _year_of(year_word, year_number, today)
        if not 1 <= month <= 12:
            continue
        if year is None:
            year = today.year if month <= today.month else today.year - 1
        window = _month_window(year, month, tz)
        if (
            prefix == "since"
            or _SINCE_BEFORE_MONTH.search(text[: m.start()])
            or _SINCE_AFTER.match(text[m.end() :])
        ):
            window = Window(window.start, now)
        return window, m.start() if start_of else m.end()
    return None


def _two_months(text: str, now: datetime, tz: ZoneInfo) -> tuple[Window, Window] | None:
    """Of a comparison naming two calendar months ("十月和十一月比", "五月相比四月", "compare january and
    february"): the later, asked about, and the whole earlier one to compare it with (not only its part
    as long as the later's elapsed part); None unless it names two different months."""
    first = _one_month(text, now, tz)
    if first is None:
        return None
    second = _one_month(text, now, tz, pos=first[1])
    if second is None:
        return None
    months = sorted((first[0], second[0]), key=lambda w: w.start)
    if months[0].start == months[1].start or not all(is_calendar_month(w.start, w.end) for w in months):
        return None
    return months[1], months[0]


def _compared_month(window: Window | None) -> Window | None:
    """Of two joined months a comparison names ("八月和九月比"), the later: the one asked about, compared
    with the month before it."""
    if window is None or window.start.day != 1:
        return window
    second = (window.start.replace(day=28) + timedelta(days=4)).replace(day=1)
    if is_calendar_month(window.start, second) and is_calendar_month(second, window.end):
        return Window(second, window.end)
    return window


# What names the window a comparison measures against: "比上周", "跟上个月比", "than last week", "compared to
# last month", "vs W41".
_BASELINE = re.compile(
    r"(?:(?<![对无好])比|跟|和|与|同|相比于?|相较于?|对比|than|compared? (?:it )?(?:to|with)|vs\.?|versus)\s*$"
)


def _after_a_baseline(text: str, window: Window | None, now: datetime) -> Window | None:
    """The window a comparison asks about when the question names only what to compare it with ("比上周多了
    吗", "跟上个月比怎么样", "more PRs than last week?"): the one after that baseline, compared with it.
    Unchanged when the question names both windows ("本周和上周比") or the baseline is not over."""
    if window is None or window.end > now:
        return window
    named = [m for pattern in _WINDOW_PATTERNS for m in pattern.finditer(text) if m.group(0).strip()]
    starts = {m.start() for m in named if not any(o.start() < m.start() < o.end() for o in named)}
    if len(starts) != 1 or not _BASELINE.search(text[: min(starts)]):
        return window
    return window.following()


def _weekday(text: str, now: datetime, tz: ZoneInfo) -> Window | None:
    """上周三, 周五, 本周一, last Friday, on Monday: one day; two joined ("上周一到周三", "from last Monday
    to Wednesday"): the days from the first to the second, the second in the first's week unless it
    names its own."""
    m = _WEEKDAY.search(text)
    if not m:
        return None
    first = _weekday_of(m, now.date(), None)
    join = _RANGE_JOIN.match(text, m.end())
    following = _WEEKDAY.match(text, join.end()) if join else None
    if following is None:
        return _range(first, first, tz)
    last = _weekday_of(following, now.date(), first)
    return _range(first, last, tz) if last >= first else _range(first, first, tz)


def _weekday_of(m: re.Match[str], today: date, after: date | None) -> date:
    """The day a `_WEEKDAY` match names; `after`, the day a range it ends starts on: a weekday without a
    week of its own ("周三" of "上周一到周三") is in that day's week."""
    zh_prefix, zh_day, en_prefix, en_day = m.groups()
    monday = today - timedelta(days=today.weekday())
    if after is not None and not (zh_prefix or en_prefix in ("last", "past", "previous", "this")):
        weekday = _WEEKDAYS_ZH[zh_day] if zh_day else _WEEKDAYS_EN[en_day]
        return after - timedelta(days=after.weekday() - weekday)
    if zh_day:
        weekday = _WEEKDAYS_ZH[zh_day]
        offset = {"上上": -14, "上": -7, "下": 7}.get(zh_prefix or "", 0)
        day = monday + timedelta(days=offset + weekday)
        if not zh_prefix and day > today:
            day -= timedelta(days=7)
        return day
    weekday = _WEEKDAYS_EN[en_day]
    day = monday + timedelta(days=weekday)
    if en_prefix in ("last", "past", "previous"):
        return today - timedelta(days=(today.weekday() - weekday) % 7 or 7)
    if day > today and en_prefix != "this":
        day -= timedelta(days=7)
    return day


def _weekend(text: str, now: datetime, tz: ZoneInfo) -> Window | None:
    """上周末 / last weekend: Saturday and Sunday before this week; 这周末 / this weekend: this week's;
    周末 / over the weekend: the latest one begun (this week's from Saturday on)."""
    m = _WEEKEND.search(text)
    if not m:
        return None
    zh_prefix, en_prefix = m.groups()
    today = now.date()
    saturday = today - timedelta(days=today.weekday()) + timedelta(days=5)  # this week's
    begun = saturday <= today
    if zh_prefix in ("上", "上上") or en_prefix in ("last", "past", "previous"):
        saturday -= timedelta(days=7 * (2 if zh_prefix == "上上" else 1))
    elif zh_prefix not in ("本", "这") and en_prefix != "this" and not begun:
        saturday -= timedelta(days=7)
    return _range(saturday, saturday + timedelta(days=1), tz)


def _holiday(text: str, now: datetime, tz: ZoneInfo) -> Window | None:
    """春节前后 / around Chinese New Year: from a week before the lunar new year to the end of its
    holiday week; 国庆 / National Day: 1 to 7 October; 五一 / May Day: 1 to 5 May; 元旦 / New Year's
    Day: 1 January ("前后" / "around" a few days either side); 圣诞 / Christmas / the holidays: 18
    December to 3 January. The latest one begun."""
    m = _HOLIDAY.search(text)
    if not m:
        return None
    today = now.date()
    for year in (today.year, today.year - 1):
        if m.group(1):
            new_year = _LUNAR_NEW_YEAR.get(year)
            if new_year is None:
                continue
            first, last = new_year - timedelta(days=7), new_year + timedelta(days=7)
        elif m.group(3):
            first, last = date(year, 12, 18), date(year + 1, 1, 3)
        else:
            group = next(g for g in _HOLIDAY_DAYS if m.group(g))
            (first_month, first_day), (last_month, last_day) = _HOLIDAY_DAYS[group]
            first, last = date(year, first_month, first_day), date(year, last_month, last_day)
            if m.group("around"):
                first, last = first - timedelta(days=AROUND_HOLIDAY), last + timedelta(days=AROUND_HOLIDAY)
        if first <= today:
            return _range(first, last, tz)
    return None


def _week_starts_after(year: int, number: int, today: date) -> bool:
    try:
        return date.fromisocalendar(year, number, 1) > today
    except ValueError:
        return False


def _window_in_known_years(text: str, context: ParseContext) -> Window | None:
    """The window of `text`, but none reaching outside FIRST_YEAR..LAST_YEAR ("since 0001-01-01",
    "9999年12月", whose end is not a date): no merge is that old, and such datetimes do not survive
    date arithmetic or the database's conversions."""
    try:
        window = _window(text, context)
    except (ValueError, OverflowError):
        return None
    if window is None or not (window.start.year >= FIRST_YEAR and window.end.year <= LAST_YEAR + 1):
        return None
    return window


def _month_part(text: str) -> tuple[int, int] | None:
    """The days [first, end) of the part of a month the text names, if any: a half ("上半月", "the
    first half of June") or a third (上旬 / early: 1-10, 中旬 / mid: 11-20, 下旬 / late: 21 to the end).
    The one-character 初 and 底 count only right after a month ("3月初", "上个月底")."""
    half = _MONTH_HALF.search(text)
    if half:
        return _MONTH_HALF_DAYS[next(i for i, g in enumerate(half.groups()) if g) % 2]
    for m in _MONTH_PART.finditer(text):
        groups = m.groups()
        part = next(i for i, g in enumerate(groups) if g) % 3
        bare = groups[0] == "初" or groups[2] == "底"
        if bare and not _MONTH_PART_ZH_AFTER.search(text[: m.start()]):
            continue
        return _MONTH_PART_DAYS[part]
    return None


def _window(text: str, context: ParseContext) -> Window | None:
    """The window the text names; a part of a month ("3月中旬", "early June", "月底") narrows the month
    it names, or this month when it names none; a week of a month or year (`_WEEK_OF_PERIOD`) narrows
    that month or year."""
    week = _WEEK_OF_PERIOD.search(text)
    if week is not None:
        period = _window(_blank(text, (week.span(),)), context)
        if period is not None and period.end - period.start >= timedelta(days=28):
            asked = week.groupdict()
            if asked["zh_last"] or asked["year_last"] or asked["en_last"]:
                return Window(period.end - timedelta(days=7), period.end)
            n = _ORDINAL_WEEKS[asked["en_n"]] if asked["en_n"] else cn_number(asked["zh_n"]) or 1
            start = period.start + timedelta(days=7 * (n - 1))
            return Window(start, min(start + timedelta(days=7), period.end)) if start < period.end else period
    window = _named_window(text, context)
    part = _month_part(text)
    if part is None or (window is not None and not is_calendar_month(window.start, window.end)):
        return _up_to_now(window, text, context.now)
    tz = context.tz
    if window is None:
        today = context.now.astimezone(tz).date()
        window = _month_window(today.year, today.month, tz)
    first, end = part
    month_start = window.start
    if (
        month_start.replace(day=first) > context.now
        and _MONTH_ONLY.search(text)
        and not (_THIS_MONTH.search(text) or re.search(r"(?:19|20)\d{2}", text))
    ):
        # "1月中旬" on January 5th: like a month not yet begun, a part not yet begun is last year's.
        month_start = month_start.replace(year=month_start.year - 1)
        window = _month_window(month_start.year, month_start.month, tz)
    start = month_start.replace(day=first)
    window = Window(start, window.end if end > 28 else month_start.replace(day=end))
    return _up_to_now(window, text, context.now)


# "in the last month", "over the last week", "in the last year": the past month, week or year up to now, as
# "past month" is; bare "last month" is the calendar month before this one ("the last week of May" is that
# week).
_THE_LAST = re.compile(r"\b(?:in|over|during|within|for|throughout) the last (week|month|year)\b(?!\s+of\b)")
# "last year" is the calendar year before this one, as 去年 is ("in the last year" is the past year).
_LAST_YEAR = re.compile(r"\b(?:last|previous) year\b|去年")
_THIS_YEAR = re.compile(r"\bthis year\b|今年")


def _named_window(text: str, context: ParseContext) -> Window | None:
    text = _THE_LAST.sub(r"past \1", text)
    now = context.now.astimezone(context.tz)
    tz = context.tz
    today = now.date()
    this_week = Week.containing(now, tz)

    window = _dates_window(text, now, tz) or _quarter(text, now, tz) or _ago(text, now, tz)
    if window is not None:
        return window

    m = _WEEK_NUMBER.search(text)
    if m:
        g = m.groups()
        number = int(g[1]) if g[1] else cn_number(g[3] or "")
        year = int(g[0] or g[2] or this_week.year)
        if number:
            if not (g[0] or g[2]) and _week_starts_after(year, number, today):
                year -= 1  # a week not yet begun this year is last year's, as for months
            try:
                parse_week(f"{year:04d}-W{number:02d}", tz)
            except ValueError:
                return None  # no such week, or one outside the years prhub knows ("0001-W01")
            return _week_window(Week(year, number, tz))

    window = _weekend(text, now, tz) or _holiday(text, now, tz) or _weekday(text, now, tz)
    if window is not None:
        return window

    # When two windows are named ("本周和上周相比", "上周跟上上周比较"), the more recent one is asked
    # about and the other is what it is compared with.
    weeks_before = _WEEKS_BEFORE.search(text)
    if weeks_before:
        back = len(weeks_before.group(1))
        return _week_window(Week.containing(this_week.start - timedelta(days=7 * back - 1), tz))
    this_week_named = _THIS_WEEK.search(text)
    last_week_named = _LAST_WEEK.search(_BEFORE_LAST_WEEK.sub(" ", text))
    if _BEFORE_LAST_WEEK.search(text) and not (this_week_named or last_week_named):
        return _week_window(Week.containing(this_week.start - timedelta(days=8), tz))
    if last_week_named and not this_week_named:
        if "past week" in text:
            return Window.days_back(now, 7, tz)
        return _week_window(Week.containing(this_week.start - timedelta(days=1), tz))
    if _NEXT_WEEK.search(text):
        return _week_window(Week.containing(this_week.end + timedelta(days=1), tz))
    if this_week_named:
        return _week_window(this_week)

    this_month_named = _THIS_MONTH.search(text)
    if _LAST_MONTH.search(text) and not this_month_named:
        first = today.replace(day=1) - timedelta(days=1)
        return _month_window(first.year, first.month, tz)
    if this_month_named:
        return _month_window(today.year, today.month, tz)

    if _LAST_YEAR.search(text):
        if _THIS_YEAR.search(text):  # "去年和今年比", "this year vs last year": this one, compared with it
            return Window(_day_start(date(today.year, 1, 1), tz), _day_start(date(today.year + 1, 1, 1), tz))
        # "december last year", "去年 12 月", "last year's march": that month of it
        month = _one_month(text, now, tz)
        if month is not None:
            return _month_window(today.year - 1, month[0].start.month, tz)
        return Window(_day_start(date(today.year - 1, 1, 1), tz), _day_start(date(today.year, 1, 1), tz))
    m = _LAST_N.search(text)
    if m:
        parts = {k: v or "" for k, v in m.groupdict().items()}
        count: float | None
        if parts["en"]:
            count, unit = (
                _EN_NUMBERS.get(parts["en"], _A_FEW_UNITS if parts["en"] == "few" else 2),
                parts["en_unit"],
            )
        else:
            written = parts["n"] or parts["front"] or parts["inside"]
            count = {"几": _A_FEW_UNITS, "半": 0.5}.get(written) or (cn_number(written) if written else None)
            unit = parts["unit"] or parts["inside_unit"]
            if count is None:
                count = 2 if "两" in m.group(0) else 1
        days = count * _unit_days(unit)
        if 0 < days <= 3660 and _unit_days(unit) < 1:  # "过去 48 小时", "last 6 hours": to the hour
            return Window(now - timedelta(days=days), now)
        if 0 < days <= 3660:
            return Window.days_back(now, round(days) if days >= 1 else days, tz)

    if _THREE_DAYS_AGO.search(text):
        return _range(today - timedelta(days=3), today - timedelta(days=3), tz)
    if _DAY_BEFORE_YESTERDAY.search(text):
        return _range(today - timedelta(days=2), today - timedelta(days=2), tz)
    if _YESTERDAY.search(text):
        return Window(_day_start(today - timedelta(days=1), tz), _day_start(today, tz))
    if _TODAY.search(text):
        return Window(_day_start(today, tz), _day_start(today + timedelta(days=1), tz))

    window = _month_only(text, now, tz)
    if window is not None:
        return window
    m = _YEAR.search(text)
    if m:
        written = m.group(1) or m.group(2)
        year = int(written) if written else _year_of(m.group(0), None, today) or today.year
        return Window(_day_start(date(year, 1, 1), tz), _day_start(date(year + 1, 1, 1), tz))
    if _RECENTLY.search(text):
        return _recently(now, tz)
    return None


_EN_UNIT_DAYS = {"hour": 1 / 24, "day": 1, "week": 7, "month": 30, "year": 365}


def _unit_days(unit: str) -> float:
    """How many days a unit of time is, written in Chinese or English ("个月", "weeks")."""
    return _UNIT_DAYS.get(unit.lstrip("个")) or _EN_UNIT_DAYS[unit.rstrip("s")]


def _ago(text: str, now: datetime, tz: ZoneInfo) -> Window | None:
    """A day, ISO week or calendar month that many units before today: "三天前" is that day, "两周前"
    that week, "一个月前" / "a month ago" that month."""
    m = _AGO.search(text)
    if m is None:
        return None
    zh_count, zh_unit, en_count, en_unit = m.groups()
    unit = zh_unit or en_unit
    if zh_count:
        count = cn_number(zh_count)
    else:
        count = int(en_count) if en_count.isdigit() else _EN_NUMBERS.get(en_count, 1)
    if not count or count > 120:
        return None
    today = now.date()
    days = _unit_days(unit)
    if days == 1:
        day = today - timedelta(days=count)
        return _range(day, day, tz)
    if days == 7:
        return _week_window(Week.containing(now - timedelta(days=7 * count), tz))
    month_index = today.year * 12 + today.month - 1 - count
    return _month_window(month_index // 12, month_index % 12 + 1, tz)


def _quarter(text: str, now: datetime, tz: ZoneInfo) -> Window | None:
    """A calendar quarter: 上个季度 / last quarter, 本季度, 第三季度 / Q3 (the latest begun, unless a year is
    given), 今年第三季度, 2026Q1. Cut at now while it is not over."""
    m = _QUARTER.search(text)
    if m is None:
        return None
    g = m.groupdict()
    today = now.date()
    current = (today.month - 1) // 3
    relative = g["zp"] or g["ep"]
    written_year = g["zy"] or g["qy"] or g["qy2"]
    year = int(written_year) if written_year else _year_of(g["zyw"], None, today)
    if relative:
        step = {"上": -1, "last": -1, "previous": -1, "下": 1}.get(relative, 0)
        index = today.year * 4 + current + step
        year, quarter = index // 4, index % 4
    else:
        quarter = (cn_number(g["zn"]) if g["zn"] else int(g["qn"])) or 1
        quarter -= 1
        if year is None:
            year = today.year if quarter <= current else today.year - 1
    start = _day_start(date(year, 3 * quarter + 1, 1), tz)
    end_month = 3 * quarter + 4
    end = _day_start(date(year + (end_month > 12), (end_month - 1) % 12 + 1, 1), tz)
    return Window(start, end)


def _up_to_now(window: Window | None, text: str, now: datetime) -> Window | None:
    """A window that ended before now, written with its end at now ("这周一到现在", "since last Friday",
    "自上周三以来"), runs from its start to now. One that reaches now already is kept (a week stays the
    week its report covers)."""
    if window is None or window.end >= now or window.start >= now or not _UP_TO_NOW.search(text):
        return window
    return Window(window.start, now)


def _recently(now: datetime, tz: ZoneInfo) -> Window:
    """What a bare "最近" / "recently" means: the past week from midnight (a question about a subject
    reads it as its own default, see `Query.vague_window`)."""
    return Window.days_back(now, 7, tz)


# Filters -------------------------------------------------------------------------------------------

_CHANGE_TYPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("fix", re.compile(r"修复|修了|修好|修掉|bug|\bfix(es|ed)?\b")),
    ("feat", re.compile(r"新功能|新特性|新增|\bfeat(ure)?s?\b")),
    ("refactor", re.compile(r"重构|refactor")),
)
# Improvements ("修复或改进", "fixes and improvements") are new features, speed-ups and refactors.
_IMPROVEMENT = re.compile(r"改进|改善|增强|\bimprovements?\b|\benhancements?\b")
_IMPROVEMENT_TYPES = ("feat", "perf", "refactor")
# Whether results may change: "影响收敛", "训练行为变了吗", "change training semantics", "affect convergence":
# the PRs whose change alters what training or inference computes (`changes_semantics`).
_SEMANTICS = re.compile(
    r"(?:影响|改变|改了|改动了?|变了)?(?:模型|训练|推理)?(?:的)?收敛(?:性|速度|曲线)?(?!测试)"
    r"|(?:训练|推理)(?:的)?(?:语义|行为|结果|动态|数值)(?:变化|改变|变了)?|(?:改变|影响|改)了?(?:训练|推理)(?:的)?(?:语义|行为|结果)"
    r"|\bconverg(?:e|es|ed|ence|ing)\b(?!\s*(?:tests?|testing|checks?)\b)|\b(?:training|inference|numerical|numeric|optimi[sz]ation) (?:semantics|behaviou?r|results|dynamics)\b"
    r"|\bsemantics\b|\b(?:alters?|changes?|affects?) (?:the )?(?:training|learning|results|numerics)\b"
)


# Things a question asks were added ("新增了哪些文档", "新增的测试", "新增依赖"): "新增" says what happened to
# them, it does not ask for new features.
_ADDED_THINGS = frozenset(
    ("docs", "test", "example", "ci", "dependency", "new_models", "install", "config", "cli")
)
_ADDED_LINK = re.compile(r"\s*(?:了|过)?\s*(?:哪些|什么|啥|些|一些|多少|几个|几篇|个|篇|的)?\s*(?:的)?\s*")


def _adds_a_thing(
    text: str, pattern: re.Pattern[str], concepts: Sequence[tuple[str, list[tuple[int, int]]]]
) -> bool:
    """Whether each of the feature type's words in `text` is "新增" before (or inside) a thing added
    (`_ADDED_THINGS`): then the question is about that thing, not new features."""
    spans = [span for name, found in concepts if name in _ADDED_THINGS for span in found]
    found = list(pattern.finditer(text))

    def thing_after(m: re.Match[str]) -> int:
        link = _ADDED_LINK.match(text, m.end())
        return link.end() if link else m.end()

    return bool(found) and all(
        m.group(0) == "新增"
        and any(start <= m.start() < end or start == thing_after(m) for start, end in spans)
        for m in found
    )


# A glossary phrase led by "model" ("model support", "模型支持") right after a word naming which models
# ("local model support", "Qwen model support", "本地模型支持") is part of that longer, specific phrase: its
# words are searched, the extra one with them, rather than the generic concept without it. Words that
# only ask or add ("any new model support", "新的模型支持") name no models. (Before other broad words a word
# is as often a verb: "affect training stability", "影响训练稳定性".)
_QUALIFIER_EN = re.compile(r"(?<![\w-])([a-z][a-z0-9.-]+)\s+$")
_QUALIFIER_ZH = re.compile(r"([\u4e00-\u9fff]{2})$")
_NOT_QUALIFIERS = frozenset((
    "new", "any", "the", "a", "an", "some", "more", "for", "of", "in", "on", "with", "our", "its", "their",
    "about", "and", "or", "is", "are", "was", "has", "have", "had", "did", "does", "do", "what", "which",
    "add", "adds", "added", "first", "latest", "recent", "other",
))  # fmt: skip
_NOT_QUALIFYING_HAN = frozenset("的了有没新是和与及或在对吗呢啥些种个么哪什")
_MODEL_WORDS = frozenset(("model", "models"))


def _qualified(text: str, start: int) -> bool:
    """Whether a word right before position `start` of `text` qualifies what starts there."""
    english = _QUALIFIER_EN.search(text[:start])
    if english:
        return english.group(1) not in _NOT_QUALIFIERS
    han = _QUALIFIER_ZH.search(text[:start])
    return han is not None and not set(han.group(1)) & _NOT_QUALIFYING_HAN


def _unqualified(
    text: str, concepts: list[tuple[str, list[tuple[int, int]]]]
) -> tuple[list[tuple[str, list[tuple[int, int]]]], bool]:
    """`concepts` without the spans of a "model" phrase that a word before it qualifies (see above), and
    whether there was one."""
    kept, specific = [], False
    for name, spans in concepts:
        generic = [
            span for span in spans if not (_led_by_model(text[slice(*span)]) and _qualified(text, span[0]))
        ]
        specific = specific or len(generic) < len(spans)
        if generic:
            kept.append((name, generic))
    return kept, specific


def _led_by_model(phrase: str) -> bool:
    """Whether a glossary phrase starts with "model" and goes on ("model support", "模型支持")."""
    words = phrase.split()
    return (len(words) > 1 and words[0] in _MODEL_WORDS) or (phrase.startswith("模型") and len(phrase) > 2)


def _bare_improvement(text: str, subjects: Sequence[tuple[int, int]], module_words: Iterable[str]) -> bool:
    """Whether `text` asks for improvements as a kind of change ("修复或改进", "fixes and improvements"),
    not as what a named subject got ("memory improvements", "显存方面的改进", "perf or memory improvements":
    a memory fix is one)."""
    ends = {end for _, end in subjects}
    ends |= {m.end() for word in module_words for m in _word(word).finditer(text)}
    for m in _IMPROVEMENT.finditer(text):
        before = _SUBJECT_LINK.sub("", text[: m.start()])
        if len(before) not in ends:
            return True
    return False


# What may stand between a subject and the improvement it got ("显存方面的改进", "memory-related improvements").
_SUBJECT_LINK = re.compile(r"(?:\s|的|方面|相关|上|-related|\brelated\b)*$")


# "哪些没有测试", "PRs without tests", "untested changes": the PRs that changed code and no test.
_UNTESTED = re.compile(
    r"(?:没有|没|无|缺少?|缺乏|未|不带|不含)(?:加|补|写|附带?|带|新增|相应的?|对应的?|单元|回归)*(?:单元|回归)?(?:测试|单测|测例)"
    r"|\bwithout (?:any |a )?(?:unit |regression )?tests?\b|\bno (?:unit |regression )?tests?\b|\buntested\b"
    r"|\b(?:lacks?|lacking|missing) (?:unit |regression )?tests?\b"
)
# "有没有加测试的 PR", "有没有测试相关的改动": whether there are PRs about tests, its 没有 negating nothing
# ("GRPO 的改动有没有测试" asks whether those changes have tests: `_UNTESTED`).
_ANY_ABOUT_TESTS = re.compile(
    r"有没有(?=(?:加|补|写|新增|带)*(?:单元|回归)?(?:测试|单测|测例)(?:相关|方面)?的)"
)
_BREAKING = re.compile(
    r"破坏性|不兼容|不再兼容|不向后兼容|向后不兼容|breaking|backwards?[- ]?incompatible|incompatible|api 变更|接口变更"
    r"|\bbreak(?:s|ing)? (?:the )?(?:backwards? )?compat(?:ibility)?\b|兼容性破坏|破坏(?:了)?兼容"
    r"|\b(?:could|would|will|might|may) break\b|\bbreaks? (?:us|our|downstream|existing|user)\b"
    # "可能会 break 的", "会不会搞坏现有代码", "哪些改动会破坏现有用法"
    r"|(?:会|可能|可能会|会不会|是否会|能不能)\s*(?:break|搞坏|弄坏|破坏)"
    # what makes users change their code: "需要我们改代码吗", "do we need to change our code"
    r"|(?:需要|要|得|必须)(?:我们|用户|下游|大家)?(?:跟着|相应地?|同步)?(?:改|修改|调整|迁移)(?:我们的|自己的)?(?:代码|调用|用法|脚本)"
    r"|\b(?:(?:do|would|will|that|which) |means? |forces? )?(?:we|i|users|you|us) (?:need|have|must|(?:will|'ll) (?:need|have)|to)"
    r"(?: to)? (?:change|update|migrate|rewrite|fix|adapt) (?:our|my|their|your)? ?(?:code|scripts|calls|usage)\b"
    r"|\brequires? (?:code )?changes (?:on our side|downstream|from users)\b|\bmigration (?:needed|required)\b"
)
# Asking for the risks of one severity: "高风险的改动", "严重的风险", "高危", "high-severity risks", "critical
# risks", "severity: high". Group `q` is the qualifier (blanked: never a search word), the group named
# after a severity says which; "高风险" keeps its "风险", which asks for risks.
_SEVERITY = re.compile(
    r"(?P<high>(?P<q>高|严重|重大|致命|高危|高等级|高级别)(?:的)?(?=\s*(?:风险|隐患))|高危"
    r"|(?:风险|严重)(?:的)?(?:等级|级别|程度)(?:为|是|较|比较)?高"
    r"|\b(?:high(?:est)?|critical|severe|serious|major|big(?:gest)?|worst)(?:[- ]severity)?(?=[- ](?:risks?|dangers?|concerns?)\b)"
    r"|\bhigh(?:est)?[- ]severity\b|\bseverity(?:\s*[:=]\s*|\s+(?:is\s+)?)high\b|\bmost severe\b|\bsevere\b)"
    r"|(?P<medium>(?P<qm>中等?|中级别|中危)(?:的)?(?=\s*风险)|\bmedium(?:[- ]severity)?(?=[- ]risks?\b)|\bmedium[- ]severity\b)"
    r"|(?P<low>(?P<ql>低)(?:的)?(?=\s*风险)|\blow(?:[- ]severity)?(?=[- ]risks?\b)|\blow[- ]severity\b)"
)


def _severity(text: str) -> tuple[Severity | None, list[tuple[int, int]]]:
    """The severity a question asks the risks of, and the spans of the words that say it."""
    severity: Severity | None = None
    spans: list[tuple[int, int]] = []
    for m in _SEVERITY.finditer(text):
        level: Severity = "high" if m.group("high") else "medium" if m.group("medium") else "low"
        severity = severity or level
        qualifier = next((g for g in ("q", "qm", "ql") if m.group(g)), None)
        spans.append(m.span(qualifier) if qualifier else m.span())
    return severity, spans


# The must-reads alone, not the reading list: "必读的 PR", "必看", "must-read PRs", "must reads".
_MUST_READ_ONLY = re.compile(
    r"必读|必看|必须[读看]|一定要[读看]|非[读看]不可|\bmust[- ]?reads?\b|\bmust[- ]see\b|\bessential reading\b"
    r"|\bmust (?:i|we) read\b|\b(?:i|we) must read\b"
)
# How many a day: "平均每天几个", "日均", "一天合几个", "average PRs per day", "how many a day".
_PER_DAY = re.compile(
    r"平均每(?:天|日)|每(?:天|日)平均|平均一天|一天平均|日均|每天(?:大概|大约|差不多)?(?:合|合并|合入)?(?:了)?(?:几|多少)"
    r"|一天(?:能)?(?:合|合并|合入)?(?:了)?(?:几|多少)|\b(?:on )?average\b(?=[^?.!]{0,40}\b(?:per|a|each) day\b)"
    r"|\b(?:per|a|each)[ -]day\b(?: on average\b)?|\bdaily (?:merge )?(?:average|rate|count|pace)\b"
    r"|\b(?:average|mean) daily\b|\bon average\b|\bmerges? (?:rate|pace)\b"
)

# "影响 checkpoint 兼容性", "breaks checkpoint compatibility": a breaking change to what sits between the
# verb and "compatibility", which stays the question's subject.
_BREAKS_COMPATIBILITY = re.compile(
    r"(?P<verb>破坏|影响|打破)了?[^，,。？?！!\n]{1,20}?(?P<compat>(?:的)?(?:向后)?兼容性?)"
    r"|\b(?P<verb_en>break(?:s|ing)?|broke|affect(?:s|ed|ing)?|impact(?:s|ed|ing)?)\s+(?:[\w./-]+\s+){1,3}?"
    r"(?P<compat_en>(?:backwards?[- ])?compat(?:ibility)?)\b"
)
_LIMIT = re.compile(
    rf"(?:top|first|前|最\S{{0,6}}?的?)[\s-]*{_NUM}\s*(?:个|条|项|篇|prs?\b|pull requests?\b|changes?\b)?"
    r"|\btop\s+(one|two|three|four|five|six|seven|eight|nine|ten)\b"
    r"|(?<![\d.])(\d{1,2}|[一二两三四五六七八九十百]+)\s*(?:个|条|项|篇)(?!月)"
    rf"|\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:merged\s+)?(?:most|top|key|biggest|important|prs?\b|pull requests?\b|changes?\b)"
    r"|\b(?:just|only|at most|no more than|max)\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\b(?!\s*(?:days?|weeks?|months?))"
    # the answer's shape: "in 3 bullets", "用三句话总结", "列 5 点"
    r"|\bin\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:bullets?|bullet points|points|sentences|lines|items)\b"
    r"|(?:用|分|列|说|讲|总结成?|概括成?)\s*(\d{1,2}|[一二两三四五六七八九十]+)\s*(?:句话?|点|条要点|个要点)"
)
# How to answer rather than what about ("briefly", "简单说说", "一句话"): never searched.
# Who the answer is for: a reader, not a subject ("for a manager, no jargon", "给老板讲讲", "通俗点"). Asking
# for an answer fit for a reader is asking about the repo, never off-topic.
_AUDIENCE = re.compile(
    r"\b(?:for|to) (?:a |my |our |the )?(?:manager|boss|exec(?:utive)?|non[- ]?technical (?:reader|audience|person|people|"
    r"stakeholder|colleague)|stakeholder|pm|product manager)s?\b"
    r"|\b(?:tell|brief|update) (?:my|our|the) (?:boss|manager|lead|team|execs?|stakeholders)\b|\b(?:no|without|less|minimal) jargon\b"
    r"|\bin plain (?:english|words)\b|\bnon[- ]?technical\b|\bfor dummies\b|\beli5\b|\blike i'?m five\b"
    r"|(?:给|向|跟|对)(?:我们的?|我的?)?(?:老板|领导|经理|产品经理|非技术(?:人员|同事)?)(?:们)?(?:讲讲|讲|说说|说|汇报|介绍|看|解释)?"
    r"|通俗(?:易懂)?(?:地|的|点|一点|些)?|大白话|不要?(?:用)?(?:术语|行话)|少(?:用)?(?:点)?术语|非技术(?:人员|同事)?"
)
_FORMAT = re.compile(
    r"简单(?:地|的)?|简要(?:地|的)?|简短(?:地|的)?|扼要|概括一下|一句话|\bbriefly\b|\bin short\b|\bin brief\b"
    r"|\btl;?dr\b|\bshort version\b|\bin (?:a|one) (?:sentence|line|paragraph)\b|\bbullet(?: point)?s?\b"
    # how to answer, not what about: "列出来并说明影响", "详细说说", "list them and explain the impact"
    r"|列出来|列一下|列举(?:一下)?|(?:并且?|顺便|再)?(?:说明|解释|分析)一?下?(?:它们的|其|各自的)?(?:影响|原因|理由|区别)"
    r"|(?:并且?|顺便|再)(?:说明|解释|分析)(?:一下)?|(?:说明|解释|分析)一下|详细(?:地)?(?:说说|介绍|讲讲|说明|一点|些)|(?:展开|具体)(?:说说|讲讲)"
    r"|\blist them\b|\b(?:and )?explain (?:the |their )?(?:impact|effect)s?\b|\band explain(?: (?:them|each|why))?\b"
    r"|\bin (?:more )?detail\b|\bwith (?:details|an explanation)\b|\bdescribe (?:them|each)\b"
    rf"|{_AUDIENCE.pattern}"
)
# Words that look like author names or modules but are not.
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "last",
        "week",
        "month",
        "prs",
        "pr",
        "what",
        "which",
        "who",
        "how",
        "many",
        "much",
        "any",
        "all",
        "some",
        "changes",
        "change",
        "risks",
        "risk",
        "report",
        "weekly",
        "summary",
        "highlights",
        "and",
        "or",
        "of",
        "in",
        "on",
        "for",
        "to",
        "from",
        "with",
        "about",
        "since",
        "until",
        "by",
        "me",
        "you",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "that",
        "there",
        "their",
        "please",
        "thanks",
        "thank",
        "could",
        "would",
        "can",
        "tell",
        "show",
        "list",
        "give",
        "find",
        "search",
        "merged",
        "repo",
        "repos",
        "most",
        "active",
        "module",
        "modules",
        "author",
        "authors",
        "new",
        "fix",
        "fixes",
        "feat",
        "feature",
        "related",
        "help",
        "worth",
        "read",
        "close",
        "reading",
        "must",
        "compare",
        "versus",
        "vs",
        "previous",
        "days",
        "day",
        "today",
        "yesterday",
        "recent",
        "recently",
        "lately",
        "so",
        "far",
        "than",
        "between",
        "did",
        "does",
        "do",
        "what's",
        "whats",
        "happened",
        "happen",
        "i",
        "we",
        "they",
        "people",
        "everyone",
        "anyone",
    ]
)
_LOGIN = r"(?<![a-z0-9_-])([a-z0-9][a-z0-9_-]*(?:\[bot\])?)"
# Patterns that say outright that a name is a person ("@carol", "by carol", "作者是 carol", "carol 提交的").
_AUTHOR_PATTERNS = (
    re.compile(r"@" + _LOGIN),
    re.compile(r"\b(?:by|author|authored by|from user)\s+" + _LOGIN),
    re.compile(r"作者\s*(?:是|为|:)?\s*" + _LOGIN),
    re.compile(
        r"(?<!关于)(?<!关于 )" + _LOGIN + r"\s*(?:提交的|写的|发的|合并的)\s*(?:pr|改动|提交|代码|修改)"
    ),
    re.compile(r"\b(?:did|has|have)\s+" + _LOGIN + r"\s+(?:merge|write|ship|land|submit|open|author)"),
)
# Patterns that fit a person as well as a topic ("PEFT 的 PR", "GRPO's changes"): a name read by these is
# an author only when the index knows that login.
_AUTHOR_OR_TOPIC_PATTERNS = (
    re.compile(r"(?<!关于)(?<!关于 )" + _LOGIN + r"\s*的\s*(?:pr|改动|提交|代码|修改)"),
    # "dependabot[bot] 在 verl 本月提交的 PR", "carol 最近 7 天在 verl 的改动"
    re.compile(
        _LOGIN
        + r"\s*[^,，。?？!！]{0,20}?在[^,，。?？!！]{0,30}?(?:提交|合并|写|发|的\s*(?:pr|改动|修改|代码))"
    ),
    re.compile(_LOGIN + r"'s\s+(?:prs|pull requests|changes|work)"),
    # "ivy 最近在做什么", "lin 这周在忙啥", "what has ivy been working on", "what is mei up to"
    re.compile(
        _LOGIN
        + r"\s*[^,，。?？!！a-z]{0,8}?(?:在|都|一直)?\s*(?:(?:做|忙|搞|干|弄|写)(?:了|的|些)?\s*(?:什么|啥|哪些|些什么)|干嘛)"
    ),
    # "what did ivy fix last week", "which PRs has lin merged", "anything sam touched"
    re.compile(
        r"\b(?:what|which(?: prs?| pull requests| changes)?|anything)\s+(?:did|has|have|had)\s+"
        + _LOGIN
        + r"\b"
    ),
    re.compile(
        r"\bwhat(?:'s| is| has| have| was| did)\s+" + _LOGIN + r"\s+(?:been\s+)?"
        r"(?:working on|worked on|work on|up to|doing|done|do|shipp?(?:ed|ing)?|merg(?:ed|ing)|landed)\b"
    ),
)
# Words that name a window, not a person ("2026-w24 的 pr").
_NOT_A_LOGIN = re.compile(r"(?:\d{4}-?)?w(?:eek)?\d{1,2}|[\d./-]+")


def _modules(
    text: str, context: ParseContext, repo_words: set[str]
) -> tuple[tuple[str, ...], float, set[str]]:
    """The modules named (typos within an edit distance corrected), how sure that is, and the words of
    the text that were read as modules."""
    found: list[str] = []
    words: set[str] = set()
    confidence = 1.0
    for word in dict.fromkeys(re.findall(r"[a-z][a-z0-9_-]{1,}", text)):
        if word in repo_words or word in _STOP:
            continue
        if word in context.modules:
            found.append(word)
            words.add(word)
            continue
        limit = 2 if len(word) >= 8 else 1 if len(word) >= 5 else 0
        # A module's name with a version or an ending ("fsdp2", "rollouts") is the module, however real a
        # word it is; another real word is no typo of one ("tracing" is no "tracking").
        inflected = _INFLECTION.sub("", word.rstrip("0123456789")) in context.modules
        if limit and (inflected or not _real_word(word, context)):
            close = sorted(
                (edit_distance(word, m, limit), m)
                for m in context.modules
                if abs(len(m) - len(word)) <= limit
            )
            if close and close[0][0] <= limit:
                found.append(close[0][1])
                words.add(word)
                confidence = min(confidence, 0.8)
    return tuple(dict.fromkeys(found)), confidence, words


_INFLECTION = re.compile(r"(?:s|es|ed|ing)$")


def _real_word(word: str, context: ParseContext) -> bool:
    """Whether `word` is a word as written, not a typo: some indexed PR's title uses it, or it is an
    English dictionary word."""
    return (context.title_word is not None and context.title_word(word)) or is_english_word(word)


def _author(
    text: str, context: ParseContext, repo_words: set[str], module_words: Iterable[str]
) -> str | None:
    excluded = repo_words | set(module_words) | _STOP | set(context.modules)
    for pattern in (*_AUTHOR_PATTERNS, *_AUTHOR_OR_TOPIC_PATTERNS):
        for m in pattern.finditer(text):
            name = _bot_login(m.group(1), context)
            if name in excluded or _NOT_A_LOGIN.fullmatch(name):
                continue
            if pattern in _AUTHOR_PATTERNS or not context.authors or name in context.authors:
                return name
    # A login the index knows, standing alone in any phrasing ("hjh0119 三月的 PR"), unless it is also a
    # word a question uses for something else (a module, a glossary term, a stop word).
    for m in _STANDALONE_LOGIN.finditer(text):
        name = _bot_login(m.group(1), context)
        if (
            name in context.authors
            and len(name) >= MIN_STANDALONE_LOGIN
            and name not in excluded
            and not default_glossary().find(name)
        ):
            return name
    return None


def _bot_login(name: str, context: ParseContext) -> str:
    """The login a bot's name stands for ("dependabot", "renovate" are `dependabot[bot]`,
    `renovate[bot]` on GitHub) when the index knows only the bot's; else `name`."""
    bot = f"{name}[bot]"
    return bot if name not in context.authors and bot in context.authors else name


def _people(text: str, context: ParseContext, excluded: set[str]) -> tuple[str, ...]:
    """Two or more known logins the question joins ("ivy 和 lin 最近在做什么", "what did kashif and
    qgallouedec ship"): each one's PRs are asked about. Empty unless at least two are joined."""
    found = [
        (m.start(), m.end(), m.group(1))
        for m in _STANDALONE_LOGIN.finditer(text)
        if m.group(1) in context.authors and m.group(1) not in excluded and m.group(1) not in _STOP
    ]
    joined: list[str] = []
    for (_, end, first), (start, _, second) in pairwise(found):
        if _PEOPLE_JOIN.fullmatch(text[end:start]):
            joined += [name for name in (first, second) if name not in joined]
    return tuple(joined) if len(joined) >= 2 else ()


_PEOPLE_JOIN = re.compile(r"\s*(?:和|与|跟|及|以及|、|,|，|\band\b|&|\bor\b|还有)\s*")
MIN_STANDALONE_LOGIN = 4
_STANDALONE_LOGIN = re.compile(r"(?<![\w@/.-])([a-z0-9][a-z0-9-]*(?:\[bot\])?)(?![\w/-])")


# Intent --------------------------------------------------------------------------------------------

# What could bite on upgrading ("有哪些改动会影响我们升级", "what should we watch for before we upgrade"):
# the window's risks (breaking changes, compatibility, pins), not a search for the word "upgrade".
_UPGRADE_IMPACT = re.compile(
    r"影响.{0,4}升级|(?:升级|更新|升)(?=[^，。？?！!]{0,16}(?:注意|小心|影响|踩坑|坑|风险|留意|当心|关注))"
    r"|(?:升级|更新|升)到?(?:最新|新)的?(?:版本?|release)|升级指南|升级说明"
    r"|\baffects? (?:our |the |an? )?upgrad\w*"
    r"|\b(?:before|when|after|for|on) (?:we |you |i )?upgrad\w*|\bupgrade (?:impact|concerns?|pitfalls?|notes?|guide)\b"
    r"|\bupgrad\w*(?: [\w./-]+)? to (?:the |a )?(?:latest|newest|new|next)(?: (?:stable )?(?:release|version)s?)?\b"
    r"|\b(?:watch|look out|careful|know|aware|check)\b[^?.,]{0,24}\bupgrad\w*"
    # what the changes do to the asker's own setup: "会不会影响我们现有的训练脚本", "我们的配置要改吗",
    # "will anything break our launch scripts?", "do we need to update our configs?"
    r"|影响(?:到)?\s*(?:我们|咱们|你们|现有|已有|目前)|对(?:我们|咱们|现有|已有)[^，。？?！!]{0,12}有(?:什么|啥)?影响"
    r"|(?:我们|咱们)的?[^，。？?！!]{0,12}(?:要|需要|得|用不用|需不需要)(?:改|修改|调整|迁移|更新)"
    r"|\b(?:break|affect|impact)s? (?:our|my|existing|any of our)\b|\bimpact on (?:us|our)\b"
    r"|\bdo (?:we|i) (?:need|have) to (?:change|update|modify|migrate|adjust)\b"
    r"|\b(?:our|my)\b[^?.!]{0,30}\bneeds? (?:to be )?(?:chang|updat|modif|migrat|adjust)\w*"
    r"|\b(?:need|require|force)[sd]? (?:us |me )?(?:to )?(?:chang|updat|modif|migrat|adjust)\w* (?:our|my|existing)\b"
)

# The asker's own setup in such a question ("我们现有的训练脚本", "our launch settings"): what the changes
# may affect, which no PR names, so neither a concept nor a search word.
_OUR_SETUP = re.compile(
    r"(?:\bour|\bmy|\bexisting|我们(?:现有|已有|目前)?的?|咱们的?|现有的?|已有的?)\s*"
    r"((?:(?!(?:to|after|before|when|if|need|needs|require|requires|have|has|be|will|would|should|must)\b)"
    r"[a-z][\w-]*\s*){1,2}|[\u4e00-\u9fff]{2,6}?(?=[吗呢吧啊？?，,。]|有|要|需|会|$))"
)
_UPGRADE_FRAMING = frozenset(("upgrade", "regression"))
_UPGRADE_WORDS = frozenset(
    (
        "release",
        "releases",
        "version",
        "versions",
        "latest",
        "newest",
        "break",
        "breaks",
        "版本",
        "新版",
        "最新版",
    )
)

# Which module changed most ("哪个模块变化最大", "变动最多的模块", "which module changed the most"): the
# statistics' (or a comparison's) module counts.
_MODULE_MOST = re.compile(
    r"(?:变化|变动|改动)最(?:大|多)的?模块|模块(?:的)?(?:变化|变动|改动)最(?:大|多)"
    r"|哪(?:个|些)模块(?:的)?(?:变化|变动|改动)?(?:最|比较|更)?(?:大|多|活跃)"
    r"|\bwhich modules? (?:changed|moved|grew|saw the most)(?: the)?(?: most)?\b"
)

# "比较" before an adjective is "rather" ("先读哪个比较好", "比较重要的 PR"), no comparison.
_RATHER = r"\s*(?:好|重要|大|多|少|值得|合适|靠谱|关键|有用|推荐|常见|新|快|慢|稳|简单|复杂|难|容易|适合|有意思|有趣|明显|严重)"
# A comparison of two spans ("本周和上周比", "compare may with april", "3月和4月哪个月合并的多").
_COMPARE = re.compile(
    r"对比|比较(?!"
    + _RATHER
    + r")|相比|比上上?周|比上个?月|(?<![对无好])比\s*(?:\d{1,2}|[一二三四五六七八九十]{1,2})\s*月份?(?=\s*\S{0,4}?(?:多|少|增|减|快|慢|活跃|忙))|环比|同比|比起来|相较|(?:和|跟|与|同)\s*(?:上上?|这|本|前一|上一)个?(?:周|星期|礼拜|月)\S{0,4}?比|(?:和|跟|与|同)[^，。？?！!]{1,24}?(?:相比|比较|对比|比起来|比一下|比怎么样|比如何|比呢|比是?(?:多|少|增|减|涨|降|快|慢))|(?:和|跟|与|同)\s*(?:\d{1,2}|[一二三四五六七八九十]{1,2})\s*月份?\s*比(?![如较方])|多了还是少了|变多了?还是变少|增加还是减少|涨了还是跌了|compare|\bvs\.?\b|versus|than (?:the )?(?:last|previous)|week over week|month over month"
    # "今年和去年比", "这周跟上周比？": the comparison's verb ends the question
    r"|(?:和|跟|与|同)[^，。？?！!]{1,24}?比\s*[?？。!！]*\s*$"
    # which of two spans saw more: "3月和4月哪个月合并的多", "which month had more PRs, april or may",
    # "did verl merge more in april than in march"
    r"|哪(?:个|一)?\s*(?:月|周|星期|礼拜|季度|年)[^，。？?！!]{0,10}?(?:多|少|活跃|忙)"
    r"|\bwhich (?:month|week|quarter|year)\b[^?.!]{0,30}?\b(?:more|most|fewer|busier|quieter)\b"
    r"|\b(?:more|fewer|less|busier|quieter)\b[^?.!]{0,40}?\bthan\s+(?:in\s+|during\s+|the\s+)?"
    rf"(?:this|(?:{_MONTH_NAME})\b|w(?:eek\s*)?\d|\d{{4}}|\d{{1,2}}\s*/)"
)
_INTENT_RULES: tuple[tuple[Intent, re.Pattern[str]], ...] = (
    (
        "help",
        re.compile(
            r"^(?:help|帮助|/help|\?|？|使用说明|用法)$|怎么用|如何使用|你能做什么|你会什么|能干什么|what can you do|how do i use|^usage"
        ),
    ),
    ("report", re.compile(r"周报|月报|weekly report|monthly report|\breport\b|报告")),
    ("compare", _COMPARE),
    (
        "stats",
        re.compile(
            # "多少" of a count, not of a value ("默认是多少", "改成多少了" ask what a setting is)
            r"(?<!改成)(?<!改为)(?<!设为)(?<!设成)(?<!是)(?<!为)多少|几个|几条|几次|数量|统计|最活跃|更活跃|最多|排行|排名"
            r"|how many|number of|\bcount\b|most active|more active|busiest|busier|statistic|\bstats\b|top (?:modules|authors|contributors)"
            r"|\b(?:merged|landed|had|has|with) the most\b|\bthe most (?:prs|pull requests|merges|commits)\b"
            # how long PRs wait: "平均 review 时间", "合并要多久", "time to merge", "how long do PRs stay open"
            r"|(?:平均|中位数?的?)?\s*(?:review|评审|审核|合并)\s*(?:时间|耗时|周期)|(?:要|需要|得)?多久(?:才)?(?:能)?(?:被)?合并"
            r"|\b(?:average|median|mean)? ?(?:time to (?:merge|review)|review time|cycle time|merge time)\b"
            r"|\bhow long\b[^?.!]{0,40}?\b(?:to (?:merge|land|get merged|be reviewed)|stay(?:ed)? open|(?:in|under) review|before (?:merging|they merge|it merges))\b|"
            + _MODULE_MOST.pattern
        ),
    ),
    (
        "risks",
        re.compile(
            r"风险|隐患|危险|注意什么|需要注意|risk|danger|watch out|concern|" + _UPGRADE_IMPACT.pattern
        ),
    ),
    (
        "must_read",
        re.compile(
            r"值得(?:精|细|仔细|一)?[读看]|必读|必看|必须[读看]|一定要[读看]|非[读看]不可|精读|细读|重点看|worth (?:a )?(?:close )?read|must[- ]read|must (?:i|we) read|(?:i|we) must read|close read|deserves? (?:a )?(?:careful|close)|should (?:i|we) read|(?:i|we) should read|\bread first\b|先(?:读|看)哪|从哪(?:个|一个|篇|些)\s*(?:pr)?(?:\s|开始)*(?:看|读)"
            # what is worth learning from: the PRs with the most insight
            r"|值得(?:我们?|大家|你们)?(?:团队|组里|这边)?(?:学习|借鉴|参考|研究|关注|跟进|跟踪|留意)(?:的(?:设计|实现|思路|地方))?|(?:学习|借鉴)的(?:设计|实现|思路)|设计亮点|好的设计"
            r"|\blearn (?:from|something)\b|worth (?:studying|learning)|well[- ]designed|good design|clever"
        ),
    ),
    ("search", re.compile(r"搜索|查找|找一下|搜一下|\bsearch\b|\bfind\b|look for|关于")),
    (
        "highlights",
        re.compile(
            r"改动|变化|变更|更新|亮点|重要|重点|关键|important|significant|总结|概括|概述|概要|摘要|概况|进展|做了什么|干了什么|有什么|有哪些|合并了|合(?:了|进了?|入了?)(?:什么|啥|哪些)|发生了什么|what changed|what's new|whats new|highlights?|summary|summari[sz]e|changes|updates|happened|going on|overview|recap"
        ),
    ),
)
# Content words --------------------------------------------------------------------------------------

# Chinese words that carry the question's grammar, not its subject: a run of Han characters is split at
# them, and what remains (two characters or more) is searched.
_HAN_FUNCTION_WORDS = (
    "有哪些|有什么|有没有|是什么|为什么|怎么样|怎么|如何|是否|哪些|什么|哪个|哪几个|一下|一些|这个|那个|这些|那些"
    "|相关的|相关|有关的|有关|方面的|方面|关于|涉及到?|针对|对于|里面|下面|里的|中的|上的|下的"
    "|搜索|搜一下|查找|查一下|找一下|帮我|帮忙|请问|请|看看|看一下|告诉我|给我|列出|列一下|说说|讲讲|介绍"
    "|改动|变化|变更|更新|修改|提交|合并了?|合入|进展|动态|工作|内容|情况|东西|事情|问题|代码|文件|目录|路径"
    "|仓库|项目|模块|组件|功能|pr|谁|大家|我们|你们|他们|订阅的?|最重要的?|重要的?|重点的?|最值得|值得|最新的?|主要的?"
    "|风险|隐患|亮点|总结|概要|摘要|概况|周报|报告|统计|数量|多少|几个|排行|排名|对比|比较|相比|比"
    "|只看|只要|仅看|只|仅|麻烦|谢谢|多谢|感谢|您好|你好|能不能|能否|可以|能|帮|作者|提交的|写的|发的|合并的"
    "|支持|一共|总共|共|合计|目前|现在|已经|所有|全部|整体|具体|详细|大概|本身|一般|通常"
    "|需要|注意|关注|留意|在意|值得一看|一看|了解|知道|看的|读的|啥|咋|进度|状态|现状|新版本|最新版本?|新版|要|时"
    "|干嘛|干啥|忙啥|忙什么|最新|最后|刚刚|刚|是什么时候|什么时候|啥时候|何时|时候|哪天|几号"
    "|有人|有没有人|动过|动了|碰过|碰了|弄了|搞了|学习|借鉴|参考|部分|这块|那块|这一块|那一块|板块"
    "|提到|提及|说到|讲到|谈到|变动|改进|改善|更多|更少|多了|少了|变多|变少|增多|逻辑|处理逻辑"
    "|那边|这边|动静|新东西|新鲜事|有意思|有趣|意思|值得一提|好玩|好看|新鲜|可能|会不会|影响到?|用户们?|使用者|后端|团队|组里"
    "|改过|改成|改为|改到|修过|加过|删过|用过|用了|用的"
    "|讲了|讲的|做了|干了|说了|改了|发生了|加了|出了|都|了|的|吗|呢|吧|啊|呀|和|与|跟|及|或|在|里|中|上|下|有|是|个|些|把|被|给|让|从|到|对|就|还|也|又|再"
)
# The longest function word first: "有没有人改" splits at "有没有人", not at "有没有" leaving "人改".
_HAN_SPLIT = re.compile(
    "(?:" + "|".join(sorted(_HAN_FUNCTION_WORDS.split("|"), key=len, reverse=True)) + ")+"
)
_CONTENT_TOKEN = re.compile(r"[\u3400-\u9fff]+|[a-z][a-z0-9_.+-]*[a-z0-9+]|[a-z]")
# The usual English stop words (NLTK's list) and the verbs of asking: never what a question is about.
_ENGLISH_STOP = frozenset(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
    hers herself it its itself they them their theirs themselves what which who whom this that these those
    am is are was were be been being have has had having do does did doing a an the and but if or because
    as until while of at by for with about against between into through during before after above below
    to from up down in out on off over under again further then once here there when where why how all
    any both each few more most other some such no nor not only own same so than too very can will just
    should now could would shall may might must also yet still ever even
    summarize summarise summary recap overview happened happen happening ship ships shipped shipping
    done made make added improvement improvements improve improved half around regarding concerning
    related relating touching touched involving affect affects affected affecting mention mentions
    mentioned mentioning talk talks talking
    say says said interesting noteworthy exciting cool notable worth knowing fun neat support supports supported
    open opens opened use uses used""".split()  # noqa: SIM905
)
_CONTENT_STOP = (
    _STOP
    | _ENGLISH_STOP
    | frozenset(
        [
            "look",
            "pull",
            "requests",
            "request",
            "using",
            "anything",
            "something",
            "everything",
            "stuff",
            "things",
            "thing",
            "work",
            "went",
            "go",
            "going",
            "get",
            "got",
            "new",
            "important",
            "importantly",
            "biggest",
            "key",
            "top",
            "first",
            "most",
            "main",
            "major",
            "notable",
            "should",
            "need",
            "needs",
            "want",
            "know",
            "see",
            "tell",
            "explain",
            "describe",
            "latest",
            "ones",
            "one",
            "lot",
            "lots",
            "also",
            "just",
            "only",
            "were",
            "has",
            "have",
            "had",
            "been",
            "being",
            "will",
            "shall",
            "may",
            "might",
            "must",
            "more",
            "less",
            "other",
            "others",
            "else",
            "like",
            "into",
            "over",
            "under",
            "out",
            "up",
            "down",
            "when",
            "where",
            "why",
            "whom",
            "whose",
            "your",
            "our",
            "my",
            "his",
            "her",
            "them",
            "us",
            "touched",
            "touch",
            "modified",
            "modify",
            "changed",
            "edit",
            "edited",
            "files",
            "file",
            "folder",
            "directory",
            "path",
            "paths",
            "code",
            "pr's",
            "prs'",
            "repository",
            "project",
            "projects",
            "updates",
            "update",
            "merge",
            "merges",
            "merging",
            "landed",
            "land",
            "shipped",
            "it's",
            "that's",
            "there's",
            "here",
            "what're",
            "who's",
            "how's",
            "ok",
            "okay",
            "hi",
            "hey",
            "hello",
            "yo",
            "please",
            "pls",
            "thx",
            "prhub",
            "bot",
            "worth",
            "reading",
            "worthwhile",
            "look",
            "at",
            "details",
            "detail",
            "expand",
            "show",
            "carefully",
            "closely",
            "worked",
            "working",
            "works",
            "careful",
            "issue",
            "issues",
            "problem",
            "problems",
            "recent",
            "recently",
            "lately",
            "anyone",
            "someone",
            "did",
            "does",
            "do",
            # what any change is: "the tokenizer handling", "rollout logic", "sglang stuff" ask about
            # the tokenizer, the rollout, sglang
            "handling",
            "handle",
            "handles",
            "handled",
            "logic",
            "behavior",
            "behaviour",
            "behaviors",
            "behaviours",
            "aspect",
            "aspects",
            "area",
            "areas",
            "part",
            "parts",
            "side",
            "bits",
            "piece",
            "pieces",
            "functionality",
            "matters",
            "regard",
            "regards",
            "average",
            "fewer",
            # how a comparison or a people question is asked: "march vs april activity", "who wrote it"
            "activity",
            "activities",
            "wrote",
            "written",
            "authored",
        ]
    )
)
# The stop words long enough that a word one or two edits from one is its typo ("anythign", "recnetly"),
# when no PR title uses the word: `_content_words` drops those too.
_STOP_TYPOS = {word: 1 for word in _CONTENT_STOP if len(word) >= 5 and word.isalpha()}


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _content_words(text: str, skip: set[str]) -> list[tuple[str, tuple[int, int]]]:
    """The words left in `text` (slots already blanked out) that say what the question is about, with
    their spans: English words that are no stop word, Chinese runs split at function words."""
    words: list[tuple[str, tuple[int, int]]] = []
    for match in _CONTENT_TOKEN.finditer(text):
        token = match.group(0)
        if _HAN.match(token):
            position = match.start()
            for piece in _HAN_SPLIT.split(token):
                at = text.index(piece, position) if piece else position
                position = at + len(piece)
                if len(piece) >= 2 and piece not in skip:
                    words.append((piece, (at, at + len(piece))))
        elif token := _RELATED_SUFFIX.sub("", token):
            if len(token) < 2 or token in _CONTENT_STOP or token in skip or token.isdigit():
                continue
            start = match.start()
            words.append((token, (start, start + len(token))))
    return words


@cache
def _glossary_words() -> frozenset[str]:
    """Every word the glossary finds concepts by, narrower ones too ("saving"): none is a typo."""
    glossary = default_glossary()
    return frozenset(term for name in glossary.concepts for term in glossary.terms(name))


def _mistyped_stop_word(word: str, context: ParseContext) -> bool:
    """Whether a question's word is a typo of a word that is never its subject ("anythign", "lastest")
    rather than a word some PR title uses or the glossary knows ("saving" is no typo of "having")."""
    return (
        len(word) >= 5
        and word not in _glossary_words()
        and word.isascii()
        and word.isalpha()
        and closest_word(word, _STOP_TYPOS) is not None
        and not (context.title_word is not None and context.title_word(word))
    )


def _short_stop_typo(word: str, context: ParseContext) -> bool:
    """Whether a short word no PR title of the repo uses is a stop word mistyped the way short words are: two
    neighbouring letters swapped ("teh", "waht") or one letter dropped ("wek"). `typo_limit` allows no
    edit under four letters, where too many subjects are one edit apart; a word that is also no PR
    title's word is no subject, so these typos are neither searched nor reported as unmatched."""
    if not (3 <= len(word) <= 4 and word.isascii() and word.isalpha()) or word in _glossary_words():
        return False
    if context.title_word is None or context.title_word(word):
        return False
    return any(_swapped_or_dropped(word, stop) for stop in _SHORT_STOP_WORDS.get(len(word), ()))


def _swapped_or_dropped(word: str, stop: str) -> bool:
    if len(stop) == len(word):
        differ = [i for i, (a, b) in enumerate(zip(word, stop, strict=True)) if a != b]
        return len(differ) == 2 and differ[1] == differ[0] + 1 and word[differ[0]] == stop[differ[1]]
    return any(stop[:i] + stop[i + 1 :] == word for i in range(len(stop)))


# The stop words a short typo may be of, by the typo's length (the same length, or one letter longer).
_SHORT_STOP_WORDS: dict[int, tuple[str, ...]] = {
    length: tuple(
        w
        for w in _CONTENT_STOP
        if w.isalpha() and (len(w) == length or (len(w) == length + 1 and length >= 3))
    )
    for length in (3, 4)
}


_RELATED_SUFFIX = re.compile(r"-(?:related|specific|based|side|only|support|aware)$")
# Words for what nearly every PR of a training or model repo is about: searched when they are all the
# question names, dropped beside a narrower subject ("multi-node training" is about multi-node).
# Concepts whose PRs are fixes by nature: a question asking for "fixes" of them asks for all of them.
_DEFECTS = frozenset(("security", "leak", "crash", "hang", "regression"))
_BROAD_SUBJECTS = frozenset(("training", "train", "训练", "model", "models", "模型"))
# Words for a part of whatever they follow or lead ("the megatron backend", "the rollout side",
# "vllm 集成"): beside another subject they name no subject of their own, so they are neither required
# nor searched; alone ("which backends changed") they are the subject.
_GENERIC_PARTS = frozenset(
    [
        "backend",
        "backends",
        "side",
        "part",
        "parts",
        "component",
        "components",
        "area",
        "areas",
        "subsystem",
        "subsystems",
        "layer",
        "stack",
        "integration",
        "integrations",
        "codebase",
        "后端",
        "部分",
        "组件",
        "模块",
        "集成",
        "板块",
    ]
)


def _as_written(raw: str, norm: str, span: tuple[int, int]) -> str:
    """The asker's own spelling of a normalised span ("PEFT", not "peft") when it can be found."""
    word = norm[span[0] : span[1]]
    found = re.search(re.escape(word), unicodedata.normalize("NFKC", raw), re.IGNORECASE)
    return found.group(0) if found else word


# Intents whose answer is narrowed to an author named in the question ("carol 的 PR 有哪些风险").
_AUTHOR_FILTERED: frozenset[Intent] = frozenset(
    ("author", "topic", "highlights", "stats", "risks", "must_read", "compare", "search")
)
# Greetings and small talk, the whole message: the answer says what the bot does. Asking the date or the
# time ("今天几号", "what time is it?") names a day, yet asks nothing about PRs; nor does asking who the bot is.
_GREETING = re.compile(
    r"^(?:(?:hi|hello|hey|嗨|你好|您好)[\s,，!！]*)?"
    r"(?:hi|hello|hey|yo|你好|您好|嗨|哈喽|在吗|在不在|早上好|晚上好|早|thanks|thank you|谢谢|多谢|ok|好的"
    r"|(?:请问\s*)?(?:今天|今日|现在|当前)?\s*(?:是)?\s*(?:几月)?(?:几号|几日|多少号|星期几|周几|礼拜几|几点(?:钟)?|什么日子|什么时间|哪天)(?:了)?"
    r"|你是谁|你叫什么(?:名字)?|你好吗|最近怎么样|吃了吗"
    r"|(?:what(?:'s| is)\s+)(?:the\s+)?(?:time|date|day)(?:\s+(?:is it|today|now|it is))?(?:\s+(?:now|today))?"
    r"|what(?:'s| is) today(?:'s date)?|what time is it(?:\s+now)?|what day (?:is (?:it|today)|of the week is it)(?:\s+today)?"
    r"|who are you|what(?:'s| is) your name|how are you(?: doing)?(?: today)?|how'?s it going)"
    r"[\s!！.。~,，?？啊呀呢吗]*$"
)
# The channel's subscribed repos, named as a whole: "我们订阅的仓库", "订阅的这些仓库", "our repos".
_SUBSCRIBED = re.compile(
    r"(?:我们|咱们|本群|这个?群|本频道|这个?频道)?(?:订阅|关注)(?:了)?的(?:这些|所有|几个|全部)?(?:仓库|项目|repos?)"
    r"|(?:我们|咱们)的(?:这些|所有|几个)?(?:仓库|项目)"
    r"|\b(?:all\s+)?(?:of\s+)?our\s+(?:subscribed\s+)?(?:repos|repositories|projects)\b"
    r"|\b(?:the|all|all the)\s+(?:subscribed|followed)\s+(?:repos|repositories)\b"
    r"|\b(?:repos|repositories)\s+(?:we|this channel)\s+(?:follow|subscribe(?:d)?\s+to)\b"
)


# "哪个仓库本周最活跃", "各仓库的风险", "which repo merged the most", "risks in each repo".
_EVERY_REPO = re.compile(
    r"哪(?:个|一个|些)(?:仓库|项目|repo)|(?:各|各个|每个|每一个|所有|全部)\s*(?:已?(?:索引|收录|关注|跟踪)(?:了)?)?\s*(?:的)?\s*(?:仓库|项目|repo)"
    r"|\bwhich (?:repos?|repositories|projects?)(?![\w./-])|\b(?:each|every|per) (?:indexed |subscribed |followed |tracked )?(?:repo|repository|project)(?![\w./-])"
    r"|\ball (?:the )?(?:indexed )?(?:repos|repositories|projects)\b|\bacross (?:all )?(?:the )?(?:repos|repositories)\b"
)


def names_subscribed_repos(text: str) -> bool:
    """Whether the text asks about the channel's subscribed repos as a whole ("订阅的这些仓库本周有哪些
    风险？"): a question, though it starts like the subscribe command."""
    return bool(_SUBSCRIBED.search(normalize(text)))


# Words that show a question is about code changes at all (else, without a repo, it is off-topic).
_DOMAIN = re.compile(
    r"(?<![a-z])prs?(?![a-z])|pull|merge|commit|repo|change|risk|module|report|review|release|diff|author|contribut|code"
    r"|\b(?:touch|fix|add|remov|renam|refactor|land|implement|design|bug|feature|api|function|config|test|docs?)"
    r"|合并|合入|合进|合了|合过|合的|改动|提交|仓库|代码|风险|模块|周报|评审|变更|修改|作者|贡献|版本|发布|更新|修复|重构|支持|接入|集成"
    r"|\bsupport"
    r"|(?:有人|谁)动|动了|改了|碰了|加了|删了|修了|实现|设计|接口|函数|配置|测试|文档|功能|特性|动静|进展"
    # asking for a summary of a span is asking about its PRs ("summarize last week", "上周总结一下")
    r"|summar|recap|overview|digest|highlight|what'?s new|总结|概括|概述|摘要|概况|亮点|回顾|做了什么|干了什么|忙(?:了)?什么"
)
# How little time the asker has to read ("我只有半小时", "只有十分钟", "时间不多", "I only have 20 minutes",
# "short on time", "in a hurry"): they ask for a short reading list, not about a span of an hour.
_TIME_BUDGET = re.compile(
    r"(?:(?:我|我们)(?:只|大概|大约)?有|只有|只剩下?|仅有|只能抽出|只能花)\s*(?:半|一|两|三|四|五|十|二十|三十|\d+)\s*(?:个)?\s*"
    r"(?:小时|钟头|分钟|分)(?:左右)?(?:的?时间)?"
    r"|没(?:有)?(?:多少|太多|什么)时间|时间(?:不多|有限|很紧|紧张|不够)|赶时间"
    r"|\b(?:i|we)(?:'ve| have|'ve got| got| only have| have only| only got)\s+(?:only\s+)?(?:about\s+)?"
    r"(?:half an hour|an hour|a few minutes|\d+\s*(?:min(?:ute)?s?|hours?|h)\b|(?:five|ten|fifteen|twenty|thirty) minutes)"
    r"|\b(?:short on|limited|not much|little) time\b|\bin a (?:hurry|rush)\b"
)
# What an upgrade changes, said beside it ("升级 vllm 版本", "upgrade the vllm version").
_VERSION_WORDS = frozenset(("版本", "版本号", "新版本", "新版", "version", "versions"))
# A task for a general assistant ("write me a python function to sort a list", "帮我写一个快排", "can
# you generate a regex for emails"): the bot writes no code; its words ("function", "代码") are no subject.
_TASK_REQUEST = re.compile(
    r"^\W*(?:(?:can|could|would|will) you\s+|please\s+|pls\s+)?(?:write|generate|create|implement|code up|draft"
    r"|compose|translate)\s+(?:me\s+|us\s+)?(?:a|an|some|the|my)\b"
    r"|^\W*(?:请|麻烦)?你?(?:帮我|给我|替我|帮忙)?\s*(?:用\s*[a-z+#]+\s*)?(?:写|编写|生成|实现|翻译)(?:一个|一段|一份|一下|个|段)"
)
# Words a request names PRs by: "write a summary of the merged PRs" is a question about them.
_ABOUT_PRS = re.compile(
    r"(?<![a-z])prs?(?![a-z])|pull request|merged|\bmerges?\b|commits?\b|changelog|release notes?|\breport\b"
    r"|summar|recap|digest|周报|合并|合入|总结|摘要|变更|改动|提交"
)
# Which module or author had the most ("哪个模块改动最多", "改动最多的模块是哪个", "which module changed the
# most", "the busiest module", "谁合并得最多", "who merged the most PRs", "the most active author").
_BUSIEST_MODULE = re.compile(
    r"哪(?:个|些)\s*模块[^，。？?]{0,8}?最|最(?:多|活跃|忙)的\s*(?:是)?(?:哪个|哪些)?\s*模块"
    r"|\bwhich (?:module|area|component)s?\b[^?.,;]{0,30}?\bmost\b"
    r"|\b(?:busiest|most active|most changed) (?:module|area|component)s?\b"
)
_BUSIEST_AUTHOR = re.compile(
    r"谁[^，。？?]{0,8}?最(?:多|活跃)|哪(?:个|位)\s*(?:作者|人|贡献者)[^，。？?]{0,8}?最|最活跃的\s*(?:是)?(?:谁|作者|人|贡献者)"
    r"|\bwho\b[^?.,;]{0,30}?\bthe most\b|\bwhich (?:author|contributor|person)s?\b[^?.,;]{0,30}?\bmost\b"
    r"|\b(?:busiest|most active|top) (?:author|contributor|person)s?\b"
)


def _busiest(text: str) -> Busiest | None:
    if _BUSIEST_MODULE.search(text):
        return "module"
    return "author" if _BUSIEST_AUTHOR.search(text) else None


# What happened in a span, asked of a bot about PRs, is about its PRs ("what happened in july", "上周发生
# 了什么"); without a span ("what happened to the weather?") it is not.
# With a window, asking what it holds: "what happened last week", "第10周有啥", "最近三天有什么新的".
_HAPPENED = re.compile(
    r"\bhappen(?:ed|ing)\b|\bgoing on\b|\banything new\b|发生了(?:什么|啥|哪些)|有什么动态|有啥(?:新的?|动静)?[?？!！。]*$"
    r"|有(?:什么|哪些)新"
)


# "列出所有修复", "全部的风险", "list all the fixes", "every PR": as many as an answer lists (LIST_MAX);
# not "所有仓库" / "all repos" / "all time", which name repos and windows.
_EVERY = re.compile(
    r"(?:所有|全部)(?!的?(?:仓库|项目|时间|repos?))"
    r"|\b(?:list|show)\s+(?:me\s+)?all\b(?!\s+(?:repos|repositories|time))"
    r"|\ball\s+(?:of\s+)?(?:the\s+)?(?:prs?|pull requests|changes|commits|fixes|bug ?fixes|features|risks|breaking changes)\b"
    r"|\bevery\s+(?:pr|pull request|change|fix|feature|risk)\b|\bfull list\b"
)


# One thing asked for by a superlative in the singular: "what's the biggest change", "the riskiest PR",
# "最大的改动是什么", "最重要的 PR 是哪个", "哪个 PR 最重要", "which trl PR was the most important"; not
# "the biggest changes", "最重要的 PR 有哪些", "which PRs were the most important".
_THE_ONE = re.compile(
    r"\b(?:the|its|their|[\w-]+'s) (?:single )?(?:biggest|largest|riskiest|top|most (?:important|significant|risky|dangerous|interesting))"
    r" (?:change|pr|pull request|thing|risk|update|fix|feature)\b(?!s)"
    r"|最(?:大|重要|关键|危险|值得(?:关注|一读|读))的\s*(?:一个)?\s*(?:改动|变更|pr|风险|修复|功能|更新)?"
    r"(?=\s*(?:是(?:什么|哪个|哪一个|哪条)|是啥)|\s*[?？]?\s*$)"
    r"|最[^，。？?！!]{0,12}?(?:的)?是哪(?:个|条|篇|一个)(?!些)|哪(?:个|条|篇)\s*(?:pr\s*)?最"
    # which one to start with: "先读哪个 PR 比较好", "从哪个开始看", "第一个该看哪篇"
    r"|先(?:读|看)哪(?:个|一个|篇|条)|从哪(?:个|一个|篇)\s*(?:pr)?(?:\s|开始)*(?:看|读)|(?:第一个|首先)(?:该|应该)?(?:读|看)哪"
    r"|\bwhich (?:[\w./-]+ ){0,2}?(?:pr|change|pull request|one)\b(?!s)[^?.,;]{0,30}?\b(?:the (?:most|biggest)|first)\b"
    # one asked for by its count alone: "给我一个就行", "推荐一个", "the one PR I should read", "just one PR"
    r"|(?:给我|推荐|挑|选|只要|来|说)\s*一\s*(?:个|篇|条)(?!月)|一个就(?:行|好|够)"
    r"|\bthe one (?:[\w./-]+ ){0,2}?(?:pr|change|pull request)\b(?!s)|\b(?:just|only|a single) (?:one )?(?:pr|change)\b(?!s)"
)
# It asks why ("为什么", "说说理由", "and why?"): a single PR's answer says why from its analysis.
_WHY = re.compile(
    r"为什么|为啥|为何|(?:说说|讲讲|给个|给出|有什么|说一下)?(?:理由|原因)|\bwhy\b|\bhow come\b|\bthe reasons?\b"
)


# "最重要的几个 PR", "挑几个值得看的", "a few important PRs", "a couple of PRs worth reading": a short ranked
# list (FEW, COUPLE), not a count ("合并了几个 PR" asks how many).
_FEW = re.compile(
    r"(?:最近的?|最新的?|最后的?|最[^，。？?！!\s]{0,8}?的|挑|选|推荐|列|给我|说说?|来|看看?|讲讲?)\s*(?:一)?(?:几|一些|两三|三五)\s*(?:个|条|篇|项)"
    r"|(?<![有了共少多])几\s*(?:个|条|篇|项)\s*(?=(?:最|比较|特别|很|挺|真正)?(?:值得|重要|关键|主要|核心|有意思|有趣|大的|好的|典型|亮点))"
    r"|\b(a few|a couple(?: of)?|several|a handful of)\b(?!\s*(?:more\s+)?(?:days?|weeks?|months?|hours?)\b)"
)


# The newest merges ("最新合并的 PR 是哪个", "最后合并的几个", "the latest PRs", "what was merged most
# recently"): listed newest first; asked in the singular, the one.
_LATEST = re.compile(
    r"最新(?:合并|合入|提交)?的|最后(?:一个|一次)?(?:合并|合入)的|刚刚?(?:合并|合入)的|(?:最近|最新|最后)的?几(?:个|条)"
    r"|\b(?:latest|newest|most recent)\s+(?:\d{1,2}\s+|(?:one|two|three|four|five|six|seven|eight|nine|ten)\s+)?(?:merged\s+)?(?:prs?|pull requests?|merges?|changes?)\b"
    r"|\blast\s+(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:merged\s+)?(?:prs?|pull requests?|merges?)\b"
    r"|(?:最近|最新|最后)的?\s*(?:\d{1,2}|[一二两三四五六七八九十]+)\s*(?:个|条)\s*(?:合并的?|合入的?)?\s*(?:pr|改动|提交|合并)"
    r"|\blast\s+(?:merged\s+)?(?:prs?|pull requests?)\b|\bmerged\s+most\s+recently\b|\blast (?:one|pr) merged\b"
)
_LATEST_ONE = re.compile(
    r"是哪(?:个|一个|条)|是什么|\b(?:the|which) (?:latest|newest|most recent|last) (?:merged )?(?:pr|pull request|change)\b(?!s)"
    r"|\bwhat was (?:the )?(?:last|latest)\b|\bwhich (?:pr|one) was merged most recently\b"
)


def _limit(text: str) -> tuple[int | None, list[tuple[int, int]]]:
    for m in _LIMIT.finditer(text):
        token = next((g for g in m.groups() if g), None)
        if token is None:
            continue
        value = _EN_NUMBERS.get(token) if token in _EN_NUMBERS else cn_number(token)
        if value and 1 <= value <= 50:
            return value, [m.span()]
    few = _FEW.search(text)
    if few:
        return (COUPLE if "couple" in few.group(0) else FEW), [few.span()]
    every = _EVERY.search(text)
    if every:
        return LIST_MAX, [every.span()]
    one = _THE_ONE.search(text)
    if one:
        return 1, [one.span()]
    return None, []


def _used_by_the_index(terms: Sequence[str], context: ParseContext) -> bool:
    """Whether most of a question's content words are words the index uses (a PR title's, or one some
    PR of the channel's repo, or of any indexed repo without one, uses as a word): "what's the status
    of transfer queue work" is about the repo; "how do I cook rice", "今天天气怎么样", "tell me a joke" are
    not, whatever a title or a cookbook holds. In a channel with a repo one such word suffices. A
    question of no content words is about the channel's repo when there is one."""
    if not terms:
        return context.default_repo is not None
    used = sum(
        1
        for term in terms
        if (context.title_word is not None and context.title_word(term))
        or _title_typo(term, context)
        or (context.mentioned is not None and context.mentioned(term))
    )
    # in a channel's repo one word it uses will do ("anythign on tokenzier offsets?"); across the index,
    # most of them ("weather in shanghai": some PR names a lab in Shanghai)
    return used > 0 if context.default_repo is not None else 2 * used > len(terms)


def _title_typo(term: str, context: ParseContext) -> bool:
    return (
        context.title_typo is not None
        and term.isascii()
        and not is_english_word(term)
        and context.title_typo(term)
    )


# Where a question asking two things splits ("上周合并了多少 PR，哪些最重要？", "how many PRs merged in July
# and which were the most important?"): a clause mark, or "and" before a question word; the joining
# word that opens the second clause is dropped.
_CLAUSE_BREAK = re.compile(
    r"[，,；;？?。!！]+|\s+(?=(?:and|also|plus)\s+(?:which|what|who|how|where|any|list|show|name)\b)"
)
_CLAUSE_JOINER = re.compile(r"^\s*(?:and|also|plus|另外|还有|以及|并且|同时|那(?![些个])|都)\s*")


def clauses(text: str) -> list[str]:
    """The question's clauses, each with what it asks (empty ones dropped)."""
    parts = (_CLAUSE_JOINER.sub("", part).strip() for part in _CLAUSE_BREAK.split(text))
    return [part for part in parts if part]


def parse_query(text: str, context: ParseContext) -> Query:
    """The Query a question asks. Never raises: odd input becomes intent "unknown" with low confidence.

    Slots are found first — PR, paths, repo, window, limit, breaking, author, modules, glossary concepts,
    intent — and each found slot is blanked out of the text; the content words that remain are search
    terms, never dropped."""
    raw = text[:2000]
    norm = _respell_window_words(normalize(raw), context)
    asked_language, language_spans = answer_language(norm)
    language = asked_language or language_of(raw)
    norm = _blank(norm, language_spans)
    subscribed = names_subscribed_repos(norm)
    norm = _SUBSCRIBED.sub(_spaces, norm)
    every_repo = bool(_EVERY_REPO.search(norm))
    norm = _EVERY_REPO.sub(_spaces, norm)
    # "我只有半小时": how long the asker can read, no window and no search word
    short_of_time = bool(_TIME_BUDGET.search(norm))
    norm = _TIME_BUDGET.sub(_spaces, norm)
    pr_number, url_repo = _pr(norm)
    listed = _listed_prs(norm, pr_number)
    pr_number, more_prs = (listed[0], listed[1:]) if listed else (None, ())
    path_spans, path_repo = _paths(norm, context)
    without_paths = _blank(norm, (span for _, span in path_spans))
    repo, unknown_repo, repo_confidence = _repo(without_paths, context, url_repo)
    # Several repos named ("openrlhf vs axolotl 谁更活跃", "trl 和 torchtune 本周的风险"): answered across
    # them; a repo name that is also a module name ("verl 的 sglang rollout") is the module.
    plain_text = _without_repo_references(without_paths, context)
    compared = [
        r
        for r in _repos_named(plain_text, context)
        if not any(name.lower() in context.modules for name in r.names)
        or any(_joined_name(name.lower()).search(plain_text) for name in r.names)
    ]
    if len(compared) >= 2 and url_repo is None:
        repo, every_repo = None, True
    else:
        compared = []
    if repo is None and unknown_repo is None and path_repo is not None:
        repo = path_repo.lower()
    repo_words = _repo_words(context, repo, without_paths)
    window = _window_in_known_years(without_paths, context)
    keys_named = config_keys_named(without_paths)
    names_a_key = bool(keys_named)
    all_time = window is None and bool(names_a_key or _ALL_TIME.search(without_paths))
    rest = _without_repo_references(without_paths, context)
    limit, limit_spans = _limit(_blank_windows(rest))
    latest = bool(_LATEST.search(rest))
    few = _FEW.search(rest)
    if latest and limit is None and few:  # "最近几个 PR": the window word is also the few's
        limit, limit_spans = FEW, [few.span()]
    elif latest and limit is None and _LATEST_ONE.search(rest):
        limit = 1
    breaking = bool(_BREAKING.search(rest))
    # "critical risks": its qualifier is no search word, nor a typo of a module ("critic")
    severity, severity_spans = _severity(rest)
    rest = _blank(rest, severity_spans)
    per_day = bool(_PER_DAY.search(rest))
    rest = _PER_DAY.sub(_spaces, rest)
    for compat in list(_BREAKS_COMPATIBILITY.finditer(rest)):
        breaking = True
        verb, word = ("verb", "compat") if compat.group("verb") else ("verb_en", "compat_en")
        rest = _blank(rest, (compat.span(verb), compat.span(word)))
    rest = _ANY_ABOUT_TESTS.sub(_spaces, rest)
    untested = bool(_UNTESTED.search(rest))
    rest = _UNTESTED.sub(_spaces, rest)
    semantics = bool(_SEMANTICS.search(rest))
    rest = _SEMANTICS.sub(_spaces, rest)
    review, reviewer, rest = _review_question(rest, context, repo_words)
    newcomers = bool(_NEWCOMERS.search(rest))
    contributors = bool(_CONTRIBUTORS.search(rest))
    maintainers = newcomers or contributors or bool(_MAINTAINERS.search(rest)) or review == "reviewers"
    for pattern in (
        _NEWCOMERS,
        _MAINTAINERS,
        *((_CONTRIBUTOR_WORDS,) if contributors else ()),
        _MAGNITUDE,
        _FORMAT,
        _WHY,
    ):
        rest = pattern.sub(_spaces, rest)
    upgrade = bool(_UPGRADE_IMPACT.search(rest))
    if upgrade:
        rest = _blank(rest, (m.span(1) for m in _OUR_SETUP.finditer(rest)))
    # "queue.capacity": one key, not the module "queue" beside it
    unkeyed = _blank(rest, (span for _, span in config_keys_named(rest)))
    modules, module_confidence, module_words = _modules(unkeyed, context, repo_words)
    if upgrade:  # "upgrading to the latest release": no module called "release"
        modules = tuple(m for m in modules if m not in _UPGRADE_WORDS)
        module_words = {w for w in module_words if w not in _UPGRADE_WORDS}
    concepts = default_glossary().find(_UPGRADE_IMPACT.sub(_spaces, _BREAKING.sub(_spaces, rest)), repo)
    concepts, specific = _unqualified(rest, concepts)
    if specific:
        # its "model" is no module either ("models" of "local model support"): it would keep only the PRs
        # under the module
        modules = tuple(m for m in modules if m not in _BROAD_SUBJECTS)
    if upgrade:
        # "升级会不会挂", "what breaks when we upgrade": the framing of an upgrade question, not its subject.
        concepts = [(name, spans) for name, spans in concepts if name not in _UPGRADE_FRAMING]
    # "What's the default of --max-inflight?": its default is what is asked about the key, no second subject
    # a PR must also mention.
    aspect: list[tuple[int, int]] = []
    if names_a_key:
        said = [
            (name, spans, all(_CONFIG_WORDS.search(rest[a:b]) for a, b in spans)) for name, spans in concepts
        ]
        aspect = [span for _, spans, framing in said if framing for span in spans]
        aspect += [m.span() for m in _CONFIG_WORDS.finditer(rest)]  # "改成多少", "what is it set to"
        concepts = [(name, spans) for name, spans, framing in said if not framing]
    # A module named only inside a longer glossary phrase ("new model support" in a repo with a `model`
    # module) is the phrase's concept, not the module as well.
    phrases = [span for _, spans in concepts for span in spans]
    inside = {
        word
        for word in module_words & set(modules)
        if all(
            any(start <= m.start() and m.end() <= end and end - start > len(word) for start, end in phrases)
            for m in _word(word).finditer(rest)
        )
    }
    modules = tuple(m for m in modules if m not in inside)
    module_words -= inside
    topics = tuple(name for name, _ in concepts)
    change_types = tuple(
        name
        for name, pattern in _CHANGE_TYPES
        if pattern.search(rest) and not (name == "feat" and _adds_a_thing(rest, pattern, concepts))
    )
    if change_types == ("fix",) and topics and set(topics) <= _DEFECTS:
        # "安全相关的修复", "memory leak fixes": every PR about a vulnerability or a leak mends one, whatever
        # type its analysis gave it ("Security: reject tokens…" reads as a feature)
        change_types = ()
    if _bare_improvement(rest, phrases, module_words):
        change_types = tuple(dict.fromkeys((*change_types, *_IMPROVEMENT_TYPES)))
    author = _author(rest, context, repo_words, module_words)
    if author is None and review is None:
        # "what did erin do this week" of someone who only reviewed: the PRs they reviewed
        reviewed = _reviewer_only(rest, context, repo_words | module_words | set(context.modules))
        if reviewed is not None:
            (review, reviewer), rest = ("by", reviewed[0]), _blank(rest, (reviewed[1],))
    people = _people(rest, context, repo_words | module_words | set(context.modules))
    if people:
        author = people[0]

    # "哪个模块改动最大" asks for the busiest module (statistics), not the largest PRs
    ordered = _MODULE_MOST.sub(_spaces, rest)
    order: Order | None = (
        "size" if _BY_SIZE.search(ordered) else "open" if _LONGEST_OPEN.search(ordered) else None
    )
    rest = _LONGEST_OPEN.sub(_spaces, _BY_SIZE.sub(_spaces, ordered) if order else rest)
    # "which month had more PRs, april or may": two spans compared, words the versus reading blanks
    spans_compared = bool(_COMPARE.search(rest))
    versus = bool(_WHICH_MORE.search(rest))
    if versus:
        rest = _WHICH_MORE.sub(_spaces, rest)
    intent: Intent | None = None
    confidence = min(repo_confidence, module_confidence)
    # "最重要的几个" (or "改动最大的几个", "最近几个") asks for a few, not how many: the words that asked for a
    # count ask for no statistics.
    asked = _blank(rest, limit_spans) if limit is not None and (order is not None or few) else rest
    matched = {name for name, pattern in _INTENT_RULES if pattern.search(asked)} | (
        {"risks"} if upgrade else set()
    )
    if spans_compared:
        matched.add("compare")
    if "help" in matched and len(norm) <= 40:
        intent = "help"
    elif pr_number is not None:
        intent = "pr"
    else:
        ranked: tuple[Intent, ...] = ("report", "compare", "stats", "risks", "must_read")
        intent = next((name for name in ranked if name in matched), None)
        if intent == "report" and ("risks" in matched or "must_read" in matched):
            intent = "risks" if "risks" in matched else "must_read"  # "周报里的风险" asks for the risks

    if severity is not None and intent in (None, "stats"):
        intent = "risks"  # "高危改动", "anything severe this week", "有几个高风险": the risks, counted
    if short_of_time and intent not in ("help", "pr", "report", "compare"):
        # a short reading list: the must-reads first, a few ("我只有半小时，这周先看哪几个")
        intent = intent if intent == "risks" else "must_read"
        limit = limit if limit is not None and limit <= FEW else COUPLE
    if per_day and intent not in ("help", "pr", "report", "compare"):
        intent = "stats"  # "平均每天几个", "average PRs per day": a count over the days
    baseline = None
    if intent == "compare":
        window, baseline = _two_months(without_paths, context.now, context.tz) or (
            _after_a_baseline(without_paths, _compared_month(window), context.now),
            None,
        )
    # What no slot placed is searched: blank every slot out and keep the content words.
    own_repo = {
        n.lower()
        for r in context.repos
        if r.full_name == repo or r in compared
        for n in (*r.names, r.full_name)
    }
    # breaking words before the windows' ("may break": its "may" is no month, but the window words blank it)
    slots = _blank_windows(_blank_pattern(_blank(rest, limit_spans), _BREAKING))
    slots = _blank(slots, [*(span for _, spans in concepts for span in spans), *aspect])
    for person in people or ((author,) if author else ()):
        login = re.escape(person.removesuffix("[bot]"))
        slots = _blank_pattern(slots, re.compile(rf"(?<![a-z0-9_-]){login}(?:\[bot\])?"))
    for pattern in (_PR_REFERENCES, _CHANGE_TYPE_WORDS, *(p for _, p in _INTENT_RULES)):
        slots = _blank_pattern(slots, pattern)
    skip = own_repo | module_words | set(modules) | {author or ""} | _INTENT_WORDS
    content = [
        (w, span)
        for w, span in _content_words(slots, skip)
        if not _mistyped_stop_word(w, context) and not _short_stop_typo(w, context)
    ]
    typed = [(name, m.span()) for name, pattern in _CHANGE_TYPES for m in pattern.finditer(rest)]
    chain = _alternatives(rest, concepts, content, module_words & set(modules), typed)
    # A change type offered as one alternative ("修复或者显存相关", "fixes or docs changes"): a PR of that
    # type matches as one about the other alternatives does.
    alternative_types = tuple(dict.fromkeys(key for kind, key, _ in chain if kind == "type"))
    change_types = tuple(t for t in change_types if t not in alternative_types)
    if chain:
        # A module offered as one alternative among words ("vllm 和 deepspeed 相关") is searched as a word.
        chained_modules = {key for kind, key, _ in chain if kind == "module"}
        modules = tuple(m for m in modules if m not in chained_modules)
        content += [(key, span) for kind, key, span in chain if kind == "module"]
        content.sort(key=lambda pair: pair[1])
    if upgrade:
        content = [(word, span) for word, span in content if word not in _UPGRADE_WORDS]
    chained = {key for _, key, _ in chain}
    if topics or modules or path_spans or any(w not in _BROAD_SUBJECTS for w, _ in content):
        # "multi-node training", "多机训练", "Qwen model support": the broad word is what nearly every PR
        # of such a repo is about; the narrower subject beside it says what the question asks.
        content = [(w, span) for w, span in content if w not in _BROAD_SUBJECTS or w in chained]
    if topics or modules or path_spans or any(w not in _GENERIC_PARTS for w, _ in content):
        content = [(w, span) for w, span in content if w not in _GENERIC_PARTS or w in chained]
    if "upgrade" in topics:
        # "升级 vllm 版本", "bump the vllm version": the version is what an upgrade changes, no subject
        content = [(w, span) for w, span in content if w not in _VERSION_WORDS]
    terms = tuple(dict.fromkeys(word for word, _ in content))
    alternatives = tuple(dict.fromkeys(key for kind, key, _ in chain if kind != "type"))
    # Each alternative as written; two of them may name one concept ("TLS or certificate").
    written: dict[str, list[str]] = {}
    for _, key, span in chain:
        written.setdefault(key, []).append(_as_written(raw, norm, span))
    either = (
        join_either([w for key in (*alternative_types, *alternatives) for w in written[key]], language)
        if chain
        else None
    )
    understood_words: list[str] = []
    for key, spans in [*concepts, *((word, [span]) for word, span in content)]:
        understood_words.append(either if key in written and either else _as_written(raw, norm, min(spans)))
    understood = tuple(dict.fromkeys(understood_words))
    paths = tuple(dict.fromkeys(path for path, _ in path_spans))

    if intent is None:
        if author and not (modules or terms or topics or paths):
            intent = "author"
        elif "search" in matched:
            intent = "search"
        elif (
            modules
            or topics
            or terms
            or paths
            or breaking
            or untested
            or semantics
            or (change_types and "highlights" not in matched)
        ):
            intent = "topic"
        elif "highlights" in matched:
            intent = "highlights"
        elif (
            repo or window or latest or maintainers or order or limit is not None
        ):  # "谁写的最多", "改动最大的", "the top two PRs": of the repo in mind
            intent, confidence = "highlights", min(confidence, 0.6)
        else:
            intent, confidence = "unknown", 0.2
    if review is not None and intent in ("topic", "highlights", "search", "author", "unknown"):
        # "谁审的 PR 最多", "哪些 PR 没有 review", "what did bob review": the window's reviews answer
        intent, confidence = ("topic" if modules or topics or terms or paths else "highlights"), 1.0
    if intent == "topic" and not matched and any(_HAN.match(t) for t in terms):
        # Chinese words no slot, glossary entry or intent word placed ("训练后端出了啥幺蛾子"): searched
        # as they are, but an LLM, when configured, may read the question better.
        confidence = min(confidence, 0.45)
    named_repo = repo is not None or unknown_repo is not None
    repo_named = repo is not None
    if _GREETING.match(norm) or (
        intent in ("highlights", "topic", "search")
        and not named_repo
        and not (
            modules
            or topics
            or paths
            or author
            or subscribed
            or maintainers
            or review
            or order
            or breaking
            or untested
            or semantics
            or limit is not None  # "which one is the most important": a superlative of PRs
            or names_a_key  # "what's the default of --max-inflight?": a key is what PRs change
            or _DOMAIN.search(rest)
            or (window is not None and _HAPPENED.search(rest))
            or _AUDIENCE.search(norm)
        )
        and not _used_by_the_index(terms, context)
    ):
        intent, confidence = "unknown", 0.2  # weather, greetings: say what the bot does
    if (
        _TASK_REQUEST.search(norm)
        and not _ABOUT_PRS.search(norm)
        and not (pr_number or paths or window or named_repo or author)
    ):
        intent, confidence = "unknown", 0.2  # a task for a general assistant: say what the bot does

    if repo is None and unknown_repo is None and intent not in ("help", "unknown"):
        repo = None if every_repo and len(context.repos) > 1 else context.default_repo
        if repo is None and len(context.repos) == 1:
            repo = context.repos[0].full_name
    elif repo is None and unknown_repo is None:
        repo = context.default_repo  # help and greetings give examples about the channel's repo
    candidates = tuple(r.full_name for r in (compared or context.repos)) if repo is None else ()
    # A comparison sets two subjects or more side by side; a person named among them is one of them.
    if versus and author and intent not in ("pr", "help"):
        terms, author, people = (*(people or (author,)), *terms), None, ()
    versus = versus and len(modules) + len(topics) + len(terms) >= 2
    return Query(
        text=raw,
        language=language,
        intent=intent,
        repo=repo,
        repo_named=repo_named,
        unknown_repo=unknown_repo,
        repo_candidates=candidates,
        window=window,
        window_named=window is not None,
        all_time=all_time,
        config_keys=tuple(dict.fromkeys(key for key, _ in keys_named))
        if intent not in ("pr", "help")
        else (),
        vague_window=window is not None
        and window == _recently(context.now, context.tz)
        and not _LAST_N.search(without_paths),  # "最近 7 天" is no vague "最近"
        pr_number=pr_number,
        more_prs=more_prs if intent == "pr" else (),
        modules=modules,
        topics=topics,
        change_types=change_types,
        author=author if intent in _AUTHOR_FILTERED else None,
        search_text=" ".join(understood) or None,
        terms=terms if intent not in ("pr", "help") else (),
        understood=understood + paths if intent not in ("pr", "help") else (),
        alternatives=alternatives if intent not in ("pr", "help") else (),
        alternative_types=alternative_types if intent not in ("pr", "help") else (),
        upgrade=intent == "risks" and upgrade,
        authors=people if intent in _AUTHOR_FILTERED else (),
        asks_when=bool(_ASKS_WHEN.search(norm)),
        asks_why=bool(_WHY.search(norm)),
        paths=paths,
        limit=limit,
        breaking=breaking,
        severity=severity if intent == "risks" else None,
        must_read_only=intent == "must_read" and bool(_MUST_READ_ONLY.search(norm)),
        baseline=baseline,
        per_day=per_day and intent == "stats",
        untested=untested,
        semantics=semantics,
        asks_who=maintainers or bool(_ASKS_WHO.search(norm)),
        maintainers=maintainers,
        newcomers=newcomers,
        review=review if intent not in ("pr", "help", "report", "unknown") else None,
        reviewer=reviewer if review == "by" and intent not in ("pr", "help", "report", "unknown") else None,
        asks_files=bool(_ASKS_FILES.search(norm)),
        busiest=_busiest(norm),
        asks_risks=intent == "pr" and "risks" in matched,
        order=order or ("newest" if latest else None),
        versus=versus,
        subscribed=subscribed,
        every_repo=every_repo and repo is None,
        confidence=confidence,
    )


# "谁在改 megatron", "who worked on the rollout": the answer's lines name each PR's author.
# Asking who looks after a part of the code ("谁在维护 dataloader", "X 归谁管", "who maintains X"): the
# people who worked on it are the answer, and the words are not searched.
_MAINTAINERS = re.compile(
    r"维护者?|维护人|归谁管|谁(?:在)?(?:管|负责)|负责人|负责的人|主要贡献者|owner"
    r"|\bmaintain(?:s|ed|ers?|ing)?\b|\bowns?\b|\bowners?\b|\bownership\b|\bin charge of\b"
    r"|\bresponsible for\b|\bexperts? (?:on|in|for)\b"
    r"|\bwho(?:'s| is| are| has been| have been)? work(?:s|ing|ed)? on\b|谁(?:一直)?在(?:做|搞|负责|跟进)"
)
# Asking how large an effect was ("提升了多少", "快了多少", "how much faster"): the PRs' key points carry
# their measured numbers, so this is no count question and its words are not searched.
_MAGNITUDE = re.compile(
    r"(?:提升|提高|加速|加快|快|慢|降低|减少|节省|节约|省|下降|涨|增加|优化|改善)了?(?:大概|大约|约|有)?多少"
    r"|(?:效果|收益|幅度)(?:有)?(?:多大|怎么样|如何)"
    # "升到多少了", "升级到哪个版本": "升到" names the dependency concept, the rest asks for its version
    r"|(?<=到)了?(?:哪个版本|哪一版|哪版|多少|几)|(?<=\bto) (?:what|which)(?: version)?\b"
    r"|\bhow much (?:faster|slower|better|less|more|memory|speed\w*|improv\w*|gains?|quicker)\b"
    r"|\bby how much\b|\bhow big (?:was |is )?the (?:gain|improvement|speed-?up)\b"
)
# Asking who contributed the most ("谁贡献最多", "谁合并的 PR 最多", "who contributed the most",
# "top contributors"): the same answer, the people ranked by merged PRs, rather than the window's stats.
_CONTRIBUTORS = re.compile(
    r"贡献(?:最多|最大|排行|排名|榜)|(?:主要|最活跃的|活跃的?)贡献者|贡献者(?:排行|排名|榜)?"
    r"|谁[^，。？?！!]{0,16}最(?:多|活跃|勤快|积极)|最活跃的(?:人|作者|开发者|同学)"
    r"|\bcontribut\w*\b[^,.?!]{0,24}\bmost\b|\bmost (?:active )?(?:contributors?|authors?|developers?|people)\b"
    r"|\btop (?:\d+ |two |three |five |ten )?(?:authors|contributors|committers|people)\b"
    r"|\bwho\b[^,.?!]{0,30}\bthe most\b|\bcontributors?\b"
)
# Asking about first-time contributors ("有新人吗", "新贡献者", "第一次提交 PR 的人", "new contributors").
# What is blanked of such a question: not the span between "谁" and "最多", which may name a subject
# ("谁改 megatron 最多").
_CONTRIBUTOR_WORDS = re.compile(
    r"贡献者?(?:最多|最大|排行|排名|榜)?|(?:主要|最活跃的|活跃的?)|最(?:多|活跃|勤快|积极)|最活跃的(?:人|作者|开发者|同学)"
    r"|写的?|提交的?|提的|合并的|\b(?:wrote|written|authored|submitted|opened|merged|landed|sent|made)\b"
    r"|\bcontribut\w*|\bmost (?:active )?(?:authors?|developers?|people)\b|\bmost active\b|\bbusiest\b|\bthe most\b|\btop (?:authors|committers)\b"
)
_NEWCOMERS = re.compile(
    r"新人(?:贡献|提交)?|新面孔|新(?:的)?(?:贡献者|作者|开发者)|(?:第一次|首次|头一次)(?:提交|贡献|提|发|合并)"
    r"|\bfirst[- ]time(?: contributors?| authors?)?\b|\bnew (?:contributors?|authors?|faces|people)\b"
    r"|\bnewcomers?\b|\bfirst (?:prs?|pull requests?|contributions?)\b"
)
# Asking for the largest PRs by lines changed, not the most important: "改动最大的 PR", "哪些 PR 改动最大",
# "改了多少行", "代码量最大", "biggest PRs", "largest diffs", "most lines changed".
_BY_SIZE = re.compile(
    r"改动(?:量|行数)?最(?:大|多)|(?:改动|代码)(?:量|行数)(?:最大|最多)?|改了多少行|多少行(?:代码)?|行数最多|最大的\s*pr"
    r"|\b(?:biggest|largest|huge|hugest) (?:prs?|pull requests?|diffs?|ones)\b|\b(?:most|how many) lines\b"
    r"|最大的(?:几个|那几个|那个|一个|是哪几个)"
    r"|\blines? (?:changed|of code)\b|\bby (?:size|lines changed|diff size)\b|\bdiff size\b"
)
# Asking for the PRs open longest before they merged: "等了最久的 PR", "拖得最久", "open the longest".
_LONGEST_OPEN = re.compile(
    r"(?:等|拖|挂|开|放|review|评审)了?(?:得)?最久|最久(?:才)?(?:被)?合并|(?:等待|评审|review)时间最长"
    r"|\b(?:open|opened|waiting|pending|in review)(?: for)? the longest\b|\blongest[- ](?:open|running|waiting|lived)\b"
    r"|\btook the longest to (?:merge|land|review)\b|\boldest (?:prs?|pull requests?)\b"
)
# "A 和 B 哪个改动多", "which had more PRs, A or B?": counts side by side (with two subjects or more).
_WHICH_MORE = re.compile(
    r"哪(?:个|一个|边|一边|方|方面|家)(?:的)?\s*(?:改动|变化|变更|pr|提交|更新|改|动|变)?(?:得|的)?(?:更|比较)?(?:多|活跃|频繁|忙)"
    r"|谁(?:的)?\s*(?:改动|pr|提交|改|动)?(?:得|的)?\s*(?:更|比较)多|(?:改动|pr|提交)\s*(?:哪个|谁)(?:更)?多"
    r"|\bwhich (?:one |of (?:them|the two|these) )?(?:has|had|got|saw|gets|sees|received) (?:more|the most)\b"
    r"|\bwhich (?:one |of (?:them|the two|these) )?(?:is|was) (?:more active|busier|changing more)\b"
    r"|\bwhich (?:one |of (?:them|the two|these) )?(?:changed|moved|grew) (?:more|the most)\b"
    r"|\bmore (?:changes|prs|activity|work)(?: in)?\b[^?]{0,30}\bor\b"
    r"|\bwho (?:has |had )?(?:merged|landed|contributed|wrote|authored|made|did|sent|opened|shipped) more\b"
)
_ASKS_FILES = re.compile(
    r"(?:哪些|什么|哪几个|哪个)(?:代码)?文件|文件(?:列表|清单)|改动的文件|改了哪(?:些|里)"
    r"|\b(?:which|what) (?:source )?files\b|\bfiles? (?:changed|touched|modified|it changed|did it)\b"
    r"|\bchanged files\b|\btouch(?:ed|es)? which\b|\bwhere (?:in the code|did it change)\b"
)
# "REINFORCE++ 是什么时候加的", "when was ring attention added": each PR's line says when it was merged.
_ASKS_WHEN = re.compile(r"什么时候|啥时候|何时|哪天|几号|\bwhen (?:was|were|did|has|have)\b|\bwhat date\b")
_ASKS_WHO = re.compile(r"谁|哪些人|哪位|哪个人|\bwho\b|\bwhom\b|\bwhich (?:authors|people|contributors)\b")


_PR_REFERENCES = re.compile(r"#\d+|\bpr\s*#?\d+|\d{3,7}")
_CHANGE_TYPE_WORDS = re.compile(
    "|".join(pattern.pattern for pattern in (*(p for _, p in _CHANGE_TYPES), _IMPROVEMENT))
)
_INTENT_WORDS = frozenset(
    [
        "report",
        "weekly",
        "summary",
        "summarize",
        "summarise",
        "overview",
        "recap",
        "highlights",
        "highlight",
        "changes",
        "change",
        "changed",
        "risks",
        "risky",
        "risk",
        "danger",
        "dangerous",
        "concern",
        "concerns",
        "compare",
        "compared",
        "comparison",
        "versus",
        "vs",
        "stats",
        "statistics",
        "count",
        "number",
        "many",
        "much",
        "busiest",
        "active",
        "search",
        "find",
        "look",
        "help",
        "usage",
        "must",
        "read",
        "worth",
        "close",
        "careful",
        "happened",
        "happen",
        "going",
        "new",
        "what's",
        "whats",
    ]
)


# What joins alternatives ("显存或者性能", "memory or performance", "vllm 和 deepspeed", "A、B 或 C"), with the
# words that may trail each one ("显存相关的或者性能相关的", "memory-related or perf issues").
_JOIN_FILLER = r"(?:\s|相关的?|有关的?|方面的?|的|-?related|specific|issues?|问题|bugs?|changes?|改动|prs?|stuff|things?)*"
_JOINED = re.compile(
    rf"{_JOIN_FILLER}(?:(或者|或是|或|还是|\bor\b|/|\|)|(和|与|跟|及|以及|\band\b|&|、|,|，|\bplus\b)){_JOIN_FILLER}"
)
# "both X and Y", "同时涉及 X 和 Y": each still required.
_BOTH = re.compile(r"\bboth\b|同时|既|都涉及|都有关")


def _alternatives(
    text: str,
    concepts: Sequence[tuple[str, list[tuple[int, int]]]],
    content: Sequence[tuple[str, tuple[int, int]]],
    module_words: Iterable[str],
    types: Sequence[tuple[str, tuple[int, int]]] = (),
) -> list[tuple[str, str, tuple[int, int]]]:
    """The subjects of `text` that are joined as alternatives: concepts, search terms, modules and change
    types (kind, key, span) next to each other with only "or" / "and" / a list separator between them.
    Empty when no two are joined, or all joined ones are modules or all change types (their filters
    already take any of them)."""
    items = [("topic", name, span) for name, spans in concepts for span in spans]
    items += [("term", word, span) for word, span in content]
    items += [("type", name, span) for name, span in types]
    items += [("module", word, m.span()) for word in module_words for m in _word(word).finditer(text)]
    items.sort(key=lambda item: item[2])
    both = bool(_BOTH.search(text))
    linked: list[tuple[str, str, tuple[int, int]]] = []
    for before, after in pairwise(items):
        join = _JOINED.fullmatch(text[before[2][1] : after[2][0]])
        if join is None or (both and join.group(2)):
            continue
        linked += [item for item in (before, after) if item not in linked]
    kinds = {kind for kind, _, _ in linked}
    if kinds <= {"module"} or kinds <= {"type"}:
        return []
    return linked


def _blank_windows(text: str) -> str:
    for pattern in _WINDOW_PATTERNS:
        text = _blank_pattern(text, pattern)
    return text


# Reviews ------------------------------------------------------------------------------------------

# A word for reviewing ("review", "评审", "审查", "审的"), not how long a review took ("review 时间",
# "time to review", "in review": statistics and the order of PRs open longest read those).
_REVIEW_WORD = (
    r"(?:(?<![a-z])(?:code[ -]?)?review(?:ed|s|ing|ers?)?(?![a-z])|(?<![a-z])approv(?:ed|als?|e|es|ing)(?![a-z])"
    r"|评审|审查|审核|审阅|审批|审(?=[过了的])|(?<=[在谁])审(?![计美]))"
)
_REVIEW_TIME = re.compile(
    r"(?:review|评审|审核|审查)\s*(?:的)?\s*(?:时间|耗时|周期|多久|速度)|\btime to (?:merge|review)\b|\breview (?:time|speed)\b"
    r"|\b(?:in|under|awaiting|pending) review\b|\bbe(?:ing)? reviewed\b|(?:等|拖|挂|开|放|review|评审)了?(?:得)?最久"
)
# Merged with nobody's review: "没有经过 review 就合并了", "无人审查的 PR", "未经评审", "merged without review",
# "unreviewed PRs", "no reviews", "nobody reviewed".
_UNREVIEWED = re.compile(
    r"(?:没有?|未|无|不|跳过|缺少?|缺乏)\s*(?:人|任何人|经过?|被|有人|走|做|进行|任何)?\s*(?:任何人?)?\s*(?:人)?\s*"
    + _REVIEW_WORD
    + r"(?:过|的|者|人)?(?:\s*(?:就|直接|便)?\s*(?:被)?\s*(?:合并|合入|merge)(?:了|的|进来)?)?"
    r"|零\s*"
    + _REVIEW_WORD
    + r"|\b(?:merged |landed )?(?:without|with no|with zero|w/o|lacking|missing|skipp(?:ed|ing))\s+"
    r"(?:any |a |an |proper |code )*(?:reviews?|reviewers?|approvals?)\b"
    r"|\bunreviewed\b|\bun-reviewed\b|\b(?:no|zero|0) (?:reviews?|reviewers?|approvals?)\b"
    r"|\b(?:not|never|nobody|no one|no-one|none) (?:been |got |was |were |ever )?(?:reviewed|approved)\b"
    r"|\b(?:didn't|did not|never) (?:get|got|receive) (?:a |any )?(?:reviews?|approvals?)\b"
    # whether every PR was reviewed ("都有人 review 吗", "were all PRs reviewed?"): answered by the ones not
    r"|都(?:有人|经过了?|被)\s*"
    + _REVIEW_WORD
    + r"|(?:是否|有没有)都\s*(?:经过|被)?\s*(?:人)?\s*"
    + _REVIEW_WORD
    + r"|\b(?:were|are|was|is|did|have|has) (?:all|every|each)(?: of)?(?: the| our| them| these)?"
    r"(?: merged)?(?: prs?| pull requests?| changes?)?(?: been| get| got)? (?:reviewed|approved)\b"
)
# Asking what the reviews said ("review 里提到了什么", "what did the reviewers say about X"): the review text
# is searched as the PRs' own text, no review question.
_REVIEW_TEXT = re.compile(
    r"提到|说了?(?:什么|啥)|意见|评论|要求|建议|指出|\bsa(?:y|id|ys)\b|\bcomments?\b|\bmention\w*|\bfeedback\b"
    r"|\bpointed out\b|\b(?:asked|requested|suggested|wanted) (?:for|to|that)\b"
)
# Who reviewed the most: "谁 review 的 PR 最多", "谁审的 PR 最多", "评审最多的是谁", "top reviewers",
# "who reviewed the most PRs", "who did the most reviews", "review 排行".
_REVIEWERS = re.compile(
    r"谁[^，。？?！!]{0,12}?"
    + _REVIEW_WORD
    + r"|"
    + _REVIEW_WORD
    + r"[^，。？?！!]{0,12}?(?:最多|最勤|最积极|最活跃|排行|排名|榜)"
    r"|"
    + _REVIEW_WORD
    + r"[^，。？?！!]{0,12}?(?:是谁|有谁|哪些人|哪位)|(?:评审|审查|审核|审阅|review)\s*(?:人|者|员)"
    r"|\breviewers?\b|\bwho\b[^,.?!]{0,30}?" + _REVIEW_WORD + r"|\bmost (?:active )?(?:reviews|approvals)\b"
)
# One person's reviews, the login in group 1: "PRs reviewed by carol", "what did bob review", "bob's
# reviews", "alice review 了哪些 PR", "carol 审过的 PR", "被 dave 评审过的".
_REVIEWED_BY = (
    re.compile(r"\b(?:reviewed|approved|reviews?|approvals?) (?:by|from|of) @?" + _LOGIN),
    re.compile(r"\b(?:did|has|have|had|does) @?" + _LOGIN + r" (?:\w+ )?(?:review|approv)\w*"),
    re.compile(_LOGIN + r"'s (?:code )?(?:reviews|approvals)\b"),
    re.compile(r"@?" + _LOGIN + r" (?:has |had |have )?(?:reviewed|approved)\b"),
    re.compile(
        r"@?"
        + _LOGIN
        + r"\s*[^，。？?！!a-z]{0,10}?(?:参与|帮忙|负责|做|做了|做过)?\s*"
        + _REVIEW_WORD
        + r"\s*(?:了|过|的)"
    ),
    re.compile(r"被\s*@?" + _LOGIN + r"\s*" + _REVIEW_WORD),
    re.compile(
        r"@?"
        + _LOGIN
        + r"\s*[^，。？?！!a-z]{0,8}?(?:做|参与|给|提)了?(?:哪些|什么|多少|几个)\s*(?:pr\s*的\s*)?"
        + _REVIEW_WORD
    ),
    re.compile(r"@?" + _LOGIN + r"\s*(?:review|评审|审查|审核|审阅)\s*(?:哪些|什么|啥|了什么)"),
)
# Phrasings that fit a topic as well as a person ("erin 的 review", "erin 本周的评审", "erin's review"): one
# person's reviews only when the index knows the login, as an author or a reviewer.
_REVIEWS_OF = (
    re.compile(r"@?" + _LOGIN + r"\s*[^，。？?！!a-z]{0,10}?的\s*(?:code\s*)?" + _REVIEW_WORD),
    re.compile(_LOGIN + r"'s (?:code )?(?:review|approval)\b"),
)
_NOT_A_REVIEWER = frozenset(
    ("who", "which", "what", "pr", "prs", "the", "a", "any", "anyone", "someone", "it")
)


def _review_question(
    text: str, context: ParseContext, repo_words: set[str]
) -> tuple[ReviewQuestion | None, str | None, str]:
    """What `text` asks about reviews (`Query.review`), whose reviews when one person's, and `text` with
    the words that asked blanked (they are no search terms). A repo's name is nobody's login, and a
    name before a "谁"/"who" ("ferry 上个月谁 review 的 PR 最多") is what the question asks about, not the
    reviewer."""
    if _REVIEW_TIME.search(text) or not (re.search(_REVIEW_WORD, text) or _UNREVIEWED.search(text)):
        return None, None, text
    if _UNREVIEWED.search(text):
        return "none", None, _UNREVIEWED.sub(_spaces, text)
    if _REVIEW_TEXT.search(text):
        return None, None, text
    for pattern in _REVIEWED_BY:
        for m in pattern.finditer(text):
            name = m.group(1)
            if (
                name in _NOT_A_REVIEWER
                or name in _STOP
                or name in context.modules
                or name in repo_words
                or _NOT_A_LOGIN.fullmatch(name)
                or _ASKS_WHO.search(m.group(0)[m.end(1) - m.start() :])
            ):
                continue
            blanked = _blank(text, (m.span(),))
            return "by", name, re.sub(_REVIEW_WORD, _spaces, blanked)
    for pattern in _REVIEWS_OF:
        for m in pattern.finditer(text):
            name = m.group(1)
            if name in _NOT_A_REVIEWER or name in context.modules or not _known_person(name, context):
                continue
            blanked = _blank(text, (m.span(),))
            return "by", name, re.sub(_REVIEW_WORD, _spaces, blanked)
    if _REVIEWERS.search(text):
        asked = re.sub(_REVIEW_WORD + r"(?:人|者|员)?", _spaces, text)
        return (
            "reviewers",
            None,
            re.sub(r"\b(?:gave|give|gives|giving|left|leaves|did|does|do|done|made)\b", _spaces, asked),
        )
    return None, None, text


def _known_person(login: str, context: ParseContext) -> bool:
    """Whether the index knows `login` as a PR's author or as someone's reviewer."""
    return login in context.authors or (context.reviewer is not None and context.reviewer(login))


def _reviewer_only(
    text: str, context: ParseContext, excluded: set[str]
) -> tuple[str, tuple[int, int]] | None:
    """A person the question asks about ("what did erin do this week", "erin 最近在干什么", "erin 本周看了哪些
    PR") who wrote no indexed PR but reviewed some, and where the name stands: their reviews are what they
    did. A name standing alone counts when it is the question's one word that no PR title uses, as for
    authors' logins (the index is asked about one word, not each word of "what's the weather in
    shanghai")."""
    if context.reviewer is None or not context.authors:
        return None

    def candidate(name: str) -> bool:
        return not (
            name in context.authors
            or name in excluded
            or name in _STOP
            or name in _CONTENT_STOP
            or name in _NOT_A_REVIEWER
            or _NOT_A_LOGIN.fullmatch(name)
            or default_glossary().find(name)
        )

    shaped = [
        m for pattern in _AUTHOR_OR_TOPIC_PATTERNS for m in pattern.finditer(text) if candidate(m.group(1))
    ]
    alone = [
        m
        for m in _STANDALONE_LOGIN.finditer(text)
        if len(m.group(1)) >= MIN_STANDALONE_LOGIN
        and candidate(m.group(1))
        and context.title_word is not None
        and not context.title_word(m.group(1))
    ]
    for m in (*shaped, *(alone if len({m.group(1) for m in alone}) == 1 else ())):
        if context.reviewer(m.group(1)):
            return m.group(1), m.span(1)
    return None
    for pattern in (*_AUTHOR_OR_TOPIC_PATTERNS, _STANDALONE_LOGIN):
        for m in pattern.finditer(text):
            name = m.group(1)
            alone = pattern is _STANDALONE_LOGIN
            if alone and (
                len(name) < MIN_STANDALONE_LOGIN
                or context.title_word is None
                or context.title_word(name)
                or name in _CONTENT_STOP
            ):
                continue
            if (
                name in context.authors
                or name in excluded
                or name in _STOP
                or name in _NOT_A_REVIEWER
                or _NOT_A_LOGIN.fullmatch(name)
                or default_glossary().find(name)
            ):
                continue
            if context.reviewer(name):
                return name, m.span(1)
    return None
