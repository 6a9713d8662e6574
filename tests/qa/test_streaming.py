"""LLM text reaches a chat surface only in checked units: whole sentences (or paragraphs), each naming
no PR outside the answer's citations. Pieces arrive cut anywhere, as a model streams them; the units
are the same however the text was cut. A unit that fails stops the stream, and the phraser keeps the
template answer (which the adapter shows in place of what was streamed)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta

import pytest

from adapters.llm.openai_client import LLMSettings, OpenAICompatibleLLM
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.models import Message, Paragraph, plain
from chatbot.qa.llm import LLMAnswerPhraser
from chatbot.qa.streaming import MAX_UNIT, UncitedPR, checked_units, mentioned_prs
from tests.fakes.openai import FakeOpenAI
from tests.qa import fresh_repos, other_repos
from tests.reports.fixtures import SHANGHAI, WEEK_START, seed

NOW = WEEK_START + timedelta(days=9)


def cut_anywhere(text: str, seed: int) -> list[str]:
    """`text` in pieces of 1 to 7 characters, cut where a model's tokens might fall."""
    rng, pieces, at = random.Random(seed), [], 0
    while at < len(text):
        size = rng.randint(1, 7)
        pieces.append(text[at : at + size])
        at += size
    return pieces


SUMMARIES = [
    "本周合并了 #12 和 #13。其中 #12 修复了显存泄漏！值得细读吗？值得。",
    "Two PRs merged: #12 and #13. The first fixes a leak! Read it? Yes.",
    "Version v1.2 ships e.g. faster rollout in #12. Done",
    "First paragraph about #13\n\nSecond one；第三句",
]
# Where a sentence of SUMMARIES may end (what follows each is a space, a line break or the next one).
ENDS = ("。", "！", "？", ".", "!", "?", "\n", "；")


@pytest.mark.parametrize("text", SUMMARIES)
@pytest.mark.parametrize("seed", range(8))
def test_units_are_whole_sentences_however_the_text_arrives(text: str, seed: int):
    units = list(checked_units(cut_anywhere(text, seed), cited=(12, 13)))
    assert "".join(units) == text
    assert all(unit.endswith(ENDS) for unit in units[:-1])
    # no PR number is split between two units
    assert set().union(*(mentioned_prs(unit) for unit in units)) == mentioned_prs(text)
    assert sum(len(mentioned_prs(unit)) for unit in units) >= len(mentioned_prs(text))


def test_sentences_arriving_one_by_one_are_one_unit_each():
    text = SUMMARIES[0]
    sentences = ["本周合并了 #12 和 #13。", "其中 #12 修复了显存泄漏！", "值得细读吗？", "值得。"]
    assert list(checked_units(iter(sentences), cited=(12, 13))) == sentences
    assert "".join(sentences) == text


def test_a_sentence_without_an_end_is_cut_at_a_space_once_it_grows_too_long():
    text = "word " * 200 + "#12"
    units = list(checked_units(cut_anywhere(text, 1), cited=(12,)))
    assert "".join(units) == text
    assert all(len(unit) <= MAX_UNIT for unit in units[:-1])


@pytest.mark.parametrize(
    "sentence",
    [
        "另见 #999。",
        "See PR 999.",
        "See PR#999.",
        "参考 PR-999 的做法。",
        "本周PR 999 也值得一看。",
        "https://github.com/acme/widgets/pull/999 is related.",
        "pr 999 too!",
    ],
)
def test_a_unit_naming_a_pr_the_answer_does_not_cite_stops_the_stream(sentence: str):
    shown: list[str] = []
    with pytest.raises(UncitedPR) as raised:
        for unit in checked_units(cut_anywhere(f"Good #12. {sentence} Never shown #13.", 3), cited=(12, 13)):
            shown.append(unit)
    assert raised.value.numbers == (999,)
    assert "".join(shown) == "Good #12."


@pytest.mark.parametrize(
    ("text", "numbers"),
    [("#12 and PR 13, pull/14", {12, 13, 14}), ("v1.2, 2026 年, 3 个 PR", set()), ("GPR 5 and APR 6", set())],
)
def test_pr_mentions_are_recognised_in_their_usual_forms_and_nothing_else(text: str, numbers: set[int]):
    assert mentioned_prs(text) == numbers


class Surface:
    """An AnswerStream that records what it showed; it declines more after `room` units."""

    def __init__(self, room: int = 100) -> None:
        self.shown: list[str] = []
        self.room = room

    def append(self, text: str) -> bool:
        if len(self.shown) >= self.room:
            return False
        self.shown.append(text)
        return True


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as started:
        assert isinstance(started, FakeOpenAI)
        yield started


@pytest.fixture
def fake(server: FakeOpenAI) -> Iterator[FakeOpenAI]:
    yield server
    server.reset()


def phrasing_bot(db, fake: FakeOpenAI) -> ChatBot:  # type: ignore[no-untyped-def]
    llm = OpenAICompatibleLLM(LLMSettings(api_key="test-key", base_url=fake.base_url, max_retries=0))
    return ChatBot(
        db, BotConfig(SHANGHAI), FixedClock(NOW), HeuristicAnalyzer().analyze, phraser=LLMAnswerPhraser(llm)
    )


def template_bot(db) -> ChatBot:  # type: ignore[no-untyped-def]
    return ChatBot(db, BotConfig(SHANGHAI), FixedClock(NOW), HeuristicAnalyzer().analyze)


def citing(*numbers: int, extra: str = "") -> str:
    return "".join(f"本周 #{n} 值得一看。" for n in numbers) + extra


QUESTIONS = ["上周 widgets 有哪些风险？", "what did widgets merge last week?", "上周 widgets 值得精读的 PR"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_streamed_summary_is_shown_unit_by_unit_and_heads_the_final_answer(db, fake, question):
    seed(db)
    cited = template_bot(db).handle(Message(question)).cited
    fake.answer = lambda body: citing(*cited[:2], extra="Both merged last week.")
    surface = Surface()
    answer = phrasing_bot(db, fake).handle(Message(question), stream=surface)
    summary = "".join(surface.shown)
    assert len(surface.shown) == min(2, len(cited)) + 1
    assert isinstance(answer.reply.blocks[1], Paragraph)
    assert answer.reply.blocks[1].spans[0].text == summary.strip()
    [request] = fake.requests
    assert request["stream"] is True and "response_format" not in request


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_summary_citing_another_pr_mid_stream_leaves_the_template_answer(db, fake, question):
    seed(db)
    template = template_bot(db).handle(Message(question))
    fake.answer = lambda body: citing(*template.cited[:1], extra="另见 #9999 的修复。Never shown.")
    surface = Surface()
    answer = phrasing_bot(db, fake).handle(Message(question), stream=surface)
    assert surface.shown == [citing(*template.cited[:1])]
    assert answer.reply == template.reply


@pytest.mark.parametrize("fault", ["cut", "length", "server_error"])
def test_a_model_failing_mid_stream_leaves_the_template_answer(db, fake, fault):
    seed(db)
    question = QUESTIONS[0]
    template = template_bot(db).handle(Message(question))
    fake.answer = lambda body: citing(*template.cited) * 3
    fake.fail_next(fault)
    answer = phrasing_bot(db, fake).handle(Message(question), stream=Surface())
    assert answer.reply == template.reply


def test_a_surface_that_declines_more_still_gets_the_whole_summary_in_the_final_answer(db, fake):
    seed(db)
    question = QUESTIONS[1]
    cited = template_bot(db).handle(Message(question)).cited
    fake.answer = lambda body: citing(*cited, extra="Done.")
    surface = Surface(room=1)
    answer = phrasing_bot(db, fake).handle(Message(question), stream=surface)
    assert len(surface.shown) == 1
    assert answer.reply.blocks[1].spans[0].text == (citing(*cited, extra="Done.")).strip()


def test_without_a_stream_the_summary_is_asked_for_as_json(db, fake):
    seed(db)
    question = QUESTIONS[0]
    cited = template_bot(db).handle(Message(question)).cited
    fake.answer = lambda body: {"text": citing(*cited)}
    answer = phrasing_bot(db, fake).handle(Message(question))
    assert answer.reply.blocks[1].spans[0].text == citing(*cited)
    [request] = fake.requests
    assert not request.get("stream") and request["response_format"]["type"] == "json_schema"


# Repos of other shapes: no [module] tags, Chinese bodies, conventional commits, no PR template ----------

OTHER_QUESTIONS = [
    ("other", "本周 trl 有哪些风险？"),
    ("other", "what did llamafactory merge this week?"),
    ("other", "torchtune 上周值得精读的 PR"),
    ("other", "trl 最近有哪些 GRPO 相关的改动"),
    ("other", "Which torchtune PRs touched recipes lately?"),
    ("other", "llamafactory 这周合并了什么"),
    ("fresh", "openrlhf 本周有哪些值得关注的改动？"),
    ("fresh", "what changed in ms-swift this week?"),
    ("fresh", "axolotl 上周有哪些风险"),
]


SHAPES = {"other": other_repos, "fresh": fresh_repos}


def shaped_bot(db, fake: FakeOpenAI | None, shape: str) -> ChatBot:  # type: ignore[no-untyped-def]
    module = SHAPES[shape]
    phraser = None
    if fake is not None:
        llm = OpenAICompatibleLLM(LLMSettings(api_key="test-key", base_url=fake.base_url, max_retries=0))
        phraser = LLMAnswerPhraser(llm)
    return ChatBot(
        db, BotConfig(module.SHANGHAI), module.clock(), HeuristicAnalyzer().analyze, phraser=phraser
    )


def indexed_numbers(shape: str) -> set[int]:
    return {number for _, number in SHAPES[shape].BY_KEY}


@pytest.mark.parametrize(("shape", "question"), OTHER_QUESTIONS)
def test_on_repos_of_other_shapes_only_cited_prs_reach_the_surface(db, fake, shape: str, question: str):
    """A summary naming an indexed PR the answer does not cite (another repo's, another week's) is cut
    at that sentence, and the template answer stands; one naming only cited PRs heads the answer."""
    SHAPES[shape].seed(db)
    template = shaped_bot(db, None, shape).handle(Message(question))
    uncited = max(indexed_numbers(shape) - set(template.cited))
    good = "".join(f"#{n} 值得一看。" for n in template.cited[:2])
    fake.answer = lambda body: good + f"另见 #{uncited}。后面不显示。"
    surface = Surface()
    answer = shaped_bot(db, fake, shape).handle(Message(question), stream=surface)
    assert answer.reply == template.reply
    assert "".join(surface.shown) == good  # nothing from the uncited sentence on
    fake.reset()
    fake.answer = lambda body: good or "本周没有 PR。"
    surface = Surface()
    answer = shaped_bot(db, fake, shape).handle(Message(question), stream=surface)
    if template.cited:
        assert "".join(surface.shown) == good
        assert answer.reply.blocks[1] == Paragraph((plain(good),))
    else:  # nothing cited, nothing to summarise: no model call, nothing streamed
        assert surface.shown == [] and fake.requests == [] and answer.reply == template.reply
