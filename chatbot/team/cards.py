"""A report card rebuilt from where it came from (`CardOrigin`), with its Reading section and its
👍 / 👎: what a click on "I'll read it" or "Done" sends back to the platform to update the message in
place."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from chatbot.models import Reply
from chatbot.ports import Clock
from chatbot.reports.cards import ReportLinks, report_card
from chatbot.reports.weekly import build_weekly_report
from chatbot.store.db import Database
from chatbot.store.schema import SubscriptionRow
from chatbot.subscriptions.delivery import PushContext, ReportFilters, subscription_report
from chatbot.team.feedback import card_ref, with_feedback
from chatbot.team.reading import CardOrigin, with_reading
from chatbot.weeks import Week


def weekly_card(db: Database, origin: CardOrigin, clock: Clock, context: PushContext) -> Reply:
    """The card `origin` names, as it reads now: the subscription's filtered report when it came from a
    push (a subscription deleted since gives the whole report), else the stored report."""
    year, number = origin.week.split("-W")
    week = Week(int(year), int(number), ZoneInfo(origin.tz))
    filters = ReportFilters()
    if origin.subscription is not None:
        with db.session() as session:
            subscription = session.get(SubscriptionRow, origin.subscription)
            if subscription is not None:
                filters = ReportFilters.from_dict(subscription.filters)
    if filters:
        report = subscription_report(db, origin.repo, week, origin.language, filters, clock, context)
    else:
        report = build_weekly_report(
            db,
            origin.repo,
            week,
            clock=clock,
            language=origin.language,
            fallback=context.fallback,
            writer=context.writer,
        ).report
    card = report_card(report, ReportLinks.for_report(context.public_url, report))
    return with_feedback(with_reading(db, report, card, origin), card_ref(report))
