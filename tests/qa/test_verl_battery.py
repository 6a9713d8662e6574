"""A battery over the real verl PR data (tests/qa/verl_battery.yaml): the answers' intents and windows, that
every cited PR exists and was merged inside the window, and facts checked against the database with SQL.
SQLite only: this battery is about the data, the fixture battery covers both databases."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import yaml
from sqlalchemy import func, select

from adapters.github.jsonl import read_pull_requests
from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.runner import OfflineBatch, analyze_stored
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.ingest.importer import import_pull_requests
from chatbot.messages import say
from chatbot.models import Message, PullRequest
from chatbot.qa.compose import Answer
from chatbot.qa.glossary import default_glossary
from chatbot.qa.query import FEW
from chatbot.store.db import Database, open_database
from chatbot.store.schema import AnalysisRow, PullRequestRow, SearchDocumentRow
from chatbot.weeks import last_complete_week
from tests.conftest import SHARED_DATA

REPO = "verl-project/verl"
SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 7, 22, 10, 0, tzinfo=SHANGHAI)
BATTERY = Path(__file__).with_name("verl_battery.yaml")
DATA = SHARED_DATA / "verl-pulls.jsonl.gz"


@dataclass(frozen=True, slots=True)
class Indexed:
    """What the database holds about one PR, read with SQL (not through the bot)."""

    number: int
    title: str
    author: str
    merged_at: datetime
    importance: float
    insight: float
    verdict: str
    modules: tuple[str, ...]
    risky: bool
    document: str


@pytest.fixture(scope="module")
def verl_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """The verl PRs merged by the clock's time, imported and analysed by the heuristic analyzer."""
    if not DATA.exists():
        pytest.skip(f"{DATA} is absent (real PR data is optional)")
    db = open_database(f"sqlite:///{tmp_path_factory.mktemp('verl') / 'prhub.db'}")
    clock = FixedClock(NOW)
    items = [
        item
        for item in read_pull_requests(DATA, REPO)
        if not isinstance(item, PullRequest) or (item.header.merged_at or NOW) <= NOW
    ]
    import_pull_requests(db, REPO, items, clock=clock)
    heuristic = HeuristicAnalyzer()
    batch = OfflineBatch(heuristic.analyze, heuristic.name, heuristic.version)
    analyze_stored(db, batch, language="zh", clock=clock, repo=REPO)
    yield db
    db.dispose()


@pytest.fixture(scope="module")
def verl_bot(verl_db: Database) -> ChatBot:
    return ChatBot(
        verl_db,
        BotConfig(SHANGHAI),
        FixedClock(NOW),
        HeuristicAnalyzer().analyze,
        channel_repo=lambda m: None,
    )


@pytest.fixture(scope="module")
def indexed(verl_db: Database) -> dict[int, Indexed]:
    with verl_db.session() as session:
        rows = session.execute(
            select(PullRequestRow, AnalysisRow, SearchDocumentRow.document)
            .join(AnalysisRow, AnalysisRow.pr_id == PullRequestRow.id)
            .join(SearchDocumentRow, SearchDocumentRow.pr_id == PullRequestRow.id)
        ).all()
        assert len(rows) == session.scalar(select(func.count()).select_from(PullRequestRow))
    return {
        pr.number: Indexed(
            pr.number,
            pr.title,
            pr.author,
            pr.merged_at,
            analysis.importance,
            analysis.insight,
            analysis.verdict,
            tuple(analysis.modules),
            bool(analysis.fields.get("risks")),
            document.lower(),
        )
        for pr, analysis, document in rows
    }


def battery() -> list[Any]:
    entries = yaml.safe_load(BATTERY.read_text(encoding="utf-8"))
    return [pytest.param(entry, id=f"{n:02d}-{entry['q']}") for n, entry in enumerate(entries, start=1)]


def ranked(records: list[Indexed]) -> list[int]:
    return [r.number for r in sorted(records, key=lambda r: (-r.importance, -r.insight, -r.number))]


def test_the_verl_data_battery_has_at_least_twenty_questions() -> None:
    assert len(battery()) >= 20


@pytest.mark.parametrize("entry", battery())
def test_the_bot_answers_questions_about_the_real_verl_data(
    verl_bot: ChatBot, indexed: dict[int, Indexed], entry: dict[str, Any]
) -> None:
    answer = verl_bot.handle(Message(entry["q"]))
    language = entry["lang"]

    assert answer.query.intent == entry["intent"]
    assert answer.query.language == language
    assert answer.query.repo == REPO
    expected = entry["window"]
    window = (datetime.fromisoformat(expected[0]), datetime.fromisoformat(expected[1])) if expected else None
    assert ((answer.window.start, answer.window.end) if answer.window else None) == window
    for number in answer.cited:
        assert number in indexed, f"#{number} is not in the index"
        if window:
            assert window[0] <= indexed[number].merged_at < window[1], f"#{number} is outside the window"

    in_window = [r for r in indexed.values() if window and window[0] <= r.merged_at < window[1]]
    for check in entry["check"]:
        CHECKS[_name(check)](answer, in_window, indexed, _argument(check), language)


def _name(check: str | dict[str, Any]) -> str:
    return check if isinstance(check, str) else next(iter(check))


def _argument(check: str | dict[str, Any]) -> Any:
    return None if isinstance(check, str) else next(iter(check.values()))


def check_count(answer: Answer, in_window: list[Indexed], *_: Any) -> None:
    assert say("qa.count", answer.query.language, n=len(in_window)) in answer.reply.plain_text()


def check_top(answer: Answer, in_window: list[Indexed], *_: Any) -> None:
    assert list(answer.cited) == ranked(in_window)[:8]


def check_risky(answer: Answer, in_window: list[Indexed], indexed: dict[int, Indexed], *_: Any) -> None:
    assert answer.cited
    assert all(indexed[n].risky for n in answer.cited)


def check_must_read(answer: Answer, in_window: list[Indexed], *_: Any) -> None:
    must = ranked([r for r in in_window if r.verdict == "must-read"])
    worth = ranked([r for r in in_window if r.verdict == "worth-reading"])
    assert answer.cited
    if answer.query.must_read_only:
        # "必读": the must-reads, then, when there are fewer than FEW, the first worth reading up to FEW
        assert list(answer.cited) == must[:8] + worth[: max(FEW - len(must), 0)]
    else:
        assert list(answer.cited) == (must + worth)[:8]


def check_module(
    answer: Answer, _: list[Indexed], indexed: dict[int, Indexed], module: str, *__: Any
) -> None:
    assert answer.cited
    # A module is a signal: a PR is about it when its analysis tags it or its text names it.
    assert all(module in indexed[n].modules or module in indexed[n].document.lower() for n in answer.cited)


def check_author(answer: Answer, in_window: list[Indexed], _: Any, author: str, *__: Any) -> None:
    assert answer.cited
    assert list(answer.cited) == ranked([r for r in in_window if r.author == author])[:8]


def check_pr(answer: Answer, _: list[Indexed], indexed: dict[int, Indexed], number: int, *__: Any) -> None:
    assert answer.cited == (number,)
    assert indexed[number].title in answer.reply.plain_text()


def check_search(answer: Answer, _: list[Indexed], indexed: dict[int, Indexed], term: str, *__: Any) -> None:
    assert answer.cited
    # The term, or a synonym the glossary gives it ("checkpoint" finds "ckpt" too).
    words = {term.lower()} | {
        w for name, _ in default_glossary().find(term.lower()) for w in default_glossary().terms(name)
    }
    assert all(any(w in indexed[n].document.lower() for w in words) for n in answer.cited)


def check_key(answer: Answer, _: list[Indexed], indexed: dict[int, Indexed], *__: Any) -> None:
    assert answer.cited
    assert all(indexed[n].verdict != "skim" for n in answer.cited)


def check_offer(answer: Answer, in_window: list[Indexed], indexed: dict[int, Indexed], *_: Any) -> None:
    assert not in_window
    assert not answer.cited
    week = last_complete_week(NOW, SHANGHAI)
    merged = [r for r in indexed.values() if week.start <= r.merged_at < week.end]
    language = answer.query.language
    period = say(
        "report.period", language, start=f"{week.start:%m-%d}", end=f"{week.end - timedelta(days=1):%m-%d}"
    )
    offer = say(
        "qa.empty.offer",
        language,
        week=week.label,
        period=period,
        n=len(merged),
        example=say("qa.empty.offer_example", language, name="verl"),
    )
    assert offer in answer.reply.plain_text()


CHECKS = {
    "count": check_count,
    "top": check_top,
    "risky": check_risky,
    "must_read": check_must_read,
    "module": check_module,
    "author": check_author,
    "pr": check_pr,
    "search": check_search,
    "key": check_key,
    "offer": check_offer,
}
