"""Slack chat streaming, end to end: signed events to the bolt app, an LLM (the fake OpenAI server,
streaming server-sent events) writing the summary, the fake Web API checking the streaming methods'
order, arguments and tiers. The summary is streamed a checked sentence at a time into the question's
thread (chat.startStream → appendStream → stopStream); the stopped message is then updated into the
same final reply every other path renders. Where streaming fails or is missing, the answer is shown
as before."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from adapters.llm.openai_client import LLMSettings, OpenAICompatibleLLM
from adapters.slack.app import build_slack
from adapters.slack.blocks import render_blocks, stream_markdown, thinking_message
from adapters.slack.convert import ReplyTarget
from adapters.slack.sender import web_client
from adapters.slack.stream import STARTS_PER_WORKSPACE, SlackStreams
from adapters.web.app import BackgroundServer, create_app
from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.llm import LLMAnswerPhraser
from chatbot.store.db import Database
from chatbot.team.feedback import rated
from tests.adapters.slack.conftest import NOW, PUBLIC_URL, SlackHarness, slack_settings
from tests.fakes.openai import FakeOpenAI
from tests.fakes.slack import TEAM_ID, FakeSlack, assistant_thread, direct_message, mention, panel_message
from tests.reports.fixtures import SHANGHAI, seed

QUESTIONS = [
    "上周 widgets 有哪些风险？",
    "what did widgets merge last week?",
    "上周 widgets 值得精读的 PR 有哪些",
]
STREAM_CALLS = ("chat.startStream", "chat.appendStream", "chat.stopStream")


def summary(body: dict) -> str:
    """The fake model's summary: one sentence per PR the records cite (at most three), then a closing one."""
    records = body["messages"][-1]["content"]
    numbers = list(dict.fromkeys(re.findall(r"#(\d+)", records)))[:3]
    english = "English" in body["messages"][0]["content"]
    sentences = [(f"#{n} is worth a look. " if english else f"#{n} 值得一看。") for n in numbers]
    return "".join(sentences) + ("That is all." if english else "以上。")


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


def phrasing_bot(db: Database, model: FakeOpenAI) -> ChatBot:
    client = OpenAICompatibleLLM(LLMSettings(api_key="test-key", base_url=model.base_url, max_retries=0))
    return ChatBot(
        db,
        BotConfig(SHANGHAI, PUBLIC_URL),
        FixedClock(NOW),
        HeuristicAnalyzer().analyze,
        phraser=LLMAnswerPhraser(client),
    )


def harness(db: Database, model: FakeOpenAI, *, streaming: bool = True) -> Iterator[SlackHarness]:
    seed(db)
    with FakeSlack() as fake:
        assert isinstance(fake, FakeSlack)
        bot = phrasing_bot(db, model)
        waits = FixedClock(NOW)
        fake.clock = lambda: waits.now().timestamp()  # Slack's tiers counted on the clock pacing sleeps on
        settings = slack_settings(fake).model_copy(update={"streaming": streaming})
        adapter = build_slack(settings, bot, db, bot.clock, waits=waits, jitter=lambda: 0.0)
        try:
            with BackgroundServer(create_app([adapter.mount])) as server:
                yield SlackHarness(fake, adapter, bot, server.url, waits)
        finally:
            adapter.stop()


@pytest.fixture
def slack(db: Database, llm: FakeOpenAI) -> Iterator[SlackHarness]:
    yield from harness(db, llm)


class Recorded:
    """An AnswerStream that keeps what it is shown: the same answer, asked again outside Slack."""

    def __init__(self) -> None:
        self.text = ""

    def append(self, text: str) -> bool:
        self.text += text
        return True


def expected(slack: SlackHarness, question: str, channel: str) -> tuple[Answer, str]:
    """The final answer (with its summary) and the summary, as the bot gives them to any stream."""
    recorded = Recorded()
    answer = slack.bot.handle(Message(question, platform="slack", channel=channel), stream=recorded)
    return answer, recorded.text


def streamed_text(slack: SlackHarness, ts: str) -> str:
    return "".join(
        str(c.params.get("markdown_text") or "")
        for c in slack.fake.called(ok=True)
        if c.method in STREAM_CALLS and (c.answer or {}).get("ts") == ts
    )


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_summary_streams_into_the_thread_and_the_message_becomes_the_answer(
    slack: SlackHarness, question: str
):
    slack.event(mention(question, channel="C5", ts="1750000000.000700"))
    slack.drain()
    calls = [c for c in slack.fake.called() if c.method != "auth.test"]
    assert all(c.ok for c in calls), [(c.method, c.error) for c in calls if not c.ok]
    order = " ".join(c.method for c in calls)
    # the thinking message at once; the first checked sentence replaces it; more; stop; the answer
    assert re.fullmatch(
        r"chat.postMessage chat.startStream chat.delete( chat.appendStream)+ chat.stopStream chat.update",
        order,
    ), order
    start = slack.fake.called("chat.startStream")[0]
    ts = start.answer["ts"]
    assert start.params["thread_ts"] == "1750000000.000700"
    assert (start.params["recipient_user_id"], start.params["recipient_team_id"]) == ("U1", TEAM_ID)
    answer, text = expected(slack, question, "C5")
    assert streamed_text(slack, ts) == stream_markdown(text)
    (shown,) = slack.fake.shown("C5")  # the thinking message is gone; the stream is the answer
    first = render_blocks(rated(answer), language=answer.query.language)[0]
    assert (shown.ts, shown.text, shown.blocks, shown.streaming) == (
        ts,
        first["text"],
        first["blocks"],
        False,
    )
    assert text.strip() in str(first["blocks"])


def test_the_first_sentence_is_visible_while_the_model_is_still_writing(slack: SlackHarness, llm: FakeOpenAI):
    llm.hold_stream_after(6)  # the first sentence is a few pieces; the rest waits
    slack.event(mention(QUESTIONS[0], channel="C5", ts="1750000000.000700"))
    (start,) = slack.fake.wait_for("chat.startStream", timeout=5.0)
    assert slack.fake.called("chat.stopStream") == [] and slack.fake.called("chat.update") == []
    assert start.params["markdown_text"].endswith("。")
    llm.release()
    slack.drain()
    assert len(slack.fake.called("chat.update", ok=True)) == 1


def test_a_panel_question_streams_into_its_thread(slack: SlackHarness):
    slack.event(assistant_thread("started"), "Ev-start")
    slack.fake.wait_for("assistant.threads.setSuggestedPrompts")
    slack.event(panel_message("widgets 上周有哪些风险？", ts="1750000100.000010"), "Ev-q1")
    slack.drain()
    (start,) = slack.fake.called("chat.startStream", ok=True)
    assert (start.params["channel"], start.params["thread_ts"]) == ("D1", "1750000100.000001")
    _, answer = slack.fake.shown("D1")
    assert answer.ts == start.answer["ts"] and answer.updates == 1 and not answer.streaming
    assert say("qa.risks.title", "zh") in str(answer.blocks)


def test_an_append_refused_ends_the_stream_and_the_answer_replaces_it(slack: SlackHarness):
    slack.fake.fail("chat.appendStream", "message_not_in_streaming_state")
    slack.event(mention(QUESTIONS[1], channel="C5", ts="1750000000.000700"))
    slack.drain()
    assert len(slack.fake.called("chat.appendStream")) == 1  # nothing more after a refusal
    answer, _ = expected(slack, QUESTIONS[1], "C5")
    (shown,) = slack.fake.shown("C5")
    first = render_blocks(rated(answer), language="en")[0]
    assert (shown.text, shown.blocks) == (first["text"], first["blocks"])


def test_a_stream_slack_dropped_falls_back_to_a_final_post(slack: SlackHarness):
    """The stream expired server-side: appends, stop and update are refused; the answer is posted in
    the thread and the broken stream removed."""
    slack.fake.fail("chat.appendStream", "message_not_in_streaming_state")
    slack.fake.fail("chat.stopStream", "message_not_in_streaming_state")
    slack.fake.fail("chat.update", "cant_update_message")
    slack.event(mention(QUESTIONS[0], channel="C5", ts="1750000000.000700"))
    slack.drain()
    answer, _ = expected(slack, QUESTIONS[0], "C5")
    (shown,) = slack.fake.shown("C5")
    first = render_blocks(rated(answer), language="zh")[0]
    assert (shown.blocks, shown.thread_ts, shown.updates) == (first["blocks"], "1750000000.000700", 0)
    stream_ts = slack.fake.called("chat.startStream")[0].answer["ts"]
    assert stream_ts in [c.params["ts"] for c in slack.fake.called("chat.delete", ok=True)]


def test_a_sentence_citing_another_pr_stops_the_stream_and_the_template_answer_replaces_it(
    slack: SlackHarness, llm: FakeOpenAI
):
    llm.answer = lambda body: summary(body).replace("以上。", "另见 #9999 的修复。后面不会显示。")
    slack.event(mention(QUESTIONS[0], channel="C5", ts="1750000000.000700"))
    slack.drain()
    shown_text = "".join(
        str(c.params.get("markdown_text") or "") for c in slack.fake.called() if c.method in STREAM_CALLS
    )
    assert "9999" not in shown_text and shown_text  # it streamed, but never the unchecked sentence
    template = ChatBot(
        slack.bot.db, BotConfig(SHANGHAI, PUBLIC_URL), FixedClock(NOW), HeuristicAnalyzer().analyze
    ).handle(Message(QUESTIONS[0], platform="slack", channel="C5"))
    (shown,) = slack.fake.shown("C5")
    first = render_blocks(rated(template), language="zh")[0]
    assert (shown.text, shown.blocks) == (first["text"], first["blocks"])


@pytest.mark.parametrize("error", ["unknown_method", "not_allowed_token_type", "missing_scope"])
def test_a_workspace_without_streaming_gets_the_thinking_message_updated_and_is_not_asked_again(
    slack: SlackHarness, error: str
):
    slack.fake.streaming_unavailable = error
    slack.event(mention(QUESTIONS[0], channel="C5", ts="1750000000.000700"), "Ev1")
    slack.fake.wait_for("chat.update", timeout=10.0)
    slack.event(direct_message(QUESTIONS[1], channel="D3") | {"thread_ts": "1750000000.000900"}, "Ev2")
    slack.drain()
    assert len(slack.fake.called("chat.startStream")) == 1  # remembered for the second question
    # In the channel the thinking message is updated into the answer; in the DM thread (the assistant
    # panel's path, whose feedback is a status) the answer is posted.
    for channel, question, updates in (("C5", QUESTIONS[0], 1), ("D3", QUESTIONS[1], 0)):
        (shown,) = slack.fake.shown(channel)
        answer, _ = expected(slack, question, channel)
        first = render_blocks(rated(answer), language=answer.query.language)[0]
        assert (shown.blocks, shown.updates) == (first["blocks"], updates)


def test_a_dm_outside_a_thread_is_answered_without_streaming(slack: SlackHarness):
    slack.event(direct_message(QUESTIONS[1], channel="D3"))
    slack.drain()
    assert slack.fake.called("chat.startStream") == []
    (thinking, *_) = slack.fake.called("chat.postMessage", ok=True)
    assert thinking.params["text"] == thinking_message("en")["text"]
    assert len(slack.fake.called("chat.update", ok=True)) == 1


def test_with_streaming_off_no_stream_is_started(db: Database, llm: FakeOpenAI):
    for off in harness(db, llm, streaming=False):
        off.event(mention(QUESTIONS[0], channel="C5", ts="1750000000.000700"))
        off.drain()
        assert off.fake.called("chat.startStream") == []
        assert len(off.fake.called("chat.update", ok=True)) == 1


def test_starts_stay_below_slacks_tier_in_a_busy_workspace():
    """More answers at once than Slack's Tier 2 allows starts: the ones past the budget are not
    streamed (shown the usual way), and Slack never answers 429."""
    with FakeSlack() as fake:
        assert isinstance(fake, FakeSlack)
        clock = FixedClock(NOW)
        fake.clock = lambda: clock.now().timestamp()
        streams = SlackStreams(web_client("xoxb-test-bot-token", fake.api_url, clock), clock)
        started = []
        for n in range(STARTS_PER_WORKSPACE[0] + 10):
            target = ReplyTarget("C5", f"1750000000.{n:06d}")
            stream = streams.open(target, Message("q", platform="slack", user="U1", workspace=TEAM_ID), None)
            assert stream is not None
            started.append(stream.append("第一句。"))
            stream.append("第二句。")
            stream.finish()
        assert started.count(True) == STARTS_PER_WORKSPACE[0]
        assert [c for c in fake.called() if c.status == 429] == []
        clock.sleep(STARTS_PER_WORKSPACE[1])  # a minute later there is budget again
        stream = streams.open(
            ReplyTarget("C5", "1750000001.000001"), Message("q", workspace=TEAM_ID, user="U1"), None
        )
        assert stream is not None and stream.append("再来一句。")
