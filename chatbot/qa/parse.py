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


def normalize(text: str) -> str:
    """NFKC (full-width → ASCII), lower-case, whitespace squeezed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().lower()


def language_of(text: str) -> Language:
    """Chinese as soon as the question has Han characters; else English."""
    return "zh" if _HAN.search(text) else "en"


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
    for repo in context.repos:
        if any(_word(name.lower()).search(text) for name in repo.names):
            return repo.full_name, None, 1.0
    for word in set(re.findall(r"[a-z][a-z0-9_-]{3,}", text)):
        if word in context.modules:
            continue
        for repo in context.repos:
            if any(edit_distance(word, name.lower(), 1) <= 1 for name in repo.names if len(name) >= 4):
                return repo.full_name, None, 0.8
    return None, None, 1.0


def _looks_like_a_date(candidate: str) -> bool:
    return bool(re.fullmatch(r"[\d.]+/[\d.-]+", candidate))


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

    if re.search(r"上上周|上上个?星期|上上个?礼拜|week before last", text):
        return _week_window(Week.containing(this_week.start - timedelta(days=8), tz))
    this_week_named = re.search(r"本周|这周|这个?星期|这个?礼拜|本星期|这一周|this week|current week", text)
    if (
        re.search(r"上周|上个?星期|上个?礼拜|上一周|last week|previous week|past week", text)
        and not this_week_named
    ):
        if "past week" in text:
            return Window(now - timedelta(days=7), now)
        return _week_window(Week.containing(this_week.start - timedelta(days=1), tz))
    if re.search(r"下周|下个?星期|next week", text):
        return _week_window(Week.containing(this_week.end + timedelta(days=1), tz))
    if re.search(
        r"本周|这周|这个?星期|这个?礼拜|本星期|这一周|this week|current week|so far this week", text
    ):
        return _week_window(this_week)
    if re.search(r"上个?月|last month|previous month", text):
        first = today.replace(day=1) - timedelta(days=1)
        return _month_window(first.year, first.month, tz)
    if re.search(r"本月|这个?月|this month", text):
        return _month_window(today.year, today.month, tz)
    if re.search(r"昨天|昨日|yesterday", text):
        return Window(_day_start(today - timedelta(days=1), tz), _day_start(today, tz))
    if re.search(r"今天|今日|today", text):
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
    if re.search(r"最近|近期|recently|lately|recent", text):
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
    ]
)
_AUTHOR_PATTERNS = (
    re.compile(r"@([a-z0-9][\w-]*(?:\[bot\])?)"),
    re.compile(r"\b(?:by|author|authored by|from user)\s+([a-z0-9][\w-]*(?:\[bot\])?)"),
    re.compile(r"作者\s*(?:是|为|:)?\s*([a-z0-9][\w-]*)"),
    re.compile(r"([a-z0-9][\w-]*(?:\[bot\])?)\s*(?:提交的|写的|发的|合并的|的)\s*(?:pr|改动|提交|代码|修改)"),
    re.compile(r"\b([a-z0-9][\w-]*)'s\s+(?:prs|pull requests|changes|work)"),
)


def _modules(text: str, context: ParseContext, repo_words: set[str]) -> tuple[tuple[str, ...], float]:
    found: list[str] = []
    confidence = 1.0
    for word in dict.fromkeys(re.findall(r"[a-z][a-z0-9_-]{1,}", text)):
        if word in repo_words or word in _STOP:
            continue
        if word in context.modules:
            found.append(word)
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
                confidence = min(confidence, 0.8)
    return tuple(dict.fromkeys(found)), confidence


def _author(text: str, context: ParseContext, repo_words: set[str], modules: Iterable[str]) -> str | None:
    excluded = repo_words | set(modules) | _STOP | set(context.modules)
    for pattern in _AUTHOR_PATTERNS:
        for m in pattern.finditer(text):
            name = m.group(1)
            if name not in excluded and not name.isdigit():
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
            r"对比|比较|相比|比上周|环比|同比|compare|\bvs\.?\b|versus|than (?:the )?(?:last|previous)"
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
            r"值得(?:精|细|仔细)?[读看]|必读|精读|细读|重点看|worth (?:a )?(?:close )?read|must[- ]read|close read|deserves? (?:a )?(?:careful|close)|should i read"
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
_SEARCH_STRIP = re.compile(
    r"搜索|查找|找一下|搜一下|关于|相关的?|的?pr|\bsearch( for)?\b|\bfind\b|look for|\babout\b|[?？!！。,，]"
)


def parse_query(text: str, context: ParseContext) -> Query:
    """The Query a question asks. Never raises: odd input becomes intent "unknown" with low confidence."""
    raw = text[:2000]
    norm = normalize(raw)
    language = language_of(raw)
    pr_number, url_repo = _pr(norm)
    repo, unknown_repo, repo_confidence = _repo(norm, context, url_repo)
    repo_words = {w.lower() for r in context.repos for w in (*r.names, r.full_name)}
    window = _window(norm, context)
    modules, module_confidence = _modules(norm, context, repo_words)
    topics = tuple(name for name, pattern in _TOPIC_TRIGGERS if pattern.search(norm))
    change_types = tuple(name for name, pattern in _CHANGE_TYPES if pattern.search(norm))
    author = _author(norm, context, repo_words, modules)

    intent: Intent | None = None
    confidence = min(repo_confidence, module_confidence)
    matched = {name for name, pattern in _INTENT_RULES if pattern.search(norm)}
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

    search_text = None
    if intent == "search":
        search_text = _SEARCH_STRIP.sub(" ", norm)
        for word in repo_words:
            search_text = _word(word).sub(" ", search_text)
        search_text = re.sub(r"\s+", " ", search_text).strip() or None

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
        author=author if intent in ("author", "topic", "highlights", "stats") else None,
        search_text=search_text,
        confidence=confidence,
    )
