"""Composing a weekly report from the analyses of one ISO week (the template prose; no network).

Highlights are themes: the PRs that share a concern (memory, hardware, a backend, the training API,
dependencies…) with what each changed. Risks are mechanisms: one PR's risk with its evidence, most
severe and most important first, and one line gathering the code PRs without tests. The executive
summary gives the reading list in the chat's terms (must-read and worth-reading verdicts); trends come
with a sentence saying what moved; follow-ups are spread over distinct concerns; a participants line
names authors and reviewers. Texts are each analysis' own in the report's language.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, cast

from chatbot.analysis.features import TYPE_ALIASES, ships
from chatbot.analysis.heuristic import TEXT
from chatbot.analysis.reverts import TITLE_NUMBER, is_revert_title, revert_clues
from chatbot.analysis.types import Analysis, LocalizedAnalysis, Severity
from chatbot.messages import Language, join, join_all, pr_refs, say
from chatbot.models import PullRequest
from chatbot.prose import without_references
from chatbot.qa.parse import language_of
from chatbot.reports.model import KeyPR, ReportItem, RiskObservation, Theme, Trend, WeeklyReport
from chatbot.reports.themes import GENERIC_MODULES, MODULE_CONCERN, concern_name, concern_of
from chatbot.weeks import Week

HIGHLIGHTS = 6
HIGHLIGHT_PRS = 3
# A highlight names its further PRs' points while it stays this short, each clipped to the second.
HIGHLIGHT_CHARS = 260
SECOND_POINT_CHARS = 70
PHRASE_CHARS = 70
CHANGE_CHARS = 220
# The share of a title's words a gist must hold to count as saying the title.
TITLE_OVERLAP = 0.6
# A text says something its title does not when it has this many words (Latin words or Han characters,
# fillers left out) that the title lacks; a point quoted in a highlight or a change is clipped to this.
NEW_WORDS = 3
# A text holding this many leading characters of the title quotes it.
TITLE_QUOTE = 30
POINT_CHARS = 110
# Words (Latin runs, digits, single Han characters) by which a gist is compared with its title.
_WORD = re.compile(r"[a-z0-9_]+|[\u4e00-\u9fff]")
_URL = re.compile(r"https?://\S+")
# A lowercase word that is not part of an identifier (`foo_bar`, `x.y`, `a/b`, `f(`, `a-b`).
_PLAIN_START = re.compile(r"[a-z]+(?![\w./`(-])")
# A reading-guide line's closing quote of the PR's title ("（title: [BREAKING] …）"): the title again.
_TITLE_QUOTED = re.compile(r"\s*[（(]title: .*$")
_HAN = re.compile(r"[\u4e00-\u9fff]")
# What separates the clauses of a sentence (a highlight's PRs).
_CLAUSE: dict[Language, str] = {"zh": "；", "en": "; "}
# The words of the analyzer's names for change types ("新功能", "performance change"): a gist built from
# the title's type and module says nothing new.
_TYPE_WORDS = frozenset(
    word
    for key, names in TEXT.items()
    if key.startswith("type.")
    for name in names.values()
    for word in _WORD.findall(name.lower())
)
_FILLER = frozenset(
    {"a", "an", "the", "this", "that", "pr", "to", "for", "of", "in", "and", "with", "on", "it", "is", "be"}
    | set("的了在和与为把将对")
)
RISK_OBSERVATIONS = 5
KEY_PR_ROWS = 10
THEME_ITEMS = 5
TRENDS = 12
# A trend table shows at most this many rows of what had PRs last week and has none this week.
GONE_ROWS = 3
# A count that moved by one from last week is noise: a trend note needs a move of at least this many PRs.
TREND_MOVE = 2
FOLLOW_UPS = 6
PARTICIPANTS_SHOWN = 5
EVIDENCE_CHARS = 90
# The headline names its risk without evidence, in at most this many characters.
HEADLINE_RISK_CHARS = 120
HEADLINE_CLAUSE_CHARS = 24
_SEVERITY_RANK = {"high": 3, "medium": 2, "low": 1}
# `[module]` tags, and a change type's marker (`fix:`, `feat(models)!:`, `修复:`); a word before a colon
# that is no type ("Security: reject…", "Pool: …") is the title's own word and stays.
_TITLE_PREFIX = re.compile(
    r"^\s*(?:\[[^\]]*\]\s*)+|^\s*(?:(?P<type>[^\W\d_][\w-]*)(?:\([^)]*\))?|\w+\([^)]*\))!?:\s*"
)
# A login names someone: an export's placeholder for a deleted account ("-", "") is nobody to credit.
_LOGIN = re.compile(r"[A-Za-z0-9]")
_BOTS = re.compile(
    r"\[bot\]$|^(?:codecov|github-actions|gemini-code-assist|coderabbitai|copilot|mergify)", re.I
)
# Concerns that are housekeeping: they make highlights only when nothing else does.
_HOUSEKEEPING = frozenset({"docs", "ci", "dependencies"})
# Concerns a reader follows in the full report rather than in the highlights.
_MINOR = frozenset({"docs", "ci"})
# Risk categories that state a fact of the diff or the author's words (a removal, a new default, a pin):
# of one severity they come before the ones inferred from what code a change touches (memory, concurrency).
_FACTS = frozenset({"breaking-change", "compatibility", "config", "dependency", "security"})


@dataclass(frozen=True, slots=True)
class AnalyzedPR:
    pr: PullRequest
    analysis: Analysis
    # What composing a report reads many times per PR, worked out once: its texts per language and its
    # concern.
    _known: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def number(self) -> int:
        return self.pr.number

    def texts(self, language: str) -> LocalizedAnalysis:
        """The analysis' texts for a reader of `language` (`Analysis.localized`, remembered)."""
        known = self._known.get(language)
        if known is None:
            known = self._known[language] = self.analysis.localized(language)
        return cast(LocalizedAnalysis, known)

    def risk_texts(self, language: Language) -> tuple[str, ...]:
        """Each risk as the analysis words it for `language`. A risk worded in Chinese only (a
        single-language analysis) is named by its category for an English reader, who may not read it; a
        Chinese reader keeps an English wording, whose identifiers and numbers say more than a category."""
        return tuple(
            say(f"qa.risk.{risk.category}", language)
            if language == "en" and language_of(text) == "zh"
            else text
            for risk, text in zip(self.analysis.risks, self.texts(language).risks, strict=True)
        )

    @property
    def concern(self) -> str:
        """The concern the PR belongs to (`concern_of` its title and English gist, remembered)."""
        known = self._known.get("concern")
        if known is None:
            gist = self.texts("en").gist
            known = self._known["concern"] = concern_of(self.pr.title, self.analysis, gist)
        return cast(str, known)


def names_someone(login: str | None) -> bool:
    """Whether a login is someone's: not an export's placeholder for a deleted account ("-", "")."""
    return bool(_LOGIN.search(login or ""))


def counts_as_review(reviewer: str | None, author: str) -> bool:
    """Whether a review by `reviewer` of a PR written by `author` is someone's review: not a bot's
    (`_BOTS`), not the author's own."""
    return bool(reviewer) and reviewer != author and not _BOTS.search(reviewer or "")


# Pure functions of a string that composing a report calls several times per PR (every line about a PR
# reads its cleaned title and compares words with it): remembered, bounded, nothing that can go stale.
_TEXT_CACHE = 4096


@lru_cache(maxsize=_TEXT_CACHE)
def clean_title(title: str) -> str:
    """A PR title without its `[module]` prefixes and `type(scope):` marker: `[megatron] feat: add X` → `add X`.
    A revert stays one: `revert: feat(models): add X` → `Revert: add X`, never the change it undid."""
    previous = None
    reverted = False
    while previous != title:
        previous = title
        marker = _TITLE_PREFIX.match(title)
        kind = marker and marker.group("type")
        if marker and (not kind or kind.lower() in TYPE_ALIASES or "(" in marker.group(0)):
            reverted = reverted or marker.group(0).strip().lower().startswith("revert")
            title = title[marker.end() :]
    cleaned = title.strip() or previous.strip()
    return f"Revert: {cleaned}" if reverted and not cleaned.lower().startswith("revert") else cleaned


def sentence_start(text: str, language: Language) -> str:
    """An English sentence that opens with a plain lowercase word (a theme's name: "memory",
    "the megatron module") opens with a capital; one that opens with an identifier (`ci`, `foo_bar`,
    `x.y`, a code span) or in Chinese is left as written."""
    if language == "en" and _PLAIN_START.match(text):
        return text[0].upper() + text[1:]
    return text


def _ranked(records: Sequence[AnalyzedPR]) -> list[AnalyzedPR]:
    return sorted(records, key=lambda r: (-r.analysis.importance, -r.analysis.insight, r.number))


def undone_within(records: Sequence[AnalyzedPR]) -> dict[int, AnalyzedPR]:
    """The week's PRs that a later PR of the same week reverted, each with its revert: the pair's net
    effect is nothing, so neither is a highlight, a risk or a key PR. A revert names what it undid by
    number ("Reverts owner/repo#N", "This reverts #N") or by quoting its title (`Revert "X"`)."""
    by_number = {r.number: r for r in records}
    by_title = {r.pr.title.strip().lower(): r for r in records}
    undone: dict[int, AnalyzedPR] = {}
    for record in filter(is_revert, records):
        clues = revert_clues(record.pr.title, record.pr.header.body)
        quoted = TITLE_NUMBER.sub("", clues.title or "").strip().lower()
        candidates = [by_number[n] for n in clues.numbers if n in by_number]
        candidates += [by_title[quoted]] if quoted in by_title else []
        for original in candidates:
            if original is not record and _merged_before(original, record) and original.number not in undone:
                undone[original.number] = record
                break
    return undone


def _merged_before(first: AnalyzedPR, then: AnalyzedPR) -> bool:
    a, b = first.pr.header.merged_at, then.pr.header.merged_at
    return a is None or b is None or a <= b


def is_revert(record: AnalyzedPR) -> bool:
    """Whether a PR is a revert by its title (`Revert "X"`, `revert: X`, `Revert #12`, `回滚 "X"`): it
    restores code that was there, so it is no code PR that owes tests."""
    return is_revert_title(record.pr.title)


def _clip(text: str, limit: int) -> str:
    """Text cut before `limit` characters at a word boundary when there is one in its second half, never
    inside a `code span` (the renderer would show half a name as code)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    space = text.rfind(" ", limit // 2, limit - 1)
    cut = text[: space if space > 0 else limit - 1]
    if cut.count("`") % 2:
        cut = cut[: cut.rfind("`")]
    opener = _unclosed_bracket(cut)
    closer = ""
    if opener >= limit // 3:
        cut = cut[:opener]  # drop the aside the cut fell inside
    elif opener >= 0:
        closer = _BRACKETS[cut[opener]]
        if len(cut) > limit - 2:  # room for the closing bracket
            space = cut.rfind(" ", opener + 1)
            cut = cut[: space if space > opener + 1 else limit - 2]
    return cut.rstrip(" ,;:，；：、(（") + "…" + closer


_BRACKETS = {"(": ")", "（": "）", "[": "]", "【": "】", "「": "」", "《": "》"}
_OPENERS = {closer: opener for opener, closer in _BRACKETS.items()}


def _unclosed_bracket(text: str) -> int:
    """Where the last bracket still open at the end of `text` opens, or -1."""
    open_at: list[int] = []
    for i, char in enumerate(text):
        if char in _BRACKETS:
            open_at.append(i)
        elif char in _OPENERS and open_at and text[open_at[-1]] == _OPENERS[char]:
            open_at.pop()
    return open_at[-1] if open_at else -1


def _phrase(record: AnalyzedPR, language: Language) -> str:
    """What one PR changed, in a few words: the title an analyzer wrote in the report's language, else
    the PR's title without prefixes."""
    title = record.analysis.title_in(language)
    if not title or title == record.pr.title:
        title = clean_title(record.pr.title)
    return _clip(title, PHRASE_CHARS)


@lru_cache(maxsize=_TEXT_CACHE)
def _words_of(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def _stem(word: str) -> str:
    """A word without its inflection ("threads" → "thread", "adds" → "add", "decorated" → "decorat"):
    a sentence that retypes its title in another number or tense says nothing new."""
    for suffix in _INFLECTIONS:
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


_INFLECTIONS = ("ing", "ed", "es", "s")
# A reference to a PR or an issue ("#7157"), or a citation marker ("[web:69]"): no word of what it says.
_REFERENCE = re.compile(r"#\d+|\[\w+:\d+\]")


def _adds_to(text: str, title: str, known: frozenset[str] = frozenset()) -> bool:
    """Whether `text` says something `title` does not: enough words of its own beyond the title's (in any
    inflection), links, references, fillers and the `known` words (the PR's modules, the names of change
    types) left out."""
    said = {_stem(w) for w in _words_of(title) | _FILLER | known}
    own = {_stem(w) for w in _words_of(_REFERENCE.sub(" ", _URL.sub(" ", text)))} - said
    return len(own) >= NEW_WORDS


def point_of(record: AnalyzedPR, language: Language) -> str | None:
    """What a reader learns about one PR beyond its title: its gist when the gist says more than the
    title (not merely its module and kind of change), else its first key point that does (the author's
    lead, a measured result, what the diff adds, removes or renames); None when every text only repeats
    the title."""
    texts = record.texts(language)
    title = clean_title(record.pr.title).lower()
    for text in (texts.gist, *texts.key_points):
        if _URL.match(text):
            continue  # a link first ("https://…/pull/4280 refactor…") is a reference, not a point
        text = without_references(text, record.pr.header.repo)
        shown = _clip(text, POINT_CHARS).rstrip("。.;； ")
        if shown and _says_more(shown.rstrip("…"), record) and not _repeats_title(shown.lower(), title):
            return shown
    return None


def _repeats_title(text: str, title: str) -> bool:
    """Whether `text` (lowercased) is the title again with something after it: it opens with the title,
    or holds a long title's first words. A short title inside a sentence ("Adds on-policy distillation
    across FSDP and Megatron" for "On-Policy Distillation") is the sentence using its name."""
    quoted = title[:TITLE_QUOTE]
    return text.startswith(quoted) or (len(title) >= TITLE_QUOTE and quoted in text)


def _says_more(text: str, record: AnalyzedPR) -> bool:
    """Whether `text` says more about the PR than its title, its modules and its kind of change."""
    return _adds_to(text, record.pr.title, _TYPE_WORDS | _words_of(" ".join(record.analysis.modules)))


def _headline(record: AnalyzedPR, language: Language) -> str:
    """What a line about one PR opens with: its gist when the gist says more than the title, else the
    title itself (a gist that only puts the module and the kind of change before the title, "workers
    feature: Add X", tells the reader nothing the theme and the title do not)."""
    gist = without_references(record.texts(language).gist, record.pr.header.repo)
    return gist if gist and _says_more(gist, record) else clean_title(record.pr.title)


def _change(record: AnalyzedPR, language: Language) -> str:
    """A PR in the "key changes" narrative: its headline, after its title when the headline does not
    already say the title (most of the title's words in it, which covers a gist quoting a clipped or
    retyped title), so no line says its title twice; then what the PR says beyond its title, when the
    headline does not already. A point that names the whole title is the line by itself."""
    title = clean_title(record.pr.title)
    gist = _headline(record, language)
    words = _words_of(title)
    if words and len(words & _words_of(gist)) < TITLE_OVERLAP * len(words):
        gist = f"{title} — {gist}"
    point = point_of(record, language)
    if point and title.lower() in point.lower():
        return _capitalized(point, record, language)  # a sentence naming a short title says it and more
    if point and point != _clip(gist, POINT_CHARS) and not _says_more(gist, record):
        # Two English sentences join with ". " in a Chinese report too ("…backend。Support…" reads as a typo).
        gist = say(
            "report.change.point",
            language if _HAN.search(gist + point) else "en",
            change=_capitalized(gist.rstrip("。."), record, language),
            point=_capitalized(point, record, language),
        )
    return _clip(_capitalized(gist, record, language), CHANGE_CHARS)


def _capitalized(text: str, record: AnalyzedPR, language: Language) -> str:
    """A sentence of the narrative opening with a capital in English, as a conventional-commit title
    without its `type(scope):` ("pass `dp_group` to …") does not; a module's own name ("vllm", "sglang")
    keeps its case."""
    first = text.split(" ", 1)[0]
    return text if first in record.analysis.modules else sentence_start(text, language)


@dataclass(frozen=True, slots=True)
class _Group:
    """The week's PRs that share a concern, most important first."""

    concern: str
    records: tuple[AnalyzedPR, ...]
    # The modules its PRs share most (at most two, each in two PRs or in its only one): the label's.
    common: tuple[str, ...] = ()

    @property
    def weight(self) -> float:
        """The three most important PRs count: a theme of many small PRs does not outrank one big change."""
        return sum(r.analysis.importance for r in self.records[:3])

    @property
    def read(self) -> bool:
        return any(r.analysis.verdict != "skim" for r in self.records)

    def label(self, language: Language) -> str:
        """The concern's name, with the modules its PRs share most (`training backends (megatron, fsdp)`)."""
        name = concern_name(self.concern, language)
        # A module the theme's (English) name already says ("rollout and inference (rollout)") adds nothing.
        said = _words_of(concern_name(self.concern, "en"))
        modules = [m for m in self.common if m.lower() not in said]
        if self.concern in ("docs", "ci", "other") or self.concern.startswith(MODULE_CONCERN) or not modules:
            return name
        return say("report.theme.label", language, theme=name, modules=join(modules, language))


def _common_modules(records: Sequence[AnalyzedPR]) -> tuple[str, ...]:
    modules = Counter(m for r in records for m in r.analysis.modules if m not in GENERIC_MODULES)
    return tuple(m for m, n in modules.most_common(2) if n >= 2 or len(records) == 1)


def _groups(ranked: list[AnalyzedPR]) -> list[_Group]:
    grouped: dict[str, list[AnalyzedPR]] = defaultdict(list)
    for record in ranked:
        grouped[record.concern].append(record)
    common = {concern: _common_modules(records) for concern, records in grouped.items()}
    # A module that labels several themes ("workers" in a repo whose code all lives under workers/) does
    # not tell them apart: no theme names it.
    labels = Counter(m for modules in common.values() for m in modules)
    groups = [
        _Group(concern, tuple(records), tuple(m for m in common[concern] if labels[m] == 1))
        for concern, records in grouped.items()
    ]
    return sorted(
        groups,
        key=lambda g: (g.concern in _HOUSEKEEPING or g.concern == "other", not g.read, -g.weight, g.concern),
    )


def _highlighted(groups: list[_Group]) -> list[_Group]:
    """The themes worth a highlight: docs and CI only in a week with fewer than three other themes."""
    substantive = [g for g in groups if g.concern not in _MINOR]
    return (substantive if len(substantive) >= 3 else groups)[:HIGHLIGHTS]


def _highlight(group: _Group, language: Language) -> ReportItem:
    """One theme in a sentence: its PRs worth reading first (then the others), each named by what it
    changed, the first also by what it says beyond its title, the next ones too while the sentence stays
    short; then how many more the theme holds. Every PR it cites is named in its text, none by a bare
    number."""
    read = [r for r in group.records if r.analysis.verdict != "skim"]
    rest = [r for r in group.records if r.analysis.verdict == "skim"]
    ordered = read + rest
    # "and 1 more" would hide what fits: a theme of one PR more than is shown names it too.
    shown = ordered if len(ordered) == HIGHLIGHT_PRS + 1 else ordered[:HIGHLIGHT_PRS]
    parts: list[str] = []
    for index, record in enumerate(shown):
        what = _phrase(record, language)
        part = say("report.highlight.pr", language, what=what, pr=record.number)
        point = point_of(record, language) if index == 0 or record.analysis.verdict != "skim" else None
        if point and index:
            point = _clip(point, SECOND_POINT_CHARS).rstrip("。.;； ")
        if point:
            pointed = say("report.highlight.pr.point", language, what=what, pr=record.number, point=point)
            # The first PR always says what it adds; the next ones while the sentence stays short.
            if not index or sum(map(len, parts)) + len(pointed) <= HIGHLIGHT_CHARS:
                part = pointed
        parts.append(part)
    text = say("report.highlight", language, theme=group.label(language), prs=_CLAUSE[language].join(parts))
    if len(group.records) > len(shown):
        text += say("report.highlight.more", language, n=len(group.records) - len(shown))
    return ReportItem(text=sentence_start(text, language), prs=tuple(r.number for r in shown))


def compose_weekly_report(
    repo: str,
    week: Week,
    records: Sequence[AnalyzedPR],
    previous: Sequence[AnalyzedPR],
    *,
    language: Language,
    generated_at: datetime,
    version: int = 1,
) -> WeeklyReport:
    """The report of `week` from its analysed PRs, compared with the previous week's."""
    last_day = week.end - timedelta(days=1)
    title = say(
        "report.title",
        language,
        repo=repo,
        year=week.year,
        week=week.week,
        start=f"{week.start:%m-%d}",
        end=f"{last_day:%m-%d}",
    )
    ranked = _ranked(records)
    common: dict[str, Any] = dict(
        repo=repo,
        year=week.year,
        week=week.week,
        start=week.start,
        end=week.end,
        timezone=str(week.tz),
        language=language,
        generated_at=generated_at,
        version=version,
        prose="template",
        title=title,
        pr_count=len(records),
        previous_pr_count=len(previous),
        prs=tuple(sorted(r.number for r in records)),
    )
    if not records:
        period = say("report.period", language, start=f"{week.start:%Y-%m-%d}", end=f"{last_day:%Y-%m-%d}")
        return WeeklyReport(
            **common,
            headline=say("report.quiet", language, repo=repo, period=period),
            highlights=(),
            risks=(),
            executive_summary="",
            avg_importance=0.0,
            avg_insight=0.0,
            themes=(),
            module_trends=(),
            theme_trends=(),
            key_prs=(),
            follow_ups=(),
        )

    undone = undone_within(records)
    # A change and its revert in one week cancel out: the report says so once and leaves both out.
    kept = [r for r in ranked if r.number not in undone and not any(r is v for v in undone.values())]
    everything, ranked = ranked, kept or ranked
    groups = _groups(ranked)
    key = _key_prs(ranked)
    # Counted over every PR of the week, reverted ones too, as the chat counts them.
    reading = _reading_list(everything)
    risk_lines = _risk_lines(ranked, language, RISK_OBSERVATIONS)
    risks = [observation for observation, _ in risk_lines]
    theme_names = [g.label(language) for g in groups[:3]]
    # The headline's risk is the first listed that is not low: code only some hardware runs, or a pin in
    # an example, is for the list.
    watch = next((line for observation, line in risk_lines if observation.severity != "low"), None)
    attention = (
        # a clipped risk ends in its ellipsis, not in "…。"
        say("report.attention", language, risk=watch).replace("…。", "…").replace("….", "…")
        if watch
        else say("report.no_attention", language)
    )
    headline = say(
        "report.headline",
        language,
        count=len(records),
        themes=join_all(theme_names, language),
        attention=attention,
    )
    avg_importance = round(sum(r.analysis.importance for r in records) / len(records), 1)
    avg_insight = round(sum(r.analysis.insight for r in records) / len(records), 1)
    module_trends = _trends(
        Counter(m for r in records for m in r.analysis.modules),
        Counter(m for r in previous for m in r.analysis.modules),
    )
    # How much the week's volume changed: a theme that doubled in a week that doubled did not move.
    scale = _scale(len(records), len(previous))
    themes_now = Counter(g.concern for g in groups for _ in g.records)
    themes_before = Counter(r.concern for r in previous)
    volume = {"count": len(records), "previous": len(previous)}
    shift, example = _theme_shift(themes_now, themes_before, groups, volume, language)
    return WeeklyReport(
        **common,
        headline=headline,
        highlights=tuple(_highlight(g, language) for g in _highlighted(groups)),
        risks=tuple(risks[:RISK_OBSERVATIONS]),
        executive_summary=_executive_summary(
            records, previous, everything, groups, reading, (avg_importance, avg_insight), language
        )
        + _reverted_note(undone, language)
        + _reverted_earlier_note(records, undone, language),
        avg_importance=avg_importance,
        avg_insight=avg_insight,
        themes=tuple(
            Theme(
                name=sentence_start(g.label(language), language),
                items=tuple(
                    ReportItem(text=_change(r, language), prs=(r.number,)) for r in g.records[:THEME_ITEMS]
                ),
                count=len(g.records),
            )
            for g in groups
        ),
        module_trends=module_trends,
        theme_trends=_trends(
            themes_now,
            themes_before,
            name=lambda theme: sentence_start(concern_name(theme, language), language),
        ),
        key_prs=tuple(
            KeyPR(
                number=r.number,
                title=r.analysis.title_in(language) or r.pr.title,
                url=r.pr.header.html_url,
                author=r.pr.header.author,
                modules=r.analysis.modules,
                importance=r.analysis.importance,
                insight=r.analysis.insight,
                verdict=r.analysis.verdict,
                key_point=_key_point(r, language),
                gist=_headline(r, language),
                reading_guide=tuple(_TITLE_QUOTED.sub("", line) for line in r.texts(language).reading_guide),
                corrected=bool(r.analysis.corrected),
            )
            for r in key[:KEY_PR_ROWS]
        ),
        follow_ups=tuple(_follow_ups(ranked, groups, language)),
        trend_notes=(shift + _module_moves(module_trends, ranked, scale, language, named=example))
        or (_no_move(len(records), len(previous), language),),
        participants=_participants(records, language),
        must_read=reading[0],
        worth_reading=reading[1],
        left_out=tuple(sorted({r.number for r in everything} - {r.number for r in ranked})),
    )


def _key_point(record: AnalyzedPR, language: Language) -> str:
    """A key PR's point in the table: what it says beyond its title, else why it is worth reading."""
    texts = record.texts(language)
    return point_of(record, language) or texts.verdict_reason or (texts.key_points or ("",))[0]


def _reading_list(ranked: Sequence[AnalyzedPR]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The week's key PRs as the chat lists them: the must-reads, then the PRs worth reading, each most
    important first (`ranked`'s order)."""
    must = tuple(r.number for r in ranked if r.analysis.verdict == "must-read")
    worth = tuple(r.number for r in ranked if r.analysis.verdict == "worth-reading")
    return must, worth


def _key_prs(ranked: list[AnalyzedPR]) -> list[AnalyzedPR]:
    """The rows of the key-PR table: the reading list (`_reading_list`), most important first; the three
    most important PRs in a week with none worth reading, so the table is never empty."""
    return [r for r in ranked if r.analysis.verdict != "skim"] or ranked[:3]


def risk_evidence(evidence: str, sentence: str) -> str:
    """The evidence of a risk as its line shows it, without what the sentence already says: an analysis'
    evidence is `path: line` (a file and the changed line or name), and a sentence that names the file or
    the name needs only the other half; "" when it names both, or every word of the evidence."""
    if _repeats(evidence, sentence):
        return ""
    path, colon, rest = evidence.partition(": ")
    if not colon or not _PATH.fullmatch(path):
        return _clip(evidence, EVIDENCE_CHARS)
    named_path = path in sentence
    named_rest = _repeats(rest, sentence)
    if named_path and named_rest:
        return ""
    if named_path and rest[:1] in "+-" and "`" not in rest:
        # a changed line of code, shown as the code it is (not as names inside punctuation)
        return f"`{_clip(rest[1:].strip(), EVIDENCE_CHARS - 2)}`"
    return _clip(path if named_rest else rest if named_path else evidence, EVIDENCE_CHARS)


_PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.[A-Za-z0-9_]+|[\w.-]+(?:/[\w.-]+)+")


def _readable(quote: str, language: Language) -> bool:
    """Whether a reader of `language` can read a quote of the PR: an English report quotes no Chinese
    (a Chinese reader of an English repository reads its English, as its titles show)."""
    return language == "zh" or not _HAN.search(quote)


def risk_mechanisms(
    ranked: Sequence[AnalyzedPR], language: Language, limit: int = RISK_OBSERVATIONS
) -> list[RiskObservation]:
    """The `limit` first risk mechanisms, one PR each (its most severe risk, with the file, function or
    pin that shows it and what could go wrong), most severe first, of one severity a fact of the diff
    (a removal, a new default, a pin) before a risk inferred from the code it touches, then most
    important first; and last, one line gathering the code PRs that come without tests. A PR's second
    risk is listed only after every PR's first. Only the observations shown are worded (a week of 300
    PRs has hundreds of risks)."""
    return [observation for observation, _ in _risk_lines(ranked, language, limit)]


def _topic_words(record: AnalyzedPR) -> set[str]:
    """The words of a PR's title that can name a subject: four letters or more, not filler."""
    return {w for w in _words_of(clean_title(record.pr.title)) if len(w) >= 4 and w not in _FILLER}


def _risk_lines(
    ranked: Sequence[AnalyzedPR], language: Language, limit: int
) -> list[tuple[RiskObservation, str]]:
    """`risk_mechanisms`, each with its sentence without the evidence (the headline's)."""
    firsts: list[tuple[tuple[bool, int, bool, float, int], AnalyzedPR, int]] = []
    seconds: list[tuple[tuple[bool, int, bool, float, int], AnalyzedPR, int]] = []
    untested: list[AnalyzedPR] = []
    worst_untested: Severity = "low"
    for record in ranked:
        mine: list[tuple[int, int]] = []  # (severity rank, index of the risk)
        for index, risk in enumerate(record.analysis.risks):
            if risk.category == "missing-tests" and not record.analysis.tests:
                # a PR that brings tests but removes others has a mechanism of its own, listed below
                if is_revert(record):
                    continue
                if not untested or untested[-1] is not record:
                    untested.append(record)
                if _SEVERITY_RANK[risk.severity] > _SEVERITY_RANK[worst_untested]:
                    worst_untested = risk.severity
                continue
            mine.append((_SEVERITY_RANK[risk.severity], index))
        # Of one severity, the risk about what the title names first ("drop support for vLLM older than
        # 0.18.0": its vllm pin, not a helper it removed); the others keep their order.
        topic, english = _topic_words(record), record.risk_texts("en")
        mine.sort(key=lambda m: (-m[0], not topic & _words_of(english[m[1]])))
        # A breaking change known only from its title is worded with the risk that says what breaks,
        # which then is not listed again as the PR's second risk.
        said = _breaks_what(record, mine[0][1]) if mine else None
        for rank, (severity, index) in enumerate([m for m in mine if m[1] != said][:2]):
            risk = record.analysis.risks[index]
            order = (
                _peripheral(risk.evidence),
                -severity,
                risk.category not in _FACTS,
                -record.analysis.importance,
                record.number,
            )
            (firsts if rank == 0 else seconds).append((order, record, index))
    firsts.sort(key=lambda item: item[0])
    seconds.sort(key=lambda item: item[0])
    shown = (firsts + seconds)[: limit - 1 if untested else limit]
    lines = [_mechanism(record, index, language) for _, record, index in shown]
    if untested:
        numbers = tuple(r.number for r in untested)
        line = say("report.risk.untested", language, n=len(numbers), prs=pr_refs(numbers, language))
        gathered = RiskObservation(category="missing-tests", severity=worst_untested, text=line, prs=numbers)
        short = say("report.risk.untested", language, n=len(numbers), prs=pr_refs(numbers, language, limit=3))
        # The missing-tests line always makes the list, last: it sums up where the mechanisms explain.
        lines.append((gathered, short))
    return lines


def _peripheral(evidence: str) -> bool:
    """Whether a risk sits in a file the project does not ship (a CI workflow, an example or recipe
    script, a doc): a reader acts first on what reaches users, whatever its severity."""
    path = evidence.split(": ", 1)[0].strip()
    return bool(path) and " " not in path and ("/" in path or "." in path) and not ships(path)


def _quotes_title(evidence: str, record: AnalyzedPR) -> bool:
    """Whether a risk's evidence is only the PR's title (a `[BREAKING]` tag, a "faster" in the title)."""
    evidence = evidence.strip().lower()
    title = clean_title(record.pr.title).lower()
    return evidence.startswith("title:") or (bool(title) and title[:TITLE_QUOTE] in evidence)


# "BREAKING CHANGE:" opening an author's note on what breaks, after an emoji or inside bold
# ("⚠️ **BREAKING CHANGE**:").
_BREAKING_LABEL = re.compile(r"[\W_]*breaking(?: changes?)?[\s*_]*[:：-]\s*", re.I)
# Risk categories whose sentence can say what a breaking change breaks.
_BREAKS = frozenset({"breaking-change", "compatibility", "config", "dependency"})
# An English key point saying what a change removes, renames or gives a new default.
_BREAKING_POINT = re.compile(
    r"\b(?:remov|renam|deprecat|delet|drop|replac|default changed|defaults? to|no longer|get rid)", re.I
)


def _breaks_what(record: AnalyzedPR, index: int) -> int | None:
    """For a breaking-change risk known only from the title, the index of the PR's other risk that says
    what breaks (with evidence of its own); None otherwise."""
    risks = record.analysis.risks
    if risks[index].category != "breaking-change" or not _quotes_title(risks[index].evidence, record):
        return None
    return next(
        (
            i
            for i, risk in enumerate(risks)
            if i != index
            and risk.category in _BREAKS
            and risk.evidence
            and not _quotes_title(risk.evidence, record)
        ),
        None,
    )


def _mechanism(record: AnalyzedPR, index: int, language: Language) -> tuple[RiskObservation, str]:
    """One PR's risk as a mechanism: what could go wrong, with the evidence that shows it; and the same
    sentence without the evidence. Evidence that is only the PR's title is never quoted: a breaking
    change known from its title's tag says what breaks when the analysis knows it."""
    risk = record.analysis.risks[index]
    evidence = risk.evidence if risk.evidence and not _quotes_title(risk.evidence, record) else ""
    if risk.category == "breaking-change" and not evidence:
        line, short = _breaking(record, index, language)
    else:
        sentence = record.risk_texts(language)[index].rstrip("。.")
        short = say("report.risk.mechanism.bare", language, pr=record.number, text=sentence)
        note = _BREAKING_LABEL.match(evidence) if risk.category == "breaking-change" else None
        if note and _readable(evidence, language):
            # The author's note on what breaks ("BREAKING CHANGE: `max_length` is removed"): the
            # headline names that rather than the category's general sentence.
            what = evidence[note.end() :].strip()
            short = say("report.risk.breaking.bare", language, pr=record.number, what=what)
        shown = risk_evidence(evidence, sentence)
        line = short
        if shown and _readable(shown, language):
            line = say("report.risk.mechanism", language, pr=record.number, text=sentence, evidence=shown)
    observation = RiskObservation(
        category=risk.category, severity=risk.severity, text=line, prs=(record.number,)
    )
    return observation, _headline_risk(short)


def _repeats(evidence: str, sentence: str) -> bool:
    """Whether a risk's evidence only repeats its sentence (an author's "BREAKING CHANGE: …" note the
    sentence already quotes): every word of it, the label left out, is in the sentence."""
    note = _BREAKING_LABEL.match(evidence)
    words = _words_of(evidence[note.end() :] if note else evidence) - _FILLER
    return bool(words) and words <= _words_of(sentence)


def _headline_risk(sentence: str) -> str:
    """A risk as the headline names it: its first clause (what happens, without "; users relying on
    defaults get new behaviour") when that is long enough to say something, clipped."""
    clause = re.split(r"；|; ", sentence, maxsplit=1)[0]
    return _clip(clause if len(clause) >= HEADLINE_CLAUSE_CHARS else sentence, HEADLINE_RISK_CHARS).rstrip(
        "。."
    )


def _breaking(record: AnalyzedPR, index: int, language: Language) -> tuple[str, str]:
    """A breaking change known only from the title: what breaks, from the PR's risk that says it (with
    its evidence), else from a key point naming a removal, rename or new default, else from what the PR
    says beyond its title; else that it does not say what breaks."""
    pr = record.number
    other = _breaks_what(record, index)
    if other is not None:
        what = record.risk_texts(language)[other].rstrip("。.")
        evidence = record.analysis.risks[other].evidence
        short = say("report.risk.breaking.bare", language, pr=pr, what=what)
        shown = risk_evidence(evidence, what)
        if shown and _readable(shown, language):
            return say("report.risk.breaking", language, pr=pr, what=what, evidence=shown), short
        return short, short
    texts, english = record.texts(language), record.texts("en")
    parallel = len(texts.key_points) == len(english.key_points)
    points = [
        texts.key_points[i] if parallel else point
        for i, point in enumerate(english.key_points)
        if _BREAKING_POINT.search(point)
    ]
    if points:
        line = say(
            "report.risk.breaking.bare", language, pr=pr, what=_clip(points[0], POINT_CHARS).rstrip("。.")
        )
    else:
        # Nothing but the title says what breaks: the analysis' sentence, with the modules it touches.
        text = record.risk_texts(language)[index].rstrip("。.")
        modules = join(record.analysis.modules, language)
        line = (
            say("report.risk.breaking.modules", language, pr=pr, what=text, modules=modules)
            if modules
            else say("report.risk.mechanism.bare", language, pr=pr, text=text)
        )
    return line, line


def _trends(
    current: Counter[str], previous: Counter[str], name: Callable[[str], str] = str
) -> tuple[Trend, ...]:
    """The rows of a trend table: this week's modules or themes, most PRs first, then the few that had
    the most PRs last week and none now (a quiet week is not a table of zeros)."""
    keys = sorted(set(current) | set(previous), key=lambda k: (-current[k], -previous[k], k))
    gone = [k for k in keys if not current[k]][:GONE_ROWS]
    keys = [k for k in keys if current[k]] + gone
    return tuple(Trend(name=name(k), count=current[k], previous=previous[k]) for k in keys[:TRENDS])


def _executive_summary(
    records: Sequence[AnalyzedPR],
    previous: Sequence[AnalyzedPR],
    ranked: list[AnalyzedPR],
    groups: list[_Group],
    reading: tuple[tuple[int, ...], tuple[int, ...]],
    averages: tuple[float, float],
    language: Language,
) -> str:
    delta = len(records) - len(previous)
    delta_text = (
        say("report.delta_up", language, n=delta)
        if delta > 0
        else say("report.delta_down", language, n=-delta)
        if delta < 0
        else say("report.delta_same", language)
    )
    must, worth = reading
    avg_importance, avg_insight = averages
    breaking = [r.number for r in ranked if r.analysis.breaking]
    # The headline names the weightiest themes; here the ones most PRs went to, so the two say different
    # things ("led by" one big change, while most of the week went to docs and CI).
    busiest = sorted((g for g in groups if g.concern != "other"), key=lambda g: -len(g.records))[:4]
    themes = [say("report.theme.count", language, theme=g.label(language), n=len(g.records)) for g in busiest]
    return say(
        "report.summary",
        language,
        count=len(records),
        previous=len(previous),
        delta=delta_text,
        importance=f"{avg_importance:.1f}",
        insight=f"{avg_insight:.1f}",
        themes=join_all(themes, language),
        must_read=say(
            "report.must_read" if must else "report.must_read.worth_only",
            language,
            n=len(must) + len(worth),
            must=len(must),
            worth=len(worth),
            prs=pr_refs(must + worth, language),
        )
        if must or worth
        else "",
        breaking=say("report.breaking", language, n=len(breaking), prs=pr_refs(breaking, language))
        if breaking
        else "",
    )


def _reverted_note(undone: dict[int, AnalyzedPR], language: Language) -> str:
    """The sentence naming the week's changes that were reverted within it, and by what."""
    if not undone:
        return ""
    pairs = [say("report.reverted.pair", language, pr=f"#{n}", by=f"#{r.number}") for n, r in undone.items()]
    return say("report.reverted", language, n=len(pairs), pairs=join(pairs, language))


def _reverted_earlier_note(
    records: Sequence[AnalyzedPR], undone: dict[int, AnalyzedPR], language: Language
) -> str:
    """The sentence naming this week's reverts of changes merged before it ("#7173 reverts #5599"), by
    the number the revert names, else by the title it quotes: followers of last week's change need to
    know it is gone."""
    within = {r.number for r in undone.values()}
    pairs = []
    for record in records:
        if record.number in within or not is_revert(record):
            continue
        clues = revert_clues(record.pr.title, record.pr.header.body)
        earlier = next((n for n in clues.numbers if n != record.number), None)
        if earlier is not None:
            what = f"#{earlier}"
        elif clues.title:
            what = f"“{_clip(TITLE_NUMBER.sub('', clues.title), PHRASE_CHARS)}”"
        else:
            continue
        pairs.append(say("report.reverted_earlier.pair", language, by=f"#{record.number}", pr=what))
    if not pairs:
        return ""
    return say("report.reverted_earlier", language, pairs=join(pairs, language))


def _scale(count: int, previous: int) -> float:
    """How much the week's volume changed: this week's PRs over last week's (1 without a last week)."""
    return count / previous if previous else 1.0


def _move(count: int, previous: int, scale: float) -> float:
    """How far a count moved beyond the week's volume (`scale`, this week's PRs over last week's): 0
    unless it moved by `TREND_MOVE` PRs or more both in PRs and against the volume, the same way, so 10 →
    12 in a week that tripled is no rise, and no fall either."""
    moved, beyond = count - previous, count - previous * scale
    if (moved >= TREND_MOVE and beyond >= TREND_MOVE) or (moved <= -TREND_MOVE and beyond <= -TREND_MOVE):
        return beyond
    return 0.0


def _no_move(count: int, previous: int, language: Language) -> str:
    """The trend note when nothing moved: steady, or that everything followed the week's volume."""
    if previous and not 2 / 3 <= count / previous <= 3 / 2:
        return say("report.trend.volume", language, count=count, previous=previous)
    return say("report.trend.steady", language)


def _theme_shift(
    now: Counter[str], before: Counter[str], groups: list[_Group], volume: dict[str, int], language: Language
) -> tuple[tuple[str, ...], int | None]:
    """Where the week's work moved among the themes, in one sentence: toward the theme that grew most
    (with its most important PR, returned too) and away from the one that shrank most, beyond the week's
    volume (see `_move`); nothing when no theme moved so. "Other" is no direction."""
    scale = _scale(volume["count"], volume["previous"])
    moves = sorted(
        ((_move(now[c], before[c], scale), c) for c in set(now) | set(before) if c != "other"),
        key=lambda m: (-m[0], m[1]),
    )
    up = moves[0] if moves and moves[0][0] > 0 else None
    down = moves[-1] if moves and moves[-1][0] < 0 else None
    # When the week's volume changed a lot, a move is against it (a theme of 8 → 15 PRs in a week of 22 →
    # 49 lost ground), and the sentence says so, or a reader of the table takes it for false.
    scaled = ".scaled" if not 2 / 3 <= scale <= 3 / 2 else ""
    rise: dict[str, Any] = {}
    fall: dict[str, Any] = {}
    example = None
    if up:
        example = next(g.records[0].number for g in groups if g.concern == up[1])
        rise = {"up": concern_name(up[1], language), "up_count": now[up[1]], "up_previous": before[up[1]]}
    if down:
        fall = {
            "down": concern_name(down[1], language),
            "down_count": now[down[1]],
            "down_previous": before[down[1]],
        }
    if not (up or down):
        return (), None
    key = (
        "report.trend.shift"
        if up and down
        else "report.trend.theme_rise"
        if up
        else "report.trend.theme_fall"
    )
    text = say(key + scaled, language, example=example, **volume, **rise, **fall)
    return (sentence_start(text, language),), example


def _module_moves(
    trends: tuple[Trend, ...],
    ranked: list[AnalyzedPR],
    scale: float,
    language: Language,
    named: int | None = None,
) -> tuple[str, ...]:
    """What moved among the modules beyond the week's volume (see `_move`): the largest rise (with its
    most important PR) unless the theme sentence led with that PR (`named`: the same fact twice), the
    largest fall, a module new this week with several PRs."""
    notes: list[str] = []
    moves = {t.name: _move(t.count, t.previous, scale) for t in trends}
    rises = sorted(
        (t for t in trends if moves[t.name] > 0 and t.previous), key=lambda t: (-moves[t.name], t.name)
    )
    if rises:
        top = rises[0]
        example = next(r.number for r in ranked if top.name in r.analysis.modules)
        if example != named:
            notes.append(
                say(
                    "report.trend.rise",
                    language,
                    module=top.name,
                    count=top.count,
                    previous=top.previous,
                    example=example,
                )
            )
    new = [t for t in trends if t.count >= TREND_MOVE and not t.previous]
    if new:
        notes.append(say("report.trend.new", language, module=new[0].name, count=new[0].count))
    falls = sorted((t for t in trends if moves[t.name] < 0), key=lambda t: (moves[t.name], t.name))
    if falls:
        notes.append(
            say(
                "report.trend.fall",
                language,
                module=falls[0].name,
                count=falls[0].count,
                previous=falls[0].previous,
            )
        )
    return tuple(notes)


def _participants(records: Sequence[AnalyzedPR], language: Language) -> str:
    """Authors (most PRs first) and reviewers (most reviews first), bots and self-reviews left out."""
    authors = Counter(r.pr.header.author for r in records if names_someone(r.pr.header.author))
    reviewers = Counter(
        review.author
        for r in records
        for review in r.pr.reviews
        if counts_as_review(review.author, r.pr.header.author)
    )

    def top(counts: Counter[str]) -> str:
        return join((f"@{name}" for name, _ in counts.most_common(PARTICIPANTS_SHOWN)), language)

    if not reviewers:
        return say("report.participants.no_reviews", language, authors=len(authors), top_authors=top(authors))
    return say(
        "report.participants",
        language,
        authors=len(authors),
        top_authors=top(authors),
        reviewers=len(reviewers),
        top_reviewers=top(reviewers),
    )


def _follow_ups(ranked: list[AnalyzedPR], groups: list[_Group], language: Language) -> list[str]:
    """Breaking changes to check, the must-reads to read, then one suggestion per concern (its most
    important PR that has one and no line names yet, else one named once), each of a kind no line before
    it has (one "add a test", one "write migration notes"), so neither one PR nor one kind of suggestion
    fills the list."""
    follow_ups: list[str] = []
    kinds: set[str] = set()
    breaking = [r.number for r in ranked if r.analysis.breaking]
    if breaking:
        follow_ups.append(say("report.follow_up.breaking", language, prs=pr_refs(breaking, language)))
        kinds.add("migration")
    # A must-read that is the breaking change is named once, by the line about checking it.
    must_read = [r.number for r in ranked if r.analysis.verdict == "must-read" and not r.analysis.breaking][
        :3
    ]
    if must_read:
        follow_ups.append(say("report.follow_up.read", language, prs=pr_refs(must_read, language)))
    named = Counter([*breaking, *must_read])
    # A line per concern about a PR no line names yet; then, while there is room, the concerns left may
    # name a PR once more: the list is about the week, not about its biggest PRs.
    picked: dict[str, tuple[AnalyzedPR, str]] = {}
    for fresh in (True, False):
        for group in groups:
            if group.concern in picked or len(follow_ups) + len(picked) >= FOLLOW_UPS:
                continue
            pick = next(
                (
                    (record, suggestion, kind)
                    for record in group.records
                    if (not named[record.number] if fresh else named[record.number] < 2)
                    for suggestion, kind in _suggestions(record, language)
                    if kind not in kinds
                ),
                None,
            )
            if pick is not None:
                record, suggestion, kind = pick
                kinds.add(kind)
                named[record.number] += 1
                picked[group.concern] = (record, suggestion)
    for group in groups:
        if group.concern in picked:
            record, suggestion = picked[group.concern]
            line = say(
                "report.follow_up.theme",
                language,
                theme=group.label(language),
                pr=record.number,
                text=suggestion,
            )
            follow_ups.append(sentence_start(line, language))
    return follow_ups[:FOLLOW_UPS]


# Kinds of follow-up, told from the English wording; any other is told by its first two words.
_FOLLOW_UP_KINDS = (
    ("tests", re.compile(r"\b(?:unit|regression|missing|integration|e2e) tests?\b|\badd (?:an? )?tests?\b")),
    ("migration", re.compile(r"\bmigration\b")),
)


def _suggestions(record: AnalyzedPR, language: Language) -> list[tuple[str, str]]:
    """The PR's first two follow-ups in `language`, each with its kind."""
    texts = record.texts(language).follow_ups[:2]
    english = record.texts("en").follow_ups[:2]
    if len(english) != len(texts):
        english = texts
    out = []
    for text, plain in zip(texts, english, strict=True):
        kind = next((k for k, pattern in _FOLLOW_UP_KINDS if pattern.search(plain.lower())), None)
        out.append((text, kind or " ".join(_WORD.findall(plain.lower())[:2])))
    return out
