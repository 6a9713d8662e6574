"""`PRSource` over PyGithub: list pages with ETags, then files, reviews and comments per PR.

Listing pages go through `requester.requestJson` because PyGithub's PaginatedList cannot send
`If-None-Match` (PyGithub issue #536); everything else uses PyGithub's own objects. Retries of 5xx and
429 happen inside urllib3 (bounded, with backoff, honouring Retry-After); a primary or secondary rate
limit becomes `RateLimited` so the sync decides whether to wait or stop.

Credentials: GITHUB_TOKEN, a GitHub App (GITHUB_APP_ID + GITHUB_APP_PRIVATE_KEY), or both. With the app,
each repo is read with its installation's token (minted and refreshed before expiry by PyGithub's
`AppInstallationAuth`; a token GitHub refuses anyway, say after clock skew, is minted again once); a
repo no installation covers is read with GITHUB_TOKEN when there is one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from github import Auth, Github, GithubException, RateLimitExceededException, UnknownObjectException
from github.GithubException import BadCredentialsException
from requests.exceptions import RequestException
from urllib3.util.retry import Retry

from adapters.github.app import GitHubApp
from adapters.github.rest import MalformedPayload, assemble, file_from_rest, header_from_rest
from chatbot.config import Settings
from chatbot.models import Comment, PRFile, PullHeader, PullRequest, Review, cap_text
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
_NEXT_LINK = re.compile(r'<([^>]+)>;\s*rel="next"')
T = TypeVar("T")


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

    def _gh_for(self, repo: str) -> Github:
        """The client that reads `repo`: its installation's when the app covers it, else the token's."""
        if self.app is not None:
            repo = repo.lower()
            if repo not in self._installation_of:
                self._installation_of[repo] = self._request(lambda: self.app.installation_id_for(repo))  # type: ignore[union-attr]
            installation = self._installation_of[repo]
            if installation is not None:
                self._last = self._installation_client(installation)
                return self._last
        if self._token is None:
            raise RepoNotFound(
                f"{repo}: the GitHub App is not installed on it (and there is no GITHUB_TOKEN to read it with)"
            )
        self._last = self._token
        return self._token

    def _installation_client(self, installation: int) -> Github:
        if installation not in self._installations:
            assert self.app is not None
            auth = _CountingInstallationAuth(self.app.auth, installation)
            self._auths.append(auth)
            self._installations[installation] = Github(auth=auth, **self._options)
        return self._installations[installation]

    def _with(self, repo: str, call: Callable[[Github], T]) -> T:
        """Run `call` with the repo's client. An installation token GitHub refuses is minted again once
        (GitHub's clock and ours disagree, or the token was revoked) before the refusal stands."""
        gh = self._gh_for(repo)
        try:
            return self._request(lambda: call(gh))
        except AuthenticationFailed:
            installation = self._installation_of.get(repo.lower()) if self.app is not None else None
            if installation is None:
                raise
            del self._installations[installation]
            fresh = self._installation_client(installation)
            self._last = fresh
            return self._request(lambda: call(fresh))

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
        """Requests made with every credential; the budget left of the one used last."""
        requests_made = sum(auth.requests for auth in self._auths)
        if self._last is None:
            return Budget(requests_made=requests_made, remaining=None, limit=None, reset_at=None)
        remaining, limit = self._last.requester.rate_limiting
        reset = self._last.requester.rate_limiting_resettime
        return Budget(
            requests_made=requests_made,
            remaining=remaining if remaining >= 0 else None,
            limit=limit if limit >= 0 else None,
            reset_at=datetime.fromtimestamp(reset, UTC) if reset else None,
        )

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
