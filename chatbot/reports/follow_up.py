"""The weekly report's "Risk follow-up" section as neutral blocks, the same in the card and the full
report (and so in Slack, Feishu, Markdown, HTML, PDF and the terminal)."""

from __future__ import annotations

from chatbot.messages import say
from chatbot.models import Block, BulletList, Context, Heading, Paragraph, bold, plain
from chatbot.prose import prose
from chatbot.reports.model import LedgerLine, WeeklyReport


def _lines(lines: tuple[LedgerLine, ...], report: WeeklyReport) -> BulletList:
    return BulletList(tuple(prose(line.text, report.repo, set(line.prs)) for line in lines))


def follow_up_blocks(report: WeeklyReport, level: int = 2) -> list[Block]:
    """The section, or nothing when the report was built without the ledger."""
    section = report.risk_follow_up
    if section is None:
        return []
    language = report.language
    blocks: list[Block] = [Heading(say("report.section.risk_follow_up", language), level)]
    if section.empty:
        return [*blocks, Paragraph((plain(say("ledger.nothing", language)),))]
    parts = (
        ("ledger.resolved", section.resolved, len(section.resolved)),
        ("ledger.followed", section.followed, section.followed_total),
        ("ledger.still_open", section.still_open, section.open_total),
    )
    for key, lines, n in parts:
        if lines:
            blocks += [Paragraph((bold(say(key, language, n=n)),)), _lines(lines, report)]
            shown = sum(line.entries for line in lines)
            if n > shown:
                more = say("ledger.more", language, n=n - shown, repo=report.repo)
                blocks.append(Context((plain(more),)))
    return blocks


def reading_blocks(report: WeeklyReport, level: int = 2) -> list[Block]:
    """Who read which PR during the week, with their takeaways; nothing when nobody finished one."""
    if not report.reading:
        return []
    notes = tuple(prose(note.text, report.repo, {note.pr}) for note in report.reading)
    return [Heading(say("reading.section.read", report.language), level), BulletList(notes)]
