"""👍/👎 on answers and report cards: one vote per person and message (a second click, a duplicate
delivery or a change of mind lands on the same row), a 👎's reason (wrong PRs, a missing PR, the wrong
window, the wrong language, or something else in words), and what the answer was: the question, the
repo and the PRs it cited, carried in the buttons' value so a click needs nothing else to be recorded.

In words (every platform and `prhub chat`): "👎 漏了 PR" / "👍" / "feedback: wrong window …" rate the
conversation's last answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from chatbot.messages import Language, say
from chatbot.models import Actions, Block, Button, Reply
from chatbot.qa.compose import Answer
from chatbot.reports.model import WeeklyReport
from chatbot.store.db import Database
from chatbot.store.feedback import FeedbackRow
from chatbot.team.reading import Reader

FEEDBACK_ACTION = "team_feedback"  # buttons "team_feedback:up" / ":down"; Slack's native pair "team_feedback"
REASON_ACTION = "team_feedback_reason"  # a reason button: "team_feedback_reason:<reason>"
Vote = Literal["up", "down"]
VOTES: tuple[Vote, ...] = ("up", "down")
REASONS = ("wrong_prs", "missing_pr", "wrong_window", "wrong_language", "other")
QUESTION_CHARS = 150  # of the question, in a button's value (Slack allows 2,000 characters)
CITED_MAX = 30
REASON_CHARS = 500


@dataclass(frozen=True, slots=True)
class AnswerRef:
    """What an answer was, as its feedback records it: the question, the repo, the cited PRs, the
    language it was in."""

    question: str
    repo: str | None
    cited: tuple[int, ...]
    language: Language

    def value(self, vote: Vote) -> str:
        """A button's value: the vote and this answer, as compact JSON."""
        data: dict[str, Any] = {
            "v": vote,
            "q": self.question[:QUESTION_CHARS],
            "c": list(self.cited[:CITED_MAX]),
            "l": self.language,
        }
        if self.repo:
            data["r"] = self.repo
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def parse_feedback_value(value: str) -> tuple[Vote, AnswerRef] | None:
    """The vote and answer of a feedback button's value; None for anything that is not one of ours."""
    try:
        data = json.loads(value)
        vote = data["v"]
        if vote not in VOTES:
            return None
        language: Language = "en" if data.get("l") == "en" else "zh"
        cited = tuple(int(n) for n in data.get("c") or ())[:CITED_MAX]
        repo = str(data["r"]) if data.get("r") else None
        return vote, AnswerRef(str(data.get("q") or "")[:QUESTION_CHARS], repo, cited, language)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def feedback_actions(ref: AnswerRef) -> Actions:
    """The 👍 / 👎 pair of an answer (Slack renders it as its native feedback buttons where it can)."""
    return Actions(
        tuple(
            Button(
                say(f"feedback.button.{vote}", ref.language),
                action_id=f"{FEEDBACK_ACTION}:{vote}",
                value=ref.value(vote),
            )
            for vote in VOTES
        )
    )


def is_feedback(block: Block) -> bool:
    """Whether `block` is the 👍 / 👎 pair of `feedback_actions`."""
    return isinstance(block, Actions) and [b.action_id for b in block.buttons] == [
        f"{FEEDBACK_ACTION}:{vote}" for vote in VOTES
    ]


def with_feedback(reply: Reply, ref: AnswerRef) -> Reply:
    """`reply` ending in its 👍 / 👎 pair (once: a reply that has it is returned as it is)."""
    if any(is_feedback(block) for block in reply.blocks):
        return reply
    return Reply((*reply.blocks, feedback_actions(ref)), more_url=reply.more_url, ephemeral=reply.ephemeral)


def rated(answer: Answer) -> Reply:
    """An answer's reply as the platforms with buttons show it: with 👍 / 👎, unless it only
    acknowledges a command (help, a subscription, a claim, a vote: intent "help")."""
    query = answer.query
    if query.intent == "help":
        return answer.reply
    ref = AnswerRef(query.text[:QUESTION_CHARS], query.repo, answer.cited[:CITED_MAX], query.language)
    return with_feedback(answer.reply, ref)


def card_ref(report: WeeklyReport) -> AnswerRef:
    """What a report card is, as its feedback records it: the repo and week, and its key PRs."""
    return AnswerRef(
        f"{report.repo} {report.label}",
        report.repo,
        tuple(pr.number for pr in report.key_prs),
        report.language,
    )


@dataclass(frozen=True, slots=True)
class FeedbackView:
    id: int
    platform: str
    user_id: str
    name: str
    vote: str
    reason: str | None
    reason_text: str | None
    question: str
    repo: str | None
    cited: tuple[int, ...]
    language: str
    created_at: datetime
    updated_at: datetime


def _view(row: FeedbackRow) -> FeedbackView:
    return FeedbackView(
        row.id,
        row.platform,
        row.user_id,
        row.user_name,
        row.vote,
        row.reason,
        row.reason_text,
        row.question,
        row.repo,
        tuple(int(n) for n in row.cited or ()),
        row.language,
        row.created_at,
        row.updated_at,
    )


def record_vote(
    db: Database,
    reader: Reader,
    channel: str,
    message_ref: str,
    vote: Vote,
    ref: AnswerRef,
    now: datetime,
) -> FeedbackView:
    """Record `reader`'s vote on the answer in message `message_ref`: a new row, or their earlier vote
    changed (a 👍 drops a 👎's reason). Duplicate deliveries and double clicks change nothing."""
    where = (
        FeedbackRow.platform == reader.platform[:20],
        FeedbackRow.workspace == reader.workspace[:200],
        FeedbackRow.message_ref == message_ref[:200],
        FeedbackRow.user_id == reader.user_id[:200],
    )
    for _ in range(2):
        try:
            with db.session() as session:
                row = session.scalar(select(FeedbackRow).where(*where))
                if row is None:
                    row = FeedbackRow(
                        platform=reader.platform[:20],
                        workspace=reader.workspace[:200],
                        channel=channel[:200],
                        message_ref=message_ref[:200],
                        user_id=reader.user_id[:200],
                        user_name=reader.name[:200],
                        vote=vote,
                        question=ref.question,
                        repo=ref.repo,
                        cited=list(ref.cited),
                        language=ref.language,
                        created_at=now,
                        updated_at=now,
                    )
                    session.add(row)
                elif row.vote != vote:
                    row.vote, row.updated_at = vote, now
                    if vote == "up":
                        row.reason = row.reason_text = None
                session.flush()
                return _view(row)
        except IntegrityError:
            continue  # another delivery of the same click inserted it first: update that row
    raise RuntimeError("could not record the vote")


def record_reason(
    db: Database, feedback_id: int, reader: Reader, reason: str, text: str, now: datetime
) -> FeedbackView | None:
    """The reason of `reader`'s 👎 `feedback_id` (an unknown reason counts as "other"); None when that
    vote is not theirs or not a 👎 (a forwarded form, someone else's button)."""
    reason = reason if reason in REASONS else "other"
    line = " ".join(text.split())[:REASON_CHARS]
    with db.session() as session:
        row = session.get(FeedbackRow, feedback_id)
        if (
            row is None
            or row.vote != "down"
            or row.user_id != reader.user_id[:200]
            or row.platform != reader.platform[:20]
        ):
            return None
        row.reason, row.updated_at = reason, now
        if line:
            row.reason_text = line
        session.flush()
        return _view(row)


def feedback_list(
    db: Database, repo: str | None = None, since: datetime | None = None, vote: str | None = None
) -> list[FeedbackView]:
    """Recorded votes, newest first: of a repo, since a time, of one kind (up / down)."""
    statement = select(FeedbackRow)
    if repo:
        statement = statement.where(FeedbackRow.repo == repo.lower())
    if since is not None:
        statement = statement.where(FeedbackRow.updated_at >= since)
    if vote:
        statement = statement.where(FeedbackRow.vote == vote)
    with db.session() as session:
        rows = session.scalars(statement.order_by(FeedbackRow.updated_at.desc(), FeedbackRow.id.desc()))
        return [_view(row) for row in rows]


# Feedback in words ------------------------------------------------------------------------------------

_END = r"(?=$|[\s:：,，.。!！;；])"
_VOTE = re.compile(
    r"^\s*(?:(?P<up>👍|(?:赞|好评|有用)" + _END + r"|(?:thumbs[ -]?up|good answer|helpful)\b)"
    r"|(?P<down>👎|(?:踩|差评)" + _END + r"|(?:thumbs[ -]?down|bad answer|not helpful|wrong answer)\b)"
    r"|(?P<plain>(?:反馈|feedback)" + _END + r"))\s*[:：,，]?\s*(?P<rest>.*)$",
    re.I | re.S,
)
_POSITIVE = re.compile(
    r"^(?:很好|不错|有用|准确|对的|赞|good|great|helpful|useful|correct|accurate|nice|thanks)", re.I
)
_REASON_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("missing_pr", re.compile(r"漏了|漏掉|缺了|少了|没列|missing|missed|left out|forgot", re.I)),
    ("wrong_window", re.compile(r"时间|窗口|日期|周期|哪一?周|window|dates?\b|period|week", re.I)),
    ("wrong_language", re.compile(r"语言|中文|英文|language|chinese|english", re.I)),
    (
        "wrong_prs",
        re.compile(r"PR\s*不对|不相关|无关|错的\s*PR|wrong (?:prs?|pull)|irrelevant|unrelated", re.I),
    ),
)


@dataclass(frozen=True, slots=True)
class FeedbackCommand:
    """A vote in words and its reason (None: none given) with the words themselves."""

    vote: Vote
    reason: str | None
    text: str


def reason_of(text: str) -> str | None:
    """The reason a 👎's words give, "other" for words matching none, None for no words."""
    if not text.strip():
        return None
    for reason, pattern in _REASON_WORDS:
        if pattern.search(text):
            return reason
    return "other"


def parse_feedback_command(text: str) -> FeedbackCommand | None:
    """ "👍", "👎 漏了 #6512", "feedback: wrong window", "反馈：语言不对" → a vote on the last answer; None
    for anything else. "反馈" / "feedback" alone with words is a 👎 with those words as its reason."""
    match = _VOTE.match(text)
    if match is None:
        return None
    rest = match.group("rest").strip()
    if match.group("up"):
        return FeedbackCommand("up", None, rest)
    if match.group("plain"):
        if not rest:
            return None
        if _POSITIVE.match(rest):
            return FeedbackCommand("up", None, rest)
    return FeedbackCommand("down", reason_of(rest), rest)


def reason_label(reason: str | None, language: Language) -> str:
    return say(f"feedback.reason.{reason}", language) if reason in REASONS else "-"
