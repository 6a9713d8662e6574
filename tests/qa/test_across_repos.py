"""A channel subscribed to several repos asks without naming one and gets one answer across them; "我们
订阅的仓库" / "our repos" mean the channel's subscriptions; an author or a path names the repo it belongs
to. Subscriptions are made with the real commands, and one conversation runs through the console adapter."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO

import pytest
from rich.console import Console

from adapters.console import render_console
from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import join, say
from chatbot.models import Message
from chatbot.qa.compose import Answer, window_text
from chatbot.store.db import Database
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService
from tests.conftest import POSTGRES_URL
from tests.qa.fresh_repos import AXOLOTL, BY_KEY, NOW, RLHF, SHANGHAI, SWIFT, clock, seed
from tests.scratch_db import seeded_database

MULTI, SINGLE, NONE = "C-MULTI", "C-SINGLE", "C-NONE"


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def across_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("across")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_across") as database:
        yield database


@pytest.fixture(scope="module")
def bot(across_db: Database) -> ChatBot:
    service = SubscriptionService(across_db, clock(), SubscriptionPolicy("Asia/Shanghai"))
    chat = ChatBot(
        across_db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, subscriptions=service
    )
    for channel, repo in ((MULTI, RLHF), (MULTI, SWIFT), (SINGLE, AXOLOTL)):
        reply = chat.handle(in_channel(f"订阅 {repo}", channel)).reply.plain_text()
        assert repo in reply
    return chat


def in_channel(text: str, channel: str, thread: str | None = None) -> Message:
    return Message(text, platform="slack", workspace="T1", channel=channel, user="U1", thread=thread)


def ask(bot: ChatBot, text: str, channel: str, thread: str | None = None) -> Answer:
    return bot.handle(in_channel(text, channel, thread))


def numbers_of(repo: str, answer: Answer) -> set[int]:
    return {number for number in answer.cited if (repo, number) in BY_KEY}


@pytest.mark.parametrize(
    "question",
    [
        "本周有哪些风险？",
        "What are the risks this week?",
        "我们订阅的仓库本周有哪些风险",
        "本周订阅的这些仓库有哪些风险？",
    ],
)
def test_a_channel_with_several_repos_gets_one_answer_across_them(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question, MULTI)
    text = answer.reply.plain_text()
    language = answer.query.language
    assert answer.query.intent == "risks"
    assert answer.query.terms == ()
    assert say("qa.across.title", language, n=2, repos=join((SWIFT, RLHF), language)) in text
    window = window_text(answer.window, NOW, SHANGHAI, language)
    for repo in (RLHF, SWIFT):
        assert say("qa.heading", language, repo=repo, window=window) in text
    assert numbers_of(RLHF, answer) == {1306}
    # #4129 reverts #4126: what it takes out is #4126's code, no risk of its own.
    assert numbers_of(SWIFT, answer) == {4126}


def test_repos_with_nothing_to_say_share_one_line(bot: ChatBot) -> None:
    answer = ask(bot, "我们订阅的仓库上周有哪些回滚？", MULTI)
    text = answer.reply.plain_text()
    window = window_text(answer.window, NOW, SHANGHAI, "zh")
    assert say("qa.across.quiet", "zh", repos=RLHF, window=window) in text
    assert answer.cited == ()


def test_a_follow_up_in_the_thread_stays_across_the_channels_repos(bot: ChatBot) -> None:
    ask(bot, "本周有哪些风险？", MULTI, thread="th-1")
    answer = ask(bot, "那上上周呢？", MULTI, thread="th-1")
    assert answer.query.intent == "risks"
    assert answer.window is not None and answer.window.week is not None
    assert answer.window.week.week == 11
    assert numbers_of(RLHF, answer) == {1285}
    assert numbers_of(SWIFT, answer) == {4111}


@pytest.mark.parametrize("question", ["our repos: what changed last week?", "我们订阅的仓库上周有什么改动"])
def test_our_repos_in_a_channel_with_one_subscription_is_that_repo(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question, SINGLE)
    assert answer.query.repo == AXOLOTL
    assert answer.query.terms == ()
    assert set(answer.cited) == {2613, 2616, 2619}


def test_our_repos_where_nothing_is_subscribed_says_so(bot: ChatBot) -> None:
    answer = ask(bot, "订阅的这些仓库本周有哪些风险？", NONE)
    assert answer.reply.plain_text() == say("qa.subscribed.none", "zh")


def test_the_subscription_commands_still_work_beside_questions_about_subscriptions(bot: ChatBot) -> None:
    text = ask(bot, "订阅列表", MULTI).reply.plain_text()
    assert RLHF in text and SWIFT in text


@pytest.mark.parametrize(
    ("question", "repo", "cited"),
    [
        ("what did zhuzilin merge in March?", RLHF, {1275, 1285, 1294, 1306}),
        ("hjh0119 三月的 PR", SWIFT, {4111, 4117, 4126}),
        ("djsaunde 的改动", AXOLOTL, {2607, 2613, 2622}),
    ],
)
def test_an_author_names_the_repo_they_merged_in(
    bot: ChatBot, question: str, repo: str, cited: set[int]
) -> None:
    answer = ask(bot, question, NONE)
    assert (answer.query.intent, answer.query.repo) == ("author", repo)
    assert set(answer.cited) == cited


def test_an_all_time_answer_cites_nothing_merged_after_now(bot: ChatBot) -> None:
    answer = ask(bot, "hjh0119 的 PR", NONE)
    assert answer.cited
    assert all(BY_KEY[(SWIFT, number)].merged < NOW for number in answer.cited)


def test_a_path_under_a_source_root_names_its_repo(bot: ChatBot) -> None:
    answer = ask(bot, "which PRs touched src/axolotl/core/trainers in March?", NONE)
    assert answer.query.repo == AXOLOTL
    assert set(answer.cited) == {2610, 2619, 2625}


def test_the_console_shows_every_repo_of_the_channel_in_one_reply(bot: ChatBot) -> None:
    out = StringIO()
    answer = ask(bot, "what changed in our repos this week?", MULTI)
    render_console(answer.reply, Console(file=out, width=400, color_system=None, highlight=False))
    shown = out.getvalue()
    assert say("qa.across.title", "en", n=2, repos=join((SWIFT, RLHF), "en")) in shown
    for repo, number in ((RLHF, 1306), (RLHF, 1303), (SWIFT, 4129), (SWIFT, 4126)):
        assert f"https://github.com/{repo}/pull/{number}" in shown
