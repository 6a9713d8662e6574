"""Feishu CardKit streaming, end to end: encrypted, signed pushes; an LLM (the fake OpenAI server,
streaming server-sent events) writing the summary; the fake Open API checking card entities as the
reference says (cardkit:card:write granted, card JSON 2.0, a strictly increasing `sequence`, at most 10
updates a second per card, text only while streaming). The thinking card is a card entity; the summary
streams into it a checked sentence at a time; streaming is closed and the entity becomes the same
answer card the other paths send. Without the permission, the plain thinking card is patched."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from adapters.feishu.app import build_feishu
from adapters.feishu.card import escape, render_card, thinking_card
from adapters.feishu.cardkit import ELEMENT_ID, streaming_thinking_card
from adapters.llm.openai_client import LLMSettings, OpenAICompatibleLLM
from adapters.web.app import BackgroundServer, create_app
from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.llm import LLMAnswerPhraser
from chatbot.store.db import Database
from chatbot.team.feedback import rated
from tests.adapters.feishu.conftest import APP_SECRET, NOW, PUBLIC_URL, TOKEN, FeishuHarness, feishu_settings
from tests.fakes.feishu import CardEntity, FakeFeishu, text_event
from tests.fakes.openai import FakeOpenAI
from tests.reports.fixtures import SHANGHAI, seed

QUESTIONS = [
    "上周 widgets 有哪些风险？",
    "what did widgets merge last week?",
    "上周 widgets 值得精读的 PR 有哪些",
]


def summary(body: dict) -> str | dict:
    """The fake model's summary: a sentence per PR the records cite (at most four), then a closing one
    (as the JSON object the phraser asks for when it does not stream)."""
    records = body["messages"][-1]["content"]
    numbers = list(dict.fromkeys(re.findall(r"#(\d+)", records)))[:4]
    english = "English" in body["messages"][0]["content"]
    sentences = [(f"#{n} is worth a look. " if english else f"#{n} 值得一看。") for n in numbers]
    text = "".join(sentences) + ("That is all." if english else "以上。")
    return text if body.get("stream") else {"text": text}


@pytest.fixture(scope="module")
def model() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(answer=summary) as started:
        assert isinstance(started, FakeOpenAI)
        yield started


@pytest.fixture
def llm(model: FakeOpenAI) -> Iterator[FakeOpenAI]:
    yield model
    model.reset()
    model.answer = summary


def phrasing_bot(db: Database, model: FakeOpenAI | None) -> ChatBot:
    phraser = None
    if model is not None:
        client = OpenAICompatibleLLM(LLMSettings(api_key="test-key", base_url=model.base_url, max_retries=0))
        phraser = LLMAnswerPhraser(client)
    return ChatBot(
        db, BotConfig(SHANGHAI, PUBLIC_URL), FixedClock(NOW), HeuristicAnalyzer().analyze, phraser=phraser
    )


def harness(db: Database, model: FakeOpenAI | None, *, granted: bool = True) -> Iterator[FeishuHarness]:
    seed(db)
    with FakeFeishu(app_secret=APP_SECRET) as fake:
        assert isinstance(fake, FakeFeishu)
        fake.cardkit_granted = granted
        bot = phrasing_bot(db, model)
        waits = FixedClock(NOW)
        fake.clock = lambda: waits.now().timestamp()  # the per-card rate counted on the pacing clock
        adapter = build_feishu(feishu_settings(fake), bot, db, bot.clock, waits=waits)
        try:
            with BackgroundServer(create_app([adapter.mount])) as server:
                yield FeishuHarness(fake, adapter, bot, server.url, waits)
        finally:
            adapter.stop()


@pytest.fixture
def feishu(db: Database, llm: FakeOpenAI) -> Iterator[FeishuHarness]:
    yield from harness(db, llm)


class Recorded:
    def __init__(self) -> None:
        self.text = ""

    def append(self, text: str) -> bool:
        self.text += text
        return True


def expected(feishu: FeishuHarness, question: str) -> tuple[Answer, str]:
    recorded = Recorded()
    answer = feishu.bot.handle(Message(question, platform="feishu", channel="oc_team"), stream=recorded)
    return answer, recorded.text


def the_card(feishu: FeishuHarness) -> tuple[str, CardEntity]:
    (card_id,) = feishu.fake.cards
    return card_id, feishu.fake.card_entity(card_id)


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_thinking_card_entity_streams_the_summary_then_becomes_the_answer(
    feishu: FeishuHarness, question: str
):
    event = text_event(f"@_user_1 {question}", chat_id="oc_team")
    feishu.push(event.payload(TOKEN))
    feishu.settle()
    card_id, entity = the_card(feishu)
    (thinking,) = feishu.fake.sent  # one message, from thinking to answer
    assert (thinking.kind, thinking.target) == ("reply", event.message_id)
    assert thinking.content == {"type": "card", "data": {"card_id": card_id}}
    kinds = [op[0] for op in entity.operations]
    assert kinds[0] == "create" and entity.operations[0][3]["data"]
    assert re.fullmatch(r"create( content)+ settings update", " ".join(kinds)), kinds
    sequences = [op[1] for op in entity.operations[1:]]
    assert sequences == sorted(set(sequences)) and sequences[0] >= 1  # strictly increasing
    answer, text = expected(feishu, question)
    last_text = [op[3]["content"] for op in entity.operations if op[0] == "content"][-1]
    assert last_text == escape(text.strip())  # the whole summary, streamed
    assert entity.card == render_card(rated(answer), language=answer.query.language)
    assert not entity.streaming
    (shown,) = feishu.fake.shown()
    assert shown.content == entity.card


def test_updates_to_one_card_stay_under_ten_a_second(feishu: FeishuHarness, llm: FakeOpenAI):
    # many short sentences: more units than 10 a second would allow if sent as they come
    llm.answer = lambda body: "".join(f"第{n}句。" for n in range(30)) + str(summary(body))
    feishu.push(text_event(f"@_user_1 {QUESTIONS[0]}", chat_id="oc_team").payload(TOKEN))
    feishu.settle()
    _, entity = the_card(feishu)
    times = [op[2] for op in entity.operations if op[0] != "create"]
    assert len(times) > 12
    assert all(later - earlier >= 1.0 for earlier, later in zip(times, times[10:], strict=False))
    assert not [c for c in feishu.fake.calls if c.status == 429]


def test_the_summary_is_on_the_card_while_the_model_still_writes(feishu: FeishuHarness, llm: FakeOpenAI):
    llm.hold_stream_after(3)  # "#101", " 值得一", "看。#1": one sentence, then the model waits
    feishu.push(text_event(f"@_user_1 {QUESTIONS[0]}", chat_id="oc_team").payload(TOKEN))
    feishu.fake.wait_card(
        lambda cards: any(op[0] == "content" for c in cards.values() for op in c.operations)
    )
    _, entity = the_card(feishu)
    assert entity.streaming and [op[0] for op in entity.operations] == ["create", "content"]
    element = entity.card["body"]["elements"][0]
    assert element["element_id"] == ELEMENT_ID and element["content"].endswith("。")
    llm.release()
    feishu.settle()
    assert not the_card(feishu)[1].streaming


def test_a_sentence_citing_another_pr_stops_the_stream_and_the_template_card_replaces_it(
    feishu: FeishuHarness, llm: FakeOpenAI
):
    llm.answer = lambda body: str(summary(body)).replace("以上。", "另见 #9999。不会显示。")
    feishu.push(text_event(f"@_user_1 {QUESTIONS[0]}", chat_id="oc_team").payload(TOKEN))
    feishu.settle()
    _, entity = the_card(feishu)
    streamed = " ".join(op[3]["content"] for op in entity.operations if op[0] == "content")
    assert streamed and "9999" not in streamed
    template = ChatBot(
        feishu.bot.db, BotConfig(SHANGHAI, PUBLIC_URL), FixedClock(NOW), HeuristicAnalyzer().analyze
    )
    answer = template.handle(Message(QUESTIONS[0], platform="feishu", channel="oc_team"))
    assert entity.card == render_card(rated(answer), language="zh")


def test_without_cardkit_permission_the_plain_thinking_card_is_patched_and_cardkit_left_alone(
    db: Database, llm: FakeOpenAI
):
    for feishu in harness(db, llm, granted=False):
        for n, question in enumerate(QUESTIONS[:2]):
            event = text_event(f"@_user_1 {question}", chat_id=f"oc_team{n}")
            feishu.push(event.payload(TOKEN))
            feishu.settle()
        creates = [c for c in feishu.fake.calls if c.request.path == "/open-apis/cardkit/v1/cards"]
        assert len(creates) == 1  # refused once, not asked again for the second question
        thinking = [s for s in feishu.fake.sent if s.kind == "reply"]
        assert [s.content for s in thinking] == [thinking_card("zh"), thinking_card("en")]
        answer, _ = expected(feishu, QUESTIONS[1])
        patched = [s for s in feishu.fake.sent if s.kind == "patch"]
        assert patched[-1].content == render_card(rated(answer), language="en")


def test_without_an_llm_no_card_entity_is_made(db: Database):
    for feishu in harness(db, None):
        feishu.push(text_event(f"@_user_1 {QUESTIONS[0]}", chat_id="oc_team").payload(TOKEN))
        feishu.settle()
        assert feishu.fake.cards == {}
        assert [s.kind for s in feishu.fake.sent] == ["reply", "patch"]


def test_a_streaming_card_that_cannot_be_updated_is_withdrawn_for_a_reply(
    feishu: FeishuHarness, llm: FakeOpenAI
):
    """The entity refuses its final update (say it expired): the answer is a reply of its own and the
    half-streamed card is withdrawn."""
    llm.hold_stream_after(6)
    feishu.push(text_event(f"@_user_1 {QUESTIONS[0]}", chat_id="oc_team").payload(TOKEN))
    feishu.fake.wait_card(
        lambda cards: any(op[0] == "content" for c in cards.values() for op in c.operations)
    )
    for card_id in list(feishu.fake.cards):
        feishu.fake.cards[card_id].sequence = 2_000_000_000  # every later sequence is refused (300317)
    llm.release()
    feishu.settle()
    (answer_card,) = feishu.fake.shown()
    answer, _ = expected(feishu, QUESTIONS[0])
    assert answer_card.content == render_card(rated(answer), language="zh")
    assert [s.kind for s in feishu.fake.sent] == ["reply", "reply", "recall"]


def test_the_thinking_entity_is_a_valid_streaming_card():
    card = streaming_thinking_card("zh")
    assert card["config"]["streaming_mode"] and card["config"]["update_multi"]
    assert card["body"]["elements"][0]["element_id"] == ELEMENT_ID
