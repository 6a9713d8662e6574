"""Feedback and corrections in words (any platform, and `prhub chat`) on both databases: 👍/👎 on the
conversation's last answer with its reason, corrections of a PR stored by who and when and applied
where the analysis is shown, marked as corrected, and the next weekly report rebuilt with them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.types import Risk
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import say
from chatbot.models import Message
from chatbot.reports.weekly import build_weekly_report
from chatbot.store.feedback import CorrectionRow
from chatbot.store.ledger import RiskEntryRow
from chatbot.team.corrections import parse_correction
from chatbot.team.feedback import AnswerRef, feedback_list, parse_feedback_command, record_reason, record_vote
from chatbot.team.ledger import entry_views, maintain_ledger, repo_is
from chatbot.team.reading import Reader
from chatbot.weeks import Week
from tests.reports.fixtures import REPO, SHANGHAI, WEEK_START, analysis, seed

NOW = WEEK_START + timedelta(days=8)


@pytest.fixture
def bot(db):
    seed(db)
    return ChatBot(db, BotConfig(SHANGHAI), FixedClock(NOW), HeuristicAnalyzer().analyze)


def ask(bot: ChatBot, text: str, user: str = "li", thread: str | None = "t1") -> str:
    return bot.handle(Message(text, user=user, channel="C1", thread=thread)).reply.plain_text()


@pytest.mark.parametrize(
    ("text", "kind", "value", "number"),
    [
        ("#6512 重要性应该更高", "importance", "higher", 6512),
        ("#6512 的重要性应该更低", "importance", "lower", 6512),
        ("verl#6512 重要性偏低了", "importance", "higher", 6512),
        ("6512 重要性太高了", "importance", "lower", 6512),
        ("importance of #123 should be higher", "importance", "higher", 123),
        ("#123 should be less important", "importance", "lower", 123),
        ("#123 is underrated", "importance", "higher", 123),
        ("PR 42 is overrated", "importance", "lower", 42),
        ("#6512 这不是破坏性变更", "breaking", "no", 6512),
        ("这不是破坏性变更", "breaking", "no", None),
        ("#123 is not breaking", "breaking", "no", 123),
        ("#123 isn't a breaking change", "breaking", "no", 123),
        ("#123 is breaking", "breaking", "yes", 123),
        ("#6512 是破坏性变更", "breaking", "yes", 6512),
        ("#6512 漏了风险：显存会翻倍", "risk", "missed", 6512),
        ("#123 missed a risk: the cache is never freed", "risk", "missed", 123),
        ("漏掉风险：并发写同一个文件", "risk", "missed", None),
    ],
)
def test_corrections_in_both_languages(text, kind, value, number):
    command = parse_correction(text)
    assert command is not None
    assert (command.kind, command.value, command.number) == (kind, value, number)


@pytest.mark.parametrize(
    "text",
    [
        "#6512 是破坏性变更吗？",
        "is #123 breaking?",
        "why is #123 ranked so high?",
        "哪些 PR 比 #6512 更重要",
        "#6512 的重要性是不是太低了",
        "#6512 importance seems too high, why",
        "#6512 漏了风险吗？",
        "#6512 改了什么",
        "本周 verl 有哪些破坏性变更？",
        "what are the most important PRs this week",
        # a filter, not a statement about a PR: no copula before the word
        "trl 六月的破坏性变更",
        "axolotl 三月的不兼容改动",
        "只看破坏性变更",
        "only the breaking ones",
        "breaking changes about NPU in trl in June",
        "trl 六月下游用户会受影响的不兼容改动",
        "#6512 的破坏性变更",
    ],
)
def test_questions_about_importance_breaking_or_risks_are_not_corrections(text):
    assert parse_correction(text) is None


@pytest.mark.parametrize(
    ("text", "vote", "reason"),
    [
        ("👍", "up", None),
        ("赞", "up", None),
        ("feedback: great answer", "up", None),
        ("👎", "down", None),
        ("👎 漏了 #6512", "down", "missing_pr"),
        ("踩 时间范围不对", "down", "wrong_window"),
        ("反馈：语言不对", "down", "wrong_language"),
        ("feedback: wrong window", "down", "wrong_window"),
        ("thumbs down, irrelevant PRs", "down", "wrong_prs"),
        ("feedback: the summary is vague", "down", "other"),
    ],
)
def test_feedback_in_words(text, vote, reason):
    command = parse_feedback_command(text)
    assert command is not None and (command.vote, command.reason) == (vote, reason)


@pytest.mark.parametrize("text", ["赞助商是谁", "反馈", "有用的 PR 有哪些", "helpfulness of #3"])
def test_words_that_merely_start_like_feedback_are_not_feedback(text):
    assert parse_feedback_command(text) is None


def test_a_thumbs_down_in_words_rates_the_conversations_last_answer_with_its_reason(bot, db):
    assert ask(bot, "👎", thread=None) == say("feedback.nothing_to_rate", "en")
    assert ask(bot, "反馈：不对", thread=None) == say("feedback.nothing_to_rate", "zh")
    ask(bot, "widgets 上周必读的 PR")
    reply = ask(bot, "👎 漏了 #106")
    assert reply == say("feedback.thanks.reason", "zh", reason=say("feedback.reason.missing_pr", "zh"))
    [view] = feedback_list(db, repo=REPO)
    assert (view.vote, view.reason, view.reason_text, view.user_id) == (
        "down",
        "missing_pr",
        "漏了 #106",
        "li",
    )
    assert view.question == "widgets 上周必读的 PR" and 101 in view.cited
    assert ask(bot, "👍") == say("feedback.thanks.up", "zh")  # a change of mind: the same row, no reason
    [view] = feedback_list(db)
    assert (view.vote, view.reason) == ("up", None)
    assert feedback_list(db, vote="down") == []


def test_a_vote_is_recorded_once_per_person_and_message_and_only_its_voter_gives_its_reason(db):
    seed(db)
    ref = AnswerRef("what changed?", REPO, (101, 102), "en")
    li, wang = Reader("slack", "T1", "U1", "li"), Reader("slack", "T1", "U2", "wang")
    first = record_vote(db, li, "C1", "1.0001", "down", ref, NOW)
    again = record_vote(db, li, "C1", "1.0001", "down", ref, NOW + timedelta(seconds=1))
    assert first.id == again.id and len(feedback_list(db)) == 1
    assert record_reason(db, first.id, wang, "wrong_prs", "", NOW) is None
    reasoned = record_reason(db, first.id, li, "wrong_window", "asked for May", NOW)
    assert reasoned is not None and (reasoned.reason, reasoned.reason_text) == (
        "wrong_window",
        "asked for May",
    )
    record_vote(db, wang, "C1", "1.0001", "up", ref, NOW)
    assert sorted(v.vote for v in feedback_list(db)) == ["down", "up"]


def _order(db, bot: ChatBot) -> list[int]:
    week = Week(2026, 25, SHANGHAI)
    built = build_weekly_report(
        db, REPO, week, clock=bot.clock, language="zh", fallback=HeuristicAnalyzer().analyze
    )
    return [pr.number for pr in built.report.key_prs]


def test_an_importance_correction_moves_the_pr_in_the_next_report_marked_corrected(bot, db):
    before = _order(db, bot)
    assert before.index(106) > before.index(102) > before.index(101)
    reply = ask(bot, "#106 重要性应该更高")
    assert reply == say("correction.done.importance.higher", "zh", number=106)
    assert ask(bot, "#106 重要性应该更高") == say("correction.repeat", "zh", number=106)
    after = _order(db, bot)
    assert after.index(106) < after.index(102)
    card = ask(bot, "widgets 上周周报")
    assert f"8.0{say('correction.mark', 'zh')}" in card
    listed = ask(bot, "what did widgets merge last week?", thread="t2")
    assert f"importance 8.0{say('correction.mark', 'en')}" in listed
    ask(bot, "importance of #101 should be lower", user="wang")
    ask(bot, "#101 is overrated", user="zhao")
    assert _order(db, bot).index(101) > _order(db, bot).index(102)
    with db.session() as session:
        rows = session.query(CorrectionRow).order_by(CorrectionRow.id).all()
        assert [(r.pr_number, r.user_id, r.value) for r in rows] == [
            (106, "li", "higher"),
            (101, "wang", "lower"),
            (101, "zhao", "lower"),
        ]


def test_not_breaking_removes_the_breaking_flag_from_answers_and_reports(bot, db):
    assert "· BREAKING" in ask(bot, "widgets #103")
    assert ask(bot, "#103 不是破坏性变更") == say("correction.done.breaking.no", "zh", number=103)
    card = ask(bot, "widgets #103")
    assert "· BREAKING" not in card and f"refactor{say('correction.mark', 'en')}" in card
    breaking = bot.handle(Message("widgets 上周有哪些破坏性变更？", user="li"))
    assert 103 not in breaking.cited


def _ledger(db, number: int) -> list[tuple[str, str]]:
    with db.session() as session:
        return [
            (v.category, v.state)
            for v in entry_views(session, repo_is(REPO), RiskEntryRow.pr_number == number)
        ]


def test_corrections_reach_the_risk_ledger(bot, db):
    renamed = Risk("breaking-change", "high", "config keys renamed", "conf/trainer.yaml: -lr_warmup")
    breaking = analysis(("trainer",), 6.0, 3.0, "refactor", "worth-reading", (renamed,), breaking=True)
    seed(db, [(130, "[BREAKING][trainer] refactor: rename keys", WEEK_START + timedelta(days=3), breaking)])
    maintain_ledger(db, NOW, REPO)
    assert _ledger(db, 130) == [("breaking-change", "open")]
    ask(bot, "#130 不是破坏性变更")
    assert _ledger(db, 130) == [("breaking-change", "withdrawn")]  # no longer an open risk
    ask(bot, "#102 漏了风险：缓存从不释放")
    assert ("other", "open") in _ledger(db, 102)
    maintain_ledger(db, NOW + timedelta(hours=1), REPO)  # later maintenance keeps the corrected view
    assert _ledger(db, 130) == [("breaking-change", "withdrawn")]


def test_a_correction_without_a_pr_is_of_the_pr_under_discussion(bot):
    ask(bot, "what did widgets #102 change?")
    assert ask(bot, "it missed a risk: the cache is never freed") == say(
        "correction.done.risk", "en", number=102, text="the cache is never freed"
    )
    card = ask(bot, "widgets #102 讲了什么", thread="t2")
    assert f"the cache is never freed{say('correction.mark', 'zh')}" in card
    assert ask(bot, "这不是破坏性变更", thread="t3") == say("correction.need_pr", "zh")


def test_a_correction_of_a_pr_not_in_the_index_is_refused(bot):
    assert ask(bot, "#9999 重要性应该更高") == say("qa.pr.unknown", "zh", repo=REPO, number=9999)


def test_only_a_correction_of_the_weeks_prs_rebuilds_its_report(bot, db):
    week = Week(2026, 25, SHANGHAI)

    def built():  # type: ignore[no-untyped-def]
        return build_weekly_report(
            db, REPO, week, clock=bot.clock, language="zh", fallback=HeuristicAnalyzer().analyze
        )

    first = built()
    ask(bot, "#108 重要性应该更高")  # merged the week after
    assert built().reused
    ask(bot, "#91 is not breaking")  # the week before: its trends feed this report
    again = built()
    assert not again.reused and again.report.version == first.report.version + 1
