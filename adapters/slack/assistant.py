"""Slack's assistant panel ("Agents & AI Apps"), through bolt's `Assistant` middleware.

A new panel thread gets a greeting and up to four suggested prompts built from what is indexed, in the
user's language. Each question shows a status at once ("思考中…"), then what it was understood as
("正在检索 verl 2026-06-15 至 2026-06-21 的 PR…"); the first question of a thread becomes its title;
the answer is posted in the thread (its LLM summary streamed there first, with chat streaming, when an
LLM writes one), and follow-ups keep their context (the conversation store keyed by
the thread). When the panel is opened beside a channel, that channel's subscribed repo is the default.

The thread's context (the channel beside it) is kept where bolt's default store keeps it: in the
metadata of the bot's first message of the thread, so every replica reads the same. Listeners run
inline and only queue, as the rest of the app's do.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from slack_bolt import Assistant, BoltContext
from slack_bolt.context.get_thread_context import GetThreadContext
from slack_bolt.context.save_thread_context import SaveThreadContext
from slack_bolt.context.say import Say
from slack_bolt.context.set_status import SetStatus
from slack_bolt.context.set_suggested_prompts import SetSuggestedPrompts
from slack_bolt.context.set_title import SetTitle
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from sqlalchemy import select

from adapters.slack.convert import PLATFORM, ReplyTarget, event_key, to_message
from adapters.slack.sender import slack_error
from chatbot.bot import ChatBot
from chatbot.messages import Language, join, say
from chatbot.models import Message
from chatbot.qa.compose import window_text
from chatbot.qa.parse import language_of
from chatbot.qa.query import Query
from chatbot.qa.retrieve import known_repos
from chatbot.store.db import Database
from chatbot.store.schema import PullRequestRow, RepoRow
from chatbot.team.feedback import rated

if TYPE_CHECKING:  # the responder's module registers this panel
    from adapters.slack.app import SlackResponder

log = logging.getLogger(__name__)

MAX_PROMPTS = 4  # Slack shows at most four suggested prompts
MAX_TITLE = 60  # characters of the question kept as the thread's title


class AssistantPanel:
    """The panel's listeners, answering through the responder's pools, sender and bot."""

    def __init__(self, responder: SlackResponder, language: Language) -> None:
        self.responder, self.language = responder, language

    def middleware(self) -> Assistant:
        """bolt's Assistant with these listeners, for `App.assistant(...)`."""
        assistant = Assistant()
        assistant.thread_started(self.on_thread_started)
        assistant.thread_context_changed(self.on_context_changed)
        assistant.user_message(self.on_user_message)
        return assistant

    # Listeners: translate and queue ------------------------------------------------------------------

    def on_thread_started(
        self,
        event: dict[str, Any],
        body: dict[str, Any],
        say: Say,
        set_suggested_prompts: SetSuggestedPrompts,
        client: WebClient,
    ) -> None:
        thread = event.get("assistant_thread") or {}
        greet = partial(self._greet, thread, body.get("team_id"), say, set_suggested_prompts, client)
        self.responder.run(event_key(body, event), None, self.language, greet)

    def on_context_changed(
        self, event: dict[str, Any], body: dict[str, Any], save_thread_context: SaveThreadContext
    ) -> None:
        context = (event.get("assistant_thread") or {}).get("context") or {}
        self.responder.run(event_key(body, event), None, self.language, partial(save_thread_context, context))

    def on_user_message(
        self,
        event: dict[str, Any],
        body: dict[str, Any],
        context: BoltContext,
        set_status: SetStatus,
        set_title: SetTitle,
        get_thread_context: GetThreadContext,
    ) -> None:
        message = to_message(event, team_id=body.get("team_id"), bot_user_id=context.bot_user_id)
        if message is None or not event.get("thread_ts"):
            return
        target = ReplyTarget(str(event["channel"]), str(event["thread_ts"]))
        answer = partial(self._answer, set_status, set_title, get_thread_context)
        self.responder.submit(
            event_key(body, event), message, target, answer, feedback=partial(_thinking, set_status)
        )

    # Background work ---------------------------------------------------------------------------------

    def _greet(
        self,
        thread: dict[str, Any],
        team: str | None,
        say_in_thread: Say,
        set_suggested_prompts: SetSuggestedPrompts,
        client: WebClient,
    ) -> None:
        """The greeting and the suggested prompts, in the user's language, about the repo of the channel
        the panel was opened beside (else the first indexed one)."""
        language = user_language(client, thread.get("user_id"), self.language)
        bot = self.responder.bot
        beside = (thread.get("context") or {}).get("channel_id")
        here = Message(
            "", platform=PLATFORM, workspace=team, channel=thread.get("channel_id"), context_channel=beside
        )
        with bot.db.session() as session:
            repos = [r.full_name for r in known_repos(session)]
        repo = (bot.channel_repo(here) if beside else None) or (repos[0] if repos else None)
        if repo is None:
            say_in_thread(text=say("assistant.greeting.empty", language))
            return
        say_in_thread(text=say("assistant.greeting", language, repos=join(repos[:3], language)))
        prompts = suggested_prompts(bot.db, repo, language)
        set_suggested_prompts(prompts=prompts, title=say("assistant.prompts.title", language))

    def _answer(
        self,
        set_status: SetStatus,
        set_title: SetTitle,
        get_thread_context: GetThreadContext,
        message: Message,
        target: ReplyTarget,
        place: str | None,
    ) -> None:
        bot = self.responder.bot
        beside = _context_channel(get_thread_context)
        if beside:
            message = replace(message, context_channel=beside)
        progress = PanelProgress(set_status, set_title, message.text, lambda query: status_text(query, bot))
        answer, place = self.responder.answer_streaming(message, target, place, progress)
        self.responder.sender.send(target, rated(answer), answer.query.language, place=place)


class PanelProgress:
    """The `Progress` of a panel question: its status says what is being searched; the first question of
    a thread titles it."""

    def __init__(
        self, set_status: SetStatus, set_title: SetTitle, question: str, describe: Callable[[Query], str]
    ) -> None:
        self.set_status, self.set_title, self.question, self.describe = (
            set_status,
            set_title,
            question,
            describe,
        )

    def understood(self, query: Query, continued: bool) -> None:
        try:
            self.set_status(self.describe(query))
            if not continued:
                self.set_title(title_of(self.question))
        except SlackApiError as exc:
            log.warning("slack: could not show the assistant status: %s", slack_error(exc))


def _thinking(set_status: SetStatus, message: Message, target: ReplyTarget) -> None:
    """The first feedback of a panel question: the thread's status (no message to update later)."""
    try:
        set_status(say("progress.thinking", language_of(message.text)))
    except SlackApiError as exc:
        log.warning("slack: no assistant status in %s: %s", target.channel, slack_error(exc))


def _context_channel(get_thread_context: GetThreadContext) -> str | None:
    """The channel the panel was opened beside, as the thread's context store last saved it."""
    try:
        context = get_thread_context()
    except SlackApiError as exc:
        log.warning("slack: could not read the assistant thread's context: %s", slack_error(exc))
        return None
    channel = context.get("channel_id") if context else None
    return str(channel) if channel else None


def status_text(query: Query, bot: ChatBot) -> str:
    """What a question is being answered from: the repo, the PR or the window it was understood as."""
    language = query.language
    if query.repo is None:
        return say("progress.thinking", language)
    repo = query.repo.split("/", 1)[-1]
    if query.intent == "pr" and query.pr_number:
        return say("assistant.status.pr", language, repo=repo, number=query.pr_number)
    if query.window is None:
        return say("assistant.status.repo", language, repo=repo)
    window = window_text(query.window, bot.clock.now(), bot.config.tz, language)
    key = "assistant.status.report" if query.intent == "report" else "assistant.status.searching"
    return say(key, language, repo=repo, window=window)


def title_of(question: str) -> str:
    text = " ".join(question.split())
    return text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1] + "…"


def suggested_prompts(db: Database, repo: str, language: Language) -> list[dict[str, str]]:
    """Up to four questions about `repo` the bot answers well: its risks this week, last week's PRs
    worth a close read, last week's report, and its most recently merged PR."""
    name = repo.split("/", 1)[-1]
    prompts = [
        {
            "title": say("assistant.prompt.risks", language),
            "message": say("qa.example.risks", language, repo=name),
        },
        {
            "title": say("assistant.prompt.must_read", language),
            "message": say("assistant.prompt.must_read.question", language, repo=name),
        },
        {
            "title": say("assistant.prompt.report", language),
            "message": say("qa.example.report", language, repo=name),
        },
    ]
    with db.session() as session:
        number = session.scalar(
            select(PullRequestRow.number)
            .join(RepoRow, PullRequestRow.repo_id == RepoRow.id)
            .where(RepoRow.full_name == repo, PullRequestRow.merged_at.is_not(None))
            .order_by(PullRequestRow.merged_at.desc())
            .limit(1)
        )
    if number is not None:
        question = say("assistant.prompt.pr.question", language, repo=name, number=number)
        prompts.append({"title": say("assistant.prompt.pr", language), "message": question})
    return prompts[:MAX_PROMPTS]


def user_language(client: WebClient, user: str | None, default: Language) -> Language:
    """The user's Slack locale as a reply language (`users.info`, needs `users:read`); `default` when
    Slack does not say."""
    if not user:
        return default
    try:
        locale = str(client.users_info(user=user, include_locale=True)["user"].get("locale") or "")
    except (SlackApiError, KeyError, TypeError) as exc:
        log.info("slack: no locale for %s (%s); answering in %s", user, exc, default)
        return default
    if not locale:
        return default
    return "zh" if locale.lower().startswith("zh") else "en"
