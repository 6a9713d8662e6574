"""The weekly report as neutral data (DESIGN §7). Stored as JSON in `weekly_reports`; every renderer
(card, Markdown, HTML, PDF, Slack, Feishu, terminal) reads only this."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

REPORT_FORMAT_VERSION = 7


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ReportItem(_Frozen):
    """A highlight or a key change: one sentence and the PRs it is about."""

    text: str
    prs: tuple[int, ...]


class RiskObservation(_Frozen):
    """A risk mechanism of one PR (its evidence and what could go wrong), or the line gathering the code
    PRs without tests."""

    category: str
    severity: Literal["high", "medium", "low"]
    text: str  # the whole observation, PR and evidence included (documents)
    prs: tuple[int, ...]
    example: str = ""  # no longer written (answers read `text`); kept so reports stored with it still load


class Theme(_Frozen):
    name: str
    items: tuple[ReportItem, ...]  # the theme's most important PRs, at most THEME_ITEMS of them
    count: int = 0  # every PR of the theme (0 in reports stored before it was kept: then len(items))

    @property
    def size(self) -> int:
        return self.count or len(self.items)


class Trend(_Frozen):
    name: str
    count: int
    previous: int

    @property
    def delta(self) -> int:
        return self.count - self.previous


class KeyPR(_Frozen):
    number: int
    title: str
    url: str
    author: str
    modules: tuple[str, ...]
    importance: float
    insight: float
    verdict: str
    key_point: str
    gist: str = ""
    reading_guide: tuple[str, ...] = ()  # where to start, the design, what to verify, a follow-up
    corrected: bool = False  # readers corrected its analysis (shown marked)


class LedgerLine(_Frozen):
    """One entry of the risk ledger in a report: its stable id, PR, severity and a sentence saying what
    it is and what happened to it (a follow-up, who resolved it, how long it has been open)."""

    key: str
    pr: int
    severity: Literal["high", "medium", "low"]
    text: str
    prs: tuple[int, ...]  # the PRs the sentence names: the entry's own and its follow-ups
    entries: int = 1  # the entries the line stands for: one, or those one PR followed up alike


class RiskFollowUp(_Frozen):
    """The report's "Risk follow-up" section, from the risk ledger as it stood at the week's end."""

    resolved: tuple[LedgerLine, ...] = ()
    followed: tuple[LedgerLine, ...] = ()
    still_open: tuple[LedgerLine, ...] = ()
    open_total: int = 0
    followed_total: int = 0

    @property
    def empty(self) -> bool:
        return not (self.resolved or self.followed or self.still_open)


class ReadingNote(_Frozen):
    """Who read one PR during the week ("读完了" on a card, or in words), with their takeaways."""

    pr: int
    text: str


class WeeklyReport(_Frozen):
    repo: str
    year: int
    week: int
    start: datetime
    end: datetime  # exclusive
    timezone: str
    language: Literal["zh", "en"]
    generated_at: datetime
    version: int  # bumped each time the stored report of this week is rebuilt
    prose: Literal["template", "llm"]

    title: str
    headline: str
    pr_count: int
    previous_pr_count: int
    highlights: tuple[ReportItem, ...]
    risks: tuple[RiskObservation, ...]
    executive_summary: str
    avg_importance: float
    avg_insight: float
    themes: tuple[Theme, ...]
    module_trends: tuple[Trend, ...]
    theme_trends: tuple[Trend, ...]
    key_prs: tuple[KeyPR, ...]  # the top of the reading list; the most important PRs when it is empty
    follow_ups: tuple[str, ...]
    prs: tuple[int, ...]  # every PR merged in the week: what any mention is checked against
    trend_notes: tuple[str, ...] = ()  # what moved among the modules, in sentences
    participants: str = ""  # authors and reviewers, one line
    prose_tokens: tuple[int, int] = (0, 0)  # prompt and completion tokens the LLM prose cost
    risk_follow_up: RiskFollowUp | None = None  # from the risk ledger; None for a report built without it
    reading: tuple[ReadingNote, ...] = ()  # reading claims finished in the week
    # The week's key PRs, as the chat counts them: its must-reads (the chat's "本周必读") and the PRs worth
    # reading, each most important first; together the reading list, of which `key_prs` shows the top.
    must_read: tuple[int, ...] = ()
    worth_reading: tuple[int, ...] = ()
    # Changes reverted within the week and their reverts: counted above, left out of every section.
    left_out: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.year}-W{self.week:02d}"

    @property
    def reading_list(self) -> tuple[int, ...]:
        """The key PRs: must-read, then worth-reading."""
        return self.must_read + self.worth_reading

    @property
    def quiet(self) -> bool:
        return self.pr_count == 0
