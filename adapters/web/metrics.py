"""`/metrics` in Prometheus text format.

Counters kept in this process (answers by platform and intent, LLM calls and tokens of this process's
analyses), plus figures read from the database at scrape time, so they agree across replicas:
platform events taken, deliveries by state, analyses and their tokens, each repo's sync lag, and the
team loop's 👍/👎 votes, corrections and reading claims.
With PRHUB_METRICS_TOKEN set, a scrape must carry it (`Authorization: Bearer …`).
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Flask, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select

from adapters.web.app import has_token
from chatbot.ports import Clock
from chatbot.store.db import Database
from chatbot.store.feedback import CorrectionRow, FeedbackRow
from chatbot.store.reading import ReadingClaimRow
from chatbot.store.schema import AnalysisRow, DeliveryRow, ProcessedEventRow, RepoRow


class Metrics:
    def __init__(self, db: Database, clock: Clock, token: str | None = None) -> None:
        self.token = token
        self.registry = CollectorRegistry()
        self.answers = Counter(
            "prhub_answers",
            "Answers sent, by platform and intent",
            ["platform", "intent"],
            registry=self.registry,
        )
        self.registry.register(_StoreCollector(db, clock))

    def mount(self, app: Flask) -> None:
        app.add_url_rule("/metrics", "metrics", self.render)

    def render(self) -> Response:
        if not has_token(self.token):
            return Response("a token is required (PRHUB_METRICS_TOKEN)", status=401)
        return Response(generate_latest(self.registry), content_type=CONTENT_TYPE_LATEST)


class _StoreCollector(Collector):
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db, self.clock = db, clock

    def collect(self) -> Iterator[GaugeMetricFamily]:
        with self.db.session() as session:
            events = session.execute(
                select(ProcessedEventRow.platform, func.count()).group_by(ProcessedEventRow.platform)
            ).all()
            deliveries = session.execute(
                select(DeliveryRow.state, func.count()).group_by(DeliveryRow.state)
            ).all()
            analyses = session.execute(
                select(
                    AnalysisRow.analyzer,
                    func.count(),
                    func.coalesce(func.sum(AnalysisRow.prompt_tokens), 0),
                    func.coalesce(func.sum(AnalysisRow.completion_tokens), 0),
                ).group_by(AnalysisRow.analyzer)
            ).all()
            repos = session.execute(select(RepoRow.full_name, RepoRow.last_synced_at)).all()
            votes = session.execute(select(FeedbackRow.vote, func.count()).group_by(FeedbackRow.vote)).all()
            corrections = session.execute(
                select(CorrectionRow.kind, func.count()).group_by(CorrectionRow.kind)
            ).all()
            claims = session.execute(
                select(ReadingClaimRow.done_at.is_not(None), func.count()).group_by(
                    ReadingClaimRow.done_at.is_not(None)
                )
            ).all()
        now = self.clock.now()
        family = GaugeMetricFamily(
            "prhub_events_handled", "Platform events taken (deduplicated)", labels=["platform"]
        )
        for platform, count in events:
            family.add_metric([platform], count)
        yield family
        family = GaugeMetricFamily("prhub_deliveries", "Push deliveries by state", labels=["state"])
        for state, count in deliveries:
            family.add_metric([state], count)
        yield family
        calls = GaugeMetricFamily("prhub_analyses", "Stored analyses by analyzer", labels=["analyzer"])
        tokens = GaugeMetricFamily(
            "prhub_llm_tokens", "LLM tokens of stored analyses", labels=["analyzer", "kind"]
        )
        for analyzer, count, prompt, completion in analyses:
            calls.add_metric([analyzer], count)
            tokens.add_metric([analyzer, "prompt"], prompt)
            tokens.add_metric([analyzer, "completion"], completion)
        yield calls
        yield tokens
        lag = GaugeMetricFamily(
            "prhub_sync_lag_seconds", "Seconds since each repo's last sync", labels=["repo"]
        )
        for name, synced in repos:
            if synced is not None:
                lag.add_metric([name], (now - synced).total_seconds())
        yield lag
        family = GaugeMetricFamily(
            "prhub_feedback_votes", "👍/👎 votes on answers and cards", labels=["vote"]
        )
        counted = dict(votes)
        for vote in ("up", "down"):
            family.add_metric([vote], counted.get(vote, 0))
        yield family
        family = GaugeMetricFamily("prhub_corrections", "Corrections of analyses by kind", labels=["kind"])
        for kind, count in corrections:
            family.add_metric([kind], count)
        yield family
        family = GaugeMetricFamily("prhub_reading_claims", "Reading claims by state", labels=["state"])
        done = {bool(finished): count for finished, count in claims}
        family.add_metric(["reading"], done.get(False, 0))
        family.add_metric(["done"], done.get(True, 0))
        yield family
