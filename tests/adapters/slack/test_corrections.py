"""Corrections through the Slack adapter, as transcripts against the fake Slack with signed requests: an
importance correction moves the PR in the next report card, marked corrected; "not breaking" takes the
breaking flag off the PR's answer; anyone may correct, and who did is recorded."""

from __future__ import annotations

import re
import time

from chatbot.messages import say
from chatbot.store.feedback import CorrectionRow
from tests.adapters.slack.conftest import SlackHarness
from tests.fakes.slack import WAIT, mention
from tests.reports.fixtures import REPO


def _said(slack: SlackHarness, marker: str, after: int) -> str:
    """The notification text of the first message shown after the first `after` ones that contains
    `marker` (the whole reply as plain text: a table's rows are "#N | title | modules | importance | …")."""
    deadline = time.monotonic() + WAIT
    while True:
        for shown in slack.fake.shown()[after:]:
            if marker in shown.text:
                return shown.text
        assert time.monotonic() < deadline, f"nothing said {marker!r}: {slack.fake.shown()}"
        time.sleep(0.01)


def _key_pr_order(card: str) -> list[tuple[int, str]]:
    """The key-PR rows of a report card: each PR with its importance cell, in order."""
    return [(int(n), cell) for n, cell in re.findall(r"^#(\d+) \|[^|]*\|[^|]*\| ([^|]+) \|", card, re.M)]


def test_an_importance_correction_moves_the_pr_in_the_next_report_card(slack: SlackHarness, db):
    slack.event(mention(f"周报 {REPO} 2026-W25", ts="1750000000.000100"), "Ev1")
    before = _key_pr_order(_said(slack, "#101", 0))
    assert [n for n, _ in before][:3] == [101, 102, 103]
    shown = len(slack.fake.shown())
    slack.event(mention("#106 重要性应该更高", ts="1750000000.000200", user="U7"), "Ev2")
    assert say("correction.done.importance.higher", "zh", number=106) in _said(slack, "#106", shown)
    shown = len(slack.fake.shown())
    slack.event(mention(f"周报 {REPO} 2026-W25", ts="1750000000.000300"), "Ev3")
    after = _key_pr_order(_said(slack, "（已更正）", shown))
    assert [n for n, _ in after][:3] == [101, 106, 102]
    assert (106, "8.0（已更正）") in after
    with db.session() as session:
        (row,) = session.query(CorrectionRow).all()
        assert (row.platform, row.user_id, row.pr_number, row.value) == ("slack", "U7", 106, "higher")


def test_not_breaking_takes_the_flag_off_the_prs_answer(slack: SlackHarness):
    slack.event(mention(f"what did {REPO}#103 change?", ts="1750000000.000400"), "Ev4")
    assert "· BREAKING" in _said(slack, "#103", 0)
    shown = len(slack.fake.shown())
    slack.event(mention("#103 is not breaking", ts="1750000000.000500"), "Ev5")
    assert say("correction.done.breaking.no", "en", number=103) in _said(slack, "#103", shown)
    shown = len(slack.fake.shown())
    slack.event(mention(f"what did {REPO}#103 change?", ts="1750000000.000600"), "Ev6")
    answer = _said(slack, "#103", shown)
    assert "· BREAKING" not in answer and "refactor (corrected)" in answer
