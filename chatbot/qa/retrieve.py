"""Retrieval for answers: everything comes from the store's queries and its search index."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cache, lru_cache
from typing import Any

from sqlalchemy import JSON, ColumnElement, Text, and_, case, cast, exists, func, or_, select, true
from sqlalchemy.orm import Session, aliased

from chatbot.analysis.heuristic import TEXT as ANALYZER_TEXT
from chatbot.analysis.heuristic import names_semantics
from chatbot.analysis.types import Analysis, ConfigFact, ConfigKind, LocalizedAnalysis
from chatbot.messages import Language
from chatbot.models import PullHeader, PullRequest
from chatbot.qa.glossary import default_glossary, term_pattern
from chatbot.qa.parse import KnownRepo
from chatbot.qa.query import LIST_MAX, Intent, Order, Query, Window
from chatbot.qa.reverts import Reverted, reverted_prs
from chatbot.reports.builder import AnalyzedPR, clean_title, counts_as_review
from chatbot.store.analyses import ANALYSIS_MARK, current_analysis
from chatbot.store.index import PRIndex, to_pull_request
from chatbot.store.schema import AnalysisRow, PullRequestRow, RepoRow, SearchDocumentRow
from chatbot.store.search import MIN_TRIGRAM_TERM, search_all, search_any, window_matches
from chatbot.team.corrections import Corrector

SEARCH_LIMIT = 200
# A window of at most WINDOW_SCAN PRs (months of the busiest repos) has all its search documents
# scored, which finds every synonym; a bigger one is narrowed by the search index first (at most
# WINDOW_CANDIDATES PRs per word).
WINDOW_SCAN = 3000
WINDOW_CANDIDATES = 2000
# How many of the most important PRs a list answer shows, and a comparison.
LIST_LIMIT = 8
COMPARE_SHOWN = 5
# How many of the most important matching PRs each kind of answer shows, so needs whole analyses of;
# the others are only counted, ranked and filtered, which their scores columns allow. Risks and reading
# lists (not here) read every analysis.
SHOWN: dict[Intent, int] = {
    "highlights": LIST_LIMIT,
    "topic": LIST_LIMIT,
    "author": LIST_LIMIT,
    "search": LIST_LIMIT,
    "compare": COMPARE_SHOWN,
    "stats": 0,
}
# The answers that list the top of their PRs and only count the rest: when nothing but columns of the
# analysis table filter and order them (no words, no modules, no readers' corrections of the repo), the
# database ranks and counts them and only the shown ones are read, however long the window.
LISTS: tuple[Intent, ...] = ("highlights", "topic", "author", "search", "must_read")
READING = ("must-read", "worth-reading")
# The modules of a PR that touches no shipped code.
PERIPHERAL_MODULES = frozenset(
    ("doc", "docs", "ci", "test", "tests", "docker", "example", "examples", "recipe")
)
ALL_TIME_START = datetime(1970, 1, 1, tzinfo=UTC)
ALL_TIME_END = datetime(2200, 1, 1, tzinfo=UTC)


@dataclass(slots=True)
class Evidence:
    """What an answer may use: the repo, the window's matching PRs with their analyses, and for some
    intents the previous window's PRs or one PR."""

    repo: str
    last_synced_at: datetime | None
    # For the intents in SHOWN, only the records the answer shows carry their whole analysis; the others,
    # like the previous window's, carry scores, verdict, change type and modules (no texts, no risks).
    # For a risks question, every record carries those, its tests and its risks in the asker's language
    # (no other texts).
    records: list[AnalyzedPR] = field(default_factory=list)
    previous: list[AnalyzedPR] = field(default_factory=list)
    # The window `previous` was read from (a week not over yet is compared with the same part of the last).
    previous_window: Window | None = None
    pr: AnalyzedPR | None = None
    # How well each PR matches the question's words (BM25; of a PR whose title names some, a part only:
    # `ranked` orders those by `titled`), and how many of them (and of the modules it names, by the
    # analysis' tags) its title names, when the question has any.
    scores: dict[int, float] = field(default_factory=dict)
    titled: dict[int, int] = field(default_factory=dict)
    modules: tuple[str, ...] = ()
    # In a relaxed reading, the question's terms that none of the records contains.
    dropped: tuple[str, ...] = ()
    # When set, `records` are only the PRs a list answer shows, and this counts all the matching ones
    # by verdict (see LISTS).
    verdicts: Counter[str] | None = None
    # For a question about reverts, the PR each revert among `records` undid (by the revert's number).
    reverted: dict[int, Reverted] = field(default_factory=dict)
    # It asks for the largest PRs, those open longest or the newest (`Query.order`): `ranked` lists
    # them first.
    order: Order | None = None
    # For a question about reviews (`Query.review`), who reviewed each PR of the window.
    reviews: WindowReviews | None = None
    # For a list of breaking changes, the PRs among `records` not flagged breaking whose analysis sees a
    # compatibility risk that may break callers, with those risks in the asker's language (`may_break`).
    may_break: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # For a question about configuration ("改了哪些配置项", "any new CLI flags"), what each of `records`
    # changed of the asked kinds, as its analysis' config facts record it, or what an analysis without
    # facts says in its config risks (`config_changes`).
    config: dict[int, tuple[ConfigFact, ...]] = field(default_factory=dict)
    config_said: dict[int, tuple[str, ...]] = field(default_factory=dict)
    config_kinds: tuple[ConfigKind, ...] = ()

    @property
    def count(self) -> int:
        """How many PRs match the question (not only those in `records`)."""
        return sum(self.verdicts.values()) if self.verdicts is not None else len(self.records)

    def reading_count(self) -> int:
        """How many matching PRs are must-read or worth reading."""
        if self.verdicts is not None:
            return sum(self.verdicts[verdict] for verdict in READING)
        return sum(1 for r in self.records if r.analysis.verdict in READING)

    def band(self, record: AnalyzedPR) -> int:
        """How many of the question's groups of words the PR's title names, and of its modules the
        analysis tags it with."""
        return self.titled.get(record.number, 0) + len(set(self.modules) & set(record.analysis.modules))

    def rank_key(
        self, number: int, importance: float, insight: float, modules: Collection[str] = ()
    ) -> tuple[float, ...]:
        """Where `ranked` puts a PR with these scores and module tags, by default (no `order`)."""
        band = self.titled.get(number, 0) + len(set(self.modules) & set(modules))
        match = 0.0 if band else self.scores.get(number, 0.0)
        return (-band, -match, -importance, -insight, -number)

    def ranked(self, records: Collection[AnalyzedPR]) -> list[AnalyzedPR]:
        """The PRs whose titles (or module tags) name more of what the question asks about first, most
        important first among them; the PRs that only discuss it next, best BM25 match first; without
        words or modules, most important first. Newest first or largest first when the question asks."""
        if self.order == "newest":
            return sorted(
                records, key=lambda r: (r.pr.header.merged_at or ALL_TIME_START, r.number), reverse=True
            )

        def key(record: AnalyzedPR) -> tuple[float, ...]:
            if self.order == "size":
                return (-(record.pr.additions + record.pr.deletions), *importance_rank(record))
            if self.order == "open":
                return (-open_days(record), *importance_rank(record))
            analysis = record.analysis
            return self.rank_key(record.number, analysis.importance, analysis.insight, analysis.modules)

        return sorted(records, key=key)


@dataclass(frozen=True, slots=True)
class WindowReviews:
    """Who reviewed each PR merged in a window, each person once, in the order they first reviewed it
    (bots and the author's own reviews left out), and whether the index holds any review of those PRs at
    all, by anyone (an import from an export that carries no reviews holds none)."""

    reviewers: dict[int, tuple[str, ...]]
    recorded: bool

    def numbers(self, query: Query) -> set[int] | None:
        """The PRs the question keeps: those `query.reviewer` reviewed, or those nobody reviewed; None
        when it keeps them all (who reviewed the most ranks every PR's reviewers)."""
        if query.review == "by":
            person = (query.reviewer or "").lower()
            return {n for n, names in self.reviewers.items() if person in (name.lower() for name in names)}
        if query.review == "none":
            return {n for n, names in self.reviewers.items() if not names}
        return None


def window_reviews(session: Session, repo: RepoRow, start: datetime, end: datetime) -> WindowReviews:
    """The reviews of the PRs of `repo` merged in [start, end), from their stored review summaries."""
    reviewers: dict[int, tuple[str, ...]] = {}
    recorded = False
    rows = session.execute(
        select(PullRequestRow.number, PullRequestRow.author, PullRequestRow.reviews).where(
            PullRequestRow.repo_id == repo.id,
            PullRequestRow.merged_at >= start,
            PullRequestRow.merged_at < end,
        )
    )
    for number, author, reviews in rows:
        logins = [str(r.get("author") or "") for r in reviews or () if isinstance(r, dict)]
        recorded = recorded or bool(logins)
        reviewers[number] = tuple(dict.fromkeys(name for name in logins if counts_as_review(name, author)))
    return WindowReviews(reviewers, recorded)


# How many PRs whose stored reviews hold a login's text `reviewed_anything` reads to find one it reviewed.
REVIEWS_CHECKED = 20


def reviewed_anything(session: Session, login: str) -> bool:
    """Whether `login` (lower-case) reviewed some indexed PR, a bot's or the author's own review aside: a
    person a question names may have written no PR ("what did erin review", "erin 最近在干什么")."""
    # The login quoted in the JSON text narrows the rows (a login's "_" matching any letter there only
    # lets more through); the reviews' authors then decide.
    rows = session.execute(
        select(PullRequestRow.author, PullRequestRow.reviews)
        .where(cast(PullRequestRow.reviews, Text).ilike(f'%"{login}"%'))
        .limit(REVIEWS_CHECKED)
    )
    return any(
        str(r.get("author") or "").lower() == login and counts_as_review(str(r.get("author")), author)
        for author, reviews in rows
        for r in reviews or ()
        if isinstance(r, dict)
    )


def open_days(record: AnalyzedPR) -> float:
    """How long the PR was open before it merged, in days (0 when either time is unknown)."""
    header = record.pr.header
    if header.merged_at is None or header.created_at is None:
        return 0.0
    return max((header.merged_at - header.created_at).total_seconds() / 86400, 0.0)


def importance_rank(record: AnalyzedPR) -> tuple[float, float, int]:
    """The sort key of answers: most important first, then most insightful, then newest number."""
    return (-record.analysis.importance, -record.analysis.insight, -record.number)


def known_repos(session: Session) -> list[KnownRepo]:
    """Every indexed repo by the names a question may use (two columns, not the repo rows: every
    question reads them)."""
    rows = session.execute(select(RepoRow.full_name, RepoRow.aliases).order_by(RepoRow.full_name))
    return [KnownRepo(full_name, tuple(aliases or ())) for full_name, aliases in rows]


def known_modules(session: Session) -> frozenset[str]:
    """Every module name the stored analyses use: the vocabulary for module names (and their typos)."""
    # The database lists the names of the distinct lists of names (the benchmark's 100k analyses hold
    # 6,600 lists of 20 names): a cost of every `prhub ask`'s first question. DISTINCT over the JSON
    # text: PostgreSQL's json type has no equality operator.
    lists = select(cast(AnalysisRow.modules, Text).label("encoded")).distinct().subquery()
    if session.get_bind().dialect.name == "postgresql":
        # Each element as JSON text, decoded here.
        element = func.json_array_elements(cast(lists.c.encoded, JSON)).table_valued("value")
        statement = select(cast(element.c.value, Text)).select_from(lists).join(element, true())
        return frozenset(str(json.loads(value)) for value in session.scalars(statement.distinct()))
    element = func.json_each(lists.c.encoded).table_valued("value")
    statement = select(element.c.value).select_from(lists).join(element, true())
    return frozenset(str(value) for value in session.scalars(statement.distinct()))


# How many of a repo's newest analysed PRs the help text's example module is chosen from.
EXAMPLE_SAMPLE = 100


def example_subjects(session: Session, full_name: str, until: datetime) -> tuple[int, str | None] | None:
    """A PR number and a module of the repo for the help text's examples, so that they name what the
    index holds: its newest PR merged before `until` (now), and the module its newest analysed PRs name
    most (not the repo's own name, docs, tests or CI); None when the repo has no such PR."""
    repo = PRIndex(session).repo(full_name)
    if repo is None:
        return None
    pr = PullRequestRow
    newest = session.scalar(
        select(pr.number)
        .where(pr.repo_id == repo.id, pr.merged_at < until)
        .order_by(pr.merged_at.desc())
        .limit(1)  # `scalar` would load every row to keep the first
    )
    if newest is None:
        return None
    rows = session.scalars(
        select(cast(AnalysisRow.modules, Text))
        .join(pr, AnalysisRow.pr_id == pr.id)
        .where(pr.repo_id == repo.id, pr.merged_at < until)
        .order_by(pr.merged_at.desc())
        .limit(EXAMPLE_SAMPLE)
    )
    skipped = PERIPHERAL_MODULES | {full_name.split("/")[-1].lower()}
    counts = Counter(m for encoded in rows for m in json.loads(encoded or "[]") if m not in skipped)
    return newest, (counts.most_common(1)[0][0] if counts else None)


_TITLE_WORD = re.compile(r"[a-z][a-z0-9]+")


def title_words(session: Session, repo: str) -> Counter[str]:
    """The words of the repo's PR titles (identifiers split at `_`, `.`, `-`) with how many titles use
    each: the vocabulary a mistyped search word is corrected against ("grop" → "grpo")."""
    titles = session.scalars(
        select(PullRequestRow.title)
        .join(RepoRow, RepoRow.id == PullRequestRow.repo_id)
        .where(RepoRow.full_name == repo)
    )
    return Counter(word for title in titles for word in set(_TITLE_WORD.findall(title.lower())))


# How many titles holding a word's letters `in_a_title` reads to find one holding it as a word.
TITLES_CHECKED = 500


def in_a_title(session: Session, word: str) -> bool:
    """Whether some indexed PR's title holds `word` as a whole word (case aside), among the first
    TITLES_CHECKED titles holding its letters."""
    pattern = re.compile(rf"(?<![a-z0-9]){re.escape(word.lower())}(?![a-z0-9])")
    like = f"%{word.lower().replace('%', '').replace('_', '')}%"
    statement = select(PullRequestRow.title).where(func.lower(PullRequestRow.title).like(like))
    return any(pattern.search(title.lower()) for title in session.scalars(statement.limit(TITLES_CHECKED)))


# How many search documents holding a word's letters `mentioned_in` reads for one using it as a word.
MENTIONS_CHECKED = 50


def uses_word(text: str, word: str) -> bool:
    """Whether lower-cased `text` uses `word` as a word: a Chinese word anywhere, another one with an
    ending at most ("padding" uses "pad"), not inside a longer word ("cookbook" does not use "cook",
    "price" not "rice")."""
    word = word.lower()
    if _HAN_TEXT.search(word) or len(word) >= WHOLE_WORDS_BELOW:
        return word in text  # a long word inside an identifier is that word ("usesuspensequery")
    ending = r"(?:s|es|ed|d|ing|\w?ing)?"
    return re.search(rf"(?<![a-z0-9]){re.escape(word)}{ending}(?![a-z0-9])", text) is not None


# Words this long are rarely inside an unrelated longer one, and often inside an identifier.
WHOLE_WORDS_BELOW = 6
_HAN_TEXT = re.compile(r"[\u3400-\u9fff]")


def mentioned_in(session: Session, full_name: str, word: str) -> bool:
    """Whether some PR of repo `full_name` uses `word` as a word anywhere in its search document (title,
    description, file paths, review text, analysis), among the first MENTIONS_CHECKED documents holding
    its letters: a question's word the repo never uses ("天气", "world cup", "cook" though a PR names
    the cookbook) is no subject of it."""
    repo = PRIndex(session).repo(full_name)
    if repo is None:
        return False
    ids = search_all(session, [[word.lower()]], repo_id=repo.id, limit=MENTIONS_CHECKED)
    return bool(ids) and any(uses_word(d, word) for d in _documents(session, repo, None, ids).values())


# How many search documents holding `word/` `top_directory` reads for one where it starts a path.
DIRECTORIES_CHECKED = 50


def top_directory(session: Session, full_name: str, word: str) -> bool:
    """Whether `word` is a top-level directory of some changed file of repo `full_name`'s PRs, among the
    first DIRECTORIES_CHECKED search documents holding `word/` ("recipe" in verl, not "rollout")."""
    repo = PRIndex(session).repo(full_name)
    if repo is None:
        return False
    ids = search_all(session, [[f"{word}/"]], repo_id=repo.id, limit=DIRECTORIES_CHECKED)
    if not ids:
        return False
    # a changed file's path starts a line or follows a space
    pattern = re.compile(rf"(?:^|\s){re.escape(word)}/", re.MULTILINE)
    return any(pattern.search(document) for document in _documents(session, repo, None, ids).values())


def known_authors(session: Session) -> frozenset[str]:
    """Every login that authored an indexed PR, lower-cased: tells "carol 的 PR" from "PEFT 的 PR"."""
    return frozenset(a.lower() for a in session.scalars(select(PullRequestRow.author).distinct()) if a)


# What a PR's own text says to state a breaking change, and the search index's words for finding it.
_STATES_BREAKING = re.compile(
    r"(?<!non-)(?<!non )(?<!zero )\bbreaking(?:[ _-]?changes?\b|\s*:)|\bbreaks? (?:backwards? )?compatibility"
    r"|\bbackwards?[ -]incompatible|不兼容|不再兼容|破坏性(?:变更|改动|修改|更新)"
)
BREAKING_WORDS = ("breaking", "incompatible", "breaks compat", "不兼容", "不再兼容", "破坏性")


def _states_breaking(text: str) -> bool:
    """Whether lower-cased `text` says it breaks something ("BREAKING:", "this is a breaking change",
    "不兼容的改动"), not that it does not ("no breaking changes", "没有不兼容的改动")."""
    negated = [clause.span() for clause in _NEGATED_CLAUSE.finditer(text)]
    return any(
        not any(start < m.start() <= end for start, end in negated) for m in _STATES_BREAKING.finditer(text)
    )


def stated_breaking(
    session: Session, repo: RepoRow, start: datetime, end: datetime, corrector: Corrector
) -> set[int]:
    """The PRs merged in [start, end) whose own text (title, description, review) states a breaking
    change, for the breaking filter beside the analysis' flag: an analysis may miss what the author
    wrote. A reader's correction saying whether a PR is breaking wins over its text."""
    ids = search_any(
        session, list(BREAKING_WORDS), repo_id=repo.id, start=start, end=end, limit=WINDOW_CANDIDATES
    )
    if not ids:
        return set()
    documents = _documents(session, repo, None, ids)
    corrected = {n for n, c in corrector.corrections.items() if c.breaking is not None}
    return {
        number
        for number, document in documents.items()
        if number not in corrected and _states_breaking(document.partition(ANALYSIS_MARK)[0])
    }


# The risks that may break a caller of a PR not flagged breaking: a compatibility risk the analysis
# does not call unlikely (low) saying a public definition or config key is removed or renamed, or that
# callers will fail ("删除了公共接口 X，外部调用方会失效", "config keys renamed (a → b)"); not one asking for
# a newer dependency ("需要 sglang>=0.4.8").
BREAKS_CALLERS = ("breaking-change", "compatibility")
_BREAKS_CALLERS_TEXT = re.compile(
    r"删除|删掉|移除|去掉|改名|重命名|不再(?:支持|可用|兼容)|失效|报错|不兼容"
    r"|\b(?:remov|renam|delet|drop)(?:ed|es|ing|e|s)?\b|\bno longer\b|\bbreak|\bfail|incompatib",
    re.IGNORECASE,
)
LISTING_INTENTS: tuple[Intent, ...] = ("topic", "search", "highlights")


def may_break(
    session: Session,
    query: Query,
    window: Window | None,
    fallback: Callable[[PullRequest], Analysis],
    flagged: Collection[int],
    *,
    relaxed: bool = False,
    until: datetime | None = None,
) -> tuple[list[AnalyzedPR], dict[int, tuple[str, ...]]]:
    """The PRs meeting the question's other conditions that are not among the `flagged` breaking ones
    but whose analysis has a compatibility risk of medium or high severity ("删除了公共接口 X，外部调用方
    会失效"), most important first, each with those risks as worded in the asker's language: what the
    weekly report names among the week's top risks, so the breaking answer does not leave it out."""
    evidence = gather(
        session,
        replace(query, breaking=False, intent="risks"),
        window,
        fallback,
        relaxed=relaxed,
        until=until,
    )
    found: list[AnalyzedPR] = []
    texts: dict[int, tuple[str, ...]] = {}
    for record in evidence.records:
        if record.number in flagged or record.analysis.breaking:
            continue
        worded = [
            text
            for risk, text in zip(record.analysis.risks, record.risk_texts(query.language), strict=True)
            if risk.category in BREAKS_CALLERS
            and risk.severity != "low"
            and (_BREAKS_CALLERS_TEXT.search(risk.text) or _BREAKS_CALLERS_TEXT.search(text))
        ]
        if worded:
            found.append(record)
            texts[record.number] = tuple(worded)
    found.sort(key=importance_rank)
    return found, texts


# Configuration questions ------------------------------------------------------------------------------

# The glossary concepts a question about configuration names, and the kinds of change (`ConfigKind`) of
# the analyses' config facts each asks about. A key that now follows another has no new default.
CONFIG_TOPICS: dict[str, tuple[ConfigKind, ...]] = {
    "config": ("default_changed", "required", "follows", "added", "removed", "renamed", "moved"),
    "defaults": ("default_changed", "required"),
    "cli": ("flag_added", "flag_removed"),
}
_ADDED_KINDS: tuple[ConfigKind, ...] = ("added", "flag_added")
_REMOVED_KINDS: tuple[ConfigKind, ...] = ("removed", "flag_removed")
# A question asking only for what was added ("新增了哪些配置参数", "any new CLI flags") or removed.
_ASKS_ADDED = re.compile(r"新增|新加|加了|增加|添加|\bnew\b|\badd(?:s|ed|ing)?\b")
_ASKS_REMOVED = re.compile(r"删除|删掉|移除|去掉|\bremov\w*|\bdrop\w*|\bdeleted?\b")


def config_scope(kinds: Collection[str]) -> str:
    """What a question about configuration asks, in one word: "default", "cli", "added", "removed" or
    "all" (the message key of what its answer says it lists)."""
    if set(kinds) <= set(CONFIG_TOPICS["defaults"]):
        return "default"
    if set(kinds) <= set(CONFIG_TOPICS["cli"]):
        return "cli"
    if set(kinds) <= set(_ADDED_KINDS):
        return "added"
    if set(kinds) <= set(_REMOVED_KINDS):
        return "removed"
    return "all"


def config_kinds(query: Query) -> tuple[ConfigKind, ...]:
    """The kinds of configuration change a question asks about ("哪些 PR 改了默认值": defaults changed),
    or none when it is not about configuration alone (beside modules, authors and words it may name)."""
    asked = [t for t in query.topics if t in CONFIG_TOPICS]
    if not asked or query.paths or set(query.alternatives) & set(CONFIG_TOPICS):
        return ()
    if any(t not in CONFIG_TOPICS and t != "cleanup" for t in query.topics):
        return ()
    if "defaults" in asked:
        asked = ["defaults"]  # "哪些配置的默认值变了": the defaults of the config, not every config change
    kinds = list(dict.fromkeys(kind for topic in asked for kind in CONFIG_TOPICS[topic]))
    text = query.text.lower()
    added = bool(_ASKS_ADDED.search(text)) or "feat" in query.change_types
    removed = "cleanup" in query.topics or bool(_ASKS_REMOVED.search(text))
    if added != removed:
        wanted = _ADDED_KINDS if added else _REMOVED_KINDS
        kinds = [k for k in kinds if k in wanted] or kinds
    return tuple(kinds)


def recorded_config(
    record: AnalyzedPR, kinds: Collection[str], language: Language
) -> tuple[tuple[ConfigFact, ...], tuple[str, ...]]:
    """What a PR's analysis records of the asked kinds of configuration change: its config facts of
    those kinds; else, for an analysis that records no config facts at all (one stored before they were
    recorded, or an LLM's over a diff the heuristic found none in) and a question about config keys in
    general, its risks of the config category, in `language`."""
    facts = tuple(fact for fact in record.analysis.config if fact.kind in kinds)
    if facts or record.analysis.config or not set(kinds) & {"added", "removed", "renamed"}:
        return facts, ()
    risks = zip(record.analysis.risks, record.risk_texts(language), strict=True)
    return (), tuple(text for risk, text in risks if risk.category == "config")


def config_changes(
    session: Session,
    query: Query,
    window: Window | None,
    fallback: Callable[[PullRequest], Analysis],
    kinds: Collection[ConfigKind],
    *,
    until: datetime | None = None,
) -> Evidence:
    """The PRs meeting the question's other conditions (modules, author, words) whose analyses record a
    configuration change of the asked kinds, most important first, each with what its analysis records
    (`Evidence.config`): a question about configuration is answered from what the analyses found in the
    diffs, not by searching for the word "配置"."""
    rest = replace(
        query,
        topics=tuple(t for t in query.topics if t not in CONFIG_TOPICS and t != "cleanup"),
        change_types=tuple(t for t in query.change_types if t != "feat"),
    )
    evidence = gather(session, rest, window, fallback, whole=True, until=until)
    recorded = {r.number: recorded_config(r, kinds, query.language) for r in evidence.records}
    evidence.records = sorted((r for r in evidence.records if any(recorded[r.number])), key=importance_rank)
    evidence.config = {r.number: recorded[r.number][0] for r in evidence.records if recorded[r.number][0]}
    evidence.config_said = {
        r.number: recorded[r.number][1] for r in evidence.records if recorded[r.number][1]
    }
    evidence.config_kinds = tuple(kinds)
    evidence.scores, evidence.titled, evidence.verdicts = {}, {}, None
    return evidence


def changes_semantics(record: AnalyzedPR) -> bool:
    """Whether the PR changes what training or inference computes, as the heuristic analyzer weighs it
    ("changes training or inference semantics", `names_semantics`) and that is not only docs, tests
    or CI."""
    analysis = record.analysis
    return not set(analysis.modules) <= PERIPHERAL_MODULES and names_semantics(
        analysis.change_type, clean_title(record.pr.header.title)
    )


def _matches(
    record: AnalyzedPR,
    query: Query,
    module_hits: set[int] | None,
    stated: Collection[int] = (),
    alternative: Collection[int] = (),
) -> bool:
    """Whether a PR passes the question's filters. A module matches by the analysis' modules or, when
    the analysis did not tag it, by the module's name in the PR's text (modules are a signal, not a
    vocabulary every analysis must share); a breaking change by the analysis' flag or, when the
    analysis did not set it, by its own words (`stated`, see `stated_breaking`); a question offering a
    change type among alternatives by that type or by being about another alternative (`alternative`,
    see `_about_an_alternative`)."""
    analysis = record.analysis
    if (
        query.alternative_types
        and analysis.change_type not in query.alternative_types
        and record.number not in alternative
    ):
        return False
    if (
        query.modules
        and not set(query.modules) & set(analysis.modules)
        and (module_hits is None or record.number not in module_hits)
    ):
        return False
    if query.change_types and analysis.change_type not in query.change_types:
        return False
    if query.breaking and not analysis.breaking and record.number not in stated:
        return False
    if query.untested and (analysis.tests or not any(r.category == "missing-tests" for r in analysis.risks)):
        return False
    if query.semantics and not changes_semantics(record):
        return False
    return not (query.author and record.pr.header.author.lower() != query.author.lower())


# BM25 parameters, and how much more a word in the title counts than one in the body. Length matters
# less than in the usual B = 0.75: a PR description's length follows its template and checklists more
# than how much of it is about the word.
K1, B = 1.2, 0.3
TITLE_WEIGHT = 3
ANALYSIS_WEIGHT = 0.5
# The relevance floor: a PR is about a word when the word is in its title, or at least SALIENT times in
# its description, changed file paths, review text and analysis (whose key points and risks are what the
# analysis found to matter): a file under `examples/grpo_trainer/` alone does not make a PR about GRPO,
# that file and one sentence do. A single mention only counts for a PR whose description has at most
# SHORT_TEXT characters, where one sentence is all there is, and for a path the question names.
SALIENT = 2.0
SHORT_TEXT = 400


@dataclass(frozen=True, slots=True)
class Occurrence:
    """How often a group's words occur in one PR's search document, and whether the PR is about them."""

    # For a PR whose title names the word, only the title's mentions: its title makes it about the word,
    # and such a PR ranks by how many of the question's groups its title names, not by BM25
    # (`Evidence.ranked`), so the rest of its text is not read.
    frequency: float
    salient: bool
    # The word is in the PR's title (or the analysis' title).
    titled: bool


# A name of several words as a question or a glossary writes it ("flash attention", "rms_norm", "flash-attn").
_NAME_PARTS = re.compile(r"[a-z][a-z0-9]*(?:[ _-][a-z0-9]+)+")
_NAME_SEPARATOR = re.compile(r"[ _-]")
# A name's parts run together are found inside longer names only from this length: "rmsnorm" in
# `llamarmsnorm`, "virtuallist" in `virtuallist.tsx`, not "ab" in everything.
RUN_TOGETHER = 6


@lru_cache(maxsize=4096)  # questions' words are unbounded, a glossary's and a module list's are not
def _word_pattern(word: str) -> tuple[tuple[str, ...], str, re.Pattern[str]]:
    """How `word` is found in lower-cased text: the phrases the search index is asked for, the text
    every match contains (looked for before the pattern is run) and the pattern. A name of several
    words is found however code spells it: its parts joined by a space, an underscore or a hyphen, as
    whole words, or run together anywhere (a lower-cased CamelCase name: "virtual list" finds
    `VirtualList.tsx`, "rms norm" `RMSNorm` and `rms_norm`, "flash attention" `FlashAttention-2`);
    every spelling holds its longest part."""
    if not _NAME_PARTS.fullmatch(word):
        return (word,), word, term_pattern(word)
    parts = _NAME_SEPARATOR.split(word)
    apart = term_pattern(" ".join(parts)).pattern.replace(re.escape(" "), "[ _-]")
    spelled = [separator.join(parts) for separator in (" ", "_", "-")]
    joined = "".join(parts)
    if len(joined) >= RUN_TOGETHER:
        apart, spelled = f"{apart}|{re.escape(joined)}", [*spelled, joined]
    return (word, *dict.fromkeys(w for w in spelled if w != word)), max(parts, key=len), re.compile(apart)


def _path_pattern(path: str) -> re.Pattern[str]:
    """Where a path the question names occurs: a top-level directory ("docs/") where a path starts
    (`docs/index.md` among the changed files, not "docs" in prose nor `verl/docs/`), anything else as
    written."""
    if path.endswith("/") and path.count("/") == 1:
        return re.compile(rf"(?<!\S){re.escape(path)}")
    return re.compile(re.escape(path))


@dataclass(frozen=True, slots=True)
class _Group:
    """Words of which any one must occur in a matching PR's text (a term, a concept's synonyms, a path);
    a module group is optional (it ranks) and its tag alone also makes a PR match. `words` are what the
    search index is asked for; each of `patterns` matches only where its one of `keys` occurs."""

    words: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]
    keys: tuple[str, ...]
    module: bool = False
    # A path the question names: any PR that touched it is about it.
    literal: bool = False

    @classmethod
    def union(cls, groups: Collection[_Group]) -> _Group:
        """One group finding whatever any of `groups` finds."""
        return cls(
            tuple(w for g in groups for w in g.words),
            tuple(p for g in groups for p in g.patterns),
            tuple(k for g in groups for k in g.keys),
        )

    @classmethod
    def of(cls, words: Collection[str], *, literal: bool = False, module: bool = False) -> _Group:
        """A group finding any of `words`: a path as written (`literal`), else each word as a whole word
        and a name of several words in every spelling code gives it (`_word_pattern`)."""
        unique = dict.fromkeys(w.lower() for w in words if w)
        found = [((w,), w, _path_pattern(w)) if literal else _word_pattern(w) for w in unique]
        return cls(
            tuple(dict.fromkeys(p for phrases, _, _ in found for p in phrases)),
            tuple(pattern for _, _, pattern in found),
            tuple(key for _, key, _ in found),
            module,
            literal,
        )

    def occurrence(self, document: str | SearchText, asked: frozenset[str] = frozenset()) -> Occurrence:
        """How often the group's words occur in a search document: the PR's own text and the analysis'
        title at full weight (the PR's title TITLE_WEIGHT more), the rest of the analysis at
        ANALYSIS_WEIGHT and only where it does not negate the word ("未改动测试" is not about tests);
        and whether that clears the relevance floor. A mention is counted once however many of the
        group's words it holds ("显存占用" is not also "显存"), and a sentence saying the PR leaves the
        thing alone ("不影响显存占用", "memory use is unchanged") does not mention it; nor does a part of a
        code name whose other parts the question does not ask about (`shared_memory` is no mention of
        memory, unless the question says "shared memory": `asked` holds every word of its groups)."""
        text = document if isinstance(document, SearchText) else SearchText(document)
        # Cheap test first: most documents lack most words.
        present = [(k, p) for k, p in zip(self.keys, self.patterns, strict=True) if k in text.document]
        if not present:
            return Occurrence(0.0, False, False)
        title, translated, prose, rest = text.parts()
        in_title = len(_mentions(present, title))
        in_translated = len(_mentions(present, translated))
        if in_title or in_translated:
            return Occurrence((1 + TITLE_WEIGHT) * in_title + in_translated, True, True)
        in_prose = in_paths = in_names = 0
        stated = False  # a mention that is not in passing
        for start, end in _mentions(present, prose):
            clause = _clause(prose, start, end)
            if _UNAFFECTED.search(clause):
                continue
            if "/" in _token_at(prose, start, end):
                in_paths += 1
                continue
            if _inside_a_name(prose, start, end, asked):
                in_names += 1
                continue
            in_prose += 1
            if not stated:
                stated = start < text.opening() or not _MINOR.search(clause)
        in_analysis = text.analysis_mentions(present, asked) if any(w in rest for w, _ in present) else 0
        # Changed files say yes or no: a PR touching twenty files of a directory is not twenty times
        # more about it than one whose title names it.
        paths = min(in_paths, 1)
        # A word inside a code name (`shared_memory`, `memory_pool`) ranks a little and alone never makes
        # the PR about the word: keeping cos/sin in `shared_memory` is no memory change.
        names = ANALYSIS_WEIGHT * min(in_names, 1)
        count = (
            (1 + TITLE_WEIGHT) * in_title
            + in_translated
            + in_prose
            + paths
            + names
            + ANALYSIS_WEIGHT * in_analysis
        )
        evidence = SALIENT * (in_title + in_translated) + in_prose + paths + in_analysis
        # One mention is enough in a short description, in a changed file's path or in the analysis, but
        # not one in passing: a minor point after the opening sentence ("Adds the template. Minor memory
        # usage increase.").
        mentioned = stated or in_paths > 0 or in_analysis > 0
        salient = evidence >= SALIENT or (mentioned and (self.literal or len(prose) <= SHORT_TEXT))
        return Occurrence(count, salient, in_title + in_translated > 0)


class SearchText:
    """A search document split once into what `_Group.occurrence` weighs differently (the PR's title and
    description, the analysis' title and the rest of the analysis), with what it works out about them
    remembered: a question of several word groups reads each document once, not once per group."""

    __slots__ = ("_flat", "_lines", "_opening", "_parts", "document")

    def __init__(self, document: str) -> None:
        self.document = document
        self._parts: tuple[str, str, str, str] | None = None
        self._opening = -1
        self._flat: str | None = None
        # By where a line of the analysis starts: the spans of it that negate what they name, None for a
        # line quoting the description; made when first needed (a question reads hundreds of documents).
        self._lines: dict[int, list[tuple[int, int]] | None] | None = None

    def parts(self) -> tuple[str, str, str, str]:
        """The PR's title, the analysis' title, the PR's description (with paths and review text) and
        the rest of the analysis."""
        if self._parts is None:
            own, _, written = self.document.partition(ANALYSIS_MARK)
            translated, _, rest = written.strip("\n").partition("\n")
            title, _, prose = own.partition("\n")
            self._parts = (title, translated, prose, rest)
        return self._parts

    def opening(self) -> int:
        """Where the description's opening sentence ends."""
        if self._opening < 0:
            prose = self.parts()[2]
            found = _SENTENCE_END.search(prose)
            self._opening = found.start() if found else len(prose)
        return self._opening

    def analysis_mentions(self, words: list[tuple[str, re.Pattern[str]]], asked: frozenset[str]) -> int:
        """How often the analysis' own lines (not `_quoted`) mention `words`, leaving out mentions inside
        a code name (`_inside_a_name`), in the analyzer's fixed wording (`_in_stock_text`) and in a clause
        that negates them. Every one of these is line-local (no word's pattern, negation or code name
        reaches across a line break, and a line is quoted or not by its own letters), so the words are
        found over the whole analysis at once and only the lines holding a mention are read further; nor
        is the description flattened when no line does."""
        rest = self.parts()[3]
        count = 0
        for start, end in _line_mentions(words, rest):
            if _inside_a_name(rest, start, end, asked) or _in_stock_text(rest, start, end):
                continue
            line_start = rest.rfind("\n", 0, start) + 1
            if self._lines is None:
                self._lines = {}
            if line_start not in self._lines:
                line_end = rest.find("\n", end)
                line = rest[line_start : line_end if line_end >= 0 else len(rest)]
                if self._flat is None:
                    self._flat = _LETTERS.sub("", self.parts()[2])
                self._lines[line_start] = (
                    None
                    if _quoted(line, self._flat)
                    else [
                        (line_start + cs, line_start + ce)
                        for cs, ce in (clause.span() for clause in _NEGATED_CLAUSE.finditer(line))
                    ]
                )
            negated = self._lines[line_start]
            if negated is not None and not any(cs < start <= ce for cs, ce in negated):
                count += 1
        return count


def _mentions(words: list[tuple[str, re.Pattern[str]]], text: str) -> list[tuple[int, int]]:
    """The spans of `text` where the pattern of any of `words` matches, overlapping matches counted once
    (the longest). A pattern only matches where its word is (`term_pattern`): one without its word in
    `text` is not run."""
    if not text:
        return []
    return _longest([m.span() for word, pattern in words if word in text for m in pattern.finditer(text)])


def _line_mentions(words: list[tuple[str, re.Pattern[str]]], text: str) -> list[tuple[int, int]]:
    """`_mentions` of each line of `text` (positions in `text`): what a pattern finds when no match may
    reach across a line break. Found over the whole text at once, unless a match does reach across one
    (a version after a line break); then line by line."""
    found = [m.span() for word, pattern in words if word in text for m in pattern.finditer(text)]
    if any(text.find("\n", start, end) >= 0 for start, end in found):
        found = []
        at = 0
        for line in text.split("\n"):
            found += [(at + s, at + e) for s, e in _mentions(words, line)]
            at += len(line) + 1
        return found
    return _longest(found)


def _longest(found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`found`'s spans without those overlapping a longer one (of equal ones, the first), in order."""
    if len(found) < 2:
        return found
    found.sort(key=lambda span: span[0] - span[1])
    kept: list[tuple[int, int]] = []
    for start, end in found:
        if not any(start < e and s < end for s, e in kept):
            kept.append((start, end))
    return sorted(kept)


_CLAUSE_ENDS = ",，。;；.!?！？\n"


def _clause(text: str, start: int, end: int) -> str:
    """The clause of `text` around [start, end): up to the nearest punctuation or line break."""
    left = max(text.rfind(ch, 0, start) for ch in _CLAUSE_ENDS) + 1
    right = min((i for i in (text.find(ch, end) for ch in _CLAUSE_ENDS) if i >= 0), default=len(text))
    return text[left:right]


# Where a description's opening sentence ends.
_SENTENCE_END = re.compile(r"[。！？!?;；\n]|\.(?=\s|$)")
# A clause playing something down ("minor memory usage increase", "显存略有增加").
_MINOR = re.compile(
    r"\bminor\b|\bslight(?:ly)?\b|\bsmall\b|\bnegligible\b|\bmarginal(?:ly)?\b|\btiny\b|\ba (?:bit|little)\b"
    r"|略|稍|轻微|少量|些许|一点"
)
# A clause saying the PR leaves something alone: a word in it is not what the PR is about.
_UNAFFECTED = re.compile(
    r"不影响|无影响|没有影响|不改变|不变|未变|不受影响|\bunchanged\b|\bunaffected\b"
    r"|\bno (?:change|impact|effect|difference)s?\b"
    r"|\b(?:does not|doesn['’]t|do not|don['’]t|will not|won['’]t|should not|shouldn['’]t|without) "
    r"(?:affect|chang|impact|touch|increas|alter)"
)


def _quoted(line: str, flat: str) -> bool:
    """Whether a line of an analysis is a sentence of the PR's description quoted back, not its own (a
    word the author wrote once and the analysis quotes is one mention, not three): `flat` is the
    description by its letters only, and lines are compared by theirs (quoting drops list numbers,
    backticks and line breaks)."""
    return _LETTERS.sub("", line) in flat


_LETTERS = re.compile(r"[\W\d_]+")


# The analyzer's own sentences are templates around PR data: their fixed words ("没有该硬件的 CI 执行不
# 到它", "without adding or changing tests") say nothing about what the PR is about. Fragments this long
# or longer are such wording; shorter ones are the kind of change and module names it fills in.
STOCK_FRAGMENT = 10


@cache
def _stock_fragments() -> tuple[str, ...]:
    """The fixed wording of every sentence the heuristic analyzer writes, lower-cased."""
    fragments = {
        fragment.strip().lower()
        for texts in ANALYZER_TEXT.values()
        for sentence in texts.values()
        for fragment in re.split(r"\{[^}]*\}", sentence)
        if len(fragment.strip()) >= STOCK_FRAGMENT
    }
    return tuple(sorted(fragments))


@cache
def _stock_containing(word: str) -> tuple[str, ...]:
    return tuple(fragment for fragment in _stock_fragments() if word in fragment)


def _in_stock_text(text: str, start: int, end: int) -> bool:
    """Whether [start, end) of an analysis `text` lies in the fixed wording of one of the analyzer's
    sentences (`_stock_fragments`): no evidence of what the PR is about."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    at, word = start - line_start, text[start:end]
    for fragment in _stock_containing(word):
        found = line.find(fragment)
        while found >= 0:
            if found <= at and at + len(word) <= found + len(fragment):
                return True
            found = line.find(fragment, found + 1)
    return False


def _inside_a_name(text: str, start: int, end: int, asked: frozenset[str]) -> bool:
    """Whether [start, end) of `text` is one part of a snake_case name (`shared_memory`) joined by an
    underscore to other parts, not all of which are `asked` words."""
    left, right = start, end
    while left > 0 and (text[left - 1].isalnum() or text[left - 1] == "_"):
        left -= 1
    while right < len(text) and (text[right].isalnum() or text[right] == "_"):
        right += 1
    if text[left:start].strip("_") == "" and text[end:right].strip("_") == "":
        return False
    if "_" not in text[left:start] + text[end:right]:
        return False
    others = [part for part in (text[left:start] + "_" + text[end:right]).split("_") if part]
    return not all(part in asked for part in others)


def _token_at(text: str, start: int, end: int) -> str:
    """The whitespace-delimited token of `text` around [start, end): a path when it holds a slash."""
    left = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
    right = min((i for i in (text.find(" ", end), text.find("\n", end)) if i >= 0), default=len(text))
    return text[left:right]


# A word in the clause after one of these (at most 30 characters of it) is said not to be there. A
# negation reaches to the end of its clause, which a causal verb also ends ("未释放导致显存增长" is about
# memory).
# Each English word is written with its first letter ahead of the word-boundary test ("n(?<!\wn)o" is
# "\bno"): a pattern whose every branch starts with a literal is scanned for those characters, one that
# starts with \b is tried at every position (ten times slower over the benchmark's documents, same matches).
_NEGATED_CLAUSE = re.compile(
    r"(?:未|没有|没|无|不|缺少|缺乏|n(?<!\wn)o|n(?<!\wn)ot|w(?<!\ww)ithout|m(?<!\wm)issing|l(?<!\wl)acks?)"
    r"(?:(?!导致|造成|引起|使得|\bcaus|\blead|\bbut\b|但)[^,，。;；.\n]){0,30}"
)


def text_groups(query: Query) -> list[_Group]:
    """What the question's words require: each glossary concept (any synonym), each unplaced term, each
    path; all groups must match."""
    return _required_groups(query) + _term_groups(query)


def asked_patterns(query: Query) -> tuple[tuple[re.Pattern[str], ...], ...]:
    """Per concept, term, path and module of the question, the words it may take as patterns over lower-cased
    text: what tells which of a PR's key points speaks to the question."""
    return tuple(group.patterns for group in (*text_groups(query), *_module_groups(query)))


def _required_groups(query: Query) -> list[_Group]:
    """The glossary concepts of the question, its paths as one group and its alternatives as one group:
    what even a relaxed reading still requires."""
    groups = [_subject_group(query, topic) for topic in query.topics if topic not in query.alternatives]
    if query.alternatives and not query.alternative_types:
        groups.append(_Group.union([_subject_group(query, key) for key in query.alternatives]))
    if query.paths:
        # Several paths are any of them ("setup.py or requirements.txt", "docs/ 和 examples/"): a PR
        # touching one of them is what the asker looks for, one touching all is rare.
        groups.append(_Group.of(query.paths, literal=True))
    return [group for group in groups if group.words]


def _subject_group(query: Query, key: str) -> _Group:
    """The words that find one topic (its glossary terms) or one term (its inflections, and the names
    it makes with the terms beside it, `_term_words`)."""
    if key in query.topics:
        concept = _Group.of(default_glossary().terms(key, query.repo))
        if key == UPGRADE_CONCEPT and (versioned := _versioned(query)):
            return _Group.union([concept, versioned])
        return concept
    return _Group.of(_term_words(query, key))


# The concept of a version upgrade: beside a package the question names ("升级 vllm", "vllm upgrades"),
# also a dependency change the analysis records naming the package ("依赖/镜像变化：… vllm0.8.5 →
# vllm0.9.1", "Key dependency version change: …"), and a verb moving to the package at a version ("update
# vllm 0.8.2", "use latest vLLM (0.8.5)", "migrate to new image with … vLLM 0.8.3").
UPGRADE_CONCEPT = "upgrade"
_PACKAGE = re.compile(r"[a-z][a-z0-9_.-]*[a-z0-9]")
_DEPENDENCY_CHANGE = (
    r"(?:依赖/镜像变化|关键依赖版本变化|依赖跨大版本变化|依赖或镜像版本变化|基础镜像换了标签"
    r"|dependency/image changes|key dependency version change|dependency or image version change"
    r"|base image tag change)"
)
_TO_A_VERSION = (
    r"\b(?:update[sd]?|updating|use[sd]?|using|migrate[sd]?|migrating|move[sd]? to|switch(?:es|ed)? to)\b"
)
_AT_A_VERSION = r"(?:\s+to)?(?:\s*[(=<>~^]+\s*|\s+v?|-?v?)\d+\.\d+"


def _versioned(query: Query) -> _Group | None:
    """A group finding the question's packages (modules and English terms) in a recorded dependency
    change, or moved to at a version."""
    packages = [w for w in dict.fromkeys((*query.modules, *query.terms)) if _PACKAGE.fullmatch(w)]
    if not packages:
        return None
    patterns = tuple(
        re.compile(
            rf"{_DEPENDENCY_CHANGE}[^\n]*?(?<![a-z]){re.escape(p)}"
            rf"|{_TO_A_VERSION}[^\n]{{0,40}}?(?<![a-z0-9]){re.escape(p)}{_AT_A_VERSION}"
        )
        for p in packages
    )
    return _Group(tuple(packages), patterns, tuple(packages))


def _unchained_terms(query: Query) -> tuple[str, ...]:
    return tuple(term for term in query.terms if term not in query.alternatives)


def _term_groups(query: Query) -> list[_Group]:
    groups = (_Group.of(_term_words(query, term)) for term in _unchained_terms(query))
    return [group for group in groups if group.words]


_ASCII_TERM = re.compile(r"[a-z][a-z0-9]*")
# The words of a CamelCase name as the asker wrote it: "RMSNorm" is RMS and Norm, "useInfiniteQuery" use,
# Infinite and Query.
_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


_FLAG_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")


def _term_words(query: Query, term: str) -> tuple[str, ...]:
    """What finds one search term: its inflections; written in CamelCase ("RMSNorm", "FlashAttention"),
    also its words apart, so `rms_norm` and "flash attention" are found; and beside another English
    term ("tray icon", "reverse proxy"), the name the two make, so `TrayIcon` and `reverseproxy/` are
    found though neither word stands alone there (`_Group.of` spells each name every way code does)."""
    words = list(_inflections(term))
    if _FLAG_NAME.fullmatch(term):
        words.append(
            term.replace("-", "_")
        )  # the flag --max-inflight is the key max_inflight in a config file
    written = next((w for w in query.understood if w.lower() == term and w != term), "")
    parts = _CAMEL_PART.findall(written)
    if len(parts) > 1 and "".join(parts) == written:
        words.append(" ".join(parts).lower())
    terms = query.terms
    if _ASCII_TERM.fullmatch(term) and term in terms:
        at = terms.index(term)
        if at > 0 and _ASCII_TERM.fullmatch(terms[at - 1]):
            words += [f"{terms[at - 1]} {form}" for form in _inflections(term)]
        if at + 1 < len(terms) and _ASCII_TERM.fullmatch(terms[at + 1]):
            words += [f"{term} {form}" for form in _inflections(terms[at + 1])]
    return tuple(words)


# Fewer PRs than this about every subject of a question of three, and those about some of them answer too.
PARTIAL_BELOW = 3


def _subject_groups(query: Query) -> list[_Group]:
    """Each glossary concept and each unplaced term of the question alone."""
    topics = [_subject_group(query, topic) for topic in query.topics if topic not in query.alternatives]
    return [group for group in topics if group.words] + _term_groups(query)


def partial_applies(query: Query, found: int) -> bool:
    """Whether PRs about some of the question's glossary concepts answer it, when `found` PRs are about
    all of them: none found and two concepts ("checkpoint resume hanging"), or fewer than PARTIAL_BELOW
    found and three subjects, a module counting as one ("sglang multi-turn tool calling"). A question
    with words of its own ("suspense queries", "save checkpoints") is a name, or a subject and its
    qualifier, which the relaxed reading of its terms (`gather`) answers; nor are alternatives wishes."""
    if query.alternatives or _unchained_terms(query):
        return False
    concepts = len(_subject_groups(query))
    if found == 0:
        return concepts >= 2
    return found < PARTIAL_BELOW and concepts >= 2 and concepts + len(query.modules) >= 3


def _alternative_groups(query: Query) -> list[_Group]:
    """Each alternative alone: optional groups, so a PR about more of them ranks first."""
    return [_subject_group(query, key) for key in query.alternatives]


_ENGLISH_WORD = re.compile(r"[a-z]{5,}")
# The shortest verb in -ate / -ize whose noun in -ion a term also finds ("validate", "quantize").
NOMINAL_STEM = 7


def _inflections(term: str) -> tuple[str, ...]:
    """An English term and the stems it may be inflected from, each found with its own inflections
    (`term_pattern`): "dropped" finds "drop support", "caching" finds "cache", "libraries" finds
    "library"; a verb and its noun in -ion find each other ("aggregated" finds "loss aggregation",
    "quantization" finds "quantize"). Other terms as written."""
    word = term.lower()
    if not _ENGLISH_WORD.fullmatch(word):
        return (term,)
    bases: list[str] = []
    if word.endswith(("ies", "ied")):
        bases.append(word[:-3] + "y")
    if word.endswith("ization"):
        bases.append(word[:-5] + "e")  # "quantization": "quantize"
    elif word.endswith("ation") and len(word) >= 8:
        bases.append(word[:-3] + "e")  # "aggregation": "aggregate"
    for suffix in ("ing", "ed", "es", "s"):
        base = word[: -len(suffix)]
        if word.endswith(suffix) and len(base) >= 3 and not word.endswith("ss"):
            bases.append(base)
            if len(base) >= 4 and base[-1] == base[-2]:
                bases.append(base[:-1])  # "dropped", "running"
            elif suffix in ("ing", "ed"):
                bases.append(base + "e")  # "caching", "changed"
            break
    # "aggregate" and "aggregation", "quantize" and "quantization" (not "state", "size": too short)
    bases += [
        b[:-1] + ("ion" if b.endswith("ate") else "ation")
        for b in (word, *bases)
        if b.endswith(("ate", "ize")) and len(b) >= NOMINAL_STEM
    ]
    return (term, *dict.fromkeys(b for b in bases if b != word))


def _module_groups(query: Query) -> list[_Group]:
    """One optional group per module the question names: it ranks, and a PR about it by its text matches
    the module beside those the analysis tagged."""
    return [_Group.of((module,), module=True) for module in query.modules]


@dataclass(frozen=True, slots=True)
class Scored:
    """The PRs about every required group of words: their BM25 scores (a group's frequency is the sum of
    its words' occurrences, a word in the title counting TITLE_WEIGHT more), how many groups each one's
    title names, which are about one of the module groups, and how many optional groups each is about."""

    scores: dict[int, float] = field(default_factory=dict)
    titled: dict[int, int] = field(default_factory=dict)
    about_module: set[int] = field(default_factory=set)
    coordination: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Corpus:
    """How many search documents a window holds and their total length: what BM25 weighs a word's
    rarity and a document's length against, when only some of them are scored."""

    count: int
    length: int


def bm25(
    documents: dict[int, str],
    groups: list[_Group],
    optional: list[_Group] | None = None,
    corpus: Corpus | None = None,
) -> Scored:
    """The PRs of `documents` that are about every group of `groups` (module groups excepted), scored
    over those and `optional`, counting how many of `optional` each is about. `corpus` is the collection
    `documents` were taken from when they are only those holding one of the words (by default, they are
    all of it): the others are about no group, so the scores are those of scoring them all."""
    scored = Scored()
    if not documents:
        return scored
    optional = optional or []
    everything = [*groups, *optional]
    lengths = {n: len(d) for n, d in documents.items()}
    if corpus is None:
        corpus = Corpus(len(lengths), sum(lengths.values()))
    average = corpus.length / corpus.count or 1.0
    texts = {n: SearchText(d) for n, d in documents.items()}
    asked = frozenset(word for group in everything for word in group.words)
    occurrences = [{n: group.occurrence(t, asked) for n, t in texts.items()} for group in everything]
    idfs = []
    for found in occurrences:
        df = sum(1 for o in found.values() if o.salient)
        idfs.append(math.log(1 + (corpus.count - df + 0.5) / (df + 0.5)))
    required = [found for found, group in zip(occurrences, groups, strict=False) if not group.module]
    for number in documents:
        if not all(found[number].salient for found in required):
            continue
        norm = K1 * (1 - B + B * lengths[number] / average)
        score, titled = 0.0, 0
        for idf, found, group in zip(idfs, occurrences, everything, strict=True):
            occurrence = found[number]
            if not occurrence.salient:
                continue
            if group.module:
                scored.about_module.add(number)
            titled += occurrence.titled
            score += idf * occurrence.frequency * (K1 + 1) / (occurrence.frequency + norm)
        scored.scores[number] = score
        scored.titled[number] = titled
        scored.coordination[number] = sum(1 for found in occurrences[len(groups) :] if found[number].salient)
    return scored


def _documents(
    session: Session, repo: RepoRow, window: Window | None, ids: Collection[int] | None
) -> dict[int, str]:
    """Search documents (lower-cased) by PR number: of the window's PRs, or of the PRs with `ids`."""
    statement = (
        select(PullRequestRow.number, SearchDocumentRow.document)
        .join(SearchDocumentRow, SearchDocumentRow.pr_id == PullRequestRow.id)
        .where(PullRequestRow.repo_id == repo.id)
    )
    if ids is None:
        if window is not None:
            statement = statement.where(
                PullRequestRow.merged_at >= window.start, PullRequestRow.merged_at < window.end
            )
        return {number: document.lower() for number, document in session.execute(statement)}
    # Given ids, the PRs are found by id and the window is checked here: in the query, it would lead
    # SQLite through the (repo, merged_at) index over the whole window, testing each PR against the ids.
    rows = session.execute(
        statement.add_columns(PullRequestRow.merged_at).where(PullRequestRow.id.in_(list(ids)))
    )
    return {
        number: document.lower()
        for number, document, merged_at in rows
        if window is None or window.start <= merged_at < window.end
    }


def _corpus(session: Session, repo: RepoRow, window: Window) -> Corpus:
    """How many search documents the window's PRs have and their total length (`_documents` of the
    window, counted in the database)."""
    count, length = session.execute(
        select(func.count(), func.coalesce(func.sum(func.length(SearchDocumentRow.document)), 0))
        .select_from(PullRequestRow)
        .join(SearchDocumentRow, SearchDocumentRow.pr_id == PullRequestRow.id)
        .where(
            PullRequestRow.repo_id == repo.id,
            PullRequestRow.merged_at >= window.start,
            PullRequestRow.merged_at < window.end,
        )
    ).one()
    return Corpus(count, int(length))


def _documents_of(session: Session, repo: RepoRow, records: list[AnalyzedPR]) -> dict[int, str]:
    """Search documents (lower-cased) of `records`, by PR number."""
    if not records:
        return {}
    statement = (
        select(PullRequestRow.number, SearchDocumentRow.document)
        .join(SearchDocumentRow, SearchDocumentRow.pr_id == PullRequestRow.id)
        .where(PullRequestRow.repo_id == repo.id, PullRequestRow.number.in_([r.number for r in records]))
    )
    return {number: document.lower() for number, document in session.execute(statement)}


def _candidates(session: Session, repo: RepoRow, groups: list[_Group], window: Window | None) -> set[int]:
    """Ids of the PRs (in the window, or all time) that may match every group, from the search index
    (a substring match, so a superset of the word match scored afterwards)."""
    start, end = (window.start, window.end) if window is not None else (None, None)
    limit = SEARCH_LIMIT if window is None else WINDOW_CANDIDATES
    words = _narrowing_words(groups)
    return set(search_all(session, words, repo_id=repo.id, start=start, end=end, limit=limit))


def _narrowing_words(groups: list[_Group]) -> list[list[str]]:
    """The words the search index is asked for to narrow PRs to those that may match every group. A
    group of words under three characters ("kv" of "KV cache") has no trigrams: the index cannot serve
    it, so it narrows nothing when another group can (the scoring afterwards requires it)."""
    indexed = [g for g in groups if any(len(w) >= MIN_TRIGRAM_TERM for w in g.words)]
    return [list(group.words) for group in indexed or groups]


def _documents_found(
    session: Session, repo: RepoRow, groups: list[_Group], window: Window
) -> dict[int, str] | None:
    """`_documents` of the `_candidates` of a window, read in the statement that finds them (not by a
    second one naming the ids: 893 of them for "今年 verl 里 显存占用"), when at most WINDOW_CANDIDATES
    match; None when more do (the candidates are then the search index's best)."""
    matches = window_matches(
        session,
        _narrowing_words(groups),
        repo_id=repo.id,
        start=window.start,
        end=window.end,
        limit=WINDOW_CANDIDATES,
    )
    if matches is None:
        return {}
    pr = PullRequestRow
    # Whether the PR itself is of the repo and the window, as `_documents` checks: in the statement, not
    # as conditions, which would lead SQLite through the (repo, merged_at) index of every PR of the
    # window; one row per match, so more than WINDOW_CANDIDATES rows are too many matches.
    inside = and_(pr.repo_id == repo.id, pr.merged_at >= window.start, pr.merged_at < window.end)
    rows = session.execute(
        select(pr.number, SearchDocumentRow.document, inside)
        .join(SearchDocumentRow, SearchDocumentRow.pr_id == pr.id)
        .where(SearchDocumentRow.pr_id.in_(matches.scalar_subquery()))
    ).all()
    if len(rows) > WINDOW_CANDIDATES:
        return None
    return {number: document.lower() for number, document, kept in rows if kept}


def _window_size(session: Session, repo: RepoRow, window: Window) -> int:
    return (
        session.scalar(
            select(func.count())
            .select_from(PullRequestRow)
            .where(
                PullRequestRow.repo_id == repo.id,
                PullRequestRow.merged_at >= window.start,
                PullRequestRow.merged_at < window.end,
            )
        )
        or 0
    )


@dataclass(frozen=True, slots=True)
class TextMatch:
    """How the PRs match a question's words: scored (best first); when `filters`, only the PRs in
    `scored.scores` match; `module_hits` are the PRs about a module the question names by their text
    (None when it names none), beside those the analysis tagged with it."""

    scored: Scored
    filters: bool
    module_hits: set[int] | None


def text_scores(
    session: Session,
    repo: RepoRow,
    query: Query,
    window: Window | None,
    *,
    relaxed: bool = False,
    partial: bool = False,
) -> TextMatch | None:
    """How the PRs of `window` (None: all time) match the question's words and modules; None when it has
    neither. Strictly every concept, path and term must match; `relaxed`, the terms only rank and count;
    `partial`, the concepts too (see `gather`)."""
    if partial:
        # Each concept and term a wish: a PR about more of them ranks first (`_partially_matched`).
        required = [group for group in _required_groups(query) if group.literal]
        optional = _subject_groups(query)
    else:
        required = _required_groups(query) if relaxed else text_groups(query)
        # A relaxed reading counts how many of its terms each PR holds (`_best_matched`): only terms.
        optional = _term_groups(query) if relaxed else _alternative_groups(query)
    modules = _module_groups(query)
    if not required and not optional and not modules:
        return None
    corpus = None
    if window is not None and _window_size(session, repo, window) <= WINDOW_SCAN:
        words = required[0].words if len(required) == 1 and not optional and not modules else ()
        if words and all(len(w.strip()) >= MIN_TRIGRAM_TERM for w in words):
            # One group of words, each long enough for the search index: the index finds every document
            # holding one of them, the others are about nothing asked and score nothing. Only those are
            # read and scored, over the window's count and length of documents: the same scores (a
            # path in 1,900 PRs of a busy repo, 27 → 8 ms).
            holding = search_any(
                session, list(words), repo_id=repo.id, start=window.start, end=window.end, limit=WINDOW_SCAN
            )
            corpus = _corpus(session, repo, window)
            documents = _documents(session, repo, window, holding) if holding else {}
        else:
            documents = _documents(session, repo, window, None)
    else:
        # All time, or a window of months on a busy repo: the search index narrows the PRs to score.
        narrowing = required or [_Group.union(optional or modules)]
        found = _documents_found(session, repo, narrowing, window) if window is not None else None
        if found is None:
            ids = _candidates(session, repo, narrowing, window)
            found = _documents(session, repo, window, ids) if ids else {}
        documents = found
    scored = bm25(documents, required + modules, optional, corpus)
    return TextMatch(scored, bool(required or optional), scored.about_module if modules else None)


def _current_rows(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    numbers: Collection[int] | None,
    author: str | None,
    columns: tuple[Any, ...],
) -> list[tuple[Any, ...]]:
    """The PR's id, merge time and number, then `columns`, of the PRs merged in [start, end) joined to
    their current analysis (NULLs when there is none yet), oldest first, one row per PR: the newest
    analysis of its current content. Rows are plain tuples, read by position: a `Row` attribute costs
    about 2 µs, and a window of months reads thousands of rows of a dozen columns."""
    pr, analysis = PullRequestRow, AnalysisRow
    keys = (pr.id, pr.merged_at, pr.number)
    by_author = [func.lower(pr.author) == author.lower()] if author else []
    rows: list[tuple[Any, ...]]
    if numbers is None:
        statement = (
            select(*keys, *columns)
            .outerjoin(analysis, (analysis.pr_id == pr.id) & (analysis.content_hash == pr.content_hash))
            .where(pr.repo_id == repo.id, pr.merged_at >= start, pr.merged_at < end, *by_author)
            .order_by(pr.merged_at, pr.number, analysis.created_at.desc(), analysis.id.desc())
        )
        rows = [tuple(row) for row in session.execute(statement)]
    else:
        # Given numbers, the PRs are found by number, and the window is checked and the rows ordered
        # here: a window in the query, or an ORDER BY merged_at, leads SQLite through the (repo,
        # merged_at) index over every PR of the repo, testing each against the numbers (19 against
        # 14 ms for the 893 PRs of "今年 verl 里 显存占用"). The analysis' time and id come last.
        statement = (
            select(*keys, *columns, analysis.created_at, analysis.id)
            .outerjoin(analysis, (analysis.pr_id == pr.id) & (analysis.content_hash == pr.content_hash))
            .where(pr.repo_id == repo.id, pr.number.in_(list(numbers)), *by_author)
        )
        rows = [tuple(row) for row in session.execute(statement)]
        rows.sort(key=lambda row: (row[-2] or ALL_TIME_START, row[-1] or 0), reverse=True)
        rows.sort(key=lambda row: (row[1], row[2]))
        rows = [row[:-2] for row in rows]
    seen: set[int] = set()
    unique = []
    for row in rows:
        # later rows of a PR are older analyses of the same content
        if row[0] not in seen and start <= row[1] < end:
            seen.add(row[0])
            unique.append(row)
    return unique


def answer_records(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    fallback: Callable[[PullRequest], Analysis],
    numbers: Collection[int] | None = None,
    author: str | None = None,
    *,
    risks_in: str | None = None,
) -> list[AnalyzedPR]:
    """The PRs merged in [start, end) (optionally only `numbers`, only by `author`) with their current
    analyses, oldest first. Only what answers show is read: each PR carries its header, not its files,
    reviews or comments (a window of months on a busy repo would otherwise decode megabytes of JSON).
    With `risks_in` (a language), each analysis holds only what a risks answer reads (`_risks_only`).
    A PR not analysed yet is read in full and analysed by `fallback`."""
    pr, analysis = PullRequestRow, AnalysisRow
    columns = (
        pr.title,
        pr.author,
        pr.author_name,
        pr.created_at,
        pr.updated_at,
        pr.html_url,
        pr.base_ref,
        pr.additions,
        pr.deletions,
        pr.changed_files,
        pr.content_hash,
        analysis.fields,
    )
    records: list[AnalyzedPR] = []
    for row in _current_rows(session, repo, start, end, numbers, author, columns):
        pr_id, merged_at, number, title, login, name, created_at, updated_at, url, base = row[:10]
        if row[14] is None:
            full = to_pull_request(repo, session.get_one(PullRequestRow, pr_id))
            records.append(AnalyzedPR(full, fallback(full)))
            continue
        header = PullHeader(
            repo=repo.full_name,
            number=number,
            title=title,
            body="",
            author=login,
            author_name=name,
            created_at=created_at,
            updated_at=updated_at,
            merged_at=merged_at,
            html_url=url,
            base_ref=base,
        )
        fields = row[14]
        stored = Analysis.from_dict(fields) if risks_in is None else _risks_only(fields, risks_in)
        records.append(AnalyzedPR(_header_only(header, *row[10:14]), stored))
    return records


def _risks_only(fields: dict[str, Any], language: str) -> Analysis:
    """A stored analysis as a risks answer reads it (`Analysis.scores_and_risks`): the risks' wording in
    `language` when the analysis has one, none of its other texts."""
    worded = (fields.get("texts") or {}).get(language)
    risks = tuple(map(str, worded.get("risks") or ())) if worded else ()
    return Analysis.scores_and_risks(
        fields, {language: LocalizedAnalysis("", "", risks=risks)} if worded else None
    )


def _is_current(pr: type[PullRequestRow], analysis: type[AnalysisRow]) -> ColumnElement[bool]:
    """The join condition of a PR and its current analysis: the newest of its current content (as
    `_current_rows` picks it, in SQL)."""
    newer = aliased(AnalysisRow)
    return and_(
        analysis.pr_id == pr.id,
        analysis.content_hash == pr.content_hash,
        ~exists().where(
            newer.pr_id == analysis.pr_id,
            newer.content_hash == analysis.content_hash,
            or_(
                newer.created_at > analysis.created_at,
                and_(newer.created_at == analysis.created_at, newer.id > analysis.id),
            ),
        ),
    )


def top_records(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    query: Query,
    fallback: Callable[[PullRequest], Analysis],
    count: int,
    stated: Collection[int] = (),
) -> tuple[list[AnalyzedPR], Counter[str]] | None:
    """The first `count` PRs merged in [start, end) that pass the question's change-type, breaking and
    author filters (`stated`: breaking by their own words), ranked by the database as `Evidence.ranked`
    ranks them without words (a reading list's must-read, then worth-reading ones first), with how many
    pass by verdict. None when a PR of the window (by the author asked about) has no current analysis
    yet (`answer_records` analyses it first)."""
    pr, analysis = PullRequestRow, AnalysisRow
    # An author's PRs: only theirs need an analysis (the index over lower(author), migration 0017, finds
    # them; checking every PR of the repo cost 50 ms on PostgreSQL at 100k).
    by_author = (func.lower(pr.author) == query.author.lower(),) if query.author else ()
    window = (pr.repo_id == repo.id, pr.merged_at >= start, pr.merged_at < end, *by_author)
    analysed = exists().where(analysis.pr_id == pr.id, analysis.content_hash == pr.content_hash)
    if session.scalar(select(exists().where(*window, ~analysed))):
        return None
    conditions = [*window]
    if query.change_types:
        conditions.append(analysis.change_type.in_(query.change_types))
    if query.breaking:
        conditions.append(or_(analysis.breaking.is_(True), pr.number.in_(list(stated))))
    joined = select(pr.number).join(analysis, _is_current(pr, analysis)).where(*conditions)
    grouped = joined.with_only_columns(analysis.verdict, func.count()).group_by(analysis.verdict)
    verdicts: Counter[str] = Counter({verdict: n for verdict, n in session.execute(grouped)})
    order: list[ColumnElement[Any]] = [analysis.importance.desc(), analysis.insight.desc(), pr.number.desc()]
    if query.intent == "must_read":
        ranks = {verdict: rank for rank, verdict in enumerate(READING)}
        order.insert(0, case(ranks, value=analysis.verdict, else_=len(READING)))
    numbers = list(session.scalars(joined.order_by(*order).limit(count)))
    records = answer_records(session, repo, start, end, fallback, numbers) if numbers else []
    return records, verdicts


def score_records(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    fallback: Callable[[PullRequest], Analysis],
    author: str | None = None,
    numbers: Collection[int] | None = None,
) -> list[AnalyzedPR]:
    """The PRs merged in [start, end) (optionally only `numbers`, only by `author`) with their size and
    the scores, verdict, change type and modules of their current
    analysis, from the analysis table's own columns: enough to count and compare windows without
    decoding each analysis. A PR not analysed yet is read in full and analysed by `fallback`."""
    pr, analysis = PullRequestRow, AnalysisRow
    columns = (
        pr.title,
        pr.author,
        pr.created_at,
        pr.html_url,
        pr.additions,
        pr.deletions,
        pr.changed_files,
        pr.content_hash,
        analysis.importance,
        analysis.insight,
        analysis.verdict,
        analysis.change_type,
        analysis.breaking,
        analysis.modules,
    )
    records: list[AnalyzedPR] = []
    for row in _current_rows(session, repo, start, end, numbers, author, columns):
        pr_id, merged_at, number, title, login, created_at, url = row[:7]
        importance, insight, verdict, change_type, breaking, modules = row[11:]
        if importance is None:
            full = to_pull_request(repo, session.get_one(PullRequestRow, pr_id))
            records.append(AnalyzedPR(full, fallback(full)))
            continue
        header = PullHeader(
            repo=repo.full_name,
            number=number,
            title=title,
            body="",
            author=login,
            created_at=created_at,
            updated_at=merged_at,
            merged_at=merged_at,
            html_url=url,
        )
        scores = Analysis(
            title_zh="",
            summary="",
            modules=tuple(modules),
            change_type=change_type,
            breaking=breaking,
            importance=importance,
            insight=insight,
            verdict=verdict,
            verdict_reason="",
        )
        records.append(AnalyzedPR(_header_only(header, *row[7:11]), scores))
    return records


def _header_only(
    header: PullHeader, additions: int, deletions: int, changed_files: int, content_hash: str
) -> PullRequest:
    """A PR without its files and comments: its header, size and content hash (what lists, counts and
    the "largest PRs" order need)."""
    return PullRequest(
        header,
        additions=additions,
        deletions=deletions,
        changed_files=changed_files,
        content_hash=content_hash,
    )


def has_condition(query: Query) -> bool:
    """Whether the question narrows or orders the PRs by more than its unplaced terms: a module, concept,
    path, author, change type, the breaking filter, or an intent with its own order (risks, must-read…)."""
    return bool(
        query.modules
        or query.topics
        or query.paths
        or query.author
        or query.change_types
        or query.alternative_types
        or query.breaking
        or query.untested
        or query.semantics
        or query.intent not in ("topic", "search")
    )


def _about_an_alternative(query: Query, match: TextMatch | None) -> set[int]:
    """The PRs about one of the question's alternatives, when it offers a change type among them."""
    if not query.alternative_types or match is None:
        return set()
    return {number for number, about in match.scored.coordination.items() if about}


def _best_matched(records: list[AnalyzedPR], query: Query, match: TextMatch) -> list[AnalyzedPR]:
    """Of a relaxed reading's records, those containing the most of the question's terms: with another
    condition they may contain none ("有没有破坏性变更需要我们注意" keeps the breaking PRs when none says
    "注意"); without one, at least one."""
    coordination = match.scored.coordination
    best = max((coordination.get(r.number, 0) for r in records), default=0)
    if best == 0 and not has_condition(query):
        return []
    return [r for r in records if coordination.get(r.number, 0) == best]


def _partially_matched(records: list[AnalyzedPR], match: TextMatch) -> list[AnalyzedPR]:
    """Of a partial reading's records, those about at least one of the question's subjects."""
    coordination = match.scored.coordination
    return [r for r in records if coordination.get(r.number, 0) > 0]


def _without_weak(
    session: Session, repo: RepoRow, records: list[AnalyzedPR], query: Query, evidence: Evidence
) -> list[AnalyzedPR]:
    """`records` without the PRs about a module of the question by a passing mention in their text
    alone: a PR the analysis did not tag with the module, whose title does not name it, is about it when
    its description opens by naming it ("Qwen3 的 LoRA 加载出错，先回退"); otherwise its text only mentions
    the module (a changed file's path, a CI job's name, a sentence among others), and "megatron 有什么
    变化" is answered by the megatron PRs, not by every PR whose description names a megatron job. A
    question offering a change type among alternatives keeps them: a PR of the type matches whatever its
    text says; so does a module named like the repo, which every PR's paths name ("trl 和 torchtune")."""
    modules = [m for m in query.modules if m != repo.full_name.split("/")[-1].lower()]
    if not modules or query.alternative_types or not evidence.scores:
        return records
    weak = [r for r in records if not evidence.band(r)]
    if not weak:
        return records
    patterns = [term_pattern(module) for module in modules]
    passing = set()
    for number, document in _documents_of(session, repo, weak).items():
        opening = _opening_sentence(SearchText(document).parts()[2])
        if not any(pattern.search(opening) for pattern in patterns):
            passing.add(number)
    return [r for r in records if r.number not in passing]


# A line of a description's template rather than its own words: a heading, a comment, a checkbox.
_TEMPLATE_LINE = re.compile(r"^\s*(?:#|<!--|- \[[ x]\])", re.IGNORECASE)


def _opening_sentence(prose: str) -> str:
    """The first sentence a description says in its own words: past its template's headings, comments
    and checkboxes ("### What does this PR do?"), without quote or list marks."""
    for line in prose.split("\n"):
        if not line.strip() or _TEMPLATE_LINE.match(line):
            continue
        said = line.lstrip("> -*").strip()
        end = _SENTENCE_END.search(said)
        return said[: end.start()] if end else said
    return ""


def _missing_terms(records: list[AnalyzedPR], query: Query, documents: dict[int, str]) -> tuple[str, ...]:
    """The question's terms that no record's search document (`documents`, by PR number) contains."""
    return tuple(
        term
        for term, group in zip(_unchained_terms(query), _term_groups(query), strict=False)
        if not any(group.occurrence(documents.get(r.number, "")).frequency for r in records)
    )


def _by_newcomers(
    session: Session, repo: RepoRow, records: list[AnalyzedPR], since: datetime
) -> list[AnalyzedPR]:
    """The records whose authors merged their first PR in the repo at or after `since`."""
    authors = {r.pr.header.author for r in records}
    first = dict(
        session.execute(
            select(PullRequestRow.author, func.min(PullRequestRow.merged_at))
            .where(PullRequestRow.repo_id == repo.id, PullRequestRow.author.in_(authors))
            .group_by(PullRequestRow.author)
        ).all()
    )
    return [r for r in records if first.get(r.pr.header.author, since) >= since]


# The lists of PRs matching a question's words that `gather(shown_only=True)` may read as the database
# ranks lists without words (`LISTS`): only the PRs shown.
WORD_LISTS: tuple[Intent, ...] = ("highlights", "topic", "search")


def _word_list(query: Query, corrector: Corrector, *, relaxed: bool, partial: bool) -> bool:
    """Whether the PRs matching the question's words are filtered by nothing but a change type and
    ranked by the analyses' stored scores and the words' matches alone, shown as a list of the top
    ones and counted (no author, module, breaking or other filter reads the records, no reader's
    correction changes a score, no reading orders by size or time, no revert pairs them)."""
    return (
        query.intent in WORD_LISTS
        and corrector.changes_nothing
        and not (relaxed or partial or query.order or query.modules or query.alternative_types)
        and not (query.author or query.breaking or query.untested or query.semantics or query.newcomers)
        and not (query.maintainers or query.review or "revert" in query.topics)
    )


def _top_matching(
    session: Session,
    repo: RepoRow,
    start: datetime,
    end: datetime,
    query: Query,
    evidence: Evidence,
    numbers: Collection[int],
    shown: int,
) -> tuple[list[int], Counter[str]] | None:
    """Of the PRs `numbers` merged in [start, end) (those matching the question's words) of a change type
    it asks for, the `shown` ones a list shows, as `Evidence.ranked` ranks them, and how many pass by verdict:
    from the analyses' score columns, without building a record of each (893 PRs for "今年 verl 里 显存占
    用"). None when one of them has no current analysis yet (`score_records` analyses it first)."""
    analysis = AnalysisRow
    columns = (analysis.importance, analysis.insight, analysis.verdict, analysis.change_type)
    rows = _current_rows(session, repo, start, end, numbers, None, columns)
    if any(row[3] is None for row in rows):
        return None
    passing = [row for row in rows if not query.change_types or row[6] in query.change_types]
    passing.sort(key=lambda row: evidence.rank_key(row[2], row[3], row[4]))
    return [row[2] for row in passing[:shown]], Counter(row[5] for row in passing)


def gather(
    session: Session,
    query: Query,
    window: Window | None,
    fallback: Callable[[PullRequest], Analysis],
    *,
    with_previous: bool = False,
    relaxed: bool = False,
    partial: bool = False,
    until: datetime | None = None,
    whole: bool = False,
    shown_only: bool = False,
) -> Evidence:
    """The evidence for `query` over `window` (None: all time, up to `until` when given: nothing merged
    after now is cited). Requires `query.repo` to be indexed. `relaxed` reads the question's unplaced
    terms as wishes rather than requirements: the records are the PRs meeting its other conditions that
    contain the most of them (for when the strict reading found nothing; `Evidence.dropped` names the
    terms none contains). `whole`: every record carries its whole analysis. `shown_only`: a list of
    the PRs matching the question's words (WORD_LISTS) that nothing but a change type filters, as
    ranked by the score columns, may hold only the PRs it shows, with `verdicts` counting them all (as
    a list without words does; see `_word_list`). A question about configuration is answered by
    `config_changes` when some PR's analysis records one."""
    kinds = config_kinds(query) if query.intent in LISTING_INTENTS and not (relaxed or partial) else ()
    if kinds:
        found = config_changes(session, query, window, fallback, kinds, until=until)
        if found.records:
            return found
    index = PRIndex(session)
    repo = index.repo(query.repo or "")
    if repo is None:
        raise LookupError(query.repo)
    evidence = Evidence(
        repo.full_name,
        repo.last_synced_at,
        modules=query.modules,
        order=query.order,
    )
    corrector = Corrector.load(session, repo.full_name)  # readers' corrections and the repo's calibration
    if query.pr_number is not None:
        row = index.pull_request_row(repo, query.pr_number)
        if row is not None:
            stored = current_analysis(session, row)
            pr = to_pull_request(repo, row)
            evidence.pr = AnalyzedPR(
                pr, corrector.analysis(pr.number, stored.analysis if stored else fallback(pr))
            )
        return evidence
    match = text_scores(session, repo, query, window, relaxed=relaxed, partial=partial)
    if match is not None:
        evidence.scores, evidence.titled = match.scored.scores, match.scored.titled
        if query.paths and not (query.terms or query.topics or query.alternatives):
            # A PR touches a path or does not: among those that do, the most important first, not the
            # ones whose shorter descriptions or analysis' gist give the path's words more weight.
            evidence.scores, evidence.titled = {}, {}
    numbers = set(match.scored.scores) if match is not None and match.filters else None
    if query.alternative_types and not text_groups(query):
        numbers = None  # a PR of the type need not hold a word: the type alone matches
    alternative = _about_an_alternative(query, None if relaxed else match)
    module_hits = match.module_hits if match is not None else None
    if partial and match is not None and module_hits is not None:
        # The module is one more subject that ranks ("sglang multi-turn tool calling": the rollout PR
        # following the tool calling schema comes after the sglang ones); a PR about the module alone
        # stays out (`_partially_matched`).
        module_hits = module_hits | {n for n, c in match.scored.coordination.items() if c}
    start, end = (window.start, window.end) if window else (ALL_TIME_START, until or ALL_TIME_END)
    if query.review is not None:
        evidence.reviews = window_reviews(session, repo, start, end)
        kept = evidence.reviews.numbers(query)
        if kept is not None:
            numbers = kept if numbers is None else numbers & kept
    stated = stated_breaking(session, repo, start, end, corrector) if query.breaking else set()
    # Whether a PR added tests is in its whole analysis only, not in the score columns.
    limit = None if query.untested or whole else SHOWN.get(query.intent)
    listed = None
    if (
        not whole
        and match is None
        and not (query.untested or query.semantics or query.maintainers or query.order or query.review)
        and query.intent in LISTS
        and corrector.changes_nothing
    ):
        listed = top_records(
            session, repo, start, end, query, fallback, min(query.limit or LIST_LIMIT, LIST_MAX), stated
        )
    if listed is not None:
        evidence.records, evidence.verdicts = listed
    elif limit is None:
        # A risks answer reads of each analysis only its risks and what filters and orders them.
        risks_in = query.language if query.intent == "risks" else None
        records = corrector.records(
            answer_records(session, repo, start, end, fallback, numbers, query.author, risks_in=risks_in)
        )
        evidence.records = [r for r in records if _matches(r, query, module_hits, stated, alternative)]
        evidence.records = _without_weak(session, repo, evidence.records, query, evidence)
        if relaxed and match is not None:
            evidence.records = _best_matched(evidence.records, query, match)
        if partial and match is not None:
            evidence.records = _partially_matched(evidence.records, match)
    elif (
        shown_only
        and (shown := min(query.limit or limit, LIST_MAX))
        and match is not None
        and numbers is not None
        and _word_list(query, corrector, relaxed=relaxed, partial=partial)
        and (top_listed := _top_matching(session, repo, start, end, query, evidence, numbers, shown))
        is not None
    ):
        top, evidence.verdicts = top_listed
        evidence.records = answer_records(session, repo, start, end, fallback, top) if top else []
    else:
        # A month of a busy repo holds hundreds of PRs: decode whole analyses of the shown ones only.
        scored = corrector.records(score_records(session, repo, start, end, fallback, query.author, numbers))
        matching = [r for r in scored if _matches(r, query, module_hits, stated, alternative)]
        matching = _without_weak(session, repo, matching, query, evidence)
        if relaxed and match is not None:
            matching = _best_matched(matching, query, match)
        if partial and match is not None:
            matching = _partially_matched(matching, match)
        shown = min(query.limit or limit, LIST_MAX)
        top = [r.number for r in evidence.ranked(matching)[:shown]] if shown else []  # a count shows none
        complete = (
            {r.number: r for r in corrector.records(answer_records(session, repo, start, end, fallback, top))}
            if top
            else {}
        )
        evidence.records = [complete.get(r.number, r) for r in matching]
    if query.breaking and query.intent in LISTING_INTENTS and not query.newcomers:
        flagged = {r.number for r in evidence.records}
        extra, evidence.may_break = may_break(
            session, query, window, fallback, flagged, relaxed=relaxed, until=until
        )
        full = (
            {
                r.number: r
                for r in corrector.records(
                    answer_records(session, repo, start, end, fallback, [r.number for r in extra])
                )
            }
            if extra
            else {}
        )
        evidence.records += [full.get(r.number, r) for r in extra]
        if evidence.verdicts is not None:
            evidence.verdicts.update(r.analysis.verdict for r in extra)
    if query.newcomers:
        evidence.records = _by_newcomers(session, repo, evidence.records, start)
    if relaxed and _unchained_terms(query):
        evidence.dropped = _missing_terms(
            evidence.records, query, _documents_of(session, repo, evidence.records)
        )
    if "revert" in query.topics:
        evidence.reverted = reverted_prs(session, repo, [r.number for r in evidence.records])
    if with_previous and window is not None:
        previous = evidence.previous_window = query.baseline or window.comparable_previous()
        before = corrector.records(
            score_records(session, repo, previous.start, previous.end, fallback, query.author)
        )
        earlier = text_scores(session, repo, query, previous)
        if earlier is not None:
            if earlier.filters and not (query.alternative_types and not text_groups(query)):
                before = [r for r in before if r.number in earlier.scored.scores]
            module_hits = earlier.module_hits
        alternative = _about_an_alternative(query, earlier)
        earlier_stated = (
            stated_breaking(session, repo, previous.start, previous.end, corrector)
            if query.breaking
            else set()
        )
        evidence.previous = [
            r for r in before if _matches(r, query, module_hits, earlier_stated, alternative)
        ]
    return evidence
