"""LLM help in question answering, against the fake OpenAI server: an unsure question is re-read by the
model (only into indexed repos and known modules); a phrased answer citing a PR outside the records is
rejected and the template answer kept."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from adapters.llm.openai_client import LLMSettings, OpenAICompatibleLLM
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.models import Message
from chatbot.qa.llm import LLMAnswerPhraser, LLMQueryParser
from tests.fakes.openai import FakeOpenAI
from tests.reports.fixtures import REPO, SHANGHAI, WEEK_START, seed

NOW = WEEK_START + timedelta(days=9)  # Wednesday of the week after 2026-W25


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as started:
        assert isinstance(started, FakeOpenAI)
        yield started


@pytest.fixture
def fake(server: FakeOpenAI) -> Iterator[FakeOpenAI]:
    yield server
    server.reset()


def bot(db, fake: FakeOpenAI, *, parse: bool = True, phrase: bool = True) -> ChatBot:  # type: ignore[no-untyped-def]
    llm = OpenAICompatibleLLM(LLMSettings(api_key="test-key", base_url=fake.base_url, max_retries=0))
    return ChatBot(
        db,
        BotConfig(SHANGHAI),
        FixedClock(NOW),
        HeuristicAnalyzer().analyze,
        query_parser=LLMQueryParser(llm) if parse else None,
        phraser=LLMAnswerPhraser(llm) if phrase else None,
    )


def parsed(**values: Any) -> dict[str, Any]:
    base = {
        "intent": "unknown",
        "repo": None,
        "window_start": None,
        "window_end": None,
        "pr_number": None,
        "modules": [],
        "author": None,
        "search_text": None,
    }
    return base | values


def test_an_unsure_question_is_re_read_by_the_model(db, fake):
    seed(db)
    fake.answer = lambda body: parsed(
        intent="risks",
        repo=REPO,
        window_start="2026-06-15",
        window_end="2026-06-21",
        modules=["megatron", "invented-module"],
    )
    answer = bot(db, fake, phrase=False).handle(Message("那个训练后端上次出了啥幺蛾子"))
    assert (answer.query.intent, answer.query.repo, answer.query.modules) == ("risks", REPO, ("megatron",))
    assert answer.query.parser == "llm"
    assert answer.window is not None and answer.window.start == datetime(2026, 6, 15, tzinfo=SHANGHAI)
    [request] = fake.requests
    assert "<question>" in request["messages"][-1]["content"]


def test_the_models_search_words_go_through_the_glossary_and_its_slots_are_kept(db, fake):
    seed(db)
    fake.answer = lambda body: parsed(
        intent="topic", repo=REPO, search_text="显存 qwen3", paths=["verl/rollout", "../../etc"], limit=2
    )
    answer = bot(db, fake, phrase=False).handle(Message("那个训练后端上次出了啥幺蛾子"))
    query = answer.query
    assert (query.topics, query.terms, query.limit) == (("memory",), ("qwen3",), 2)
    assert query.paths == ("verl/rollout",)  # "../../etc" is no path of a repo


def test_a_sure_question_never_reaches_the_model(db, fake):
    seed(db)
    bot(db, fake, phrase=False).handle(Message("上周 acme/widgets 有哪些风险？"))
    assert fake.requests == []


def test_a_repo_the_index_does_not_have_is_not_taken_from_the_model(db, fake):
    seed(db)
    fake.answer = lambda body: parsed(intent="highlights", repo="evil/repo")
    answer = bot(db, fake, phrase=False).handle(Message("嗯？"))
    assert answer.query.repo != "evil/repo"


def test_a_phrased_answer_is_added_when_it_cites_only_the_records(db, fake):
    seed(db)
    fake.answer = lambda body: {"text": "上周最值得注意的是 #101 和 #102。"}
    answer = bot(db, fake, parse=False).handle(Message("上周 acme/widgets 有哪些改动？"))
    assert "上周最值得注意的是 #101 和 #102。" in answer.reply.plain_text()


def test_a_phrased_answer_citing_an_unknown_pr_is_rejected(db, fake):
    seed(db)
    fake.answer = lambda body: {"text": "最重要的是 #101 和 #999。"}
    template = bot(db, fake, parse=False, phrase=False).handle(Message("上周 acme/widgets 有哪些改动？"))
    answer = bot(db, fake, parse=False).handle(Message("上周 acme/widgets 有哪些改动？"))
    assert answer.reply == template.reply and "#999" not in answer.reply.plain_text()


def test_a_failing_model_keeps_the_template_answer(db, fake):
    seed(db)
    fake.fail_next("server_error", times=2)
    answer = bot(db, fake).handle(Message("上周 acme/widgets 有哪些改动？"))
    assert "#101" in answer.reply.plain_text()
