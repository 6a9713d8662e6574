"""What an answer is shaped like, by class, over repos of three shapes unlike verl (other_repos: plain
titles and Chinese bodies; fresh_repos: templates, Chinese titles, conventional commits; label_repo:
scoped conventional commits with labels), on SQLite and PostgreSQL: a singular "why" names one PR and
says why from its analysis; a count and a list asked together get both; a change type offered among
alternatives widens the answer; a mistyped search word is read as the title word it is a typo of."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa import fresh_repos, label_repo, other_repos
from tests.qa.other_repos import SHANGHAI
from tests.scratch_db import seeded_database

TRL, FACTORY, RLHF, AXOLOTL, RELAY = (
    other_repos.TRL,
    other_repos.FACTORY,
    fresh_repos.RLHF,
    fresh_repos.AXOLOTL,
    label_repo.RELAY,
)


def seed(db: Database) -> None:
    other_repos.seed(db)
    label_repo.seed(db)
    fresh_repos.seed(db)


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def shapes_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("shapes")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_shapes") as database:
        yield database


def bot_at(db: Database, repo: str) -> ChatBot:
    """A bot at the clock of the fixture `repo` belongs to."""
    clock = fresh_repos.clock() if repo in fresh_repos.REPOS else other_repos.clock()
    return ChatBot(db, BotConfig(SHANGHAI), clock, HeuristicAnalyzer().analyze, channel_repo=lambda _: None)


def ask(db: Database, repo: str, question: str, thread: str | None = None) -> Answer:
    return bot_at(db, repo).handle(Message(question, direct=thread is not None, thread=thread))


# A singular "why": one PR, and why from its analysis ----------------------------------------------------

SINGULAR_WHY = [
    ("trl 这周最值得读的是哪个 pr？为啥", TRL, "trl 这周值得精读的 PR"),
    ("trl 本月最值得精读的 PR 是哪个，为什么？", TRL, "trl 本月值得精读的 PR"),
    (
        "what's the one trl PR I should read this month, and why",
        TRL,
        "which trl PRs deserve a close read this month?",
    ),
    (
        "which openrlhf PR should I read first this month and why?",
        RLHF,
        "openrlhf PRs worth a close read this month",
    ),
    ("relay 这周最值得读的 PR 是哪个？为什么", RELAY, "relay 这周值得精读的 PR"),
    ("relay 本月的必读 PR 给我一个就行，说说理由", RELAY, "relay 本月值得精读的 PR"),
]


@pytest.mark.parametrize(("question", "repo", "plural"), SINGULAR_WHY)
def test_a_singular_why_names_the_first_of_the_reading_list_and_says_why(
    shapes_db: Database, question: str, repo: str, plural: str
) -> None:
    answer = ask(shapes_db, repo, question)
    listed = ask(shapes_db, repo, plural)
    assert len(answer.cited) == 1
    assert answer.cited[0] == listed.cited[0]
    text = answer.reply.plain_text()
    assert say("qa.why.title", answer.query.language, number=answer.cited[0]) in text
    assert say("qa.more", answer.query.language, n=1).split("1")[0] not in text


@pytest.mark.parametrize(
    ("first", "follow", "repo"),
    [
        ("relay what changed in the scheduler last week", "which one is the most important and why?", RELAY),
        ("trl 六月 GRPO 相关的 PR", "哪个最重要，为什么？", TRL),
    ],
)
def test_a_why_after_a_list_names_one_pr_of_that_list(
    shapes_db: Database, first: str, follow: str, repo: str
) -> None:
    bot = bot_at(shapes_db, repo)
    listed = bot.handle(Message(first, direct=True, thread="t-why"))
    answer = bot.handle(Message(follow, direct=True, thread="t-why"))
    assert len(answer.cited) == 1 and answer.cited[0] in listed.cited
    assert say("qa.why.title", answer.query.language, number=answer.cited[0]) in answer.reply.plain_text()


def test_a_plural_or_a_why_without_one_pr_keeps_the_list(shapes_db: Database) -> None:
    assert len(ask(shapes_db, TRL, "trl 本月值得精读的 PR 有哪些，为什么？").cited) > 1


# A count and a list in one question ----------------------------------------------------------------------

COUNT_AND_LIST = [
    ("trl 本月合并了几个 PR？都有哪些重要的", TRL, None),
    ("relay 本月合并了多少 PR，哪些最重要？", RELAY, None),
    ("how many PRs did relay merge this month, and which were the most important?", RELAY, None),
    ("axolotl 3月合并了多少PR，有哪些破坏性的", AXOLOTL, {2616}),
    ("how many PRs did relay merge this month and which ones are breaking?", RELAY, {808}),
]


@pytest.mark.parametrize(("question", "repo", "listed"), COUNT_AND_LIST)
def test_a_count_and_a_list_asked_together_get_both(
    shapes_db: Database, question: str, repo: str, listed: set[int] | None
) -> None:
    answer = ask(shapes_db, repo, question)
    language = answer.query.language
    text = answer.reply.plain_text()
    assert say("qa.stats.title", language) in text
    assert answer.cited
    if listed is not None:
        assert set(answer.cited) >= listed
        counted = ask(shapes_db, repo, question.replace("，", "?").replace(" and ", "? ").split("?")[0])
        # the count is of every PR of the window, not only the listed ones
        assert str(counted.count) in text and (counted.count or 0) > len(listed)
    else:
        assert say("qa.highlights.title", language) in text


# A change type among alternatives ----------------------------------------------------------------------

TYPE_ALTERNATIVES = [
    ("llamafactory 六月有没有修复或者显存相关的", FACTORY, {7001, 7013, 7025}),
    ("trl fixes or docs changes this month", TRL, {3422, 3430, 3450, 3461}),
    ("relay fixes or docs changes this month", RELAY, {802, 803, 804}),
    ("relay 六月 bug 修复或者显存相关的", RELAY, {802, 804}),
    ("openrlhf 三月的修复或者文档更新", RLHF, {1275, 1282, 1297}),
]


@pytest.mark.parametrize(("question", "repo", "expected"), TYPE_ALTERNATIVES)
def test_a_change_type_among_alternatives_takes_either(
    shapes_db: Database, question: str, repo: str, expected: set[int]
) -> None:
    assert set(ask(shapes_db, repo, question).cited) == expected


def test_both_a_change_type_and_a_subject_still_take_both(shapes_db: Database) -> None:
    assert set(ask(shapes_db, FACTORY, "llamafactory 六月既是修复又和显存有关的").cited) == {7001, 7025}


# A mistyped search word -----------------------------------------------------------------------------------

TYPOS = [
    ("trl 最近 gpro 相关的改动", TRL, "gpro", {3422, 3425, 3440, 3444, 3461}),
    ("any grop changes in trl this month?", TRL, "grop", {3422, 3425, 3440, 3444, 3461}),
    ("openrlhf 三月 reinforec 相关", RLHF, "reinforec", {1279, 1303}),
    ("relay this month's eagel work", RELAY, "eagel", {805}),
]


@pytest.mark.parametrize(("question", "repo", "typo", "expected"), TYPOS)
def test_a_mistyped_word_is_read_as_the_title_word_and_says_so(
    shapes_db: Database, question: str, repo: str, typo: str, expected: set[int]
) -> None:
    answer = ask(shapes_db, repo, question)
    assert set(answer.cited) == expected
    assert f"'{typo}'" in answer.reply.plain_text()


def test_a_word_no_title_is_close_to_finds_nothing(shapes_db: Database) -> None:
    assert not ask(shapes_db, TRL, "trl 本月 zebra 相关的 PR").cited
