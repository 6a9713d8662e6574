"""Feishu events → prhub's neutral types: the question in a message, the click on a card button.

Pure functions over the SDK's typed events, no network. A text message carries its mentions as
placeholders (`@_user_1`) described in `message.mentions`; a post (rich text) carries them as `at`
elements. The bot's own mention is dropped, anyone else's becomes `@name`, so "@prhub 本周 verl 有哪些风险？"
reaches the bot as "本周 verl 有哪些风险？".
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lark_oapi.api.im.v1 import MentionEvent, P2ImMessageReceiveV1
from lark_oapi.event.callback.model.p2_card_action_trigger import P2CardActionTrigger

from chatbot.messages import Language, say
from chatbot.models import Message
from chatbot.team.reading import Reader

PLATFORM = "feishu"
REPORT_RISKS_ACTION = "report_risks"  # the action of the risks button on report cards (chatbot.reports.cards)
_PLACEHOLDER = re.compile(r"@_\w+")
_ALL = "@_all"


@dataclass(frozen=True, slots=True)
class Question:
    """A message for the bot and where its answer goes: a reply to `reply_to`, in its thread when
    `in_thread`. `key` identifies the delivery for dedupe and for the outgoing message's uuid."""

    message: Message
    reply_to: str
    chat_id: str
    in_thread: bool
    key: str


def to_question(data: P2ImMessageReceiveV1, bot_open_id: str | None) -> Question | None:
    """The question in a message event, or None when it is not for the bot: sent by a bot or an app,
    a group message that does not mention the bot, or a kind of message without text.

    `bot_open_id` is the bot's own open_id; when it is unknown, any mention in a group counts (an app
    with only the group @-message permission is sent nothing else)."""
    event = data.event
    message = event.message if event else None
    sender = event.sender if event else None
    if message is None or sender is None or not message.message_id or not message.chat_id:
        return None
    if not _all_strings(message, _MESSAGE_STRINGS) or not _all_strings(sender.sender_id, ("open_id",)):
        return None  # signed but malformed: answered with nothing rather than a failure later
    if sender.sender_type != "user":  # the bot's own messages, other bots and apps
        return None
    mentions = list(message.mentions or [])
    ours = {m.key for m in mentions if m.key and _is_bot(m, bot_open_id)}
    direct = message.chat_type == "p2p"
    if not direct and not ours:
        return None
    names = {m.key: m.name or "" for m in mentions if m.key}
    text = message_text(message.message_type or "", message.content or "", names, ours, bot_open_id)
    if text is None:
        return None
    header = data.header
    return Question(
        message=Message(
            text=text,
            platform=PLATFORM,
            channel=message.chat_id,
            user=sender.sender_id.open_id if sender.sender_id else None,
            workspace=(header.tenant_key if header else None) or sender.tenant_key,
            direct=direct,
            # A group answer opens a topic under the question, whose replies carry it as root_id: the
            # topic is the conversation. A direct chat outside any topic is one conversation.
            thread=message.root_id or message.thread_id or (None if direct else message.message_id),
        ),
        reply_to=message.message_id,
        chat_id=message.chat_id,
        # A group answer goes into the question's topic; in a direct chat a plain reply reads better.
        in_thread=not direct,
        key=(header.event_id if header and header.event_id else message.message_id),
    )


_MESSAGE_STRINGS = ("message_id", "chat_id", "chat_type", "message_type", "content", "root_id", "thread_id")


def _all_strings(event_part: object, names: tuple[str, ...]) -> bool:
    """Whether each of the fields Feishu sends as strings is a string (or absent) in `event_part`."""
    return all(isinstance(getattr(event_part, name, None), str | None) for name in names)


def _is_bot(mention: MentionEvent, bot_open_id: str | None) -> bool:
    open_id = mention.id.open_id if mention.id else None
    if bot_open_id:
        return open_id == bot_open_id
    return mention.key != _ALL and bool(open_id)


def message_text(
    message_type: str,
    content: str,
    names: Mapping[str, str],
    ours: Iterable[str],
    bot_open_id: str | None = None,
) -> str | None:
    """The plain text of a text or post message with mentions resolved; None for other types
    (images, files, stickers, cards) and for content that is not the JSON Feishu documents."""
    try:
        body = json.loads(content)
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    ours = set(ours)
    if message_type == "text":
        text = str(body.get("text") or "")

        def resolve(match: re.Match[str]) -> str:
            key = match.group(0)
            if key in ours:
                return " "
            return f"@{names[key]}" if names.get(key) else key

        return _squeeze(_PLACEHOLDER.sub(resolve, text))
    if message_type == "post":
        return _squeeze(_post_text(body, names, ours, bot_open_id))
    return None


def _post_text(
    body: dict[str, Any], names: Mapping[str, str], ours: set[str], bot_open_id: str | None
) -> str:
    # Received posts are {"title", "content"}; posts as sent are wrapped in a locale ({"zh_cn": {...}}).
    if "content" not in body:
        body = next((v for v in body.values() if isinstance(v, dict) and "content" in v), {})
    lines = [str(body.get("title") or "")]
    for paragraph in body.get("content") or []:
        if not isinstance(paragraph, list):
            continue
        parts: list[str] = []
        for element in paragraph:
            if not isinstance(element, dict):
                continue
            tag = element.get("tag")
            if tag == "at":
                target = str(element.get("user_id") or element.get("open_id") or "")
                if target in ours or (bot_open_id and target == bot_open_id):
                    parts.append(" ")
                else:
                    parts.append(f"@{element.get('user_name') or names.get(target) or target}")
            elif tag in ("text", "a", "code_block", "md"):
                parts.append(str(element.get("text") or ""))
        lines.append("".join(parts))
    return "\n".join(line for line in lines if line.strip())


def _squeeze(text: str) -> str:
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


@dataclass(frozen=True, slots=True)
class ButtonClick:
    """A click on a card button the bot answers, with the message whose thread gets the answer."""

    message: Message
    reply_to: str
    chat_id: str
    key: str


def to_click(data: P2CardActionTrigger, language: Language) -> ButtonClick | None:
    """The question a card button stands for (`report_risks` with value "owner/repo 2026-W25" asks for
    that week's risks), or None for a button the bot does not know. Feishu does not say which label was
    clicked, so the question is asked in the bot's default `language`.

    Callbacks have no stable event id across clicks, so the key is (card message, user, value): the same
    person clicking the same button twice gets one answer."""
    event = data.event
    action = event.action if event else None
    context = event.context if event else None
    value = action.value if action else None
    if not isinstance(value, dict) or context is None or not context.open_message_id:
        return None
    if not _all_strings(context, ("open_message_id", "open_chat_id")):
        return None
    target = str(value.get("value") or "").strip()
    if value.get("action") != REPORT_RISKS_ACTION or not target:
        return None
    operator = event.operator.open_id if event and event.operator else None
    identity = json.dumps([context.open_message_id, operator, value], sort_keys=True, ensure_ascii=False)
    return ButtonClick(
        message=Message(
            text=say("button.report_risks.question", language, target=target),
            platform=PLATFORM,
            channel=context.open_chat_id,
            user=operator,
            workspace=event.operator.tenant_key if event and event.operator else None,
        ),
        reply_to=context.open_message_id,
        chat_id=context.open_chat_id or context.open_message_id,
        key="card:" + hashlib.sha256(identity.encode()).hexdigest()[:40],
    )


def clicker(data: P2CardActionTrigger) -> Reader | None:
    """Who pressed a card button or submitted a card form (by open_id, in their tenant); None when the
    callback names nobody."""
    operator = data.event.operator if data.event else None
    if operator is None or not operator.open_id:
        return None
    return Reader(PLATFORM, operator.tenant_key or "", operator.open_id, operator.open_id)
