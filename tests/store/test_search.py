"""Search over analyses: Chinese and English terms, short terms, filters — identical on both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event

from chatbot.analysis.types import Analysis, Risk
from chatbot.store.analyses import current_analysis, has_analysis, input_hash, save_analysis
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow
from chatbot.store.search import search_all, search_any, window_matches
from tests.store.test_index import make_pr

NOW = datetime(2026, 6, 22, 1, 0, tzinfo=UTC)

DOCS = {
    1: (
        "[rollout] fix: OOM when resuming from checkpoint",
        "修复从检查点恢复时的显存溢出",
        ("rollout",),
        [Risk("memory", "high", "large tensors kept on GPU", "verl/rollout.py")],
    ),
    2: ("[megatron] feat: support Qwen3 MoE", "支持 Qwen3 MoE 模型", ("megatron",), []),
    3: ("[doc] chore: fix typo in 100%_guide", "修正文档错别字", ("doc",), []),
    4: ("[trainer] perf: faster FSDP2 checkpoint saving", "加快 FSDP2 检查点保存", ("trainer", "fsdp"), []),
}


def analysis_for(title_zh: str, modules: tuple[str, ...], risks: list[Risk]) -> Analysis:
    return Analysis(
        title_zh=title_zh,
        summary=title_zh,
        modules=modules,
        change_type="fix",
        breaking=False,
        importance=5.0,
        insight=4.0,
        verdict="worth-reading",
        verdict_reason="",
        risks=tuple(risks),
    )


@pytest.fixture
def indexed(db):
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo("acme/widgets", NOW)
        other = index.ensure_repo("acme/other", NOW)
        for number, (title, *_rest) in DOCS.items():
            index.upsert(repo, make_pr(number, title=title, merged=NOW - timedelta(days=number)), NOW)
        index.upsert(other, make_pr(9, title="OOM in another repo", merged=NOW), NOW)
        session.flush()
        for row in session.query(PullRequestRow).all():
            title, title_zh, modules, risks = DOCS.get(row.number, (row.title, "", (), []))
            save_analysis(
                session,
                row,
                analysis_for(title_zh, modules, risks),
                analyzer="heuristic",
                version="1",
                language="zh",
                now=NOW,
            )
        ids = {row.number: row.id for row in session.query(PullRequestRow).filter_by(repo_id=repo.id)}
        return db, repo.id, ids


def numbers(found, ids):
    by_id = {v: k for k, v in ids.items()}
    return [by_id.get(i, -1) for i in found]


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("checkpoint", {1, 4}),
        ("CHECKPOINT", {1, 4}),  # case-insensitive on both databases
        ("检查点", {1, 4}),  # three characters: FTS trigram on SQLite
        ("显存", {1}),  # two characters: the LIKE fallback
        ("100%_", {3}),  # LIKE wildcards are escaped
        ("large tensors", {1}),  # risk text is indexed
        ("nothing-like-this", set()),
    ],
)
def test_phrases_in_chinese_and_english_find_the_same_prs_on_both_databases(indexed, phrase, expected):
    db, repo_id, ids = indexed
    with db.session() as session:
        found = search_any(session, [phrase], repo_id=repo_id)
    assert set(numbers(found, ids)) == expected


def test_descriptions_are_searched_and_other_repos_are_not(indexed):
    db, repo_id, ids = indexed
    with db.session() as session:
        found = search_any(session, ["oom"], repo_id=repo_id)
    # every description says "修复 OOM"; acme/other's #9 says so too but is another repo's
    assert sorted(numbers(found, ids)) == sorted(ids)


def test_the_current_analysis_follows_the_pr_content(indexed):
    db, _, ids = indexed
    with db.session() as session:
        row = session.get(PullRequestRow, ids[2])
        stored = current_analysis(session, row)
        assert stored is not None and stored.analysis.modules == ("megatron",)
        assert has_analysis(session, row.id, input_hash(row.content_hash, "heuristic", "1", "zh"))
        row.content_hash = "changed"
        assert current_analysis(session, row) is None


def test_search_any_finds_a_document_with_any_of_the_phrases_in_one_repo(indexed):
    db, repo_id, ids = indexed
    with db.session() as session:
        synonyms = search_any(session, ["显存溢出", "qwen3 moe", "nothing-like-this"], repo_id=repo_id)
        short = search_any(session, ["错别"], repo_id=repo_id)  # a phrase without trigrams: a scan
        # a Chinese word of two characters is searched beside a phrase with trigrams too
        beside = search_any(session, ["错别", "qwen3"], repo_id=repo_id)
        recent = search_any(session, ["checkpoint"], repo_id=repo_id, start=NOW - timedelta(days=2), end=NOW)
    assert sorted(numbers(synonyms, ids)) == [1, 2]
    assert numbers(short, ids) == [3]
    assert numbers(beside, ids) == [2, 3]
    assert numbers(recent, ids) == [1]


@pytest.mark.parametrize(
    ("phrases", "expected"),
    [
        (["文档", "documentation"], {3}),  # #3 says 修正文档错别字 and no English synonym
        (["documentation", "文档", "文档修正"], {3}),
        (["显存", "out of memory"], {1}),
        (["检查", "qwen3 moe"], {1, 2, 4}),  # 检查点 in #1 and #4
    ],
)
def test_a_two_character_chinese_phrase_beside_longer_ones_is_still_searched(indexed, phrases, expected):
    """A Chinese word of two characters is a word (文档, 显存, 安全): beside longer synonyms it still finds
    the PRs that use only it, on both databases."""
    db, repo_id, ids = indexed
    with db.session() as session:
        found = search_any(session, phrases, repo_id=repo_id)
        grouped = search_all(session, [phrases, ["fix", "chore", "feat", "perf"]], repo_id=repo_id)
        windowed = search_any(session, phrases, repo_id=repo_id, start=NOW - timedelta(days=10), end=NOW)
        matches = window_matches(
            session, [phrases], repo_id=repo_id, start=NOW - timedelta(days=10), end=NOW, limit=10
        )
        assert matches is not None
        in_window = set(session.scalars(matches))
    assert set(numbers(found, ids)) == expected
    assert set(numbers(grouped, ids)) == expected
    assert set(numbers(windowed, ids)) == expected
    assert set(numbers(in_window, ids)) == expected


def test_a_two_letter_latin_phrase_beside_longer_ones_is_left_out(indexed):
    """'ci' is inside too many words ('decision', 'circle') to be searched beside a longer synonym."""
    db, repo_id, ids = indexed
    with db.session() as session:
        found = search_any(session, ["ci", "qwen3 moe"], repo_id=repo_id)
    assert numbers(found, ids) == [2]


def test_search_all_finds_the_documents_matching_every_group_in_one_query(indexed):
    """Every group must match, any phrase of a group will do, in one query: the best few of each group
    intersected would miss PRs (with a limit of one, the best "checkpoint" and the best "fsdp2" need not
    be the same PR)."""
    db, repo_id, ids = indexed
    with db.session() as session:
        both = search_all(session, [["checkpoint"], ["fsdp2", "nothing-like-this"]], repo_id=repo_id, limit=1)
        none = search_all(session, [["checkpoint"], ["qwen3"]], repo_id=repo_id)
        short = search_all(session, [["显存"], ["checkpoint"]], repo_id=repo_id)  # LIKE for a short phrase
    assert numbers(both, ids) == [4]
    assert none == []
    assert numbers(short, ids) == [1]


def test_window_matches_are_every_match_search_all_finds_in_the_window_and_one_more_past_the_limit(indexed):
    """A query of the window's matches, for a caller to read them in one statement: the PRs `search_all`
    finds there while at most `limit` match (one group or several, short phrases too), and `limit` + 1
    when more do, so the caller knows to rank them with `search_all` instead."""
    db, repo_id, ids = indexed
    window = {"start": NOW - timedelta(days=10), "end": NOW}
    cases = (
        [["checkpoint", "qwen3 moe", "显存溢出"]],
        [["checkpoint"], ["fsdp2", "nothing-like-this"]],
        [["显存"], ["checkpoint"]],
        [["nothing-like-this"]],
    )
    with db.session() as session:
        for groups in cases:
            matches = window_matches(session, groups, repo_id=repo_id, limit=3, **window)
            assert matches is not None
            found = set(session.scalars(matches))
            assert found == set(search_all(session, groups, repo_id=repo_id, limit=3, **window)), groups
        recent = window_matches(
            session, [["checkpoint"]], repo_id=repo_id, limit=3, start=NOW - timedelta(days=2), end=NOW
        )
        many = window_matches(session, [["fix", "feat", "chore", "perf"]], repo_id=repo_id, limit=2, **window)
        nothing = window_matches(session, [[" "]], repo_id=repo_id, limit=2, **window)
        assert recent is not None and many is not None
        assert numbers(session.scalars(recent), ids) == [1]
        assert len(session.scalars(many).all()) == 3
    assert nothing is None


def test_postgresql_searches_one_repo_through_the_trigram_index(indexed):
    """The plan of `search_any` on PostgreSQL reads a trigram index, not every document of the repo by
    ILIKE through a btree on repo_id (migration 0012). The tables here are tiny, so sequential scans are
    priced out to see which index the planner prefers."""
    db, repo_id, _ = indexed
    if db.engine.dialect.name != "postgresql":
        pytest.skip("SQLite searches through FTS5")
    executed: list[tuple[str, object]] = []

    def capture(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if "pr_search" in statement:
            executed.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", capture)
    try:
        with db.session() as session:
            search_any(session, ["checkpoint", "qwen3 moe"], repo_id=repo_id)
    finally:
        event.remove(db.engine, "before_cursor_execute", capture)
    [(statement, parameters)] = executed
    with db.engine.connect() as connection:
        connection.exec_driver_sql("SET enable_seqscan = off")
        plan = "\n".join(row[0] for row in connection.exec_driver_sql("EXPLAIN " + statement, parameters))
    assert "_trgm" in plan, plan
    assert "ix_pr_search_repo_id" not in plan, plan
