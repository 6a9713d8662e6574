"""Questions about people rather than PRs: who contributed the most in a window (answered as the people
ranked by merged PRs, not the window's statistics), first-time contributors (authors whose first merged
PR in the repo falls in the window), and how large an effect was ("提升了多少": a list of the PRs, whose
key points carry their numbers, not a count). Several phrasings in both languages, over the repos of
tests/qa/other_repos.py (clock: Wednesday 2026-06-24) on SQLite and PostgreSQL."""

from __future__ import annotations

import itertools

import pytest

from chatbot.bot import ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.parse import KnownRepo, ParseContext, parse_query
from tests.qa.other_repos import FACTORY, NOW, PRS, SHANGHAI, TRL, TUNE
from tests.qa.test_any_repo import bot, other_db  # noqa: F401  (the shared fixtures)

AUTHORS = frozenset(p.author.lower() for p in PRS)
THREE_REPOS = ParseContext(
    NOW, SHANGHAI, (KnownRepo(TRL), KnownRepo(FACTORY), KnownRepo(TUNE)), authors=AUTHORS
)


def ask(bot: ChatBot, question: str) -> Answer:  # noqa: F811
    return bot.handle(Message(question))


def people(answer: Answer) -> list[str]:
    """The @logins an answer lists, in order."""
    return [
        line.split("@", 1)[1].split(" ", 1)[0]
        for line in answer.reply.plain_text().splitlines()
        if "• @" in line
    ]


@pytest.mark.parametrize(
    "question",
    [
        "trl 上周谁贡献最多",
        "上周 trl 谁合并的 PR 最多？",
        "who contributed the most to trl last week?",
        "top contributors of trl last week",
        "trl 上周最活跃的贡献者是谁",
        "which trl contributors were most active last week",
    ],
)
def test_who_contributed_most_ranks_people_by_merged_prs(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert answer.query.intent != "stats" and not answer.query.terms, answer.query
    ranked = people(answer)
    # last week (06-15..06-21): qgallouedec merged #3452 and #3455, the others one PR each
    assert ranked[0] == "qgallouedec", answer.reply.plain_text()
    assert set(ranked) == {"qgallouedec", "ji-huazhong", "kashif", "edbeeching"}, answer.reply.plain_text()


@pytest.mark.parametrize(
    ("question", "subject"),
    [("谁改 GRPO 最多", "grpo"), ("who has changed the PEFT code the most?", "peft")],
)
def test_who_changed_a_subject_most_keeps_the_subject(question: str, subject: str) -> None:
    query = parse_query(question, ParseContext(NOW, SHANGHAI, (KnownRepo(TRL),), authors=AUTHORS))
    assert query.maintainers
    assert subject in {t.lower() for t in (*query.terms, *query.topics, *query.understood)}, query


@pytest.mark.parametrize(
    ("question", "newcomers"),
    [
        ("trl 上周有新人第一次提交 PR 吗", {"ji-huazhong"}),
        ("any first-time contributors in trl last week?", {"ji-huazhong"}),
        ("trl 上周的新贡献者", {"ji-huazhong"}),
        ("torchtune 本周有没有新面孔", {"felipemello1"}),
        ("new contributors to torchtune this week?", {"felipemello1"}),
        ("llamafactory 6 月 8 日到 14 日首次贡献的人", {"contrib-a", "contrib-b"}),
    ],
)
def test_first_time_contributors_are_authors_whose_first_pr_is_in_the_window(
    bot: ChatBot,  # noqa: F811
    question: str,
    newcomers: set[str],
) -> None:
    answer = ask(bot, question)
    assert answer.query.newcomers, answer.query
    assert set(people(answer)) == newcomers, answer.reply.plain_text()
    assert say("qa.people.title.new", answer.query.language) in answer.reply.plain_text()


def test_a_window_without_newcomers_says_so(bot: ChatBot) -> None:  # noqa: F811
    answer = ask(bot, "llamafactory 上周有新人吗")  # contrib-a and contrib-b first merged on 06-09 and 06-11
    assert not people(answer)
    assert "新贡献者" in answer.reply.plain_text(), answer.reply.plain_text()


@pytest.mark.parametrize(
    "question",
    [
        "trl 最近的性能优化大概提升了多少",
        "trl 最近显存优化省了多少",
        "how much memory did trl's recent optimizations save?",
        "trl 最近的 DPO 显存优化效果怎么样",
    ],
)
def test_how_large_an_effect_was_lists_the_prs_not_a_count(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert answer.query.intent != "stats", answer.query
    assert not {"提升", "多少", "how", "much", "效果"} & set(answer.query.terms), answer.query
    assert "#3433" in answer.reply.plain_text(), (
        answer.reply.plain_text()
    )  # "Reduce peak memory in DPO by computing logps in chunks"


@pytest.mark.parametrize(
    "question", ["trl 上周合并了多少个 PR", "how many PRs did trl merge last week?", "trl 上周有几个 PR"]
)
def test_counting_questions_are_still_stats(question: str) -> None:
    query = parse_query(question, THREE_REPOS)
    assert query.intent == "stats" and not query.maintainers and not query.newcomers


# In a conversation -----------------------------------------------------------------------------------

THREADS = itertools.count(1)


def conversation(bot: ChatBot, *questions: str) -> list[Answer]:  # noqa: F811
    thread = f"people-{next(THREADS)}"
    return [
        bot.handle(Message(q, platform="slack", channel="C1", workspace="T1", thread=thread))
        for q in questions
    ]


@pytest.mark.parametrize(
    ("opening", "who", "then"),
    [
        ("trl 上周有哪些改动", "谁写的最多", "那 DPO 呢"),
        ("what did trl merge last week?", "who wrote the most?", "what about DPO?"),
    ],
)
def test_who_wrote_most_after_a_list_is_about_that_lists_window_and_stays_a_people_question(
    bot: ChatBot,  # noqa: F811
    opening: str,
    who: str,
    then: str,
) -> None:
    first, people_answer, narrowed = conversation(bot, opening, who, then)
    assert people_answer.window == first.window
    assert people(people_answer)[0] == "qgallouedec", people_answer.reply.plain_text()
    # the DPO PRs of 06-15..06-21 are #3452 and #3455, both by qgallouedec
    assert narrowed.query.maintainers and people(narrowed) == ["qgallouedec"], narrowed.reply.plain_text()


def test_asking_about_tests_after_asking_for_files_shows_no_file_list(bot: ChatBot) -> None:  # noqa: F811
    files, tests = conversation(bot, "trl #3433 改了哪些文件", "它有测试吗")
    heading = say("pr.section.files", "zh")
    assert heading in files.reply.plain_text()
    assert heading not in tests.reply.plain_text() and tests.query.pr_number == 3433


@pytest.mark.parametrize(
    ("then", "flag"),
    [
        ("which of those have no tests?", "untested"),
        ("其中哪些没有测试", "untested"),
        ("其中哪些是破坏性的", "breaking"),
        ("which of them are breaking?", "breaking"),
    ],
)
def test_narrowing_the_last_answer_keeps_its_week_and_intent(bot: ChatBot, then: str, flag: str) -> None:  # noqa: F811
    first, narrowed = conversation(bot, "trl 上周有哪些风险", then)
    assert narrowed.query.intent == "risks" and getattr(narrowed.query, flag), narrowed.query
    assert narrowed.window == first.window
    # not the stored report's list: the risks of the PRs the filter keeps
    assert set(narrowed.cited) <= set(first.cited) | {3455}, (first.cited, narrowed.cited)
