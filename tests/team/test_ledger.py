"""The risk ledger on both databases: entries with stable ids, follow-ups linked with their reason,
resolution by "fixes #N", people's decisions audited, and a wrong link undone for good."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from chatbot.analysis.types import Risk
from chatbot.store.ledger import RiskEntryRow, RiskEventRow, RiskLinkRow
from chatbot.team.ledger import (
    FUNCTION_HORIZON,
    LedgerError,
    close_entry,
    entry_views,
    maintain_ledger,
    repo_is,
    unlink,
)
from tests.team.ledger_fixtures import (
    FOLLOW_PATCH,
    MEMORY,
    OTHER_FUNCTION_PATCH,
    REPO,
    ROLLOUT_PATCH,
    W25,
    analysis,
    pull,
    store,
)

NOW = W25 + timedelta(days=40)


def _views(db):
    with db.session() as session:
        return entry_views(session, repo_is(REPO))


def _raise_memory_risk(db):
    store(db, pull(10, W25 + timedelta(hours=5), {"pkg/rollout.py": ROLLOUT_PATCH}), analysis(MEMORY), NOW)


def test_every_risk_of_an_analysed_pr_becomes_an_open_entry_at_its_function(db):
    _raise_memory_risk(db)
    report = maintain_ledger(db, NOW)
    (view,) = _views(db)
    assert report.raised == 1
    assert (view.number, view.category, view.state) == (10, "memory", "open")
    assert (view.file, view.symbol) == ("pkg/rollout.py", "gather_buffers")
    assert view.display_key.startswith("R-")


def test_analysing_a_pr_again_keeps_the_entry_and_its_id(db):
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    before = _views(db)[0].key
    reworded = Risk("memory", "medium", "reworded mechanism", "pkg/rollout.py")
    store(db, pull(10, W25 + timedelta(hours=5), {"pkg/rollout.py": ROLLOUT_PATCH}), analysis(reworded), NOW)
    report = maintain_ledger(db, NOW)
    (view,) = _views(db)
    assert (report.raised, report.updated) == (0, 1)
    assert (view.key, view.severity, view.text("en")) == (before, "medium", "reworded mechanism")


def test_a_risk_a_new_analysis_no_longer_finds_is_withdrawn(db):
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    store(db, pull(10, W25 + timedelta(hours=5), {"pkg/rollout.py": ROLLOUT_PATCH}), analysis(), NOW)
    assert maintain_ledger(db, NOW).withdrawn == 1
    assert _views(db)[0].state == "withdrawn"


def test_a_later_pr_changing_the_same_function_follows_the_risk_up_with_its_reason(db):
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    store(db, pull(20, W25 + timedelta(days=8), {"pkg/rollout.py": FOLLOW_PATCH}), analysis(), NOW)
    maintain_ledger(db, NOW)
    (view,) = _views(db)
    (link,) = view.live_links()
    assert view.state == "followed-up"
    assert (link.number, link.kind) == (20, "function")
    assert "gather_buffers" in link.detail
    assert view.state_at == W25 + timedelta(days=8)


def test_changing_the_function_months_later_is_no_follow_up_but_citing_the_pr_is(db):
    """Past the horizon the function has moved on: changing it again follows nothing up, while a PR
    that names the risk's PR still does, at any age."""
    _raise_memory_risk(db)
    later = W25 + FUNCTION_HORIZON + timedelta(days=1)
    store(db, pull(20, later, {"pkg/rollout.py": FOLLOW_PATCH}), analysis(), later)
    maintain_ledger(db, later)
    assert _views(db)[0].state == "open"
    store(db, pull(21, later, {"pkg/other.py": FOLLOW_PATCH}, body="Follow-up of #10"), analysis(), later)
    maintain_ledger(db, later)
    (view,) = _views(db)
    assert [link.number for link in view.live_links()] == [21]


def test_a_later_pr_changing_another_function_of_the_file_is_not_a_follow_up(db):
    _raise_memory_risk(db)
    store(db, pull(20, W25 + timedelta(days=8), {"pkg/rollout.py": OTHER_FUNCTION_PATCH}), analysis(), NOW)
    maintain_ledger(db, NOW)
    assert _views(db)[0].state == "open"


def test_a_missing_test_is_followed_up_only_by_a_later_change_that_brings_a_test(db):
    """Changing the untested function again without a test leaves the missing test where it was; a
    memory risk in the same function is followed up by either change."""
    untested = Risk("missing-tests", "low", "no test", "pkg/rollout.py")
    patches = {"pkg/rollout.py": ROLLOUT_PATCH}
    store(db, pull(10, W25 + timedelta(hours=5), patches), analysis(MEMORY, untested), NOW)
    store(db, pull(20, W25 + timedelta(days=8), {"pkg/rollout.py": FOLLOW_PATCH}), analysis(), NOW)
    maintain_ledger(db, NOW)
    states = {view.category: (view.state, [link.number for link in view.links]) for view in _views(db)}
    assert states == {"memory": ("followed-up", [20]), "missing-tests": ("open", [])}
    tested = {
        "pkg/rollout.py": FOLLOW_PATCH,
        "tests/test_rollout.py": "@@ -1 +1,2 @@\n+def test_gather(): ...\n",
    }
    store(db, pull(30, W25 + timedelta(days=9), tested), analysis(), NOW)
    maintain_ledger(db, NOW)
    states = {view.category: (view.state, [link.number for link in view.links]) for view in _views(db)}
    assert states == {"memory": ("followed-up", [20, 30]), "missing-tests": ("followed-up", [30])}


def test_a_pr_merged_before_the_risk_never_follows_it_up(db):
    store(
        db,
        pull(5, W25 - timedelta(days=3), {"pkg/rollout.py": FOLLOW_PATCH}, body="see #10"),
        analysis(),
        NOW,
    )
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    assert _views(db)[0].links == ()


def test_a_merged_pr_saying_it_fixes_the_pr_resolves_the_risk_when_it_merged(db):
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    merged = W25 + timedelta(days=9)
    store(
        db,
        pull(30, merged, {"pkg/other.py": OTHER_FUNCTION_PATCH}, body="修复 #10 的显存问题"),
        analysis(),
        NOW,
    )
    report = maintain_ledger(db, NOW)
    (view,) = _views(db)
    assert report.resolved == 1
    assert (view.state, view.state_at) == ("resolved", merged)
    assert view.live_links()[0].kind == "fixes"


def test_an_older_pr_analysed_late_is_linked_to_the_follow_ups_already_indexed(db):
    store(db, pull(20, W25 + timedelta(days=8), {"pkg/rollout.py": FOLLOW_PATCH}), analysis(), NOW)
    maintain_ledger(db, NOW)
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    assert [link.number for link in _views(db)[0].links] == [20]


def test_a_wrong_link_is_undone_for_good_and_the_state_derived_again(db):
    _raise_memory_risk(db)
    store(db, pull(30, W25 + timedelta(days=9), {"pkg/other.py": ""}, body="Fixes #10"), analysis(), NOW)
    maintain_ledger(db, NOW)
    key = _views(db)[0].display_key
    unlink(db, key, 30, "bob", "fixes another bug", NOW)
    # Analysed again (a new analyzer version): the undone link is not made again.
    store(db, pull(30, W25 + timedelta(days=9), {"pkg/other.py": ""}, body="Fixes #10 (v2)"), analysis(), NOW)
    maintain_ledger(db, NOW)
    (view,) = _views(db)
    assert view.state == "open"
    assert view.links[0].undone
    with db.session() as session:
        actions = session.scalars(select(RiskEventRow.action).order_by(RiskEventRow.id)).all()
    assert actions == ["resolved", "unlinked", "reopened"]


def test_accepting_a_risk_records_who_and_why_and_closes_it(db):
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    close_entry(db, "#10", "accepted", "li", "only in an example script", NOW, REPO)
    (view,) = _views(db)
    assert (view.state, view.closed_by, view.closed_reason) == ("accepted", "li", "only in an example script")
    # A follow-up afterwards is recorded but does not reopen what a person closed.
    store(db, pull(20, W25 + timedelta(days=8), {"pkg/rollout.py": FOLLOW_PATCH}), analysis(), NOW)
    maintain_ledger(db, NOW)
    assert _views(db)[0].state == "accepted"


@pytest.mark.parametrize("ref", ["R-", "R-zz", "nonsense!", "#999"])
def test_a_reference_that_names_no_entry_is_refused_clearly(db, ref):
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    with pytest.raises(LedgerError):
        close_entry(db, ref, "resolved", "li", "why", NOW, REPO)


def test_unlinking_a_pr_that_is_not_linked_is_refused(db):
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    with pytest.raises(LedgerError) as raised:
        unlink(db, "#10", 77, "li", "", NOW, REPO)
    assert raised.value.reason == "ledger.no_link"


def test_two_maintenance_runs_at_once_store_each_entry_and_link_once(db):
    _raise_memory_risk(db)
    store(db, pull(20, W25 + timedelta(days=8), {"pkg/rollout.py": FOLLOW_PATCH}), analysis(), NOW)
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(lambda _: maintain_ledger(db, NOW), range(4)))
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(RiskEntryRow)) == 1
        assert session.scalar(select(func.count()).select_from(RiskLinkRow)) == 1


def test_nothing_new_is_a_no_op(db):
    _raise_memory_risk(db)
    maintain_ledger(db, NOW)
    assert maintain_ledger(db, NOW).analyses == 0
