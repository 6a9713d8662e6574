"""`ChatSender` for Slack: the Monday push posts a card to a channel with `chat.postMessage`, paced per
channel and retried after Retry-After by the same client the answers use.

Slack has no idempotency key for posts and searching a channel's history needs extra scopes, so
`find_sent` cannot tell whether a send that was in flight when the process died went out: the ledger
then sends it again (a duplicate is possible only in that crash window; Feishu's uuid closes it there).
"""

from __future__ import annotations

from slack_sdk.errors import SlackApiError

from adapters.slack.blocks import render_blocks
from adapters.slack.sender import SlackSender, SlackSendError, slack_error
from chatbot.messages import Language
from chatbot.models import Reply
from chatbot.ports import ChannelGone, Destination, SendFailed

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
        [message] = render_blocks(reply, language=lang, max_messages=1)
        try:
            return self.sender.post(destination.channel, message)
        except (SlackApiError, SlackSendError) as exc:
            error = slack_error(exc)
            if error in GONE:
                raise ChannelGone(error) from exc
            raise SendFailed(error) from exc

    def find_sent(self, destination: Destination, idempotency_key: str) -> str | None:
        return None
