"""The conversation store: the last question (as JSON) and the PRs its answer cited, per thread or
direct chat, with an expiry. In the database, so every replica sees the same conversation."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from chatbot.store.db import Database
from chatbot.store.schema import ConversationRow

# (platform, workspace, channel, thread): "" where a part does not apply (a DM has no thread).
ConversationKey = tuple[str, str, str, str]


@dataclass(frozen=True, slots=True)
class Remembered:
    query: dict[str, Any]
    cited: tuple[int, ...]


def _where(key: ConversationKey) -> tuple[Any, ...]:
    platform, workspace, channel, thread = (part[:200] for part in key)
    return (
        ConversationRow.platform == platform[:20],
        ConversationRow.workspace == workspace,
        ConversationRow.channel == channel,
        ConversationRow.thread == thread,
    )


def recall(db: Database, key: ConversationKey, now: datetime) -> Remembered | None:
    """The conversation's last question, unless it has expired."""
    with db.session() as session:
        row = session.scalar(select(ConversationRow).where(*_where(key)))
        if row is None or row.expires_at <= now:
            return None
        return Remembered(dict(row.query), tuple(int(n) for n in row.cited))


def remember(
    db: Database,
    key: ConversationKey,
    query: dict[str, Any],
    cited: tuple[int, ...],
    now: datetime,
    expires_at: datetime,
) -> None:
    """Store the conversation's last question (replacing the one before). Two replicas writing the same
    new conversation at once: the unique key lets one insert and the other update."""
    for _ in range(2):
        try:
            with db.session() as session:
                row = session.scalar(select(ConversationRow).where(*_where(key)))
                if row is None:
                    platform, workspace, channel, thread = (part[:200] for part in key)
                    row = ConversationRow(
                        platform=platform[:20], workspace=workspace, channel=channel, thread=thread
                    )
                    session.add(row)
                row.query, row.cited, row.updated_at, row.expires_at = query, list(cited), now, expires_at
            return
        except IntegrityError:
            continue


def forget_expired_conversations(db: Database, now: datetime) -> int:
    """Delete expired conversations; returns how many."""
    with db.session() as session:
        result = session.execute(delete(ConversationRow).where(ConversationRow.expires_at <= now))
        return int(getattr(result, "rowcount", 0) or 0)
