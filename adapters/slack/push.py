"""`ChatSender` for Slack: the Monday push posts a card to a channel with `chat.postMessage`, paced per
channel and retried after Retry-After by the same client the answers use.

Slack has no idempotency key for posts, so each card carries the delivery's key as message metadata;
when a send's fate is unknown (the process died mid-send, or Slack timed out or failed after perhaps
accepting it), `find_sent` looks for that key in the channel's recent history (`channels:history` /
`groups:history`) before the ledger sends again. Without those scopes it cannot tell, and the card is
sent again.
"""

from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError

from adapters.slack.sender import SlackSender, SlackSendError, send_card, slack_error
from chatbot.messages import Language
from chatbot.models import Reply
from chatbot.ports import ChannelGone, Destination, SendFailed

EVENT_TYPE = "prhub_push"  # message metadata type carrying a push's delivery key
HISTORY = 100  # recent messages searched for it: a push in doubt is minutes old
log = logging.getLogger(__name__)

# Errors meaning the channel will not take our messages again until someone acts.
GONE = frozenset(
    {
        "channel_not_found",
        "is_archived",
        "not_in_channel",
        "account_inactive",
        "team_access_not_granted",
        "restricted_action",
        "ekm_access_denied",
        "team_not_found",
    }
)


class SlackPushSender:
    def __init__(self, sender: SlackSender) -> None:
        self.sender = sender

    def post(self, destination: Destination, reply: Reply, *, language: str, idempotency_key: str) -> str:
        lang: Language = "en" if language == "en" else "zh"
        metadata = {"event_type": EVENT_TYPE, "event_payload": {"key": idempotency_key}}
        try:
            return send_card(
                lambda message: self.sender.post(destination.channel, message, metadata=metadata), reply, lang
            )
        except (SlackApiError, SlackSendError) as exc:
            error = slack_error(exc)
            if error in GONE:
                raise ChannelGone(error) from exc
            raise SendFailed(error) from exc

    def find_sent(self, destination: Destination, idempotency_key: str) -> str | None:
        """The ts of a card posted with this key among the channel's last HISTORY messages; None when
        there is none or the history cannot be read (missing scope, not in the channel)."""
        try:
            response = self.sender.client.conversations_history(
                channel=destination.channel, limit=HISTORY, include_all_metadata=True
            )
        except SlackApiError as exc:
            log.warning(
                "cannot read %s's history to settle a push (%s): sending again",
                destination.channel,
                slack_error(exc),
            )
            return None
        for message in response.get("messages") or []:
            metadata = message.get("metadata") or {}
            if (
                metadata.get("event_type") == EVENT_TYPE
                and (metadata.get("event_payload") or {}).get("key") == idempotency_key
            ):
                return str(message.get("ts"))
        return None
