"""Composing answers from retrieved records only: every PR cited exists in the index and matches the
question; the repo, the exact window ("as of" while it is not over) and the index's freshness are named."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from chatbot.analysis.types import SEVERITIES, ConfigFact, Risk
from chatbot.messages import Language, join, say
from chatbot.models import (
    Block,
    BulletList,
    Context,
    Fields,
    Heading,
    Inline,
    Paragraph,
    Reply,
    Span,
    bold,
    link,
    plain,
)
from chatbot.prose import prose, readable_in, without_references
from chatbot.qa.query import FEW, LIST_MAX, Query, Window
from chatbot.qa.retrieve import (
    COMPARE_SHOWN,
    LIST_LIMIT,
    Evidence,
    asked_patterns,
    config_scope,
    open_days,
)
from chatbot.qa.reverts import Reverted
from chatbot.reports.builder import AnalyzedPR, clean_title, names_someone, risk_evidence
from chatbot.reports.model import RiskObservation

# A risk answer over PRs a question narrowed: at most this many risk lines (unless the question asks for
# a count), and of one PR at most MECHANISMS_PER_PR.
MECHANISMS_SHOWN = 8
MECHANISMS_PER_PR = 2


@dataclass(frozen=True, slots=True)
class Answer:
    """The reply, and the PR numbers it cites in order (what `--json` and the tests check)."""

    query: Query
    reply: Reply
    cited: tuple[int, ...] = ()
    window: Window | None = None
    count: int | None = None  # how many PRs the answer is about (its footer's "共 N 个 PR")
    # The people the answer ranks, first first (a stats or people answer): what "the top one" and
    # "第二个人" in a follow-up name.
    people: tuple[str, ...] = ()


def window_text(window: Window | None, now: datetime, tz: ZoneInfo, language: Language) -> str:
    """`2026-06-15 至 2026-06-21`, one date for one day, times when the window does not start at
    midnight (`最近 3 天`), and `（截至 06-22 09:00）` while the window is not over."""
    if window is None:
        return say("qa.window.all_time", language)
    start, end = window.start.astimezone(tz), window.end.astimezone(tz)
    if start.time() == end.time() == datetime.min.time():
        first, final = f"{start:%Y-%m-%d}", f"{end - timedelta(days=1):%Y-%m-%d}"
    else:
        first, final = f"{start:%Y-%m-%d %H:%M}", f"{end:%Y-%m-%d %H:%M}"
    if first == final:
        return first
    if window.start <= now < window.end:
        return say(
            "qa.window.as_of", language, start=first, end=final, now=f"{now.astimezone(tz):%m-%d %H:%M}"
        )
    return say("qa.window", language, start=first, end=final)


def _where(risk: Risk, language: Language) -> str:
    """ " (file: line)" after a risk's sentence: where it shows, without what the sentence already says
    (as the weekly report words it) and without the PR's title (the line names the PR)."""
    evidence = " ".join(risk.evidence.split())
    shown = "" if evidence.lower().startswith("title:") else risk_evidence(evidence, risk.text)
    return say("qa.risk.where", language, evidence=shown) if shown else ""


def duration_text(days: float, language: Language) -> str:
    """`days` as people say it: hours under a day ("5 小时", "5 h"), else days to one decimal."""
    if days < 1:
        return say("qa.hours", language, n=max(round(days * 24), 1))
    return say("qa.days", language, n=f"{days:.1f}".removesuffix(".0"))


def pr_span(record: AnalyzedPR) -> Span:
    return link(f"#{record.number}", record.pr.header.html_url)


def pr_line(record: AnalyzedPR, language: Language, extra: str | None = None) -> Inline:
    a = record.analysis
    title = clean_title(a.title_in(language) or record.pr.title)
    if not readable_in(title, language):
        # A Chinese title in an English answer: the analysis' English gist says what the PR does.
        gist = without_references(a.localized(language).gist, record.pr.header.repo)
        title = gist if gist and readable_in(gist, language) else title
    text = say(
        "qa.pr_line",
        language,
        title=title,
        modules=", ".join(a.modules) or "-",
        importance=f"{a.importance:.1f}"
        + (say("correction.mark", language) if "importance" in a.corrected else ""),
    )
    spans: list[Span] = [pr_span(record), plain(" " + text)]
    if extra:
        spans += [plain(" — "), *prose(extra)]  # a key point's code as code spans
    return tuple(spans)


# How many of its key points a PR's "why" shows, and what marks one reporting a figure (a measured result).
WHY_POINTS = 3
_FIGURE = re.compile(r"\d(?:[\d.,]*)\s*(?:%|x\b|×|倍|gib|gb|mb|ms|tokens?/s|it/s|s\b|秒)", re.IGNORECASE)


# A configuration answer's line names at most CONFIG_KINDS_SHOWN kinds of a PR's config changes, and
# CONFIG_SHOWN of each; values are cut to CONFIG_VALUE_CHARS.
CONFIG_KINDS_SHOWN = 2
CONFIG_SHOWN = 3
CONFIG_VALUE_CHARS = 60


def _config_value(value: str) -> str:
    value = " ".join(value.replace("`", "").split())
    return value if len(value) <= CONFIG_VALUE_CHARS else value[: CONFIG_VALUE_CHARS - 1] + "…"


def config_text(facts: Sequence[ConfigFact], language: Language) -> str:
    """What a PR changed of the configuration a question asks about, from its analysis' facts, a clause
    a kind with the keys as code: "默认值变更：`retry.max_attempts` 3 → 5；新增配置项：`pool.size`"."""
    kinds: dict[str, list[ConfigFact]] = {}
    for fact in facts:
        kinds.setdefault(fact.kind, []).append(fact)
    clauses = []
    for kind, group in list(kinds.items())[:CONFIG_KINDS_SHOWN]:
        items = join(
            (
                say(
                    f"qa.config.item.{kind}",
                    language,
                    key=fact.key.replace("`", ""),
                    before=_config_value(fact.before),
                    after=_config_value(fact.after),
                )
                for fact in group[:CONFIG_SHOWN]
            ),
            language,
        )
        if len(group) > CONFIG_SHOWN:
            items += say("qa.config.more", language, n=len(group) - CONFIG_SHOWN, total=len(group))
        clauses.append(say(f"qa.config.{kind}", language, items=items))
    return ("；" if language == "zh" else "; ").join(clauses)


# The kinds of config fact that say what a key's value is (or what it is now called).
_VALUE_KINDS = ("default_changed", "added", "required", "renamed")
# How many earlier changes of an asked key follow its value now.
EARLIER_CHANGES_SHOWN = 3


def _key_form(key: str) -> str:
    """A key as compared across its spellings: "--max-inflight", "max_inflight" and "Max-Inflight" alike."""
    return key.strip("`").lower().lstrip("-").replace("-", "_")


def names_key(asked: str, key: str) -> bool:
    """Whether a fact's `key` is the key a question asks about: the same, or one ends with the other as
    its last dotted parts ("max_inflight" is `consumer.max_inflight`, "--max-inflight" is too)."""
    a, k = _key_form(asked), _key_form(key)
    return a == k or k.endswith("." + a) or a.endswith("." + k)


def config_values(
    records: Sequence[AnalyzedPR], keys: Sequence[str], language: Language, tz: ZoneInfo
) -> list[str]:
    """For each asked key, what its value is now by the newest PR of `records` whose analysis records
    it (old → new), then its earlier changes; or that none records it."""
    sentences = []
    for asked in keys:
        found = sorted(
            (
                (record.pr.header.merged_at or datetime.min.replace(tzinfo=tz), record, fact)
                for record in records
                for fact in record.analysis.config
                if fact.kind in _VALUE_KINDS
                and (names_key(asked, fact.key) or (fact.kind == "renamed" and names_key(asked, fact.before)))
            ),
            key=lambda found: found[0],
            reverse=True,
        )
        if not found:
            sentences.append(say("qa.config.value.none", language, key=asked))
            continue

        def slots(merged: datetime, record: AnalyzedPR, fact: ConfigFact) -> dict[str, object]:
            return {
                "key": fact.key,
                "before": _config_value(fact.before),
                "after": _config_value(fact.after),
                "number": record.number,
                "date": f"{merged.astimezone(tz):%Y-%m-%d}",
            }

        newest = found[0]
        sentence = say(f"qa.config.value.{newest[2].kind}", language, **slots(*newest))
        earlier = [
            say("qa.config.value.change", language, **slots(*change))
            for change in found[1 : 1 + EARLIER_CHANGES_SHOWN]
            if change[2].kind == "default_changed"
        ]
        if earlier:
            sentence += say("qa.config.value.earlier", language, changes=join(earlier, language))
        sentences.append(sentence)
    return sentences


class Composer:
    """Builds the reply for one question from its evidence."""

    def __init__(self, query: Query, window: Window | None, evidence: Evidence, now: datetime, tz: ZoneInfo):
        self.query, self.window, self.evidence, self.now, self.tz = query, window, evidence, now, tz
        self.language: Language = query.language
        self.cited: list[int] = []
        self.ranked_people: list[str] = []
        self.asked = asked_patterns(query)

    def _cite(self, records: Sequence[AnalyzedPR]) -> None:
        for record in records:
            if record.number not in self.cited:
                self.cited.append(record.number)

    def heading(self) -> Heading:
        return Heading(
            say(
                "qa.heading",
                self.language,
                repo=self.evidence.repo,
                window=window_text(self.window, self.now, self.tz, self.language),
            )
        )

    def footer(self, count: int | None = None) -> Context:
        synced = self.evidence.last_synced_at
        parts = [
            say("qa.freshness", self.language, synced=synced.astimezone(self.tz).strftime("%Y-%m-%d %H:%M"))
            if synced
            else say("qa.freshness.never", self.language)
        ]
        if count is not None:
            parts.insert(0, say("qa.count", self.language, n=count))
        return Context((plain(" · ".join(parts)),))

    @property
    def limit(self) -> int:
        """How many PRs a list shows: the count the question asked for (at most LIST_MAX), else
        LIST_LIMIT."""
        return min(self.query.limit or LIST_LIMIT, LIST_MAX)

    def listing(
        self,
        records: Sequence[AnalyzedPR],
        extra: str | None = None,
        total: int | None = None,
        reverted_by: Mapping[int, Reverted] | None = None,
    ) -> list[Block]:
        """The first of `records` one line each, and how many more there are of `total` (default: all
        of `records`; more when they are only the top the database ranked). A revert's line names the PR
        it reverted first (`reverted_by`, default: the evidence's)."""
        shown = list(records[: self.limit])
        items: list[Inline] = []
        reverts = self.evidence.reverted if reverted_by is None else reverted_by
        for record in shown:
            reverted = reverts.get(record.number)
            if reverted is not None:
                items.append(self._revert_line(record, reverted))
                continue
            self._cite([record])
            items.append(pr_line(record, self.language, self._extra(record, extra)))
        more = (len(records) if total is None else total) - len(shown)
        # "and N more" unless the question asked for no more than it shows
        if more > 0 and (self.query.limit is None or self.query.limit > len(shown)):
            items.append((plain(say("qa.more", self.language, n=more)),))
        blocks: list[Block] = [BulletList(tuple(items))]
        if self.query.asks_why and len(shown) == 1 and shown[0].number not in reverts:
            blocks += self.why(shown[0], verdict_shown=extra == "verdict")
        return blocks

    def why(self, record: AnalyzedPR, *, verdict_shown: bool = False) -> list[Block]:
        """Why one PR is the answer, from its analysis: the verdict and its reason (unless its line
        already gives them), its scores, what it does (its key points, those reporting a figure first
        after the opening one) and how to read it."""
        a = record.analysis
        texts = a.localized(self.language)
        scores = say(
            "qa.why.scores", self.language, importance=f"{a.importance:.1f}", insight=f"{a.insight:.1f}"
        )
        verdict = () if verdict_shown else (*prose(self._extra(record, "verdict") or ""), plain(" · "))
        blocks: list[Block] = [
            Heading(say("qa.why.title", self.language, number=record.number), 3),
            Paragraph((*verdict, plain(scores))),
        ]
        points = list(texts.key_points[:1])
        points += [p for p in texts.key_points[1:] if _FIGURE.search(p)]
        points += [p for p in texts.key_points[1:] if p not in points]
        points = [without_references(p, record.pr.header.repo) for p in points]
        if points[:WHY_POINTS]:
            blocks.append(BulletList(tuple(prose(p) for p in points[:WHY_POINTS])))
        if texts.reading_guide:
            blocks += [
                Paragraph((plain(say("qa.why.reading", self.language)),)),
                BulletList(tuple(prose(line) for line in texts.reading_guide)),
            ]
        return blocks

    def _revert_line(self, revert: AnalyzedPR, reverted: Reverted) -> Inline:
        """The PR a revert undid, then the revert: "#3425 Use vLLM colocate mode in GRPO（06-03 合并）— 被
        #3444 回滚（06-12）"."""
        for number in (reverted.number, revert.number):
            if number not in self.cited:
                self.cited.append(number)
        merged = f"{reverted.merged_at.astimezone(self.tz):%m-%d}" if reverted.merged_at else "-"
        reverted_on = revert.pr.header.merged_at
        return (
            link(f"#{reverted.number}", reverted.html_url),
            plain(
                " " + say("qa.revert.target", self.language, title=clean_title(reverted.title), merged=merged)
            ),
            plain(" — " + say("qa.revert.by", self.language)),
            pr_span(revert),
            plain(
                say(
                    "qa.revert.on",
                    self.language,
                    date=f"{reverted_on.astimezone(self.tz):%m-%d}" if reverted_on else "-",
                )
            ),
        )

    def understood(self) -> list[Block]:
        """What the question was read as searching for ("按 'PEFT' 搜索…"), when it searched for words."""
        # each word once, as the asker wrote it ("CI" rather than the module "ci")
        written = {w.lower(): w for w in self.query.understood}
        words = [written.get(w.lower(), w) for w in (*self.query.modules, *self.query.understood)]
        flags = [
            say(f"qa.understood.{flag}", self.language)
            for flag in ("breaking", "untested", "semantics")
            if getattr(self.query, flag)
        ]
        if self.evidence.config:
            # a filter on what the analyses recorded, not a search for "配置项"
            scope = config_scope(self.evidence.config_kinds)
            flags.append(say(f"qa.understood.config.{scope}", self.language))
            words = [w for w in dict.fromkeys(self.query.modules)]
        if not words and not flags:
            return []
        window = window_text(self.window, self.now, self.tz, self.language)
        if not words:
            # a filter, not a text search: "verl-project/verl 2026-05-01 至 2026-05-31 的破坏性变更："
            text = say(
                "qa.understood.filtered",
                self.language,
                filters=join(flags, self.language),
                repo=self.evidence.repo,
                window=window,
            )
            return [Paragraph((plain(text[:1].upper() + text[1:] if self.language == "en" else text),))]
        quoted = join([f"'{w}'" for w in dict.fromkeys(words)], self.language)
        if flags:
            # words searched among the filtered PRs: "按 'megatron' 搜索 verl … 的破坏性变更："
            text = say(
                "qa.understood.within",
                self.language,
                words=quoted,
                filters=join(flags, self.language),
                repo=self.evidence.repo,
                window=window,
            )
        else:
            text = say("qa.understood", self.language, words=quoted, repo=self.evidence.repo, window=window)
        return [Paragraph((plain(text),))]

    def _extra(self, record: AnalyzedPR, kind: str | None) -> str | None:
        """The line's addition in the asker's language: a key point, the verdict, or the author."""
        a = record.analysis
        texts = a.localized(self.language)
        merged = record.pr.header.merged_at
        if self.query.asks_when and merged is not None:
            return say("qa.merged_on", self.language, date=f"{merged.astimezone(self.tz):%Y-%m-%d}")
        if kind == "key_point" and record.number in self.evidence.config:
            # what the analysis records of the configuration change the question asks about
            return config_text(self.evidence.config[record.number], self.language)
        if kind == "key_point" and record.number in self.evidence.config_said:
            return ("；" if self.language == "zh" else "; ").join(
                self.evidence.config_said[record.number][:2]
            )
        if kind == "key_point":
            # the key point that speaks to most of what the question asks about (the first of those)
            points = texts.key_points
            if not points:
                return None
            return without_references(max(points, key=self._speaks_to), record.pr.header.repo)
        if kind == "author":
            return "@" + record.pr.header.author
        if kind == "size":
            pr = record.pr
            files = pr.changed_files or len(pr.files)
            return say(
                "qa.size" if files else "qa.size.lines",
                self.language,
                files=files,
                added=f"{pr.additions:,}",
                removed=f"{pr.deletions:,}",
            )
        if kind == "open":
            return say("qa.open", self.language, time=duration_text(open_days(record), self.language))
        if kind == "verdict":
            separator = "：" if self.language == "zh" else ": "
            return f"{say(f'pr.verdict.{a.verdict}', self.language)}{separator}{texts.verdict_reason}"
        return None

    def _speaks_to(self, point: str) -> int:
        """How many of the question's concepts, terms and paths `point` mentions."""
        text = point.lower()
        return sum(any(pattern.search(text) for pattern in group) for group in self.asked)

    def answer(self, blocks: list[Block], count: int | None = None) -> Answer:
        notes = [Paragraph((plain(note),)) for note in self.query.notes]
        reply = Reply((self.heading(), *notes, *self.understood(), *blocks, self.footer(count)))
        people = self.ranked_people or (
            [self.query.author] if self.query.intent == "author" and self.query.author else []
        )
        return Answer(self.query, reply, tuple(self.cited), self.window, count, tuple(people))

    # Intents -----------------------------------------------------------------------------------------

    def risks(self, observations: Sequence[RiskObservation] | None, source: tuple[str, int] | None) -> Answer:
        """Risk observations: the stored report's (`source` = its week and version), or, for a question
        that narrows the PRs, each PR's own risks as mechanisms (`mechanisms`)."""
        records = self.evidence.records
        if observations is None:
            return self.mechanisms()
        merged = list(observations)
        by_number = {r.number: r for r in records}
        blocks: list[Block] = [Heading(say("qa.risks.title", self.language), 2)]
        if not merged:
            blocks.append(Paragraph((plain(say("qa.risks.none", self.language)),)))
            return self.answer(blocks, len(records))
        repo = records[0].pr.repo if records else None
        items: list[Inline] = []
        for observation in merged[: self.query.limit or 6]:
            # as the report words it: one PR's mechanism, or the line gathering the untested PRs
            severity = say(f"report.severity.{observation.severity}", self.language)
            items.append((bold(f"[{severity}] "), *prose(observation.text, repo, by_number)))
            self._cite([by_number[n] for n in observation.prs if n in by_number])
        blocks.append(BulletList(tuple(items)))
        if source is not None:
            week, version = source
            blocks.append(
                Context((plain(say("qa.risks.from_report", self.language, week=week, version=version)),))
            )
        return self.answer(blocks, len(records))

    def mechanisms(self) -> Answer:
        """The matching PRs' risks one line each, as their analyses state them (what could break, and
        where), worst first: severity, then the PR's importance; at most MECHANISMS_PER_PR lines a PR.
        Untested changes, true of many PRs and saying little about any, are one line at the end. Asked
        for one severity (`Query.severity`), only its risks, untested changes among them; when there
        are none, that is said first, and the risks of the next lower severity follow."""
        records = self.evidence.records
        severity = self.query.severity
        lines: list[tuple[int, float, AnalyzedPR, Risk]] = []
        untested: list[AnalyzedPR] = []
        for record in records:
            own = [
                replace(risk, text=text)
                for risk, text in zip(record.analysis.risks, record.risk_texts(self.language), strict=True)
            ]
            if severity is None and any(risk.category == "missing-tests" for risk in own):
                untested.append(record)
            stated = [risk for risk in own if severity is not None or risk.category != "missing-tests"]
            stated.sort(key=lambda risk: SEVERITIES.index(risk.severity))  # high first
            lines += [
                (SEVERITIES.index(risk.severity), record.analysis.importance, record, risk)
                for risk in (stated if severity is not None else stated[:MECHANISMS_PER_PR])
            ]
        lines.sort(key=lambda line: (line[0], -line[1], -line[2].number))
        title = say("qa.risks.title", self.language)
        asked = [line for line in lines if SEVERITIES[line[0]] == severity]
        if severity is not None:
            level = say(f"report.severity.{severity}", self.language)
            title = say("qa.risks.at", self.language, severity=level, n=len(asked))
            title = title[:1].upper() + title[1:]
        blocks: list[Block] = [Heading(title, 2)]
        if severity is not None:
            if not asked:
                blocks.append(Paragraph((plain(say("qa.risks.none_at", self.language, severity=level)),)))
                # the next severity down: "no high ones" is answered with the medium ones, said so
                lower = [line for line in lines if line[0] > SEVERITIES.index(severity)]
                if not lower:
                    return self.answer(blocks, len(records))
                asked = [line for line in lower if line[0] == lower[0][0]]
                level = say(f"report.severity.{SEVERITIES[lower[0][0]]}", self.language)
                instead = say("qa.risks.instead", self.language, severity=level, n=len(asked))
                blocks.append(Paragraph((plain(instead),)))
            lines = asked
        elif not lines and not untested:
            blocks.append(Paragraph((plain(say("qa.risks.none", self.language)),)))
            return self.answer(blocks, len(records))
        by_number = {r.number: r for r in records}
        shown = self.query.limit or MECHANISMS_SHOWN
        items: list[Inline] = []
        for _, _, record, risk in lines[:shown]:
            level = say(f"report.severity.{risk.severity}", self.language)
            text = risk.text + _where(risk, self.language)
            items.append(
                (bold(f"[{level}] "), pr_span(record), plain(" "), *prose(text, record.pr.repo, by_number))
            )
            self._cite([record])
        if len(lines) > shown:
            items.append((plain(say("qa.risks.more", self.language, n=len(lines) - shown)),))
        if untested:
            ranked = self.evidence.ranked(untested)
            refs: list[Span] = []
            for i, record in enumerate(ranked[:6]):
                refs += [plain("、" if self.language == "zh" else ", ")] if i else []
                refs.append(pr_span(record))
            if len(ranked) > 6:
                refs.append(plain(" " + say("qa.more", self.language, n=len(ranked) - 6)))
            self._cite(ranked[:6])
            label = say("report.risk.missing-tests", self.language, n=len(untested), prs="")
            items.append((plain(label), *refs))
        blocks.append(BulletList(tuple(items)))
        return self.answer(blocks, len(records))

    def highlights(self) -> Answer:
        records = self.evidence.ranked(self.evidence.records)
        count = self.evidence.count
        return self.answer(
            [
                Heading(say(self._highlight_title, self.language), 2),
                *self.listing(records, self._highlight_extra, count),
            ],
            count,
        )

    @property
    def _highlight_title(self) -> str:
        """The message key of a highlights list's heading: by size, by time open, newest first, or by
        importance."""
        return f"qa.{self.query.order}.title" if self.query.order else "qa.highlights.title"

    @property
    def _highlight_extra(self) -> str:
        """What a highlight line adds: the PR's size or time open when the question ranks by it, its
        author when it asks who, else the key point that speaks to the question."""
        if self.query.order in ("size", "open"):
            return self.query.order
        return "author" if self.query.asks_who else "key_point"

    def upgrade(self, sections: Sequence[tuple[str, Evidence]]) -> Answer:
        """What to check before upgrading, a section a kind (breaking changes, dependency changes,
        changed defaults and removals, reverts), at most FEW PRs each; a PR shows in the first section
        that has it."""
        blocks: list[Block] = [Heading(say("qa.upgrade.title", self.language), 2)]
        about: set[int] = set()
        for name, evidence in sections:
            records = [r for r in evidence.ranked(evidence.records) if r.number not in about]
            if not records:
                continue
            about.update(r.number for r in records)
            blocks.append(Heading(say(f"qa.upgrade.{name}", self.language), 3))
            shown = records[: min(self.query.limit or FEW, self.limit)]
            blocks += self.listing(shown, "key_point", len(records), evidence.reverted)
        if not about:
            blocks.append(Paragraph((plain(say("qa.upgrade.none", self.language)),)))
        return self.answer(blocks, len(about))

    def per_person(self, sides: Sequence[tuple[str, Evidence]]) -> Answer:
        """Each person's PRs, most important first, at most FEW each, under their name."""
        blocks: list[Block] = []
        total = 0
        for person, evidence in sides:
            total += evidence.count
            blocks.append(Heading(say("qa.author.title", self.language, author=person), 3))
            records = evidence.ranked(evidence.records)
            if not records:
                blocks.append(Paragraph((plain(say("qa.person.none", self.language)),)))
                continue
            blocks += self.listing(
                records[: min(self.query.limit or FEW, self.limit)], "key_point", evidence.count
            )
        return self.answer(blocks, total)

    def must_read(self) -> Answer:
        records = self.evidence.ranked(self.evidence.records)
        if self.query.must_read_only:
            return self._must_reads(records)
        chosen = [r for r in records if r.analysis.verdict == "must-read"] + [
            r for r in records if r.analysis.verdict == "worth-reading"
        ]
        blocks: list[Block] = [Heading(say("qa.must_read.title", self.language), 2)]
        total: int | None = self.evidence.reading_count()
        wanted = self.query.limit or 0
        if chosen and len(chosen) < wanted:
            # "挑两个最值得看的": as many as asked, the next by importance after the ones worth reading
            chosen += [r for r in records if r not in chosen][: wanted - len(chosen)]
        if not chosen:
            blocks.append(Paragraph((plain(say("qa.must_read.none", self.language)),)))
            chosen, total = records[:3], None
        return self.answer(blocks + self.listing(chosen, "verdict", total), self.evidence.count)

    def _must_reads(self, records: Sequence[AnalyzedPR]) -> Answer:
        """The must-read PRs alone, as many as the weekly report counts; when there are fewer than FEW,
        the PRs worth reading follow as a part of their own, so that none is taken for a must-read."""
        verdicts = self.evidence.verdicts
        must = [r for r in records if r.analysis.verdict == "must-read"]
        total = verdicts["must-read"] if verdicts is not None else len(must)
        blocks: list[Block] = [Heading(say("qa.must_read.only_title", self.language, n=total), 2)]
        if must:
            blocks += self.listing(must, "verdict", total)
        else:
            blocks.append(Paragraph((plain(say("qa.must_read.only_none", self.language)),)))
        worth = [r for r in records if r.analysis.verdict == "worth-reading"]
        # as many as asked for ("给我一个就行"), else a few
        wanted = min(self.query.limit or FEW, FEW)
        if total < wanted and worth:
            blocks.append(Heading(say("qa.must_read.also", self.language), 3))
            blocks += self.listing(worth[: wanted - total], "verdict", len(worth[: wanted - total]))
        return self.answer(blocks, self.evidence.count)

    def filtered(self, title: str) -> Answer:
        may_break = self.evidence.may_break
        records = [r for r in self.evidence.ranked(self.evidence.records) if r.number not in may_break]
        extra = "author" if self.query.paths or self.query.asks_who else "key_point"
        count = self.evidence.count
        blocks: list[Block] = [Heading(title, 2)]
        if self.query.config_keys:
            # "queue.capacity 现在默认是多少": the value, stated, before the PRs that set it
            values = config_values(self.evidence.records, self.query.config_keys, self.language, self.tz)
            blocks[:0] = [Paragraph((plain(" ".join(values) if self.language == "en" else "".join(values)),))]
        if records or not may_break:
            blocks += self.listing(records, extra, count - len(may_break))
        else:
            blocks.append(Paragraph((plain(say("qa.breaking.none_flagged", self.language)),)))
        return self.answer(blocks + self._may_break(), count)

    def _may_break(self) -> list[Block]:
        """After a list of breaking changes, the PRs not flagged breaking whose analysis says they may
        break callers (a public definition or config key removed), each with what its analysis says."""
        may_break = self.evidence.may_break
        records = [r for r in self.evidence.records if r.number in may_break][: self.limit]
        if not records:
            return []
        separator = "；" if self.language == "zh" else "; "
        items: list[Inline] = []
        for record in records:
            self._cite([record])
            items.append(pr_line(record, self.language, separator.join(may_break[record.number])))
        return [Heading(say("qa.breaking.may_break", self.language), 3), BulletList(tuple(items))]

    def people(self) -> Answer:
        """Who worked on what the question names: each author with their PRs, most PRs first (then the
        most important PR), at most LIST_LIMIT people; for a question about reviewers, each reviewer with
        the PRs they reviewed (`reviewers`)."""
        if self.query.review == "reviewers":
            return self.reviewers()
        records = self.evidence.ranked(self.evidence.records)
        by_author: dict[str, list[AnalyzedPR]] = {}
        for record in records:
            if names_someone(record.pr.header.author):
                by_author.setdefault(record.pr.header.author, []).append(record)
        ranked = sorted(
            by_author.items(), key=lambda item: (-len(item[1]), -item[1][0].analysis.importance, item[0])
        )
        subject = join(dict.fromkeys((*self.query.modules, *self.query.understood)), self.language)
        if self.query.newcomers:
            title = say("qa.people.title.new", self.language)
        elif subject:
            title = say("qa.people.title", self.language, subject=subject)
        else:
            title = say("qa.people.title.all", self.language)
        self.ranked_people = [author for author, _ in ranked[:LIST_LIMIT]]
        items = self._people_items(ranked, "qa.people.one", "qa.people.many")
        return self.answer([Heading(title, 2), BulletList(items)], len(records))

    def _people_items(
        self, ranked: list[tuple[str, list[AnalyzedPR]]], one: str, many: str
    ) -> tuple[Inline, ...]:
        """One line per person of `ranked` (at most LIST_LIMIT): the login, how many PRs (`one`/`many`
        messages) and the first six of them, cited."""
        items: list[Inline] = []
        separator = "、" if self.language == "zh" else ", "
        for name, prs in ranked[:LIST_LIMIT]:
            count = say(one, self.language) if len(prs) == 1 else say(many, self.language, n=len(prs))
            spans: list[Span] = [bold("@" + name), plain(" — " + count)]
            for i, record in enumerate(prs[:6]):
                spans += [plain(separator)] if i else []
                spans.append(pr_span(record))
            if len(prs) > 6:
                spans.append(plain(" " + say("qa.more", self.language, n=len(prs) - 6)))
            self._cite(prs[:6])
            items.append(tuple(spans))
        if len(ranked) > LIST_LIMIT:
            items.append((plain(say("qa.more", self.language, n=len(ranked) - LIST_LIMIT)),))
        return tuple(items)

    def _window_text(self) -> str:
        return window_text(self.window, self.now, self.tz, self.language)

    def reviewers(self) -> Answer:
        """Who reviewed the most of the matching PRs: each reviewer with the PRs they reviewed, most PRs
        first (then the most important PR), at most LIST_LIMIT people; bots and authors' own reviews are
        not counted (`WindowReviews`)."""
        records = self.evidence.ranked(self.evidence.records)
        reviews = self.evidence.reviews.reviewers if self.evidence.reviews else {}
        by_reviewer: dict[str, list[AnalyzedPR]] = {}
        for record in records:
            for name in reviews.get(record.number, ()):
                by_reviewer.setdefault(name, []).append(record)
        ranked = sorted(
            by_reviewer.items(), key=lambda item: (-len(item[1]), -item[1][0].analysis.importance, item[0])
        )
        subject = join(dict.fromkeys((*self.query.modules, *self.query.understood)), self.language)
        title = (
            say("qa.people.title.reviewers_of", self.language, subject=subject)
            if subject
            else say("qa.people.title.reviewers", self.language)
        )
        blocks: list[Block] = [Heading(title, 2)]
        if not ranked:
            text = say(
                "qa.reviews.nobody",
                self.language,
                repo=self.evidence.repo,
                window=self._window_text(),
                n=len(records),
            )
            return self.answer([*blocks, Paragraph((plain(text),))], len(records))
        items = self._people_items(ranked, "qa.people.reviewed.one", "qa.people.reviewed.many")
        return self.answer([*blocks, BulletList(items)], len(records))

    def reviewed(self) -> Answer:
        """The PRs one person reviewed (`Query.reviewer`), or those merged without anyone's review, with
        how many of the window's PRs that is; each line names the PR's author."""
        reviews = self.evidence.reviews
        total = len(reviews.reviewers) if reviews else 0
        window = self._window_text()
        records = self.evidence.ranked(self.evidence.records)
        count = self.evidence.count
        if self.query.review == "by":
            # the login as GitHub spells it ("Chi-Zhang"), not as the question's lower-cased reading
            asked = (self.query.reviewer or "").lower()
            logins = (name for names in (reviews.reviewers.values() if reviews else ()) for name in names)
            person = next((name for name in logins if name.lower() == asked), self.query.reviewer or "")
            title = say("qa.reviewed_by.title", self.language, reviewer=person)
            if not records:
                text = say(
                    "qa.reviewed_by.none",
                    self.language,
                    reviewer=person,
                    repo=self.evidence.repo,
                    window=window,
                )
                return self.answer([Heading(title, 2), Paragraph((plain(text),))], 0)
            return self.answer([Heading(title, 2), *self.listing(records, "author", count)], count)
        title = say("qa.unreviewed.title", self.language)
        if not records:
            text = say("qa.unreviewed.none", self.language, window=window, total=total)
            return self.answer([Heading(title, 2), Paragraph((plain(text),))], 0)
        line = say("qa.unreviewed.count", self.language, window=window, total=total, n=count)
        return self.answer(
            [Heading(title, 2), Paragraph((plain(line),)), *self.listing(records, "author", count)], count
        )

    def reviews_unrecorded(self) -> Answer:
        """What to say when the index holds no review of the window's PRs at all: not that every PR went
        unreviewed."""
        text = say(
            "qa.reviews.unrecorded", self.language, repo=self.evidence.repo, window=self._window_text()
        )
        return self.answer([Paragraph((plain(text),))], None)

    def versus(self, sides: Sequence[tuple[str, Evidence]]) -> Answer:
        """Subjects side by side: each with its count of merged PRs and its most important ones, most PRs
        first, after a sentence saying which had more (or that they tie)."""
        ranked = sorted(sides, key=lambda side: -side[1].count)
        counts = [evidence.count for _, evidence in ranked]
        if len(ranked) >= 2 and counts[0] == counts[1]:
            verdict = say("qa.versus.tie", self.language, n=counts[0])
        else:
            verdict = say("qa.versus.more", self.language, subject=ranked[0][0], n=counts[0], m=counts[1])
        items: list[Inline] = []
        separator = "、" if self.language == "zh" else ", "
        for label, evidence in ranked:
            shown = evidence.ranked(evidence.records)
            spans: list[Span] = [
                bold(label),
                plain(" — " + say("qa.versus.count", self.language, n=evidence.count)),
            ]
            for i, record in enumerate(shown[:3]):
                spans += [plain(separator if i else ": " if self.language == "en" else "：")]
                spans.append(pr_span(record))
            self._cite(shown[:3])
            items.append(tuple(spans))
        title = say(
            "qa.versus.title", self.language, subjects=join([label for label, _ in sides], self.language)
        )
        blocks: list[Block] = [Heading(title, 2), Paragraph((plain(verdict),)), BulletList(tuple(items))]
        return self.answer(blocks)  # a PR about both sides counts on each: no total

    def stats(self) -> Answer:
        records = self.evidence.records
        modules = Counter(m for r in records for m in r.analysis.modules)
        authors = Counter(r.pr.header.author for r in records if names_someone(r.pr.header.author))
        types = Counter(r.analysis.change_type for r in records)
        self.ranked_people = [author for author, _ in authors.most_common(5)]
        avg_i = sum(r.analysis.importance for r in records) / len(records)
        avg_n = sum(r.analysis.insight for r in records) / len(records)
        language = self.language
        opened = sorted(
            ((open_days(r), r) for r in records if r.pr.header.created_at and r.pr.header.merged_at),
            key=lambda pair: (pair[0], pair[1].number),
        )
        pairs: tuple[tuple[str, tuple[Span, ...]], ...] = (
            (say("qa.stats.total", language), (bold(str(len(records))),)),
            (say("qa.stats.authors", language), (plain(str(len(authors))),)),
            (say("qa.stats.avg", language), (plain(f"{avg_i:.1f} / {avg_n:.1f}"),)),
            (
                say("qa.stats.top_modules", language),
                (plain(join((f"{m} ({n})" for m, n in modules.most_common(5)), language) or "-"),),
            ),
            (
                say("qa.stats.top_authors", language),
                (plain(join((f"{a} ({n})" for a, n in authors.most_common(5)), language)),),
            ),
            (
                say("qa.stats.types", language),
                (plain(join((f"{t} ({n})" for t, n in types.most_common()), language)),),
            ),
        )
        if opened:  # how long PRs stayed open before merging: the median, and the longest with its PR
            median, (longest, slowest) = opened[len(opened) // 2][0], opened[-1]
            pairs += (
                (
                    say("qa.stats.open", language),
                    (
                        plain(f"{duration_text(median, language)} / {duration_text(longest, language)} ("),
                        pr_span(slowest),
                        plain(")"),
                    ),
                ),
            )
        if self.query.per_day and self.window is not None:
            # over the days of the window gone by: this week to Wednesday 10:00 is 2.4 days
            days = (min(self.window.end, self.now) - self.window.start).total_seconds() / 86400
            if days > 0:
                value = say(
                    "qa.stats.per_day.value",
                    language,
                    rate=f"{len(records) / days:.1f}",
                    n=len(records),
                    days=f"{days:.1f}".removesuffix(".0"),
                )
                pairs = (pairs[0], (say("qa.stats.per_day", language), (bold(value),)), *pairs[1:])
        return self.answer([Heading(say("qa.stats.title", language), 2), Fields(pairs)], len(records))

    def busiest(self, now_records: Sequence[AnalyzedPR], before: Sequence[AnalyzedPR]) -> list[Block]:
        """The module or author asked for by "哪个模块改动最多" / "who merged the most", named in a sentence
        for the window and the one it is compared with (ties named together), before any figure."""
        kind = self.query.busiest
        if kind is None or not now_records:
            return []
        language = self.query.language

        def counts(records: Sequence[AnalyzedPR]) -> Counter[str]:
            if kind == "module":
                return Counter(m for r in records for m in r.analysis.modules)
            return Counter(r.pr.header.author for r in records if r.pr.header.author not in ("", "-"))

        def leaders(found: Counter[str]) -> tuple[str, int]:
            top = max(found.values(), default=0)
            return join(sorted(name for name, n in found.items() if n == top), language), top

        now_names, now_n = leaders(counts(now_records))
        if not now_n:
            return []
        before_names, before_n = leaders(counts(before))
        previous = self.evidence.previous_window
        sentence = say(
            f"qa.compare.busiest.{kind}",
            language,
            window=window_text(self.window, self.now, self.tz, language) if self.window else "",
            names=now_names,
            n=now_n,
        )
        if before_n and previous is not None:
            sentence += say(
                f"qa.compare.busiest.{kind}.before",
                language,
                previous=window_text(previous, self.now, self.tz, language),
                names=before_names,
                n=before_n,
            )
        else:
            sentence += "。" if language == "zh" else "."
        return [Paragraph((plain(sentence),))]

    def compare(self) -> Answer:
        now_records, before = self.evidence.records, self.evidence.previous
        language = self.language
        delta = len(now_records) - len(before)
        delta_text = (
            say("report.delta_up", language, n=delta)
            if delta > 0
            else say("report.delta_down", language, n=-delta)
            if delta < 0
            else say("report.delta_same", language)
        )

        def avg(records: Sequence[AnalyzedPR]) -> str:
            return f"{sum(r.analysis.importance for r in records) / len(records):.1f}" if records else "-"

        previous = self.evidence.previous_window
        modules_now = Counter(m for r in now_records for m in r.analysis.modules)
        modules_before = Counter(m for r in before for m in r.analysis.modules)
        changes = sorted(
            (m for m in set(modules_now) | set(modules_before) if modules_now[m] != modules_before[m]),
            key=lambda m: (-abs(modules_now[m] - modules_before[m]), m),
        )[:6]
        figures: list[Inline] = [
            (
                plain(
                    say(
                        "qa.compare.count",
                        language,
                        now=len(now_records),
                        before=len(before),
                        delta=delta_text,
                    )
                ),
            ),
            (plain(say("qa.compare.importance", language, now=avg(now_records), before=avg(before))),),
        ]
        if changes:  # modules whose count moved, most moved first
            moved = join(
                (
                    f"{m} {modules_before[m]}→{modules_now[m]} ({modules_now[m] - modules_before[m]:+d})"
                    for m in changes
                ),
                language,
            )
            figures.append(
                (plain(say("qa.compare.modules", language) + ("：" if language == "zh" else ": ") + moved),)
            )
        blocks: list[Block] = [*self.busiest(now_records, before)]
        blocks += [
            Heading(
                say(
                    "qa.compare.title", language, previous=window_text(previous, self.now, self.tz, language)
                ),
                2,
            ),
            BulletList(tuple(figures)),
        ]
        if self.query.baseline is not None and self.window is not None and not self.window.is_over(self.now):
            # "十月和十一月比" on November 30: the whole of October against November so far, said so
            partial = say(
                "qa.compare.partial",
                language,
                window=window_text(self.window, self.now, self.tz, language),
                previous=window_text(previous, self.now, self.tz, language),
            )
            blocks.append(Paragraph((plain(partial),)))
        blocks += [
            Heading(say("qa.highlights.title", language), 2),
            *self.listing(self.evidence.ranked(now_records)[:COMPARE_SHOWN], "key_point"),
        ]
        return self.answer(blocks, len(now_records))
