"""List answers ranked and counted by the database (no words, no modules), or from its score columns (words
and a change type): the same PRs, order and counts as ranking every analysis would give, with each PR's
current analysis (the newest of its current content), and PRs not analysed yet analysed on the spot.
Both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.types import Analysis
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import say
from chatbot.models import Message, PRFile
from chatbot.qa.query import LIST_MAX
from chatbot.qa.retrieve import LIST_LIMIT, gather
from chatbot.store.analyses import save_analysis
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow
from tests.qa.other_repos import SHANGHAI
from tests.store.test_index import make_pr

NOW = datetime(2026, 6, 24, 2, 0, tzinfo=UTC)  # Wednesday 10:00 in Shanghai


def scored(importance: float, verdict: str = "skim", change_type: str = "feat") -> Analysis:
    return Analysis(
        title_zh="",
        summary="",
        modules=(),
        change_type=change_type,  # type: ignore[arg-type]
        breaking=False,
        importance=importance,
        insight=1.0,
        verdict=verdict,  # type: ignore[arg-type]
        verdict_reason="",
    )


def analyse(session, row: PullRequestRow, analysis: Analysis, when: datetime) -> None:
    save_analysis(session, row, analysis, analyzer="heuristic", version="1", language="zh", now=when)


@pytest.fixture
def bot(db) -> ChatBot:
    """acme/widgets: twelve PRs merged this week (#1..#12, importance 1..12 over ten), whose analyses say
    otherwise for three: #3 was analysed again (the newer, must-read 9.9, is current), #4's content
    changed since its 9.8 (its current analysis is 0.5), #5 is a worth-reading fix."""
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo("acme/widgets", NOW)
        for number in range(1, 13):
            index.upsert(
                repo,
                make_pr(number, title=f"feat: change {number}", merged=NOW - timedelta(hours=number)),
                NOW,
            )
        session.flush()
        rows = {row.number: row for row in session.query(PullRequestRow).filter_by(repo_id=repo.id)}
        for number, row in rows.items():
            analyse(session, row, scored(number / 1.25), NOW - timedelta(hours=1))
        analyse(session, rows[3], scored(9.9, "must-read"), NOW)
        analyse(session, rows[4], scored(9.8, "must-read"), NOW)
        rows[4].content_hash = "changed since"
        analyse(session, rows[4], scored(0.5), NOW)
        analyse(session, rows[5], scored(1.0, "worth-reading", "fix"), NOW)
    return ChatBot(
        db, BotConfig(SHANGHAI), FixedClock(NOW), HeuristicAnalyzer().analyze, channel_repo=lambda m: None
    )


def ask(bot: ChatBot, text: str):
    return bot.handle(Message(text))


def text_of(answer) -> str:
    return "\n".join(str(block) for block in answer.reply.blocks)


@pytest.mark.parametrize("question", ["本周 widgets 最重要的 3 个 PR", "top 3 PRs in acme/widgets this week"])
def test_a_count_limit_lists_the_most_important_by_current_analyses(bot, question):
    answer = ask(bot, question)
    assert answer.cited[:3] == (3, 12, 11)  # #3's newer 9.9; #4's stale 9.8 is not its analysis


def test_a_list_names_how_many_more_there_are_beyond_the_shown_ones(bot):
    answer = ask(bot, "本周 widgets 有哪些改动？")
    assert answer.cited == (3, 12, 11, 10, 9, 8, 7, 6)
    assert say("qa.more", "zh", n=4) in text_of(answer)
    assert say("qa.count", "zh", n=12) in text_of(answer)


def test_a_pr_not_analysed_yet_is_analysed_and_counted(bot):
    with bot.db.session() as session:
        index = PRIndex(session)
        index.upsert(
            index.repo("acme/widgets"),
            make_pr(13, title="feat: brand new", merged=NOW - timedelta(minutes=30)),
            NOW,
        )
    answer = ask(bot, "本周 widgets 有哪些改动？")
    assert say("qa.count", "zh", n=13) in text_of(answer)
    assert say("qa.more", "zh", n=5) in text_of(answer)


def test_a_reading_list_puts_must_read_then_worth_reading_first(bot):
    answer = ask(bot, "which widgets PRs deserve a close read this week?")
    assert answer.cited == (3, 5)


def test_a_change_type_filter_counts_only_the_matching_prs(bot):
    answer = ask(bot, "本周 widgets 有哪些 bug 修复？")
    assert answer.cited == (5,)


@pytest.fixture
def worded_bot(db) -> ChatBot:
    """acme/widgets: twelve PRs merged this week; the even ones name the tokenizer in their titles, the
    odd ones but #11 only touch `widgets/tokenizer.py`; importance rises with the number, except that
    #5 is a worth-reading fix and #7 was analysed again (the newer, 0.2, is current)."""
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo("acme/widgets", NOW)
        for number in range(1, 13):
            title = f"feat: tokenizer change {number}" if number % 2 == 0 else f"feat: change {number}"
            path = "widgets/other.py" if number == 11 else "widgets/tokenizer.py"
            files = (PRFile(path, "modified", number, 1, "+a"),)
            pr = make_pr(number, title=title, merged=NOW - timedelta(hours=number), files=files)
            index.upsert(repo, pr, NOW)
        session.flush()
        rows = {row.number: row for row in session.query(PullRequestRow).filter_by(repo_id=repo.id)}
        for number, row in rows.items():
            analyse(session, row, scored(number / 1.25), NOW - timedelta(hours=1))
        analyse(session, rows[5], scored(1.0, "worth-reading", "fix"), NOW)
        analyse(session, rows[7], scored(0.2), NOW)
    return ChatBot(
        db, BotConfig(SHANGHAI), FixedClock(NOW), HeuristicAnalyzer().analyze, channel_repo=lambda m: None
    )


@pytest.mark.parametrize(
    "question",
    [
        "本周 widgets 里 tokenizer 相关的改动",
        "what tokenizer changes did widgets merge this week?",
        "本周 widgets 最重要的 3 个 tokenizer 相关的 PR",
        "top 2 tokenizer PRs in widgets this week",
        "本周 widgets 里 tokenizer 相关的 bug 修复",
        "search widgets for tokenizer",
    ],
)
def test_a_words_list_shows_and_counts_what_ranking_every_matching_record_gives(worded_bot, question):
    """A list of the PRs matching the question's words, ranked and counted from the score columns with
    only the shown PRs read (`gather(shown_only=True)`, the bot's answers): the same PRs in the same
    order, the same count and current analyses as ranking a record of every matching PR."""
    bot = worded_bot
    query = bot.parse(Message(question))
    with bot.db.session() as session:
        every = gather(session, query, query.window, bot.fallback, until=NOW)
        shown = gather(session, query, query.window, bot.fallback, until=NOW, shown_only=True)
    assert shown.verdicts is not None and every.verdicts is None
    assert shown.count == every.count > 0
    limit = min(query.limit or LIST_LIMIT, LIST_MAX)
    assert [r.number for r in shown.ranked(shown.records)] == [r.number for r in every.ranked(every.records)][
        :limit
    ]
    assert {r.number: r.analysis for r in shown.records} == {
        r.number: r.analysis for r in every.records if r.number in {s.number for s in shown.records}
    }
    assert shown.reading_count() == every.reading_count()


def test_a_words_list_ranks_titles_naming_the_word_first_then_by_match(worded_bot):
    answer = ask(worded_bot, "本周 widgets 里 tokenizer 相关的改动")
    assert answer.cited[:6] == (12, 10, 8, 6, 4, 2)
    assert say("qa.count", "zh", n=11) in text_of(answer)
