"""Per-repo calibration of the importance weights from readers' importance corrections (`prhub
calibrate REPO`).

Deliberately simple and inspectable: each correction says a PR's importance should be higher or lower
(`IMPORTANCE_STEP` points per reader). A change class that corrections keep moving one way gets an
offset: first by change type ("type:refactor"), then, from what the type leaves unexplained, by module
("module:trainer"), each shrunk towards zero by `SHRINK` pseudo-corrections so one correction moves a
class by a third of a step, and capped at `MAX_OFFSET`. The offsets are stored as data (`calibrations`)
and applied to every analysis of the repo where it is shown (`Calibration.offset`).

Agreement is measured honestly: a correction agrees with a calibration when the calibration alone (not
the PR's own correction) moves that PR at least `AGREES` points the way the correction says. It is
reported before (the stored calibration), after (the new one, on the corrections it learned from), and
held out (each correction judged by a calibration learned from all the others), the last being what
to expect of PRs nobody corrected yet.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete
from sqlalchemy.orm import Session

from chatbot.analysis.types import Analysis
from chatbot.store.analyses import current_analysis
from chatbot.store.db import Database
from chatbot.store.feedback import CalibrationRow
from chatbot.store.index import PRIndex
from chatbot.team.corrections import IMPORTANCE_STEP, Calibration, correction_views, stored_offsets, summarize

SHRINK = 2.0
MAX_OFFSET = 3.0
AGREES = 0.5  # points a calibration must move a corrected PR, its way, to agree with the correction
NEGLIGIBLE = 0.05  # offsets smaller than this are not stored


@dataclass(frozen=True, slots=True)
class Sample:
    """One corrected PR: which way readers moved it (+n higher, -n lower) and its analysis as stored."""

    number: int
    direction: int
    analysis: Analysis


@dataclass(frozen=True, slots=True)
class Agreement:
    agreeing: int
    total: int

    @property
    def share(self) -> float:
        return self.agreeing / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class CalibrationResult:
    repo: str
    samples: int
    before: Agreement
    after: Agreement
    held_out: Agreement
    previous: dict[str, float]
    offsets: dict[str, float]


def samples(session: Session, repo: str) -> list[Sample]:
    """The repo's PRs with an importance correction that does not cancel out, with their stored
    analyses (uncorrected, uncalibrated)."""
    index = PRIndex(session)
    repo_row = index.repo(repo)
    if repo_row is None:
        raise LookupError(repo)
    found = []
    for number, correction in sorted(summarize(correction_views(session, repo, kind="importance")).items()):
        if not correction.importance:
            continue
        row = index.pull_request_row(repo_row, number)
        stored = current_analysis(session, row) if row is not None else None
        if stored is not None:
            found.append(Sample(number, correction.importance, stored.analysis))
    return found


def _shrunk(total: float, n: int) -> float:
    return max(-MAX_OFFSET, min(MAX_OFFSET, total / (n + SHRINK)))


def learn(found: Sequence[Sample]) -> Calibration:
    """Offsets by change type, then by module from what the type leaves unexplained."""
    wanted = {s.number: s.direction * IMPORTANCE_STEP for s in found}
    by_type: dict[str, list[float]] = defaultdict(list)
    for s in found:
        by_type[s.analysis.change_type].append(wanted[s.number])
    offsets = {f"type:{t}": _shrunk(sum(v), len(v)) for t, v in by_type.items()}
    by_module: dict[str, list[float]] = defaultdict(list)
    for s in found:
        left = wanted[s.number] - offsets[f"type:{s.analysis.change_type}"]
        for module in s.analysis.modules:
            by_module[module].append(left)
    offsets |= {f"module:{m}": _shrunk(sum(v), len(v)) for m, v in by_module.items()}
    return Calibration({k: round(v, 2) for k, v in sorted(offsets.items()) if abs(v) >= NEGLIGIBLE})


def agreement(found: Sequence[Sample], calibration: Calibration) -> Agreement:
    agreeing = sum(1 for s in found if s.direction * calibration.offset(s.analysis) >= AGREES)
    return Agreement(agreeing, len(found))


def held_out(found: Sequence[Sample]) -> Agreement:
    """Each correction judged by a calibration learned from all the others."""
    agreeing = sum(agreement([s], learn([o for o in found if o.number != s.number])).agreeing for s in found)
    return Agreement(agreeing, len(found))


def calibrate(db: Database, repo: str, now: datetime, *, store: bool = True) -> CalibrationResult:
    """Learn `repo`'s calibration from its importance corrections and (with `store`) keep it, replacing
    the one before. Raises LookupError for a repo not in the index."""
    with db.session() as session:
        found = samples(session, repo)
        previous = stored_offsets(session, repo)
        calibration = learn(found)
        result = CalibrationResult(
            repo,
            len(found),
            agreement(found, Calibration(previous)),
            agreement(found, calibration),
            held_out(found),
            previous,
            dict(calibration.offsets),
        )
        if store:
            repo_row = PRIndex(session).repo(repo)
            assert repo_row is not None
            session.execute(delete(CalibrationRow).where(CalibrationRow.repo_id == repo_row.id))
            session.add_all(
                CalibrationRow(
                    repo_id=repo_row.id,
                    key=key,
                    offset=offset,
                    corrections=sum(1 for s in found if _covers(key, s.analysis)),
                    updated_at=now,
                )
                for key, offset in calibration.offsets.items()
            )
    return result


def _covers(key: str, analysis: Analysis) -> bool:
    kind, _, name = key.partition(":")
    return analysis.change_type == name if kind == "type" else name in analysis.modules
