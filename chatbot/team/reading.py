"""Reading claims: "我来读" / "I'll read it" on the must-read and worth-reading PRs of a report card.

A claim is recorded once per reader and PR (the unique key absorbs double clicks, duplicate deliveries
and races; two people clicking at once are both recorded), and "读完了" / "Done" adds when they finished
and an optional one-line takeaway that later answers about the PR quote. The card's "Reading" section
shows every claim; the buttons carry where the card came from (`CardOrigin`), so a click rebuilds the
same card with the new claims and the platform updates the message in place for everyone.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from chatbot.messages import Language, join, say
from chatbot.models import Actions, Block, Button, Context, Divider, Heading, Paragraph, Reply, link, plain
from chatbot.reports.model import KeyPR, ReadingNote, WeeklyReport
from chatbot.store.db import Database
from chatbot.store.reading import ReadingClaimRow
from chatbot.store.schema import RepoRow

CLAIM_ACTION = "team_claim"  # action ids are "team_claim:<number>": unique within a Slack message
DONE_ACTION = "team_done"
READ_VERDICTS = ("must-read", "worth-reading")
CARD_READING = 5  # PRs with buttons on a card: two buttons each, well under Slack's 25 per block
TAKEAWAY_CHARS = 300


@dataclass(frozen=True, slots=True)
class Reader:
    """Who clicked: the platform's user id (what identifies them) and the name to show."""

    platform: str
    workspace: str
    user_id: str
    name: str


@dataclass(frozen=True, slots=True)
class ClaimView:
    repo: str
    number: int
    user_id: str
    name: str
    claimed_at: datetime
    done_at: datetime | None
    takeaway: str | None


@dataclass(frozen=True, slots=True)
class CardOrigin:
    """Where a card came from, so a click can rebuild it: the repo, the ISO week, the language, the
    timezone its week is in, and the subscription whose filters shaped it (None: the whole report)."""

    repo: str
    week: str
    language: Language
    tz: str
    subscription: int | None = None

    def value(self, number: int) -> str:
        """A button's value: this origin and the PR (compact JSON, far under Slack's 2,000 characters)."""
        data: dict[str, Any] = {"r": self.repo, "w": self.week, "l": self.language, "z": self.tz, "n": number}
        if self.subscription is not None:
            data["s"] = self.subscription
        return json.dumps(data, separators=(",", ":"))


def parse_value(value: str) -> tuple[CardOrigin, int] | None:
    """The origin and PR of a button's value; None for anything that is not one of ours."""
    try:
        data = json.loads(value)
        language: Language = "en" if data["l"] == "en" else "zh"
        subscription = int(data["s"]) if data.get("s") is not None else None
        origin = CardOrigin(str(data["r"]), str(data["w"]), language, str(data["z"]), subscription)
        return origin, int(data["n"])
    except (ValueError, KeyError, TypeError):
        return None


def _repo_id(session: Session, repo: str) -> int:
    repo_id = session.scalar(select(RepoRow.id).where(RepoRow.full_name == repo.lower()))
    if repo_id is None:
        raise LookupError(repo)
    return repo_id


def claim(db: Database, repo: str, number: int, reader: Reader, now: datetime) -> bool:
    """Record `reader`'s claim of `repo`#`number`; False when they had claimed it already (a second
    click or a duplicate delivery). Raises LookupError for a repo not in the index."""
    try:
        with db.session() as session:
            session.add(
                ReadingClaimRow(
                    repo_id=_repo_id(session, repo),
                    pr_number=number,
                    platform=reader.platform,
                    workspace=reader.workspace,
                    user_id=reader.user_id[:200],
                    user_name=reader.name[:200],
                    claimed_at=now,
                )
            )
    except IntegrityError:
        return False
    return True


def finish(db: Database, repo: str, number: int, reader: Reader, takeaway: str, now: datetime) -> None:
    """Record that `reader` finished reading (claiming it first when they had not), with an optional
    one-line takeaway; a later "Done" replaces the takeaway only when it says something."""
    claim(db, repo, number, reader, now)
    line = " ".join(takeaway.split())[:TAKEAWAY_CHARS]
    with db.session() as session:
        values: dict[str, Any] = {"done_at": now}
        if line:
            values["takeaway"] = line
        session.execute(
            update(ReadingClaimRow)
            .where(
                ReadingClaimRow.repo_id == _repo_id(session, repo),
                ReadingClaimRow.pr_number == number,
                ReadingClaimRow.platform == reader.platform,
                ReadingClaimRow.workspace == reader.workspace,
                ReadingClaimRow.user_id == reader.user_id[:200],
            )
            .values(**values)
        )


def claim_id(db: Database, repo: str, number: int, reader: Reader) -> int | None:
    """The id of `reader`'s claim of PR `number`: what a takeaway form submitted later names."""
    with db.session() as session:
        return session.scalar(
            select(ReadingClaimRow.id).where(
                ReadingClaimRow.repo_id == _repo_id(session, repo),
                ReadingClaimRow.pr_number == number,
                ReadingClaimRow.platform == reader.platform,
                ReadingClaimRow.workspace == reader.workspace,
                ReadingClaimRow.user_id == reader.user_id[:200],
            )
        )


def add_takeaway(
    db: Database, claim: int, reader: Reader, takeaway: str, now: datetime
) -> tuple[str, int] | None:
    """The takeaway of the claim with id `claim`, when it is `reader`'s own (a form only its reader
    should see may still be submitted by another): its repo and PR, or None."""
    with db.session() as session:
        row = session.execute(
            select(ReadingClaimRow, RepoRow.full_name)
            .join(RepoRow, RepoRow.id == ReadingClaimRow.repo_id)
            .where(ReadingClaimRow.id == claim)
        ).one_or_none()
    if row is None:
        return None
    found, repo = row
    if (found.platform, found.workspace, found.user_id) != (
        reader.platform,
        reader.workspace,
        reader.user_id[:200],
    ):
        return None
    finish(db, repo, found.pr_number, reader, takeaway, now)
    return repo, found.pr_number


def claims_version(db: Database, repo: str) -> tuple[int, int, datetime | None]:
    """Changes whenever a claim of `repo` is added or finished: a card rendered at one version and
    found at another afterwards is rendered again."""
    with db.session() as session:
        row = session.execute(
            select(func.count(), func.max(ReadingClaimRow.id), func.max(ReadingClaimRow.done_at))
            .join(RepoRow, RepoRow.id == ReadingClaimRow.repo_id)
            .where(RepoRow.full_name == repo.lower())
        ).one()
    return int(row[0]), int(row[1] or 0), row[2]


def claim_views(session: Session, *where: Any) -> list[ClaimView]:
    rows = session.execute(
        select(ReadingClaimRow, RepoRow.full_name)
        .join(RepoRow, RepoRow.id == ReadingClaimRow.repo_id)
        .where(*where)
        .order_by(ReadingClaimRow.claimed_at, ReadingClaimRow.id)
    ).all()
    return [
        ClaimView(repo, r.pr_number, r.user_id, r.user_name, r.claimed_at, r.done_at, r.takeaway)
        for r, repo in rows
    ]


def claims_by_pr(session: Session, repo: str, numbers: Sequence[int]) -> dict[int, list[ClaimView]]:
    found: dict[int, list[ClaimView]] = defaultdict(list)
    for view in claim_views(
        session, RepoRow.full_name == repo.lower(), ReadingClaimRow.pr_number.in_(list(numbers))
    ):
        found[view.number].append(view)
    return found


def reader_claims(session: Session, reader: Reader) -> list[ClaimView]:
    return claim_views(
        session,
        ReadingClaimRow.platform == reader.platform,
        ReadingClaimRow.workspace == reader.workspace,
        ReadingClaimRow.user_id == reader.user_id[:200],
    )


def read_in(
    session: Session, repo: str, start: datetime, end: datetime, language: Language
) -> tuple[ReadingNote, ...]:
    """Who finished reading which PR in [start, end), a note per PR (oldest finish first), with their
    takeaways: what the next report lists."""
    views = claim_views(
        session,
        RepoRow.full_name == repo.lower(),
        ReadingClaimRow.done_at >= start,
        ReadingClaimRow.done_at < end,
    )
    by_pr: dict[int, list[ClaimView]] = defaultdict(list)
    for view in sorted(views, key=lambda v: (v.done_at or start, v.number)):
        by_pr[view.number].append(view)
    notes = []
    for number, readers in by_pr.items():
        names = join((f"@{v.name}" for v in readers), language)
        text = say("reading.note", language, number=number, names=names)
        takeaways = takeaway_lines(readers, language)
        if takeaways:
            text += ("：" if language == "zh" else ": ") + " · ".join(takeaways)
        notes.append(ReadingNote(pr=number, text=text))
    return tuple(notes)


def reading_list(report: WeeklyReport) -> list[KeyPR]:
    """The PRs of a report that get "I'll read it" buttons: its must-read and worth-reading key PRs."""
    return [pr for pr in report.key_prs if pr.verdict in READ_VERDICTS]


def _status(claims: Sequence[ClaimView], language: Language) -> str:
    reading = [c.name for c in claims if c.done_at is None]
    done = [c.name for c in claims if c.done_at is not None]
    parts = []
    if reading:
        parts.append(say("reading.reading", language, names=join((f"@{n}" for n in reading), language)))
    if done:
        parts.append(say("reading.done", language, names=join((f"@{n}" for n in done), language)))
    return ("；" if language == "zh" else "; ").join(parts) or say("reading.nobody", language)


def takeaway_lines(claims: Sequence[ClaimView], language: Language) -> list[str]:
    return [
        say("reading.takeaway", language, name=f"@{c.name}", text=c.takeaway) for c in claims if c.takeaway
    ]


def reading_section(
    report: WeeklyReport, claims: dict[int, list[ClaimView]], origin: CardOrigin
) -> list[Block]:
    """The card's "Reading" section: each must-read / worth-reading PR with who is reading it and who
    has read it (and their takeaways), and its two buttons."""
    prs = reading_list(report)[:CARD_READING]
    if not prs:
        return []
    language = report.language
    blocks: list[Block] = [Heading(say("reading.section", language), 2)]
    buttons: list[Button] = []
    for pr in prs:
        mine = claims.get(pr.number, [])
        blocks.append(
            Paragraph((link(f"#{pr.number}", pr.url), plain(f" {pr.title} — {_status(mine, language)}")))
        )
        notes = takeaway_lines(mine, language)
        if notes:
            blocks.append(Context((plain(" · ".join(notes)),)))
        value = origin.value(pr.number)
        buttons += [
            Button(
                say("reading.button.claim", language, number=pr.number),
                action_id=f"{CLAIM_ACTION}:{pr.number}",
                value=value,
            ),
            Button(
                say("reading.button.done", language, number=pr.number),
                action_id=f"{DONE_ACTION}:{pr.number}",
                value=value,
            ),
        ]
    return [*blocks, Actions(tuple(buttons))]


def with_reading(db: Database, report: WeeklyReport, card: Reply, origin: CardOrigin) -> Reply:
    """`card` with the Reading section before its closing divider and buttons (at the end without one)."""
    with db.session() as session:
        claims = claims_by_pr(session, report.repo, [pr.number for pr in reading_list(report)])
    section = reading_section(report, claims, origin)
    if not section:
        return card
    blocks = list(card.blocks)
    dividers = [i for i, block in enumerate(blocks) if isinstance(block, Divider)]
    at = dividers[-1] if dividers else len(blocks)
    return Reply(tuple(blocks[:at] + section + blocks[at:]), more_url=card.more_url, ephemeral=card.ephemeral)
