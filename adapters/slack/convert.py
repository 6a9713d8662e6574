"""Slack payloads → prhub's neutral types, and where to answer them. Pure functions, no network.

Slack sends message text in its own markup: `&amp; &lt; &gt;` entities, `<@U123>` mentions,
`<#C123|name>` channels, `<!here>` broadcasts and `<https://…|label>` links. The bot reads plain text,
so the markup is turned back into what the user typed, minus the mention of the bot itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from chatbot.messages import Language, say
from chatbot.models import Message

PLATFORM = "slack"
REPORT_RISKS_ACTION = "report_risks"  # the action id of the risks button on report cards
_MARKUP = re.compile(r"<([^<>]*)>")
# https://github.com/OWNER/REPO/pull/N, optionally followed by /files, #discussion…, ?query
_PR_URL = re.compile(
    r"^https?://(?:www\.)?github\.com/(?P<owner>[\w.-]+)/(?P<name>[\w.-]+)/pull/(?P<number>\d+)(?:[/?#].*)?$",
    re.IGNORECASE,
)
# Subtypes that are still a person writing to the bot; edits, joins, deletions and bot posts are not.
_PERSON_SUBTYPES = {None, "thread_broadcast", "file_share"}


@dataclass(frozen=True, slots=True)
class ReplyTarget:
    """Where an answer goes: a channel (in a thread when `thread_ts` is set), or a `response_url`
    (slash commands and ephemeral cards), which works even in channels the bot is not a member of."""

    channel: str
    thread_ts: str | None = None
    response_url: str | None = None


@dataclass(frozen=True, slots=True)
class PRLink:
    """A GitHub pull-request link found in a message."""

    url: str
    repo: str
    number: int


def plain_text(text: str, bot_user_id: str | None = None) -> str:
    """Slack message markup as the plain text the user typed, without the bot's own mention."""

    def replace(match: re.Match[str]) -> str:
        target, _, label = match.group(1).partition("|")
        if target.startswith("@"):
            return "" if target[1:] == bot_user_id else "@" + (label.lstrip("@") or target[1:])
        if target.startswith("#"):
            return "#" + (label or target[1:])
        if target.startswith("!"):
            return label or "@" + target[1:].split("^", 1)[0]
        return target  # a link: the URL itself, which is what a question about a PR link needs

    text = _MARKUP.sub(replace, text)
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return " ".join(text.split())


def is_from_person(event: Mapping[str, Any], bot_user_id: str | None) -> bool:
    """False for the bot's own messages, other bots' messages, edits, deletions and joins."""
    if event.get("bot_id") or event.get("bot_profile") or event.get("subtype") not in _PERSON_SUBTYPES:
        return False
    return bool(event.get("user")) and event.get("user") != bot_user_id


def to_message(event: Mapping[str, Any], *, team_id: str | None, bot_user_id: str | None) -> Message | None:
    """An `app_mention` or direct `message` event as a Message; None when the bot should stay quiet
    (bots, edits, channel messages that do not mention it, mentions in DMs, which `message.im` brings).
    """
    if not is_from_person(event, bot_user_id) or not _ids_are_strings(event):
        return None
    direct = event.get("channel_type") == "im"
    if event.get("type") == "app_mention":
        if str(event.get("channel", "")).startswith("D"):
            return None  # the same message also arrives as message.im, which answers it
    elif not (event.get("type") == "message" and direct):
        return None
    return Message(
        text=plain_text(str(event.get("text") or ""), bot_user_id),
        platform=PLATFORM,
        channel=event.get("channel"),
        user=event.get("user"),
        workspace=team_id,
        direct=direct,
        # The answer goes into the question's thread (reply_target), so the thread is the conversation;
        # a DM outside any thread is one conversation per DM channel.
        thread=event.get("thread_ts") or (None if direct else event.get("ts")),
    )


_ID_FIELDS = ("channel", "user", "ts", "thread_ts", "channel_type")


def _ids_are_strings(event: Mapping[str, Any]) -> bool:
    """Slack sends these fields as strings; a signed event with a list or number in one is malformed
    and is left unanswered rather than failing later in the store or the Web API."""
    return all(isinstance(event.get(name), str | None) for name in _ID_FIELDS)


def reply_target(event: Mapping[str, Any]) -> ReplyTarget:
    """Channels get the answer in the thread of the question; a DM gets it in the conversation,
    threaded only when the question was asked in a thread."""
    channel = str(event["channel"])
    if event.get("channel_type") == "im":
        return ReplyTarget(channel, event.get("thread_ts"))
    return ReplyTarget(channel, event.get("thread_ts") or event.get("ts"))


def command_message(body: Mapping[str, Any]) -> Message:
    """A slash command (`/prhub <text>`); no text at all asks for help."""
    return Message(
        text=plain_text(str(body.get("text") or "")) or "help",
        platform=PLATFORM,
        channel=body.get("channel_id"),
        user=body.get("user_id"),
        workspace=body.get("team_id"),
        direct=body.get("channel_name") == "directmessage",
    )


def command_target(body: Mapping[str, Any]) -> ReplyTarget:
    return ReplyTarget(str(body.get("channel_id") or ""), response_url=body.get("response_url"))


def action_message(body: Mapping[str, Any], action: Mapping[str, Any]) -> Message | None:
    """A click on a card's "risks" button as the question it stands for, in the language of the
    button's label (the card's language); None for any other action."""
    if action.get("action_id") != REPORT_RISKS_ACTION or not str(action.get("value") or "").strip():
        return None
    label = str((action.get("text") or {}).get("text") or "")
    language: Language = "en" if label == say("report.button.risks", "en") else "zh"
    return Message(
        text=say("button.report_risks.question", language, target=str(action["value"]).strip()),
        platform=PLATFORM,
        channel=(body.get("channel") or {}).get("id"),
        user=(body.get("user") or {}).get("id"),
        workspace=(body.get("team") or {}).get("id"),
    )


def action_target(body: Mapping[str, Any]) -> ReplyTarget:
    """The thread of the card's message; for an ephemeral card (no message to thread on), its
    `response_url`."""
    channel = str((body.get("channel") or {}).get("id") or "")
    message = body.get("message") or {}
    if message.get("ts") and not (body.get("container") or {}).get("is_ephemeral"):
        return ReplyTarget(channel, message.get("thread_ts") or message["ts"])
    return ReplyTarget(channel, response_url=body.get("response_url"))


def action_key(body: Mapping[str, Any], action: Mapping[str, Any]) -> str:
    """Interactions have no event id; the click's time, user and action identify it."""
    user = (body.get("user") or {}).get("id")
    return f"action:{action.get('action_ts')}:{user}:{action.get('action_id')}"


def pr_links(links: Iterable[Mapping[str, Any]]) -> list[PRLink]:
    """The GitHub pull-request links of a `link_shared` event, each once, in order."""
    found: dict[str, PRLink] = {}
    for entry in links:
        url = str(entry.get("url") or "")
        match = _PR_URL.match(url)
        if match and url not in found:
            repo = f"{match['owner']}/{match['name']}".lower()
            found[url] = PRLink(url, repo, int(match["number"]))
    return list(found.values())


def event_key(body: dict[str, Any], event: dict[str, Any]) -> str:
    """The dedupe key of an event: Slack's `event_id`, else the event's own identity (channel and
    timestamp), so that two distinct messages without an id are not taken for one."""
    if body.get("event_id"):
        return f"event:{body['event_id']}"
    return f"event:{event.get('channel')}:{event.get('event_ts') or event.get('ts')}:{event.get('type')}"
