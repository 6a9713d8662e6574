"""The risk ledger: every risk of every analysed PR as an entry with a stable id and a state, followed
across weeks.

`maintain_ledger` takes in the analyses stored since it last ran (a cursor per repo): each risk of a
PR's current analysis becomes an entry keyed by (repo, PR, category, file, function), so analysing the
PR again updates the entry; a risk the new analysis no longer finds is withdrawn. Then the PRs new to the
ledger are read as follow-ups of earlier entries, deterministically and with the reason kept:

- `fixes`: the later PR says it fixes the PR (fixes/closes/resolves #N, 修复 #N); it is merged, so the
  entry is resolved;
- `cites`: the later PR names the PR (#N or its URL);
- `function`: the later PR changes the same function (or configuration key) of the same file.

States: open → followed-up → resolved | accepted (by a person, with why), or withdrawn. A wrong link is
undone (kept, so it is never made again) and the entry's state is derived again.
"""

from __future__ import annotations

import base64
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import String, and_, bindparam, case, cast, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from chatbot.analysis.features import file_kind
from chatbot.analysis.types import Analysis
from chatbot.store.db import Database
from chatbot.store.ledger import RiskEntryRow, RiskEventRow, RiskLedgerCursorRow, RiskLinkRow
from chatbot.store.schema import AnalysisRow, Base, PullRequestRow, RepoRow
from chatbot.team.corrections import Corrector
from chatbot.team.evidence import LinkKind, references, risk_place, same_symbol, touched_symbols

OPEN_STATES = ("open", "followed-up")
CLOSED_STATES = ("resolved", "accepted")
STATES = (*OPEN_STATES, *CLOSED_STATES, "withdrawn")
KEY_PREFIX = "R-"
# A stronger reason to link wins when one PR relates to an entry in several ways.
_STRENGTH: dict[str, int] = {"fixes": 3, "cites": 2, "function": 1}
_LANGUAGES = ("zh", "en")
# The tables themselves, for Core inserts: the ORM's bulk path costs more than the database here.
_ENTRIES = Base.metadata.tables[RiskEntryRow.__tablename__]
_LINKS = Base.metadata.tables[RiskLinkRow.__tablename__]


def entry_key(repo: str, number: int, category: str, file: str, symbol: str, ordinal: int) -> str:
    """The stable id of a risk: the same PR, category, file and function give the same id whichever
    analysis (or analyzer version) found it; `ordinal` tells apart two such risks of one PR."""
    material = f"{repo.lower()}|{number}|{category}|{file}|{symbol}|{ordinal}".encode()
    return base64.b32encode(hashlib.sha256(material).digest()).decode().lower()[:10]


def display_key(key: str) -> str:
    return f"{KEY_PREFIX}{key}"


# A PR that changes a risk's function again follows it up within this long of the risk; months later
# the function has moved on (verl's `rearrange_micro_batches`, 8 months and dozens of PRs on), and the
# link is noise. A PR that cites the risk's PR follows it up at any age.
FUNCTION_HORIZON = timedelta(weeks=12)


@dataclass(slots=True)
class MaintenanceReport:
    """What one maintenance run changed."""

    analyses: int = 0
    raised: int = 0
    updated: int = 0
    withdrawn: int = 0
    linked: int = 0
    resolved: int = 0


@dataclass(slots=True)
class _PR:
    id: int
    number: int
    merged_at: datetime
    text: str
    patches: dict[str, str | None]


@dataclass(slots=True)
class _Entry:
    id: int
    pr_id: int
    pr_number: int
    merged_at: datetime
    file: str
    symbol: str
    category: str


@dataclass(slots=True)
class _NewLink:
    entry: _Entry
    pr: _PR
    kind: LinkKind
    detail: str


def maintain_ledger(db: Database, now: datetime, repo: str | None = None) -> MaintenanceReport:
    """Bring the ledger of `repo` (or of every repo) up to date with the stored analyses. Cheap when
    nothing is new (one query per repo). Two runs at once: the loser's insert fails on the unique key
    and it runs again over what the winner stored."""
    report = MaintenanceReport()
    for attempt in range(2):
        try:
            with db.session() as session:
                repos = session.scalars(
                    select(RepoRow).where(RepoRow.full_name == repo.lower()) if repo else select(RepoRow)
                ).all()
                for repo_row in repos:
                    _maintain_repo(session, repo_row, now, report)
            return report
        except IntegrityError:
            if attempt:
                raise
            report = MaintenanceReport()
    return report


def reapply_corrections(db: Database, repo: str, number: int, now: datetime) -> MaintenanceReport:
    """The entries of PR `number` again, as its readers corrected its analysis: "这不是破坏性变更"
    withdraws its breaking-change entry, "漏了风险：…" raises one. Corrections leave the stored analysis
    alone, so the cursor of `maintain_ledger` would never revisit the PR for them."""
    report = MaintenanceReport()
    with db.session() as session:
        repo_row = session.scalar(select(RepoRow).where(RepoRow.full_name == repo.lower()))
        if repo_row is None:
            return report
        current = session.execute(
            select(AnalysisRow.pr_id, AnalysisRow.fields)
            .join(
                PullRequestRow,
                (PullRequestRow.id == AnalysisRow.pr_id)
                & (PullRequestRow.content_hash == AnalysisRow.content_hash),
            )
            .where(PullRequestRow.repo_id == repo_row.id, PullRequestRow.number == number)
            .order_by(AnalysisRow.id.desc())
            .limit(1)
        ).first()
        if current is not None:
            prs = _load_prs(session, PullRequestRow.id == current.pr_id)
            _upsert_entries(session, repo_row, prs, {current.pr_id: current.fields}, now, report)
    return report


def _maintain_repo(session: Session, repo: RepoRow, now: datetime, report: MaintenanceReport) -> None:
    cursor_row = session.get(RiskLedgerCursorRow, repo.id)
    cursor = cursor_row.analysis_id if cursor_row else 0
    # Analysis ids are shared by every repo, and the cursor is the newest id of any repo seen: when
    # none was stored since, one index lookup says so (reading "this repo's analyses newer than the
    # cursor" would read every other repo's newer analysis to find none: 100 ms on PostgreSQL at 100k).
    latest = session.scalar(select(func.max(AnalysisRow.id)))
    if latest is None or latest <= cursor:
        return
    if cursor_row is None:
        session.add(RiskLedgerCursorRow(repo_id=repo.id, analysis_id=latest, updated_at=now))
    else:
        cursor_row.analysis_id, cursor_row.updated_at = latest, now
    current = session.execute(
        select(AnalysisRow.id, AnalysisRow.pr_id, AnalysisRow.fields)
        .join(
            PullRequestRow,
            (PullRequestRow.id == AnalysisRow.pr_id)
            & (PullRequestRow.content_hash == AnalysisRow.content_hash),
        )
        .where(PullRequestRow.repo_id == repo.id, AnalysisRow.id > cursor)
        .order_by(AnalysisRow.id)
    ).all()
    if not current:
        return
    newest: dict[int, dict[str, Any]] = {pr_id: fields for _, pr_id, fields in current}
    report.analyses += len(newest)
    prs = _load_prs(session, PullRequestRow.id.in_(list(newest)))
    inserted = _upsert_entries(session, repo, prs, newest, now, report)
    candidates = dict(prs)
    if inserted:
        # An entry new to the ledger may have been followed up already by PRs merged after it.
        earliest = min(inserted)
        later = PullRequestRow.repo_id == repo.id, PullRequestRow.merged_at > earliest
        candidates.update(_load_prs(session, *later, PullRequestRow.id.not_in(list(prs))))
    _link(session, repo, sorted(candidates.values(), key=lambda p: (p.merged_at, p.number)), report)


def _load_prs(session: Session, *where: Any) -> dict[int, _PR]:
    rows = session.execute(
        select(
            PullRequestRow.id,
            PullRequestRow.number,
            PullRequestRow.merged_at,
            PullRequestRow.title,
            PullRequestRow.body,
            PullRequestRow.files,
        ).where(*where)
    )
    return {
        pr_id: _PR(
            pr_id,
            number,
            merged_at,
            f"{title}\n{body or ''}",
            {str(f.get("filename", "")): f.get("patch") for f in files or ()},
        )
        for pr_id, number, merged_at, title, body, files in rows
    }


def _entries_of(repo: RepoRow, pr: _PR, analysis: Analysis, now: datetime) -> dict[str, dict[str, Any]]:
    """The entry rows one analysis gives its PR, by stable id."""
    out: dict[str, dict[str, Any]] = {}
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    texts = {language: analysis.localized(language).risks for language in _LANGUAGES}
    for i, risk in enumerate(analysis.risks):
        place = risk_place(risk.evidence, pr.patches)
        slot = (risk.category, place.file, place.symbol)
        seen[slot] += 1
        key = entry_key(repo.full_name, pr.number, *slot, seen[slot])
        out[key] = {
            "key": key,
            "repo_id": repo.id,
            "pr_id": pr.id,
            "pr_number": pr.number,
            "category": risk.category,
            "severity": risk.severity,
            "evidence": risk.evidence,
            "file": place.file[:500],
            "symbol": place.symbol[:200],
            "texts": {language: texts[language][i] for language in _LANGUAGES},
            "modules": list(analysis.modules),
            "analyzer_version": f"{analysis.analyzer} {analysis.analyzer_version}".strip()[:40],
            "state": "open",
            "state_at": pr.merged_at,
            "raised_at": pr.merged_at,
            "created_at": now,
            "updated_at": now,
        }
    return out


def _upsert_entries(
    session: Session,
    repo: RepoRow,
    prs: dict[int, _PR],
    analyses: dict[int, dict[str, Any]],
    now: datetime,
    report: MaintenanceReport,
) -> list[datetime]:
    """Insert the new entries, refresh the texts of the known ones, withdraw the vanished ones; the merge
    times of the PRs that got new entries."""
    wanted: dict[str, dict[str, Any]] = {}
    corrector = Corrector.load(session, repo.full_name)  # "not breaking" has no breaking entry
    for pr_id, fields in analyses.items():
        pr = prs.get(pr_id)
        if pr is not None:
            analysis = corrector.analysis(pr.number, Analysis.from_dict(fields))
            wanted.update(_entries_of(repo, pr, analysis, now))
    stored = {
        row.key: row
        for row in session.execute(
            select(
                RiskEntryRow.id,
                RiskEntryRow.key,
                RiskEntryRow.state,
                RiskEntryRow.closed_by,
                RiskEntryRow.severity,
                RiskEntryRow.texts,
            ).where(RiskEntryRow.pr_id.in_(list(analyses)))
        )
    }
    fresh = [values for key, values in wanted.items() if key not in stored]
    if fresh:
        session.execute(insert(_ENTRIES), fresh)
        report.raised += len(fresh)
    changed = [
        {
            "id": row.id,
            "severity": wanted[key]["severity"],
            "texts": wanted[key]["texts"],
            "evidence": wanted[key]["evidence"],
            "modules": wanted[key]["modules"],
            "analyzer_version": wanted[key]["analyzer_version"],
            "updated_at": now,
        }
        for key, row in stored.items()
        if key in wanted and (row.texts != wanted[key]["texts"] or row.severity != wanted[key]["severity"])
    ]
    if changed:
        session.execute(update(RiskEntryRow), changed)
        report.updated += len(changed)
    vanished = [row.id for key, row in stored.items() if key not in wanted and row.state != "withdrawn"]
    back = [row.id for key, row in stored.items() if key in wanted and row.state == "withdrawn"]
    if vanished:
        session.execute(
            update(RiskEntryRow)
            .where(RiskEntryRow.id.in_(vanished), RiskEntryRow.closed_by.is_(None))
            .values(state="withdrawn", state_at=now, updated_at=now)
        )
        session.execute(
            insert(RiskEventRow), [{"entry_id": i, "action": "withdrawn", "at": now} for i in vanished]
        )
        report.withdrawn += len(vanished)
    if back:
        _derive_states(session, back, now)
    return sorted({values["raised_at"] for values in fresh})


def _link(session: Session, repo: RepoRow, candidates: Sequence[_PR], report: MaintenanceReport) -> None:
    """Link each candidate PR to the earlier entries it follows up, strongest reason first."""
    if not candidates:
        return
    by_file: dict[str, list[_Entry]] = defaultdict(list)
    by_number: dict[int, list[_Entry]] = defaultdict(list)
    for columns in session.execute(
        select(
            RiskEntryRow.id,
            RiskEntryRow.pr_id,
            RiskEntryRow.pr_number,
            RiskEntryRow.raised_at,
            RiskEntryRow.file,
            RiskEntryRow.symbol,
            RiskEntryRow.category,
        ).where(RiskEntryRow.repo_id == repo.id, RiskEntryRow.state != "withdrawn")
    ):
        item = _Entry(*columns)
        by_number[item.pr_number].append(item)
        if item.file and item.symbol:
            by_file[item.file].append(item)
    known: set[tuple[int, int]] = {
        (entry_id, pr_id)
        for entry_id, pr_id in session.execute(
            select(RiskLinkRow.entry_id, RiskLinkRow.pr_id).where(
                RiskLinkRow.pr_id.in_([pr.id for pr in candidates])
            )
        )
    }
    found: dict[tuple[int, int], _NewLink] = {}

    def propose(entry: _Entry, pr: _PR, kind: LinkKind, detail: str) -> None:
        if entry.pr_id == pr.id or (entry.merged_at, entry.pr_number) >= (pr.merged_at, pr.number):
            return  # only a later PR follows a risk up
        slot = (entry.id, pr.id)
        if slot in known or (slot in found and _STRENGTH[found[slot].kind] >= _STRENGTH[kind]):
            return
        found[slot] = _NewLink(entry, pr, kind, detail)

    for pr in candidates:
        for number, kind in references(pr.text, repo.full_name).items():
            for entry in by_number.get(number, ()):
                propose(entry, pr, kind, "")
        # Changing the same function again without a test follows up everything but the missing test.
        tested = any(file_kind(path) == "test" for path in pr.patches)
        for path, patch in pr.patches.items():
            entries = by_file.get(path)
            if entries:
                touched = touched_symbols(patch)
                for entry in entries:
                    if (
                        (tested or entry.category != "missing-tests")
                        and pr.merged_at - entry.merged_at <= FUNCTION_HORIZON
                        and same_symbol(entry.symbol, touched)
                    ):
                        propose(entry, pr, "function", f"`{entry.symbol}` ({path})")
    if not found:
        return
    links = list(found.values())
    session.execute(
        insert(_LINKS),
        [
            {
                "entry_id": link.entry.id,
                "pr_id": link.pr.id,
                "pr_number": link.pr.number,
                "kind": link.kind,
                "detail": link.detail[:500],
                "linked_at": link.pr.merged_at,
            }
            for link in links
        ],
    )
    report.linked += len(links)
    report.resolved += _derive_states(session, {link.entry.id for link in links}, None)


def _derive_states(session: Session, entry_ids: Iterable[int], now: datetime | None) -> int:
    """Set the state of entries not closed by hand from their live links: resolved by the first
    `fixes`, followed-up since the first link, else open (since the PR's merge). Returns how many became
    resolved. `now` stamps the audit events of changes a person caused (None: the links' own times)."""
    ids = list(entry_ids)
    if not ids:
        return 0
    links: dict[int, list[tuple[str, datetime, int]]] = defaultdict(list)
    for entry_id, kind, linked_at, number in session.execute(
        select(RiskLinkRow.entry_id, RiskLinkRow.kind, RiskLinkRow.linked_at, RiskLinkRow.pr_number).where(
            RiskLinkRow.entry_id.in_(ids), RiskLinkRow.undone_at.is_(None)
        )
    ):
        links[entry_id].append((kind, linked_at, number))
    updates: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    resolved = 0
    for entry_id, state, raised_at, state_at in session.execute(
        select(RiskEntryRow.id, RiskEntryRow.state, RiskEntryRow.raised_at, RiskEntryRow.state_at).where(
            RiskEntryRow.id.in_(ids), RiskEntryRow.closed_by.is_(None)
        )
    ):
        live = sorted(links.get(entry_id, ()), key=lambda item: (item[1], item[2]))
        fixes = [item for item in live if item[0] == "fixes"]
        new_state, since = "open", raised_at
        if fixes:
            new_state, since = "resolved", fixes[0][1]
        elif live:
            new_state, since = "followed-up", live[0][1]
        if (new_state, since) != (state, state_at):
            updates.append({"entry": entry_id, "state": new_state, "state_at": since})
            if new_state == "resolved":
                resolved += 1
                events.append(
                    {
                        "entry_id": entry_id,
                        "action": "resolved",
                        "reason": "fixes",
                        "pr_number": fixes[0][2],
                        "at": now or since,
                    }
                )
            elif state in CLOSED_STATES or state == "withdrawn":
                events.append({"entry_id": entry_id, "action": "reopened", "at": now or since})
    if updates:
        statement = update(_ENTRIES).where(_ENTRIES.c.id == bindparam("entry"))
        session.execute(statement.values(state=bindparam("state"), state_at=bindparam("state_at")), updates)
    if events:
        session.execute(insert(RiskEventRow), events)
    return resolved


# --- what people do ------------------------------------------------------------------------------


class LedgerError(LookupError):
    """A ledger action that cannot be done: `reason` is a messages key, `values` fill it in."""

    def __init__(self, reason: str, **values: object) -> None:
        super().__init__(reason)
        self.reason, self.values = reason, values


def find_entries(session: Session, repo: str | None, ref: str) -> list[RiskEntryRow]:
    """The entries `ref` names: a stable id or a unique prefix of one (`R-k3j9x`, at least 4
    characters), or a PR (`#6512`, `6512`, of `repo`; all its entries). Raises LedgerError."""
    text = ref.strip()
    number = text.lstrip("#")
    if number.isdigit():
        statement = select(RiskEntryRow).where(RiskEntryRow.pr_number == int(number))
        if repo:
            statement = statement.join(RepoRow, RepoRow.id == RiskEntryRow.repo_id).where(
                RepoRow.full_name == repo.lower()
            )
        rows = list(session.scalars(statement.order_by(RiskEntryRow.id)))
        if not rows:
            raise LedgerError("ledger.none_for_pr", number=int(number))
        return rows
    key = text.lower().removeprefix(KEY_PREFIX.lower())
    if len(key) < 4 or not key.isalnum():
        raise LedgerError("ledger.bad_ref", ref=ref)
    rows = list(session.scalars(select(RiskEntryRow).where(RiskEntryRow.key.startswith(key)).limit(2)))
    if not rows:
        raise LedgerError("ledger.unknown", ref=ref)
    if len(rows) > 1:
        raise LedgerError("ledger.ambiguous", ref=ref)
    return rows


def close_entry(
    db: Database, ref: str, state: str, actor: str, reason: str, now: datetime, repo: str | None = None
) -> list[RiskEntryRow]:
    """Mark the entries `ref` names resolved or accepted by `actor`, for `reason`; audited. Raises
    LedgerError for an unknown reference or a state that is not resolved/accepted."""
    if state not in CLOSED_STATES:
        raise LedgerError("ledger.bad_state", state=state)
    with db.session() as session:
        rows = find_entries(session, repo, ref)
        for row in rows:
            row.state, row.state_at, row.closed_by, row.closed_reason = state, now, actor[:200], reason
            row.updated_at = now
            session.add(RiskEventRow(entry_id=row.id, action=state, actor=actor[:200], reason=reason, at=now))
        return rows


def unlink(
    db: Database, ref: str, pr_number: int, actor: str, reason: str, now: datetime, repo: str | None = None
) -> list[RiskEntryRow]:
    """Undo the link between the entries `ref` names and the follow-up PR `pr_number` (kept as undone, so
    maintenance does not link them again); their states are derived again. Raises LedgerError when no
    such live link exists."""
    with db.session() as session:
        rows = find_entries(session, repo, ref)
        links = session.scalars(
            select(RiskLinkRow).where(
                RiskLinkRow.entry_id.in_([row.id for row in rows]),
                RiskLinkRow.pr_number == pr_number,
                RiskLinkRow.undone_at.is_(None),
            )
        ).all()
        if not links:
            raise LedgerError("ledger.no_link", ref=ref, number=pr_number)
        for link in links:
            link.undone_at, link.undone_by, link.undone_reason = now, actor[:200], reason
            session.add(
                RiskEventRow(
                    entry_id=link.entry_id,
                    action="unlinked",
                    actor=actor[:200],
                    reason=reason,
                    pr_number=pr_number,
                    at=now,
                )
            )
        session.flush()
        _derive_states(session, {link.entry_id for link in links}, now)
        return [row for row in rows if row.id in {link.entry_id for link in links}]


# --- reading the ledger --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LinkView:
    number: int
    kind: str
    detail: str
    linked_at: datetime
    undone: bool


@dataclass(frozen=True, slots=True)
class EntryView:
    """An entry as answers and reports show it, with its live links (and undone ones, marked)."""

    key: str
    repo: str
    number: int
    category: str
    severity: str
    texts: dict[str, str]
    evidence: str
    file: str
    symbol: str
    state: str
    state_at: datetime
    raised_at: datetime
    closed_by: str | None
    closed_reason: str | None
    links: tuple[LinkView, ...]

    @property
    def display_key(self) -> str:
        return display_key(self.key)

    def text(self, language: str) -> str:
        return str(self.texts.get(language) or next(iter(self.texts.values()), ""))

    def live_links(self) -> tuple[LinkView, ...]:
        return tuple(link for link in self.links if not link.undone)

    def open_at(self, moment: datetime) -> bool:
        """Whether the entry was unresolved at `moment`: open now, or closed only after it."""
        return self.state in OPEN_STATES or (self.state in CLOSED_STATES and self.state_at >= moment)


_ORDER = {"high": 0, "medium": 1, "low": 2}


def entry_views(
    session: Session,
    *where: Any,
    limit: int | None = None,
    linked_since: datetime | None = None,
    linked_until: datetime | None = None,
) -> list[EntryView]:
    """Entries matching `where` (RiskEntryRow/RepoRow conditions) with their links (only those made in
    [linked_since, linked_until) when given: a past week's report shows no later follow-up), most severe
    and then oldest first."""
    entry = RiskEntryRow
    # Columns, not ORM objects: a report reads a month of a busy repo's entries (a third of its reuse).
    statement = (
        select(
            entry.id,
            entry.key,
            entry.pr_number,
            entry.category,
            entry.severity,
            entry.texts,
            entry.evidence,
            entry.file,
            entry.symbol,
            entry.state,
            entry.state_at,
            entry.raised_at,
            entry.closed_by,
            entry.closed_reason,
            RepoRow.full_name,
        )
        .join(RepoRow, RepoRow.id == RiskEntryRow.repo_id)
        .where(*where)
        .order_by(RiskEntryRow.raised_at, RiskEntryRow.pr_number, RiskEntryRow.id)
    )
    rows = list(session.execute(statement).all())
    rows.sort(key=lambda row: _ORDER.get(row[4], 3))
    if limit is not None:
        rows = rows[:limit]
    links: dict[int, list[LinkView]] = defaultdict(list)
    if rows:
        link = RiskLinkRow
        for entry_id, number, kind, detail, linked_at, undone_at in session.execute(
            select(link.entry_id, link.pr_number, link.kind, link.detail, link.linked_at, link.undone_at)
            .where(
                RiskLinkRow.entry_id.in_([row[0] for row in rows]),
                *(() if linked_since is None else (RiskLinkRow.linked_at >= linked_since,)),
                *(() if linked_until is None else (RiskLinkRow.linked_at < linked_until,)),
            )
            .order_by(RiskLinkRow.linked_at, RiskLinkRow.pr_number)
        ):
            links[entry_id].append(LinkView(number, kind, detail, linked_at, undone_at is not None))
    # Read by position (the columns' order above): by name costs about ten times as much per column,
    # and a question about a busy repo's risks reads thousands of entries.
    return [
        EntryView(
            row[1],
            row[14],
            row[2],
            row[3],
            row[4],
            dict(row[5]),
            row[6],
            row[7],
            row[8],
            row[9],
            row[10],
            row[11],
            row[12],
            row[13],
            tuple(links.get(row[0], ())),
        )
        for row in rows
    ]


def count_entries(session: Session, *where: Any) -> int:
    statement = (
        select(func.count()).select_from(RiskEntryRow).join(RepoRow, RepoRow.id == RiskEntryRow.repo_id)
    )
    return int(session.scalar(statement.where(*where)) or 0)


def repo_is(repo: str) -> Any:
    return RepoRow.full_name == repo.lower()


def open_where(repo: str, modules: Sequence[str] = (), as_of: datetime | None = None) -> list[Any]:
    """Conditions for the unresolved entries of `repo` (of PRs in `modules`, when given); with `as_of`,
    those raised before it and unresolved then (open now, or closed only since)."""
    if as_of is None:
        conditions: list[Any] = [repo_is(repo), RiskEntryRow.state.in_(OPEN_STATES)]
    else:
        conditions = [
            repo_is(repo),
            RiskEntryRow.raised_at < as_of,
            or_(
                RiskEntryRow.state.in_(OPEN_STATES),
                and_(RiskEntryRow.state.in_(CLOSED_STATES), RiskEntryRow.state_at > as_of),
            ),
        ]
    return [*conditions, in_modules(modules)] if modules else conditions


def in_modules(modules: Sequence[str]) -> Any:
    """Entries of PRs in one of `modules`. The modules are a JSON array: matched on its text, which
    both databases can do (module names are plain words, so `"name"` cannot match inside another)."""
    text = cast(RiskEntryRow.modules, String)
    return or_(*(text.like(f'%"{m.lower()}"%') for m in sorted(set(modules))))


@dataclass(frozen=True, slots=True)
class WeekFollowUp:
    """The follow-up of a week (for the report's section): entries resolved or accepted in the week,
    entries linked by PRs merged in it (most severe first), and the recent high/medium entries still
    unresolved at its end."""

    resolved: tuple[EntryView, ...]
    followed: tuple[EntryView, ...]
    still_open: tuple[EntryView, ...]
    open_total: int


HORIZON = timedelta(weeks=4)  # "still open" looks back this far before the week: older risks are counted
STILL_OPEN_SHOWN = 5


def week_follow_up(session: Session, repo: str, start: datetime, end: datetime) -> WeekFollowUp:
    """The ledger as it stood at the end of [start, end) for the report of that week."""
    resolved = entry_views(
        session,
        repo_is(repo),
        RiskEntryRow.state.in_(CLOSED_STATES),
        RiskEntryRow.state_at >= start,
        RiskEntryRow.state_at < end,
        linked_until=end,
    )
    done = {view.key for view in resolved}
    # The linked entries' ids first, as a list: given the subquery, SQLite tests every entry of the repo
    # against it (3 ms for a busy repo's week without a single link).
    linked_ids = session.scalars(
        select(RiskLinkRow.entry_id)
        .where(RiskLinkRow.linked_at >= start, RiskLinkRow.linked_at < end, RiskLinkRow.undone_at.is_(None))
        .distinct()
    ).all()
    followed = [
        view
        # the follow-ups that landed in the week, most severe first (entry_views' order); earlier ones
        # were the news of earlier reports
        for view in (
            entry_views(
                session, repo_is(repo), RiskEntryRow.id.in_(linked_ids), linked_since=start, linked_until=end
            )
            if linked_ids
            else ()
        )
        if view.state != "withdrawn" and view.key not in done
    ]
    entry = RiskEntryRow
    # Unresolved at the week's end (`EntryView.open_at`), counted and cut to the shown ones in SQL: four
    # weeks of a busy repo hold hundreds of such entries, and building each was most of a reused report.
    # The states are listed (withdrawn is none of them) so that SQLite reads the (repo, state, raised_at)
    # index over the four weeks rather than every entry of the repo.
    recent = (
        repo_is(repo),
        entry.state.in_((*OPEN_STATES, *CLOSED_STATES)),
        entry.severity.in_(("high", "medium")),
        entry.raised_at >= start - HORIZON,
        entry.raised_at < start,
        or_(entry.state.in_(OPEN_STATES), and_(entry.state.in_(CLOSED_STATES), entry.state_at >= end)),
    )
    # Oldest first; of one PR's entries raised together, the most severe first (entry_views' order).
    severity = case(_ORDER, value=entry.severity, else_=len(_ORDER))
    shown = session.scalars(
        select(entry.id)
        .join(RepoRow, RepoRow.id == entry.repo_id)
        .where(*recent)
        .order_by(entry.raised_at, entry.pr_number, severity, entry.id)
        .limit(STILL_OPEN_SHOWN)
    ).all()
    still_open = (
        sorted(
            entry_views(session, entry.id.in_(shown), linked_until=end),
            key=lambda v: (v.raised_at, v.number, _ORDER.get(v.severity, len(_ORDER))),
        )
        if shown
        else []
    )
    return WeekFollowUp(
        tuple(resolved),
        tuple(followed),
        tuple(still_open),
        count_entries(session, *recent) if shown else 0,
    )
