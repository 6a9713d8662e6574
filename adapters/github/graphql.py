"""The GraphQL half of hybrid ingestion: what one query asks for a batch of PRs, and how its answer becomes
prhub's reviews and comments.

A PR's reviews, conversation comments and review threads (with their line comments) come from one
GraphQL query per batch of PRs, each PR an alias of `repository.pullRequest(number:)`; patches are not in
GraphQL, so files come from REST (`GET …/pulls/{n}/files`, which also gives the patch). Page sizes keep
the query cheap under GitHub's cost rule (each connection costs one request per parent node; the sum
divided by 100 and rounded is the points charged, at least 1): per PR 3 top-level connections plus one
per review thread, so a batch of 25 PRs costs about 3 points. A connection with more items than its
first page is read on with its own follow-up query (`after:` its end cursor). A review thread keeps its
first `THREAD_COMMENTS` comments: the replies past them are not read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adapters.github.rest import MalformedPayload, parse_time
from chatbot.models import Comment, PRFile, Review, cap_text

FIRST = 50  # reviews and conversation comments in the batch query
THREADS = 10  # review threads in the batch query
THREAD_COMMENTS = 5
MORE = 100  # page size of a follow-up query
MORE_THREADS = 20

_AUTHOR = "author { login }"
_PAGE = "pageInfo { hasNextPage endCursor }"
_NODES = {
    "reviews": f"nodes {{ {_AUTHOR} state body submittedAt }}",
    "comments": f"nodes {{ {_AUTHOR} body createdAt }}",
    "reviewThreads": (
        f"nodes {{ path comments(first: {THREAD_COMMENTS}) {{ nodes {{ {_AUTHOR} body createdAt path }} }} }}"
    ),
    "files": "nodes { path additions deletions changeType }",
}
_RATE = "rateLimit { cost remaining limit resetAt }"
_STATUS = {"ADDED": "added", "DELETED": "removed", "RENAMED": "renamed", "COPIED": "copied"}


def batch_query(numbers: Sequence[int]) -> str:
    """One query for the reviews and comments of `numbers` (aliases `p<number>`)."""
    fragment = (
        "fragment pull on PullRequest { number additions deletions changedFiles "
        f"reviews(first: {FIRST}) {{ {_PAGE} {_NODES['reviews']} }} "
        f"comments(first: {FIRST}) {{ {_PAGE} {_NODES['comments']} }} "
        f"reviewThreads(first: {THREADS}) {{ {_PAGE} {_NODES['reviewThreads']} }} }}"
    )
    aliases = " ".join(f"p{n}: pullRequest(number: {n}) {{ ...pull }}" for n in numbers)
    return (
        f"query($owner: String!, $name: String!) {{ {_RATE} "
        f"repository(owner: $owner, name: $name) {{ {aliases} }} }} {fragment}"
    )


def more_query(connection: str) -> str:
    """The next page of one connection of one PR (`$number`, `$after`)."""
    size = MORE_THREADS if connection == "reviewThreads" else MORE
    return (
        "query($owner: String!, $name: String!, $number: Int!, $after: String) { "
        f"{_RATE} repository(owner: $owner, name: $name) {{ pullRequest(number: $number) {{ "
        f"{connection}(first: {size}, after: $after) {{ {_PAGE} {_NODES[connection]} }} }} }} }}"
    )


@dataclass
class PullDetails:
    """What GraphQL says about one PR: totals, reviews, comments, and the connections left to page."""

    number: int
    additions: int
    deletions: int
    changed_files: int
    reviews: list[Review] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    more: dict[str, str] = field(default_factory=dict)  # connection -> end cursor of its last page

    def add(self, connection: str, page: Mapping[str, Any]) -> list[PRFile]:
        """Take one page of a connection; files are returned (the caller merges them with REST's)."""
        nodes = page.get("nodes")
        info = page.get("pageInfo") or {}
        if not isinstance(nodes, list):
            raise MalformedPayload(f"PR #{self.number}: {connection} has no nodes")
        if info.get("hasNextPage") and info.get("endCursor"):
            self.more[connection] = str(info["endCursor"])
        else:
            self.more.pop(connection, None)
        files: list[PRFile] = []
        for node in nodes:
            if not isinstance(node, Mapping):
                continue
            if connection == "reviews":
                if node.get("state") != "PENDING":
                    self.reviews.append(
                        Review(
                            _login(node),
                            str(node.get("state") or ""),
                            cap_text(node.get("body")),
                            parse_time(node.get("submittedAt")),
                        )
                    )
            elif connection == "comments":
                self.comments.append(
                    Comment(_login(node), cap_text(node.get("body")), parse_time(node.get("createdAt")))
                )
            elif connection == "reviewThreads":
                for comment in (node.get("comments") or {}).get("nodes") or []:
                    self.comments.append(
                        Comment(
                            _login(comment),
                            cap_text(comment.get("body")),
                            parse_time(comment.get("createdAt")),
                            comment.get("path") or node.get("path"),
                        )
                    )
            else:
                files.append(
                    PRFile(
                        filename=str(node["path"]),
                        status=_STATUS.get(str(node.get("changeType")), "modified"),
                        additions=int(node.get("additions") or 0),
                        deletions=int(node.get("deletions") or 0),
                        patch=None,
                    )
                )
        return files


def details_from(pull: Mapping[str, Any]) -> PullDetails:
    """A PullDetails from one `...pull` alias of the batch query."""
    try:
        details = PullDetails(
            number=int(pull["number"]),
            additions=int(pull.get("additions") or 0),
            deletions=int(pull.get("deletions") or 0),
            changed_files=int(pull.get("changedFiles") or 0),
        )
        for connection in ("reviews", "comments", "reviewThreads"):
            details.add(connection, pull.get(connection) or {})
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedPayload(f"unexpected pull request in the GraphQL answer: {exc!r}") from exc
    return details


def _login(node: Mapping[str, Any]) -> str:
    author = node.get("author")
    return str(author.get("login") or "ghost") if isinstance(author, Mapping) else "ghost"
