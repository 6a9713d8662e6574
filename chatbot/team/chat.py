"""The risk ledger in chat: questions about follow-ups ("上周的风险有人跟进吗？", "open risks in
megatron", "#6512 的风险处理了吗？") and the admins' actions (resolve, accept, unlink), the same in Slack,
Feishu and `prhub chat`.

A question about risks is a ledger question when it asks what happened to them (followed up, handled,
resolved, still open); "本周有哪些风险？" stays the parser's `risks` intent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from chatbot.messages import Language, join, say
from chatbot.models import Block, BulletList, Context, Heading, Inline, Paragraph, Reply, plain
from chatbot.prose import prose
from chatbot.qa.query import Query, Window
from chatbot.store.db import Database
from chatbot.store.ledger import RiskEntryRow
from chatbot.team.ledger import (
    CLOSED_STATES,
    HORIZON,
    EntryView,
    LedgerError,
    close_entry,
    count_entries,
    entry_views,
    maintain_ledger,
    open_where,
    repo_is,
    unlink,
)
from chatbot.team.views import entry_sentence
from chatbot.weeks import Week, last_complete_week

LedgerAsk = Literal["pr", "open", "window"]
SHOWN = 10

_RISK = re.compile(r"风险|隐患|\brisks?\b", re.I)
# Words asking what happened to the risks.
_FOLLOW = re.compile(
    r"跟进|处理|解决|修复|修好|关闭|遗留|没人管|有人管|"
    r"\b(?:open|unresolved|outstanding|follow(?:ed)?[- ]?ups?|followed|resolved|addressed|fixed|handled|"
    r"closed|pending|still)\b",
    re.I,
)
# Words asking for the ones not dealt with yet.
_ALL = re.compile(r"所有|全部|一切|\b(?:all|every|each)\b", re.I)
_OPEN = re.compile(
    r"未解决|未处理|没解决|没处理|还没|仍未|遗留|还有哪些|\b(?:open|unresolved|outstanding|pending|still)\b",
    re.I,
)


def ledger_question(query: Query) -> LedgerAsk | None:
    """Which ledger answer a question asks for, or None when it is not about what became of risks."""
    text = query.text
    if not _RISK.search(text) or not _FOLLOW.search(text):
        return None
    if query.pr_number is not None:
        return "pr"
    if _OPEN.search(text) and not query.window_named:
        return "open"
    return "window"


def answer_ledger(
    db: Database, query: Query, ask: LedgerAsk, now: datetime, tz: ZoneInfo
) -> tuple[Reply, tuple[int, ...], Window | None]:
    """The answer to a ledger question about `query.repo`, the PRs it cites and its window."""
    repo = query.repo or ""
    maintain_ledger(db, now, repo)
    language = query.language
    with db.session() as session:
        if ask == "pr":
            views = entry_views(session, repo_is(repo), RiskEntryRow.pr_number == query.pr_number)
            title = say("ledger.pr.title", language, repo=repo, number=query.pr_number)
            if not views:
                footer = say("ledger.pr.none", language, number=query.pr_number)
                return _reply(title, [], language, repo, footer=footer), (), None
            return _reply(title, views, language, repo, as_of=now), _cited(views), None
        if ask == "open":
            return _open_risks(session, query, now)
        window = query.window or _last_week(now, tz)
        label = _window_label(window, language)
        views = entry_views(
            session,
            repo_is(repo),
            RiskEntryRow.raised_at >= window.start,
            RiskEntryRow.raised_at < window.end,
            RiskEntryRow.state != "withdrawn",
        )
    title = say("ledger.window.title", language, repo=repo.split("/")[-1], window=label)
    if not views:
        return (
            _reply(say("ledger.window.none", language, repo=repo, window=label), [], language, repo),
            (),
            window,
        )
    summary = say(
        "ledger.window.summary",
        language,
        total=len(views),
        resolved=sum(v.state == "resolved" for v in views),
        followed=sum(v.state == "followed-up" for v in views),
        accepted=sum(v.state == "accepted" for v in views),
        open=sum(v.state == "open" for v in views),
    )
    # What nobody followed up is what the question is about: those first.
    ordered = sorted(views, key=lambda v: (v.state != "open", v.state in CLOSED_STATES))
    shown = ordered[:SHOWN]
    more = (
        say("ledger.more", language, n=len(views) - len(shown), repo=repo) if len(views) > len(shown) else ""
    )
    return _reply(title, shown, language, repo, as_of=now, summary=summary, more=more), _cited(shown), window


def _open_risks(
    session: Session, query: Query, now: datetime
) -> tuple[Reply, tuple[int, ...], Window | None]:
    """The risks still unresolved at `now`: by default those of the last RECENT weeks of high or
    medium severity (a busy repo has well over a thousand open entries, most of them low "missing
    tests"), saying so and how many more there are; all of them when the question asks for all."""
    repo, language = query.repo or "", query.language
    name = repo.split("/")[-1]
    where = open_where(repo, query.modules, as_of=now)
    total = count_entries(session, *where)
    if not total:
        return _reply(say("ledger.open.none", language, repo=repo), [], language, repo), (), None
    modules = (" " + join(query.modules, language)) if query.modules else ""
    if _ALL.search(query.text):
        views = [as_it_stood(v, now) for v in entry_views(session, *where, limit=SHOWN, linked_until=now)]
        title = say("ledger.open.title", language, repo=name + modules, n=total)
        more = say("ledger.more", language, n=total - len(views), repo=repo) if total > len(views) else ""
        return _reply(title, views, language, repo, as_of=now, more=more), _cited(views), None
    recent = [
        *where,
        RiskEntryRow.severity.in_(("high", "medium")),
        RiskEntryRow.raised_at >= now - HORIZON,
    ]
    count = count_entries(session, *recent)
    views = [as_it_stood(v, now) for v in entry_views(session, *recent, limit=SHOWN, linked_until=now)]
    weeks = HORIZON.days // 7
    example = say("ledger.open.all_example", language, repo=name)
    rest = say("ledger.open.rest", language, n=total - count, total=total, example=example, repo=repo)
    if not views:
        text = say("ledger.open.recent_none", language, repo=name + modules, weeks=weeks)
        return _reply(text, [], language, repo, footer=rest), (), None
    title = say("ledger.open.recent_title", language, repo=name + modules, weeks=weeks, n=count)
    more = ""
    if count > len(views):
        more = say("ledger.open.shown", language, shown=len(views), n=count)
    if total > count:
        more = (more + ("" if language == "zh" else " ") + rest).strip()
    return _reply(title, views, language, repo, as_of=now, more=more), _cited(views), None


def as_it_stood(view: EntryView, moment: datetime) -> EntryView:
    """An unresolved entry as it stood at `moment` (its links already cut to those made before it): open,
    or followed up when a link was; a state reached later is not shown."""
    if view.state_at <= moment and (view.state != "followed-up" or view.live_links()):
        return view
    return replace(view, state="followed-up" if view.live_links() else "open", closed_by=None)


def _last_week(now: datetime, tz: ZoneInfo) -> Window:
    week = last_complete_week(now, tz)
    return Window(week.start, week.end, week)


def _window_label(window: Window, language: Language) -> str:
    week: Week | None = window.week
    if week is not None:
        return week.label if language == "en" else f" {week.label} "
    last = window.last_day
    return (
        f"{window.start:%Y-%m-%d}..{last:%Y-%m-%d}"
        if language == "en"
        else f" {window.start:%m-%d}至{last:%m-%d} "
    )


def _cited(views: list[EntryView]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(v.number for v in views))


def _state_spans(view: EntryView, language: Language, repo: str, as_of: datetime | None) -> Inline:
    state = say(f"ledger.state.{view.state}", language)
    numbers = {view.number, *(link.number for link in view.live_links())}
    return (plain(f"[{state}] "), *prose(entry_sentence(view, language, as_of), repo, numbers))


def _reply(
    title: str,
    views: list[EntryView],
    language: Language,
    repo: str,
    *,
    as_of: datetime | None = None,
    summary: str = "",
    more: str = "",
    footer: str = "",
) -> Reply:
    blocks: list[Block] = [Heading(title)]
    if summary:
        blocks.append(Paragraph((plain(summary),)))
    if views:
        blocks.append(BulletList(tuple(_state_spans(v, language, repo, as_of) for v in views)))
    if footer:
        blocks.append(Paragraph((plain(footer),)))
    if more:
        blocks.append(Context((plain(more),)))
    if views:
        blocks.append(Context((plain(say("ledger.how_to", language)),)))
    return Reply(tuple(blocks))


# --- admins' actions -------------------------------------------------------------------------------

_ID = r"(?P<ref>R-[A-Za-z0-9]{4,10}|#?\d+)"
_ACTIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "unlink",
        re.compile(
            rf"^\s*(?:unlink|取消关联|撤销关联)\s+{_ID}\s+#?(?P<pr>\d+)\s*(?P<reason>.*)$", re.I | re.S
        ),
    ),
    (
        "resolved",
        re.compile(rf"^\s*(?:resolve|已解决|标记已解决|解决)\s+{_ID}\s*(?P<reason>.*)$", re.I | re.S),
    ),
    ("accepted", re.compile(rf"^\s*(?:accept|不处理|接受风险|接受)\s+{_ID}\s*(?P<reason>.*)$", re.I | re.S)),
)


@dataclass(frozen=True, slots=True)
class LedgerAction:
    """An admin's change to the ledger: resolved, accepted or unlink, of an entry (or a PR's entries)."""

    action: str
    ref: str
    reason: str
    pr_number: int | None = None


def parse_ledger_action(text: str) -> LedgerAction | None:
    """`resolve R-k3j9x fixed by #6801`, `不处理 R-k3j9x 只影响示例`, `unlink R-k3j9x #6801 unrelated`."""
    for action, pattern in _ACTIONS:
        match = pattern.match(text)
        if match:
            number = match.groupdict().get("pr")
            return LedgerAction(
                action, match.group("ref"), match.group("reason").strip(), int(number) if number else None
            )
    return None


def run_ledger_action(
    db: Database,
    action: LedgerAction,
    actor: str,
    admins: frozenset[str],
    language: Language,
    now: datetime,
    repo: str | None = None,
) -> Reply:
    """Carry out an admin's action and say what was done, or why not. `admins` empty lets everyone."""
    if admins and actor not in admins:
        return Reply((Paragraph((plain(say("ledger.not_admin", language)),)),))
    if action.action in CLOSED_STATES and not action.reason:
        return Reply((Paragraph((plain(say("ledger.needs_reason", language)),)),))
    try:
        if action.action == "unlink":
            assert action.pr_number is not None
            rows = unlink(db, action.ref, action.pr_number, actor, action.reason, now, repo)
            keys = join((f"R-{r.key}" for r in rows), language)
            text = say("ledger.done.unlinked", language, keys=keys, number=action.pr_number)
        else:
            rows = close_entry(db, action.ref, action.action, actor, action.reason, now, repo)
            text = say(
                f"ledger.done.{action.action}", language, keys=join((f"R-{r.key}" for r in rows), language)
            )
    except LedgerError as error:
        text = say(error.reason, language, **error.values)
    return Reply((Paragraph((plain(text),)),))
