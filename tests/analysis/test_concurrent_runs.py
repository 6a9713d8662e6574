"""Two `prhub analyze` runs at once share the work instead of each analysing every PR (with an LLM,
each analysis costs money); a run that died leaves its leases, which expire. Both databases."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from datetime import timedelta

from sqlalchemy import func, select

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.analysis.runner import LEASE, LEASE_KIND, HeuristicOutcome, analyze_stored, lease_key
from chatbot.clock import FixedClock
from chatbot.models import PullRequest
from chatbot.store.events import claim_leases
from chatbot.store.index import PRIndex
from chatbot.store.schema import AnalysisRow, ProcessedEventRow, PullRequestRow
from tests.reports.fixtures import REPO, WEEK_START, pr

CLOCK = FixedClock(WEEK_START + timedelta(days=8))
HEURISTIC = HeuristicAnalyzer()
TOTAL = 250  # three chunks


class CountingAnalyzer:
    """The heuristic analyzer, counting what it analyses; `meanwhile` runs once, when its first batch
    starts: another run overlapping with this one."""

    name, version = HEURISTIC.name, HEURISTIC.version

    def __init__(self, seen: Counter[int], meanwhile=None) -> None:  # type: ignore[no-untyped-def]
        self.seen, self.meanwhile = seen, meanwhile

    def analyze_many(self, prs: Iterable[PullRequest], concurrency: int = 1) -> Iterator[HeuristicOutcome]:
        if self.meanwhile is not None:
            overlap, self.meanwhile = self.meanwhile, None
            overlap()
        for item in prs:
            self.seen[item.number] += 1
            yield HeuristicOutcome(item, HEURISTIC.analyze(item))


def store(db) -> None:  # type: ignore[no-untyped-def]
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo(REPO, CLOCK.now())
        for n in range(1, TOTAL + 1):
            index.upsert(
                repo, pr(n, f"[trainer] fix: change {n}", WEEK_START + timedelta(minutes=n)), CLOCK.now()
            )


def run(db, analyzer):  # type: ignore[no-untyped-def]
    return analyze_stored(db, analyzer, language="zh", clock=CLOCK)


def test_two_overlapping_runs_analyse_each_pr_once(db):
    store(db)
    seen: Counter[int] = Counter()
    second = []
    first = run(db, CountingAnalyzer(seen, lambda: second.append(run(db, CountingAnalyzer(seen)))))
    assert sorted(seen) == list(range(1, TOTAL + 1))
    assert set(seen.values()) == {1}
    assert first.analyzed + second[0].analyzed == TOTAL
    assert second[0].left_to_another == 100  # the first run's chunk, leased while it worked
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(AnalysisRow)) == TOTAL
        leases = session.scalar(
            select(func.count())
            .select_from(ProcessedEventRow)
            .where(ProcessedEventRow.platform == LEASE_KIND)
        )
        assert leases == 0  # given back once stored


def test_the_leases_of_a_run_that_died_expire(db):
    store(db)
    with db.session() as session:
        pairs = session.execute(select(PullRequestRow.id, PullRequestRow.content_hash)).all()

    analyzer = CountingAnalyzer(Counter())
    keys = [lease_key(analyzer, "zh", (pr_id, content_hash)) for pr_id, content_hash in pairs]
    assert len(claim_leases(db, LEASE_KIND, keys, CLOCK.now() - LEASE - timedelta(seconds=1), LEASE)) == TOTAL
    report = run(db, analyzer)
    assert report.analyzed == TOTAL and report.left_to_another == 0


def test_fresh_leases_of_another_run_are_left_alone(db):
    store(db)
    with db.session() as session:
        pairs = session.execute(select(PullRequestRow.id, PullRequestRow.content_hash).limit(10)).all()

    analyzer = CountingAnalyzer(Counter())
    keys = [lease_key(analyzer, "zh", (pr_id, content_hash)) for pr_id, content_hash in pairs]
    claim_leases(db, LEASE_KIND, keys, CLOCK.now() - timedelta(minutes=1), LEASE)
    report = run(db, analyzer)
    assert (report.analyzed, report.left_to_another) == (TOTAL - 10, 10)
