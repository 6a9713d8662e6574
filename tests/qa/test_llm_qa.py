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
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.llm import LLMAnswerPhraser, LLMQueryParser
from tests.fakes.openai import FakeOpenAI
from tests.qa.test_review_questions import WIDGETS
from tests.qa.test_review_questions import seed as seed_reviews
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


def scripted(script: dict[str, dict[str, Any]]) -> Any:
    """A model that answers each question of `script` (the text between the <question> tags) with its
    reading, in every field the request's schema requires, and fails the request on any other question
    or on a schema missing a field it answers."""

    def answer(body: dict[str, Any]) -> dict[str, Any]:
        schema = body["response_format"]["json_schema"]["schema"]
        content = body["messages"][-1]["content"]
        question = content.split("<question>\n", 1)[1].split("\n</question>", 1)[0]
        reading = parsed(paths=[], limit=None, breaking=False, review=None, reviewer=None, busiest=None)
        reading |= {"asks_risks": False} | script[question]
        assert set(reading) == set(schema["required"]), sorted(set(reading) ^ set(schema["required"]))
        return reading

    return answer


LAST_WEEK = {"window_start": "2026-06-15", "window_end": "2026-06-21"}


def test_the_model_may_read_a_question_as_one_persons_reviews(db, fake):
    seed_reviews(db)
    fake.answer = scripted(
        {
            "那位A姐上周把关了啥": {
                "intent": "author",
                "repo": WIDGETS,
                "author": "alice",
                "review": "by",
                "reviewer": "@Alice",
            }
            | LAST_WEEK
        }
    )
    answer = bot(db, fake, phrase=False).handle(Message("那位A姐上周把关了啥"))
    query = answer.query
    assert (query.parser, query.intent, query.review, query.reviewer, query.author) == (
        "llm",
        "highlights",
        "by",
        "alice",
        None,
    )
    # alice reviewed #101, #103 and #107 last week; she wrote #102
    assert set(answer.cited) == {101, 103, 107}, answer.reply.plain_text()


def test_the_model_may_ask_who_reviewed_the_most(db, fake):
    seed_reviews(db)
    fake.answer = scripted(
        {"上周把关情况": {"intent": "highlights", "repo": WIDGETS, "review": "reviewers"} | LAST_WEEK}
    )
    answer = bot(db, fake, phrase=False).handle(Message("上周把关情况"))
    assert (answer.query.review, answer.query.maintainers) == ("reviewers", True)
    assert say("qa.people.title.reviewers", "zh") in answer.reply.plain_text()


@pytest.mark.parametrize("reviewer", ["alice; drop table", "", None, "../etc", "-alice"])
def test_a_reviewer_that_is_no_login_keeps_the_rules_reading_of_reviews(db, fake, reviewer):
    seed_reviews(db)
    fake.answer = scripted(
        {
            "那位A姐上周把关了啥": {
                "intent": "highlights",
                "repo": WIDGETS,
                "review": "by",
                "reviewer": reviewer,
            }
        }
    )
    query = bot(db, fake, phrase=False).handle(Message("那位A姐上周把关了啥")).query
    assert (query.parser, query.review, query.reviewer) == ("llm", None, None)


def test_reviews_are_no_part_of_a_question_about_one_pr(db, fake):
    seed_reviews(db)
    fake.answer = scripted(
        {
            "一零一号咋样": {
                "intent": "pr",
                "repo": WIDGETS,
                "pr_number": 101,
                "review": "reviewers",
                "asks_risks": True,
            }
        }
    )
    query = bot(db, fake, phrase=False).handle(Message("一零一号咋样")).query
    assert (query.intent, query.pr_number, query.review, query.asks_risks) == ("pr", 101, None, True)


@pytest.mark.parametrize(("intent", "kept"), [("compare", "module"), ("highlights", None)])
def test_the_busiest_module_is_kept_only_for_a_comparison(db, fake, intent, kept):
    seed_reviews(db)
    fake.answer = scripted(
        {"上周和上上周哪块最热闹": {"intent": intent, "repo": WIDGETS, "busiest": "module"} | LAST_WEEK}
    )
    query = bot(db, fake, phrase=False).handle(Message("上周和上上周哪块最热闹")).query
    assert (query.parser, query.busiest) == ("llm", kept)


def test_asking_for_a_prs_risks_is_kept_only_for_one_pr(db, fake):
    seed_reviews(db)
    fake.answer = scripted(
        {"一零一号咋样": {"intent": "risks", "repo": WIDGETS, "asks_risks": True} | LAST_WEEK}
    )
    query = bot(db, fake, phrase=False).handle(Message("一零一号咋样")).query
    assert (query.parser, query.intent, query.asks_risks) == ("llm", "risks", False)
