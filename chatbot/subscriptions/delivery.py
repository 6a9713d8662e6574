"""The push: every active subscription gets the card of the week that just ended, exactly once.

The ledger (`deliveries`, unique per subscription and week) is written before anything is sent:
1. `schedule_deliveries` adds a row for each subscription's latest scheduled time (once; a row more than
   48 hours late is recorded as skipped, with the reason, instead of sent);
2. a worker claims a due row with one conditional UPDATE (only one worker, thread or process, can
   win it), sends with an idempotency key derived from the row, and records the message reference;
3. a row left "sending" by a crash is settled by asking the platform whether the keyed message exists
   (Feishu deduplicates by uuid, Slack can be searched by message metadata) before sending again.
Transient failures are retried with backoff; a channel that is gone deactivates its subscription.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, and_, or_, select, update
from sqlalchemy.exc import IntegrityError

from chatbot.analysis.types import Analysis
from chatbot.messages import Language
from chatbot.models import PullRequest
from chatbot.ports import ChannelGone, ChatSender, Clock, Destination
from chatbot.reports.builder import AnalyzedPR, compose_weekly_report
from chatbot.reports.cards import ReportLinks, report_card
from chatbot.reports.model import WeeklyReport
from chatbot.reports.weekly import ReportWriter, build_weekly_report, window_records
from chatbot.store.db import Database
from chatbot.store.schema import DeliveryRow, RepoRow, SubscriptionEventRow, SubscriptionRow
from chatbot.subscriptions.schedule import last_occurrence, parse_time_of_day, period_of
from chatbot.team.feedback import card_ref, with_feedback
from chatbot.team.reading import CardOrigin, with_reading
from chatbot.weeks import Week

log = logging.getLogger(__name__)

CATCH_UP = timedelta(hours=48)
STALE_CLAIM = timedelta(minutes=10)
# Every retry falls within an hour of the first attempt: Feishu drops a resend with the same uuid only
# within an hour, so a send that reached Feishu but whose answer was lost is never posted twice.
RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=15), timedelta(minutes=30))
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
SPREAD_SECONDS = 180  # pushes due at the same minute are spread over three minutes, per subscription


@dataclass(slots=True)
class PushReport:
    scheduled: int = 0
    sent: int = 0
    recovered: int = 0
    skipped: int = 0
    failed: int = 0
    gone: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class PushContext:
    """What a push needs besides the database: senders by platform, the report inputs, the links."""

    senders: Mapping[str, ChatSender]
    fallback: Callable[[PullRequest], Analysis]
    writer: ReportWriter | None = None
    public_url: str | None = None


def _spread(subscription_id: int) -> timedelta:
    digest = hashlib.sha256(str(subscription_id).encode()).digest()
    return timedelta(seconds=int.from_bytes(digest[:4], "big") % SPREAD_SECONDS)


@dataclass(frozen=True, slots=True)
class DuePush:
    subscription_id: int
    period: str
    occurrence: datetime
    late: bool  # more than CATCH_UP after its time: recorded as skipped, not sent


def due_pushes(db: Database, now: datetime) -> list[DuePush]:
    """The latest scheduled push of every active subscription that has no ledger row yet."""
    with db.session() as session:
        subscriptions = session.scalars(select(SubscriptionRow).where(SubscriptionRow.active.is_(True))).all()
        existing = set(session.execute(select(DeliveryRow.subscription_id, DeliveryRow.period)).all())
    due = []
    for sub in subscriptions:
        tz = ZoneInfo(sub.timezone)
        occurrence = last_occurrence(sub.weekday, parse_time_of_day(sub.time_of_day), tz, now)
        if occurrence < sub.created_at:
            continue  # the channel subscribed after this push time: its first card is the next one
        period = period_of(occurrence, tz).label
        if (sub.id, period) not in existing:
            due.append(DuePush(sub.id, period, occurrence, now - occurrence > CATCH_UP))
    return due


def schedule_deliveries(db: Database, clock: Clock) -> tuple[int, int]:
    """Ledger rows for the due pushes: (added, skipped because too late)."""
    now = clock.now()
    added = skipped = 0
    for push in due_pushes(db, now):
        row = DeliveryRow(
            subscription_id=push.subscription_id,
            period=push.period,
            due_at=push.occurrence + _spread(push.subscription_id),
            state="skipped" if push.late else "pending",
            attempts=0,
            last_error=f"not sent: {now - push.occurrence} late (more than {CATCH_UP})"
            if push.late
            else None,
        )
        try:
            with db.session() as session:
                session.add(row)
        except IntegrityError:
            continue  # another worker scheduled it first
        if push.late:
            skipped += 1
            log.warning(
                "skipped the %s push of subscription %s: %s",
                push.period,
                push.subscription_id,
                row.last_error,
            )
        else:
            added += 1
    return added, skipped


def _claimable(now: datetime) -> ColumnElement[bool]:
    return and_(
        DeliveryRow.due_at <= now,
        or_(
            DeliveryRow.state == "pending",
            and_(
                DeliveryRow.state == "failed",
                DeliveryRow.next_attempt_at <= now,
                DeliveryRow.attempts < MAX_ATTEMPTS,
            ),
            and_(DeliveryRow.state == "sending", DeliveryRow.claimed_at < now - STALE_CLAIM),
        ),
    )


def claim_next(db: Database, worker: str, now: datetime) -> tuple[int, bool] | None:
    """Claim one due delivery: (id, whether it was left in flight by a crashed worker), or None. The
    conditional UPDATE is the lock: of two workers racing for a row, exactly one updates it."""
    with db.session() as session:
        candidates = session.execute(
            select(DeliveryRow.id, DeliveryRow.state)
            .where(_claimable(now))
            .order_by(DeliveryRow.due_at)
            .limit(20)
        ).all()
    for delivery_id, state in candidates:
        with db.session() as session:
            result = session.execute(
                update(DeliveryRow)
                .where(DeliveryRow.id == delivery_id, _claimable(now))
                .values(state="sending", claimed_by=worker, claimed_at=now, attempts=DeliveryRow.attempts + 1)
            )
            if result.rowcount == 1:  # type: ignore[attr-defined]
                return delivery_id, state == "sending"
    return None


@dataclass(frozen=True, slots=True)
class ReportFilters:
    """A subscription's filters: only these modules, only PRs at least this important, not these authors."""

    modules: frozenset[str] = frozenset()
    min_importance: float | None = None
    exclude_authors: frozenset[str] = frozenset()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReportFilters:
        floor = data.get("min_importance")
        return cls(
            frozenset(str(m).lower() for m in data.get("modules") or ()),
            float(floor) if floor is not None else None,
            frozenset(str(a).lower() for a in data.get("exclude_authors") or ()),
        )

    def __bool__(self) -> bool:
        return bool(self.modules or self.min_importance is not None or self.exclude_authors)

    def keep(self, record: AnalyzedPR) -> bool:
        return (
            (not self.modules or bool(self.modules & set(record.analysis.modules)))
            and (self.min_importance is None or record.analysis.importance >= self.min_importance)
            and record.pr.header.author.lower() not in self.exclude_authors
        )


def subscription_report(
    db: Database,
    repo: str,
    week: Week,
    language: Language,
    filters: ReportFilters,
    clock: Clock,
    context: PushContext,
) -> WeeklyReport:
    """The week's report as a subscription sees it: the stored report, or one composed from the PRs its
    filters keep (modules, minimum importance, excluded authors)."""
    if not filters:
        return build_weekly_report(
            db,
            repo,
            week,
            clock=clock,
            language=language,
            fallback=context.fallback,
            writer=context.writer,
        ).report
    previous_week = Week.containing(week.start - timedelta(days=1), week.tz)
    with db.session() as session:
        repo_row = session.scalar(select(RepoRow).where(RepoRow.full_name == repo))
        assert repo_row is not None
        records, _ = window_records(session, repo_row, week.start, week.end, context.fallback)
        previous, _ = window_records(
            session, repo_row, previous_week.start, previous_week.end, context.fallback
        )
    return compose_weekly_report(
        repo,
        week,
        [r for r in records if filters.keep(r)],
        [r for r in previous if filters.keep(r)],
        language=language,
        generated_at=clock.now(),
    )


# The reports of one push tick by (repo, week, language, filters): a tick's deliveries of the same
# report share one build (a 429 storm delivered one report 450 times, building it for each).
ReportsOfTick = dict[tuple[str, Week, Language, ReportFilters], WeeklyReport]


def deliver(
    db: Database,
    delivery_id: int,
    in_doubt: bool,
    clock: Clock,
    context: PushContext,
    reports: ReportsOfTick,
) -> str:
    """Send one claimed delivery and record the outcome: sent, recovered, gone or failed. The card's
    report is taken from `reports` when this tick built it already, else built and added there."""
    with db.session() as session:
        delivery = session.get(DeliveryRow, delivery_id)
        assert delivery is not None
        sub = session.get(SubscriptionRow, delivery.subscription_id)
        assert sub is not None
        repo = session.get(RepoRow, sub.repo_id)
        assert repo is not None
        destination = Destination(sub.platform, sub.workspace, sub.channel)
        language = cast(Language, sub.language)
        filters, tz, period = ReportFilters.from_dict(sub.filters), ZoneInfo(sub.timezone), delivery.period
        attempts, subscription_id, full_name = delivery.attempts, sub.id, repo.full_name
    key = f"prhub-delivery-{delivery_id}"
    sender = context.senders.get(destination.platform)
    try:
        if sender is None:
            raise RuntimeError(f"no sender for platform {destination.platform!r} is configured")
        # A send left in flight by a crash, or one that failed after perhaps reaching the platform
        # (a timeout, a 5xx), may have gone out: ask before sending again.
        reference = sender.find_sent(destination, key) if in_doubt or attempts > 1 else None
        outcome = "recovered" if reference else "sent"
        if reference is None:
            year, week_number = period.split("-W")
            week = Week(int(year), int(week_number), tz)
            report = reports.get((full_name, week, language, filters))
            if report is None:
                report = subscription_report(db, full_name, week, language, filters, clock, context)
                reports[full_name, week, language, filters] = report
            card = report_card(report, ReportLinks.for_report(context.public_url, report))
            origin = CardOrigin(full_name, period, language, tz.key, subscription_id)
            card = with_feedback(with_reading(db, report, card, origin), card_ref(report))
            reference = sender.post(destination, card, language=language, idempotency_key=key)
    except ChannelGone as exc:
        _finish(db, delivery_id, state="gone", error=f"channel gone: {exc}")
        _deactivate(db, subscription_id, destination, full_name, str(exc), clock.now())
        return "gone"
    except Exception as exc:  # any failure of one delivery is recorded and retried, never fatal to the tick
        delay = RETRY_DELAYS[min(attempts, len(RETRY_DELAYS)) - 1]
        log.warning("push %s (%s %s) failed, attempt %d: %s", delivery_id, full_name, period, attempts, exc)
        _finish(
            db,
            delivery_id,
            state="failed",
            error=f"{type(exc).__name__}: {exc}"[:2000],
            next_attempt_at=clock.now() + delay,
        )
        return "failed"
    _finish(db, delivery_id, state="sent", reference=reference, sent_at=clock.now())
    return outcome


def _finish(
    db: Database,
    delivery_id: int,
    *,
    state: str,
    error: str | None = None,
    reference: str | None = None,
    sent_at: datetime | None = None,
    next_attempt_at: datetime | None = None,
) -> None:
    with db.session() as session:
        session.execute(
            update(DeliveryRow)
            .where(DeliveryRow.id == delivery_id)
            .values(
                state=state,
                last_error=error,
                message_ref=reference,
                sent_at=sent_at,
                next_attempt_at=next_attempt_at,
            )
        )


def _deactivate(
    db: Database, subscription_id: int, destination: Destination, repo: str, reason: str, now: datetime
) -> None:
    with db.session() as session:
        session.execute(
            update(SubscriptionRow)
            .where(SubscriptionRow.id == subscription_id)
            .values(active=False, updated_at=now)
        )
        session.add(
            SubscriptionEventRow(
                subscription_id=subscription_id,
                action="deactivated",
                actor=None,
                platform=destination.platform,
                channel=destination.channel,
                repo=repo,
                detail={"reason": reason},
                created_at=now,
            )
        )
    log.warning(
        "deactivated subscription %s (%s in %s): %s", subscription_id, repo, destination.channel, reason
    )


def push_due(
    db: Database, clock: Clock, context: PushContext, worker: str, limit: int | None = None
) -> PushReport:
    """One push tick: schedule what became due, then claim and deliver until nothing is left (each
    report built once for the tick)."""
    report = PushReport()
    report.scheduled, report.skipped = schedule_deliveries(db, clock)
    reports: ReportsOfTick = {}
    done = 0
    while limit is None or done < limit:
        claimed = claim_next(db, worker, clock.now())
        if claimed is None:
            break
        outcome = deliver(db, claimed[0], claimed[1], clock, context, reports)
        setattr(report, outcome, getattr(report, outcome) + 1)
        done += 1
    return report
