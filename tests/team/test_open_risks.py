"""'Which risks are still open?' on a ledger with many entries: by default the last four weeks' high and
medium ones, saying so and how many more exist; all of them when asked for all; the ledger as it
stood at an earlier time (`--as-of`), in chat and in `prhub risks list`. Both databases."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.types import Risk
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import say
from chatbot.models import Message
from prhub_cli.main import app
from tests.team.ledger_fixtures import MEMORY, REPO, W25, analysis, pull, store

UTC = ZoneInfo("UTC")
NOW = W25 + timedelta(days=15)
UNTESTED = Risk("missing-tests", "low", "the new branch of sample_batch has no test", "pkg/sampler.py")
CONFIG = Risk("config", "medium", "the default max_turns doubles", "conf/ppo.yaml")


@pytest.fixture
def ledger(db):
    """#10 (high) and #11 (medium) in W25; #12-#14 low, untested; #5 a medium risk 40 days before W25."""
    store(db, pull(5, W25 - timedelta(days=40), {"conf/old.yaml": ""}), analysis(CONFIG), NOW)
    store(db, pull(10, W25 + timedelta(hours=5), {"pkg/rollout.py": ""}), analysis(MEMORY), NOW)
    store(db, pull(11, W25 + timedelta(days=1), {"conf/ppo.yaml": ""}), analysis(CONFIG), NOW)
    for n in (12, 13, 14):
        store(db, pull(n, W25 + timedelta(days=n - 10), {"pkg/sampler.py": ""}), analysis(UNTESTED), NOW)
    return db


def _ask(db, text: str, now=NOW):  # type: ignore[no-untyped-def]
    return ChatBot(db, BotConfig(UTC), FixedClock(now), HeuristicAnalyzer().analyze).handle(Message(text))


@pytest.mark.parametrize(
    ("question", "language"),
    [("engine 还有哪些未解决的风险？", "zh"), ("what risks are still open in acme/engine?", "en")],
)
def test_open_risks_default_to_recent_high_and_medium_ones_and_say_how_many_more(ledger, question, language):
    answer = _ask(ledger, question)
    text = answer.reply.plain_text()
    assert answer.cited == (10, 11)
    assert say("ledger.open.recent_title", language, repo="engine", weeks=4, n=2) in text
    example = say("ledger.open.all_example", language, repo="engine")
    assert say("ledger.open.rest", language, n=4, total=6, example=example, repo=REPO) in text


@pytest.mark.parametrize("question", ["engine 所有未解决的风险", "all open risks in engine"])
def test_asking_for_all_open_risks_lists_every_one(ledger, question):
    answer = _ask(ledger, question)
    assert set(answer.cited) == {5, 10, 11, 12, 13, 14}


def test_open_risks_as_of_an_earlier_time_leave_out_what_was_raised_later(ledger):
    answer = _ask(ledger, "all open risks in engine", now=W25 + timedelta(days=2, hours=1))
    assert set(answer.cited) == {5, 10, 11, 12}


def test_only_low_or_old_risks_open_is_said_with_how_to_see_them(db):
    store(db, pull(12, W25, {"pkg/sampler.py": ""}), analysis(UNTESTED), NOW)
    text = _ask(db, "engine 还有哪些未解决的风险？").reply.plain_text()
    assert say("ledger.open.recent_none", "zh", repo="engine", weeks=4) in text
    assert "prhub risks list acme/engine" in text


def test_prhub_risks_list_as_of(ledger, database_url: str, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {"PRHUB_DATABASE_URL": database_url, "COLUMNS": "250", "PRHUB_LANGUAGE": "en"}
    result = CliRunner().invoke(app, ["risks", "list", REPO, "--as-of", "2026-06-17"], env=env)
    assert result.exit_code == 0, result.output
    assert "risks of acme/engine (open) as of 2026-06-17" in result.output
    assert "3 risks" in result.output  # midnight in Asia/Shanghai: #12 was merged 8 hours later
    assert "#12" not in result.output and "#13" not in result.output
    assert "#11" in result.output and "#5" in result.output
