"""The ledger where people meet it: the weekly report's "Risk follow-up" section in every format, and
questions and admins' actions in chat (the console bot; Slack and Feishu run the same core)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.types import Risk
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import say
from chatbot.models import Message
from chatbot.reports.cards import report_card, report_document
from chatbot.reports.html import render_html
from chatbot.reports.markdown import render_markdown
from chatbot.reports.weekly import build_weekly_report
from chatbot.team.ledger import maintain_ledger
from chatbot.team.views import FOLLOWED_SHOWN
from chatbot.weeks import Week
from tests.team.ledger_fixtures import (
    FOLLOW_PATCH,
    MEMORY,
    OTHER_FUNCTION_PATCH,
    REPO,
    ROLLOUT_PATCH,
    W25,
    analysis,
    pull,
    store,
)

UTC_ZONE = ZoneInfo("UTC")
W26 = Week.containing(W25 + timedelta(days=7), UTC_ZONE)
CONFIG = Risk("config", "medium", "the default max_turns doubles", "conf/ppo.yaml: rollout.max_turns: 5 → 10")
YAML = "@@ -1,2 +1,2 @@ rollout:\n-  max_turns: 5\n+  max_turns: 10\n"
NOW = W25 + timedelta(days=15, hours=2)  # Tuesday of W27


@pytest.fixture
def ledger_db(db):
    """#10 raises a memory risk and #11 a config risk in W25; in W26 #20 changes #10's function and #30
    says it fixes #10; nothing follows #11 up."""
    files = {"pkg/rollout.py": ROLLOUT_PATCH, "conf/ppo.yaml": YAML}
    store(db, pull(10, W25 + timedelta(hours=5), files), analysis(MEMORY), NOW)
    store(db, pull(11, W25 + timedelta(days=1), {"conf/ppo.yaml": YAML}), analysis(CONFIG), NOW)
    store(db, pull(20, W25 + timedelta(days=8), {"pkg/rollout.py": FOLLOW_PATCH}), analysis(), NOW)
    store(
        db,
        pull(30, W25 + timedelta(days=9), {"pkg/x.py": OTHER_FUNCTION_PATCH}, body="Fixes #10"),
        analysis(),
        NOW,
    )
    return db


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_report_says_what_was_resolved_and_what_is_still_open_oldest_first(ledger_db, language):
    built = build_weekly_report(
        ledger_db, REPO, W26, clock=FixedClock(NOW), language=language, fallback=HeuristicAnalyzer().analyze
    )
    section = built.report.risk_follow_up
    assert section is not None
    assert [line.pr for line in section.resolved] == [10]
    assert say("ledger.link.fixes", language, number=30, pr=10) in section.resolved[0].text
    assert [line.pr for line in section.still_open] == [11]
    assert say("ledger.age", language, n=13) in section.still_open[0].text  # W25+1d to W26's end
    for reply in (report_card(built.report), report_document(built.report)):
        text = reply.plain_text()
        assert say("report.section.risk_follow_up", language) in text
        assert section.still_open[0].key in text
    assert say("report.section.risk_follow_up", language) in render_markdown(report_document(built.report))
    assert section.resolved[0].key in render_html(report_document(built.report), language)


def test_a_past_weeks_report_names_no_follow_up_that_came_later(ledger_db):
    built = build_weekly_report(
        ledger_db, REPO, Week.containing(W25, UTC_ZONE), clock=FixedClock(NOW), language="en",
        fallback=HeuristicAnalyzer().analyze,
    )  # fmt: skip
    section = built.report.risk_follow_up
    text = report_document(built.report).plain_text()
    assert section is None or not (section.resolved or section.followed)
    assert "#20" not in text and "#30" not in text  # both merged in W26


def test_an_entrys_line_names_three_follow_ups_and_counts_the_others(ledger_db):
    for number in (21, 22, 23):
        store(ledger_db, pull(number, W25 + timedelta(days=8, hours=number), {"pkg/rollout.py": FOLLOW_PATCH}),
              analysis(), NOW)  # fmt: skip
    built = build_weekly_report(
        ledger_db, REPO, W26, clock=FixedClock(NOW), language="en", fallback=HeuristicAnalyzer().analyze
    )
    section = built.report.risk_follow_up
    assert section is not None
    [line] = [line for line in (*section.resolved, *section.followed) if line.pr == 10]  # listed once
    assert all(f"#{n} " in line.text for n in (20, 21, 22)) and "#23" not in line.text
    assert say("report.and_more", "en", n=2) in line.text  # #23 and #30


def test_a_decision_taken_later_rebuilds_the_report_of_the_current_week(ledger_db):
    week = Week.containing(NOW, UTC_ZONE)
    clock = FixedClock(NOW)
    first = build_weekly_report(
        ledger_db, REPO, week, clock=clock, language="en", fallback=HeuristicAnalyzer().analyze
    )
    bot = ChatBot(ledger_db, BotConfig(UTC_ZONE), clock, HeuristicAnalyzer().analyze)
    bot.handle(Message("accept #11 the new default is intended", user="li"))
    again = build_weekly_report(
        ledger_db, REPO, week, clock=clock, language="en", fallback=HeuristicAnalyzer().analyze
    )
    assert not again.reused and again.report.version == first.report.version + 1


def _bot(db, admins=frozenset()):
    return ChatBot(db, BotConfig(UTC_ZONE, admins=admins), FixedClock(NOW), HeuristicAnalyzer().analyze)


@pytest.mark.parametrize(
    "question",
    [
        "engine 还有哪些未解决的风险？",
        "acme/engine 有哪些风险还没处理",
        "open risks in engine",
        "what risks are still unresolved in acme/engine?",
    ],
)
def test_asking_for_open_risks_lists_the_unresolved_ones(ledger_db, question):
    answer = _bot(ledger_db).handle(Message(question))
    text = answer.reply.plain_text()
    assert "#11" in text and "#10" not in text
    assert answer.cited == (11,)


@pytest.mark.parametrize(
    "question",
    ["engine #10 的风险处理了吗？", "was the risk of acme/engine#10 followed up?", "#10 的风险有人跟进吗"],
)
def test_asking_about_a_pr_says_what_became_of_its_risks_and_why(ledger_db, question):
    text = _bot(ledger_db).handle(Message(question)).reply.plain_text()
    assert say("ledger.state.resolved", "zh" if "的" in question else "en") in text
    assert "#30" in text and "#20" in text


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("engine 2026-W25 的风险有人跟进吗？", "zh"),
        ("were the risks of engine in 2026-W25 followed up?", "en"),
    ],
)
def test_asking_about_a_weeks_risks_summarises_their_states_open_first(ledger_db, question, language):
    text = _bot(ledger_db).handle(Message(question)).reply.plain_text()
    summary = say("ledger.window.summary", language, total=2, resolved=1, followed=0, accepted=0, open=1)
    assert summary in text
    assert text.index("#11") < text.index("#10")


def test_asking_for_risks_without_a_follow_up_word_is_still_the_weeks_risks(ledger_db):
    answer = _bot(ledger_db).handle(Message("engine 2026-W25 有哪些风险？"))
    assert answer.query.intent == "risks"
    assert say("ledger.window.summary", "zh", total=2, resolved=1, followed=0, accepted=0, open=1) not in (
        answer.reply.plain_text()
    )


def test_only_admins_resolve_in_chat_and_a_reason_is_required(ledger_db):
    maintain_ledger(ledger_db, NOW)
    bot = _bot(ledger_db, admins=frozenset({"U_ADMIN"}))
    refused = bot.handle(Message("resolve #11 done in the docs", user="U_OTHER")).reply.plain_text()
    assert refused == say("ledger.not_admin", "en")
    no_reason = bot.handle(Message("不处理 #11", user="U_ADMIN")).reply.plain_text()
    assert no_reason == say("ledger.needs_reason", "zh")
    done = bot.handle(Message("不处理 #11 新默认值是有意为之", user="U_ADMIN")).reply.plain_text()
    assert done.startswith("已标记 R-")
    still = bot.handle(Message("engine 还有哪些未解决的风险？")).reply.plain_text()
    assert still == say("ledger.open.none", "zh", repo=REPO)


def test_a_wrong_link_is_undone_from_chat(ledger_db):
    maintain_ledger(ledger_db, NOW)
    bot = _bot(ledger_db)
    text = bot.handle(Message("unlink #10 #30 it fixed something else", user="li")).reply.plain_text()
    assert "#30" in text
    answer = bot.handle(Message("engine #10 的风险处理了吗？")).reply.plain_text()
    assert say("ledger.state.followed-up", "zh") in answer


def test_an_unknown_risk_id_gets_a_clear_answer(ledger_db):
    text = _bot(ledger_db).handle(Message("resolve R-zzzzzz fixed", user="li")).reply.plain_text()
    assert text == say("ledger.unknown", "en", ref="R-zzzzzz")


def test_a_week_following_up_many_risks_lists_the_most_severe_and_counts_the_rest(db):
    """Eight earlier risks, two of them high, all followed up by one PR in W26: the section lists the
    two high ones first, at most FOLLOWED_SHOWN in all, and says how many more there are."""
    severities = ["low", "high", "low", "medium", "low", "high", "low", "low"]
    follow = {}
    for n, severity in enumerate(severities):
        path = f"pkg/m{n}.py"
        raise_patch = (
            f"@@ -40,6 +40,7 @@ class M{n}:\n     def step_{n}(self, shards):\n"
            '-        out = [s.cpu() for s in shards]\n+        out = [s.to("cuda") for s in shards]\n'
        )
        follow[path] = (
            f"@@ -41,7 +41,7 @@ def step_{n}(self, shards):\n"
            '-        out = [s.to("cuda") for s in shards]\n'
            '+        out = [s.to("cuda", non_blocking=True) for s in shards]\n'
        )
        risk = Risk("memory", severity, f"buffers of step {n} gathered on the GPU", path)  # type: ignore[arg-type]
        store(db, pull(40 + n, W25 + timedelta(hours=n + 1), {path: raise_patch}), analysis(risk), NOW)
    store(db, pull(60, W25 + timedelta(days=8), follow), analysis(), NOW)
    built = build_weekly_report(
        db, REPO, W26, clock=FixedClock(NOW), language="en", fallback=HeuristicAnalyzer().analyze
    )
    section = built.report.risk_follow_up
    assert section is not None and section.followed_total == len(severities)
    assert len(section.followed) == FOLLOWED_SHOWN
    assert [line.pr for line in section.followed[:2]] == [41, 45]  # the high ones
    text = report_document(built.report).plain_text()
    assert say("ledger.followed", "en", n=len(severities)) in text
    assert say("ledger.more", "en", n=len(severities) - FOLLOWED_SHOWN, repo=REPO) in text


@pytest.mark.parametrize("language", ["zh", "en"])
def test_earlier_risks_in_a_function_one_pr_changes_again_are_one_line(db, language):
    """Four earlier PRs left risks in `step` and #60 changes `step` again: the section says so in one
    line naming them (the most severe's words), still counts four follow-ups, and lists a follow-up of
    another function on its own line."""
    severities = ["low", "medium", "low", "low"]
    for n, severity in enumerate(severities):
        patch = (
            "@@ -40,6 +40,7 @@ class M:\n     def step(self, shards):\n"
            f'-        out = [s.cpu() for s in shards]\n+        out = [s.to("cuda:{n}") for s in shards]\n'
        )
        risk = Risk("memory", severity, f"buffers of round {n} gathered on the GPU", "pkg/m.py")  # type: ignore[arg-type]
        store(db, pull(40 + n, W25 + timedelta(hours=n + 1), {"pkg/m.py": patch}), analysis(risk), NOW)
    store(db, pull(50, W25 + timedelta(hours=9), {"pkg/rollout.py": ROLLOUT_PATCH}), analysis(MEMORY), NOW)
    follow = (
        "@@ -41,7 +41,7 @@ def step(self, shards):\n"
        '-        out = [s.to("cuda:0") for s in shards]\n+        out = [s.to("cuda", non_blocking=True) for s in shards]\n'
    )
    files = {"pkg/m.py": follow, "pkg/rollout.py": FOLLOW_PATCH}
    store(db, pull(60, W25 + timedelta(days=8), files), analysis(), NOW)
    built = build_weekly_report(
        db, REPO, W26, clock=FixedClock(NOW), language=language, fallback=HeuristicAnalyzer().analyze
    )
    section = built.report.risk_follow_up
    assert section is not None and section.followed_total == len(severities) + 1
    grouped = [line for line in section.followed if line.entries > 1]
    assert len(grouped) == 1 and grouped[0].entries == len(severities)
    assert grouped[0].pr == 60 and set(grouped[0].prs) >= {60, 41}
    assert "round 1" in grouped[0].text  # the medium one speaks for the group
    assert [line.pr for line in section.followed if line.entries == 1] == [50]
    text = report_document(built.report).plain_text()
    assert say("ledger.more", language, n=1, repo=REPO) not in text  # every follow-up is on a line
