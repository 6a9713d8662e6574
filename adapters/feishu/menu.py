"""The Feishu bot menu (`application.bot.menu_v6`) and the subscription card form.

A click on any item of the bot's menu sends the user, in the bot's direct chat, a card with the
subscriptions of the group chats they are in (`GET /open-apis/im/v1/chats/{id}/members`, needs
`im:chat.members:read`), each with its schedule and filters and an Edit button, then what one can
ask. Edit turns that card into a form for the subscription (card JSON 2.0 `form`); its submission is
the typed `subscribe` command with the form's settings, run by the same SubscriptionService, so the
same permission check (PRHUB_ADMINS), validation and audit apply. A change is posted to its group, as
a typed one is; a refusal is a toast for its author only, and nothing changes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import lark_oapi as lark
import requests
from lark_oapi.api.application.v6 import P2ApplicationBotMenuV6
from lark_oapi.api.im.v1 import GetChatMembersRequest
from lark_oapi.core.exception import ObtainAccessTokenException
from lark_oapi.event.callback.model.p2_card_action_trigger import (
    P2CardActionTrigger,
    P2CardActionTriggerResponse,
)
from sqlalchemy import select

from adapters.feishu.card import escape, render_card
from adapters.feishu.events import PLATFORM
from adapters.feishu.sender import FeishuSendError, Outgoing
from chatbot.commands import Command
from chatbot.messages import Language, say
from chatbot.models import Heading, Message, Reply
from chatbot.store.schema import SubscriptionRow
from chatbot.subscriptions.schedule import WEEKDAYS, parse_time_of_day
from chatbot.subscriptions.service import active_subscription, describe_filters, subscriptions_in

if TYPE_CHECKING:  # the adapter's module registers this menu
    from adapters.feishu.app import FeishuAdapter

log = logging.getLogger(__name__)

EDIT_ACTION = "subscription_edit"  # the Edit button's callback value `action`
SAVE_PREFIX = "subscription_save_"  # the form's submit button is named SAVE_PREFIX + subscription id
MAX_SHOWN = 20  # subscriptions on the menu card (each is a line and a button: far below 200 components)
MAX_MEMBER_PAGES = 10  # pages of 100 members read per group chat


class BotMenu:
    """The menu card and the subscription form, over the adapter's bot, sender and workers."""

    def __init__(self, adapter: FeishuAdapter) -> None:
        self.adapter = adapter

    # Handlers ------------------------------------------------------------------------------------------

    def on_menu(self, data: P2ApplicationBotMenuV6) -> None:
        event = data.event
        operator = event.operator if event else None
        open_id = operator.operator_id.open_id if operator and operator.operator_id else None
        if open_id:
            tenant = data.header.tenant_key if data.header else None
            self.adapter.later(
                self.send_menu, open_id, tenant, f"menu:{open_id}:{event.timestamp if event else ''}"
            )

    def handles(self, data: P2CardActionTrigger) -> bool:
        """Whether a card callback is an Edit click or a form submission of this menu."""
        action = data.event.action if data.event else None
        if action is None:
            return False
        value = action.value if isinstance(action.value, dict) else {}
        return value.get("action") == EDIT_ACTION or str(action.name or "").startswith(SAVE_PREFIX)

    def on_card_action(self, data: P2CardActionTrigger) -> P2CardActionTriggerResponse:
        """An Edit click turns the card into the form (in the background); a submission runs at once,
        within the callback's three seconds, and answers with a toast."""
        event = data.event
        assert event is not None and event.action is not None
        language = self.adapter.language
        message_id = event.context.open_message_id if event.context else None
        chat_id = event.context.open_chat_id if event.context else None
        value = event.action.value if isinstance(event.action.value, dict) else {}
        if value.get("action") == EDIT_ACTION:
            found = active_subscription(self.adapter.db, PLATFORM, str(value.get("id") or ""))
            if found is None or not message_id:
                return toast("warning", say("home.modal.gone", language))
            self.adapter.later(self._patch, message_id, chat_id or message_id, edit_card(*found, language))
            return toast("info", say("feishu.toast.editing", language))
        found = active_subscription(
            self.adapter.db, PLATFORM, str(event.action.name or "").removeprefix(SAVE_PREFIX)
        )
        service = self.adapter.bot.subscriptions
        if found is None or service is None:
            return toast("warning", say("home.modal.gone", language))
        row, repo = found
        operator = event.operator.open_id if event.operator else None
        tenant = event.operator.tenant_key if event.operator else None
        options, problem = form_options(event.action.form_value or {}, language)
        if problem:
            return toast("error", problem)
        message = Message("", platform=PLATFORM, channel=row.channel, user=operator, workspace=tenant)
        reply = service.execute(Command("subscribe", repo, options), message, language)
        if reply.ephemeral:  # refused for this user (PRHUB_ADMINS): nothing changed, only they see why
            return toast("error", reply.plain_text())
        self.adapter.later(
            self._announce, row.channel, reply, message_id, chat_id, f"form:{event.token or ''}"
        )
        return toast("success", reply.plain_text())

    # Background work -----------------------------------------------------------------------------------

    def send_menu(self, open_id: str, tenant: str | None, key: str) -> None:
        """The menu card, in the bot's direct chat with `open_id`."""
        language = self.adapter.language
        chats = self._chats_of(open_id, tenant)
        card = self.menu_card(chats, tenant, language)
        try:
            self.adapter.sender.create_for_user(open_id, Outgoing.card(card), key=key)
        except FeishuSendError as exc:
            log.warning("feishu: could not send the menu card to %s: %s", open_id, exc)

    def menu_card(self, chats: list[str] | None, tenant: str | None, language: Language) -> dict[str, Any]:
        """The subscriptions of `chats` (None: not knowable) with Edit buttons, then what to ask."""
        card = render_card(Reply((Heading(say("home.title", language)),)), language=language)
        elements: list[dict[str, Any]] = [{"tag": "markdown", "content": say("home.subscriptions", language)}]
        rows = subscriptions_in(self.adapter.db, PLATFORM, tenant, chats or [])
        if chats is None:
            elements.append(_note(say("feishu.menu.chats_unknown", language)))
        elif not rows:
            elements.append(_note(say("home.subscriptions.none", language)))
        editable = self.adapter.bot.subscriptions is not None
        for row, repo in rows[:MAX_SHOWN]:
            elements.append({"tag": "markdown", "content": escape(describe(row, repo, language))})
            if editable:
                elements.append(
                    {
                        "tag": "button",
                        "text": {"tag": "plain_text", "content": say("home.edit", language)},
                        "type": "default",
                        "behaviors": [{"type": "callback", "value": {"action": EDIT_ACTION, "id": row.id}}],
                    }
                )
        if len(rows) > MAX_SHOWN:
            elements.append(_note(say("qa.more", language, n=len(rows) - MAX_SHOWN)))
        elements += [{"tag": "hr"}, {"tag": "markdown", "content": say("home.ask", language)}]
        help_card = render_card(self.adapter.bot.help(language), language=language)
        card["body"]["elements"] = elements + help_card["body"]["elements"]
        return card

    def _patch(self, message_id: str, chat_id: str, card: dict[str, Any]) -> None:
        try:
            self.adapter.sender.patch(message_id, chat_id, card)
        except FeishuSendError as exc:
            log.warning("feishu: could not turn the menu card into the form: %s", exc)

    def _announce(
        self, channel: str, reply: Reply, message_id: str | None, chat_id: str | None, key: str
    ) -> None:
        """The change in its group (as a typed command's outcome is), and the form back to the menu."""
        language = self.adapter.language
        try:
            self.adapter.sender.create(channel, Outgoing.card(render_card(reply, language=language)), key=key)
        except FeishuSendError as exc:
            log.warning("feishu: could not post the subscription change in %s: %s", channel, exc)
        if message_id:
            self._patch(message_id, chat_id or message_id, render_card(reply, language=language))

    # Reading -------------------------------------------------------------------------------------------

    def _chats_of(self, open_id: str, tenant: str | None) -> list[str] | None:
        """The subscribed group chats `open_id` is a member of; None when Feishu will not list members."""
        with self.adapter.db.session() as session:
            chats = sorted(
                set(
                    session.scalars(
                        select(SubscriptionRow.channel).where(
                            SubscriptionRow.platform == PLATFORM,
                            SubscriptionRow.workspace == (tenant or ""),
                            SubscriptionRow.active.is_(True),
                        )
                    )
                )
            )
        found = []
        for chat in chats:
            members = chat_members(self.adapter.sender.client, chat)
            if members is None:
                return None
            if open_id in members:
                found.append(chat)
        return found


def chat_members(client: lark.Client, chat_id: str) -> set[str] | None:
    """The open_ids of a group chat's members; None when Feishu refuses (no `im:chat.members:read`)."""
    members: set[str] = set()
    token = ""
    for _ in range(MAX_MEMBER_PAGES):
        builder = GetChatMembersRequest.builder().chat_id(chat_id).member_id_type("open_id").page_size(100)
        request = (builder.page_token(token) if token else builder).build()
        try:
            response = client.im.v1.chat_members.get(request)
        except (requests.RequestException, ObtainAccessTokenException, ValueError) as exc:
            log.warning("feishu: could not list the members of %s: %s", chat_id, exc)
            return None
        if not response.success():
            log.info("feishu: members of %s not listed: code=%s msg=%s", chat_id, response.code, response.msg)
            return None
        members |= {m.member_id for m in response.data.items or [] if m.member_id}
        token = response.data.page_token or ""
        if not response.data.has_more or not token:
            break
    return members


def describe(row: SubscriptionRow, repo: str, language: Language) -> str:
    return say(
        "home.subscription",
        language,
        repo=repo,
        weekday=say(f"sub.weekday.{row.weekday}", language),
        time=row.time_of_day,
        tz=row.timezone,
        lang=say(f"sub.lang.{row.language}", language),
        filters=describe_filters(row.filters, language),
    )


def edit_card(row: SubscriptionRow, repo: str, language: Language) -> dict[str, Any]:
    """A card JSON 2.0 form for one subscription, filled with its settings."""
    filters = row.filters or {}

    def option(text: str, value: str) -> dict[str, Any]:
        return {"text": {"tag": "plain_text", "content": text}, "value": value}

    def field(name: str, label: str, value: str, required: bool = False) -> dict[str, Any]:
        element: dict[str, Any] = {
            "tag": "input",
            "name": name,
            "required": required,
            "label": {"tag": "plain_text", "content": say(label, language)},
        }
        if value:
            element["default_value"] = value
        return element

    importance = filters.get("min_importance")
    form = {
        "tag": "form",
        "name": "subscription",
        "elements": [
            {
                "tag": "select_static",
                "name": "weekday",
                "required": True,
                "initial_option": WEEKDAYS[row.weekday - 1],
                "options": [option(say(f"sub.weekday.{n}", language), WEEKDAYS[n - 1]) for n in range(1, 8)],
            },
            field("time", "home.modal.time", row.time_of_day, True),
            field("tz", "home.modal.tz", row.timezone, True),
            {
                "tag": "select_static",
                "name": "lang",
                "required": True,
                "initial_option": row.language,
                "options": [option(say(f"sub.lang.{c}", language), c) for c in ("zh", "en")],
            },
            field("modules", "home.modal.modules", ",".join(filters.get("modules") or [])),
            field(
                "min_importance",
                "home.modal.min_importance",
                f"{importance:g}" if importance is not None else "",
            ),
            field(
                "exclude_authors",
                "home.modal.exclude_authors",
                ",".join(filters.get("exclude_authors") or []),
            ),
            {
                "tag": "button",
                "name": f"{SAVE_PREFIX}{row.id}",
                "text": {"tag": "plain_text", "content": say("home.modal.save", language)},
                "type": "primary",
                "form_action_type": "submit",
            },
        ],
    }
    card = render_card(Reply((Heading(say("home.modal.title", language)),)), language=language)
    card["body"]["elements"] = [{"tag": "markdown", "content": escape(describe(row, repo, language))}, form]
    return card


def form_options(values: dict[str, Any], language: Language) -> tuple[dict[str, str], str | None]:
    """The `subscribe` options a submitted form stands for, and what is wrong with its fields (None
    when nothing); the service validates everything again."""

    def value(name: str) -> str:
        return "".join(str(values.get(name) or "").split())

    options = {key: value(key) for key in ("weekday", "time", "tz", "lang")}
    for name, key in (
        ("modules", "modules"),
        ("min_importance", "min-importance"),
        ("exclude_authors", "exclude-authors"),
    ):
        if value(name):
            options[key] = value(name)
    bad = []
    try:
        parse_time_of_day(options["time"])
    except ValueError:
        bad.append(options["time"] or "-")
    try:
        ZoneInfo(options["tz"])
    except (ZoneInfoNotFoundError, ValueError):
        bad.append(f"tz={options['tz'] or '-'}")
    if "min-importance" in options:
        try:
            if not 0 <= float(options["min-importance"]) <= 10:
                raise ValueError
        except ValueError:
            bad.append(f"min-importance={options['min-importance']}")
    return options, say("sub.refused.options", language, words=" ".join(bad)) if bad else None


def toast(kind: str, text: str) -> P2CardActionTriggerResponse:
    return P2CardActionTriggerResponse({"toast": {"type": kind, "content": text[:500]}})


def _note(text: str) -> dict[str, Any]:
    return {"tag": "markdown", "content": escape(text), "text_size": "notation"}
