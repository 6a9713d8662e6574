"""The GraphQL half of the fake GitHub: a real GraphQL server (graphql-core) over the fake's PRs, with a
subset of GitHub's schema (repository → pullRequest → files, reviews, comments, reviewThreads →
comments) and GitHub's documented limits, checked before anything is executed
(docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api):

- every connection needs `first` or `last`, within 1..100;
- a call may request at most 500,000 nodes (each connection's page size times its parents' sizes);
- a call costs the requests needed to fill each connection (1 for a top-level connection, one per
  parent node below that), divided by 100 and rounded, at least 1 point; points come from a budget of
  their own (5,000 an hour), reported in `rateLimit` and in the `X-RateLimit-*` headers with
  `X-RateLimit-Resource: graphql`. An exhausted budget answers `RATE_LIMITED`.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLObjectType,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    build_schema,
    get_named_type,
    graphql_sync,
    parse,
    validate,
    value_from_ast_untyped,
)

if TYPE_CHECKING:
    from tests.fakes.github import FakePull

NODE_LIMIT = 500_000

SCHEMA = build_schema(
    """
    type Query {
      repository(owner: String!, name: String!): Repository
      rateLimit: RateLimit
    }
    type RateLimit { cost: Int! limit: Int! remaining: Int! used: Int! resetAt: String! nodeCount: Int! }
    type PageInfo { hasNextPage: Boolean! endCursor: String }
    type Actor { login: String! }
    type Repository {
      nameWithOwner: String!
      pullRequest(number: Int!): PullRequest
    }
    enum PatchStatus { ADDED DELETED RENAMED COPIED MODIFIED CHANGED }
    type PullRequest {
      number: Int!
      title: String!
      additions: Int!
      deletions: Int!
      changedFiles: Int!
      updatedAt: String!
      files(first: Int, last: Int, after: String): PullRequestChangedFileConnection
      reviews(first: Int, last: Int, after: String): PullRequestReviewConnection
      comments(first: Int, last: Int, after: String): IssueCommentConnection
      reviewThreads(first: Int, last: Int, after: String): PullRequestReviewThreadConnection
    }
    type PullRequestChangedFile { path: String! additions: Int! deletions: Int! changeType: PatchStatus! }
    type PullRequestChangedFileConnection {
      totalCount: Int! pageInfo: PageInfo! nodes: [PullRequestChangedFile]
    }
    type PullRequestReview { author: Actor state: String! body: String! submittedAt: String }
    type PullRequestReviewConnection { totalCount: Int! pageInfo: PageInfo! nodes: [PullRequestReview] }
    type IssueComment { author: Actor body: String! createdAt: String! }
    type IssueCommentConnection { totalCount: Int! pageInfo: PageInfo! nodes: [IssueComment] }
    type PullRequestReviewThread {
      path: String!
      comments(first: Int, last: Int, after: String): PullRequestReviewCommentConnection
    }
    type PullRequestReviewThreadConnection {
      totalCount: Int! pageInfo: PageInfo! nodes: [PullRequestReviewThread]
    }
    type PullRequestReviewComment { author: Actor body: String! createdAt: String! path: String! }
    type PullRequestReviewCommentConnection {
      totalCount: Int! pageInfo: PageInfo! nodes: [PullRequestReviewComment]
    }
    """
)

_CHANGE_TYPES = {"added": "ADDED", "removed": "DELETED", "renamed": "RENAMED", "copied": "COPIED"}


class QueryRefused(Exception):
    """A query GitHub refuses before running it; `kind` is GitHub's error type."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def cursor(index: int) -> str:
    return base64.b64encode(f"cursor:v2:{index}".encode()).decode()


def _offset(after: str | None) -> int:
    if not after:
        return 0
    try:
        return int(base64.b64decode(after).decode().rsplit(":", 1)[1]) + 1
    except (ValueError, IndexError) as exc:
        raise GraphQLError(f"`{after}` does not appear to be a valid cursor.") from exc


def connection(
    items: Sequence[Any], first: int | None = None, last: int | None = None, after: str | None = None
) -> dict[str, Any]:
    start = _offset(after)
    chunk = list(items[start:])
    if first is not None:
        chunk = chunk[:first]
    elif last is not None:
        start += max(0, len(chunk) - last)
        chunk = chunk[-last:]
    end = start + len(chunk)
    return {
        "totalCount": len(items),
        "pageInfo": {"hasNextPage": end < len(items), "endCursor": cursor(end - 1) if chunk else None},
        "nodes": chunk,
    }


def measure(document: Any, variables: Mapping[str, Any]) -> tuple[int, int]:
    """(cost in points, node count) of a parsed query, or QueryRefused for a connection without valid
    `first`/`last`, or more than NODE_LIMIT nodes."""
    fragments = {d.name.value: d for d in document.definitions if d.kind == "fragment_definition"}
    requests = 0
    nodes = 0

    def walk(selection_set: SelectionSetNode | None, parent_type: GraphQLObjectType, multiplier: int) -> None:
        nonlocal requests, nodes
        if selection_set is None:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FragmentSpreadNode):
                walk(fragments[selection.name.value].selection_set, parent_type, multiplier)
                continue
            if isinstance(selection, InlineFragmentNode):
                walk(selection.selection_set, parent_type, multiplier)
                continue
            assert isinstance(selection, FieldNode)
            field = parent_type.fields.get(selection.name.value)
            if field is None:
                continue
            field_type = get_named_type(field.type)
            if not isinstance(field_type, GraphQLObjectType):
                continue
            if field_type.name.endswith("Connection"):
                args = {
                    a.name.value: value_from_ast_untyped(a.value, dict(variables))
                    for a in selection.arguments
                }
                size = args.get("first") if args.get("first") is not None else args.get("last")
                if size is None:
                    raise QueryRefused(
                        "MISSING_PAGINATION_BOUNDARIES",
                        f"You must provide a `first` or `last` value to properly paginate the `{selection.name.value}` connection.",
                    )
                if not isinstance(size, int) or not 1 <= size <= 100:
                    raise QueryRefused(
                        "EXCESSIVE_PAGINATION",
                        f"Requesting {size} records on the `{selection.name.value}` connection exceeds the "
                        "`first` limit of 100 records.",
                    )
                requests += multiplier
                nodes += multiplier * size
                node_type = get_named_type(field_type.fields["nodes"].type)
                assert isinstance(node_type, GraphQLObjectType)
                for sub in selection.selection_set.selections if selection.selection_set else ():
                    if isinstance(sub, FieldNode) and sub.name.value == "nodes":
                        walk(sub.selection_set, node_type, multiplier * size)
            else:
                walk(selection.selection_set, field_type, multiplier)

    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            walk(definition.selection_set, SCHEMA.query_type, 1)  # type: ignore[arg-type]
    if nodes > NODE_LIMIT:
        raise QueryRefused(
            "MAX_NODE_LIMIT_EXCEEDED",
            f"This query requests up to {nodes:,} possible nodes which exceeds the maximum limit of {NODE_LIMIT:,}.",
        )
    return max(1, round(requests / 100)), nodes


def pull_object(pull: FakePull) -> dict[str, Any]:
    """The PullRequest object the resolvers read: scalars, and connections as functions of their args."""
    data = pull.data

    def actor(item: Mapping[str, Any]) -> dict[str, str] | None:
        user = item.get("user")
        return {"login": user["login"]} if isinstance(user, dict) and user.get("login") else None

    files = [
        {
            "path": f["filename"],
            "additions": f.get("additions", 0),
            "deletions": f.get("deletions", 0),
            "changeType": _CHANGE_TYPES.get(f.get("status", "modified"), "MODIFIED"),
        }
        for f in pull.files
    ]
    reviews = [
        {
            "author": actor(r),
            "state": r["state"],
            "body": r.get("body") or "",
            "submittedAt": r.get("submitted_at"),
        }
        for r in pull.reviews
    ]
    comments = [
        {"author": actor(c), "body": c.get("body") or "", "createdAt": c["created_at"]}
        for c in pull.issue_comments
    ]
    threads: list[dict[str, Any]] = []
    by_id: dict[Any, list[dict[str, Any]]] = {}
    for c in pull.review_comments:
        node = {
            "author": actor(c),
            "body": c.get("body") or "",
            "createdAt": c["created_at"],
            "path": c.get("path") or "",
        }
        parent = c.get("in_reply_to_id")
        if parent in by_id:
            by_id[parent].append(node)
            by_id[c.get("id")] = by_id[parent]
            continue
        thread_comments = [node]
        by_id[c.get("id")] = thread_comments
        threads.append({"path": node["path"], "comments": _paged(thread_comments)})
    return {
        "number": data["number"],
        "title": data.get("title") or "",
        "additions": sum(f["additions"] for f in files),
        "deletions": sum(f["deletions"] for f in files),
        "changedFiles": len(files),
        "updatedAt": data["updated_at"],
        "files": _paged(files),
        "reviews": _paged(reviews),
        "comments": _paged(comments),
        "reviewThreads": _paged(threads),
    }


def _pull_or_error(pulls: Mapping[int, FakePull], number: int) -> dict[str, Any]:
    if number not in pulls:
        raise GraphQLError(f"Could not resolve to a PullRequest with the number of {number}.")
    return pull_object(pulls[number])


def _paged(items: Sequence[Any]) -> Callable[..., dict[str, Any]]:
    return lambda first=None, last=None, after=None: connection(items, first, last, after)


def _resolve(source: Any, info: Any, **args: Any) -> Any:
    value = (
        source.get(info.field_name) if isinstance(source, Mapping) else getattr(source, info.field_name, None)
    )
    return value(**args) if callable(value) else value


def execute(
    query: str,
    variables: Mapping[str, Any],
    repos: Mapping[str, Mapping[int, FakePull]],
    visible: Callable[[str], bool],
    rate_limit: Callable[[int, int], dict[str, Any]],
) -> dict[str, Any]:
    """Run one query: parse, validate against the schema, measure (QueryRefused), charge via
    `rate_limit(cost, nodes)` (which returns the `rateLimit` object or raises QueryRefused), execute."""
    try:
        document = parse(query)
    except GraphQLError as exc:
        return {"errors": [{"message": exc.message, "type": "PARSE_ERROR"}]}
    problems = validate(SCHEMA, document)
    if problems:
        return {"errors": [{"message": p.message, "type": "INVALID"} for p in problems]}
    cost, nodes = measure(document, variables)
    limit_object = rate_limit(cost, nodes)

    def repository(owner: str, name: str) -> dict[str, Any] | None:
        full = f"{owner}/{name}".lower()
        if full not in repos or not visible(full):
            return None
        pulls = repos[full]
        return {
            "nameWithOwner": full,
            "pullRequest": lambda number: _pull_or_error(pulls, number),
        }

    result = graphql_sync(
        SCHEMA,
        query,
        root_value={"repository": repository, "rateLimit": limit_object},
        variable_values=dict(variables),
        field_resolver=_resolve,
    )
    body: dict[str, Any] = {"data": result.data}
    errors = [
        {
            "message": e.message,
            "path": e.path,
            **({"type": "NOT_FOUND"} if e.message.startswith("Could not") else {}),
        }
        for e in result.errors or []
    ]
    if result.data and result.data.get("repository") is None and "repository" in query:
        errors.append(
            {"type": "NOT_FOUND", "path": ["repository"], "message": "Could not resolve to a Repository."}
        )
    if errors:
        body["errors"] = errors
    return body
