"""prhub as a GitHub App: the app's JWT (PyGithub's `Auth.AppAuth`), its installations, and which
installation covers a repo.

An organisation installs the app once and picks repos; each installation has its own rate budget and its
webhook deliveries arrive at the one URL of the app. Installation tokens (an hour long) are minted and
refreshed by PyGithub's `AppInstallationAuth`, built per installation in `GitHubSource`.
"""

from __future__ import annotations

from dataclasses import dataclass

from github import Auth, GithubException, GithubIntegration, UnknownObjectException
from urllib3.util.retry import Retry

from chatbot.config import Settings
from chatbot.ports import AuthenticationFailed, SourceUnavailable


@dataclass(frozen=True, slots=True)
class InstallationInfo:
    """One installation of the app: on which account, how its repos are chosen, and which repos."""

    id: int
    account: str
    account_type: str
    selection: str  # "all" or "selected"
    repos: tuple[str, ...]


class GitHubApp:
    """The GitHub App named by GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY."""

    def __init__(self, settings: Settings) -> None:
        app_id, private_key = settings.require_github_app()
        self.auth = Auth.AppAuth(int(app_id), private_key)
        self._integration = GithubIntegration(
            auth=self.auth,
            base_url=settings.github_api_url.rstrip("/"),
            timeout=int(settings.github_timeout),
            retry=Retry(
                total=settings.github_retries,
                backoff_factor=settings.github_retry_backoff,
                status_forcelist=(429, 500, 502, 503, 504),
                allowed_methods=frozenset({"GET", "POST"}),
                respect_retry_after_header=True,
                raise_on_status=False,
            ),
            lazy=True,
        )

    def installation_id_for(self, repo: str) -> int | None:
        """The id of the installation that covers `repo` (`GET /repos/{o}/{r}/installation`), None when
        the app is not installed on it."""
        owner, name = repo.split("/", 1)
        try:
            return int(self._integration.get_repo_installation(owner, name).id)
        except UnknownObjectException:
            return None
        except GithubException as exc:
            raise _app_error(exc) from exc

    def installations(self) -> list[InstallationInfo]:
        """Every installation of the app, with the repos each one grants (one request per 100 repos,
        made with that installation's token)."""
        found = []
        try:
            for installation in self._integration.get_installations():
                repos = tuple(sorted(r.full_name.lower() for r in installation.get_repos()))
                found.append(
                    InstallationInfo(
                        id=int(installation.id),
                        account=str(installation.account.login),
                        account_type=str(installation.target_type or ""),
                        selection=str(installation.repository_selection or ""),
                        repos=repos,
                    )
                )
        except GithubException as exc:
            raise _app_error(exc) from exc
        return found


def _app_error(exc: GithubException) -> Exception:
    if exc.status == 401:
        return AuthenticationFailed(
            "GitHub refused the app's JWT (401): check GITHUB_APP_ID and that GITHUB_APP_PRIVATE_KEY is "
            "the app's current private key"
        )
    message = exc.data.get("message") if isinstance(exc.data, dict) else exc.data
    return SourceUnavailable(f"GitHub answered {exc.status} to the app: {str(message)[:200]}")
