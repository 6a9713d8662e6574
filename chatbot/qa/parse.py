"""Rules that turn a chat question into a Query (Chinese, English, or both mixed).

Text is NFKC-normalised first, so full-width punctuation and digits read like ASCII. Each part — PR,
repo, window, filters, intent — is found independently; what the rules cannot settle lowers
`confidence`, which lets an optional LLM parser have a go (see `chatbot/qa/llm_parse.py`).
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from chatbot.messages import Language
from chatbot.qa.query import Intent, Query, Window
from chatbot.weeks import Week

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
    "十": 10,
    "半": 0,
}
_NUM = r"(\d+|[零〇一二两俩三四五六七八九十]+)"
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
        return (self.full_name.split("/", 1)[1], *self.aliases)


@dataclass(frozen=True, slots=True)
class ParseContext:
    """What the parser knows besides the text: "now", the timezone, the indexed repos, the channel's
    repo (its subscription), and the module names the index uses."""

    now: datetime
    tz: ZoneInfo
    repos: Sequence[KnownRepo] = ()
    default_repo: str | None = None
    modules: frozenset[str] = frozenset()


# Control characters and lone surrogates (a broken client's JSON) mean nothing in a question, and no
# database accepts them in a search term.
_UNUSABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def normalize(text: str) -> str:
    """NFKC (full-width → ASCII), lower-case, control characters and lone surrogates dropped,
    whitespace squeezed."""
    text = _UNUSABLE.sub(" ", unicodedata.normalize("NFKC", _UNUSABLE.sub(" ", text)))
    return re.sub(r"\s+", " ", text).strip().lower()


def language_of(text: str) -> Language:
    """Chinese as soon as the question has Han characters, or Chinese punctuation and no Latin letters
    (`？`); else English."""
    if _HAN.search(text) or (_CJK_PUNCTUATION.search(text) and not _LATIN.search(text)):
        return "zh"
    return "en"


def cn_number(token: str) -> int | None:
    """`25`, `十五`, `二十一`, `两` as integers."""
    if token.isdigit():
        return int(token)
    if not token or any(ch not in _CN_DIGITS for ch in token):
        return None
    if "十" in token:
        tens, _, ones = token.partition("十")
        return (_CN_DIGITS[tens] if tens else 1) * 10 + (_CN_DIGITS[ones] if ones else 0)
    value = 0
    for ch in token:
        value = value * 10 + _CN_DIGITS[ch]
    return value


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    """Levenshtein distance, stopping early once it exceeds `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def _word(term: str) -> re.Pattern[str]:
    """`term` as a whole ASCII word; Han characters around it count as boundaries."""
    return re.compile(rf"(?<![a-z0-9_./-]){re.escape(term)}(?![a-z0-9_-])")


# PR ------------------------------------------------------------------------------------------------

_PR_URL = re.compile(r"github\.com/([\w.-]+)/([\w.-]+)/pull/(\d+)")
_REPO_URL = re.compile(r"github\.com/([\w.-]+)/([\w.-]+)")
_PR_REF = re.compile(r"(?:#|\bpr\s*#?|\bpull\s*#?|第\s*)(\d{1,7})(?:\s*号)?")
_PR_BARE = re.compile(
    r"(?<![\w./-])(\d{2,7})(?![\w./-])\s*(?:号\s*)?(?:讲了什么|讲的什么|是什么|做了什么|改了什么|干了什么|说了什么|的内容|怎么样)"
    r"|what (?:did|does|is) (?:pr )?#?(\d{2,7})"
)


def _pr(text: str) -> tuple[int | None, str | None]:
    url = _PR_URL.search(text)
    if url:
        return int(url.group(3)), f"{url.group(1)}/{url.group(2)}"
    for pattern in (_PR_REF, _PR_BARE):
        match = pattern.search(text)
        if match:
            number = next(g for g in match.groups() if g)
            if pattern is _PR_REF and text[match.end() :].lstrip().startswith("周"):
                continue  # 第 25 周 is a week, not a PR
            return int(number), None
    return None, None


# Repo ----------------------------------------------------------------------------------------------

_OWNER_NAME = re.compile(r"(?<![\w.-])([a-z0-9][\w.-]*)/([a-z0-9][\w.-]*)(?![\w-])")


def _repo(text: str, context: ParseContext, url_repo: str | None) -> tuple[str | None, str | None, float]:
    """(repo, unknown repo named, confidence)."""
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
        if not _looks_like_a_date(candidate):
            return None, candidate, 1.0
    named = [r for r in context.repos if any(_word(name.lower()).search(text) for name in r.names)]
    if named:
        # "verl 里 vllm 相关的改动": a repo name that is also a module name is the module here.
        plain = [r for r in named if not any(name.lower() in context.modules for name in r.names)]
        return (plain or named)[0].full_name, None, 1.0
    for word in sorted(set(re.findall(r"[a-z][a-z0-9_-]{3,}", text))):
        if word in context.modules:
            continue
        for repo in context.repos:
            if any(edit_distance(word, name.lower(), 1) <= 1 for name in repo.names if len(name) >= 4):
                return repo.full_name, None, 0.8
    return None, None, 1.0


def _looks_like_a_date(candidate: str) -> bool:
    return bool(re.fullmatch(r"[\d.]+/[\d.-]+", candidate))


_GITHUB_URL = re.compile(r"(?:https?://)?(?:www\.)?github\.com/\S*")


def _without_repo_references(text: str) -> str:
    """The text without GitHub URLs and `owner/name` references, whose words are no module, author or
    search term (`sgl-project/sglang` names a repo, not the sglang module)."""
    text = _GITHUB_URL.sub(" ", text)
    return _OWNER_NAME.sub(lambda m: m.group(0) if _looks_like_a_date(m.group(0)) else " ", text)


def _repo_words(context: ParseContext, repo: str | None) -> set[str]:
    """Words that name a repo rather than a module, author or search term: every name of the repo the
    question is about, and the names of the other repos unless they are module names too."""
    words: set[str] = set()
    for known in context.repos:
        names = {n.lower() for n in (*known.names, known.full_name)}
        words |= names if known.full_name == repo else names - context.modules
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


_ISO_DATE = r"(\d{4})-(\d{1,2})-(\d{1,2})"
_RANGE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"{_ISO_DATE}\s*(?:\.\.|到|至|~|–|—|-|to|until)\s*{_ISO_DATE}"), "iso-iso"),
    (
        re.compile(
            r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]?\s*(?:到|至|~|-|—)\s*(?:(\d{1,2})月)?(\d{1,2})[日号]?"
        ),
        "cn",
    ),
    (
        re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})\s*(?:-|~|到|至|to)\s*(?:(\d{1,2})/)?(\d{1,2})(?![\d/])"),
        "slash",
    ),
)
_SINCE = re.compile(
    r"(?:自|从)?\s*(?:(\d{4})年)?(\d{1,2})\s*月(?:份)?(?:(\d{1,2})[日号])?\s*(?:以来|开始|起|至今)"
    r"|since\s+(?:(\d{4})-(\d{1,2})-(\d{1,2})|(\d{1,2})/(\d{1,2})|([a-z]+)(?:\s+(\d{1,2}))?)"
)
_LAST_N = re.compile(
    rf"(?:最近|过去|近|这|last|past)\s*{_NUM}?\s*(?:个)?\s*(天|日|周|星期|礼拜|个月|月|days?|weeks?|months?)"
    r"|(?:last|past)\s+(one|two|three|four|five|six|seven|eight|nine|ten|fourteen|thirty|a)\s+(days?|weeks?|months?)"
)
_WEEK_NUMBER = re.compile(
    r"(?:(\d{4})\s*-?\s*)?w(?:eek)?\s*(\d{1,2})(?!\d)|(?:(\d{4})\s*年\s*)?第\s*" + _NUM + r"\s*周"
)
_SINGLE_DAY = re.compile(rf"(?<![\d-]){_ISO_DATE}(?![\d-])|(?:(\d{{4}})年)?(\d{{1,2}})月(\d{{1,2}})[日号]")
_MONTH = re.compile(
    r"(?<![\d/.-])(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月(?:份)?(?!\s*\d)"
    r"|\b(?:in|during)\s+(" + "|".join(sorted(_MONTHS_EN, key=len, reverse=True)) + r")\b"
)
_BEFORE_LAST_WEEK = re.compile(r"上上周|上上个?星期|上上个?礼拜|week before last")
_LAST_WEEK = re.compile(r"上周|上个?星期|上个?礼拜|上一周|last week|previous week|past week")
_NEXT_WEEK = re.compile(r"下周|下个?星期|next week")
_THIS_WEEK = re.compile(r"本周|这周|这个?星期|这个?礼拜|本星期|这一周|this week|current week")
_LAST_MONTH = re.compile(r"上个?月|last month|previous month")
_THIS_MONTH = re.compile(r"本月|这个?月|this month")
_YESTERDAY = re.compile(r"昨天|昨日|yesterday")
_TODAY = re.compile(r"今天|今日|today")
_RECENTLY = re.compile(r"最近|近期|recently|lately|recent")
# Everything that names a window, so that a search can leave it out of its terms.
_WINDOW_PATTERNS: tuple[re.Pattern[str], ...] = (
    *(pattern for pattern, _ in _RANGE_PATTERNS),
    _SINCE,
    _WEEK_NUMBER,
    _LAST_N,
    _SINGLE_DAY,
    _MONTH,
    _BEFORE_LAST_WEEK,
    _LAST_WEEK,
    _NEXT_WEEK,
    _THIS_WEEK,
    _LAST_MONTH,
    _THIS_MONTH,
    _YESTERDAY,
    _TODAY,
    _RECENTLY,
)


def _window(text: str, context: ParseContext) -> Window | None:
    now = context.now.astimezone(context.tz)
    tz = context.tz
    today = now.date()
    this_week = Week.containing(now, tz)

    for pattern, kind in _RANGE_PATTERNS:
        m = pattern.search(text)
        if not m:
            continue
        g = m.groups()
        if kind == "iso-iso":
            return _range(_date(int(g[0]), int(g[1]), int(g[2])), _date(int(g[3]), int(g[4]), int(g[5])), tz)
        if kind == "cn":
            year = int(g[0]) if g[0] else today.year
            month2 = int(g[3]) if g[3] else int(g[1])
            return _range(_date(year, int(g[1]), int(g[2])), _date(year, month2, int(g[4])), tz)
        month2 = int(g[2]) if g[2] else int(g[0])
        return _range(_date(today.year, int(g[0]), int(g[1])), _date(today.year, month2, int(g[3])), tz)

    m = _SINCE.search(text)
    if m:
        g = m.groups()
        start: date | None
        if g[1]:
            start = _date(int(g[0]) if g[0] else today.year, int(g[1]), int(g[2]) if g[2] else 1)
        elif g[3]:
            start = _date(int(g[3]), int(g[4]), int(g[5]))
        elif g[6]:
            start = _date(today.year, int(g[6]), int(g[7]))
        else:
            month = _MONTHS_EN.get(g[8] or "")
            start = _date(today.year, month, int(g[9]) if g[9] else 1) if month else None
        if start is not None:
            if start > today:
                start = start.replace(year=start.year - 1)
            return Window(_day_start(start, tz), now)

    m = _WEEK_NUMBER.search(text)
    if m:
        g = m.groups()
        number = int(g[1]) if g[1] else cn_number(g[3] or "")
        year = int(g[0] or g[2] or this_week.year)
        if number:
            try:
                date.fromisocalendar(year, number, 1)
            except ValueError:
                return None
            return _week_window(Week(year, number, tz))

    # When two windows are named ("本周和上周相比", "上周跟上上周比较"), the more recent one is asked
    # about and the other is what it is compared with.
    this_week_named = _THIS_WEEK.search(text)
    last_week_named = _LAST_WEEK.search(_BEFORE_LAST_WEEK.sub(" ", text))
    if _BEFORE_LAST_WEEK.search(text) and not (this_week_named or last_week_named):
        return _week_window(Week.containing(this_week.start - timedelta(days=8), tz))
    if last_week_named and not this_week_named:
        if "past week" in text:
            return Window(now - timedelta(days=7), now)
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
    if _YESTERDAY.search(text):
        return Window(_day_start(today - timedelta(days=1), tz), _day_start(today, tz))
    if _TODAY.search(text):
        return Window(_day_start(today, tz), _day_start(today + timedelta(days=1), tz))

    m = _LAST_N.search(text)
    if m:
        g = m.groups()
        count: int | None
        if g[2]:
            count, unit = _EN_NUMBERS.get(g[2], 1), g[3]
        else:
            count = cn_number(g[0]) if g[0] else None
            unit = g[1]
            if count is None:
                count = 2 if "两" in m.group(0) else 1
        days = {"天": 1, "日": 1, "周": 7, "星期": 7, "礼拜": 7, "个月": 30, "月": 30}.get(unit)
        if days is None:
            days = 1 if unit.startswith("day") else 7 if unit.startswith("week") else 30
        if count and 0 < count * days <= 3660:
            return Window(now - timedelta(days=count * days), now)

    m = _SINGLE_DAY.search(text)
    if m:
        g = m.groups()
        day = (
            _date(int(g[0]), int(g[1]), int(g[2]))
            if g[0]
            else _date(int(g[3]) if g[3] else today.year, int(g[4]), int(g[5]))
        )
        if day is not None:
            return _range(day, day, tz)
    m = _MONTH.search(text)
    if m:
        g = m.groups()
        month = int(g[1]) if g[1] else _MONTHS_EN[g[2]]
        if 1 <= month <= 12:
            return _month_window(int(g[0]) if g[0] else today.year, month, tz)
    if _RECENTLY.search(text):
        return Window(now - timedelta(days=7), now)
    return None


# Filters -------------------------------------------------------------------------------------------

# Topic words → the search terms that find them (any one matches).
TOPICS: dict[str, tuple[str, ...]] = {
    "memory": ("oom", "显存", "内存", "memory", "out of memory", "leak", "泄漏"),
    "crash": ("crash", "崩溃", "segfault", "挂掉"),
    "hang": ("hang", "deadlock", "死锁", "卡住", "卡死"),
    "performance": ("perf", "性能", "加速", "speed", "throughput", "吞吐", "latency", "延迟", "faster"),
    "checkpoint": ("checkpoint", "ckpt", "检查点", "断点续训"),
    "precision": ("nan", "精度", "precision", "fp8", "bf16"),
    "security": ("security", "安全", "cve", "漏洞"),
}
_TOPIC_TRIGGERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("memory", re.compile(r"显存|内存|\boom\b|out of memory|memory|泄漏|leak")),
    ("crash", re.compile(r"崩溃|\bcrash|segfault|挂掉")),
    ("hang", re.compile(r"死锁|卡住|卡死|\bhangs?\b|deadlock")),
    (
        "performance",
        re.compile(r"性能|加速|提速|吞吐|延迟|\bperf(ormance)?\b|throughput|latency|speed ?up|faster"),
    ),
    ("checkpoint", re.compile(r"检查点|断点|checkpoint|\bckpt\b")),
    ("precision", re.compile(r"精度|\bnan\b|precision|\bfp8\b|\bbf16\b")),
    ("security", re.compile(r"安全|漏洞|security|\bcve\b")),
)
_CHANGE_TYPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("fix", re.compile(r"修复|修了|bug|\bfix(es|ed)?\b")),
    ("feat", re.compile(r"新功能|新特性|新增|\bfeat(ure)?s?\b")),
    ("refactor", re.compile(r"重构|refactor")),
    ("doc", re.compile(r"文档|\bdocs?\b|documentation")),
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
_AUTHOR_PATTERNS = (
    re.compile(r"@" + _LOGIN),
    re.compile(r"\b(?:by|author|authored by|from user)\s+" + _LOGIN),
    re.compile(r"作者\s*(?:是|为|:)?\s*" + _LOGIN),
    re.compile(
        r"(?<!关于)(?<!关于 )" + _LOGIN + r"\s*(?:提交的|写的|发的|合并的|的)\s*(?:pr|改动|提交|代码|修改)"
    ),
    # "dependabot[bot] 在 verl 本月提交的 PR", "carol 最近 7 天在 verl 的改动"
    re.compile(
        _LOGIN
        + r"\s*[^,，。?？!！]{0,20}?在[^,，。?？!！]{0,30}?(?:提交|合并|写|发|的\s*(?:pr|改动|修改|代码))"
    ),
    re.compile(_LOGIN + r"'s\s+(?:prs|pull requests|changes|work)"),
    re.compile(r"\b(?:did|has|have)\s+" + _LOGIN + r"\s+(?:merge|write|ship|land|submit|open|author)"),
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
        if limit:
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


def _author(
    text: str, context: ParseContext, repo_words: set[str], module_words: Iterable[str]
) -> str | None:
    excluded = repo_words | set(module_words) | _STOP | set(context.modules)
    for pattern in _AUTHOR_PATTERNS:
        for m in pattern.finditer(text):
            name = m.group(1)
            if name not in excluded and not _NOT_A_LOGIN.fullmatch(name):
                return name
    return None


# Intent --------------------------------------------------------------------------------------------

_INTENT_RULES: tuple[tuple[Intent, re.Pattern[str]], ...] = (
    (
        "help",
        re.compile(
            r"^(?:help|帮助|/help|\?|？|使用说明|用法)$|怎么用|如何使用|你能做什么|你会什么|能干什么|what can you do|how do i use|^usage"
        ),
    ),
    ("report", re.compile(r"周报|weekly report|\breport\b|报告")),
    (
        "compare",
        re.compile(
            r"对比|比较|相比|比上上?周|比上个?月|环比|同比|compare|\bvs\.?\b|versus|than (?:the )?(?:last|previous)"
        ),
    ),
    (
        "stats",
        re.compile(
            r"多少|几个|几条|数量|统计|最活跃|最多|排行|排名|how many|number of|\bcount\b|most active|busiest|statistic|\bstats\b|top (?:modules|authors|contributors)"
        ),
    ),
    ("risks", re.compile(r"风险|隐患|危险|注意什么|需要注意|risk|danger|watch out|concern")),
    (
        "must_read",
        re.compile(
            r"值得(?:精|细|仔细|一)?[读看]|必读|精读|细读|重点看|worth (?:a )?(?:close )?read|must[- ]read|close read|deserves? (?:a )?(?:careful|close)|should i read"
        ),
    ),
    ("search", re.compile(r"搜索|查找|找一下|搜一下|\bsearch\b|\bfind\b|look for|关于")),
    (
        "highlights",
        re.compile(
            r"改动|变化|变更|更新|亮点|总结|概要|摘要|概况|进展|做了什么|干了什么|有什么|有哪些|合并了|发生了什么|what changed|what's new|whats new|highlights?|summary|summari[sz]e|changes|updates|happened|going on|overview|recap"
        ),
    ),
)
# Words around the terms of a search: stripped from the ends of a run of Han characters, and single
# characters that are dropped only when a whole run is made of them ("中关于", not "中文").
_SEARCH_EDGE_WORDS = "搜索|搜一下|查找|查一下|找一下|关于|相关的?|有关的?|有没有|有哪些|哪些|什么|一下|里面|的|吗|呢|吧|了|请|帮我|帮忙|看看"
_SEARCH_EDGE = re.compile(rf"^(?:{_SEARCH_EDGE_WORDS})+|(?:{_SEARCH_EDGE_WORDS})+$")
_SEARCH_FILLER = re.compile(rf"(?:{_SEARCH_EDGE_WORDS}|在|里|中|和|与|有|是|搜|查|找|些|个)+")
_SEARCH_TOKEN = re.compile(r"[\u3400-\u9fff]+|[^\s\u3400-\u9fff]+")
_SEARCH_STOP = _STOP | {"look", "pull", "requests", "request", "using", "anything", "something"}
_PUNCTUATION = "?!.,:;\"'()[]{}<>…。，、；：？！“”‘’（）【】"


def _search_text(text: str, repo_words: set[str]) -> str | None:
    """The terms of a free-text search: the question without its window, repo, punctuation, search
    verbs and filler words (搜索, 关于, 的, 在…里; search, for, about, PRs)."""
    for pattern in _WINDOW_PATTERNS:
        text = pattern.sub(" ", text)
    terms: list[str] = []
    for token in _SEARCH_TOKEN.findall(text):
        token = token.strip(_PUNCTUATION)
        if _HAN.match(token):
            token = "" if _SEARCH_FILLER.fullmatch(token) else _SEARCH_EDGE.sub("", token)
        if token and token not in repo_words and token not in _SEARCH_STOP:
            terms.append(token)
    return " ".join(dict.fromkeys(terms)) or None


# Intents whose answer is narrowed to an author named in the question ("carol 的 PR 有哪些风险").
_AUTHOR_FILTERED: frozenset[Intent] = frozenset(
    ("author", "topic", "highlights", "stats", "risks", "must_read", "compare")
)


def parse_query(text: str, context: ParseContext) -> Query:
    """The Query a question asks. Never raises: odd input becomes intent "unknown" with low confidence."""
    raw = text[:2000]
    norm = normalize(raw)
    language = language_of(raw)
    pr_number, url_repo = _pr(norm)
    repo, unknown_repo, repo_confidence = _repo(norm, context, url_repo)
    repo_words = _repo_words(context, repo)
    window = _window(norm, context)
    rest = _without_repo_references(norm)
    modules, module_confidence, module_words = _modules(rest, context, repo_words)
    topics = tuple(name for name, pattern in _TOPIC_TRIGGERS if pattern.search(rest))
    change_types = tuple(name for name, pattern in _CHANGE_TYPES if pattern.search(rest))
    author = _author(rest, context, repo_words, module_words)

    intent: Intent | None = None
    confidence = min(repo_confidence, module_confidence)
    matched = {name for name, pattern in _INTENT_RULES if pattern.search(rest)}
    if "help" in matched and len(norm) <= 40:
        intent = "help"
    elif pr_number is not None:
        intent = "pr"
    else:
        ranked: tuple[Intent, ...] = ("report", "compare", "stats", "risks", "must_read")
        intent = next((name for name in ranked if name in matched), None)
        if intent == "report" and ("risks" in matched or "must_read" in matched):
            intent = "risks" if "risks" in matched else "must_read"  # "周报里的风险" asks for the risks
    if intent is None:
        if author and not modules:
            intent = "author"
        elif "search" in matched:
            intent = "search"
        elif modules or topics or (change_types and "highlights" not in matched):
            intent = "topic"
        elif "highlights" in matched:
            intent = "highlights"
        elif repo or window:
            intent, confidence = "highlights", min(confidence, 0.6)
        else:
            intent, confidence = "unknown", 0.2

    search_text = _search_text(rest, repo_words) if intent == "search" else None

    if repo is None and unknown_repo is None and intent not in ("help", "unknown"):
        repo = context.default_repo
        if repo is None and len(context.repos) == 1:
            repo = context.repos[0].full_name
    candidates = tuple(r.full_name for r in context.repos) if repo is None else ()
    return Query(
        text=raw,
        language=language,
        intent=intent,
        repo=repo,
        unknown_repo=unknown_repo,
        repo_candidates=candidates,
        window=window,
        window_named=window is not None,
        pr_number=pr_number,
        modules=modules,
        topics=topics,
        change_types=change_types,
        author=author if intent in _AUTHOR_FILTERED else None,
        search_text=search_text,
        confidence=confidence,
    )
