"""The bundled demo repository: its data converts like real GitHub data, is dated relative to "now", seeds
idempotently through the real import/analysis/report path, and gives the sample questions good answers."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from adapters.github.rest import parse_time, pull_request_from_rest
from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.types import Analysis
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.demo import DEMO_QUESTIONS, DEMO_REPO, DemoQuestion, demo_pull_requests, seed_demo
from chatbot.demo.pulls import PULLS
from chatbot.demo.spec import patch
from chatbot.messages import say
from chatbot.models import Message, PullRequest
from chatbot.reports.weekly import build_weekly_report
from chatbot.store.db import Database
from chatbot.store.schema import AnalysisRow, PullRequestRow, WeeklyReportRow
from chatbot.weeks import Week, last_complete_week

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 6, 24, 10, 0, tzinfo=SHANGHAI)  # a Wednesday morning in 2026-W26
WEEKS_AGO = {pr.number: pr.weeks_ago for pr in PULLS}
NUMBERS = set(WEEKS_AGO)
_HUNK = re.compile(r"^@@ -(\d+),(\d+) \+(\d+),(\d+) @@")


def demo_prs(now: datetime = NOW, tz: ZoneInfo = SHANGHAI) -> list[PullRequest]:
    """The demo PRs converted the way `prhub demo` converts them (at the adapter edge)."""
    return [pull_request_from_rest(item, DEMO_REPO) for item in demo_pull_requests(now, tz)]


def seeded(db: Database, now: datetime = NOW) -> FixedClock:
    clock = FixedClock(now)
    seed_demo(db, demo_prs(now), clock=clock, tz=SHANGHAI)
    return clock


def stored_analyses(db: Database) -> list[Analysis]:
    with db.session() as session:
        return [Analysis.from_dict(fields) for fields in session.scalars(select(AnalysisRow.fields))]


# --- the data ------------------------------------------------------------------------------------------


def test_the_demo_has_sixty_merged_prs_numbered_like_a_busy_repo() -> None:
    prs = demo_prs()

    assert len(prs) == 60 and len({pr.number for pr in prs}) == 60
    assert all(1200 <= pr.number <= 1300 for pr in prs)
    assert all(pr.header.merged_at is not None and pr.repo == DEMO_REPO for pr in prs)
    assert all(pr.header.html_url == f"https://github.com/{DEMO_REPO}/pull/{pr.number}" for pr in prs)
    authors = {pr.header.author for pr in prs}
    assert 6 <= len(authors) <= 10 and "dependabot[bot]" in authors


def test_every_pr_has_files_with_patches_and_totals_that_add_up() -> None:
    for pr in demo_prs():
        assert pr.files and all(f.patch for f in pr.files), pr.number
        assert pr.additions == sum(f.additions for f in pr.files)
        assert pr.deletions == sum(f.deletions for f in pr.files)
        assert pr.changed_files == len(pr.files)


def test_every_hunk_header_counts_its_lines() -> None:
    for pr in demo_prs():
        for f in pr.files:
            hunks = re.split(r"(?m)^(?=@@ )", f.patch or "")
            for hunk in filter(None, hunks):
                header, *lines = hunk.rstrip("\n").split("\n")
                match = _HUNK.match(header)
                assert match, (pr.number, f.filename, header)
                assert int(match.group(2)) == sum(1 for x in lines if x[0] in "- "), (pr.number, f.filename)
                assert int(match.group(4)) == sum(1 for x in lines if x[0] in "+ "), (pr.number, f.filename)


def test_patch_turns_indented_text_into_a_hunk_with_counts() -> None:
    written = """
        @@ -10 +10 @@ def f():
             x = 1
        -    y = 2
        +    y = 3
        +    z = 4

    """

    assert patch(written) == "@@ -10,2 +10,3 @@ def f():\n     x = 1\n-    y = 2\n+    y = 3\n+    z = 4"


def test_titles_follow_the_convention_with_breaking_chinese_and_an_inert_channel_mention() -> None:
    titles = [pr.title for pr in PULLS]
    conventional = re.compile(r"^(?:\[BREAKING\])?\[[\w, ]+\] \w+: |^build\(deps\): bump ")

    assert all(conventional.match(t) for t in titles), [t for t in titles if not conventional.match(t)]
    assert sum(t.startswith("[BREAKING]") for t in titles) >= 3
    assert sum(bool(re.search(r"[\u4e00-\u9fff]", t)) for t in titles) >= 6
    assert any("<!channel>" in t for t in titles)
    assert any("ignore previous instructions" in pr.body for pr in PULLS)


@pytest.mark.parametrize(
    ("now", "tz"),
    [
        (datetime(2026, 6, 24, 10, 0, tzinfo=SHANGHAI), SHANGHAI),  # Wednesday morning
        (datetime(2026, 6, 22, 0, 30, tzinfo=SHANGHAI), SHANGHAI),  # Monday, half an hour into the week
        (datetime(2026, 6, 28, 23, 59, tzinfo=SHANGHAI), SHANGHAI),  # Sunday, a minute before the end
        (datetime(2026, 6, 22, 0, 0, tzinfo=SHANGHAI), SHANGHAI),  # the very first instant of a week
        (datetime(2027, 1, 4, 0, 30, tzinfo=SHANGHAI), SHANGHAI),  # the first ISO week of a year
        (datetime(2026, 3, 10, 12, 0, tzinfo=UTC), ZoneInfo("America/Los_Angeles")),  # weeks across DST
    ],
)
def test_merges_fall_in_the_three_complete_weeks_and_the_current_week_up_to_now(
    now: datetime, tz: ZoneInfo
) -> None:
    current = Week.containing(now, tz)
    seen: set[int] = set()

    for pr in demo_prs(now, tz):
        merged = pr.header.merged_at
        assert merged is not None
        weeks_ago = WEEKS_AGO[pr.number]
        expected = Week.containing(current.start - timedelta(weeks=weeks_ago) + timedelta(hours=12), tz)
        assert Week.containing(merged, tz) == expected, (pr.number, merged, expected.label)
        assert pr.header.created_at < merged <= pr.header.updated_at <= now
        assert all(r.submitted_at is None or r.submitted_at <= merged for r in pr.reviews)
        seen.add(weeks_ago)
    assert seen == {0, 1, 2, 3}


def test_the_same_now_gives_the_same_data_and_a_later_now_moves_it() -> None:
    first, again = demo_pull_requests(NOW, SHANGHAI), demo_pull_requests(NOW, SHANGHAI)
    later = demo_pull_requests(NOW + timedelta(weeks=1), SHANGHAI)

    assert first == again
    shift = {
        a["number"]: parse_time(b["merged_at"]) - parse_time(a["merged_at"])
        for a, b in zip(first, later, strict=True)
    }
    assert all(shift[n] == timedelta(weeks=1) for n in NUMBERS if WEEKS_AGO[n] > 0)


def test_a_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        demo_pull_requests(datetime(2026, 6, 24, 10, 0), SHANGHAI)


# --- seeding -------------------------------------------------------------------------------------------


def test_seeding_imports_analyses_and_builds_two_reports_then_changes_nothing(db: Database) -> None:
    clock = FixedClock(NOW)
    prs = demo_prs()

    first = seed_demo(db, prs, clock=clock, tz=SHANGHAI)
    snapshot = _snapshot(db)
    again = seed_demo(db, prs, clock=clock, tz=SHANGHAI)

    assert (first.repo, first.pull_requests, first.new, first.analyzed, first.failed) == (
        DEMO_REPO,
        60,
        60,
        60,
        0,
    )
    assert [(r.week, r.pr_count, r.reused) for r in first.reports] == [
        ("2026-W25", 18, False),
        ("2026-W24", 16, False),
    ]
    assert first.changed_anything and not again.changed_anything
    assert (again.new, again.updated, again.unchanged, again.analyzed, again.cached) == (0, 0, 60, 0, 60)
    assert all(r.reused for r in again.reports)
    assert _snapshot(db) == snapshot


def _snapshot(db: Database) -> tuple[object, ...]:
    with db.session() as session:
        return (
            session.scalar(select(func.count()).select_from(PullRequestRow)),
            session.scalar(select(func.count()).select_from(AnalysisRow)),
            tuple(
                session.execute(
                    select(WeeklyReportRow.iso_week, WeeklyReportRow.version).order_by(
                        WeeklyReportRow.iso_week
                    )
                ).all()
            ),
            tuple(
                session.execute(
                    select(PullRequestRow.number, PullRequestRow.content_hash).order_by(PullRequestRow.number)
                ).all()
            ),
        )


def test_seeding_marks_the_repo_synced_at_the_clock(db: Database) -> None:
    clock = seeded(db)
    bot = ChatBot(db, BotConfig(SHANGHAI), clock, HeuristicAnalyzer().analyze)

    text = bot.handle(Message("本周 rlflow 有哪些风险？")).reply.plain_text()

    assert say("qa.freshness", "zh", synced="2026-06-24 10:00") in text


def test_seeding_refuses_prs_of_another_repo(db: Database) -> None:
    stranger = pull_request_from_rest(demo_pull_requests(NOW, SHANGHAI)[0], "acme/other")

    with pytest.raises(ValueError, match="acme/other"):
        seed_demo(db, [stranger], clock=FixedClock(NOW), tz=SHANGHAI)


def test_seeding_in_english_writes_english_analyses_and_reports(db: Database) -> None:
    summary = seed_demo(
        db,
        demo_prs(),
        clock=FixedClock(NOW),
        tz=SHANGHAI,
        language="en",
        analyzer=HeuristicAnalyzer(language="zh"),
    )

    assert summary.reports[0].title == f"{DEMO_REPO} weekly report, 2026-W25"
    with db.session() as session:
        assert set(session.scalars(select(AnalysisRow.language))) == {"en"}
    texts = [r.text for a in stored_analyses(db) for r in a.risks]
    assert any("breaking change" in t for t in texts) and not any("破坏性变更" in t for t in texts)


def test_the_analyses_are_varied(db: Database) -> None:
    seeded(db)
    analyses = stored_analyses(db)
    verdicts = [a.verdict for a in analyses]
    categories = {r.category for a in analyses for r in a.risks}
    modules = {m for a in analyses for m in a.modules}

    assert len(analyses) == 60
    assert verdicts.count("must-read") >= 3 and verdicts.count("skim") >= 5
    assert verdicts.count("worth-reading") >= 5
    assert len(categories) >= 5, categories
    assert {"rollout", "vllm", "sglang", "megatron", "fsdp", "trainer", "reward", "ckpt", "data"} <= modules


def test_the_pr_that_asks_to_be_rated_ten_is_skimmed(db: Database) -> None:
    seeded(db)
    with db.session() as session:
        fields = session.scalar(
            select(AnalysisRow.fields).join(PullRequestRow).where(PullRequestRow.number == 1255)
        )
    analysis = Analysis.from_dict(fields)

    assert analysis.verdict == "skim" and analysis.importance < 3


def test_the_last_complete_weeks_report_has_highlights_and_risks(db: Database) -> None:
    clock = seeded(db)
    week = last_complete_week(NOW, SHANGHAI)

    built = build_weekly_report(
        db, DEMO_REPO, week, clock=clock, language="zh", fallback=HeuristicAnalyzer().analyze
    )

    report = built.report
    assert built.reused and report.pr_count == 18
    assert len(report.highlights) >= 4 and len(report.risks) >= 3
    assert {p for h in report.highlights for p in h.prs} <= set(report.prs)
    assert any(k.verdict == "must-read" for k in report.key_prs)


# --- the sample questions ----------------------------------------------------------------------------


@pytest.mark.parametrize("question", DEMO_QUESTIONS, ids=[q.intent for q in DEMO_QUESTIONS])
def test_every_sample_question_gets_an_answer_citing_demo_prs(db: Database, question: DemoQuestion) -> None:
    clock = seeded(db)
    merged = {pr.number: pr.header.merged_at for pr in demo_prs()}
    bot = ChatBot(db, BotConfig(SHANGHAI), clock, HeuristicAnalyzer().analyze)

    answer = bot.handle(Message(question.text))

    text = answer.reply.plain_text()
    assert answer.query.intent == question.intent and answer.query.repo == DEMO_REPO
    assert text.strip() and DEMO_REPO in text
    mentioned = {int(n) for n in re.findall(r"#(\d+)", text)}
    assert mentioned <= NUMBERS and set(answer.cited) <= NUMBERS
    if question.intent != "stats":  # statistics count PRs rather than name them
        assert answer.cited and set(answer.cited) <= mentioned
    window = answer.window
    if window is not None:
        assert all(window.start <= merged[n] < window.end for n in answer.cited), answer.cited


def test_on_monday_just_after_midnight_this_week_already_has_risks(db: Database) -> None:
    monday = datetime(2026, 6, 22, 0, 30, tzinfo=SHANGHAI)
    clock = seeded(db, monday)
    bot = ChatBot(db, BotConfig(SHANGHAI), clock, HeuristicAnalyzer().analyze)

    answer = bot.handle(Message("本周 rlflow 有哪些风险？"))

    assert answer.cited and all(WEEKS_AGO[n] == 0 for n in answer.cited)
