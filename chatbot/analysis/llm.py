"""The LLM analyzer: asks a model behind the `LLM` port for the DESIGN §6 fields of one PR, validates the
answer against a pydantic schema, and falls back to the heuristic analysis whenever that fails.

The prompt lives in `prompts/analysis_v2.toml`. PR text reaches the model only inside a delimited data
block whose boundary id the PR cannot know in advance (it derives from the PR's content hash), and the
instructions never contain PR text, so a PR cannot rewrite them.
"""

from __future__ import annotations

import json
import logging
import math
import re
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, ValidationError, field_validator

from chatbot.analysis.boilerplate import clean_body
from chatbot.analysis.features import file_kind
from chatbot.analysis.heuristic import LANGUAGES, Language
from chatbot.analysis.lead import code_identifiers
from chatbot.analysis.types import (
    Analysis,
    ChangeType,
    LocalizedAnalysis,
    Risk,
    RiskCategory,
    Severity,
    Verdict,
    strip_verdict_label,
)
from chatbot.models import PRFile, PullRequest
from chatbot.ports import LLM, LLMError

log = logging.getLogger(__name__)

ANALYZER_NAME = "llm"
PROMPT_FILE = Path(__file__).resolve().parent / "prompts" / "analysis_v2.toml"
SCHEMA_NAME = "pr_analysis"

# Token budgets of the parts of one prompt (estimated with `estimate_text_tokens`). The diff gets the
# most: it is what the analysis is about. With the instructions and hints, a prompt stays under ~11k.
DEFAULT_DIFF_BUDGET_TOKENS = 6_000
BODY_BUDGET_TOKENS = 2_000
DISCUSSION_BUDGET_TOKENS = 1_500
DISCUSSION_ITEM_CHARS = 600
# Below this, a cut patch shows too little to be worth its place; the file is listed by name instead.
PARTIAL_PATCH_MIN_TOKENS = 150
MAX_LISTED_FILES = 40
# A runaway previous answer is cut before it is shown back to the model for repair.
REPAIR_ANSWER_CHARS = 12_000
# List fields are capped after validation (the prompt asks for at most 5 or 3), so a verbose model
# cannot overflow a card; the title is one line.
MAX_ITEMS = 5
MAX_TITLE_CHARS = 80

# Which files' patches the model sees first when the budget runs out: source code, then the small
# config/dependency/build files that carry most risks, then tests, then docs, then everything else.
_DIFF_ORDER: dict[str, int] = {
    "source": 0,
    "script": 0,
    "config": 1,
    "deps": 1,
    "docker": 1,
    "ci": 1,
    "test": 2,
    "doc": 3,
}
_LAST = 4

_WIDE_CHAR = re.compile(r"[^\x00-\u2e7f]")
_FENCED = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n\s*```\s*$", re.S | re.I)
_SPACE = re.compile(r"\s+")
_PR_NUMBER = re.compile(r"(?<![\w&])#(\d+)\b")


# --- the answer schema ---------------------------------------------------------------------------------


class RiskAnswer(BaseModel):
    """One risk as the model states it, worded in both languages."""

    model_config = ConfigDict(extra="forbid")

    category: RiskCategory
    severity: Severity
    text_zh: str = Field(description="one sentence in Simplified Chinese")
    text_en: str = Field(description="the same sentence in English")
    evidence: str = Field(description="the file path or code line that shows the risk; empty if none")


class TextsAnswer(BaseModel):
    """The reader-facing texts in one language."""

    model_config = ConfigDict(extra="forbid")

    gist: str = Field(description="one line: what the PR changes and why it matters")
    verdict_reason: str = Field(description="one sentence, without the verdict's own label")
    key_points: list[str] = Field(description="at most 5")
    follow_ups: list[str] = Field(description="at most 3")
    reading_guide: list[str] = Field(
        description="for must-read and worth-reading: where to start, the design decision, what to verify, "
        "what a follow-up should add; empty for skim"
    )

    @field_validator("gist", "verdict_reason")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value


class AnalysisAnswer(BaseModel):
    """What the model must return. No field has a default: strict structured outputs require every
    property, and a missing one must be a validation error the repair request can name."""

    model_config = ConfigDict(extra="forbid")

    title_zh: str = Field(description="one-line title in Simplified Chinese")
    title_en: str = Field(description="one-line title in English")
    summary: str = Field(description="2 to 3 sentences")
    modules: list[str] = Field(description="short lower-case module names")
    change_type: ChangeType
    breaking: bool
    importance: FiniteFloat = Field(description="0 to 10, one decimal")
    insight: FiniteFloat = Field(description="0 to 10, one decimal")
    verdict: Verdict
    risks: list[RiskAnswer] = Field(description="at most 5")
    tests: bool = Field(description="whether the PR adds or changes tests")
    review_highlights: list[str] = Field(description="at most 3 points from reviews and comments")
    zh: TextsAnswer = Field(description="the texts in Simplified Chinese")
    en: TextsAnswer = Field(description="the same texts in English")

    @field_validator("title_zh", "title_en", "summary")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value


def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema in the form strict structured outputs accept: every object closed
    (`additionalProperties: false`) with every property required, and `$ref`s inlined so the schema also
    reads on its own when json_object mode pastes it into the prompt. Titles and the objects'
    descriptions (the classes' docstrings, written for developers) are left out; field descriptions stay."""
    raw = model.model_json_schema()
    definitions: dict[str, Any] = raw.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return walk(definitions[node["$ref"].rsplit("/", 1)[-1]])
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "properties":
                out[key] = {name: walk(sub) for name, sub in value.items()}
            elif key != "title":
                out[key] = walk(value)
        if out.get("type") == "object":
            out.pop("description", None)
            out["additionalProperties"] = False
            out["required"] = list(out.get("properties", {}))
        return out

    schema: dict[str, Any] = walk(raw)
    return schema


ANSWER_SCHEMA = strict_json_schema(AnalysisAnswer)


class InvalidAnswer(ValueError):
    """The model's text is not JSON, or not JSON that matches `AnalysisAnswer`."""


def parse_answer(text: str) -> AnalysisAnswer:
    """The validated answer. Markdown fences around the JSON are tolerated (some json_object providers
    add them). Raises InvalidAnswer naming each problem, without echoing the model's values."""
    fenced = _FENCED.match(text)
    try:
        return AnalysisAnswer.model_validate_json(fenced.group(1) if fenced else text)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(part) for part in error['loc']) or 'answer'}: {error['msg']}"
            for error in exc.errors(include_url=False, include_input=False)
        ]
        shown = "; ".join(problems[:10]) + (f"; and {len(problems) - 10} more" if len(problems) > 10 else "")
        raise InvalidAnswer(shown) from None


def normalize_module(name: str) -> str:
    """`" Megatron Core "` -> `"megatron-core"`: names the model invents are kept, in the index's form."""
    return _SPACE.sub("-", name.strip().lower())


def clamp_score(value: float) -> float:
    return min(10.0, max(0.0, value))


def to_analysis(answer: AnalysisAnswer, version: str, language: Language = "zh") -> Analysis:
    """The neutral Analysis of a validated answer: scores clamped to 0..10, modules normalised, lists
    de-duplicated and capped, the title on one line, the verdict's label dropped from its reason. The
    single-language fields take the `language` texts; a risk worded in one language only keeps that
    wording in both."""
    modules = _unique(normalize_module(m) for m in answer.modules)
    worded = [
        (r, _one_line(r.text_zh) or _one_line(r.text_en), _one_line(r.text_en) or _one_line(r.text_zh))
        for r in answer.risks
    ]
    kept = [(r, zh, en) for r, zh, en in worded if zh][:MAX_ITEMS]
    risk_texts = {"zh": tuple(zh for _, zh, _ in kept), "en": tuple(en for _, _, en in kept)}
    risks = tuple(
        Risk(r.category, r.severity, risk_texts[language][i], r.evidence.strip())
        for i, (r, _, _) in enumerate(kept)
    )
    texts = {
        lang: LocalizedAnalysis(
            gist=_one_line(t.gist),
            verdict_reason=strip_verdict_label(_one_line(t.verdict_reason)),
            key_points=_unique(p.strip() for p in t.key_points)[:MAX_ITEMS],
            risks=risk_texts[lang],
            follow_ups=_unique(f.strip() for f in t.follow_ups)[:MAX_ITEMS],
            reading_guide=_unique(g.strip() for g in t.reading_guide)[:MAX_ITEMS],
        )
        for lang, t in (("zh", answer.zh), ("en", answer.en))
    }
    own = texts[language]
    return Analysis(
        title_zh=_one_line(answer.title_zh, MAX_TITLE_CHARS),
        title_en=_one_line(answer.title_en, MAX_TITLE_CHARS),
        summary=answer.summary.strip(),
        modules=modules,
        change_type=answer.change_type,
        breaking=answer.breaking,
        importance=clamp_score(answer.importance),
        insight=clamp_score(answer.insight),
        verdict=answer.verdict,
        verdict_reason=own.verdict_reason,
        key_points=own.key_points,
        risks=risks,
        tests=answer.tests,
        follow_ups=own.follow_ups,
        review_highlights=_unique(h.strip() for h in answer.review_highlights)[:MAX_ITEMS],
        analyzer=ANALYZER_NAME,
        analyzer_version=version,
        texts=texts,
    )


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(item for item in items if item))


def _one_line(text: str, limit: int | None = None) -> str:
    line = " ".join(text.split())
    return line if limit is None or len(line) <= limit else line[: limit - 1] + "…"


# --- the prompt ----------------------------------------------------------------------------------------


def estimate_text_tokens(text: str) -> int:
    """A tokenizer-free estimate, meant to err high so budgets hold: one token per CJK (or other
    non-Latin) character, one per three other characters (English prose averages about four characters a
    token, code and diffs about three)."""
    wide = len(_WIDE_CHAR.findall(text))
    return wide + math.ceil((len(text) - wide) / 3)


def cut_to_tokens(text: str, budget: int) -> tuple[str, bool]:
    """`text` cut at a line end to at most `budget` estimated tokens, and whether it was cut."""
    if estimate_text_tokens(text) <= budget:
        return text, False
    kept: list[str] = []
    used = 0
    for line in text.split("\n"):
        cost = estimate_text_tokens(line) + 1
        if used + cost > budget:
            if not kept:
                kept.append(line[: max(0, budget)])  # no character costs more than one token
            break
        kept.append(line)
        used += cost
    return "\n".join(kept), True


@dataclass(frozen=True, slots=True)
class AnalysisPrompt:
    """The texts of one prompt version in one language (see the TOML file for the placeholders)."""

    version: str
    system: str
    task: str
    repair_intro: str
    repair_task: str
    user_template: str
    repair_template: str

    @classmethod
    def load(cls, language: Language, path: Path = PROMPT_FILE) -> AnalysisPrompt:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}; expected one of {', '.join(LANGUAGES)}")
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        texts, templates = data[language], data["template"]
        return cls(
            version=str(data["version"]),
            system=texts["system"].strip(),
            task=texts["task"].strip(),
            repair_intro=texts["repair_intro"].strip(),
            repair_task=texts["repair_task"].strip(),
            user_template=templates["user"],
            repair_template=templates["repair"],
        )


def boundary_for(pr: PullRequest) -> str:
    """The id of the PR's data markers. It derives from a digest of the PR's own text, so no PR can
    contain it: a fake closing marker in a description is just more data."""
    return pr.content_hash[:16]


def render_pr(pr: PullRequest, diff_budget_tokens: int) -> str:
    """The PR as the model reads it: facts, the cleaned description, the discussion, then the diff cut to
    `diff_budget_tokens` with source hunks first."""
    h = pr.header
    files = pr.changed_files or len(pr.files)
    additions = pr.additions or sum(f.additions for f in pr.files)
    deletions = pr.deletions or sum(f.deletions for f in pr.files)
    facts = [
        f"repository: {h.repo}",
        f"number: {h.number}",
        f"title: {h.title}",
        f"author: {h.author}",
        f"labels: {', '.join(h.labels) or '(none)'}",
        f"merged_at: {h.merged_at.isoformat() if h.merged_at else '(not merged)'}",
        f"size: {files} files changed, +{additions}/−{deletions}",
    ]
    description, cut = cut_to_tokens(clean_body(h.body).text.strip(), BODY_BUDGET_TOKENS)
    parts = [
        "\n".join(facts),
        "## description\n" + (description or "(no description)") + ("\n…[description cut]" if cut else ""),
        "## reviews and comments\n" + _discussion(pr),
        _diff(pr.files, files, diff_budget_tokens),
    ]
    return "\n\n".join(parts)


def _discussion(pr: PullRequest) -> str:
    items: list[str] = []
    for review in pr.reviews:
        if review.author.endswith("[bot]"):
            continue
        text = _one_line(review.body, DISCUSSION_ITEM_CHARS)
        items.append(f"- review by @{review.author} ({review.state})" + (f": {text}" if text else ""))
    for comment in pr.comments:
        text = _one_line(comment.body, DISCUSSION_ITEM_CHARS)
        if comment.author.endswith("[bot]") or not text:
            continue
        where = f" on {comment.path}" if comment.path else ""
        items.append(f"- comment by @{comment.author}{where}: {text}")
    shown: list[str] = []
    used = 0
    for item in items:
        cost = estimate_text_tokens(item) + 1
        if used + cost > DISCUSSION_BUDGET_TOKENS:
            break
        shown.append(item)
        used += cost
    if len(shown) < len(items):
        shown.append(f"…[{len(items) - len(shown)} more not shown]")
    return "\n".join(shown) or "(none)"


def diff_order(files: Sequence[PRFile]) -> list[PRFile]:
    """Files in the order their patches claim the budget: source, config and build, tests, docs, rest;
    the PR's own order within each group."""
    return sorted(files, key=lambda f: _DIFF_ORDER.get(file_kind(f.filename), _LAST))


def _diff(files: Sequence[PRFile], total_files: int, budget: int) -> str:
    shown: list[str] = []
    not_shown: list[str] = []
    remaining = budget
    for f in diff_order(files):
        head = f"### {f.filename} ({f.status}, +{f.additions}/−{f.deletions})"
        if not f.patch:
            not_shown.append(f"{f.filename} (+{f.additions}/−{f.deletions}, no patch)")
            continue
        head_cost = estimate_text_tokens(head) + 2
        cost = head_cost + estimate_text_tokens(f.patch)
        if cost <= remaining:
            shown.append(f"{head}\n{f.patch}")
            remaining -= cost
        elif remaining - head_cost >= PARTIAL_PATCH_MIN_TOKENS:
            part, _ = cut_to_tokens(f.patch, remaining - head_cost - 10)
            shown.append(f"{head}\n{part}\n…[patch cut to the token budget]")
            remaining = 0
        else:
            not_shown.append(f"{f.filename} (+{f.additions}/−{f.deletions})")
    lines = [f"## diff ({len(shown)} of {total_files} files shown; source first, then config, tests, docs)"]
    lines.extend(shown)
    if not_shown:
        lines.append("## files without a patch shown")
        lines.extend(f"- {name}" for name in not_shown[:MAX_LISTED_FILES])
        if len(not_shown) > MAX_LISTED_FILES:
            lines.append(f"- …and {len(not_shown) - MAX_LISTED_FILES} more")
    if total_files > len(files):
        lines.append(f"({total_files - len(files)} more files were not listed by GitHub)")
    return "\n".join(lines)


def render_hints(hints: Analysis) -> str:
    """The heuristic analysis as JSON hints (without its prose summary, which only restates the PR, and
    its config facts, which its key points word and the answer keeps as they are)."""
    data = hints.to_dict()
    for key in ("title_zh", "title_en", "summary", "analyzer", "analyzer_version", "texts", "config"):
        data.pop(key, None)  # title_en is there only when set
    return json.dumps(data, ensure_ascii=False)


# --- the analyzer --------------------------------------------------------------------------------------


class FallbackAnalyzer(Protocol):
    """What the LLM analyzer falls back on (the heuristic analyzer): an Analysis, without fail."""

    def analyze(self, pr: PullRequest) -> Analysis:
        """The analysis of one PR."""
        ...


@dataclass(frozen=True, slots=True)
class LLMAnalysisResult:
    """One PR's outcome. `analysis` is the model's, or the fallback's when `fallback_reason` says why the
    model's could not be used. Tokens count every request made for the PR, the repair included."""

    pr: PullRequest
    analysis: Analysis
    fallback_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    model: str | None
    requests: int

    @property
    def fell_back(self) -> bool:
        return self.fallback_reason is not None


@dataclass(slots=True)
class _Tally:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0
    model: str | None = None


class LLMAnalyzer:
    """Analyses PRs with a model behind the `LLM` port; never raises for one PR.

    Each PR costs one request, or two when the first answer fails validation (the second shows the
    model its answer and the errors). Anything else that goes wrong yields the fallback's analysis,
    marked as such. Thread-safe when `llm` and `fallback` are."""

    name = ANALYZER_NAME

    def __init__(
        self,
        llm: LLM,
        fallback: FallbackAnalyzer,
        language: Language = "zh",
        diff_budget_tokens: int = DEFAULT_DIFF_BUDGET_TOKENS,
        prompt_file: Path = PROMPT_FILE,
        model: str = "",
    ) -> None:
        if diff_budget_tokens < 0:
            raise ValueError(f"diff_budget_tokens must be 0 or more, got {diff_budget_tokens}")
        self._llm = llm
        self._fallback = fallback
        self._prompt = AnalysisPrompt.load(language, prompt_file)
        self._language: Language = language
        self._diff_budget = diff_budget_tokens
        self._model = model

    @property
    def version(self) -> str:
        """The prompt's version and the model: a change of either changes the answers, so it is part of
        the cache key of stored analyses."""
        return f"{self._prompt.version}+{self._model}" if self._model else self._prompt.version

    def analyze(self, pr: PullRequest) -> LLMAnalysisResult:
        """The model's analysis of `pr`, or the fallback's (with the reason) when it cannot be had."""
        hints = self._fallback.analyze(pr)
        tally = _Tally()
        try:
            analysis = self._ask(pr, hints, tally)
        except (LLMError, InvalidAnswer) as exc:
            reason = str(exc)
        except Exception as exc:  # a bug here must cost one PR its LLM analysis, not a whole batch
            log.exception("%s#%d: unexpected error in the LLM analyzer", pr.repo, pr.number)
            reason = f"unexpected {type(exc).__name__}: {exc}"
        else:
            # the config facts come from the diff, not the model: the heuristic's are kept
            analysis = replace(analysis, config=hints.config)
            return LLMAnalysisResult(
                pr, analysis, None, tally.prompt_tokens, tally.completion_tokens, tally.model, tally.requests
            )
        log.warning("%s#%d: LLM analysis failed, keeping the heuristic one: %s", pr.repo, pr.number, reason)
        return LLMAnalysisResult(
            pr, hints, reason, tally.prompt_tokens, tally.completion_tokens, tally.model, tally.requests
        )

    def estimate_tokens(self, pr: PullRequest) -> int:
        """Estimated prompt tokens of the PR's first request, schema included (for `--dry-run`). The
        answer comes on top; it is bounded by the model's output limit."""
        user = self.user_message(pr, self._fallback.analyze(pr))
        schema = json.dumps(ANSWER_SCHEMA, ensure_ascii=False, separators=(",", ":"))
        return sum(estimate_text_tokens(text) for text in (self._prompt.system, user, schema))

    def analyze_many(self, prs: Iterable[PullRequest], concurrency: int = 4) -> Iterator[LLMAnalysisResult]:
        """Results as they complete (not in input order), at most `concurrency` requests in flight. The
        input is read lazily, a few PRs ahead of the workers."""
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="prhub-llm")
        pending: set[Future[LLMAnalysisResult]] = set()
        try:
            for pr in prs:
                pending.add(pool.submit(self.analyze, pr))
                if len(pending) >= 2 * concurrency:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    yield from (future.result() for future in done)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                yield from (future.result() for future in done)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def user_message(self, pr: PullRequest, hints: Analysis) -> str:
        """The user message for `pr`: the delimited PR data, the hints, then the task."""
        boundary = boundary_for(pr)
        return self._prompt.user_template.format(
            boundary=boundary,
            pr=_defang(render_pr(pr, self._diff_budget), boundary),
            hints=_defang(render_hints(hints), boundary),
            task=self._prompt.task,
        ).strip()

    def _ask(self, pr: PullRequest, hints: Analysis, tally: _Tally) -> Analysis:
        user = self.user_message(pr, hints)
        answer = self._complete(user, tally)
        try:
            return grounded(to_analysis(parse_answer(answer), self.version, self._language), pr)
        except InvalidAnswer as first:
            boundary = boundary_for(pr)
            repair = self._prompt.repair_template.format(
                boundary=boundary,
                answer=_defang(answer[:REPAIR_ANSWER_CHARS], boundary),
                intro=self._prompt.repair_intro,
                errors=str(first),
                task=self._prompt.repair_task,
            )
            second = self._complete(user + repair.rstrip(), tally)
            try:
                return grounded(to_analysis(parse_answer(second), self.version, self._language), pr)
            except InvalidAnswer as exc:
                raise InvalidAnswer(f"the answer failed validation twice: {exc}") from None

    def _complete(self, user: str, tally: _Tally) -> str:
        tally.requests += 1
        reply = self._llm.complete_json(self._prompt.system, user, SCHEMA_NAME, ANSWER_SCHEMA)
        tally.prompt_tokens += reply.prompt_tokens
        tally.completion_tokens += reply.completion_tokens
        tally.model = reply.model
        return reply.text


def grounded(analysis: Analysis, pr: PullRequest) -> Analysis:
    """The analysis, when every PR number and code identifier its texts name occurs in the PR (its own
    number, numbers and identifiers from its title, description, files, patches and discussion).
    Raises InvalidAnswer naming what does not, so the model is asked once more."""
    source = "\n".join(
        [
            pr.title,
            pr.header.body or "",
            *(f.filename for f in pr.files),
            *(f.patch or "" for f in pr.files),
            *(r.body for r in pr.reviews),
            *(c.body for c in pr.comments),
        ]
    )
    texts = [analysis.summary, *(r.text for r in analysis.risks)]
    for text in analysis.texts.values():
        texts += [
            text.gist,
            text.verdict_reason,
            *text.key_points,
            *text.follow_ups,
            *text.reading_guide,
            *text.risks,
        ]
    numbers = {int(n) for t in texts for n in _PR_NUMBER.findall(t)} - {pr.number}
    unknown_numbers = sorted(n for n in numbers if f"#{n}" not in source and f"/{n}" not in source)
    unknown = sorted({i for t in texts for i in code_identifiers(t) if i not in source})
    problems = []
    if unknown_numbers:
        problems.append("PR numbers not in the PR: " + ", ".join(f"#{n}" for n in unknown_numbers))
    if unknown:
        problems.append("identifiers not in the PR: " + ", ".join(unknown[:10]))
    if problems:
        raise InvalidAnswer("; ".join(problems))
    return analysis


def _defang(text: str, boundary: str) -> str:
    """Belt and braces: should PR text ever contain the boundary id, it cannot form a real marker."""
    return text.replace(boundary, "[boundary]")
