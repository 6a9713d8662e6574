"""Building (or reusing) the stored weekly report of a repo and an ISO week.

The report is rebuilt only when its inputs change: a PR of the week added late or analysed again, or
the previous week's analyses (which feed the trends). A PR without a current analysis yet is analysed
on the fly by the offline analyzer, so a report never silently leaves a merged PR out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from chatbot.analysis.types import Analysis, LocalizedAnalysis
from chatbot.messages import Language
from chatbot.models import PullHeader, PullRequest
from chatbot.ports import Clock
from chatbot.reports.builder import AnalyzedPR, compose_weekly_report
from chatbot.reports.model import REPORT_FORMAT_VERSION, WeeklyReport
from chatbot.store.db import Database
from chatbot.store.index import HEADER_COLUMNS, PRIndex, header_pull_request, to_pull_request
from chatbot.store.schema import AnalysisRow, PullRequestRow, RepoRow, WeeklyReportRow
from chatbot.team.corrections import Corrector, corrections_signature
from chatbot.team.ledger import maintain_ledger
from chatbot.team.reading import read_in
from chatbot.team.views import risk_follow_up
from chatbot.weeks import Week

ReportWriter = Callable[[WeeklyReport], WeeklyReport]


class UnknownRepo(LookupError):
    """The repo is not in the index; `known` lists those that are."""

    def __init__(self, repo: str, known: list[str]) -> None:
        super().__init__(repo)
        self.repo = repo
        self.known = known


@dataclass(frozen=True, slots=True)
class BuiltReport:
    report: WeeklyReport
    reused: bool
    # A digest of the report's inputs: renderings of the same fingerprint are the same (PDF caches).
    fingerprint: str = ""


def _window(
    repo: RepoRow,
    start: datetime,
    end: datetime,
    numbers: Collection[int] | None,
    *columns: Any,
) -> Select[Any]:
    """`columns` of the PRs merged in [start, end) joined with their analyses of the current content,
    oldest PR first and its newest analysis first."""
    return (
        select(*columns)
        .outerjoin(
            AnalysisRow,
            (AnalysisRow.pr_id == PullRequestRow.id)
            & (AnalysisRow.content_hash == PullRequestRow.content_hash),
        )
        .where(
            PullRequestRow.repo_id == repo.id,
            PullRequestRow.merged_at >= start,
            PullRequestRow.merged_at < end,
            *([PullRequestRow.number.in_(list(numbers))] if numbers is not None else []),
        )
        .order_by(
            PullRequestRow.merged_at,
            PullRequestRow.number,
            AnalysisRow.created_at.desc(),
            AnalysisRow.id.desc(),
        )
    )


def _part(number: int, content_hash: str, analysis_id: int | None) -> str:
    """One PR's share of a report's fingerprint: its content and the analysis the report reads."""
    return f"{number}:{content_hash}:{analysis_id if analysis_id is not None else '-'}"


def window_inputs(session: Session, repo: RepoRow, start: datetime, end: datetime) -> list[str]:
    """The fingerprint parts of the window, as `window_records` gives them, from four columns: checking
    that a stored report is current must not decode every PR's files and analysis."""
    query = _window(
        repo,
        start,
        end,
        None,
        PullRequestRow.id,
        PullRequestRow.number,
        PullRequestRow.content_hash,
        AnalysisRow.id,
    )
    parts: list[str] = []
    seen: set[int] = set()
    for pr_id, number, content_hash, analysis_id in session.execute(query).all():
        if pr_id not in seen:
            seen.add(pr_id)
            parts.append(_part(number, content_hash, analysis_id))
    return parts


def window_records(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    fallback: Callable[[PullRequest], Analysis],
    numbers: Collection[int] | None = None,
    corrector: Corrector | None = None,
) -> tuple[list[AnalyzedPR], list[str]]:
    """The PRs merged in [start, end) (optionally only `numbers`) with their current analyses (the
    offline analysis for one not analysed yet), oldest first, and a fingerprint of those inputs.

    An analysed PR comes without its files and comments (the report reads its analysis, header and
    reviews; decoding every patch was most of a report's build time); a PR analysed here comes whole.
    The analyses are as shown: with readers' corrections and the repo's calibration applied (by
    `corrector`, loaded here when not given)."""
    columns = (*HEADER_COLUMNS, AnalysisRow.id, AnalysisRow.fields)
    records: list[AnalyzedPR] = []
    parts: list[str] = []
    seen: set[int] = set()
    # Plain rows through the connection (the ORM's row processing is a third of reading 300 PRs),
    # fetched at once (row by row is twice the time) and read by position (`header_pull_request`).
    for row in session.connection().execute(_window(repo, start, end, numbers, *columns)).all():
        pr_id, number, analysis_id, fields = row[0], row[1], row[-2], row[-1]
        if pr_id in seen:
            continue  # an older analysis of the same content
        seen.add(pr_id)
        if analysis_id is not None:
            pr = header_pull_request(repo, row)
            records.append(AnalyzedPR(pr, Analysis.from_dict(fields)))
        else:
            pr = to_pull_request(repo, session.get_one(PullRequestRow, pr_id))
            records.append(AnalyzedPR(pr, fallback(pr)))
        parts.append(_part(number, pr.content_hash, analysis_id))
    return (corrector or Corrector.load(session, repo.full_name)).records(records), parts


def trend_records(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    fallback: Callable[[PullRequest], Analysis],
    corrector: Corrector,
) -> tuple[list[AnalyzedPR], list[str]]:
    """The PRs merged in [start, end) as a report reads the previous week's, for its trends (how many,
    their modules and their concerns: `compose_weekly_report`): each PR with its number, title and
    dates only, its analysis with its tags, risks and English gist only (`_trend_analysis`), as
    `corrector` shows it; and the fingerprint parts `window_records` gives. Reading the previous week
    whole was a fifth of a fresh build."""
    pr, analysis = PullRequestRow, AnalysisRow
    columns = (
        pr.id,
        pr.number,
        pr.title,
        pr.created_at,
        pr.content_hash,
        pr.merged_at,
        analysis.id,
        analysis.fields,
    )
    records: list[AnalyzedPR] = []
    parts: list[str] = []
    seen: set[int] = set()
    for pr_id, number, title, created_at, content_hash, merged_at, analysis_id, fields in (
        session.connection().execute(_window(repo, start, end, None, *columns)).all()
    ):
        if pr_id in seen:
            continue  # an older analysis of the same content
        seen.add(pr_id)
        if analysis_id is not None:
            header = PullHeader(
                repo=repo.full_name,
                number=number,
                title=title,
                body="",
                author="",
                created_at=created_at,
                updated_at=merged_at,
                merged_at=merged_at,
            )
            records.append(
                AnalyzedPR(PullRequest(header, content_hash=content_hash), _trend_analysis(fields))
            )
        else:
            whole = to_pull_request(repo, session.get_one(PullRequestRow, pr_id))
            records.append(AnalyzedPR(whole, fallback(whole)))
        parts.append(_part(number, content_hash, analysis_id))
    return corrector.records(records), parts


def _trend_analysis(fields: dict[str, Any]) -> Analysis:
    """A stored analysis as the trends read it (`Analysis.scores_and_risks`): with the English gist
    that places it in a concern (`AnalyzedPR.concern`), not its key points, guides or Chinese texts."""
    english = (fields.get("texts") or {}).get("en")
    return Analysis.scores_and_risks(
        fields, {"en": LocalizedAnalysis.from_dict(english)} if english else None, summary=True
    )


def build_weekly_report(
    db: Database,
    repo: str,
    week: Week,
    *,
    clock: Clock,
    language: Language,
    fallback: Callable[[PullRequest], Analysis],
    writer: ReportWriter | None = None,
    rebuild: bool = False,
    store_empty: bool = True,
) -> BuiltReport:
    """The stored report of `repo` for `week`, rebuilt when its inputs changed (or `rebuild`).
    `writer` (the LLM prose writer) may rewrite the headline, highlights and summary. With
    `store_empty` False a week without PRs is composed but not stored (anonymous page views must not
    add a row for every week anyone asks about). The risk ledger is brought up to date first: the
    report's "Risk follow-up" section reads it. Raises UnknownRepo."""
    maintain_ledger(db, clock.now(), repo)
    try:
        return _build(db, repo, week, clock, language, fallback, writer, rebuild, store_empty)
    except IntegrityError:
        # Another worker stored this week's first report at the same moment: theirs is current.
        return _build(db, repo, week, clock, language, fallback, writer, False, store_empty)


def _build(
    db: Database,
    repo: str,
    week: Week,
    clock: Clock,
    language: Language,
    fallback: Callable[[PullRequest], Analysis],
    writer: ReportWriter | None,
    rebuild: bool,
    store_empty: bool,
) -> BuiltReport:
    with db.session() as session:
        index = PRIndex(session)
        repo_row = index.repo(repo)
        if repo_row is None:
            raise UnknownRepo(repo, [r.full_name for r in index.repos()])
        previous_week = Week.containing(week.start - timedelta(days=1), week.tz)
        until = max(week.start, min(week.end, clock.now()))  # a week in progress: its PRs up to now
        follow_up = risk_follow_up(session, repo_row.full_name, week.start, week.end, clock.now(), language)
        reading = read_in(session, repo_row.full_name, week.start, week.end, language)

        def fingerprint_of(parts: list[str], previous_parts: list[str]) -> str:
            # Only the corrections of the two weeks' PRs: one of an old PR rebuilds no other report.
            numbers = [int(part.split(":", 1)[0]) for part in (*parts, *previous_parts)]
            corrections = corrections_signature(session, repo_row.full_name, numbers)
            material = "|".join(
                [
                    f"v{REPORT_FORMAT_VERSION}",
                    language,
                    str(writer is not None),
                    *parts,
                    "--",
                    *previous_parts,
                    "--",
                    follow_up.model_dump_json(),
                    *(note.model_dump_json() for note in reading),
                    corrections,
                ]
            )
            return hashlib.sha256(material.encode()).hexdigest()

        stored = session.scalar(
            select(WeeklyReportRow).where(
                WeeklyReportRow.repo_id == repo_row.id,
                WeeklyReportRow.iso_year == week.year,
                WeeklyReportRow.iso_week == week.week,
                WeeklyReportRow.language == language,
            )
        )
        if stored is not None and not rebuild:
            # Whether the stored report is current is known from the inputs' ids, before loading them.
            fingerprint = fingerprint_of(
                window_inputs(session, repo_row, week.start, until),
                window_inputs(session, repo_row, previous_week.start, previous_week.end),
            )
            if stored.fingerprint == fingerprint:
                return BuiltReport(WeeklyReport.model_validate(stored.content), True, fingerprint)
        corrector = Corrector.load(session, repo_row.full_name)
        records, parts = window_records(session, repo_row, week.start, until, fallback, corrector=corrector)
        previous, previous_parts = trend_records(
            session, repo_row, previous_week.start, previous_week.end, fallback, corrector
        )
        fingerprint = fingerprint_of(parts, previous_parts)
        version = stored.version + 1 if stored is not None else 1
        report = compose_weekly_report(
            repo_row.full_name,
            week,
            records,
            previous,
            language=language,
            generated_at=clock.now(),
            version=version,
        )
        if writer is not None and not report.quiet:
            report = writer(report)
        report = report.model_copy(update={"risk_follow_up": follow_up, "reading": reading})
        content = report.model_dump(mode="json")
        if stored is None and not records and not store_empty:
            return BuiltReport(report, False, fingerprint)
        if stored is None:
            session.add(
                WeeklyReportRow(
                    repo_id=repo_row.id,
                    iso_year=week.year,
                    iso_week=week.week,
                    language=language,
                    window_start=week.start,
                    window_end=week.end,
                    fingerprint=fingerprint,
                    version=version,
                    content=content,
                    generated_at=report.generated_at,
                )
            )
        else:
            stored.fingerprint, stored.version, stored.content = fingerprint, version, content
            stored.generated_at = report.generated_at
        return BuiltReport(report, False, fingerprint)
