"""PRs read by number (or id) are the PRs a read of their window gives: each with its current analysis
(the newest of its current content), oldest first, only those merged in the window. Reads by number
order and window-check in Python (a big IN list led SQLite through the whole window); both databases.
And a search document split once scores as its text does, for each of several word groups."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.types import Analysis
from chatbot.qa.query import Window
from chatbot.qa.retrieve import SearchText, _documents, _Group, answer_records, score_records
from chatbot.store.analyses import save_analysis
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow
from tests.store.test_index import make_pr

NOW = datetime(2026, 6, 24, 2, 0, tzinfo=UTC)
START, END = NOW - timedelta(days=7), NOW
FALLBACK = HeuristicAnalyzer().analyze


def scored(importance: float, verdict: str = "skim") -> Analysis:
    return Analysis(
        title_zh="",
        summary="",
        modules=("rollout",),
        change_type="feat",
        breaking=False,
        importance=importance,
        insight=1.0,
        verdict=verdict,  # type: ignore[arg-type]
        verdict_reason="",
    )


@pytest.fixture
def repo(db):
    """acme/widgets: #1..#8 merged over the past week, #9 and #10 before it (same merge time for #2 and
    #3); #3 analysed twice (the newer counts), #4 analysed, then changed (its stale analysis does not
    count: it is analysed again), #6 never analysed."""
    with db.session() as session:
        index = PRIndex(session)
        row = index.ensure_repo("acme/widgets", NOW)
        merged = {n: NOW - timedelta(hours=10 * n) for n in range(1, 9)}
        merged |= {3: merged[2], 9: START - timedelta(hours=1), 10: START - timedelta(days=3)}
        for number, when in merged.items():
            index.upsert(row, make_pr(number, title=f"feat: change {number}", merged=when), NOW)
        session.flush()
        rows = {r.number: r for r in session.query(PullRequestRow).filter_by(repo_id=row.id)}
        for number, pr in rows.items():
            if number != 6:
                analyse(session, pr, scored(number / 2), NOW - timedelta(hours=2))
        analyse(session, rows[3], scored(9.9, "must-read"), NOW)
        rows[4].content_hash = "changed since"
        analyse(session, rows[4], scored(0.5), NOW - timedelta(hours=1))
    return db


def analyse(session, row: PullRequestRow, analysis: Analysis, when: datetime) -> None:
    save_analysis(session, row, analysis, analyzer="heuristic", version="1", language="zh", now=when)


def summary(records) -> list[tuple[int, float, str]]:
    return [(r.number, r.analysis.importance, r.analysis.verdict) for r in records]


@pytest.mark.parametrize("read", [score_records, answer_records])
def test_prs_read_by_number_are_those_of_the_window_in_its_order_with_current_analyses(repo, read):
    with repo.session() as session:
        row = PRIndex(session).repo("acme/widgets")
        whole = summary(read(session, row, START, END, FALLBACK))
        asked = {2, 3, 4, 6, 9, 10}  # #9 and #10 merged before the window
        by_number = summary(read(session, row, START, END, FALLBACK, numbers=asked))
    assert [n for n, _, _ in whole] == [8, 7, 6, 5, 4, 2, 3, 1]  # oldest first; #2, #3 by number
    assert by_number == [r for r in whole if r[0] in asked]
    assert (3, 9.9, "must-read") in by_number
    assert (4, 0.5, "skim") in by_number


def test_documents_read_by_id_are_only_those_merged_in_the_window(repo):
    window = Window(START, END)
    with repo.session() as session:
        row = PRIndex(session).repo("acme/widgets")
        ids = dict(session.query(PullRequestRow.number, PullRequestRow.id).filter_by(repo_id=row.id).all())
        in_window = _documents(session, row, window, None)
        asked = [ids[n] for n in (1, 5, 9, 10)]
        by_id = _documents(session, row, window, asked)
        all_time = _documents(session, row, None, asked)
    assert set(in_window) == {1, 2, 3, 4, 5, 7, 8}  # #6 has no analysis, so no search document yet
    assert by_id == {n: in_window[n] for n in (1, 5)}
    assert set(all_time) == {1, 5, 9, 10}


DOCUMENTS = (
    "fix oom in rollout\nfrees the kv cache after each step. minor memory usage increase.\n"
    "verl/rollout/cache.py\n\x1e\n修复 rollout 的 OOM\nrollout\n不影响显存占用\nmemory is freed earlier",
    "docs: typo\nno memory change\n\x1e\n文档\ndoc\n未改动显存",
    "perf: expert parallel for moe\nadds expert parallel. memory drops by 20%.\n\x1e\n专家并行\nmegatron",
)


def test_a_document_split_once_scores_each_word_group_as_its_text_does():
    groups = [
        _Group.of(("memory", "显存", "oom")),
        _Group.of(("expert",)),
        _Group.of(("parallel", "并行")),
        _Group.of(("verl/rollout/cache.py",), literal=True),
        _Group.of(("rollout",), module=True),
    ]
    for document in DOCUMENTS:
        text = SearchText(document)
        for group in (*groups, *reversed(groups)):  # what one group works out does not change another's
            assert group.occurrence(text) == group.occurrence(document)
