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
    ("trl 本月合并了几个 PR？都有哪些重要的", TRL, None, "qa.highlights.title"),
    ("relay 本月合并了多少 PR，哪些最重要？", RELAY, None, "qa.highlights.title"),
    (
        "how many PRs did relay merge this month, and which were the most important?",
        RELAY,
        None,
        "qa.highlights.title",
    ),
    (
        "how many PRs did relay merge this month, and what were the biggest ones?",
        RELAY,
        None,
        "qa.size.title",
    ),
    ("openrlhf 三月合并了多少 PR？最大的几个是哪些", RLHF, None, "qa.size.title"),
    ("axolotl 3月合并了多少PR，有哪些破坏性的", AXOLOTL, {2616}, None),
    ("how many PRs did relay merge this month and which ones are breaking?", RELAY, {808}, None),
]


@pytest.mark.parametrize(("question", "repo", "listed", "title"), COUNT_AND_LIST)
def test_a_count_and_a_list_asked_together_get_both(
    shapes_db: Database, question: str, repo: str, listed: set[int] | None, title: str | None
) -> None:
    answer = ask(shapes_db, repo, question)
    language = answer.query.language
    text = answer.reply.plain_text()
    assert say("qa.stats.title", language) in text
    assert answer.cited
    if title is not None:
        assert say(title, language) in text
    if listed is not None:
        assert set(answer.cited) >= listed
        counted = ask(shapes_db, repo, question.replace("，", "?").replace(" and ", "? ").split("?")[0])
        # the count is of every PR of the window, not only the listed ones
        assert str(counted.count) in text and (counted.count or 0) > len(listed)


# A change type among alternatives ----------------------------------------------------------------------

TYPE_ALTERNATIVES = [
    ("llamafactory 六月有没有修复或者显存相关的", FACTORY, {7001, 7013, 7025}),
    ("trl fixes or docs changes this month", TRL, {3422, 3430, 3450, 3461}),
    ("relay fixes or docs changes this month", RELAY, {802, 803, 804, 811}),
    ("relay 六月 bug 修复或者显存相关的", RELAY, {802, 804, 811}),
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


# Whether results may change: the analyzer's "changes training or inference semantics" --------------------

# A speed-up of packing (#3463) or a fused attention kernel (#806) gives the same results sooner.
SEMANTICS = [
    ("any trl changes this month that alter training semantics?", TRL, {3422}),
    ("trl 本月哪些改动可能影响模型收敛", TRL, {3422}),
    ("relay 这个月有改变推理结果的改动吗", RELAY, {804, 812}),
    ("openrlhf 三月哪些 PR 会影响训练收敛", RLHF, {1275, 1297}),
    ("did anything in openrlhf this month affect convergence?", RLHF, {1275, 1297}),
]


@pytest.mark.parametrize(("question", "repo", "expected"), SEMANTICS)
def test_a_question_about_changed_results_gets_the_prs_that_change_semantics(
    shapes_db: Database, question: str, repo: str, expected: set[int]
) -> None:
    answer = ask(shapes_db, repo, question)
    assert set(answer.cited) == expected
    assert say("qa.understood.semantics", answer.query.language).lower() in answer.reply.plain_text().lower()


# "a/b" is alternatives when its halves are words, a repo otherwise -------------------------------------

SLASHED = [
    ("trl saving/loading fixes this month", TRL, {3450, 3461}),
    ("trl 本月 grpo/dpo 相关的修复", TRL, {3422, 3461}),
]


@pytest.mark.parametrize(("question", "repo", "expected"), SLASHED)
def test_two_words_joined_by_a_slash_are_alternatives_not_a_repo(
    shapes_db: Database, question: str, repo: str, expected: set[int]
) -> None:
    assert set(ask(shapes_db, repo, question).cited) == expected


def test_an_owner_and_name_not_indexed_is_still_an_unknown_repo(shapes_db: Database) -> None:
    answer = ask(shapes_db, TRL, "what's new in vllm-project/vllm this week?")
    assert answer.query.unknown_repo == "vllm-project/vllm" and not answer.cited


# A module word inside a longer glossary phrase is the phrase ---------------------------------------------

NEW_MODELS = [
    ("any new model support in relay this month?", RELAY, {805, 810}),
    ("relay 本月有没有新的模型支持", RELAY, {805, 810}),
]


@pytest.mark.parametrize(("question", "repo", "expected"), NEW_MODELS)
def test_a_module_word_inside_a_glossary_phrase_does_not_narrow_to_the_module(
    shapes_db: Database, question: str, repo: str, expected: set[int]
) -> None:
    assert set(ask(shapes_db, repo, question).cited) == expected


# A question whose words are the index's is about the index, even naming no repo ---------------------------

ON_TOPIC = [
    ("how is the rotary embedding fusion going?", True),
    ("rotary embedding 那块最近怎么样了", True),
    ("What's the weather like in Shanghai today?", False),
    ("上海今天天气怎么样", False),
]


@pytest.mark.parametrize(("question", "about_the_index"), ON_TOPIC)
def test_words_of_the_indexed_titles_make_a_question_about_the_index(
    shapes_db: Database, question: str, about_the_index: bool
) -> None:
    answer = ask(shapes_db, RELAY, question)
    assert (answer.query.intent != "unknown") is about_the_index


# A verb finds its noun in -ion and back -----------------------------------------------------------------

NOMINALIZED = [
    ("relay logits normalization changes this month", RELAY, {811}),
    ("which relay PRs quantize the MoE layers?", RELAY, {812}),
    ("relay 本月 quantized 相关的改动", RELAY, {812}),
]


@pytest.mark.parametrize(("question", "repo", "expected"), NOMINALIZED)
def test_a_verb_and_its_noun_find_each_other(
    shapes_db: Database, question: str, repo: str, expected: set[int]
) -> None:
    answer = ask(shapes_db, repo, question)
    assert set(answer.cited) == expected
    assert not answer.query.notes  # found as asked: no word relaxed away, no window widened


# "Improvements" of a named subject are any change to it; bare, they are features, speed-ups, refactors --

IMPROVEMENTS = [
    ("any perf or memory improvements in axolotl this month?", AXOLOTL, {2604, 2622}),
    ("openrlhf 三月显存方面的改进", RLHF, {1285}),
    ("relay memory-related improvements this month", RELAY, {802}),
    ("relay 本月的修复或改进", RELAY, {801, 802, 804, 805, 806, 808, 810, 811, 812}),
]


@pytest.mark.parametrize(("question", "repo", "expected"), IMPROVEMENTS)
def test_improvements_of_a_subject_are_any_change_to_it(
    shapes_db: Database, question: str, repo: str, expected: set[int]
) -> None:
    answer = ask(shapes_db, repo, question)
    assert set(answer.cited) <= expected and answer.count == len(expected)  # a list shows eight at most


# A risk's line: where it shows, in the answer's punctuation, never what the sentence already says -------


@pytest.mark.parametrize(
    ("question", "repo", "language"),
    [
        ("trl 本月有哪些中风险？", TRL, "zh"),
        ("medium severity risks in trl this month", TRL, "en"),
        ("openrlhf 本月的中等风险", RLHF, "zh"),
    ],
)
def test_a_risk_line_gives_its_evidence_once_in_the_answers_punctuation(
    shapes_db: Database, question: str, repo: str, language: str
) -> None:
    answer = ask(shapes_db, repo, question)
    assert answer.query.severity == "medium", answer.query
    lines = [line for line in answer.reply.plain_text().splitlines() if line.startswith("• [")]
    assert lines, answer.reply.plain_text()
    for line in lines:
        assert not line.endswith(")" if language == "zh" else "）"), line
        for path in {word.strip("()（）,，:：") for word in line.split() if "/" in word}:
            assert line.count(path) == 1, line


# A question about one aspect of a PR gets its yes or no before the card ---------------------------------


@pytest.mark.parametrize(
    ("question", "pr", "key"),
    [
        ("trl #3455 是破坏性变更吗", 3455, "qa.pr.aspect.breaking.yes"),
        ("is trl PR 3455 a breaking change?", 3455, "qa.pr.aspect.breaking.yes"),
        ("trl 3422 这个 PR 有没有 breaking", 3422, "qa.pr.aspect.breaking.no"),
        ("does trl #3455 have tests?", 3455, None),
        ("trl #3422 有什么风险", 3422, None),
        ("any risks in trl PR 3455?", 3455, None),
    ],
)
def test_a_question_about_one_aspect_of_a_pr_is_answered_before_its_card(
    shapes_db: Database, question: str, pr: int, key: str | None
) -> None:
    answer = ask(shapes_db, TRL, question)
    assert answer.query.intent == "pr" and answer.query.pr_number == pr, answer.query
    language = answer.query.language
    lines = answer.reply.plain_text().splitlines()
    direct = lines[2]  # after the PR's heading and its meta line
    assert direct.startswith(f"#{pr}") or f"#{pr}" in direct, lines[:4]
    if key is not None:
        assert direct == say(key, language, pr=pr)
    assert direct not in lines[3:]


@pytest.mark.parametrize(
    "question", ["trl 六月有哪些破坏性变更", "breaking changes in trl in June", "trl 六月哪些改动没有测试"]
)
def test_a_filter_of_the_windows_prs_is_headed_by_the_filter_not_as_a_search(
    shapes_db: Database, question: str
) -> None:
    answer = ask(shapes_db, TRL, question)
    text = answer.reply.plain_text()
    assert answer.cited, text
    matching = say("qa.topic.title", answer.query.language, filters="").strip("：: ")
    assert matching not in text, text
