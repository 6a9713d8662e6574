"""Subscribing channels to repos from chat: permissions, the allowlist, validation of new repos through
GitHub (with a background backfill), options, and an audit entry for every change."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from chatbot.commands import Command
from chatbot.messages import Language, join, say
from chatbot.models import BulletList, Heading, Message, Paragraph, Reply, plain
from chatbot.ports import Clock, RepoValidator, SourceError
from chatbot.repos import is_repo_name
from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.store.schema import RepoRow, SubscriptionEventRow, SubscriptionRow
from chatbot.subscriptions.schedule import WEEKDAY_WORDS, next_occurrence, parse_time_of_day

BACKFILL_WEEKS = 8
MAX_FILTER_ENTRIES = 50  # modules or authors in one filter; a repo has a few dozen modules at most
MAX_FILTER_ENTRY_CHARS = 100


@dataclass(frozen=True, slots=True)
class SubscriptionPolicy:
    """Who may change subscriptions and to what; defaults for new ones."""

    default_timezone: str
    admins: frozenset[str] = frozenset()  # empty: everyone may
    allowed_repos: frozenset[str] = frozenset()  # empty: any repo


def describe_filters(filters: dict[str, Any], language: Language) -> str:
    parts = []
    if filters.get("modules"):
        parts.append(say("sub.filter.modules", language, value=",".join(filters["modules"])))
    if filters.get("min_importance") is not None:
        parts.append(say("sub.filter.min_importance", language, value=filters["min_importance"]))
    if filters.get("exclude_authors"):
        parts.append(say("sub.filter.exclude_authors", language, value=",".join(filters["exclude_authors"])))
    return say("sub.filters", language, filters=join(parts, language)) if parts else ""


class SubscriptionService:
    """Runs subscription commands for one platform message."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        policy: SubscriptionPolicy,
        validator: RepoValidator | None = None,
        backfill: Callable[[str], None] | None = None,
    ) -> None:
        self.db, self.clock, self.policy, self.validator, self.backfill = (
            db,
            clock,
            policy,
            validator,
            backfill,
        )

    def execute(self, command: Command, message: Message, language: Language) -> Reply:
        if command.kind == "list":
            return self.listing(message, language)
        if self.policy.admins and (message.user or "") not in self.policy.admins:
            self._audit(None, "refused", message, command.repo or "", {"reason": "permission"})
            # Only the person refused needs to read it (an ephemeral message, a per-user card).
            return Reply((Paragraph((plain(say("sub.refused.permission", language)),)),), ephemeral=True)
        if command.kind == "unsubscribe":
            return self.unsubscribe(command, message, language)
        return self.subscribe(command, message, language)

    # Subscribe -----------------------------------------------------------------------------------------

    def subscribe(self, command: Command, message: Message, language: Language) -> Reply:
        if not command.repo:
            return _text(say("sub.refused.no_repo", language))
        try:
            settings = self._settings(command, language)
        except ValueError as exc:
            return _text(say("sub.refused.options", language, words=str(exc)))
        with self.db.session() as session:
            repos = PRIndex(session).repos()
            repo = _resolve(command.repo, repos)
            known = join((r.full_name for r in repos), language) or "-"
        if repo is None and "/" not in command.repo:
            return _text(say("sub.refused.unknown_name", language, repo=command.repo, known=known))
        name = repo.full_name if repo is not None else _bare(command.repo)
        if not is_repo_name(name):
            self._audit(None, "refused", message, name[:200], {"reason": "name"})
            return _text(say("sub.refused.bad_name", language, repo=name[:100]))
        allowed = self.policy.allowed_repos
        if allowed and name not in allowed:
            # The allowlist itself is not shown: any user could otherwise read which repos are followed.
            self._audit(None, "refused", message, name, {"reason": "allowlist"})
            return _text(say("sub.refused.allowlist", language, repo=name))
        notes: list[str] = []
        if repo is None:
            refusal = self._validate(name, language)
            if refusal is not None:
                self._audit(None, "refused", message, name, {"reason": refusal})
                return _text(refusal)
            notes.append(say("sub.backfill", language, repo=name, weeks=BACKFILL_WEEKS))
        now = self.clock.now()
        with self.db.session() as session:
            repo_row = PRIndex(session).ensure_repo(name, now)
            row = session.scalar(
                select(SubscriptionRow).where(
                    SubscriptionRow.platform == message.platform,
                    SubscriptionRow.workspace == (message.workspace or ""),
                    SubscriptionRow.channel == (message.channel or ""),
                    SubscriptionRow.repo_id == repo_row.id,
                )
            )
            action = "updated" if row is not None and row.active else "subscribed"
            if row is None:
                row = SubscriptionRow(
                    platform=message.platform,
                    workspace=message.workspace or "",
                    channel=message.channel or "",
                    repo_id=repo_row.id,
                    created_by=message.user,
                    created_at=now,
                    **settings,
                )
                session.add(row)
            else:
                for key, value in settings.items():
                    setattr(row, key, value)
            row.active, row.updated_at = True, now
            session.flush()
            self._audit_in(session, row.id, action, message, name, settings)
            line = self._describe(row, name, language, f"sub.{action}")
        if repo is None and self.backfill is not None:
            self.backfill(name)
        return Reply((Paragraph((plain(line),)), *(Paragraph((plain(n),)) for n in notes)))

    def _settings(self, command: Command, language: Language) -> dict[str, Any]:
        options, bad = command.options, list(command.problems)
        weekday = WEEKDAY_WORDS.get(options.get("weekday", "mon"), 0)
        if not weekday:
            bad.append(options["weekday"])
        time_text = options.get("time", "09:00")
        try:
            time_of_day = parse_time_of_day(time_text).strftime("%H:%M")
        except ValueError:
            bad.append(time_text)
            time_of_day = "09:00"
        tz = options.get("tz", self.policy.default_timezone)
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError):
            bad.append(f"tz={tz}")
        lang = options.get("lang", language).lower()
        if lang not in ("zh", "en"):
            bad.append(f"lang={lang}")
        filters: dict[str, Any] = {}
        if "modules" in options:
            filters["modules"] = [m.strip().lower() for m in options["modules"].split(",") if m.strip()]
            bad += _oversized("modules", filters["modules"])
        if "min-importance" in options:
            try:
                filters["min_importance"] = float(options["min-importance"])
                if not 0 <= filters["min_importance"] <= 10:
                    raise ValueError
            except ValueError:
                bad.append(f"min-importance={options['min-importance']}")
        if "exclude-authors" in options:
            filters["exclude_authors"] = [
                a.strip() for a in options["exclude-authors"].split(",") if a.strip()
            ]
            bad += _oversized("exclude-authors", filters["exclude_authors"])
        if bad:
            raise ValueError(" ".join(bad))
        return {
            "weekday": weekday,
            "time_of_day": time_of_day,
            "timezone": tz,
            "language": lang,
            "filters": filters,
        }

    def _validate(self, repo: str, language: Language) -> str | None:
        """None when the repo exists on GitHub; else the refusal to send."""
        if self.validator is None:
            return say(
                "sub.refused.unvalidated", language, repo=repo, reason="GITHUB_TOKEN is not configured"
            )
        try:
            exists = self.validator.repo_exists(repo)
        except SourceError as exc:
            return say("sub.refused.unvalidated", language, repo=repo, reason=str(exc))
        return None if exists else say("sub.refused.missing", language, repo=repo)

    # Unsubscribe and list -------------------------------------------------------------------------------

    def unsubscribe(self, command: Command, message: Message, language: Language) -> Reply:
        with self.db.session() as session:
            rows = self._channel_subscriptions(session, message)
            match = _resolve(command.repo or "", [repo for _, repo in rows])
            if match is None:
                listing = self._lines(session, rows, language)
                return _text(
                    say("sub.not_subscribed", language, repo=command.repo or "?", listing="; ".join(listing))
                )
            row = next(sub for sub, repo in rows if repo.id == match.id)
            row.active, row.updated_at = False, self.clock.now()
            self._audit_in(session, row.id, "unsubscribed", message, match.full_name, {})
        return _text(say("sub.unsubscribed", language, repo=match.full_name))

    def listing(self, message: Message, language: Language) -> Reply:
        with self.db.session() as session:
            rows = self._channel_subscriptions(session, message)
            if not rows:
                example = PRIndex(session).repos()
                return _text(
                    say("sub.list.empty", language, example=example[0].full_name if example else "owner/repo")
                )
            lines = self._lines(session, rows, language)
        return Reply(
            (Heading(say("sub.list.title", language)), BulletList(tuple((plain(line),) for line in lines)))
        )

    def _lines(
        self, session: Session, rows: Sequence[tuple[SubscriptionRow, RepoRow]], language: Language
    ) -> list[str]:
        return [self._describe(sub, repo.full_name, language, "sub.list.line") for sub, repo in rows]

    def _channel_subscriptions(
        self, session: Session, message: Message
    ) -> list[tuple[SubscriptionRow, RepoRow]]:
        statement = (
            select(SubscriptionRow, RepoRow)
            .join(RepoRow, RepoRow.id == SubscriptionRow.repo_id)
            .where(*_active_in_channel(message))
            .order_by(RepoRow.full_name)
        )
        return [(sub, repo) for sub, repo in session.execute(statement)]

    def _describe(self, row: SubscriptionRow, repo: str, language: Language, key: str) -> str:
        tz = ZoneInfo(row.timezone)
        upcoming = next_occurrence(row.weekday, parse_time_of_day(row.time_of_day), tz, self.clock.now())
        return say(
            key,
            language,
            repo=repo,
            weekday=say(f"sub.weekday.{row.weekday}", language),
            time=row.time_of_day,
            tz=row.timezone,
            lang=say(f"sub.lang.{row.language}", language),
            filters=describe_filters(row.filters, language),
            next=upcoming.strftime("%Y-%m-%d %H:%M %Z"),
        )

    # Audit ------------------------------------------------------------------------------------------

    def _audit(
        self, subscription_id: int | None, action: str, message: Message, repo: str, detail: dict[str, Any]
    ) -> None:
        with self.db.session() as session:
            self._audit_in(session, subscription_id, action, message, repo, detail)

    def _audit_in(
        self,
        session: Session,
        subscription_id: int | None,
        action: str,
        message: Message,
        repo: str,
        detail: dict[str, Any],
    ) -> None:
        session.add(
            SubscriptionEventRow(
                subscription_id=subscription_id,
                action=action,
                actor=message.user,
                platform=message.platform,
                channel=message.channel or "",
                repo=repo,
                detail=detail,
                created_at=self.clock.now(),
            )
        )


def _oversized(option: str, entries: list[str]) -> list[str]:
    """The problem with a filter list that is too long (or has too long an entry), for the refusal:
    a subscription row must not carry thousands of entries."""
    if len(entries) > MAX_FILTER_ENTRIES or any(len(e) > MAX_FILTER_ENTRY_CHARS for e in entries):
        return [f"{option}=… ({len(entries)}; ≤ {MAX_FILTER_ENTRIES} × ≤ {MAX_FILTER_ENTRY_CHARS})"]
    return []


def _bare(text: str) -> str:
    """A repo as typed, without a GitHub URL prefix, lower-cased."""
    return text.strip().lower().removeprefix("https://github.com/").strip("/")


def _resolve(text: str, repos: Sequence[RepoRow]) -> RepoRow | None:
    """An indexed repo by full name, bare name or alias (unique), case-insensitively."""
    wanted = _bare(text)
    for repo in repos:
        if repo.full_name == wanted:
            return repo
    named = [
        r for r in repos if wanted in (r.full_name.split("/", 1)[1], *(a.lower() for a in r.aliases or ()))
    ]
    return named[0] if len(named) == 1 else None


def _text(text: str) -> Reply:
    return Reply((Paragraph((plain(text),)),))


def _active_in_channel(message: Message) -> tuple[ColumnElement[bool], ...]:
    """The conditions that select the active subscriptions of the channel a message came from."""
    return (
        SubscriptionRow.platform == message.platform,
        SubscriptionRow.workspace == (message.workspace or ""),
        SubscriptionRow.channel == (message.channel or ""),
        SubscriptionRow.active.is_(True),
    )


def channel_repo(db: Database, message: Message) -> str | None:
    """The repo a channel is subscribed to, when it is exactly one: questions there may omit it."""
    names = channel_repos(db, message)
    return names[0] if len(names) == 1 else None


def channel_repos(db: Database, message: Message) -> list[str]:
    """Every repo the channel is subscribed to: what a question there that names none may be about."""
    with db.session() as session:
        return list(
            session.scalars(
                select(RepoRow.full_name)
                .join(SubscriptionRow, SubscriptionRow.repo_id == RepoRow.id)
                .where(*_active_in_channel(message))
                .distinct()
                .order_by(RepoRow.full_name)
            ).all()
        )


def subscriptions_in(
    db: Database, platform: str, workspace: str | None, channels: Sequence[str]
) -> list[tuple[SubscriptionRow, str]]:
    """The active subscriptions of `channels` in a workspace with their repo names, by channel then repo:
    what a Slack Home tab or a Feishu menu card lists."""
    if not channels:
        return []
    with db.session() as session:
        statement = (
            select(SubscriptionRow, RepoRow.full_name)
            .join(RepoRow, RepoRow.id == SubscriptionRow.repo_id)
            .where(
                SubscriptionRow.platform == platform,
                SubscriptionRow.workspace == (workspace or ""),
                SubscriptionRow.channel.in_(list(channels)),
                SubscriptionRow.active.is_(True),
            )
            .order_by(SubscriptionRow.channel, RepoRow.full_name)
        )
        rows = [(row, name) for row, name in session.execute(statement)]
        session.expunge_all()
    return rows


def active_subscription(db: Database, platform: str, value: str) -> tuple[SubscriptionRow, str] | None:
    """The active subscription whose id a button or form carried (`value`, a string), with its repo."""
    if not value.isdigit():
        return None
    with db.session() as session:
        found = session.execute(
            select(SubscriptionRow, RepoRow.full_name)
            .join(RepoRow, RepoRow.id == SubscriptionRow.repo_id)
            .where(
                SubscriptionRow.id == int(value),
                SubscriptionRow.platform == platform,
                SubscriptionRow.active.is_(True),
            )
        ).first()
        session.expunge_all()
    return (found[0], found[1]) if found else None
