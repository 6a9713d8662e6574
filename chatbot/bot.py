"""The bot core every platform calls: `ChatBot.handle(Message) -> Answer`.

Questions are parsed into a Query, answered from the index, and composed into a neutral Reply; the
chat adapters only translate. Nothing here raises for odd input: the worst case is a short, helpful
answer with examples.
"""

from __future__ import annotations

import logging
import re
import time as _time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Generic, TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from chatbot.analysis.types import SEVERITIES, Analysis
from chatbot.cards import pr_card
from chatbot.commands import Command, parse_command
from chatbot.messages import Language, join, say
from chatbot.models import (
    Block,
    BulletList,
    Context,
    Divider,
    Heading,
    Inline,
    Message,
    Paragraph,
    PullRequest,
    Reply,
    bold,
    code,
    link,
    plain,
)
from chatbot.ports import AnswerStream, Clock, Progress
from chatbot.qa.compose import Answer, Composer, window_text
from chatbot.qa.context import (
    LISTED,
    PEOPLE,
    SUBJECT,
    follow_up,
    listed_from,
    listed_query,
    ordinal_missing,
    people_of,
    query_from_dict,
    query_to_dict,
)
from chatbot.qa.glossary import default_glossary
from chatbot.qa.parse import (
    ParseContext,
    clauses,
    closest_word,
    is_english_word,
    language_of,
    names_subscribed_repos,
    parse_query,
)
from chatbot.qa.query import Query, Window
from chatbot.qa.retrieve import (
    Evidence,
    example_subjects,
    gather,
    in_a_title,
    known_authors,
    known_modules,
    known_repos,
    mentioned_in,
    partial_applies,
    reviewed_anything,
    title_words,
    top_directory,
)
from chatbot.reports.builder import AnalyzedPR, sentence_start
from chatbot.reports.cards import ReportLinks, report_card
from chatbot.reports.weekly import BuiltReport, ReportWriter, build_weekly_report
from chatbot.store.conversations import ConversationKey, Remembered, recall, remember
from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow, RepoRow
from chatbot.subscriptions.service import SubscriptionService
from chatbot.subscriptions.service import channel_repo as subscribed_repo
from chatbot.subscriptions.service import channel_repos as subscribed_repos
from chatbot.team.chat import answer_ledger, ledger_question, parse_ledger_action, run_ledger_action
from chatbot.team.corrections import (
    CorrectionCommand,
    correction_sentence,
    parse_correction,
    record_correction,
)
from chatbot.team.feedback import (
    QUESTION_CHARS,
    AnswerRef,
    FeedbackCommand,
    parse_feedback_command,
    reason_label,
    record_reason,
    record_vote,
)
from chatbot.team.ledger import reapply_corrections
from chatbot.team.reading import CardOrigin, Reader, with_reading
from chatbot.team.reading_chat import (
    ReadingCommand,
    asks_for_my_claims,
    asks_for_unclaimed,
    my_claims_reply,
    parse_reading_command,
    run_reading_command,
    takeaway_blocks,
    unclaimed_reply,
)
from chatbot.weeks import Week, last_complete_week

log = logging.getLogger(__name__)
# The intents a partial reading answers: those listing the PRs about a subject.
_PARTIAL_INTENTS = frozenset(("topic", "search", "highlights", "must_read"))
# How long a conversation's last question is kept for follow-ups.
CONVERSATION_TTL = timedelta(hours=24)
# When a topical question finds nothing in the window it did not name (this week), these wider windows
# (days back from now) are tried in turn: "有没有升级 vllm 版本" means lately, not only since Monday.
WIDER_DAYS = (30, 90, 365)
# The PRs shown for each side of "A 和 B 哪个改动多".
VERSUS_SHOWN = 3
# The default windows of a question about a subject that names none, and of one asking who works on it.
TOPIC_DAYS = 30
MAINTAINERS_DAYS = 90
_WORDS = re.compile(r"[A-Za-z\u4e00-\u9fff]")  # letters or Chinese characters: words, not only emoji
# The intents a question about reviews is answered in (`Query.review`); the others answer as they do.
_REVIEW_INTENTS = frozenset(("topic", "search", "highlights", "stats", "author"))
# What the second clause of a question that first asks for a count may ask for: a list.
_LISTED_SECOND = ("highlights", "must_read", "topic", "risks")
# How many words (or repos) the title caches remember at most.
IN_TITLES_CACHED = 4096
K = TypeVar("K")
V = TypeVar("V")
VOCABULARY_TTL = 300.0  # seconds the module and author vocabulary is cached: it changes only on sync
# What the help text's examples name while nothing is indexed.
EXAMPLE_REPO, EXAMPLE_PR, EXAMPLE_MODULE = "verl", 6512, "megatron"


class _Expiring(Generic[K, V]):
    """Values of the index loaded on first use and again once VOCABULARY_TTL seconds old; at most `size`
    keys are remembered (questions bring new words without end)."""

    def __init__(self, size: int = 1) -> None:
        self._size = size
        self._values: dict[K, tuple[float, V]] = {}

    def get(self, key: K, load: Callable[[], V]) -> V:
        now = _time.monotonic()
        cached = self._values.get(key)
        if cached is None or now - cached[0] > VOCABULARY_TTL:
            if key not in self._values and len(self._values) >= self._size:
                self._values.clear()
            cached = self._values[key] = (now, load())
        return cached[1]


@dataclass(frozen=True, slots=True)
class BotConfig:
    tz: ZoneInfo
    public_url: str | None = None
    admins: frozenset[str] = frozenset()  # who may resolve or accept risks; empty: everyone


class ChatBot:
    """Answers questions and commands from any platform over one index."""

    def __init__(
        self,
        db: Database,
        config: BotConfig,
        clock: Clock,
        fallback: Callable[[PullRequest], Analysis],
        *,
        writer: ReportWriter | None = None,
        channel_repo: Callable[[Message], str | None] | None = None,
        channel_repos: Callable[[Message], Sequence[str]] | None = None,
        subscriptions: SubscriptionService | None = None,
        query_parser: Callable[[str, ParseContext, Query], Query] | None = None,
        phraser: Callable[[Answer, AnswerStream | None], Answer] | None = None,
    ) -> None:
        self.db, self.config, self.clock, self.fallback, self.writer = db, config, clock, fallback, writer
        self.subscriptions = subscriptions
        # Optional LLM help: re-reading unsure questions, and a summary on top of template answers.
        self.query_parser, self.phraser = query_parser, phraser
        # Called with every message and its answer (metrics); must not raise.
        self.observers: list[Callable[[Message, Answer], None]] = []
        # The channel's repo (its one subscription) answers questions that name none.
        self.channel_repo = channel_repo or (lambda message: subscribed_repo(db, seen_from(message)))
        # A channel's several subscriptions: the choice offered when a question there names no repo.
        self.channel_repos = channel_repos or (lambda message: subscribed_repos(db, seen_from(message)))
        self._modules_and_authors: _Expiring[None, tuple[frozenset[str], frozenset[str]]] = _Expiring()
        self._title_words: _Expiring[str, Counter[str]] = _Expiring(IN_TITLES_CACHED)
        self._in_titles: _Expiring[str, bool] = _Expiring(IN_TITLES_CACHED)
        self._mentions: _Expiring[str, bool] = _Expiring(IN_TITLES_CACHED)
        self._directories: _Expiring[str, bool] = _Expiring(IN_TITLES_CACHED)
        self._reviewers: _Expiring[str, bool] = _Expiring(IN_TITLES_CACHED)

    def handle(
        self, message: Message, progress: Progress | None = None, stream: AnswerStream | None = None
    ) -> Answer:
        """The answer to one message. Unexpected failures become a polite reply, logged with a trace.
        `progress` is told what the question was understood as, before the index is searched; `stream`
        is shown the LLM's summary of the answer while it is written (checked text only), when there is
        one: the caller then shows the returned answer in its place."""
        try:
            answer = self._handle(message, progress, stream)
        except Exception:
            log.exception("failed to answer %r", message.text[:200])
            query = parse_query("", ParseContext(self.clock.now(), self.config.tz))
            answer = Answer(query, _paragraph(say("qa.failed", language_of(message.text))))
        for observe in self.observers:
            observe(message, answer)
        return answer

    def parse(self, message: Message) -> Query:
        context = self._parse_context(self.channel_repo(message))
        query = parse_query(message.text, context)
        return self.query_parser(message.text, context, query) if self.query_parser else query

    def _parse_context(self, default_repo: str | None) -> ParseContext:
        with self.db.session() as session:
            repos = known_repos(session)
            modules, authors = self._vocabulary(session)
        now, tz = self.clock.now(), self.config.tz
        names = [default_repo] if default_repo else [r.full_name for r in repos]
        # a word the channel's repo uses, or (no channel repo) some indexed repo: asked last, of the
        # words of a question nothing else shows to be about code
        mentioned = lambda word: any(self._mentioned(name, word) for name in names)  # noqa: E731
        return ParseContext(
            now,
            tz,
            repos,
            default_repo,
            modules,
            authors,
            self._in_a_title,
            mentioned,
            lambda word: any(self._top_directory(name, word) for name in names),
            lambda word: any(closest_word(word, self._title_vocabulary(name)) for name in names),
            self._reviewed,
        )

    def _title_vocabulary(self, repo: str) -> Counter[str]:
        """The words of `repo`'s PR titles with how many use each (`title_words`), cached."""

        def load() -> Counter[str]:
            with self.db.session() as session:
                return title_words(session, repo)

        return self._title_words.get(repo, load)

    def _top_directory(self, repo: str, word: str) -> bool:
        """Whether `word` is a top-level directory of `repo`'s changed files, cached like `_in_a_title`:
        asked of a word a question calls a directory ("the recipe directory", "examples 目录")."""

        def load() -> bool:
            with self.db.session() as session:
                return top_directory(session, repo, word)

        return self._directories.get(f"{repo} {word}", load)

    def _mentioned(self, repo: str, word: str) -> bool:
        """Whether some PR of `repo` uses `word` anywhere in its text, cached like `_in_a_title`: asked of
        the words of a question in a channel with a repo when nothing else shows it is about code."""

        def load() -> bool:
            with self.db.session() as session:
                return mentioned_in(session, repo, word)

        return self._mentions.get(f"{repo} {word}", load)

    def _reviewed(self, login: str) -> bool:
        """Whether `login` reviewed some indexed PR, cached like `_in_a_title`: asked of a name a question
        asks about as a person when no indexed PR's author has it."""

        def load() -> bool:
            with self.db.session() as session:
                return reviewed_anything(session, login)

        return self._reviewers.get(login, load)

    def _in_a_title(self, word: str) -> bool:
        """Whether some indexed PR's title uses `word`, cached for VOCABULARY_TTL seconds: asked of the
        halves of an `owner/name` the index does not hold ("grpo/dpo" is two words) and of the words of
        a question that names no repo ("transfer queue" is about the index, "weather" is not)."""

        def load() -> bool:
            with self.db.session() as session:
                return in_a_title(session, word)

        return self._in_titles.get(word, load)

    def _second_question(self, query: Query) -> tuple[Query, Query] | None:
        """A count followed by a list in one question ("上周合并了多少 PR，哪些最重要？", "axolotl 3月合并了
        多少PR，有哪些破坏性的", "how many PRs merged in July and who merged the most?"): the count's
        question and the list's, each read from its own clause in the repo and window of the whole; a
        list clause that names no subject of its own is about the count's. None for one question."""
        parts = clauses(query.text)
        if query.intent != "stats" or len(parts) < 2 or query.versus:
            return None
        context = self._parse_context(query.repo)
        count = parse_query(parts[0], context)
        listed = parse_query(" ".join(parts[1:]), context)
        if count.intent != "stats" or listed.intent not in _LISTED_SECOND:
            return None
        window = count.window or listed.window or query.window
        count = replace(count, repo=query.repo, window=window, window_named=window is not None)
        subject = listed if any(getattr(listed, name) for name in SUBJECT) or listed.breaking else count
        listed = replace(
            listed,
            repo=query.repo,
            window=listed.window or window,
            window_named=(listed.window or window) is not None,
            **{name: getattr(subject, name) for name in SUBJECT},
        )
        return count, listed

    def _both(self, count: Query, listed: Query) -> Answer:
        """The count's answer, then the list's under the same heading: one reply, one footer; the
        conversation goes on from the list."""
        counted, answer = self.answer(count), self.answer(listed)
        blocks = (*counted.reply.blocks[:-1], *answer.reply.blocks[1:])
        cited = (*answer.cited, *(n for n in counted.cited if n not in answer.cited))
        return Answer(listed, Reply(blocks, answer.reply.more_url), cited, answer.window, answer.count)

    def _vocabulary(self, session: Session) -> tuple[frozenset[str], frozenset[str]]:
        """The module names and author logins of the index, cached for VOCABULARY_TTL seconds."""
        return self._modules_and_authors.get(None, lambda: (known_modules(session), known_authors(session)))

    def _handle(
        self, message: Message, progress: Progress | None = None, stream: AnswerStream | None = None
    ) -> Answer:
        reading = parse_reading_command(message.text)
        if reading is not None:
            return self._reading(message, reading)
        if asks_for_my_claims(message.text):
            language = language_of(message.text)
            reply = my_claims_reply(self.db, reader_of(message), language)
            return Answer(Query(text=message.text, language=language, intent="help"), reply)
        action = parse_ledger_action(message.text)
        if action is not None:
            language = language_of(message.text)
            reply = run_ledger_action(
                self.db, action, message.user or "", self.config.admins, language, self.clock.now()
            )
            return Answer(Query(text=message.text, language=language, intent="help"), reply)
        rating = parse_feedback_command(message.text)
        if rating is not None:
            return self._feedback(message, rating)
        correction = parse_correction(message.text)
        if correction is not None:
            return self._correction(message, correction)
        command = parse_command(message.text)
        if command is not None and not names_subscribed_repos(message.text):
            return self.command(command, message)
        query = self.parse(message)
        key = conversation_key(message)
        remembered = recall(self.db, key, self.clock.now()) if key is not None else None
        query, continued = self._in_conversation(remembered, query)
        if progress is not None:
            try:
                progress.understood(query, continued)
            except Exception:  # a status that could not be shown must not cost the answer
                log.exception("progress report failed")
        if query.repo is None and query.unknown_repo is None and query.intent not in ("help", "unknown"):
            # A channel subscribed to several repos gets one answer across them, not a choice.
            subscribed = tuple(self.channel_repos(message))
            if len(subscribed) > 1:
                query = replace(query, repo_candidates=subscribed, across=query.intent != "pr")
            elif query.subscribed and not subscribed:
                return Answer(query, _paragraph(say("qa.subscribed.none", query.language)))
            elif query.every_repo and len(query.repo_candidates) > 1 and query.intent != "pr":
                query = replace(query, across=True)  # "哪个仓库最活跃": every indexed repo
        answer = self._answer_question(query, stream)
        if key is not None and answer.query.intent not in ("help", "unknown"):
            now = self.clock.now()
            asked = query_to_dict(replace(answer.query, notes=()))  # what one answer relaxed is not kept
            listed = listed_from(remembered.query, remembered.cited) if remembered else None
            if answer.query.intent == "pr" and listed is not None:
                asked[LISTED] = listed  # "第三个", "只看 megatron 的" after it are about that list
            if answer.people:
                asked[PEOPLE] = list(answer.people)  # "the top one", "第二个人" after it name them
            remember(self.db, key, asked, answer.cited, now, now + CONVERSATION_TTL)
        return answer

    def _reading(self, message: Message, command: ReadingCommand) -> Answer:
        """ "我来读 #6512" / "done #6512 takeaway": the PR found like a question's (the repo named, the
        channel's, or the one indexed repo holding that number), then recorded."""
        language = language_of(message.text)
        query = Query(text=message.text, language=language, intent="help")
        if command.number is None:
            return Answer(query, _paragraph(say("reading.need_pr", language)))
        repo = self._indexed_pr(message, command.number)
        if isinstance(repo, Answer):
            return repo
        reply = run_reading_command(self.db, command, repo, reader_of(message), language, self.clock.now())
        return Answer(query, reply, (command.number,))

    def _indexed_pr(self, message: Message, number: int) -> str | Answer:
        """The repo of PR `number` found like a question's (the repo named, the channel's, or the one
        indexed repo holding that number), or the answer saying it is not in the index."""
        language = language_of(message.text)
        parsed = replace(self.parse(message), pr_number=number)
        if parsed.repo is None:
            parsed = self._repo_of_pr(parsed)
        with self.db.session() as session:
            index = PRIndex(session)
            repo_row = index.repo(parsed.repo) if parsed.repo else None
            found = repo_row is not None and index.pull_request_row(repo_row, number) is not None
        if parsed.repo is None or not found:
            return Answer(
                Query(text=message.text, language=language, intent="help"),
                _paragraph(say("qa.pr.unknown", language, repo=parsed.repo or "-", number=number)),
            )
        return parsed.repo

    def _feedback(self, message: Message, command: FeedbackCommand) -> Answer:
        """ "👍" / "👎 漏了 #6512" / "feedback: wrong window": a vote on the conversation's last answer."""
        language = language_of(message.text)
        query = Query(text=message.text, language=language, intent="help")
        key = conversation_key(message)
        remembered = recall(self.db, key, self.clock.now()) if key is not None else None
        if key is None or remembered is None:
            return Answer(query, _paragraph(say("feedback.nothing_to_rate", language)))
        asked = remembered.query
        ref = AnswerRef(
            str(asked.get("text") or "")[:QUESTION_CHARS],
            str(asked["repo"]) if asked.get("repo") else None,
            remembered.cited,
            "en" if asked.get("language") == "en" else "zh",
        )
        if not _WORDS.search(message.text):  # a bare 👍 is answered in the language of the answer it rates
            language = ref.language
        reader = reader_of(message)
        now = self.clock.now()
        view = record_vote(self.db, reader, key[2], "chat:" + ":".join(key[2:]), command.vote, ref, now)
        text = say(f"feedback.thanks.{command.vote}", language)
        if command.vote == "down" and command.reason is not None:
            record_reason(self.db, view.id, reader, command.reason, command.text, now)
            text = say("feedback.thanks.reason", language, reason=reason_label(command.reason, language))
        return Answer(query, _paragraph(text))

    def _correction(self, message: Message, command: CorrectionCommand) -> Answer:
        """ "#6512 重要性应该更高" / "#123 is not breaking" / "#123 missed a risk: …": stored by who and
        when; a correction naming no PR is of the PR the conversation is about."""
        language = language_of(message.text)
        query = Query(text=message.text, language=language, intent="help")
        number = command.number
        if number is None:
            key = conversation_key(message)
            remembered = recall(self.db, key, self.clock.now()) if key is not None else None
            if remembered is not None:
                asked = remembered.query.get("pr_number")
                number = (
                    int(asked) if asked else (remembered.cited[0] if len(remembered.cited) == 1 else None)
                )
        if number is None:
            return Answer(query, _paragraph(say("correction.need_pr", language)))
        repo = self._indexed_pr(message, number)
        if isinstance(repo, Answer):
            return repo
        new = record_correction(
            self.db, repo, command, number, reader_of(message), message.text, self.clock.now()
        )
        if new:
            reapply_corrections(self.db, repo, number, self.clock.now())  # the risk ledger follows
        text = (
            correction_sentence(command, number, language)
            if new
            else say("correction.repeat", language, number=number)
        )
        return Answer(query, _paragraph(text), (number,))

    @staticmethod
    def _in_conversation(remembered: Remembered | None, query: Query) -> tuple[Query, bool]:
        """The question read against the conversation's last one, and whether there was one."""
        previous = query_from_dict(remembered.query) if remembered else None
        if remembered is None or previous is None:
            return query, False
        listed = listed_query(remembered.query)
        return follow_up(previous, remembered.cited, query, listed, people_of(remembered.query)), True

    def _answer_question(self, query: Query, stream: AnswerStream | None = None) -> Answer:
        language = query.language
        if query.missing_from is not None:
            return Answer(query, _paragraph(ordinal_missing(query.missing_from, query.position, language)))
        if query.intent == "help":
            return Answer(query, self.help(language, query.repo))
        if query.intent == "unknown":
            return Answer(query, self.examples(language, say("qa.unknown", language), query.repo))
        if query.repo is None and query.unknown_repo is None and query.paths and not query.across:
            query = self._repos_of_paths(query)
        repos = query.repo_candidates  # every indexed repo, read by `parse` when none was settled
        if query.repo is None and query.unknown_repo is None and query.author and not query.across:
            query = self._repos_of_author(query)
        if query.repo is None and query.across and query.intent != "pr":
            if len(query.repo_candidates) > 1:
                return self._across(query)
            query = replace(query, repo=query.repo_candidates[0] if query.repo_candidates else None)
        if query.intent == "pr" and query.repo is None and query.unknown_repo is None:
            query = self._repo_of_pr(query)
            if query.repo is None and query.pr_candidates:
                known = join(query.pr_candidates, language)
                example = query.pr_candidates[0].split("/", 1)[1]
                text = say("qa.pr.which_repo", language, number=query.pr_number, known=known, example=example)
                return Answer(query, _paragraph(text))
        if query.unknown_repo:
            known = join(repos, language) or "-"
            return Answer(
                query, _paragraph(say("qa.repo.unknown", language, repo=query.unknown_repo, known=known))
            )
        if query.repo is None and query.paths and query.path_candidates:
            known, example = join(query.path_candidates, language), query.path_candidates[0].split("/", 1)[1]
            written = re.search(re.escape(query.paths[0]), query.text, re.IGNORECASE)  # as the asker wrote it
            path = written.group(0) if written else query.paths[0]
            text = say("qa.paths.which_repo", language, path=path, known=known, example=example)
            return Answer(query, _paragraph(text))
        if query.repo is None:
            if not repos:
                return Answer(query, _paragraph(say("qa.repo.none_indexed", language)))
            example = repos[0].split("/", 1)[1]
            return Answer(
                query,
                _paragraph(say("qa.repo.which", language, known=join(repos, language), example=example)),
            )
        if query.intent == "pr" and query.more_prs:
            return self._several_prs(query)
        both = self._second_question(query)
        answer = self._both(*both) if both is not None else self.answer(query)
        if self.phraser is None or query.intent in ("pr", "report"):
            return answer
        return self.phraser(answer, stream)

    def _across(self, query: Query) -> Answer:
        """One answer over every repo of `query.repo_candidates`: each repo's answer under its own
        heading, in turn; the repos with nothing to say share one line at the end."""
        language, repos = query.language, query.repo_candidates
        title = say("qa.across.title", language, n=len(repos), repos=join(repos, language))
        blocks: list[Block] = [Heading(title)]
        cited: list[int] = []
        quiet: list[str] = []
        window: Window | None = None
        answers = [
            self._answer_question(replace(query, repo=repo, across=False, repo_candidates=()))
            for repo in repos
        ]
        if query.intent in ("stats", "compare", "highlights"):  # "哪个仓库最活跃": ranked by PRs merged
            counts = sorted(
                ((answer.count or 0, repo) for repo, answer in zip(repos, answers, strict=True)),
                key=lambda pair: (-pair[0], pair[1]),
            )
            ranked = join((say("qa.across.count", language, repo=r, n=n) for n, r in counts), language)
            blocks.append(Paragraph((plain(say("qa.across.ranking", language, repos=ranked)),)))
        for repo, answer in zip(repos, answers, strict=True):
            window = window or answer.window
            if answer.cited or query.intent in ("stats", "compare", "report"):
                blocks += answer.reply.blocks
                cited += answer.cited
            else:
                quiet.append(repo)
        if quiet:
            period = window_text(window or self._window(query), self.clock.now(), self.config.tz, language)
            quiet_line = say("qa.across.quiet", language, repos=join(quiet, language), window=period)
            blocks.append(Paragraph((plain(quiet_line),)))
        return Answer(query, Reply(tuple(blocks)), tuple(cited), window)

    def _several_prs(self, query: Query) -> Answer:
        """ "448 and 457", "#12、#15 讲了什么": each PR's answer in turn, as asked, in one reply."""
        numbers = (query.pr_number, *query.more_prs)
        answers = [self.answer(replace(query, pr_number=n, more_prs=())) for n in numbers]
        blocks: list[Block] = []
        for answer in answers:
            blocks += [*((Divider(),) if blocks else ()), *answer.reply.blocks]
        cited = tuple(dict.fromkeys(n for answer in answers for n in answer.cited))
        return Answer(query, Reply(tuple(blocks), answers[0].reply.more_url), cited)

    def _repos_of_paths(self, query: Query) -> Query:
        """A question about files that names no repo ("谁改了 internal/sink/kafka", "who changed go.mod")
        is about the indexed repos whose PRs hold those paths: the one, or a choice among them."""
        with self.db.session() as session:
            holders = tuple(
                name
                for name in query.repo_candidates
                if any(mentioned_in(session, name, path) for path in query.paths)
            )
        if len(holders) == 1:
            return replace(query, repo=holders[0], repo_candidates=())
        return replace(query, path_candidates=holders) if len(holders) > 1 else query

    def _repos_of_author(self, query: Query) -> Query:
        """A question about an author that names no repo is about the indexed repos they merged PRs in:
        the one, or all of them, answered across."""
        with self.db.session() as session:
            holders = tuple(
                session.scalars(
                    select(RepoRow.full_name)
                    .join(PullRequestRow, PullRequestRow.repo_id == RepoRow.id)
                    .where(func.lower(PullRequestRow.author) == (query.author or "").lower())
                    .distinct()
                    .order_by(RepoRow.full_name)
                )
            )
        if len(holders) == 1:
            return replace(query, repo=holders[0], repo_candidates=())
        return replace(query, repo_candidates=holders, across=True) if holders else query

    def _repo_of_pr(self, query: Query) -> Query:
        """A PR number asked without a repo belongs to the one indexed repo that has it; when several
        have it, they become the query's candidates."""
        with self.db.session() as session:
            holders = tuple(
                session.scalars(
                    select(RepoRow.full_name)
                    .join(PullRequestRow, PullRequestRow.repo_id == RepoRow.id)
                    .where(PullRequestRow.number == query.pr_number)
                    .order_by(RepoRow.full_name)
                )
            )
        if len(holders) == 1:
            return replace(query, repo=holders[0], repo_candidates=())
        return replace(query, pr_candidates=holders)

    def command(self, command: Command, message: Message) -> Answer:
        language = language_of(message.text)
        query = Query(text=message.text, language=language, intent="help")
        if self.subscriptions is None:
            return Answer(query, _paragraph(say("sub.unavailable", language)))
        return Answer(query, self.subscriptions.execute(command, message, language))

    def answer(self, query: Query) -> Answer:
        now = self.clock.now()
        ask = ledger_question(query)
        if ask is not None:
            reply, cited, asked = answer_ledger(self.db, query, ask, now, self.config.tz)
            return Answer(query, reply, cited, asked)
        window = self._window(query)
        if window is None and query.paths:
            query = replace(query, notes=(*query.notes, say("qa.paths.all_time", query.language)))
        if window is not None and window.start > now:
            text = say(
                "qa.future", query.language, window=window_text(window, now, self.config.tz, query.language)
            )
            return Answer(query, _paragraph(text), window=window)
        if query.intent == "report":
            return self.report(query, window)
        # Nothing merged after "now" is cited, even when the index holds it (`--as-of`).
        seen = Window(window.start, min(window.end, now), window.week) if window is not None else None
        if query.upgrade:
            return self._upgrade(query, window, seen, now)
        if query.versus:
            return self._versus(query, window, seen, now)
        if len(query.authors) > 1 and query.intent in ("author", "topic", "highlights", "search"):
            return self._people_side_by_side(query, window, seen, now)
        with self.db.session() as session:
            evidence = gather(
                session,
                query,
                seen,
                self.fallback,
                with_previous=query.intent == "compare",
                until=now,
                shown_only=True,
            )
        if query.intent in _PARTIAL_INTENTS and partial_applies(query, evidence.count):
            query, evidence = self._partial(query, seen, now, evidence)
        composer = Composer(query, window, evidence, now, self.config.tz)
        reviews = evidence.reviews
        if reviews is not None and reviews.reviewers and query.intent in _REVIEW_INTENTS:
            # who reviewed, what one person reviewed, what nobody reviewed: never claimed without reviews
            if not reviews.recorded:
                return composer.reviews_unrecorded()
            if query.review != "reviewers":
                return composer.reviewed()
            if evidence.records:
                return composer.people()
        if query.intent == "pr":
            if evidence.pr is None:
                return Answer(
                    query,
                    _paragraph(say("qa.pr.unknown", query.language, repo=query.repo, number=query.pr_number)),
                )
            merged = evidence.pr.pr.header.merged_at
            if merged is not None and merged > now:
                # Asked as of a time before it merged (`--as-of`): nothing it says then exists yet.
                as_of = f"{now.astimezone(self.config.tz):%Y-%m-%d %H:%M}"
                text = say(
                    "qa.pr.not_yet_merged", query.language, repo=query.repo, number=query.pr_number, now=as_of
                )
                return Answer(query, _paragraph(text))
            card = pr_card(
                evidence.pr.pr,
                evidence.pr.analysis,
                query.language,
                tz=self.config.tz,
                files=query.asks_files,
            )
            notes = takeaway_blocks(self.db, query.repo or "", evidence.pr.number, query.language)
            direct = _aspect_answer(query, evidence.pr)
            blocks = (*card.blocks[:2], direct, *card.blocks[2:]) if direct else card.blocks
            return Answer(query, Reply((*blocks, *notes), card.more_url), (evidence.pr.number,))
        if not evidence.records and query.intent != "compare":
            relaxed = self._relaxed(query, window, seen, now)
            if relaxed is not None:
                query, window, evidence = relaxed
                composer = Composer(query, window, evidence, now, self.config.tz)
        if not evidence.records and not (query.intent == "compare" and evidence.previous):
            return self.empty(query, window, composer)
        if query.intent == "risks":
            return self._risks(query, window, composer)
        if query.intent == "must_read" and asks_for_unclaimed(query.text) and window is not None:
            built = self._weekly_report(query, window)
            reply, cited = unclaimed_reply(self.db, built.report, query)
            return Answer(query, reply, cited, window)
        if query.intent == "must_read":
            return composer.must_read()
        if query.maintainers and query.intent in ("topic", "search", "highlights", "stats"):
            return composer.people()
        if query.intent == "stats":
            return composer.stats()
        if query.intent == "compare":
            return composer.compare()
        if query.intent == "author" and query.author:
            # the login as GitHub spells it ("Chi-Zhang"), not as the question's lower-cased reading
            login = next(
                (
                    r.pr.header.author
                    for r in evidence.records
                    if r.pr.header.author.lower() == query.author.lower()
                ),
                query.author,
            )
            return composer.filtered(say("qa.author.title", query.language, author=login))
        if query.intent == "search" and query.search_text:
            return composer.filtered(say("qa.search.title", query.language, text=query.search_text))
        if query.intent in ("topic", "search"):
            words: list[str] = []  # each once, as first written ("perf" is a module and a concept)
            for word in (*query.modules, *query.understood, *query.change_types):
                if word.lower() not in {f.lower() for f in words}:
                    words.append(word)
            flags = [
                say(f"qa.understood.{flag}", query.language)
                for flag in ("breaking", "untested", "semantics")
                if getattr(query, flag)
            ]
            if evidence.config:  # the configuration changes the analyses record, not a word's matches
                return composer.filtered(say("qa.config.title", query.language))
            if flags and not words:  # a filter of the window's PRs: it is the heading, not a search
                return composer.filtered(sentence_start(join(flags, query.language), query.language))
            if words or flags:  # none left when a relaxed reading dropped every word: the window's changes
                return composer.filtered(
                    say("qa.topic.title", query.language, filters=join([*words, *flags], query.language))
                )
        return composer.highlights()

    def _respelled(self, query: Query) -> Query | None:
        """The question with each search word that no PR title of the repo uses and that is a typo of
        one that some do ("grop" → "grpo", "gpro" → "grpo") replaced by it, saying so; None when no word
        is corrected."""
        if not query.terms or query.repo is None:
            return None
        repo = query.repo
        vocabulary = self._title_vocabulary(repo)
        # A word of the index's texts or of the dictionary is as meant ("tracing", "weak"), not a typo.
        fixed = {
            term: word
            for term in query.terms
            if term.isascii()
            and not is_english_word(term)
            and (word := closest_word(term.lower(), vocabulary)) is not None
            and not self._mentioned(repo, term.lower())
        }
        if not fixed:
            return None
        pairs = join(
            (say("qa.respelled.pair", query.language, written=t, word=w) for t, w in fixed.items()),
            query.language,
        )
        # The question read again with the words respelled: "mulit turn" is then the glossary's
        # "multi-turn" (in every spelling, "multiturn" too), not the words "multi" and "turn".
        text = query.text
        for term, word in fixed.items():
            text = re.sub(rf"(?<![\w-]){re.escape(term)}(?![\w-])", word, text, flags=re.IGNORECASE)
        reread = parse_query(text, self._parse_context(repo))
        subject = {name: getattr(reread, name) for name in SUBJECT}
        return replace(
            query, **subject, notes=(*query.notes, say("qa.respelled", query.language, pairs=pairs))
        )

    def _partial(
        self, query: Query, seen: Window | None, now: datetime, strict: Evidence
    ) -> tuple[Query, Evidence]:
        """Too few PRs are about every subject the question names (`partial_applies`: "checkpoint resume
        hanging", "sglang multi-turn tool calling"): the PRs of the window about some of them, ranked as
        any answer, said so; the strict reading when that finds no more."""
        with self.db.session() as session:
            evidence = gather(session, query, seen, self.fallback, partial=True, until=now)
        if len(evidence.records) <= strict.count:
            return query, strict
        named = dict.fromkeys((*query.modules, *(query.understood or query.terms)))
        subjects = join((f"'{w}'" for w in named), query.language)
        key = "qa.partial.none" if not strict.records else "qa.partial.some"
        key += ".one" if strict.count == 1 else ""
        note = say(key, query.language, subjects=subjects, n=strict.count)
        return replace(query, notes=(*query.notes, note)), evidence

    def _relaxed(
        self, query: Query, window: Window | None, seen: Window | None, now: datetime
    ) -> tuple[Query, Window | None, Evidence] | None:
        """When the question as read finds nothing: a window the asker did not name widens to the past
        WIDER_DAYS, then its unplaced words become wishes rather than requirements (filler such as
        "团队留心" must not empty an answer that a breaking filter or an intent already narrows), in the
        window and then the wider ones; before all, a search word mistyped ("grop") is read as the word
        of the repo's titles it is a typo of (`_respelled`). The first reading that finds PRs is answered,
        and the answer says what was relaxed; None when none does. `seen` is `window` up to now, what
        is searched."""
        topical = (
            query.terms
            or query.modules
            or query.topics
            or query.paths
            or query.author
            or query.breaking
            or query.untested
            or query.semantics
        )
        wider: list[Window | None] = []
        vague = not query.window_named or query.vague_window
        # "what's new" and "what should I read" in a quiet week: the most recent span that has PRs
        recent = query.intent in ("highlights", "must_read")
        if window is not None and vague and (topical or recent) and query.intent != "stats":
            spans = (Window.days_back(now, days, self.config.tz) for days in WIDER_DAYS)
            wider = [span for span in spans if span.start < window.start]
        # A mistyped word read as the title word meant, in the window and the wider ones; never relaxed
        # away ("status" read as "states" and then dropped would say two wrong things).
        respelled = self._respelled(query)
        attempts: list[tuple[Query, Window | None, bool]] = (
            [(respelled, span, False) for span in (window, *wider)] if respelled is not None else []
        )
        # The question's own words are kept as long as a wider window can still find them.
        attempts += [(query, span, False) for span in wider]
        # A subject no PR of the kind asked for is about ("Safari 的 bug" with only a revert naming
        # Safari): the PRs about the subject, said so, before any of its words is let go.
        any_kind = replace(query, change_types=()) if query.change_types and query.terms else None
        if any_kind is not None:
            attempts += [(any_kind, span, False) for span in (window, *wider)]
        if query.terms:
            attempts += [(query, span, True) for span in (window, *wider)]
        flagged = query.breaking or query.untested or query.semantics
        if flagged and (query.modules or query.topics or query.terms or query.paths):
            # "sglang 相关的 breaking change": none; then the window's breaking changes, said so.
            attempts.append(
                (replace(query, modules=(), topics=(), terms=(), paths=(), understood=()), window, False)
            )
        for asked, attempt_window, relaxed in attempts:
            searched = seen if attempt_window is window else attempt_window
            with self.db.session() as session:
                evidence = gather(session, asked, searched, self.fallback, relaxed=relaxed, until=now)
            if not evidence.records:
                continue
            notes: list[str] = []
            if attempt_window is not window:
                notes.append(
                    say(
                        "qa.widened",
                        query.language,
                        window=window_text(window, now, self.config.tz, query.language),
                        wider=window_text(attempt_window, now, self.config.tz, query.language),
                    )
                )
            dropped = {term.lower() for term in evidence.dropped}
            if dropped:
                quoted = join((f"'{t}'" for t in evidence.dropped), query.language)
                notes.append(say("qa.relaxed.terms", query.language, terms=quoted))
            if asked is any_kind:
                subject = join((f"'{w}'" for w in query.terms), query.language)
                notes.append(say("qa.relaxed.kind", query.language, subject=subject))
            elif asked is not query and asked is not respelled:
                subject = join((f"'{w}'" for w in (*query.modules, *query.understood)), query.language)
                notes.append(say("qa.relaxed.subject", query.language, subject=subject))
            read = replace(
                asked,
                window=attempt_window,
                understood=tuple(w for w in asked.understood if w.lower() not in dropped),
                notes=(*asked.notes, *notes),
            )
            return read, attempt_window, evidence
        return None

    def _upgrade(self, query: Query, window: Window | None, seen: Window | None, now: datetime) -> Answer:
        """What to check before upgrading: the span's breaking changes, dependency changes, changed
        defaults, deprecations and removals, and reverts, each a section (a PR in the first that has it)."""
        if not query.window_named or query.vague_window:
            note = say("qa.upgrade.span", query.language, days=TOPIC_DAYS)
            query = replace(query, notes=(*query.notes, note))
        base = replace(query, intent="topic", upgrade=False)
        sections: list[tuple[str, Evidence]] = []
        with self.db.session() as session:
            for name, asked in (
                ("breaking", replace(base, breaking=True)),
                ("dependency", _with_topics(base, ("dependency",))),
                ("defaults", _with_topics(base, ("defaults", "dropped_support", "deprecation"))),
                ("revert", _with_topics(base, ("revert",))),
            ):
                sections.append((name, gather(session, asked, seen, self.fallback, until=now)))
        evidence = sections[0][1]
        return Composer(query, window, evidence, now, self.config.tz).upgrade(sections)

    def _window(self, query: Query) -> Window | None:
        """The window asked for, or the default: none for a PR, a search or an author (all time); the
        past TOPIC_DAYS for a question about a subject (the most relevant recent PRs, not only this
        week's), the past MAINTAINERS_DAYS for who works on it; the last complete week for a report, and
        this week for everything else. A bare "最近" / "recently" about a subject is no window; a count of a
        subject ("pyproject.toml 改了几次") is of the same past TOPIC_DAYS."""
        subject = query.intent in ("topic", "stats") and bool(
            query.topics or query.terms or query.paths or query.modules
        )
        now = self.clock.now()
        if (query.upgrade or query.order == "newest") and (query.window is None or query.vague_window):
            # No release tags in the index to count from: what an upgrade brings is the past TOPIC_DAYS,
            # and the newest merges are looked for there too.
            return Window.days_back(now, TOPIC_DAYS, self.config.tz)
        if query.review == "by" and (query.window is None or query.vague_window):
            # "what did bob review": a person's recent reviews, as a person's recent work
            return Window.days_back(now, TOPIC_DAYS, self.config.tz)
        if query.paths and (query.window is None or query.vague_window) and query.intent != "stats":
            # "who changed internal/queue/consumer.go": a file's history is all of it, as a PR number's is
            return None
        if query.window is not None and query.vague_window and query.intent == "author":
            # "ivy 最近在做什么": a person's recent work is the past TOPIC_DAYS, not only this week's.
            return Window.days_back(now, TOPIC_DAYS, self.config.tz)
        if query.window is not None and not (query.vague_window and (subject or query.maintainers)):
            return query.window
        if query.intent in ("pr", "search", "author") or query.all_time:
            return None
        if query.maintainers:
            return Window.days_back(now, MAINTAINERS_DAYS, self.config.tz)
        if subject:
            return Window.days_back(now, TOPIC_DAYS, self.config.tz)
        tz = self.config.tz
        week = (
            last_complete_week(self.clock.now(), tz)
            if query.intent == "report"
            else Week.containing(self.clock.now(), tz)
        )
        return Window(week.start, week.end, week)

    def _versus(self, query: Query, window: Window | None, seen: Window | None, now: datetime) -> Answer:
        """Each subject the question sets side by side (modules, concepts, words), with its count of
        merged PRs in the window and its most important ones, most PRs first."""
        text = query.text.lower()
        # each side named as the asker wrote it: a concept by the words that named it, a term as typed
        written = {
            name: query.text[spans[0][0] : spans[0][1]] for name, spans in default_glossary().find(text)
        }
        for term in query.terms:
            at = text.find(term.lower())
            written[term] = query.text[at : at + len(term)] if at >= 0 else term
        alone = replace(query, alternatives=(), modules=(), topics=(), terms=())
        subjects = [
            *((m, replace(alone, modules=(m,))) for m in query.modules),
            *((written.get(t, t), replace(alone, topics=(t,))) for t in query.topics),
            *((written.get(t, t), replace(alone, terms=(t,))) for t in query.terms),
        ]
        sides: list[tuple[str, Evidence]] = []
        with self.db.session() as session:
            # a login among the words is a person: their PRs ("sam 和 ivy 谁的 PR 更多")
            authors = known_authors(session)
            subjects = [
                (label, replace(alone, author=label) if label.lower() in authors and asked.terms else asked)
                for label, asked in subjects
            ]
            for label, asked in subjects:
                one = replace(asked, intent="topic", versus=False, understood=(label,), limit=VERSUS_SHOWN)
                sides.append((label, gather(session, one, seen, self.fallback, until=now)))
        evidence = sides[0][1] if sides else Evidence(query.repo or "", None)
        composer = Composer(query, window, evidence, now, self.config.tz)
        return composer.versus(sides)

    def _people_side_by_side(
        self, query: Query, window: Window | None, seen: Window | None, now: datetime
    ) -> Answer:
        """Each person the question names, with their PRs of the window that match the rest of it."""
        sides: list[tuple[str, Evidence]] = []
        with self.db.session() as session:
            for person in query.authors:
                one = replace(query, author=person, authors=())
                sides.append((person, gather(session, one, seen, self.fallback, until=now)))
        composer = Composer(query, window, sides[0][1], now, self.config.tz)
        return composer.per_person(sides)

    def _risks(self, query: Query, window: Window | None, composer: Composer) -> Answer:
        """For a complete week without filters, the stored report's risk observations; else the risks
        merged from the analyses of the matching PRs."""
        unfiltered = not (
            query.modules
            or query.topics
            or query.terms
            or query.paths
            or query.breaking
            or query.untested
            or query.semantics
            or query.change_types
            or query.author
            or query.severity
        )
        if window is not None and window.week is not None and window.is_over(self.clock.now()) and unfiltered:
            built = self._weekly_report(query, window)
            # asked for more than the report lists ("all the risks"): every PR's own, below
            if query.limit is None or query.limit <= len(built.report.risks):
                return composer.risks(built.report.risks, (built.report.label, built.report.version))
        return composer.risks(None, None)

    def _weekly_report(self, query: Query, window: Window) -> BuiltReport:
        """The weekly report (built, or reused when current) of the week `window` is or starts in."""
        week = window.week or Week.containing(window.start, self.config.tz)
        return build_weekly_report(
            self.db,
            query.repo or "",
            week,
            clock=self.clock,
            language=query.language,
            fallback=self.fallback,
            writer=self.writer,
        )

    def report(self, query: Query, window: Window | None) -> Answer:
        assert window is not None
        if window.week is None and window.end - window.start > timedelta(days=7):
            return self._span_reports(query, window)
        built = self._weekly_report(query, window)
        week = window.week or Week.containing(window.start, self.config.tz)
        links = ReportLinks.for_report(self.config.public_url, built.report)
        key = [p.number for p in built.report.key_prs[:5]]
        origin = CardOrigin(built.report.repo, built.report.label, query.language, self.config.tz.key)
        card = with_reading(self.db, built.report, report_card(built.report, links), origin)
        return Answer(query, card, tuple(key), Window(week.start, week.end, week))

    def _span_reports(self, query: Query, window: Window) -> Answer:
        """A report of more than a week ("3月份的周报", "report for March"): the span's main changes, as
        the question without the word "report" is answered, then each of its weeks (up to now) with its
        PRs merged in the span and where its weekly report is, a link or the command that shows it."""
        now, tz, language = self.clock.now(), self.config.tz, query.language
        main = self.answer(replace(query, intent="highlights"))
        weeks: list[Week] = []
        week = Week.containing(window.start, tz)
        while week.start < min(window.end, now):
            weeks.append(week)
            week = Week.containing(week.end, tz)
        repo = query.repo or ""
        items: list[Inline] = []
        with self.db.session() as session:
            row = PRIndex(session).repo(repo)
            for week in weeks:
                start, end = max(week.start, window.start), min(week.end, window.end, now)
                count = (
                    session.scalar(
                        select(func.count())
                        .select_from(PullRequestRow)
                        .where(
                            PullRequestRow.repo_id == row.id,
                            PullRequestRow.merged_at >= start,
                            PullRequestRow.merged_at < end,
                        )
                    )
                    if row
                    else 0
                )
                period = say(
                    "report.period",
                    language,
                    start=f"{week.start:%m-%d}",
                    end=f"{week.end - timedelta(days=1):%m-%d}",
                )
                line = say("qa.span_reports.week", language, week=week.label, period=period, n=count)
                links = ReportLinks.for_week(self.config.public_url, repo, week.label)
                command = say("qa.span_reports.command", language, repo=repo.split("/")[-1], week=week.label)
                where = link(week.label, links.page) if links else code(command)
                items.append((plain(f"{line} · {say('qa.span_reports.ask', language)}"), where))
        blocks = list(main.reply.blocks)
        # the weeks before the footer (the index's freshness)
        at = len(blocks) - 1 if blocks and isinstance(blocks[-1], Context) else len(blocks)
        blocks[at:at] = [Heading(say("qa.span_reports.title", language), 2), BulletList(tuple(items))]
        return replace(main, query=query, reply=replace(main.reply, blocks=tuple(blocks)))

    def empty(self, query: Query, window: Window | None, composer: Composer) -> Answer:
        language = query.language
        text = say(
            "qa.people.none_new" if query.newcomers else "qa.empty",
            language,
            repo=query.repo,
            window=window_text(window, self.clock.now(), self.config.tz, language),
        )
        # what was searched for ("按 'router' 搜索…"), so that "none" is not read as "nothing merged"
        blocks: list[Block] = [*composer.understood(), Paragraph((plain(text),))]
        last = last_complete_week(self.clock.now(), self.config.tz)
        if window is None or window.week != last:
            with self.db.session() as session:
                repo = PRIndex(session).repo(query.repo or "")
                count = (
                    session.scalar(
                        select(func.count())
                        .select_from(PullRequestRow)
                        .where(
                            PullRequestRow.repo_id == repo.id,
                            PullRequestRow.merged_at >= last.start,
                            PullRequestRow.merged_at < last.end,
                        )
                    )
                    if repo
                    else 0
                )
            if count:
                period = say(
                    "report.period",
                    language,
                    start=f"{last.start:%m-%d}",
                    end=f"{last.end - timedelta(days=1):%m-%d}",
                )
                example = say("qa.empty.offer_example", language, name=(query.repo or "").split("/")[-1])
                blocks.append(
                    Paragraph(
                        (
                            plain(
                                say(
                                    "qa.empty.offer",
                                    language,
                                    week=last.label,
                                    period=period,
                                    n=count,
                                    example=example,
                                )
                            ),
                        )
                    )
                )
        return Answer(query, Reply((composer.heading(), *blocks, composer.footer())), (), window)

    def help(self, language: Language, repo: str | None = None) -> Reply:
        """What the bot answers, with examples about `repo` (the channel's) or the first indexed repo."""
        name, lines = self._examples(language, repo)
        return Reply(
            (
                Heading(say("qa.help.title", language)),
                Paragraph((plain(say("qa.help.intro", language)),)),
                BulletList(lines),
                Context((plain(say("qa.help.commands", language, repo=name)),)),
            )
        )

    def examples(self, language: Language, intro: str, repo: str | None = None) -> Reply:
        """`intro` and example questions about `repo` or the first indexed repo."""
        _, lines = self._examples(language, repo)
        return Reply((Paragraph((plain(intro),)), BulletList(lines)))

    def _examples(self, language: Language, repo: str | None) -> tuple[str, tuple[Inline, ...]]:
        """The short name of the repo the examples are about, and the examples: its name, its newest PR
        and its busiest module, so that each can be asked of this index (verl's when none is indexed)."""
        name, number = EXAMPLE_REPO, EXAMPLE_PR
        module: str | None = EXAMPLE_MODULE
        with self.db.session() as session:
            repos = known_repos(session)
            chosen = repo or (repos[0].full_name if repos else None)
            subjects = example_subjects(session, chosen, self.clock.now()) if chosen else None
        if chosen and subjects:
            name, (number, module) = chosen.split("/", 1)[1], subjects
        lines = [
            say("qa.example.risks", language, repo=name),
            say("qa.example.pr", language, number=number),
            say("qa.example.module", language, module=module)
            if module
            else say("qa.example.recent", language),
            say("qa.example.must_read", language),
            say("qa.example.stats", language),
            say("qa.example.report", language, repo=name),
        ]
        return name, tuple((plain(line),) for line in lines)


def _with_topics(query: Query, topics: tuple[str, ...]) -> Query:
    """`query` also about any one of `topics`."""
    return replace(query, topics=(*query.topics, *topics), alternatives=topics if len(topics) > 1 else ())


def seen_from(message: Message) -> Message:
    """The message as asked from its `context_channel` (Slack's assistant panel opened beside a channel),
    whose subscriptions then stand for the repo a question names none of."""
    return replace(message, channel=message.context_channel) if message.context_channel else message


def conversation_key(message: Message) -> ConversationKey | None:
    """Where a message's conversation is remembered: its thread, or its direct chat; None for a
    one-off question (`prhub ask`, a channel message outside any thread)."""
    if message.thread:
        return (message.platform, message.workspace or "", message.channel or "", message.thread)
    if message.direct and message.channel:
        return (message.platform, message.workspace or "", message.channel, "")
    return None


def reader_of(message: Message) -> Reader:
    """Who sent a message, as a reading claim records them (the user id shown when no name is known)."""
    user = message.user or "console"
    return Reader(message.platform, message.workspace or "", user, user)


def _aspect_answer(query: Query, record: AnalyzedPR) -> Paragraph | None:
    """The yes or no a question about one aspect of a PR asks for ("有没有 breaking", "有什么风险", "有测试
    吗"), before its card: the card holds the details, but not the answer in so many words."""
    analysis, language, pr = record.analysis, query.language, record.number
    if query.breaking:
        text = say(
            "qa.pr.aspect.breaking.yes" if analysis.breaking else "qa.pr.aspect.breaking.no", language, pr=pr
        )
    elif query.asks_risks and not analysis.risks:
        text = say("qa.pr.aspect.risks.none", language, pr=pr)
    elif query.asks_risks:
        worst = min(analysis.risks, key=lambda r: SEVERITIES.index(r.severity))
        key = "qa.pr.aspect.risks.one" if len(analysis.risks) == 1 else "qa.pr.aspect.risks"
        level = say(f"report.severity.{worst.severity}", language)
        text = say(key, language, pr=pr, n=len(analysis.risks), severity=level)
    elif "test" in query.topics:
        text = say("qa.pr.aspect.tests.yes" if analysis.tests else "qa.pr.aspect.tests.no", language, pr=pr)
    else:
        return None
    return Paragraph((bold(text),))


def _paragraph(text: str) -> Reply:
    return Reply((Paragraph((plain(text),)),))
