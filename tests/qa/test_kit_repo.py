"""Classes of questions over `acme/kit` (tests/qa/kit_repo.py: plain titles, short English or Chinese
bodies, no template, no module tags), in Chinese and English, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.parse import KnownRepo, ParseContext, parse_query
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.kit_repo import NOW, SHANGHAI, clock, seed
from tests.scratch_db import seeded_database


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def kit_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("kit")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_kit") as database:
        yield database


@pytest.fixture(scope="module")
def bot(kit_db: Database) -> ChatBot:
    return ChatBot(
        kit_db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: None
    )


def ask(bot: ChatBot, question: str, thread: str | None = None) -> Answer:
    return bot.handle(Message(question, platform="test", channel="C1", thread=thread))


# A word mentioned in passing does not make a PR about it ---------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "memory-related changes in kit this week",
        "kit 本周显存相关的改动",
        "kit 这周有哪些和内存有关的 PR",
        "Did anyone fix OOM issues in kit this week?",
        "kit 本周修了哪些 OOM",
        "what did kit change about peak memory this week?",
    ],
)
def test_a_passing_or_unaffected_mention_does_not_make_a_pr_about_the_word(
    bot: ChatBot, question: str
) -> None:
    """#502 says 'Minor memory usage increase' after its opening sentence and #503 '不影响显存占用': neither
    is about memory; #501 (ran out of memory) and #504 (显存泄漏) are."""
    answer = ask(bot, question)
    assert set(answer.cited) == {501, 504}


# Breaking changes the analysis did not flag, stated in the PR's own words ----------------------------


@pytest.mark.parametrize(
    "question",
    [
        "kit 本月有哪些破坏性变更",
        "any breaking changes in kit this month?",
        "kit 六月有哪些不兼容的改动",
        "which kit PRs in June break backward compatibility?",
        "kit 这个月有没有 breaking change",
    ],
)
def test_a_breaking_change_stated_in_words_counts_and_a_denial_does_not(bot: ChatBot, question: str) -> None:
    """#509 'BREAKING: …', #510 '这是一个不兼容的改动', #511 'This is a breaking change'; #512 says 'No
    breaking changes'."""
    answer = ask(bot, question)
    assert answer.query.breaking
    assert set(answer.cited) == {509, 510, 511}


# Ordinals over the last answer's list, in a thread ------------------------------------------------------

THREADS = iter(range(1, 1_000_000))


@pytest.mark.parametrize(
    ("follow", "position"),
    [
        ("第二个讲了什么", 1),
        ("the second one?", 1),
        ("最后一个讲了什么", -1),
        ("what about the last one", -1),
        ("第三条", 2),
        ("the 1st one", 0),
    ],
)
def test_an_ordinal_opens_that_pr_of_the_last_list(bot: ChatBot, follow: str, position: int) -> None:
    thread = f"ordinal-{next(THREADS)}"
    listed = ask(bot, "kit 本月有哪些破坏性变更", thread)
    assert sorted(listed.cited) == [509, 510, 511]
    answer = ask(bot, follow, thread)
    assert answer.query.intent == "pr"
    assert answer.cited == (listed.cited[position],)


@pytest.mark.parametrize(
    ("first", "follow", "language"),
    [
        ("kit 本周有哪些合并 LoRA 相关的修复", "第二个讲了什么", "zh"),
        ("LoRA merge fixes in kit this week", "and the second one?", "en"),
        ("kit 本月有哪些破坏性变更", "第四个呢", "zh"),
        ("any breaking changes in kit this month?", "what about the fifth one", "en"),
        ("kit 本月有哪些破坏性变更", "第一百零五个讲了什么", "zh"),
    ],
)
def test_a_position_the_last_list_does_not_have_is_said_so_not_answered_with_help(
    bot: ChatBot, first: str, follow: str, language: str
) -> None:
    thread = f"ordinal-{next(THREADS)}"
    listed = ask(bot, first, thread)
    assert listed.cited
    answer = ask(bot, follow, thread)
    text = answer.reply.plain_text()
    assert answer.cited == ()
    assert all(f"#{n}" in text for n in listed.cited)
    assert answer.query.language == language
    assert say("qa.unknown", language) not in text
    # the conversation still holds the list: a position it has opens its PR
    again = ask(bot, "第一个讲了什么" if language == "zh" else "the first one?", thread)
    assert again.cited == (listed.cited[0],)


# Who looks after a part of the code: its authors, most PRs first --------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "谁在维护 kit 的 dataloader",
        "kit 的 dataloader 归谁管",
        "kit 里 dataloader 的负责人是谁",
        "who maintains the dataloader in kit?",
        "who owns kit/data/loader.py?",
        "who is in charge of the kit dataloader",
    ],
)
def test_who_maintains_something_names_its_authors_most_active_first(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    text = answer.reply.plain_text()
    assert answer.query.maintainers
    assert set(answer.cited) == {506, 507, 508}
    assert text.index("@lin") < text.index("@mei")  # lin merged two of them, mei one
    for word in ("维护", "maintain", "归谁管", "负责", "owns", "charge"):
        assert word not in answer.query.understood
    # a maintainer is not judged by this week alone; a file's are over all its history
    if answer.query.paths:
        assert answer.window is None
    else:
        assert answer.window is not None and (answer.window.end - answer.window.start).days == 90


# A subject asked about without a window: the past 30 days ---------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "kit 里 dataloader 相关的改动有哪些？",
        "what changed about the dataloader in kit?",
        "kit 的数据加载器有什么新改动",
    ],
)
def test_a_subject_without_a_window_is_answered_from_the_past_30_days(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.window is not None and (answer.window.end - answer.window.start).days == 30
    assert set(answer.cited) == {506, 507, 508}


@pytest.mark.parametrize(
    "question",
    [
        "kit 最近 dataloader 有什么改动",
        "anything new with the dataloader in kit recently?",
        "kit 近期数据加载相关的改动",
    ],
)
def test_a_bare_recently_about_a_subject_is_its_30_days_not_one_week(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.window is not None and (answer.window.end - answer.window.start).days == 30
    assert set(answer.cited) == {506, 507, 508}


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("which kit PRs dropped support for something?", {511}),
        ("kit: anything about renamed config keys?", {509}),
        ("has anyone been speeding things up in kit lately?", {506}),
    ],
)
def test_an_inflected_english_word_finds_its_other_forms(
    bot: ChatBot, question: str, cited: set[int]
) -> None:
    """'dropped' finds 'Drop Python 3.9', 'renamed' finds 'Rename max_len', 'speeding' finds 'Speed up'."""
    answer = ask(bot, question)
    assert cited <= set(answer.cited)


@pytest.mark.parametrize(
    "question",
    [
        "which project-03 PRs touched docker/x.py?",
        "which project-03 PRs changed the trainer?",
        "each project-03 PR this week",
    ],
)
def test_a_repo_named_like_project_n_is_that_repo_not_every_repo(question: str) -> None:
    """'which project…' asks across the repos only when 'project' is the word, not a repo's name."""
    repos = [KnownRepo("bench-org/project-03"), KnownRepo("bench-org/project-04")]
    query = parse_query(question, ParseContext(NOW, SHANGHAI, repos, None, frozenset(), frozenset()))
    assert query.repo == "bench-org/project-03"


@pytest.mark.parametrize(
    "question",
    [
        "kit 本月最重要的是哪个 PR",
        "kit 本月哪个 PR 最重要",
        "kit 本月最值得读的是哪一篇",
        "which kit PR was the most important this month?",
        "what's the single most important change in kit this month?",
        "the most important PR in kit this month",
    ],
)
def test_a_superlative_asked_of_one_pr_names_one(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.limit == 1
    assert len(answer.cited) == 1


@pytest.mark.parametrize(
    "question", ["which kit PRs were the most important this month?", "kit 本月最重要的 PR 有哪些"]
)
def test_a_plural_superlative_lists_several(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.limit != 1
    assert len(answer.cited) > 1
