"""Follow-ups in a conversation: each changes one thing and keeps the rest, through `ChatBot.handle` with
the conversation stored in the database (SQLite and PostgreSQL), over the repos of other_repos.py."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import CONVERSATION_TTL, BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.context import follow_up, query_from_dict, query_to_dict
from chatbot.qa.parse import KnownRepo, ParseContext, parse_query
from chatbot.store.db import Database
from tests.qa.other_repos import NOW, SHANGHAI, TRL, TUNE
from tests.qa.test_any_repo import other_db  # noqa: F401  (the module-scoped index on both databases)

THREADS = itertools.count(1)


@pytest.fixture
def bot(other_db: Database) -> ChatBot:  # noqa: F811
    return ChatBot(
        other_db,
        BotConfig(SHANGHAI),
        FixedClock(NOW),
        HeuristicAnalyzer().analyze,
        channel_repo=lambda _: None,
    )


def conversation(bot: ChatBot, *questions: str, platform: str = "slack") -> list[Answer]:
    """The answers to `questions` asked one after another in one new thread."""
    thread = f"thread-{next(THREADS)}"
    return [
        bot.handle(Message(q, platform=platform, channel="C1", workspace="T1", thread=thread))
        for q in questions
    ]


def window_of(answer: Answer) -> tuple[datetime, datetime]:
    assert answer.query.window is not None
    return answer.query.window.start, answer.query.window.end


def day(month: int, date: int) -> datetime:
    return datetime(2026, month, date, tzinfo=SHANGHAI)


W23, W24, W25 = (day(6, 1), day(6, 8)), (day(6, 8), day(6, 15)), (day(6, 15), day(6, 22))


@pytest.mark.parametrize(
    "follow", ["那上上周呢？", "上上周呢", "and the week before?", "what about the week before?"]
)
def test_a_new_window_keeps_the_repo_and_the_intent(bot: ChatBot, follow: str) -> None:
    first, second = conversation(bot, "trl 上周有哪些风险？", follow)
    assert window_of(first) == W25
    assert (second.query.intent, second.query.repo, window_of(second)) == ("risks", TRL, W24)


def test_a_new_window_keeps_the_topic(bot: ChatBot) -> None:
    first, second = conversation(bot, "trl 第 24 周 GRPO 相关的改动", "那第 23 周呢？")
    assert set(first.cited) == {3440, 3444}
    assert second.query.terms == ("grpo",) and window_of(second) == W23
    assert set(second.cited) == {3422, 3425}


@pytest.mark.parametrize("follow", ["那 PEFT 呢？", "what about PEFT?", "PEFT 呢"])
def test_a_new_topic_keeps_the_window_and_the_repo(bot: ChatBot, follow: str) -> None:
    _, second = conversation(bot, "trl 六月 GRPO 相关的改动", follow)
    assert second.query.terms == ("peft",)
    assert (second.query.repo, window_of(second)) == (TRL, (day(6, 1), day(7, 1)))
    assert set(second.cited) == {3422, 3450, 3461}


@pytest.mark.parametrize("follow", ["only the breaking ones", "只看破坏性变更", "那不兼容的呢？"])
def test_a_filter_narrows_the_last_answer(bot: ChatBot, follow: str) -> None:
    first, second = conversation(bot, "trl 六月有哪些改动", follow)
    assert len(first.cited) > 1
    assert second.query.breaking and second.cited == (3455,)


@pytest.mark.parametrize(
    ("first", "follow", "slot", "value"),
    [
        ("trl 六月有哪些风险？", "只看高风险的", "severity", "high"),
        ("what are the risks in trl in June?", "only the high severity ones", "severity", "high"),
        ("trl 六月有哪些风险？", "那中风险的呢？", "severity", "medium"),
        ("trl 六月值得读的 PR", "只看必读的", "must_read_only", True),
        ("which trl PRs are worth reading in June?", "only the must-reads", "must_read_only", True),
    ],
)
def test_a_severity_or_must_read_filter_narrows_the_last_list_and_stays_for_the_next_window(
    bot: ChatBot, first: str, follow: str, slot: str, value: object
) -> None:
    opened, narrowed, before = conversation(bot, first, follow, "那上上周呢？")
    assert getattr(narrowed.query, slot) == value, narrowed.query
    assert (narrowed.query.intent, narrowed.query.repo) == (opened.query.intent, TRL)
    assert window_of(narrowed) == window_of(opened)
    assert getattr(before.query, slot) == value and before.query.intent == opened.query.intent


@pytest.mark.parametrize(
    ("follow", "position"), [("第二个讲了什么", 1), ("the first one?", 0), ("第 3 个呢", 2)]
)
def test_a_position_opens_that_pr_of_the_last_answer(bot: ChatBot, follow: str, position: int) -> None:
    first, second = conversation(bot, "trl 六月 GRPO 相关的改动", follow)
    assert (second.query.intent, second.cited) == ("pr", (first.cited[position],))


@pytest.mark.parametrize(
    ("opened", "follow", "position"),
    [
        ("第二个讲了什么", "第三个呢", 2),
        ("the second one?", "and the first one?", 0),
        ("第 1 个讲了什么", "最后一个呢", -1),
    ],
)
def test_after_opening_a_pr_another_position_is_of_the_same_list(
    bot: ChatBot, opened: str, follow: str, position: int
) -> None:
    first, _, third = conversation(bot, "trl 六月 GRPO 相关的改动", opened, follow)
    assert (third.query.intent, third.cited) == ("pr", (first.cited[position],))


@pytest.mark.parametrize(
    "follow", ["只看破坏性变更", "only the breaking ones", "那上上周呢？", "and the week before?"]
)
def test_after_opening_a_pr_a_filter_or_window_narrows_the_list_it_came_from(
    bot: ChatBot, follow: str
) -> None:
    *_, third = conversation(bot, "trl 上周有哪些风险？", "第一个讲了什么", follow)
    assert third.query.intent == "risks" and third.query.repo == TRL
    assert third.query.breaking or window_of(third) == W24


@pytest.mark.parametrize(
    "follow",
    [
        "它的风险呢？",
        "它有测试吗",
        "what about its risks?",
        "who wrote it?",
        # Chinese drops the pronoun: still about the PR just opened
        "谁写的",
        "作者是谁？",
        "有测试吗",
        "风险大吗",
        "什么时候合并的",
        "值得读吗",
        "who's the author?",
        "was it tested?",
    ],
)
def test_a_question_about_it_after_opening_a_pr_stays_with_that_pr(bot: ChatBot, follow: str) -> None:
    _, opened, third = conversation(bot, "trl 六月 GRPO 相关的改动", "第二个讲了什么", follow)
    assert (third.query.intent, third.cited) == ("pr", opened.cited)


@pytest.mark.parametrize("follow", ["谁写的 DPO 相关改动", "上周有什么风险", "who wrote the most last week?"])
def test_a_question_with_its_own_subject_after_opening_a_pr_is_not_about_that_pr(
    bot: ChatBot, follow: str
) -> None:
    *_, third = conversation(bot, "trl 六月 GRPO 相关的改动", "第二个讲了什么", follow)
    assert third.query.intent != "pr", third.query


def test_a_pr_number_is_read_in_the_conversations_repo(bot: ChatBot) -> None:
    _, second = conversation(bot, "torchtune 六月有哪些改动", "展开 #3433")
    assert (second.query.repo, second.cited) == (TUNE, (3433,))  # trl has a #3433 too


def test_another_repo_keeps_the_rest(bot: ChatBot) -> None:
    _, second = conversation(bot, "trl 六月 Qwen3 相关的改动", "那 torchtune 呢？")
    # "qwen3" is kept as a term, or as the module torchtune's `models/qwen3/` folder makes it.
    assert second.query.repo == TUNE and "qwen3" in (*second.query.terms, *second.query.modules)
    assert set(second.cited) == {2805, 2824}


def test_a_new_question_starts_over_but_keeps_the_repo(bot: ChatBot) -> None:
    _, second = conversation(bot, "trl 上周 PEFT 相关的改动", "本周有哪些风险？")
    assert (second.query.intent, second.query.repo, second.query.terms) == ("risks", TRL, ())


def test_other_threads_and_one_off_questions_do_not_share_the_conversation(bot: ChatBot) -> None:
    conversation(bot, "trl 上周有哪些风险？")
    (elsewhere,) = conversation(bot, "那上上周呢？")
    one_off = bot.handle(Message("那上上周呢？", platform="slack", channel="C1", workspace="T1"))
    assert elsewhere.query.repo is None and one_off.query.repo is None


def test_a_conversation_expires(other_db: Database) -> None:  # noqa: F811
    clock = FixedClock(NOW)
    bot = ChatBot(
        other_db, BotConfig(SHANGHAI), clock, HeuristicAnalyzer().analyze, channel_repo=lambda _: None
    )
    message = Message("trl 上周有哪些风险？", platform="feishu", channel="oc_1", thread="om_1")
    bot.handle(message)
    clock.sleep((CONVERSATION_TTL + timedelta(minutes=1)).total_seconds())
    later = bot.handle(Message("那上上周呢？", platform="feishu", channel="oc_1", thread="om_1"))
    assert later.query.repo is None


def test_a_direct_chat_is_one_conversation(bot: ChatBot) -> None:
    bot.handle(
        Message("llamafactory 六月的显存问题", platform="slack", channel="D9", workspace="T1", direct=True)
    )
    later = bot.handle(Message("那五月呢？", platform="slack", channel="D9", workspace="T1", direct=True))
    assert (later.query.repo, later.query.topics) == ("hiyouga/llamafactory", ("memory",))


# Property: a follow-up that changes one slot keeps every other slot ------------------------------------

CONTEXT = ParseContext(NOW, SHANGHAI, (KnownRepo(TRL), KnownRepo(TUNE), KnownRepo("hiyouga/llamafactory")))
FIRSTS = st.tuples(
    st.sampled_from(["trl", "torchtune", "llamafactory"]),
    st.sampled_from(["上周", "六月", "第 24 周", "最近三天", "last week", "in May"]),
    st.sampled_from(["有哪些风险", "有哪些改动", "值得精读的 PR", "合并了多少 PR"]),
    st.sampled_from(["", "GRPO 相关", "显存", "PEFT"]),
).map(lambda parts: f"{parts[0]} {parts[1]} {parts[3]} {parts[2]}")
WINDOW_FOLLOWS = st.sampled_from(["那上上周呢？", "那五月呢？", "and last month?", "那第 23 周呢"])
TOPIC_FOLLOWS = st.sampled_from(["那 fsdp 呢？", "what about vLLM?", "那测试呢？", "那 Qwen3 呢"])


@given(first=FIRSTS, follow=WINDOW_FOLLOWS)
def test_changing_the_window_keeps_every_other_slot(first: str, follow: str) -> None:
    previous, current = parse_query(first, CONTEXT), parse_query(follow, CONTEXT)
    merged = follow_up(previous, (), current)
    assert merged.window == current.window
    for slot in ("intent", "repo", "terms", "topics", "modules", "paths", "breaking", "limit"):
        assert getattr(merged, slot) == getattr(previous, slot), slot


@given(first=FIRSTS, follow=TOPIC_FOLLOWS)
def test_changing_the_topic_keeps_every_other_slot(first: str, follow: str) -> None:
    previous = parse_query(first, CONTEXT)
    merged = follow_up(previous, (), parse_query(follow, CONTEXT))
    assert merged.terms or merged.topics
    for slot in ("intent", "repo", "window", "breaking", "limit"):
        assert getattr(merged, slot) == getattr(previous, slot), slot


@given(first=FIRSTS)
def test_a_query_survives_its_json(first: str) -> None:
    query = parse_query(first, CONTEXT)
    assert query_from_dict(query_to_dict(query)) == query
