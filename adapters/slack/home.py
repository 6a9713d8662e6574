"""Slack's App Home tab and the subscription modal.

`app_home_opened` publishes the Home tab (`views.publish`): the subscriptions of the channels the user
is in (`users.conversations`, needs channels:read / groups:read), each with its schedule and filters and
an Edit button, then what one can ask. Edit opens a modal (`views.open`); its submission is the typed
`subscribe` command with the modal's settings, run by the same SubscriptionService, so the same
permission check (PRHUB_ADMINS), validation and audit apply. A change is posted to its channel, as a
typed one is; a refusal is shown in the modal, to its author only.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from slack_bolt import Ack, App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from adapters.slack.assistant import user_language
from adapters.slack.blocks import escape, render_blocks
from adapters.slack.convert import PLATFORM, ReplyTarget
from adapters.slack.sender import slack_error
from chatbot.commands import Command
from chatbot.messages import Language, say
from chatbot.models import Message, Reply
from chatbot.store.schema import SubscriptionRow
from chatbot.subscriptions.schedule import WEEKDAYS
from chatbot.subscriptions.service import active_subscription, describe_filters, subscriptions_in

if TYPE_CHECKING:  # the responder's module registers these listeners
    from adapters.slack.app import SlackResponder

log = logging.getLogger(__name__)

EDIT_ACTION = "home_edit_subscription"
EDIT_VIEW = "subscription_edit"
MAX_SHOWN = 40  # subscriptions listed on the Home tab (a view holds at most 100 blocks)
MAX_CHANNELS = 1000  # channels of the user read from users.conversations


class HomeTab:
    """The Home tab and the subscription modal, over the responder's bot, pools and sender."""

    def __init__(self, responder: SlackResponder, language: Language) -> None:
        self.responder, self.language = responder, language

    def register(self, app: App) -> None:
        """Before the responder's catch-all action listener, which would otherwise take the clicks."""
        app.event("app_home_opened")(self.on_home_opened)
        app.action(EDIT_ACTION)(self.on_edit)
        app.view(EDIT_VIEW)(self.on_submit)

    # Listeners ---------------------------------------------------------------------------------------

    def on_home_opened(self, event: dict[str, Any], body: dict[str, Any], client: WebClient) -> None:
        if event.get("tab") != "home" or not event.get("user"):
            return
        user, team = str(event["user"]), body.get("team_id")
        self.responder.later(self.publish, client, user, team)

    def on_edit(self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        """Open the modal at once: a trigger_id is good for three seconds."""
        ack()
        user = (body.get("user") or {}).get("id")
        language = user_language(client, user, self.language)
        row = active_subscription(self.responder.bot.db, PLATFORM, str(action.get("value") or ""))
        if row is None:
            return
        client.views_open(trigger_id=body["trigger_id"], view=edit_view(*row, language))

    def on_submit(self, ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        """Run the modal's settings as a `subscribe` command: field errors and refusals stay in the
        modal; a change closes it, is posted to its channel and refreshes the Home tab."""
        user = str((body.get("user") or {}).get("id") or "")
        team = (body.get("team") or {}).get("id") or body.get("team_id")
        meta = json.loads(view.get("private_metadata") or "{}")
        language: Language = "en" if meta.get("language") == "en" else "zh"
        row = active_subscription(self.responder.bot.db, PLATFORM, str(meta.get("id") or ""))
        service = self.responder.bot.subscriptions
        if row is None or service is None:
            ack(response_action="update", view=result_view(say("home.modal.gone", language), language))
            return
        subscription, repo = row
        options, errors = modal_options(view.get("state", {}).get("values", {}), language)
        if errors:
            ack(response_action="errors", errors=errors)
            return
        message = Message("", platform=PLATFORM, channel=subscription.channel, user=user, workspace=team)
        reply = service.execute(Command("subscribe", repo, options), message, language)
        if reply.ephemeral:  # refused for this user (PRHUB_ADMINS): only they see it
            ack(response_action="update", view=result_view(reply.plain_text(), language))
            return
        ack()
        target = ReplyTarget(subscription.channel)
        self.responder.later(self._announce, target, reply, language, client, user, team)

    # Background work ---------------------------------------------------------------------------------

    def _announce(
        self,
        target: ReplyTarget,
        reply: Reply,
        language: Language,
        client: WebClient,
        user: str,
        team: str | None,
    ) -> None:
        try:
            self.responder.sender.send(target, reply, language)
        except SlackApiError as exc:
            log.warning(
                "slack: could not post the subscription change in %s: %s", target.channel, slack_error(exc)
            )
        self.publish(client, user, team)

    def publish(self, client: WebClient, user: str, team: str | None) -> None:
        """`views.publish` of the user's Home tab."""
        language = user_language(client, user, self.language)
        channels = user_channels(client, user)
        try:
            client.views_publish(user_id=user, view=self.home_view(channels, team, language))
        except SlackApiError as exc:
            log.warning("slack: could not publish the Home tab of %s: %s", user, slack_error(exc))

    def home_view(self, channels: list[str] | None, team: str | None, language: Language) -> dict[str, Any]:
        """The Home tab: the subscriptions of `channels` (None: not knowable) and what one can ask."""
        blocks: list[dict[str, Any]] = [
            {"type": "header", "text": {"type": "plain_text", "text": say("home.title", language)}},
            {"type": "section", "text": {"type": "mrkdwn", "text": say("home.subscriptions", language)}},
        ]
        rows = subscriptions_in(self.responder.bot.db, PLATFORM, team, channels or [])
        if channels is None:
            blocks.append(_context(say("home.subscriptions.unknown", language)))
        elif not rows:
            blocks.append(_context(say("home.subscriptions.none", language)))
        editable = self.responder.bot.subscriptions is not None
        for subscription, repo in rows[:MAX_SHOWN]:
            line = f"<#{subscription.channel}>  {escape(describe(subscription, repo, language))}"
            block: dict[str, Any] = {"type": "section", "text": {"type": "mrkdwn", "text": line}}
            if editable:
                block["accessory"] = {
                    "type": "button",
                    "text": {"type": "plain_text", "text": say("home.edit", language)},
                    "action_id": EDIT_ACTION,
                    "value": str(subscription.id),
                }
            blocks.append(block)
        if len(rows) > MAX_SHOWN:
            blocks.append(_context(say("qa.more", language, n=len(rows) - MAX_SHOWN)))
        blocks += [
            {"type": "divider"},
            {"type": "section", "text": {"type": "mrkdwn", "text": say("home.ask", language)}},
        ]
        help_reply = self.responder.bot.help(language)
        blocks += render_blocks(Reply(help_reply.blocks[1:]), language=language, max_messages=1)[0]["blocks"]
        return {"type": "home", "blocks": blocks[:100]}


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


def user_channels(client: WebClient, user: str) -> list[str] | None:
    """The public and private channels `user` is in that the bot can see; None when Slack will not say
    (the app lacks channels:read / groups:read)."""
    channels: list[str] = []
    cursor = None
    try:
        while len(channels) < MAX_CHANNELS:
            page = client.users_conversations(
                user=user,
                types="public_channel,private_channel",
                exclude_archived=True,
                limit=200,
                cursor=cursor,
            )
            channels += [str(c["id"]) for c in page.get("channels") or []]
            cursor = (page.get("response_metadata") or {}).get("next_cursor")
            if not cursor:
                break
    except SlackApiError as exc:
        log.info("slack: cannot list the channels of %s: %s", user, slack_error(exc))
        return None
    return channels


def edit_view(row: SubscriptionRow, repo: str, language: Language) -> dict[str, Any]:
    """The modal editing one subscription, filled with its settings."""
    filters = row.filters or {}

    def option(text: str, value: str) -> dict[str, Any]:
        return {"text": {"type": "plain_text", "text": text}, "value": value}

    weekdays = [option(say(f"sub.weekday.{n}", language), WEEKDAYS[n - 1]) for n in range(1, 8)]
    languages = [option(say(f"sub.lang.{code}", language), code) for code in ("zh", "en")]
    importance = filters.get("min_importance")
    blocks = [
        _context(f"<#{row.channel}> · {escape(repo)}"),
        _input(
            "weekday",
            "home.modal.weekday",
            language,
            {"type": "static_select", "options": weekdays, "initial_option": weekdays[row.weekday - 1]},
        ),
        _input("time", "home.modal.time", language, {"type": "timepicker", "initial_time": row.time_of_day}),
        _input("tz", "home.modal.tz", language, {"type": "plain_text_input", "initial_value": row.timezone}),
        _input(
            "lang",
            "home.modal.lang",
            language,
            {
                "type": "static_select",
                "options": languages,
                "initial_option": languages[0 if row.language == "zh" else 1],
            },
        ),
        _input(
            "modules",
            "home.modal.modules",
            language,
            _text_input(",".join(filters.get("modules") or [])),
            True,
        ),
        _input(
            "min_importance",
            "home.modal.min_importance",
            language,
            {
                "type": "number_input",
                "is_decimal_allowed": True,
                "min_value": "0",
                "max_value": "10",
                **({"initial_value": f"{importance:g}"} if importance is not None else {}),
            },
            True,
        ),
        _input(
            "exclude_authors",
            "home.modal.exclude_authors",
            language,
            _text_input(",".join(filters.get("exclude_authors") or [])),
            True,
        ),
    ]
    return {
        "type": "modal",
        "callback_id": EDIT_VIEW,
        "private_metadata": json.dumps({"id": row.id, "language": language}),
        "title": {"type": "plain_text", "text": say("home.modal.title", language)},
        "submit": {"type": "plain_text", "text": say("home.modal.save", language)},
        "close": {"type": "plain_text", "text": say("home.modal.cancel", language)},
        "blocks": blocks,
    }


def modal_options(values: dict[str, Any], language: Language) -> tuple[dict[str, str], dict[str, str]]:
    """The `subscribe` options a submitted modal stands for, and the errors of its fields (by block)."""

    def value(block: str) -> str:
        field = (values.get(block) or {}).get("value") or {}
        picked = field.get("selected_option") or {}
        return str(picked.get("value") or field.get("selected_time") or field.get("value") or "").strip()

    options = {"weekday": value("weekday"), "time": value("time"), "tz": value("tz"), "lang": value("lang")}
    errors: dict[str, str] = {}
    try:
        ZoneInfo(options["tz"])
    except (ZoneInfoNotFoundError, ValueError):
        errors["tz"] = say("home.modal.bad_tz", language)
    for block, key in (
        ("modules", "modules"),
        ("min_importance", "min-importance"),
        ("exclude_authors", "exclude-authors"),
    ):
        if value(block):
            options[key] = "".join(value(block).split())
    return options, errors


def result_view(text: str, language: Language) -> dict[str, Any]:
    """The modal replaced by one line of outcome (a refusal), with only a Close button."""
    return {
        "type": "modal",
        "title": {"type": "plain_text", "text": say("home.modal.title", language)},
        "close": {"type": "plain_text", "text": say("home.modal.close", language)},
        "blocks": [{"type": "section", "text": {"type": "plain_text", "text": text[:3000]}}],
    }


def _input(
    block: str, label: str, language: Language, element: dict[str, Any], optional: bool = False
) -> dict[str, Any]:
    return {
        "type": "input",
        "block_id": block,
        "optional": optional,
        "label": {"type": "plain_text", "text": say(label, language)},
        "element": {**element, "action_id": "value"},
    }


def _text_input(initial: str) -> dict[str, Any]:
    return {"type": "plain_text_input", **({"initial_value": initial} if initial else {})}


def _context(text: str) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text}]}
