"""The weekly report built from a written week, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

import pytest
from markdown_it import MarkdownIt

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import pr_refs, say
from chatbot.models import Message
from chatbot.reports.cards import CARD_KEY_PRS, KEY_PRS_NAMED, ReportLinks, report_card, report_document
from chatbot.reports.html import render_html
from chatbot.reports.markdown import render_markdown
from chatbot.reports.weekly import UnknownRepo, build_weekly_report
from chatbot.weeks import parse_week
from tests.reports.fixtures import (
    INJECTION,
    NEXT_WEEK,
    PREVIOUS_WEEK,
    REPO,
    SHANGHAI,
    WEEK,
    WEEK_START,
    analysis,
    seed,
)

CLOCK = FixedClock(WEEK_START + timedelta(days=8))
FALLBACK = HeuristicAnalyzer().analyze


def build(db, week="2026-W25", tz=SHANGHAI, language="zh", **kwargs):  # type: ignore[no-untyped-def]
    return build_weekly_report(
        db, REPO, parse_week(week, tz), clock=CLOCK, language=language, fallback=FALLBACK, **kwargs
    )


def test_the_week_runs_monday_to_sunday_night_in_the_configured_timezone(db):
    seed(db)
    report = build(db).report
    assert report.prs == (101, 102, 103, 104, 105, 106, 107)  # Sunday 23:59 in, Monday 00:00 out
    assert report.previous_pr_count == 3
    assert report.title == "acme/widgets 2026年第25周（06-15至06-21）周报"


def test_a_week_in_progress_holds_only_the_prs_merged_by_now(db):
    seed(db)
    wednesday = FixedClock(WEEK_START + timedelta(days=2, hours=1))  # after #103, before #104
    report = build_weekly_report(
        db, REPO, parse_week("2026-W25", SHANGHAI), clock=wednesday, language="zh", fallback=FALLBACK
    ).report
    assert report.prs == (101, 102, 103)
    assert build(db).report.prs == (101, 102, 103, 104, 105, 106, 107)  # the same week, once over


def test_another_timezone_moves_the_boundaries(db):
    seed(db)
    berlin = build(db, tz=ZoneInfo("Europe/Berlin")).report
    # Berlin's week starts 6 hours after Shanghai's: PR 101 (Mon 10:00 +08) and 92 fall elsewhere
    assert 108 in berlin.prs and 101 in berlin.prs and 92 not in berlin.prs


def test_every_section_is_there_and_names_only_prs_of_the_week(db):
    seed(db)
    report = build(db).report
    week_prs = set(report.prs)
    assert report.pr_count == 7
    assert 1 <= len(report.highlights) <= 6 and report.risks and report.themes and report.key_prs
    assert all(set(item.prs) <= week_prs for item in report.highlights)
    assert all(set(risk.prs) <= week_prs for risk in report.risks)
    assert [pr.number for pr in report.key_prs] == [101, 102, 103, 106, 107]  # verdict != skim, by importance
    assert report.avg_importance == round((8.5 + 7.8 + 7.0 + 1.5 + 3.0 + 6.0 + 5.0) / 7, 1)
    assert report.avg_insight == round((7.0 + 6.5 + 4.0 + 1.0 + 1.0 + 6.0 + 3.0) / 7, 1)
    assert "7" in report.headline and report.executive_summary


def test_risks_of_one_category_are_merged_naming_every_pr(db):
    seed(db)
    risks = {r.category: r for r in build(db).report.risks}
    assert risks["missing-tests"].prs == (101, 102)
    assert "#101" in risks["missing-tests"].text and "#102" in risks["missing-tests"].text
    assert risks["memory"].severity == "high"
    assert next(iter(risks)) == "memory"  # high severity first


def test_trends_compare_with_the_previous_week(db):
    seed(db)
    trends = {t.name: (t.count, t.previous, t.delta) for t in build(db).report.module_trends}
    assert trends["megatron"] == (1, 2, -1)
    assert trends["rollout"] == (2, 0, 2)
    assert trends["ci"] == (1, 1, 0)


def test_a_built_report_is_reused_until_a_late_pr_arrives(db):
    seed(db)
    first = build(db)
    again = build(db)
    assert not first.reused and again.reused and again.report == first.report
    seed(
        db,
        rows=[
            (109, "[trainer] fix: late arrival", WEEK_START + timedelta(days=5), analysis(("trainer",), 5.0))
        ],
    )
    rebuilt = build(db)
    assert not rebuilt.reused and rebuilt.report.version == 2 and 109 in rebuilt.report.prs


def test_a_pr_without_a_stored_analysis_is_analysed_on_the_fly(db):
    from chatbot.store.index import PRIndex
    from tests.reports.fixtures import pr

    seed(db)
    with db.session() as session:
        index = PRIndex(session)
        index.upsert(
            index.repo(REPO),
            pr(110, "[rollout] fix: crash on empty batch", WEEK_START + timedelta(days=1)),
            CLOCK.now(),
        )
    assert 110 in build(db).report.prs


def test_a_quiet_week_is_one_line(db):
    seed(db)
    report = build(db, week="2026-W30").report
    assert report.quiet
    card = report_card(report)
    assert len(card.blocks) == 1 and "没有合并任何 PR" in card.plain_text()


def test_english_on_request(db):
    seed(db)
    report = build(db, language="en").report
    assert report.title == "acme/widgets weekly report, 2026-W25"
    assert report_card(report).plain_text().count(say("report.section.highlights", "en")) == 1


def test_unknown_repo_names_the_known_ones(db):
    seed(db)
    with pytest.raises(UnknownRepo) as info:
        build_weekly_report(
            db, "acme/nope", parse_week("2026-W25", SHANGHAI), clock=CLOCK, language="zh", fallback=FALLBACK
        )
    assert info.value.known == [REPO]


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.hrefs: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        self.tags.append(tag)
        self.hrefs += [v for k, v in attrs if k == "href"]

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        self.text.append(data)


def test_documents_render_every_section_and_keep_pr_text_inert(db):
    seed(db)
    report = build(db).report
    links = ReportLinks.for_report("https://prhub.example.com", report)
    document = report_document(report, links)
    markdown = render_markdown(document)
    for section in ("highlights", "risks", "summary", "changes", "trends", "key_prs", "follow_ups"):
        assert say(f"report.section.{section}", "zh") in markdown
    as_html = _Collector()  # what a Markdown viewer makes of it
    as_html.feed(MarkdownIt("commonmark").enable("table").render(markdown))
    assert "script" not in as_html.tags and "at" not in as_html.tags
    assert all(h.startswith("https://") for h in as_html.hrefs)
    assert INJECTION in "".join(as_html.text)

    page = render_html(document)
    parsed = _Collector()
    parsed.feed(page)
    assert "script" not in parsed.tags
    assert all(h.startswith("https://") for h in parsed.hrefs)
    assert "https://prhub.example.com/reports/acme/widgets/2026-W25.pdf" in parsed.hrefs
    assert INJECTION in "".join(parsed.text) or "紧急" not in "".join(
        parsed.text
    )  # shown, if at all, as text
    assert "table" in parsed.tags and report.title in "".join(parsed.text)


def test_the_reuse_check_reads_the_same_inputs_as_a_build(db):
    """The stored report is checked from ids alone (no PR files or analyses decoded); that check must
    agree with the build, including a PR analysed on the fly, or a stale report would be served."""
    from chatbot.reports.weekly import window_inputs, window_records
    from chatbot.store.index import PRIndex
    from tests.reports.fixtures import pr

    seed(db)
    with db.session() as session:
        index = PRIndex(session)
        index.upsert(
            index.repo(REPO),
            pr(110, "fix: crash on empty batch", WEEK_START + timedelta(days=1)),
            CLOCK.now(),
        )
    week = parse_week("2026-W25", SHANGHAI)
    with db.session() as session:
        repo = PRIndex(session).repo(REPO)
        assert repo is not None
        for start, end in [(week.start, week.end), (week.start - timedelta(days=7), week.start)]:
            assert (
                window_inputs(session, repo, start, end)
                == window_records(session, repo, start, end, FALLBACK)[1]
            )
    fresh = build(db, rebuild=True)
    reused = build(db)
    assert reused.reused and reused.fingerprint == fresh.fingerprint and reused.report == fresh.report
    seed(
        db, rows=[(111, "perf: faster sampling", WEEK_START + timedelta(days=2), analysis(("rollout",), 4.0))]
    )
    late = build(db)
    assert not late.reused and 111 in late.report.prs


def test_window_records_read_analysed_prs_without_their_diff_and_analyse_the_rest_whole(db):
    """A stored analysis is read with the PR's header and reviews only (its patches are not decoded); a
    PR without one is loaded whole for the analyzer, which sees its files."""
    from sqlalchemy import delete, select

    from chatbot.reports.weekly import window_records
    from chatbot.store.schema import AnalysisRow, PullRequestRow, RepoRow

    seed(db)
    seen_files: dict[int, int] = {}

    def fallback(pr):  # type: ignore[no-untyped-def]
        seen_files[pr.number] = len(pr.files)
        return FALLBACK(pr)

    week = parse_week("2026-W25", SHANGHAI)
    with db.session() as session:
        repo = session.scalar(select(RepoRow).where(RepoRow.full_name == REPO))
        assert repo is not None
        pr_id = session.scalar(select(PullRequestRow.id).where(PullRequestRow.number == 103))
        session.execute(delete(AnalysisRow).where(AnalysisRow.pr_id == pr_id))
        records, parts = window_records(session, repo, week.start, week.end, fallback)
    by_number = {r.number: r for r in records}
    assert seen_files == {103: 1}
    assert by_number[101].pr.files == () and by_number[101].pr.changed_files == 1
    assert by_number[101].pr.header.title and by_number[101].pr.header.html_url.endswith("/101")
    assert [p.split(":")[0] for p in parts] == [str(r.number) for r in records]
    assert parts[[r.number for r in records].index(103)].endswith(":-")


def _busy_reading_week() -> list:  # type: ignore[type-arg]
    """The written week and nine more PRs worth reading (14 key PRs: more than the card's five rows and
    the document's ten), one of them reverted within the week."""
    extra = [
        (
            120 + i,
            f"[trainer] feat: option {i}",
            WEEK_START + timedelta(days=3, hours=i),
            analysis(("trainer",), 4.0 + i / 10, verdict="worth-reading"),
        )
        for i in range(9)
    ]
    revert = (
        130,
        'Revert "[trainer] feat: option 0"',
        WEEK_START + timedelta(days=5),
        analysis(("trainer",), 2.0),
    )
    return WEEK + extra + [revert] + NEXT_WEEK + PREVIOUS_WEEK


def _ask(db, text: str) -> str:  # type: ignore[no-untyped-def]
    bot = ChatBot(db, BotConfig(SHANGHAI, "https://prhub.example.com"), CLOCK, FALLBACK)
    return bot.handle(Message(text)).reply.plain_text()


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_card_the_document_and_the_chat_count_the_same_key_prs_and_must_reads(db, language):
    """Key PRs are the reading list, as the chat lists it ("值得精读"), and its must-reads are the chat's
    "必读": the meta line, the summary, the card's "N key PRs in all" and the document's rest say so."""
    seed(db, rows=_busy_reading_week())
    report = build(db, language=language).report
    must, key = 2, 14
    assert (len(report.must_read), len(report.reading_list)) == (must, key)
    meta = say("report.meta.key", language, n=key, must=must)
    links = ReportLinks.for_report("https://prhub.example.com", report)
    card, document = report_card(report, links).plain_text(), report_document(report).plain_text()
    assert meta in card and meta in document
    assert len(report.key_prs) > CARD_KEY_PRS and say("report.more_prs", language, n=key) in card
    reading = pr_refs(report.reading_list, language)
    summary = say("report.must_read", language, n=key, must=must, worth=key - must, prs=reading)
    assert summary.strip() in report.executive_summary
    # the document's table and the line after it name every key PR but the reverted one
    named = [pr.number for pr in report.key_prs]
    rest = [n for n in report.reading_list if n not in named and n not in report.left_out]
    assert report.left_out == (120, 130) and len(named) + len(rest) == key - 1
    assert (
        say("report.key_prs.rest", language, n=len(rest), prs=pr_refs(rest, language, limit=KEY_PRS_NAMED))
        in document
    )
    # the chat, asked about the same week
    assert say("qa.must_read.only_title", "zh", n=must) in _ask(db, "上周 acme/widgets 必读的 PR 有哪些")
    listed = _ask(db, "上周 acme/widgets 有哪些值得精读的 PR")
    shown = len(re.findall(r"^• #\d+", listed, re.M))
    more = re.search(r"及其他 (\d+) 个", listed)
    assert shown + (int(more.group(1)) if more else 0) == key, listed
