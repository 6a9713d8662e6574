"""Per-repo calibration from importance corrections, on both databases and a repo of another shape
(titles without [module] tags, Chinese titles): the offsets learned, the agreement figures before,
after and held out, the calibration applied to PRs nobody corrected, and `prhub calibrate` /
`prhub feedback list` as an admin runs them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.models import Message
from chatbot.store.db import open_database
from chatbot.team.calibration import calibrate
from chatbot.team.feedback import AnswerRef, record_reason, record_vote
from chatbot.team.reading import Reader
from prhub_cli.main import app
from tests.reports.fixtures import REPO, SHANGHAI, WEEK_START, analysis, seed

NOW = WEEK_START + timedelta(days=8)
RENAMES = [201, 202, 203, 204, 205]  # refactors the analyzer rates 7.0: readers find them overrated
FIXES = [211, 212, 213]  # fixes rated 4.0: readers find two of them underrated
ROWS = [
    *(
        (
            n,
            f"重命名配置项 option_{n} 为 setting_{n}",
            WEEK_START + timedelta(hours=n - 200),
            analysis(("config",), 7.0, change_type="refactor"),
        )
        for n in RENAMES
    ),
    *(
        (
            n,
            f"修复 worker {n} 退出时的死锁",
            WEEK_START + timedelta(days=1, hours=n - 210),
            analysis(("worker",), 4.0, change_type="fix"),
        )
        for n in FIXES
    ),
]


@pytest.fixture
def bot(db):
    seed(db, ROWS)
    return ChatBot(db, BotConfig(SHANGHAI), FixedClock(NOW), HeuristicAnalyzer().analyze)


def _correct(bot: ChatBot) -> None:
    for n, user in zip(RENAMES[:4], ("li", "wang", "zhao", "li"), strict=True):
        bot.handle(Message(f"#{n} 重要性应该更低", user=user))
    for n in FIXES[:2]:
        bot.handle(Message(f"importance of #{n} should be higher", user="wang"))


def _importance(bot: ChatBot, number: int) -> str:
    text = bot.handle(Message(f"what did widgets #{number} change?")).reply.plain_text()
    return next(line for line in text.splitlines() if line.startswith("Importance"))


def test_calibration_learns_offsets_by_change_type_and_applies_them_to_prs_nobody_corrected(bot, db):
    _correct(bot)
    assert _importance(bot, 205) == "Importance: 7.0 / 10"
    result = calibrate(db, REPO, NOW)
    assert result.samples == 6
    assert (result.before.agreeing, result.after.agreeing, result.held_out.agreeing) == (0, 6, 6)
    assert result.offsets["type:refactor"] < -1.0 < 0.5 < result.offsets["type:fix"]
    # 205 and 213 were never corrected: the calibration moves them the way their classes were moved
    shift = result.offsets["type:refactor"] + result.offsets.get("module:config", 0.0)
    assert _importance(bot, 205) == f"Importance: {7.0 + shift:.1f} / 10"
    assert _importance(bot, 213) > "Importance: 4.0 / 10"


def test_a_lone_correction_moves_its_class_by_a_third_of_a_step_and_is_not_confirmed_held_out(bot, db):
    bot.handle(Message("#201 重要性应该更低", user="li"))
    result = calibrate(db, REPO, NOW, store=False)
    assert result.offsets == {"type:refactor": -0.67, "module:config": -0.44}
    assert (result.after.agreeing, result.held_out.agreeing) == (1, 0)
    assert calibrate(db, REPO, NOW).before.agreeing == 0  # the dry run kept nothing


def test_prhub_calibrate_and_feedback_list(bot, db, database_url: str, tmp_path: Path, monkeypatch):
    _correct(bot)
    vote = record_vote(
        db,
        Reader("slack", "T1", "U1", "li"),
        "C1",
        "1.01",
        "down",
        AnswerRef("本周风险", REPO, (201,), "zh"),
        NOW,
    )
    record_reason(db, vote.id, Reader("slack", "T1", "U1", "li"), "wrong_prs", "201 不是风险", NOW)
    monkeypatch.chdir(tmp_path)
    env = {"PRHUB_DATABASE_URL": database_url, "COLUMNS": "250", "PRHUB_LANGUAGE": "en"}

    def prhub(*args: str):  # type: ignore[no-untyped-def]
        return CliRunner().invoke(app, list(args), env=env)

    calibrated = prhub("calibrate", REPO)
    assert calibrated.exit_code == 0, calibrated.output
    assert "agreement before: 0/6 (0%)" in calibrated.output
    assert "agreement after: 6/6 (100%)" in calibrated.output
    assert "type:refactor" in calibrated.output
    again = prhub("calibrate", REPO, "--dry-run")
    assert "agreement before: 6/6 (100%)" in again.output  # the stored calibration, this time
    listed = prhub("feedback", "list", "--repo", REPO, "--kind", "importance")
    assert listed.exit_code == 0, listed.output
    assert "6 corrections" in listed.output and "#201 重要性应该更低" in listed.output
    assert "votes" not in listed.output
    votes = prhub("feedback", "list", "--kind", "down", "--since", "2026-06-01")
    assert "1 votes" in votes.output and "wrong_prs 201 不是风险" in votes.output
    assert prhub("feedback", "list", "--kind", "sideways").exit_code != 0
    assert prhub("calibrate", "acme/nothing").exit_code == 1
    open_database(database_url).dispose()
