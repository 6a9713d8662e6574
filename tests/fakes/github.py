"""A fake GitHub REST API: repos, paginated closed-PR lists with exact `Link` headers, PR files,
reviews and comments, ETags and 304s, rate-limit headers and 403 "API rate limit exceeded", injected
5xx bursts, malformed JSON and 404s.

GitHub App mode (`enable_app`): app JWTs verified with the app's public key (RS256, issuer = app id,
at most 10 minutes long), `/app/installations`, `/repos/{o}/{r}/installation`, installation tokens
minted at `/app/installations/{id}/access_tokens` with an expiry, refused once expired,
`/installation/repositories`, and a rate budget of its own per installation; an installation token
sees only its installation's repos (404 elsewhere), as on GitHub.

Time comes from `now` (the test's clock), so a rate-limit reset happens when the test clock passes it.
Installation tokens and JWTs expire by the real clock, which is the one PyGithub checks them against.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt

from tests.fakes.github_graphql import QueryRefused, execute
from tests.fakes.http import FakeService, Request, Response

_REPO_ROUTE = re.compile(r"^/repos/(?P<owner>[^/]+)/(?P<name>[^/]+)$")
_INSTALLATION_ROUTE = re.compile(
    r"^/(?:app/installations(?:/(?P<id>\d+)(?P<tokens>/access_tokens)?)?"
    r"|repos/(?P<owner>[^/]+)/(?P<name>[^/]+)/installation)$"
)
_ROUTE = re.compile(
    r"^/repos/(?P<owner>[^/]+)/(?P<name>[^/]+)/(?:(?P<pulls>pulls)(?:/(?P<number>\d+)(?:/(?P<sub>files|reviews|comments))?)?"
    r"|issues/(?P<issue>\d+)/comments)$"
)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class FakePull:
    data: dict[str, Any]
    files: list[dict[str, Any]] = field(default_factory=list)
    reviews: list[dict[str, Any]] = field(default_factory=list)
    review_comments: list[dict[str, Any]] = field(default_factory=list)
    issue_comments: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class RateBucket:
    """One rate budget: the user token's, or one installation's (GitHub counts them apart)."""

    limit: int
    remaining: int
    reset_at: datetime


@dataclass
class FakeInstallation:
    id: int
    account: str
    repos: list[str]
    target_type: str = "Organization"
    selection: str = "selected"
    bucket: RateBucket | None = None
    graphql_bucket: RateBucket | None = None

    def data(self, app_id: int) -> dict[str, Any]:
        return {
            "id": self.id,
            "app_id": app_id,
            "account": {"login": self.account, "id": self.id * 10, "type": self.target_type},
            "target_type": self.target_type,
            "repository_selection": self.selection,
            "permissions": {"pull_requests": "read", "contents": "read", "metadata": "read"},
            "events": ["pull_request", "installation", "installation_repositories"],
        }


@dataclass
class Injected:
    pattern: re.Pattern[str]
    remaining: int
    make: Callable[[], Response]


@dataclass
class Stall:
    """A request held open: `reached` is set when it arrives, it is answered once `release` is set."""

    pattern: re.Pattern[str]
    after: int
    seen: int = 0
    reached: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)


class FakeGitHub(FakeService):
    def __init__(
        self,
        token: str = "test-token",
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        rate_limit: int = 5000,
        graphql: bool = False,
    ) -> None:
        """`graphql=False` serves REST only, as an older GitHub Enterprise Server does (`/graphql` is a 404)."""
        super().__init__()
        self.graphql = graphql
        self.graphql_calls: list[tuple[int, int]] = []  # (cost, nodes) of each query run
        self.token = token
        self.now = now
        self.repos: dict[str, dict[int, FakePull]] = {}
        self.user_bucket = RateBucket(rate_limit, rate_limit, now() + timedelta(hours=1))
        self.user_graphql_bucket = RateBucket(5000, 5000, now() + timedelta(hours=1))
        self.app_id: int | None = None
        self._public_key: str | None = None
        self.installations: dict[int, FakeInstallation] = {}
        # installation token -> (installation id, real expiry); `token_lifetimes` are used up first.
        self.installation_tokens: dict[str, tuple[int, datetime]] = {}
        self.token_lifetimes: list[timedelta] = []
        self.minted: list[str] = []
        self._bucket = threading.local()
        self._injected: list[Injected] = []
        self._stalls: list[Stall] = []
        self._state = threading.RLock()

    # The user token's budget, as attributes tests set directly -------------------------------------

    @property
    def rate_limit(self) -> int:
        return self.user_bucket.limit

    @rate_limit.setter
    def rate_limit(self, value: int) -> None:
        self.user_bucket.limit = value

    @property
    def remaining(self) -> int:
        return self.user_bucket.remaining

    @remaining.setter
    def remaining(self, value: int) -> None:
        self.user_bucket.remaining = value

    @property
    def reset_at(self) -> datetime:
        return self.user_bucket.reset_at

    @reset_at.setter
    def reset_at(self, value: datetime) -> None:
        self.user_bucket.reset_at = value

    # GitHub App --------------------------------------------------------------------------------------

    def enable_app(self, app_id: int, public_key_pem: str) -> None:
        """Accept JWTs of app `app_id` signed with the private half of `public_key_pem`."""
        self.app_id, self._public_key = app_id, public_key_pem

    def add_installation(
        self,
        installation_id: int,
        account: str,
        repos: list[str],
        *,
        target_type: str = "Organization",
        rate_limit: int = 5000,
    ) -> FakeInstallation:
        for repo in repos:
            self.add_repo(repo)
        installation = FakeInstallation(
            installation_id,
            account,
            [r.lower() for r in repos],
            target_type,
            bucket=RateBucket(rate_limit, rate_limit, self.now() + timedelta(hours=1)),
            graphql_bucket=RateBucket(5000, 5000, self.now() + timedelta(hours=1)),
        )
        self.installations[installation_id] = installation
        return installation

    def expire_tokens(self) -> None:
        """Every installation token minted so far stops working (401), as after its hour is up."""
        with self._state:
            past = datetime.now(UTC) - timedelta(seconds=1)
            for token, (installation_id, _) in list(self.installation_tokens.items()):
                self.installation_tokens[token] = (installation_id, past)

    # Building the world ------------------------------------------------------------------------------

    def add_repo(self, full_name: str) -> None:
        self.repos.setdefault(full_name.lower(), {})

    def add_pull(
        self,
        repo: str,
        number: int,
        *,
        title: str | None = None,
        body: str = "",
        author: str = "alice",
        merged_at: datetime | None,
        updated_at: datetime | None = None,
        files: list[dict[str, Any]] | None = None,
        reviews: list[dict[str, Any]] | None = None,
        review_comments: list[dict[str, Any]] | None = None,
        issue_comments: list[dict[str, Any]] | None = None,
        labels: tuple[str, ...] = (),
    ) -> FakePull:
        """Add a closed PR (merged when `merged_at` is given). URLs point back at this fake."""
        self.add_repo(repo)
        created = (merged_at or self.now()) - timedelta(hours=5)
        updated = updated_at or merged_at or created
        files = files if files is not None else [make_file("src/app.py", 10, 2)]
        base = f"{self.url}/repos/{repo}"
        pull = FakePull(
            data={
                "url": f"{base}/pulls/{number}",
                "issue_url": f"{base}/issues/{number}",
                "html_url": f"https://github.com/{repo}/pull/{number}",
                "number": number,
                "state": "closed",
                "title": title if title is not None else f"[trainer] feat: change number {number}",
                "body": body,
                "user": {"login": author, "id": 1, "type": "User"},
                "labels": [{"name": label} for label in labels],
                "created_at": iso(created),
                "updated_at": iso(updated),
                "closed_at": iso(merged_at or updated),
                "merged_at": iso(merged_at) if merged_at else None,
                "merge_commit_sha": hashlib.sha1(f"{repo}{number}".encode()).hexdigest(),
                "base": {"ref": "main"},
            },
            files=files,
            reviews=reviews or [],
            review_comments=review_comments or [],
            issue_comments=issue_comments or [],
        )
        self.repos[repo.lower()][number] = pull
        return pull

    def load_pull(self, repo: str, item: dict[str, Any]) -> FakePull:
        """Serve a GitHub-REST-shaped PR object as it is (e.g. a line of verl-pulls.jsonl.gz); its
        `files` become the files endpoint."""
        self.add_repo(repo)
        number = int(item["number"])
        base = f"{self.url}/repos/{repo}"
        data = {k: v for k, v in item.items() if k != "files"}
        data.update(url=f"{base}/pulls/{number}", issue_url=f"{base}/issues/{number}")
        pull = FakePull(data=data, files=list(item.get("files") or []))
        self.repos[repo.lower()][number] = pull
        return pull

    def edit_pull(self, repo: str, number: int, at: datetime, **fields: Any) -> None:
        """Change a PR as GitHub would: the fields, and `updated_at`."""
        pull = self.repos[repo.lower()][number]
        if "files" in fields:
            pull.files = fields.pop("files")
        pull.data.update(fields)
        pull.data["updated_at"] = iso(at)

    # Switches ----------------------------------------------------------------------------------------

    def fail(
        self,
        path_pattern: str,
        status: int = 502,
        times: int = 1,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """The next `times` requests whose path matches get `status`."""
        self._inject(
            path_pattern,
            times,
            lambda: Response(status, body or {"message": "Server Error"}, dict(headers or {})),
        )

    def malformed(self, path_pattern: str, times: int = 1) -> None:
        self._inject(
            path_pattern,
            times,
            lambda: Response(200, b'[{"number": 1, "title": ', {"Content-Type": "application/json"}),
        )

    def stall(self, path_pattern: str, after: int) -> Stall:
        """Hold the request that follows `after` requests matching the pattern until the test releases
        it: a deterministic point at which to kill a client mid-walk, without waiting on the clock."""
        stall = Stall(re.compile(path_pattern), after)
        self._stalls.append(stall)
        return stall

    def exhaust_rate_limit(self, reset_in: timedelta, installation: int | None = None) -> None:
        bucket = self.installations[installation].bucket if installation is not None else self.user_bucket
        assert bucket is not None
        with self._state:
            bucket.remaining = 0
            bucket.reset_at = self.now() + reset_in

    def _inject(self, pattern: str, times: int, make: Callable[[], Response]) -> None:
        self._injected.append(Injected(re.compile(pattern), times, make))

    # Serving -----------------------------------------------------------------------------------------

    def paths(self) -> list[str]:
        return [c.request.path for c in self.calls]

    def handle(self, request: Request) -> Response:
        self._bucket.current = self.user_bucket
        authorization = request.headers.get("authorization", "")
        if authorization.startswith("Bearer ") and self.app_id is not None:
            return self._as_app(request, authorization.removeprefix("Bearer "))
        installation: FakeInstallation | None = None
        if authorization.startswith("token ") and authorization != f"token {self.token}":
            installation = self._installation_of(authorization.removeprefix("token "))
            if installation is None:
                return self._limited(Response(401, {"message": "Bad credentials"}), cost=False)
            self._bucket.current = installation.bucket
        elif authorization != f"token {self.token}":
            return self._limited(Response(401, {"message": "Bad credentials"}), cost=False)
        for stall in self._stalls:
            if stall.pattern.search(request.path):
                with self._state:
                    stall.seen += 1
                    hit = stall.seen == stall.after + 1
                if hit:
                    stall.reached.set()
                    stall.release.wait(timeout=60)  # a safety net: the test releases it
        for injected in self._injected:
            if injected.remaining > 0 and injected.pattern.search(request.path):
                injected.remaining -= 1
                return self._limited(injected.make(), cost=True)
        if request.path in ("/graphql", "/api/graphql"):
            if not self.graphql or request.method != "POST":
                return self._limited(Response(404, {"message": "Not Found"}), cost=False)
            return self._graphql(request, installation)
        bucket: RateBucket = self._bucket.current
        with self._state:
            if self.now() >= bucket.reset_at:
                bucket.remaining, bucket.reset_at = bucket.limit, self.now() + timedelta(hours=1)
            if bucket.remaining <= 0:
                return self._limited(
                    Response(
                        403,
                        {
                            "message": "API rate limit exceeded for user ID 1.",
                            "documentation_url": "https://docs.github.com/rest/rate-limit",
                        },
                    ),
                    cost=False,
                )
        if request.path == "/installation/repositories" and installation is not None:
            return self._installation_repositories(request, installation)
        if installation is not None and not self._sees(installation, request.path):
            return self._not_found()
        repo_only = _REPO_ROUTE.match(request.path)
        if repo_only:
            full = f"{repo_only['owner']}/{repo_only['name']}".lower()
            if full not in self.repos:
                return self._not_found()
            return self._limited(Response(200, {"full_name": full, "default_branch": "main"}), cost=True)
        match = _ROUTE.match(request.path)
        repo = f"{match['owner']}/{match['name']}".lower() if match else ""
        if not match or repo not in self.repos:
            return self._limited(Response(404, {"message": "Not Found"}), cost=True)
        pulls = self.repos[repo]
        if match["issue"]:
            pull = pulls.get(int(match["issue"]))
            return self._page(request, pull.issue_comments) if pull else self._not_found()
        if match["number"] is None:
            listed = [
                p.data for p in pulls.values() if request.query.get("state", "open") in ("closed", "all")
            ]
            listed.sort(key=lambda d: (d["updated_at"], d["number"]), reverse=True)
            return self._page(request, listed, etag=True)
        pull = pulls.get(int(match["number"]))
        if pull is None:
            return self._not_found()
        sub = match["sub"]
        if sub is None:
            return self._limited(Response(200, pull.data), cost=True)
        items = {"files": pull.files, "reviews": pull.reviews, "comments": pull.review_comments}[sub]
        return self._page(request, items)

    def _as_app(self, request: Request, token: str) -> Response:
        """Requests signed with the app's JWT: installations and installation tokens only."""
        assert self.app_id is not None and self._public_key is not None
        try:
            claims = jwt.decode(
                token, self._public_key, algorithms=["RS256"], options={"require": ["iat", "exp", "iss"]}
            )
        except jwt.PyJWTError as exc:
            return Response(401, {"message": f"A JSON web token could not be decoded ({exc})"})
        if str(claims["iss"]) != str(self.app_id) or claims["exp"] - claims["iat"] > 660:
            return Response(401, {"message": "'Issuer' claim ('iss') must be the app id"})
        match = _INSTALLATION_ROUTE.match(request.path)
        if match is None:
            return Response(403, {"message": "A JWT can only be used for the app's own endpoints"})
        if match["owner"]:
            repo = f"{match['owner']}/{match['name']}".lower()
            found = next((i for i in self.installations.values() if repo in i.repos), None)
            return (
                Response(200, found.data(self.app_id)) if found else Response(404, {"message": "Not Found"})
            )
        if match["id"] is None:
            per_page = min(100, int(request.query.get("per_page", 30)))
            page = int(request.query.get("page", 1))
            listed = [i.data(self.app_id) for i in sorted(self.installations.values(), key=lambda i: i.id)]
            return Response(200, listed[(page - 1) * per_page : page * per_page])
        installation = self.installations.get(int(match["id"]))
        if installation is None:
            return Response(404, {"message": "Not Found"})
        if not match["tokens"]:
            return Response(200, installation.data(self.app_id))
        if request.method != "POST":
            return Response(404, {"message": "Not Found"})
        with self._state:
            lifetime = self.token_lifetimes.pop(0) if self.token_lifetimes else timedelta(hours=1)
            minted = "ghs_" + secrets.token_hex(16)
            expires = datetime.now(UTC).replace(microsecond=0) + lifetime
            self.installation_tokens[minted] = (installation.id, expires)
            self.minted.append(minted)
        return Response(
            201,
            {
                "token": minted,
                "expires_at": iso(expires),
                "permissions": installation.data(self.app_id)["permissions"],
                "repository_selection": installation.selection,
            },
        )

    def _graphql(self, request: Request, installation: FakeInstallation | None) -> Response:
        """One GraphQL call: refused before it runs (200 with `errors`, as GitHub answers) when it breaks a
        pagination or node rule or the points budget is spent, else charged and executed."""
        bucket = installation.graphql_bucket if installation is not None else self.user_graphql_bucket
        assert bucket is not None
        try:
            payload = request.json()
            query, variables = payload["query"], payload.get("variables") or {}
        except (ValueError, KeyError, TypeError):
            return Response(400, {"message": "Problems parsing JSON"})

        def charge(cost: int, nodes: int) -> dict[str, Any]:
            with self._state:
                if self.now() >= bucket.reset_at:
                    bucket.remaining, bucket.reset_at = bucket.limit, self.now() + timedelta(hours=1)
                if bucket.remaining < cost:
                    raise QueryRefused("RATE_LIMITED", "API rate limit already exceeded for user ID 1.")
                bucket.remaining -= cost
                self.graphql_calls.append((cost, nodes))
            return {
                "cost": cost,
                "limit": bucket.limit,
                "remaining": bucket.remaining,
                "used": bucket.limit - bucket.remaining,
                "resetAt": iso(bucket.reset_at),
                "nodeCount": nodes,
            }

        visible = (
            (lambda repo: repo in installation.repos) if installation is not None else (lambda repo: True)
        )
        try:
            body = execute(query, variables, self.repos, visible, charge)
        except QueryRefused as refused:
            body = {"errors": [{"type": refused.kind, "message": str(refused)}]}
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(bucket.remaining),
            "X-RateLimit-Reset": str(int(bucket.reset_at.timestamp())),
            "X-RateLimit-Used": str(bucket.limit - bucket.remaining),
            "X-RateLimit-Resource": "graphql",
        }
        return Response(200, body, headers)

    def _installation_of(self, token: str) -> FakeInstallation | None:
        """The installation an unexpired installation token belongs to."""
        with self._state:
            known = self.installation_tokens.get(token)
        if known is None or known[1] <= datetime.now(UTC):
            return None
        return self.installations.get(known[0])

    @staticmethod
    def _sees(installation: FakeInstallation, path: str) -> bool:
        parts = path.split("/")
        return len(parts) < 4 or parts[1] != "repos" or f"{parts[2]}/{parts[3]}".lower() in installation.repos

    def _installation_repositories(self, request: Request, installation: FakeInstallation) -> Response:
        per_page = min(100, int(request.query.get("per_page", 30)))
        page = int(request.query.get("page", 1))
        repos = [
            {
                "id": abs(hash(name)) % 10**8,
                "name": name.split("/")[1],
                "full_name": name,
                "private": False,
                "owner": {"login": name.split("/")[0]},
            }
            for name in installation.repos
        ]
        chunk = repos[(page - 1) * per_page : page * per_page]
        body = {
            "total_count": len(repos),
            "repository_selection": installation.selection,
            "repositories": chunk,
        }
        headers: dict[str, str] = {}
        if page * per_page < len(repos):
            headers["Link"] = (
                f'<{self.url}/installation/repositories?per_page={per_page}&page={page + 1}>; rel="next"'
            )
        return self._limited(Response(200, body, headers), cost=True)

    def _not_found(self) -> Response:
        return self._limited(Response(404, {"message": "Not Found"}), cost=True)

    def _page(self, request: Request, items: list[dict[str, Any]], etag: bool = False) -> Response:
        per_page = min(100, int(request.query.get("per_page", 30)))
        page = int(request.query.get("page", 1))
        chunk = items[(page - 1) * per_page : page * per_page]
        body = json.dumps(chunk).encode("utf-8")
        headers: dict[str, str] = {"Content-Type": "application/json; charset=utf-8"}
        if etag:
            tag = f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'
            headers["ETag"] = tag
            if request.headers.get("if-none-match") == tag:
                return self._limited(Response(304, b"", headers), cost=False)
        last = max(1, math.ceil(len(items) / per_page))
        links = []
        params = {k: v for k, v in request.query.items() if k != "page"}
        params["per_page"] = str(per_page)
        query = "&".join(f"{k}={v}" for k, v in sorted(params.items()))
        if page < last:
            links.append(f'<{self.url}{request.path}?{query}&page={page + 1}>; rel="next"')
            links.append(f'<{self.url}{request.path}?{query}&page={last}>; rel="last"')
        if links:
            headers["Link"] = ", ".join(links)
        return self._limited(Response(200, body, headers), cost=True)

    def _limited(self, response: Response, cost: bool) -> Response:
        """Add rate-limit headers; a 304 (and refusals) cost nothing, as on GitHub."""
        bucket: RateBucket = getattr(self._bucket, "current", self.user_bucket)
        with self._state:
            if cost and bucket.remaining > 0:
                bucket.remaining -= 1
            response.headers.update(
                {
                    "X-RateLimit-Limit": str(bucket.limit),
                    "X-RateLimit-Remaining": str(bucket.remaining),
                    "X-RateLimit-Reset": str(int(bucket.reset_at.timestamp())),
                    "X-RateLimit-Used": str(bucket.limit - bucket.remaining),
                    "X-RateLimit-Resource": "core",
                }
            )
        return response


def make_file(
    filename: str, additions: int, deletions: int, patch: str | None = None, status: str = "modified"
) -> dict[str, Any]:
    return {
        "sha": hashlib.sha1(filename.encode()).hexdigest(),
        "filename": filename,
        "status": status,
        "additions": additions,
        "deletions": deletions,
        "changes": additions + deletions,
        "patch": patch if patch is not None else f"@@ -1,{deletions} +1,{additions} @@\n+changed line",
    }


def review(author: str, state: str, body: str, at: datetime) -> dict[str, Any]:
    return {
        "id": abs(hash((author, body))) % 10**8,
        "user": {"login": author},
        "state": state,
        "body": body,
        "submitted_at": iso(at),
    }


def comment(author: str, body: str, at: datetime, path: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": abs(hash((author, body))) % 10**8,
        "user": {"login": author},
        "body": body,
        "created_at": iso(at),
    }
    if path:
        data["path"] = path
    return data
