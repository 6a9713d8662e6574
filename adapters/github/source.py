"""`PRSource` over PyGithub: list pages with ETags, then files, reviews and comments per PR.

Listing pages go through `requester.requestJson` because PyGithub's PaginatedList cannot send
`If-None-Match` (PyGithub issue #536); everything else uses PyGithub's own objects. Retries of 5xx and
429 happen inside urllib3 (bounded, with backoff, honouring Retry-After); a primary or secondary rate
limit becomes `RateLimited` so the sync decides whether to wait or stop.

Fetching (`fetch_pulls`) is a GraphQL + REST hybrid: reviews and comments of a batch of PRs come from
one GraphQL query (adapters/github/graphql.py), files with their patches from REST, page by page only
while the analyzer's patch budget lasts (the rest of a huge PR's file list comes from GraphQL, without
patches). About 1 REST request and 0.12 GraphQL points per PR instead of 4 REST requests. A server
without GraphQL (an older GitHub Enterprise), or one that refuses the query's shape, is read with REST
only from then on. REST and GraphQL budgets are reported apart.

Credentials: GITHUB_TOKEN, a GitHub App (GITHUB_APP_ID + GITHUB_APP_PRIVATE_KEY), or both. With the app,
each repo is read with its installation's token (minted and refreshed before expiry by PyGithub's
`AppInstallationAuth`; a token GitHub refuses anyway, say after clock skew, is minted again once); a
repo no installation covers is read with GITHUB_TOKEN when there is one.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from github import Auth, Github, GithubException, RateLimitExceededException, UnknownObjectException
from github.GithubException import BadCredentialsException
from requests.exceptions import RequestException
from urllib3.util.retry import Retry

from adapters.github.app import GitHubApp
from adapters.github.graphql import PullDetails, batch_query, details_from, more_query
from adapters.github.rest import MalformedPayload, assemble, file_from_rest, header_from_rest, parse_time
from chatbot.config import Settings
from chatbot.models import (
    MAX_PATCH_CHARS,
    MAX_TOTAL_PATCH_CHARS,
    Comment,
    PRFile,
    PullHeader,
    PullRequest,
    Review,
    cap_text,
)
from chatbot.ports import (
    AuthenticationFailed,
    Budget,
    PullPage,
    RateLimited,
    RepoNotFound,
    SourceError,
    SourceUnavailable,
)

PER_PAGE = 100
# GitHub lists at most 3,000 files per PR; past the cap we keep counting but stop reading patches.
MAX_FILES = 3_000
_REFUSED = "GitHub refused the credentials (401): check GITHUB_TOKEN or the GitHub App's id and key"
log = logging.getLogger(__name__)
_NEXT_LINK = re.compile(r'<([^>]+)>;\s*rel="next"')
T = TypeVar("T")
# GraphQL errors that mean "this server cannot answer this query" rather than "this PR failed".
_UNANSWERABLE = frozenset(
    {"MAX_NODE_LIMIT_EXCEEDED", "EXCESSIVE_PAGINATION", "MISSING_PAGINATION_BOUNDARIES", "INVALID"}
)


class GraphQLUnavailable(Exception):
    """The server has no GraphQL API, or refuses the query's shape: read with REST only."""


class _CountingToken(Auth.Token):
    """A token that counts the requests it signs: PyGithub calls `authentication` once per request."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.requests = 0

    def authentication(self, headers: dict[str, Any]) -> None:
        self.requests += 1
        super().authentication(headers)


class _CountingInstallationAuth(Auth.AppInstallationAuth):
    """An installation's token (minted and refreshed by PyGithub) that counts the requests it signs."""

    def __init__(self, app_auth: Auth.AppAuth, installation_id: int) -> None:
        super().__init__(app_auth, installation_id)
        self.requests = 0

    def authentication(self, headers: dict[str, Any]) -> None:
        self.requests += 1
        super().authentication(headers)


class GitHubSource:
    """Merged pull requests from GitHub or GitHub Enterprise (`GITHUB_API_URL`)."""

    def __init__(self, settings: Settings) -> None:
        if not settings.github_app_configured:
            settings.require_github_token()  # the one credential: refuse a missing one now, by name
        retry = Retry(
            total=settings.github_retries,
            connect=settings.github_retries,
            read=settings.github_retries,
            status=settings.github_retries,
            backoff_factor=settings.github_retry_backoff,
            status_forcelist=(429, 500, 502, 503, 504),
            allowed_methods=frozenset({"GET"}),
            respect_retry_after_header=True,
            raise_on_status=False,
        )
        self._options: dict[str, Any] = {
            "base_url": settings.github_api_url.rstrip("/"),
            "timeout": int(settings.github_timeout),
            "per_page": PER_PAGE,
            "retry": retry,
            "seconds_between_requests": None,
            "seconds_between_writes": None,
            "lazy": True,
        }
        self._token: Github | None = None
        self._auths: list[_CountingToken | _CountingInstallationAuth] = []
        if settings.github_token is not None:
            token = _CountingToken(settings.require_github_token())
            self._auths.append(token)
            self._token = Github(auth=token, **self._options)
        self.app: GitHubApp | None = GitHubApp(settings) if settings.github_app_configured else None
        self._installation_of: dict[str, int | None] = {}  # repo -> installation id (None: not installed)
        self._installations: dict[int, Github] = {}
        self._last: Github | None = self._token
        self._credential: str | None = None  # the budget of the credential used last
        self.graphql = True  # until the server shows it has no GraphQL API
        self._graphql_requests = 0
        self._graphql_points = 0
        self._rest_rate: tuple[int, int, int] = (-1, -1, 0)  # remaining, limit, reset (epoch s)
        self._graphql_rate: tuple[int | None, int | None, datetime | None] = (None, None, None)

    def _gh_for(self, repo: str) -> Github:
        """The client that reads `repo`: its installation's when the app covers it, else the token's."""
        if self.app is not None:
            repo = repo.lower()
            if repo not in self._installation_of:
                self._installation_of[repo] = self._request(lambda: self.app.installation_id_for(repo))  # type: ignore[union-attr]
            installation = self._installation_of[repo]
            if installation is not None:
                self._last = self._installation_client(installation)
                self._credential = f"installation:{installation}"
                return self._last
        if self._token is None:
            raise RepoNotFound(
                f"{repo}: the GitHub App is not installed on it (and there is no GITHUB_TOKEN to read it with)"
            )
        self._last = self._token
        self._credential = "token"
        return self._token

    def _installation_client(self, installation: int) -> Github:
        if installation not in self._installations:
            assert self.app is not None
            auth = _CountingInstallationAuth(self.app.auth, installation)
            self._auths.append(auth)
            self._installations[installation] = Github(auth=auth, **self._options)
        return self._installations[installation]

    def _with(self, repo: str, call: Callable[[Github], T], rest: bool = True) -> T:
        """Run `call` with the repo's client. An installation token GitHub refuses is minted again once
        (GitHub's clock and ours disagree, or the token was revoked) before the refusal stands. After a
        REST call the REST budget GitHub reported is kept (GraphQL answers report their own)."""
        gh = self._gh_for(repo)
        try:
            result = self._request(lambda: call(gh))
        except AuthenticationFailed:
            installation = self._installation_of.get(repo.lower()) if self.app is not None else None
            if installation is None:
                raise
            del self._installations[installation]
            gh = self._installation_client(installation)
            self._last = gh
            result = self._request(lambda: call(gh))
        finally:
            if rest:
                remaining, limit = gh.requester.rate_limiting
                self._rest_rate = (remaining, limit, gh.requester.rate_limiting_resettime)
        return result

    # PRSource ----------------------------------------------------------------------------------------

    def list_closed_pulls(self, repo: str, page: str | None = None, etag: str | None = None) -> PullPage:
        if page is None:
            url = f"/repos/{repo}/pulls"
            params: dict[str, Any] | None = {
                "state": "closed",
                "sort": "updated",
                "direction": "desc",
                "per_page": PER_PAGE,
            }
        else:
            url, params = page, None
        headers = {"If-None-Match": etag} if etag else {}
        status, response_headers, body = self._json(repo, "GET", url, params, headers)
        if status == 304:
            return PullPage(pulls=[], next_page=None, etag=etag, not_modified=True)
        self._raise_for_status(status, response_headers, body, f"the pull requests of {repo}")
        try:
            items = json.loads(body)
            if not isinstance(items, list):
                raise MalformedPayload("expected a list of pull requests")
            pulls = [header_from_rest(item, repo) for item in items]
        except (ValueError, MalformedPayload) as exc:
            raise SourceUnavailable(
                f"GitHub returned malformed JSON for the pull requests of {repo}: {exc}"
            ) from exc
        match = _NEXT_LINK.search(response_headers.get("link", ""))
        return PullPage(
            pulls=pulls, next_page=match.group(1) if match else None, etag=response_headers.get("etag")
        )

    def get_pull(self, repo: str, number: int) -> PullHeader:
        status, response_headers, body = self._json(repo, "GET", f"/repos/{repo}/pulls/{number}")
        self._raise_for_status(status, response_headers, body, f"{repo}#{number}")
        try:
            return header_from_rest(json.loads(body), repo)
        except (ValueError, MalformedPayload) as exc:
            raise SourceUnavailable(f"GitHub returned malformed JSON for {repo}#{number}: {exc}") from exc

    def fetch_pull(self, header: PullHeader) -> PullRequest:
        number = header.number
        files = self._with(
            header.repo, lambda gh: self._files(gh.get_repo(header.repo).get_pull(number).get_files())
        )
        reviews = self._with(
            header.repo,
            lambda gh: [
                Review(_login(r.user), r.state, cap_text(r.body), r.submitted_at)
                for r in gh.get_repo(header.repo).get_pull(number).get_reviews()
                if r.state != "PENDING"
            ],
        )
        line_comments = self._with(
            header.repo,
            lambda gh: [
                Comment(_login(c.user), cap_text(c.body), c.created_at, c.path)
                for c in gh.get_repo(header.repo).get_pull(number).get_review_comments()
            ],
        )
        conversation = self._with(
            header.repo,
            lambda gh: [
                Comment(_login(c.user), cap_text(c.body), c.created_at)
                for c in gh.get_repo(header.repo).get_issue(number).get_comments()
            ],
        )
        comments = sorted(conversation + line_comments, key=lambda c: c.created_at or header.created_at)
        return assemble(header, files, reviews, comments)

    def repo_exists(self, repo: str) -> bool:
        """RepoValidator: GET /repos/{owner}/{name}; False on 404, raises for other failures."""
        try:
            status, headers, body = self._json(repo, "GET", f"/repos/{repo}")
        except RepoNotFound:
            return False  # the app is not installed on it and no token reads it
        if status == 404:
            return False
        self._raise_for_status(status, headers, body, repo)
        return True

    def budget(self) -> Budget:
        """REST requests made with every credential and GraphQL points spent; the budgets left of the
        credential used last."""
        remaining, limit, reset = self._rest_rate
        graphql_remaining, graphql_limit, graphql_reset = self._graphql_rate
        return Budget(
            requests_made=sum(auth.requests for auth in self._auths) - self._graphql_requests,
            remaining=remaining if remaining >= 0 else None,
            limit=limit if limit >= 0 else None,
            reset_at=datetime.fromtimestamp(reset, UTC) if reset else None,
            graphql_points=self._graphql_points,
            graphql_remaining=graphql_remaining,
            graphql_limit=graphql_limit,
            graphql_reset_at=graphql_reset,
            credential=self._credential,
        )

    # Hybrid fetching ---------------------------------------------------------------------------------

    def fetch_pulls(self, headers: Sequence[PullHeader]) -> list[PullRequest | SourceError]:
        """Full PullRequests for the first of `headers` (one repo), in order; a PR that fails is its
        SourceError. With GraphQL all of them, from one batch query; with REST only, just the first, so
        the caller stores each PR as soon as it is read. When the rate limit runs out part way, the PRs
        fetched so far are returned; with none fetched, RateLimited is raised."""
        if not headers:
            return []
        if self.graphql:
            try:
                details = self._details(headers[0].repo, [h.number for h in headers])
            except GraphQLUnavailable as exc:
                log.warning("GitHub GraphQL unavailable (%s): reading PRs with REST only", exc)
                self.graphql = False
            except SourceUnavailable as exc:  # a failed GraphQL call: this PR over REST, then try again
                log.warning("GitHub GraphQL failed (%s): reading one PR with REST", exc)
            else:
                return self._collect(headers, lambda h: self._hybrid(h, details[h.number]))
        return self._collect(headers[:1], self.fetch_pull)

    @staticmethod
    def _collect(
        headers: Sequence[PullHeader], fetch: Callable[[PullHeader], PullRequest]
    ) -> list[PullRequest | SourceError]:
        results: list[PullRequest | SourceError] = []
        for header in headers:
            try:
                results.append(fetch(header))
            except RateLimited:
                if not results:
                    raise
                return results
            except AuthenticationFailed:
                raise
            except SourceError as exc:
                results.append(exc)
        return results

    def _hybrid(self, header: PullHeader, details: PullDetails | SourceError) -> PullRequest:
        if isinstance(details, SourceError):
            raise details
        for connection in ("reviews", "comments", "reviewThreads"):
            while connection in details.more:
                page = self._more(header, connection, details.more[connection])
                details.add(connection, page)
        files = self._rest_files(header, details)
        comments = sorted(details.comments, key=lambda c: c.created_at or header.created_at)
        totals = {
            "additions": details.additions,
            "deletions": details.deletions,
            "changed_files": details.changed_files,
        }
        return assemble(header, files, details.reviews, comments, totals=totals)

    def _rest_files(self, header: PullHeader, details: PullDetails) -> list[PRFile]:
        """Files with patches from REST while the patch budget lasts; the rest of the list (no patch)
        from GraphQL."""
        wanted = min(details.changed_files, MAX_FILES)
        files: list[PRFile] = []
        budget = MAX_TOTAL_PATCH_CHARS
        page = 1
        while len(files) < wanted and budget > 0:
            url = f"/repos/{header.repo}/pulls/{header.number}/files"
            params = {"per_page": PER_PAGE, "page": page}
            status, response_headers, body = self._json(header.repo, "GET", url, params)
            self._raise_for_status(status, response_headers, body, f"{header.repo}#{header.number}")
            try:
                items = json.loads(body)
                batch = [file_from_rest(item) for item in items]
            except (ValueError, KeyError, TypeError) as exc:
                raise SourceUnavailable(
                    f"GitHub returned malformed JSON for the files of {header.repo}#{header.number}"
                ) from exc
            files.extend(batch)
            budget -= sum(min(len(f.patch), MAX_PATCH_CHARS) for f in batch if f.patch)
            if len(batch) < PER_PAGE:
                return files[:MAX_FILES]
            page += 1
        if len(files) < wanted:
            files.extend(self._graphql_files(header, skip=len(files), wanted=wanted))
        return files[:MAX_FILES]

    def _graphql_files(self, header: PullHeader, skip: int, wanted: int) -> list[PRFile]:
        """The file list past the first `skip` files (read with REST), without patches."""
        listed: list[PRFile] = []
        details = PullDetails(header.number, 0, 0, 0)
        cursor: str | None = None
        while len(listed) < wanted:
            page = self._more(header, "files", cursor)
            listed.extend(details.add("files", page))
            cursor = details.more.get("files")
            if cursor is None:
                break
        return listed[skip:wanted]

    def _details(self, repo: str, numbers: list[int]) -> dict[int, PullDetails | SourceError]:
        owner, name = repo.split("/", 1)
        data, errors = self._graphql(repo, batch_query(numbers), {"owner": owner, "name": name})
        failed = {str(e.get("path", [None, None])[1]): e for e in errors if len(e.get("path") or []) > 1}
        repository = (data or {}).get("repository")
        if repository is None:
            raise RepoNotFound(f"{repo}: not found on GitHub (or the credentials cannot see it)")
        found: dict[int, PullDetails | SourceError] = {}
        for number in numbers:
            pull = repository.get(f"p{number}")
            if pull is None:
                error = failed.get(f"p{number}", {})
                message = str(error.get("message") or "GitHub returned no data")[:200]
                not_found = error.get("type") == "NOT_FOUND"
                found[number] = (RepoNotFound if not_found else SourceUnavailable)(
                    f"{repo}#{number}: {message}"
                )
                continue
            try:
                found[number] = details_from(pull)
            except MalformedPayload as exc:
                found[number] = SourceUnavailable(f"{repo}#{number}: {exc}")
        return found

    def _more(self, header: PullHeader, connection: str, after: str | None) -> dict[str, Any]:
        owner, name = header.repo.split("/", 1)
        variables = {"owner": owner, "name": name, "number": header.number, "after": after}
        data, errors = self._graphql(header.repo, more_query(connection), variables)
        try:
            page = data["repository"]["pullRequest"][connection]  # type: ignore[index]
        except (KeyError, TypeError) as exc:
            message = errors[0].get("message") if errors else "no data"
            raise SourceUnavailable(f"{header.repo}#{header.number}: GitHub GraphQL: {message}") from exc
        if not isinstance(page, dict):
            raise SourceUnavailable(f"{header.repo}#{header.number}: GitHub GraphQL returned no {connection}")
        return page

    def _graphql(
        self, repo: str, query: str, variables: dict[str, Any]
    ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """One GraphQL call: (data, errors). Raises GraphQLUnavailable for a server without GraphQL or a
        query it refuses by shape, RateLimited when the points are spent."""

        def call(gh: Github) -> tuple[int, dict[str, Any], str]:
            self._graphql_requests += 1
            status, headers, body = gh.requester.requestJson(
                "POST", gh.requester.graphql_url, input={"query": query, "variables": variables}
            )
            if status == 401:
                raise AuthenticationFailed(_REFUSED)
            return status, headers, body

        status, headers, body = self._with(repo, call, rest=False)
        if status in (404, 410):
            raise GraphQLUnavailable(f"{status} at the GraphQL endpoint")
        self._raise_for_status(status, headers, body, f"the GraphQL API ({repo})")
        try:
            answer = json.loads(body)
        except ValueError as exc:
            raise SourceUnavailable(f"GitHub GraphQL returned malformed JSON for {repo}") from exc
        errors = [e for e in answer.get("errors") or [] if isinstance(e, dict)]
        kinds = {e.get("type") for e in errors}
        if "RATE_LIMITED" in kinds:
            raise RateLimited("GitHub GraphQL rate limit exceeded", self._reset_at(headers))
        if kinds & _UNANSWERABLE or (errors and not answer.get("data")):
            raise GraphQLUnavailable("; ".join(str(e.get("message"))[:120] for e in errors))
        data = answer.get("data")
        rate = (data or {}).get("rateLimit") or {}
        if isinstance(rate, dict) and rate:
            self._graphql_points += int(rate.get("cost") or 0)
            reset = parse_time(rate.get("resetAt")) if rate.get("resetAt") else None
            self._graphql_rate = (rate.get("remaining"), rate.get("limit"), reset)
        return data, errors

    # Internals ---------------------------------------------------------------------------------------

    def _json(
        self,
        repo: str,
        verb: str,
        url: str,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, Any], str]:
        """One raw request; a 401 with an installation token goes through `_with`'s one re-mint."""

        def call(gh: Github) -> tuple[int, dict[str, Any], str]:
            status, response_headers, body = gh.requester.requestJson(
                verb, url, parameters=params, headers=headers
            )
            if status == 401:
                raise AuthenticationFailed(_REFUSED)
            return status, response_headers, body

        return self._with(repo, call)

    @staticmethod
    def _files(paginated: Iterable[Any]) -> list[PRFile]:
        files = []
        for n, f in enumerate(paginated):
            if n >= MAX_FILES:
                break
            files.append(
                file_from_rest(
                    {
                        "filename": f.filename,
                        "status": f.status,
                        "additions": f.additions,
                        "deletions": f.deletions,
                        "patch": f.patch,
                        "previous_filename": f.previous_filename,
                    }
                )
            )
        return files

    def _request(self, call: Callable[[], T]) -> T:
        """Run one PyGithub call, translating its exceptions into the PRSource errors."""
        try:
            return call()
        except SourceError:
            raise
        except RateLimitExceededException as exc:
            raise RateLimited("GitHub API rate limit exceeded", self._reset_at(exc.headers or {})) from exc
        except BadCredentialsException as exc:
            raise AuthenticationFailed(_REFUSED) from exc
        except UnknownObjectException as exc:
            raise RepoNotFound("not found on GitHub (or the token cannot see it)") from exc
        except GithubException as exc:
            raise SourceUnavailable(f"GitHub answered {exc.status}: {_message(exc.data)}") from exc
        except (RequestException, json.JSONDecodeError, MalformedPayload) as exc:
            raise SourceUnavailable(f"GitHub could not be read: {exc.__class__.__name__}: {exc}") from exc

    def _raise_for_status(self, status: int, headers: dict[str, Any], body: str, what: str) -> None:
        if 200 <= status < 300:
            return
        message = _message(_json_or_text(body))
        if status == 401:
            raise AuthenticationFailed(_REFUSED)
        if status in (403, 429) and (
            "rate limit" in message.lower()
            or headers.get("x-ratelimit-remaining") == "0"
            or "retry-after" in headers
        ):
            raise RateLimited(f"GitHub API rate limit exceeded ({message})", self._reset_at(headers))
        if status == 404:
            raise RepoNotFound(f"{what}: not found on GitHub (or the token cannot see it)")
        raise SourceUnavailable(f"GitHub answered {status} for {what}: {message}")

    @staticmethod
    def _reset_at(headers: dict[str, Any]) -> datetime:
        now = datetime.now(UTC)
        if headers.get("retry-after"):
            return now + timedelta(seconds=float(headers["retry-after"]))
        if headers.get("x-ratelimit-reset"):
            return datetime.fromtimestamp(float(headers["x-ratelimit-reset"]), UTC)
        return now + timedelta(seconds=60)  # GitHub's advice for a secondary limit without a hint


def _login(user: Any) -> str:
    return str(getattr(user, "login", None) or "ghost")


def _json_or_text(body: str) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return body


def _message(data: Any) -> str:
    if isinstance(data, dict):
        return str(data.get("message") or data)[:200]
    return str(data)[:200]
