"""The classes issue #12's second blind evaluation found failing, asked in several phrasings (Chinese and
English) over tests/qa/courier_repo.py (a Go relay with Chinese bodies and YAML config, a Python server with
an argparse flag), on SQLite and PostgreSQL: a config key's value stated, two-character Chinese words
searched, relative windows from local midnight, a path asked without a window over all time, the repo of
a reviewer question, off-topic questions, and a PR merged after "now"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.parse import ParseContext, parse_query
from chatbot.qa.retrieve import uses_word
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.courier_repo import BATCHER, COURIER, NOW, SHANGHAI, clock, seed, seed_courier
from tests.scratch_db import seeded_database

CHANNELS = {"courier": COURIER, "batcher": BATCHER}


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("courier")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_courier") as db:
        yield db


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def courier_only(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("courier_only")
    with seeded_database(request.param, POSTGRES_URL, directory, seed_courier, "prhub_courier1") as db:
        yield db


def make_bot(db: Database, **kwargs: object) -> ChatBot:
    return ChatBot(
        db,
        BotConfig(SHANGHAI),
        clock(),
        HeuristicAnalyzer().analyze,
        channel_repo=lambda message: CHANNELS.get(message.channel or ""),
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module")
def bot(database: Database) -> ChatBot:
    return make_bot(database)


_threads = iter(range(10**6))


def ask(bot: ChatBot, question: str, channel: str | None = None, thread: str | None = None) -> Answer:
    """One question in a thread of its own (or `thread`), in `channel` (subscribed to one repo) or none."""
    thread = thread or f"t{next(_threads)}"
    return bot.handle(Message(question, platform="slack", channel=channel or "dm", user="U1", thread=thread))


def text_of(answer: Answer) -> str:
    return answer.reply.plain_text()


# 1. A config key's value ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question", "key", "before", "after"),
    [
        ("courier", "queue.capacity 现在默认是多少", "queue.capacity", "1024", "4096"),
        ("courier", "what is queue.capacity set to now?", "queue.capacity", "1024", "4096"),
        ("courier", "queue.capacity 的默认值改成多少了？", "queue.capacity", "1024", "4096"),
        ("courier", "max_inflight 默认值改成多少了", "consumer.max_inflight", "64", "256"),
        ("courier", "what's the default of --max-inflight now?", "consumer.max_inflight", "64", "256"),
        ("courier", "consumer.max_inflight 默认是多少", "consumer.max_inflight", "64", "256"),
        ("batcher", "what's the default of --max-inflight now?", "--max-inflight", "32", "128"),
        ("batcher", "--max-inflight 默认值现在是多少", "--max-inflight", "32", "128"),
    ],
)
def test_a_config_keys_value_is_stated_old_to_new_in_the_askers_language(
    bot: ChatBot, channel: str, question: str, key: str, before: str, after: str
) -> None:
    answer = ask(bot, question, channel)
    text = text_of(answer)
    language = answer.query.language
    assert answer.query.intent != "unknown"
    stated = say(
        "qa.config.value.default_changed", language, key=key, before=before, after=after, number="", date=""
    )
    # the sentence up to the PR it names: the key, its value now and the value before
    assert stated.split("#")[0] in text, text
    assert after in text and before in text


def test_the_newest_change_of_a_key_is_its_value_now_and_the_earlier_ones_follow(bot: ChatBot) -> None:
    """queue.capacity went 512 → 1024 (#302, April) then 1024 → 4096 (#303, June): it is 4096 now."""
    text = text_of(ask(bot, "queue.capacity 现在默认是多少", "courier"))
    assert text.index("4096") < text.index("512")
    assert "#303" in text and "#302" in text


def test_a_config_key_named_by_a_flag_is_never_off_topic(bot: ChatBot) -> None:
    """'--max-inflight' is written `max_inflight` in courier's YAML: the flag is still a subject."""
    answer = ask(bot, "what's the default of --max-inflight now?", "courier")
    assert answer.query.intent != "unknown"
    assert 308 in answer.cited


# 2. Two-character Chinese words -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question", "cited"),
    [
        ("courier", "到目前为止所有安全相关的改动", 309),
        ("courier", "有史以来有哪些安全方面的修复？", 309),
        ("courier", "all security changes so far", 309),
        ("courier", "安全相关的改动", 309),
        ("batcher", "到目前为止显存相关的改动", 44),
        ("batcher", "any memory changes ever?", 44),
    ],
)
def test_a_two_character_chinese_word_finds_the_prs_that_say_only_it(
    bot: ChatBot, channel: str, question: str, cited: int
) -> None:
    """#309 says only 安全 (in 安全隐患), #44 only 显存: beside their concepts' longer synonyms the short
    word is still searched, over all time too (where the index, not a window's few PRs, is searched)."""
    assert cited in ask(bot, question, channel).cited


# 3. Relative windows ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "days"),
    [
        ("最近一个月有哪些改动", 30),
        ("what changed in the last month?", 30),
        ("changes in the past 30 days", 30),
        ("最近三天合并了什么", 3),
        ("过去两周的改动", 14),
        ("last 2 weeks", 14),
        ("past week", 7),
        ("近 10 天", 10),
    ],
)
def test_a_relative_window_starts_at_local_midnight(bot: ChatBot, question: str, days: int) -> None:
    answer = ask(bot, question, "courier")
    assert answer.window is not None
    start = answer.window.start.astimezone(SHANGHAI)
    assert (start.hour, start.minute) == (0, 0)
    assert start.date() == (NOW - timedelta(days=days)).date()
    assert answer.window.end <= NOW


def test_a_month_back_includes_a_pr_merged_that_morning(bot: ChatBot) -> None:
    """#305 merged 08-19 09:00, a month before the clock's 15:30: the day counts whole."""
    assert 305 in ask(bot, "最近一个月有哪些改动", "courier").cited


# 4. A path without a window -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "who changed internal/queue/consumer.go?",
        "谁改过 internal/queue/consumer.go",
        "internal/queue/consumer.go 被谁改过",
        "which PRs touched internal/queue/consumer.go",
        "谁动了 internal/queue 下的代码",
    ],
)
def test_a_path_asked_without_a_window_is_searched_over_all_time_and_the_answer_says_so(
    bot: ChatBot, question: str
) -> None:
    answer = ask(bot, question)
    assert answer.query.repo == COURIER
    assert {301, 304, 306} <= set(answer.cited)  # March, July and September
    assert answer.window is None
    assert say("qa.paths.all_time", answer.query.language) in text_of(answer)


def test_a_path_asked_with_a_window_keeps_it(bot: ChatBot) -> None:
    answer = ask(bot, "上周谁改过 internal/queue/consumer.go")
    assert answer.cited == (306,)


# 5. The repo of a reviewer question ----------------------------------------------------------------------


def assert_reviewers_ranked(answer: Answer) -> None:
    """zhao-min reviewed three of last week's PRs, li-na two."""
    text = text_of(answer)
    assert "@zhao-min" in text and "@li-na" in text
    assert text.index("@zhao-min") < text.index("@li-na")


@pytest.mark.parametrize(
    "question",
    [
        "who reviewed the most PRs last week?",
        "上周谁评审最多",
        "上周谁 review 的 PR 最多",
        "which reviewers were busiest last week",
    ],
)
def test_a_reviewer_question_naming_no_repo_is_about_the_one_indexed_repo(
    courier_only: Database, question: str
) -> None:
    answer = ask(make_bot(courier_only), question)
    assert answer.query.repo == COURIER
    assert_reviewers_ranked(answer)


@pytest.mark.parametrize("question", ["who reviewed the most PRs last week?", "上周谁评审最多"])
def test_a_reviewer_question_naming_no_repo_is_about_the_channels_repo(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question, "courier")
    assert answer.query.repo == COURIER
    assert_reviewers_ranked(answer)


@pytest.mark.parametrize(
    "question", ["who reviewed the most PRs last week?", "上周谁评审最多", "谁 review 得最多"]
)
def test_a_reviewer_question_naming_no_repo_is_about_the_conversations_repo(
    bot: ChatBot, question: str
) -> None:
    ask(bot, "relay/courier 上周有哪些改动", thread="reviews-" + question)
    answer = ask(bot, question, thread="reviews-" + question)
    assert answer.query.repo == COURIER
    assert_reviewers_ranked(answer)


@pytest.mark.xfail(
    reason="not done: a reviewer question is not yet resolved to the one repo recording reviews", strict=True
)
@pytest.mark.parametrize("question", ["who reviewed the most PRs last week?", "上周谁评审最多"])
def test_a_reviewer_question_naming_no_repo_is_about_the_one_repo_with_reviews(
    bot: ChatBot, question: str
) -> None:
    """Of the two indexed repos only courier records reviews: as a path names the repo holding it."""
    answer = ask(bot, question)
    assert answer.query.repo == COURIER
    assert_reviewers_ranked(answer)


# 6. Off-topic --------------------------------------------------------------------------------------------


OFF_TOPIC = (
    "how do I cook rice?",
    "今天天气怎么样",
    "tell me a joke",
    "给我讲个笑话",
    "what's the weather like today?",
)


@pytest.mark.parametrize("channel", [None, "courier"])
@pytest.mark.parametrize("question", OFF_TOPIC)
def test_an_off_topic_question_gets_what_the_bot_does(
    bot: ChatBot, question: str, channel: str | None
) -> None:
    answer = ask(bot, question, channel)
    assert answer.query.intent == "unknown" and answer.cited == ()
    assert say("qa.unknown", answer.query.language) in text_of(answer)


@pytest.mark.parametrize(
    "question",
    [
        pytest.param(
            q,
            marks=pytest.mark.xfail(
                reason="not done: '今天天气怎么样' in a thread reads as a follow-up ('…怎么样')", strict=True
            ),
        )
        if q == "今天天气怎么样"
        else q
        for q in OFF_TOPIC
    ],
)
def test_an_off_topic_question_in_a_conversation_is_no_follow_up(bot: ChatBot, question: str) -> None:
    thread = "offtopic-" + question
    ask(bot, "relay/courier 上周有哪些改动", thread=thread)
    answer = ask(bot, question, thread=thread)
    assert answer.query.intent == "unknown" and answer.cited == ()


@pytest.mark.parametrize(
    ("channel", "question", "cited"),
    [
        ("batcher", "any PRs about tokenizer padding?", 41),
        ("batcher", "有没有关于 JWT 的改动", 42),
        ("batcher", "JWT?", 42),
        ("batcher", "pad_to_multiple_of", 41),
        (None, "有没有关于 JWT 的改动", None),  # which repo: searched, not off-topic
        (None, "tensor cores", None),
        ("courier", "JetStream", None),  # merged after the clock: searched, nothing shown
        ("courier", "dead letter 呢", 305),
    ],
)
def test_a_question_with_unusual_words_the_index_uses_is_searched(
    bot: ChatBot, channel: str | None, question: str, cited: int | None
) -> None:
    answer = ask(bot, question, channel)
    assert answer.query.intent != "unknown"
    if cited is not None:
        assert cited in answer.cited
    else:
        assert 307 not in answer.cited


def test_a_word_inside_a_longer_word_is_no_mention() -> None:
    """'cook' in 'cookbook', 'rice' in 'price': the index does not use those words."""
    assert uses_word("see the cookbook and the price list", "cook") is False
    assert uses_word("see the cookbook and the price list", "rice") is False
    assert uses_word("pad tokens, padding them", "pad") is True
    assert uses_word("有安全隐患", "安全") is True


# 7. A PR merged after "now" ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    ["#307 讲了什么", "What does #307 do?", "PR 307 有什么风险", "relay/courier#307", "307 这个 PR 值得看吗"],
)
def test_a_pr_merged_after_now_is_not_shown(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    text = text_of(answer)
    assert "JetStream" not in text and answer.cited == ()
    now = f"{NOW:%Y-%m-%d %H:%M}"
    assert say("qa.pr.not_yet_merged", answer.query.language, repo=COURIER, number=307, now=now) in text


def test_a_pr_merged_before_now_is_shown(bot: ChatBot) -> None:
    assert ask(bot, "#306 讲了什么").cited == (306,)


@pytest.mark.parametrize("hour", [0, 1, 9, 15, 23])
@pytest.mark.parametrize(
    "question",
    [
        "最近一个月",
        "最近三天",
        "过去两周",
        "近 10 天",
        "in the last month",
        "past 30 days",
        "last 3 weeks",
        "past week",
        "最近",
    ],
)
def test_relative_windows_start_at_local_midnight_and_never_end_past_now(question: str, hour: int) -> None:
    """Whatever the hour asked (--as-of included), a relative window runs from a local midnight to now."""
    now = NOW.replace(hour=hour, minute=7)
    window = parse_query(question, ParseContext(now, SHANGHAI)).window
    assert window is not None
    start = window.start.astimezone(SHANGHAI)
    assert (start.hour, start.minute, start.second) == (0, 0, 0)
    assert window.end <= now and window.start < now


# An English answer about PRs with Chinese titles ------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "what did relay/courier merge in September?",
        "relay/courier changes since August",
        "courier PRs this year",
    ],
)
def test_an_english_list_shows_a_chinese_titled_pr_by_its_english_gist(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.cited, question
    lines = [line for line in text_of(answer).splitlines() if line.startswith("• #")]
    assert lines and not [line for line in lines if re.search(r"[\u4e00-\u9fff]", line)]


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("relay/courier 的 internal/queue/consumer.go 最近被哪些 PR 改过", "改过"),
        ("relay/courier 的队列默认容量改成多少了", "改成"),
        ("which PRs did wu-jie open in relay/courier?", "open"),
        ("what does relay/courier use for its dead letter queue now?", "use"),
    ],
)
def test_a_verb_of_asking_is_no_search_term(bot: ChatBot, question: str, word: str) -> None:
    answer = ask(bot, question)
    assert word not in answer.query.terms
    assert f"'{word}'" not in text_of(answer)
