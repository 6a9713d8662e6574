"""The question battery (tests/qa/battery.yaml): each question, asked through `ChatBot.handle` at the
fixture's fixed clock, gets the expected intent, repo, window, language and cited PRs, on every database."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from chatbot.bot import ChatBot
from chatbot.messages import Language, say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from tests.qa.fixture_repo import BY_KEY

BATTERY = Path(__file__).with_name("battery.yaml")


@dataclass(frozen=True, slots=True)
class Expected:
    """One battery entry, as the YAML file writes it."""

    question: str
    language: Language
    intent: str
    repo: str | None
    window: tuple[datetime, datetime] | None
    cited: frozenset[int]
    channel: str | None = None
    first: int | None = None
    count: int | None = None
    unknown_repo: str | None = None
    says: tuple[str, ...] = ()

    @classmethod
    def from_yaml(cls, entry: dict[str, Any]) -> Expected:
        window = entry["window"]
        return cls(
            question=entry["q"],
            language=entry["lang"],
            intent=entry["intent"],
            repo=entry["repo"],
            window=(datetime.fromisoformat(window[0]), datetime.fromisoformat(window[1])) if window else None,
            cited=frozenset(entry["cited"]),
            channel=entry.get("channel"),
            first=entry.get("first"),
            count=entry.get("count"),
            unknown_repo=entry.get("unknown_repo"),
            says=tuple(entry.get("says", ())),
        )


def battery() -> list[Any]:
    entries = yaml.safe_load(BATTERY.read_text(encoding="utf-8"))
    params = []
    for n, entry in enumerate(entries, start=1):
        marks = [pytest.mark.xfail(reason=entry["xfail"], strict=True)] if entry.get("xfail") else []
        params.append(pytest.param(Expected.from_yaml(entry), id=f"{n:03d}-{entry['q']}", marks=marks))
    return params


def answered_window(answer: Answer) -> tuple[datetime, datetime] | None:
    """The window the answer covers; for an answer that stops before retrieval (which repo? unknown repo),
    the window the question named."""
    window = answer.window or answer.query.window
    return (window.start, window.end) if window else None


@pytest.mark.parametrize("expected", battery())
def test_the_bot_answers_the_battery_question_as_written(bot: ChatBot, expected: Expected) -> None:
    answer = bot.handle(Message(expected.question, channel=expected.channel))
    text = answer.reply.plain_text()

    assert answer.query.intent == expected.intent
    assert answer.query.language == expected.language
    assert answer.query.repo == expected.repo
    assert answer.query.unknown_repo == expected.unknown_repo
    assert answered_window(answer) == expected.window
    assert set(answer.cited) == expected.cited
    assert len(answer.cited) == len(set(answer.cited)), "a PR is cited twice"
    if expected.first is not None:
        assert answer.cited[0] == expected.first
    if expected.count is not None:
        assert say("qa.count", expected.language, n=expected.count) in text
    for fact in expected.says:
        assert fact in text
    repo = answer.query.repo
    reply_json = json.dumps(answer.reply.to_dict(), ensure_ascii=False)
    for number in answer.cited:
        assert (repo, number) in BY_KEY, f"#{number} is not a PR of {repo}"
        assert f'"{BY_KEY[repo, number].url}"' in reply_json, f"#{number} is cited without its link"
