"""What a question asks, as data: intent, repo, time window, filters, language."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Literal, get_args
from zoneinfo import ZoneInfo

from chatbot.analysis.types import Severity
from chatbot.messages import Language
from chatbot.weeks import Week

Intent = Literal[
    "help",
    "report",
    "risks",
    "highlights",
    "pr",
    "must_read",
    "topic",
    "author",
    "stats",
    "compare",
    "search",
    "unknown",
]
INTENTS: tuple[Intent, ...] = get_args(Intent)


def _month_after(start: datetime) -> datetime | None:
    """The start of the month after `start`, when `start` is a month's first midnight (with a zone)."""
    if start.day != 1 or start.time() != time() or start.tzinfo is None:
        return None
    return (start.replace(day=28) + timedelta(days=4)).replace(day=1)


def _year_after(start: datetime) -> datetime | None:
    """The start of the year after `start`, when `start` is a year's first midnight (with a zone)."""
    if (start.month, start.day) != (1, 1) or start.time() != time() or start.tzinfo is None:
        return None
    return start.replace(year=start.year + 1)


def is_calendar_month(start: datetime, end: datetime) -> bool:
    """Whether [start, end) is one whole calendar month, midnight to midnight in start's timezone."""
    following = _month_after(start)
    if following is None:
        return False
    local_end = end.astimezone(start.tzinfo)
    return (local_end.date(), local_end.time()) == (following.date(), time())


@dataclass(frozen=True, slots=True)
class Window:
    """A span of merge times [start, end) in the configured timezone; `week` when it is one ISO week."""

    start: datetime
    end: datetime
    week: Week | None = None

    @classmethod
    def days_back(cls, now: datetime, days: float, tz: ZoneInfo) -> Window:
        """The past `days` days up to `now` ("最近 30 天", "in the last month", "past week"), from local
        midnight of the day `days` before: whole days, as people count them, never a span that starts
        at the hour the question was asked. Under a day, exactly that many hours before now."""
        if days < 1:
            return cls(now - timedelta(days=days), now)
        first = (now.astimezone(tz) - timedelta(days=days)).date()
        return cls(datetime.combine(first, time(), tz), now)

    def is_over(self, now: datetime) -> bool:
        return now >= self.end

    def previous(self) -> Window:
        """The window just before this one: the previous ISO week for a week, the previous calendar
        month for a calendar month, the previous year for a calendar year, else the span of the same
        length."""
        if self.week is not None:
            week = Week.containing(self.week.start - timedelta(days=1), self.week.tz)
            return Window(week.start, week.end, week)
        if is_calendar_month(self.start, self.end):
            last_day = self.start - timedelta(days=1)
            return Window(self.start.replace(year=last_day.year, month=last_day.month), self.start)
        if _year_after(self.start) == self.end:
            return Window(self.start.replace(year=self.start.year - 1), self.start)
        length = self.end - self.start
        return Window(self.start - length, self.start)

    def following(self) -> Window:
        """The window just after this one: the next ISO week for a week, the next calendar month for a
        calendar month, the next year for a calendar year, else the span of the same length."""
        if self.week is not None:
            week = Week.containing(self.week.end, self.week.tz)
            return Window(week.start, week.end, week)
        month_end = _month_after(self.start)
        if month_end is not None and is_calendar_month(self.start, self.end):
            return Window(month_end, _month_after(month_end) or month_end)
        if _year_after(self.start) == self.end:
            return Window(self.end, self.end.replace(year=self.end.year + 1))
        return Window(self.end, self.end + (self.end - self.start))

    def comparable_previous(self) -> Window:
        """The window to compare this one with: `previous()`, cut to this one's length when this one is a
        week cut short at now (Monday to Tuesday 10:36 is compared with the same days and hours of the
        week before, not with all of it); a month cut short at now likewise with the same part of the
        month before (October 1 to the 29th 10:00 with September 1 to the 29th 10:00), a year cut short
        with as long a span from the start of the year before."""
        before = self.previous()
        if self.week is not None and self.end < self.week.end:
            return Window(before.start, before.start + (self.end - self.start))
        month_end = _month_after(self.start)
        if month_end is not None and self.end < month_end:
            last_day = self.start - timedelta(days=1)
            start = self.start.replace(year=last_day.year, month=last_day.month)
            return Window(start, min(start + (self.end - self.start), self.start))
        year_end = _year_after(self.start)
        if year_end is not None and self.end < year_end:
            start = self.start.replace(year=self.start.year - 1)
            return Window(start, min(start + (self.end - self.start), self.start))
        return before

    @property
    def last_day(self) -> datetime:
        return self.end - timedelta(microseconds=1)


# What a question asks about reviews: who reviewed the most PRs ("reviewers"), which PRs one person
# reviewed ("by", that person in `Query.reviewer`), which PRs merged without anyone's review ("none").
ReviewQuestion = Literal["reviewers", "by", "none"]

# An order a question asks its list in, other than by importance.
Order = Literal["size", "open", "newest"]
Busiest = Literal["module", "author"]

# The most PRs one answer lists: asked for a count ("top 15") or for all of them ("列出所有修复").
LIST_MAX = 20
# How many a list shows when the question asks for "a few" ("最重要的几个", "a few important PRs"), and
# for "a couple".
FEW = 5
COUPLE = 3


@dataclass(frozen=True, slots=True)
class Query:
    text: str
    language: Language
    intent: Intent
    repo: str | None = None
    # Whether the question itself named the repo (not the channel's subscription, not the only one).
    repo_named: bool = False
    # A repo the question names that is not in the index (answered with the list of indexed ones).
    unknown_repo: str | None = None
    # Repos to choose from when none was named and none could be inferred.
    repo_candidates: tuple[str, ...] = ()
    window: Window | None = None
    window_named: bool = False
    # It asks over the whole index ("so far", "ever", "到目前为止所有", or one config key's value): no
    # window, whatever its intent's default.
    all_time: bool = False
    # The config keys and flags whose value it asks ("queue.capacity 现在默认是多少", "--max-inflight").
    config_keys: tuple[str, ...] = ()
    # The window is a bare "最近" / "recently": a question about a subject reads it as no window.
    vague_window: bool = False
    pr_number: int | None = None
    # Further PRs the question names beside `pr_number` ("448 and 457", "#12、#15"): each answered in turn.
    more_prs: tuple[int, ...] = ()
    modules: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    change_types: tuple[str, ...] = ()
    author: str | None = None
    # Several people asked about together ("ivy 和 lin 最近在做什么"): each one's PRs side by side;
    # `author` is the first of them.
    authors: tuple[str, ...] = ()
    search_text: str | None = None
    # Content words the question asks about that no other slot placed: each is searched in the PRs'
    # texts (title, description, file paths, review text, analysis), never dropped.
    terms: tuple[str, ...] = ()
    # What the answer says it searched for, as the asker wrote it ("PEFT", "显存", "verl/workers").
    understood: tuple[str, ...] = ()
    # Topics and terms the question joins with "or" / "and" ("显存或者性能", "vllm 和 deepspeed 相关",
    # "defaults or dropped support"): a PR about any one of them matches (about more of them ranks
    # first); the other topics and terms are each still required. "Both X and Y" keeps them all required.
    alternatives: tuple[str, ...] = ()
    # Change types offered among those alternatives ("修复或者显存相关", "fixes or docs"): a PR of one of
    # them matches as one about an alternative does; the alternatives then rank, never filter.
    alternative_types: tuple[str, ...] = ()
    # Files or directories the PRs must touch.
    paths: tuple[str, ...] = ()
    # At most this many PRs in the answer ("最重要的 3 个", "top 5").
    limit: int | None = None
    # Only breaking changes.
    breaking: bool = False
    # Only the risks of this severity ("高风险", "严重的风险", "high-severity risks", "critical risks").
    severity: Severity | None = None
    # Only the must-read PRs ("必读的 PR", "must-read PRs"), not the whole reading list.
    must_read_only: bool = False
    # The window to compare `window` with when the question names it ("十月和十一月比": the whole of
    # October), instead of `Window.comparable_previous`.
    baseline: Window | None = None
    # It asks how many a day ("平均每天几个", "average PRs per day"): the count over the elapsed days.
    per_day: bool = False
    # It asks what to watch for on upgrading ("升级到新版本要注意什么", "what should I watch for upgrading"):
    # the breaking changes, dependency changes, changed defaults and removals, and reverts of a span.
    upgrade: bool = False
    # It asks when ("什么时候加的", "when was X added"): each PR's line says when it was merged.
    asks_when: bool = False
    # It asks why ("为什么", "说说理由", "and why?"): an answer naming one PR says why, from its analysis.
    asks_why: bool = False
    # Only PRs that changed code without adding or changing a test ("哪些没有测试").
    untested: bool = False
    # Only PRs that change what training or inference computes ("影响收敛", "change training semantics"):
    # a feature, fix or speed-up whose title names it, as the analyzer's verdict reasons it.
    semantics: bool = False
    # The question asks who ("谁在改 megatron"): each PR's line names its author.
    asks_who: bool = False
    # It asks who looks after what it names ("谁在维护 dataloader", "who maintains X"): the answer is the
    # people who worked on it, most PRs first.
    maintainers: bool = False
    # It asks who contributed for the first time ("有新人吗", "any first-time contributors"): the people
    # answer, limited to authors whose first merged PR in the repo falls in the window.
    newcomers: bool = False
    # It asks for the largest PRs ("改动最大的 PR", "biggest PRs", "改了多少行": "size", ranked by lines
    # changed, each line saying its size), those open longest before merging ("等了最久的 PR", "open the
    # longest": "open", each saying how long) or the newest merges ("最新合并的 PR", "the latest PRs":
    # "newest").
    order: Order | None = None
    # It asks about reviews rather than authorship (`ReviewQuestion`); bots' reviews and an author's own
    # never count.
    review: ReviewQuestion | None = None
    # Whose reviews, when `review` is "by" ("alice review 了哪些 PR", "PRs reviewed by carol").
    reviewer: str | None = None
    # It asks which of two or more subjects saw more ("megatron 和 fsdp 哪个改动多", "which had more PRs,
    # sglang or vllm?"): each subject's count of merged PRs, side by side.
    versus: bool = False
    # It asks which module or author had the most ("哪个模块改动最多", "which module changed the most",
    # "who merged the most"): a comparison names it, for each window, before its figures.
    busiest: Busiest | None = None
    # It asks which files a PR changed ("改了哪些文件", "which files did #12 touch"): the PR's card lists them.
    asks_files: bool = False
    # It asks for a PR's risks ("6268 有什么风险", "is #12 risky?"): the card says first whether it has any.
    asks_risks: bool = False
    # Indexed repos that hold `pr_number` when the question named no repo and several do.
    pr_candidates: tuple[str, ...] = ()
    # Likewise the indexed repos whose PRs touched `paths`.
    path_candidates: tuple[str, ...] = ()
    # The question is about the channel's subscribed repos ("我们订阅的仓库", "our repos").
    subscribed: bool = False
    # The question compares or spans the repos ("哪个仓库本周最活跃", "each repo's risks"): answered
    # across the channel's repos, or every indexed one.
    every_repo: bool = False
    # Answered once across every repo of `repo_candidates` (a channel subscribed to several, an author
    # with PRs in several), grouped per repo, instead of asking which one.
    across: bool = False
    # A follow-up asked for a position of the last answer's list ("第二个讲了什么", -1: the last) that
    # the list (`missing_from`, the PRs it cited) does not have.
    missing_from: tuple[int, ...] | None = None
    position: int = 0
    # Who read the question: the rules, or the LLM when the rules could not place it.
    parser: Literal["rules", "llm"] = "rules"
    # How sure the rules are (1.0 = an exact pattern); below 0.5 an LLM may re-parse when configured.
    confidence: float = 1.0
    # What the answer says it relaxed to find PRs at all (a widened window, terms no PR contains).
    notes: tuple[str, ...] = field(default=())
