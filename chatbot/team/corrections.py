"""Corrections of a PR's analysis in words, the same on every platform and in `prhub chat`:
"#6512 重要性应该更高/更低", "#6512 这不是破坏性变更", "#6512 漏了风险：…", "importance of #123 should be
higher", "#123 is not breaking", "#123 missed a risk: …".

Each is stored by who and when (the audit trail) and applied wherever the analysis is shown: answers,
PR cards and the weekly report (whose fingerprint includes the corrections, so it is rebuilt), marked
as corrected. An importance correction moves the PR by `IMPORTANCE_STEP` (readers disagreeing count
one each, the latest word of each reader); the repo's calibration (`chatbot/team/calibration.py`)
shifts every analysis of the classes that corrections keep moving.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from chatbot.analysis.types import Analysis, Risk
from chatbot.messages import Language, say
from chatbot.reports.builder import AnalyzedPR
from chatbot.store.db import Database
from chatbot.store.feedback import CalibrationRow, CorrectionRow
from chatbot.store.schema import RepoRow
from chatbot.team.reading import Reader

IMPORTANCE_STEP = 2.0  # what one reader's "should be higher" moves a PR's importance by
RISK_CHARS = 300
Kind = Literal["importance", "breaking", "risk"]

# A PR reference: "#6512", "verl#6512", "owner/name#6512", "PR 6512"; a bare number only first.
_PR = re.compile(
    r"(?:(?P<repo>[A-Za-z][\w.-]*/[\w.-]+|[A-Za-z][\w.-]*(?=#))\s*)?#\s*(?P<number>\d+)"
    r"|\bPR\s*#?(?P<pr>\d+)|^\s*(?P<bare>\d{2,7})(?!\d)",
    re.I,
)
_IMPORTANCE = re.compile(r"重要性|重要程度|重要度|重要|importan(?:ce|t)|rank(?:ed|ing)?|priority|score", re.I)
_HIGHER = re.compile(
    r"更高|高一些|高一点|调高|提高|提升|偏低|太低|过低|低估|更重要|不够高|"
    r"higher|raise|increase|bump(?:ed)? up|more important|too low|underrated|under-?estimated",
    re.I,
)
_LOWER = re.compile(
    r"更低|低一些|低一点|调低|降低|偏高|太高|过高|高估|不重要|没那么重要|不该这么高|"
    r"lower|decrease|reduce|less important|too high|overrated|over-?estimated|not (?:that |so )?important",
    re.I,
)
# A correction says the PR is (or is not) breaking: the word after a copula ("这不是破坏性变更", "#123 isn't
# a breaking change"). The word alone is a question's filter ("trl 六月的破坏性变更", "只看破坏性变更").
_BREAKING = re.compile(
    r"(?:是|算|属于|标为|标成|当成|并非)\s*(?:一个|一项|个)?\s*(?:破坏性|不兼容)"
    r"|\b(?:is|are|was|were|isn['’]t|aren['’]t|wasn['’]t)\b(?:\s+(?:not|a|an|really|actually))*"
    r"\s+(?:breaking|backwards?[ -]incompatible)",
    re.I,
)
_NOT = re.compile(
    r"不是|并不是|并非|不算|不属于|没有|不含|不包含|无|"
    r"\bnot\b|n['’]t\b|\bno\b|\bnon[ -]?breaking|\bnever\b",
    re.I,
)
_RISK = re.compile(
    r"(?:漏了|漏掉了?|遗漏了?|少了|缺了|缺少|还有|另有|补充)(?:一个|一条|个|条)?风险|风险(?:漏了|漏掉了?|遗漏了?)|"
    r"(?:missed|missing|missed out|forgot|overlooked|another|one more|an? (?:extra|additional))\s+(?:a\s+)?risks?|"
    r"risks?\s+(?:is\s+|was\s+)?(?:missed|missing|overlooked)",
    re.I,
)


@dataclass(frozen=True, slots=True)
class CorrectionCommand:
    """A correction in words: the PR (repo as written, if any; None: the one under discussion), its
    kind and value (importance higher/lower, breaking no/yes, a missed risk's text)."""

    kind: Kind
    value: str
    number: int | None
    repo: str | None
    text: str = ""


def _pr_ref(text: str) -> tuple[int | None, str | None, str]:
    """The PR `text` names, the repo written with it, and the text without the reference."""
    match = _PR.search(text)
    if match is None:
        return None, None, text
    number = match.group("number") or match.group("pr") or match.group("bare")
    rest = (text[: match.start()] + " " + text[match.end() :]).strip()
    return int(number), match.group("repo"), rest


def parse_correction(text: str) -> CorrectionCommand | None:
    """The correction `text` makes, or None when it makes none. A missed risk needs its words after
    the phrase ("漏了风险：显存会翻倍"); without them it is no correction ("漏了风险吗？" is a question)."""
    if len(text) > 1000:
        return None
    number, repo, rest = _pr_ref(text)
    risk = _RISK.search(rest)
    if risk is not None:
        words = rest[risk.end() :].lstrip(" :：,，-—").strip()
        if not words or words.rstrip("?？").strip() == "" or words.endswith(("?", "？", "吗", "么")):
            return None
        return CorrectionCommand("risk", "missed", number, repo, " ".join(words.split())[:RISK_CHARS])
    if not _asserts(text):
        return None
    if _BREAKING.search(rest):
        value = "no" if _NOT.search(rest) else "yes"
        return CorrectionCommand("breaking", value, number, repo)
    if _IMPORTANCE.search(rest) or re.search(r"underrated|overrated|低估|高估", rest, re.I):
        higher, lower = _HIGHER.search(rest), _LOWER.search(rest)
        if higher and lower:  # the first one said wins: "太低了，应该更高" / "更低？不，更高" are rare
            return CorrectionCommand(
                "importance", "higher" if higher.start() < lower.start() else "lower", number, repo
            )
        if higher or lower:
            return CorrectionCommand("importance", "higher" if higher else "lower", number, repo)
    return None


_ASKS = re.compile(
    r"\s*(?:(?:is|are|does|do|did|was|were|has|have|which|what|why|how|who|when)\b"
    r"|哪|为什么|为何|什么|怎么|有没有|是否|会不会|是不是)",
    re.I,
)


_ASKS_ANYWHERE = re.compile(
    r"是不是|是否|为什么|为何|会不会|有没有|怎么|哪些|哪个|哪几|\bwhy\b|\bwhich\b", re.I
)


def _asserts(text: str) -> bool:
    """Whether `text` states something rather than asks it ("#6512 是破坏性变更吗？", "why is #6512
    ranked so high?", "#6512 的重要性是不是太低了" and "哪些 PR 比 #6512 更重要" ask)."""
    stripped = text.strip()
    if stripped.endswith(("?", "？", "吗", "么", "嘛")):
        return False
    return not (_ASKS.match(stripped) or _ASKS_ANYWHERE.search(stripped))


# Storage ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CorrectionView:
    id: int
    repo: str
    number: int
    kind: str
    value: str
    text: str | None
    platform: str
    user_id: str
    name: str
    source: str
    created_at: datetime


def record_correction(
    db: Database,
    repo: str,
    command: CorrectionCommand,
    number: int,
    reader: Reader,
    source: str,
    now: datetime,
) -> bool:
    """Store `reader`'s correction of `repo`#`number`; False when it repeats their latest correction of
    that kind (a duplicate delivery, a second "should be higher"), which is kept once. Raises
    LookupError for a repo not in the index."""
    with db.session() as session:
        repo_id = session.scalar(select(RepoRow.id).where(RepoRow.full_name == repo.lower()))
        if repo_id is None:
            raise LookupError(repo)
        latest = session.scalars(
            select(CorrectionRow)
            .where(
                CorrectionRow.repo_id == repo_id,
                CorrectionRow.pr_number == number,
                CorrectionRow.kind == command.kind,
                CorrectionRow.platform == reader.platform[:20],
                CorrectionRow.user_id == reader.user_id[:200],
            )
            .order_by(CorrectionRow.id.desc())
            .limit(1)
        ).first()
        if latest is not None and latest.value == command.value and (latest.text or "") == command.text:
            return False
        session.add(
            CorrectionRow(
                repo_id=repo_id,
                pr_number=number,
                kind=command.kind,
                value=command.value,
                text=command.text or None,
                platform=reader.platform[:20],
                workspace=reader.workspace[:200],
                user_id=reader.user_id[:200],
                user_name=reader.name[:200],
                source=source[:1000],
                created_at=now,
            )
        )
    return True


def correction_views(
    session: Session, repo: str | None = None, since: datetime | None = None, kind: str | None = None
) -> list[CorrectionView]:
    """Stored corrections, oldest first: of a repo, since a time, of one kind."""
    statement = select(CorrectionRow, RepoRow.full_name).join(RepoRow, RepoRow.id == CorrectionRow.repo_id)
    if repo:
        statement = statement.where(RepoRow.full_name == repo.lower())
    if since is not None:
        statement = statement.where(CorrectionRow.created_at >= since)
    if kind:
        statement = statement.where(CorrectionRow.kind == kind)
    rows = session.execute(statement.order_by(CorrectionRow.created_at, CorrectionRow.id)).all()
    return [
        CorrectionView(
            r.id,
            name,
            r.pr_number,
            r.kind,
            r.value,
            r.text,
            r.platform,
            r.user_id,
            r.user_name,
            r.source,
            r.created_at,
        )
        for r, name in rows
    ]


# Applying ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PRCorrection:
    """What the corrections of one PR say, together: the importance direction (readers' latest words,
    summed: +2 is two readers saying higher), breaking or not (the latest word), the missed risks."""

    importance: int = 0
    breaking: bool | None = None
    risks: tuple[str, ...] = ()


def summarize(views: Iterable[CorrectionView]) -> dict[int, PRCorrection]:
    """Each PR's corrections (`views` oldest first) as one `PRCorrection`."""
    latest_importance: dict[int, dict[tuple[str, str], int]] = defaultdict(dict)
    breaking: dict[int, bool] = {}
    risks: dict[int, list[str]] = defaultdict(list)
    for view in views:
        if view.kind == "importance":
            latest_importance[view.number][(view.platform, view.user_id)] = (
                1 if view.value == "higher" else -1
            )
        elif view.kind == "breaking":
            breaking[view.number] = view.value == "yes"
        elif view.kind == "risk" and view.text and view.text not in risks[view.number]:
            risks[view.number].append(view.text)
    numbers = set(latest_importance) | set(breaking) | set(risks)
    return {
        n: PRCorrection(sum(latest_importance[n].values()), breaking.get(n), tuple(risks[n])) for n in numbers
    }


@dataclass(frozen=True, slots=True)
class Calibration:
    """A repo's learned importance offsets by change class ("type:fix", "module:trainer")."""

    offsets: dict[str, float] = field(default_factory=dict)

    def offset(self, analysis: Analysis) -> float:
        """The shift of `analysis`'s importance: its change type's offset plus the mean of its modules'."""
        shift = self.offsets.get(f"type:{analysis.change_type}", 0.0)
        modules = [self.offsets[f"module:{m}"] for m in analysis.modules if f"module:{m}" in self.offsets]
        return shift + (sum(modules) / len(modules) if modules else 0.0)


def apply(
    analysis: Analysis, correction: PRCorrection | None, calibration: Calibration | None = None
) -> Analysis:
    """`analysis` as shown: calibrated, then with its corrections applied and marked."""
    importance = analysis.importance + (calibration.offset(analysis) if calibration else 0.0)
    if correction is None:
        if importance == analysis.importance:
            return analysis
        return replace(analysis, importance=_clamp(importance))
    corrected: list[str] = list(analysis.corrected)
    if correction.importance:
        importance += IMPORTANCE_STEP * correction.importance
        corrected.append("importance")
    risks, texts = list(analysis.risks), {k: v for k, v in analysis.texts.items()}
    breaking = analysis.breaking
    if correction.breaking is not None and correction.breaking != analysis.breaking:
        breaking = correction.breaking
        corrected.append("breaking")
        if not breaking:
            keep = [i for i, risk in enumerate(risks) if risk.category != "breaking-change"]
            risks = [risks[i] for i in keep]
            texts = {
                k: replace(t, risks=tuple(t.risks[i] for i in keep if i < len(t.risks)))
                for k, t in texts.items()
            }
    if correction.risks:
        corrected.append("risk")
        # An analysis stored in one language gets texts of its own, for the mark to be in each language.
        texts = texts or {language: analysis.localized(language) for language in ("zh", "en")}
        for text in correction.risks:
            risks.append(Risk("other", "medium", text))
            texts = {
                k: replace(t, risks=(*t.risks, f"{text}{say('correction.mark', _language(k))}"))
                for k, t in texts.items()
            }
    return replace(
        analysis,
        importance=_clamp(importance),
        breaking=breaking,
        risks=tuple(risks),
        texts=texts,
        corrected=tuple(dict.fromkeys(corrected)),
    )


def _language(key: str) -> Language:
    return "en" if key == "en" else "zh"


def _clamp(importance: float) -> float:
    return round(min(10.0, max(0.0, importance)), 1)


def stored_offsets(session: Session, repo: str) -> dict[str, float]:
    """The repo's stored calibration (`prhub calibrate`): importance offsets by change class."""
    return {
        row.key: row.offset
        for row in session.scalars(
            select(CalibrationRow)
            .join(RepoRow, RepoRow.id == CalibrationRow.repo_id)
            .where(RepoRow.full_name == repo.lower())
        )
    }


@dataclass(slots=True)
class Corrector:
    """The corrections and calibration of one repo, loaded once, applied to many records."""

    corrections: dict[int, PRCorrection]
    calibration: Calibration

    @classmethod
    def load(cls, session: Session, repo: str) -> Corrector:
        return cls(summarize(correction_views(session, repo)), Calibration(stored_offsets(session, repo)))

    def analysis(self, number: int, analysis: Analysis) -> Analysis:
        return apply(analysis, self.corrections.get(number), self.calibration)

    @property
    def changes_nothing(self) -> bool:
        """Whether the repo has neither corrections nor a calibration: analyses are shown as stored (and
        may be ranked in SQL by their stored scores)."""
        return not self.corrections and not self.calibration.offsets

    def records(self, records: Sequence[AnalyzedPR]) -> list[AnalyzedPR]:
        """`records` with their analyses as shown (the same objects where nothing changes)."""
        if self.changes_nothing:
            return list(records)
        out: list[AnalyzedPR] = []
        for record in records:
            shown = self.analysis(record.number, record.analysis)
            out.append(record if shown is record.analysis else AnalyzedPR(record.pr, shown))
        return out


def corrections_signature(session: Session, repo: str, numbers: Collection[int]) -> str:
    """Changes whenever a correction of one of `repo`'s PRs `numbers` is added or the repo's calibration
    is learned again: part of the weekly report's fingerprint, so the next report is rebuilt with them."""
    repo_id = select(RepoRow.id).where(RepoRow.full_name == repo.lower()).scalar_subquery()
    # The repo's corrections are read whole (`Corrector.load` reads them for every report and answer)
    # and matched to the PRs here: an IN list of a week's 300 numbers on each check that a stored report
    # is current cost 7 ms of CPU on PostgreSQL.
    wanted = set(numbers)
    ids = [
        correction_id
        for number, correction_id in session.execute(
            select(CorrectionRow.pr_number, CorrectionRow.id).where(CorrectionRow.repo_id == repo_id)
        )
        if number in wanted
    ]
    corrections = (len(ids), max(ids, default=None))
    calibrated = session.execute(
        select(func.count(), func.max(CalibrationRow.updated_at)).where(CalibrationRow.repo_id == repo_id)
    ).one()
    return f"corrections:{corrections[0]}:{corrections[1]}:{calibrated[0]}:{calibrated[1]}"


def correction_sentence(command: CorrectionCommand, number: int, language: Language) -> str:
    """What was recorded, in a sentence."""
    key = (
        f"correction.done.{command.kind}.{command.value}"
        if command.kind != "risk"
        else "correction.done.risk"
    )
    return say(key, language, number=number, text=command.text)
