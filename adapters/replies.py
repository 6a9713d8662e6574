"""What answers look like on every platform: which are shown only to the person who asked (Slack's
ephemeral messages and slash-command responses, Feishu's per-user cards in groups), and the apology."""

from __future__ import annotations

from chatbot.commands import parse_command
from chatbot.messages import Language, say
from chatbot.models import Message, Paragraph, Reply, plain
from chatbot.qa.compose import Answer


def is_private(message: Message, answer: Answer) -> bool:
    """Whether an answer is shown only to whoever asked: help, refusals (the reply says so), and
    questions that could not be answered (not understood, an unknown or missing repo). Subscription
    commands change the channel, so the channel sees their outcome unless the reply itself asks to be
    private."""
    if answer.reply.ephemeral:
        return True
    if parse_command(message.text) is not None:
        return False
    query = answer.query
    return query.intent in ("help", "unknown") or bool(query.unknown_repo) or query.repo is None


def apology(language: Language) -> Reply:
    """The reply shown where an answer failed (in place of a thinking card, or as a message)."""
    return Reply((Paragraph((plain(say("chat.apology", language)),)),))
