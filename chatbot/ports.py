"""The contracts the core needs from the outside world. Adapters implement them; tests may too."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from chatbot.models import PullHeader, PullRequest, Reply
from chatbot.qa.query import Query


class SourceError(Exception):
    """A PR source could not answer. Subclasses say why; the message is fit for a user."""


class RepoNotFound(SourceError):
    """The repository does not exist, or the token cannot see it."""


class AuthenticationFailed(SourceError):
    """The token was refused."""


class RateLimited(SourceError):
    """The API budget is exhausted until `reset_at` (timezone-aware UTC)."""

    def __init__(self, message: str, reset_at: datetime) -> None:
        super().__init__(message)
        self.reset_at = reset_at


class SourceUnavailable(SourceError):
    """The service failed (5xx after retries, malformed answer, network error)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """The source's request budget as last reported, and the requests this process has made."""

    requests_made: int
    remaining: int | None = None
    limit: int | None = None
    reset_at: datetime | None = None
    # GraphQL has a budget of its own, counted in points (a query's cost), not requests.
    graphql_points: int = 0
    graphql_remaining: int | None = None
    graphql_limit: int | None = None
    graphql_reset_at: datetime | None = None
    # Which budget these are: "token", or "installation:<id>" for a GitHub App installation.
    credential: str | None = None


@dataclass(slots=True)
class PullPage:
    """One page of a repo's closed PRs, most recently updated first.

    `next_page` is an opaque token for the following page (None on the last). `not_modified` means
    the first page still matches the `etag` given, so nothing changed since that listing."""

    pulls: list[PullHeader]
    next_page: str | None
    etag: str | None
    not_modified: bool = False


class PRSource(Protocol):
    """Where pull requests come from (GitHub over PyGithub, a JSONL file, a test double)."""

    def list_closed_pulls(self, repo: str, page: str | None = None, etag: str | None = None) -> PullPage:
        """One page of closed PRs, newest-updated first; `page` is the previous page's `next_page`.

        Raises RepoNotFound, AuthenticationFailed, RateLimited or SourceUnavailable."""
        ...

    def get_pull(self, repo: str, number: int) -> PullHeader:
        """The header of one PR by number. Raises like `list_closed_pulls`."""
        ...

    def fetch_pull(self, header: PullHeader) -> PullRequest:
        """The full PullRequest for a header from the listing: files with patches, reviews, comments.

        Raises like `list_closed_pulls`."""
        ...

    def fetch_pulls(self, headers: Sequence[PullHeader]) -> list[PullRequest | SourceError]:
        """`fetch_pull` for the first of several headers of one repo, in order: at least one, as many as
        the source reads at once (a batch query) or before the budget runs out; the caller asks again
        for the rest. A PR that fails is its SourceError; with none fetched it raises RateLimited, and
        AuthenticationFailed is raised."""
        ...

    def budget(self) -> Budget:
        """Requests made so far and the remaining API budget as last reported."""
        ...


class Clock(Protocol):
    """Time, injectable so that tests and `--as-of` control "now" and waiting costs nothing."""

    def now(self) -> datetime:
        """The current time, timezone-aware."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait; a test clock advances instead."""
        ...


class LLMError(Exception):
    """The language model could not give an answer (after the client's own bounded retries):
    unreachable, refused, timed out, rate-limited past the retry budget, or answered with no content."""


@dataclass(frozen=True, slots=True)
class LLMReply:
    """The raw text the model returned (expected to be JSON) and what it cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    model: str


class LLM(Protocol):
    """A chat model behind any OpenAI-compatible endpoint. It returns text; callers validate it."""

    def complete_json(self, system: str, user: str, schema_name: str, schema: dict[str, object]) -> LLMReply:
        """Ask for one JSON object following `schema` (a JSON Schema), using the endpoint's structured
        output mode (strict json_schema, or json_object with the schema described in the prompt).

        Raises LLMError."""
        ...


@runtime_checkable
class TextStreamLLM(Protocol):
    """A chat model that hands its answer over while it writes it: plain text, not JSON, for answers a
    chat surface shows as they come (Slack chat streaming, Feishu CardKit)."""

    def stream_text(self, system: str, user: str) -> Iterator[str]:
        """The model's reply to `user` under `system`, in pieces as they are generated; joined, they are
        the whole reply. Nothing is requested before the first piece is asked for; closing the iterator
        early ends the request. Raises LLMError, before the first piece or between pieces (the reply
        was cut, refused or filtered)."""
        ...


class AnswerStream(Protocol):
    """A chat surface showing an answer's text while it is written. It only ever receives text that has
    been checked (chatbot/qa/streaming.py); once the answer is complete the adapter shows the final
    reply in its place, which replaces whatever was streamed."""

    def append(self, text: str) -> bool:
        """Show `text` after what is shown so far. False when the surface cannot (or can no longer) show
        streamed text: the platform lacks the feature, refused, or is rate-limiting; the caller then
        stops appending and the final reply is shown the usual way. Never raises."""
        ...


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a push goes: a channel (Slack) or chat (Feishu) of a workspace/tenant."""

    platform: str
    workspace: str
    channel: str


class ChannelGone(Exception):
    """The channel no longer takes the bot's messages (deleted, archived, the bot removed)."""


class SendFailed(Exception):
    """A send failed in a way worth retrying later (5xx, rate limit past the retry budget, network)."""


class ChatSender(Protocol):
    """Posting to a chat platform, for pushes (answers to messages go through the platform adapters)."""

    def post(self, destination: Destination, reply: Reply, *, language: str, idempotency_key: str) -> str:
        """Post `reply`; returns the platform's message reference. `idempotency_key` is stable per
        delivery, so a platform that deduplicates (Feishu's uuid) or can be searched (Slack message
        metadata) makes a retried send safe. Raises ChannelGone or SendFailed."""
        ...

    def find_sent(self, destination: Destination, idempotency_key: str) -> str | None:
        """The reference of a message already posted with this key, if the platform can tell (used to
        settle a send that was in flight when the process died); None when not found or unknowable."""
        ...


class RepoValidator(Protocol):
    def repo_exists(self, repo: str) -> bool:
        """Whether `owner/name` exists and the token can see it. Raises SourceError when unsure."""
        ...


class Progress(Protocol):
    """Told how an answer is going while it is worked out, so a chat surface can show it (Slack's
    assistant status "正在检索 verl 上周的 PR…", the thread's title)."""

    def understood(self, query: Query, continued: bool) -> None:
        """The question has been read as `query`; `continued` when it follows up on an earlier question
        of the same conversation. Called once per question (not for commands), before the index is
        searched; must not raise."""
        ...
