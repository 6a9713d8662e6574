"""Ledger entries in sentences, for the weekly report's "Risk follow-up" section and for answers."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from sqlalchemy.orm import Session

from chatbot.messages import Language, pr_refs, say
from chatbot.reports.model import LedgerLine, RiskFollowUp
from chatbot.team.ledger import EntryView, LinkView, week_follow_up

LINKS_SHOWN = 3  # follow-ups named on an entry's line; the others are counted
FOLLOWED_SHOWN = 6  # a busy week links dozens of earlier risks: the most severe are the report's news


def link_sentence(link: LinkView, pr: int, language: Language) -> str:
    """Why a follow-up is linked: "#6801 改了同一函数 foo (path)", "#6801 说明修复了 #6512（已合并）"."""
    return say(f"ledger.link.{link.kind}", language, number=link.number, pr=pr, detail=link.detail)


def closed_sentence(view: EntryView, language: Language) -> str:
    """Who resolved or accepted an entry by hand, and why; "" when nobody did."""
    if view.closed_by is None or view.state not in ("resolved", "accepted"):
        return ""
    return say(f"ledger.closed.{view.state}", language, who=view.closed_by, reason=view.closed_reason or "-")


def entry_sentence(view: EntryView, language: Language, as_of: datetime | None = None) -> str:
    """ "#6512 [高] <mechanism> — <its follow-ups, who closed it>; 已 12 天 · 编号 R-…"."""
    severity = say(f"report.severity.{view.severity}", language)
    text = say("ledger.line", language, pr=view.number, severity=severity, text=view.text(language))
    links = view.live_links()
    notes = [link_sentence(link, view.number, language) for link in links[:LINKS_SHOWN]]
    if len(links) > LINKS_SHOWN:
        notes.append(say("report.and_more", language, n=len(links) - LINKS_SHOWN))
    closed = closed_sentence(view, language)
    if closed:
        notes.append(closed)
    if as_of is not None:
        notes.append(say("ledger.age", language, n=max(0, (as_of - view.raised_at).days)))
    separator = "；" if language == "zh" else "; "
    if notes:
        text += (" —— " if language == "zh" else " — ") + separator.join(notes)
    return text + (" · " + say("ledger.id", language, key=view.display_key))


def _severity(view: EntryView) -> str:
    return view.severity if view.severity in ("high", "medium", "low") else "low"


def _line(view: EntryView, language: Language, as_of: datetime | None = None) -> LedgerLine:
    prs = (view.number, *(link.number for link in view.live_links()))
    return LedgerLine(
        key=view.display_key,
        pr=view.number,
        severity=_severity(view),  # type: ignore[arg-type]
        text=entry_sentence(view, language, as_of),
        prs=tuple(dict.fromkeys(prs)),
    )


def _followed_lines(views: tuple[EntryView, ...], language: Language) -> list[LedgerLine]:
    """The week's follow-ups, one line per entry, except that the entries of several earlier PRs in a
    function that one PR changed again are one line: "#5615 changes `compute_advantage` again, where 5
    earlier PRs left risks open" says once what five lines would repeat. Most severe first."""
    alike: dict[tuple[int, str] | str, list[EntryView]] = defaultdict(list)
    for view in views:
        link = next(iter(view.live_links()), None)
        alike[(link.number, link.detail) if link and link.kind == "function" else view.key].append(view)
    lines = []
    for key, group in alike.items():
        numbers = list(dict.fromkeys(v.number for v in group))
        if isinstance(key, str) or len(numbers) < 2:
            lines += [_line(view, language) for view in group]
            continue
        number, detail = key
        first = group[0]  # the most severe: views come in entry_views' order
        text = say(
            "ledger.alike",
            language,
            number=number,
            detail=detail,
            n=len(numbers),
            prs=pr_refs(numbers, language, limit=LINKS_SHOWN),
            severity=say(f"report.severity.{first.severity}", language),
            text=first.text(language),
        )
        line = LedgerLine(
            key=first.display_key,
            pr=number,
            severity=_severity(first),  # type: ignore[arg-type]
            text=text,
            prs=(number, *numbers),
            entries=len(group),
        )
        lines.append(line)
    return lines  # in the order of each line's most severe entry, which is entry_views' order


def risk_follow_up(
    session: Session, repo: str, start: datetime, end: datetime, now: datetime, language: Language
) -> RiskFollowUp:
    """The report section of the week [start, end): as the ledger stood at the week's end (or now,
    for a week not over)."""
    as_of = min(end, now)
    week = week_follow_up(session, repo, start, as_of)
    return RiskFollowUp(
        resolved=tuple(_line(v, language) for v in week.resolved),
        followed=tuple(_followed_lines(week.followed, language)[:FOLLOWED_SHOWN]),
        still_open=tuple(_line(v, language, as_of) for v in week.still_open),
        open_total=week.open_total,
        followed_total=len(week.followed),
    )
