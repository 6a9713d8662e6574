"""Reading claims in words, the same in Slack, Feishu and `prhub chat`: "我来读 #6512" / "I'll read
#6512", "读完了 #6512 一句话心得" / "done #6512 takeaway", "我认领了哪些 PR？" / "what did I claim?",
and "本周必读还有哪些没人读？" / "which must-reads has nobody claimed?"."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from chatbot.messages import Language, say
from chatbot.models import Block, BulletList, Context, Heading, Inline, Paragraph, Reply, link, plain
from chatbot.prose import pr_url
from chatbot.qa.query import Query
from chatbot.reports.model import WeeklyReport
from chatbot.store.db import Database
from chatbot.team.reading import (
    ClaimView,
    Reader,
    claim,
    claims_by_pr,
    finish,
    reader_claims,
    reading_list,
    takeaway_lines,
)

_CLAIM = re.compile(
    r"^\s*(?:我来读|我来看|认领|i['’]?ll read|claim)(?![A-Za-z])\s*(?P<rest>.*)$", re.I | re.S
)
_DONE = re.compile(
    r"^\s*(?:读完了|看完了|已读|done reading|done|finished)(?![A-Za-z])\s*(?P<rest>.*)$", re.I | re.S
)
_PR = re.compile(
    r"^(?:(?P<repo>[A-Za-z][\w.-]*(?:/[\w.-]+)?)(?:\s+#?|#)|#?)(?P<number>\d+)\s*[:：,，-]?\s*(?P<takeaway>.*)$",
    re.S,
)
_MINE = re.compile(
    r"我认领了|我认领的|我在读|what (?:did|have) i claim|my claims|claimed by me|what am i reading", re.I
)
_UNCLAIMED = re.compile(
    r"(?:没人读|没人认领|无人认领|还没人看|nobody (?:has )?(?:claimed|read)|unclaimed|not claimed)", re.I
)


@dataclass(frozen=True, slots=True)
class ReadingCommand:
    """A claim or a "done" in words: the PR (repo as written, if any) and the takeaway."""

    action: Literal["claim", "done"]
    number: int | None
    repo: str | None
    takeaway: str


def parse_reading_command(text: str) -> ReadingCommand | None:
    """The command `text` gives, or None when it is not one. A command without a PR number is still one
    (answered with how to write it)."""
    for action, pattern in (("claim", _CLAIM), ("done", _DONE)):
        match = pattern.match(text)
        if match is None:
            continue
        rest = match.group("rest").strip()
        found = _PR.match(rest)
        if found is None:
            if rest:
                return None  # "认领风险…", "已读的 PR 有哪些" or "claim the bug" is no reading command
            return ReadingCommand(action, None, None, "")  # type: ignore[arg-type]
        takeaway = found.group("takeaway").strip() if action == "done" else ""
        return ReadingCommand(action, int(found.group("number")), found.group("repo"), takeaway)  # type: ignore[arg-type]
    return None


def asks_for_my_claims(text: str) -> bool:
    return bool(_MINE.search(text))


def asks_for_unclaimed(text: str) -> bool:
    return bool(_UNCLAIMED.search(text))


def run_reading_command(
    db: Database, command: ReadingCommand, repo: str, reader: Reader, language: Language, now: datetime
) -> Reply:
    """Record a claim or a "done" for `repo`#N and say so."""
    assert command.number is not None
    name = f"@{reader.name}"
    if command.action == "claim":
        new = claim(db, repo, command.number, reader, now)
        text = say(
            "reading.claimed" if new else "reading.already", language, name=name, number=command.number
        )
    else:
        finish(db, repo, command.number, reader, command.takeaway, now)
        text = say("reading.finished", language, name=name, number=command.number)
    return Reply((Paragraph((plain(text),)),))


def _line(view: ClaimView, language: Language) -> Inline:
    state = say("reading.state.done" if view.done_at else "reading.state.reading", language)
    takeaway = f" — {view.takeaway}" if view.takeaway else ""
    return (link(f"{view.repo}#{view.number}", pr_url(view.repo, view.number)), plain(f" {state}{takeaway}"))


def my_claims_reply(db: Database, reader: Reader, language: Language) -> Reply:
    with db.session() as session:
        views = reader_claims(session, reader)
    if not views:
        return Reply((Paragraph((plain(say("reading.mine.none", language)),)),))
    newest = sorted(views, key=lambda v: v.claimed_at, reverse=True)
    return Reply(
        (
            Heading(say("reading.mine.title", language, n=len(views))),
            BulletList(tuple(_line(v, language) for v in newest)),
        )
    )


def unclaimed_reply(db: Database, report: WeeklyReport, query: Query) -> tuple[Reply, tuple[int, ...]]:
    """The week's must-read and worth-reading PRs nobody has claimed, and who reads the others."""
    language = query.language
    prs = reading_list(report)
    with db.session() as session:
        claims = claims_by_pr(session, report.repo, [pr.number for pr in prs])
    open_prs = [pr for pr in prs if not claims.get(pr.number)]
    name = report.repo.split("/")[-1]
    if not prs or not open_prs:
        return Reply(
            (Paragraph((plain(say("reading.unclaimed.none", language, repo=name, week=report.label)),)),)
        ), ()
    blocks: list[Block] = [
        Heading(say("reading.unclaimed.title", language, repo=name, week=report.label, n=len(open_prs))),
        BulletList(
            tuple(
                (
                    link(f"#{pr.number}", pr.url),
                    plain(f" {pr.title} · {say(f'pr.verdict.{pr.verdict}', language)}"),
                )
                for pr in open_prs
            )
        ),
    ]
    taken = [pr for pr in prs if claims.get(pr.number)]
    if taken:
        names = "；".join(
            f"#{pr.number} " + "、".join(f"@{c.name}" for c in claims[pr.number]) for pr in taken
        )
        blocks.append(Context((plain(say("reading.unclaimed.taken", language, claims=names)),)))
    blocks.append(Context((plain(say("reading.how_to", language)),)))
    return Reply(tuple(blocks)), tuple(pr.number for pr in open_prs)


def takeaway_blocks(db: Database, repo: str, number: int, language: Language) -> list[Block]:
    """What readers of `repo`#`number` said about it, for answers about that PR; empty when nobody did."""
    with db.session() as session:
        claims = claims_by_pr(session, repo, [number]).get(number, [])
    lines = takeaway_lines(claims, language)
    if not lines:
        return []
    return [
        Heading(say("reading.takeaways", language), 2),
        BulletList(tuple((plain(line),) for line in lines)),
    ]
