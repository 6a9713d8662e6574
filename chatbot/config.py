"""Typed settings, read once from the environment and `.env`, then passed down explicitly.

Every external service has a base URL here so tests (and GitHub Enterprise, GovSlack, Lark…) can point
the real client libraries elsewhere. Secrets are `SecretStr`, so they never show up in logs or reprs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///data/prhub.db"

# Values people leave in a copied .env.example; using one would fail later with a confusing 401.
_PLACEHOLDER = re.compile(
    r"^(|x+|changeme|change-me|todo|tbd|placeholder|your[-_ ].*|<.*>|\.\.\.|(ghp|xoxb|xapp|sk)[-_]?x+)$",
    re.IGNORECASE,
)


class ConfigError(Exception):
    """A setting a feature needs is missing, a placeholder, or invalid; the message says which."""


class Settings(BaseSettings):
    """All of prhub's configuration. Environment variables win over `.env`."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
        env_ignore_empty=True,  # `KEY=` in a copied .env.example means "not set", not ""
    )

    # Core
    database_url: str = Field(DEFAULT_DATABASE_URL, validation_alias="PRHUB_DATABASE_URL")
    timezone: str = Field("Asia/Shanghai", validation_alias="PRHUB_TIMEZONE")
    language: Literal["zh", "en"] = Field("zh", validation_alias="PRHUB_LANGUAGE")
    # Where report pages are served (`prhub serve`), for the links on cards; unset = no links.
    public_url: str | None = Field(None, validation_alias="PRHUB_PUBLIC_URL")

    # GitHub
    github_token: SecretStr | None = Field(None, validation_alias="GITHUB_TOKEN")
    github_api_url: str = Field("https://api.github.com", validation_alias="GITHUB_API_URL")
    github_timeout: float = Field(15.0, validation_alias="GITHUB_TIMEOUT", gt=0)
    github_retries: int = Field(3, validation_alias="GITHUB_RETRIES", ge=0)
    github_retry_backoff: float = Field(0.5, validation_alias="GITHUB_RETRY_BACKOFF", ge=0)
    sync_max_wait: int = Field(900, validation_alias="PRHUB_SYNC_MAX_WAIT", ge=0)
    sync_default_weeks: int = Field(8, validation_alias="PRHUB_SYNC_DEFAULT_WEEKS", ge=1)

    # GitHub App (an organisation's installation instead of, or beside, GITHUB_TOKEN): the app id and its
    # private key (a PEM file's path, or the PEM itself); accounts (org or user logins) whose new
    # installations start following their repos, comma-separated.
    github_app_id: str | None = Field(None, validation_alias="GITHUB_APP_ID")
    github_app_private_key: SecretStr | None = Field(None, validation_alias="GITHUB_APP_PRIVATE_KEY")
    autofollow: str = Field("", validation_alias="PRHUB_AUTOFOLLOW")

    # Analysis: `auto` uses the LLM when OPENAI_API_KEY is set, else the offline heuristic analyzer.
    analyzer: Literal["auto", "heuristic", "llm"] = Field("auto", validation_alias="PRHUB_ANALYZER")
    module_map_dir: Path | None = Field(None, validation_alias="PRHUB_MODULE_MAP_DIR")
    openai_api_key: SecretStr | None = Field(None, validation_alias="OPENAI_API_KEY")
    openai_base_url: str = Field("https://api.openai.com/v1", validation_alias="OPENAI_BASE_URL")
    llm_model: str = Field("gpt-4o-mini", validation_alias="PRHUB_LLM_MODEL")
    llm_json_mode: Literal["json_schema", "json_object"] = Field(
        "json_schema", validation_alias="PRHUB_LLM_JSON_MODE"
    )
    llm_timeout: float = Field(60.0, validation_alias="PRHUB_LLM_TIMEOUT", gt=0)
    llm_max_retries: int = Field(3, validation_alias="PRHUB_LLM_MAX_RETRIES", ge=0)
    # Sent as max_tokens; 0 leaves it unset (models that only accept max_completion_tokens).
    llm_max_tokens: int = Field(2048, validation_alias="PRHUB_LLM_MAX_TOKENS", ge=0)
    # Estimated tokens of diff per PR prompt; source hunks get them first, then tests, then docs.
    llm_diff_budget_tokens: int = Field(6000, validation_alias="PRHUB_LLM_DIFF_BUDGET", ge=0)
    llm_concurrency: int = Field(4, validation_alias="PRHUB_LLM_CONCURRENCY", ge=1, le=64)
    # With an LLM configured: let it re-read questions the rules are unsure of, and write a short summary on
    # top of each answer (facts and cited PRs still come only from the index).
    llm_answers: bool = Field(True, validation_alias="PRHUB_LLM_ANSWERS")
    # Show that summary while the LLM writes it, a checked sentence at a time: Slack chat streaming (in
    # threads and the assistant panel), Feishu CardKit streaming cards. Off: the answer appears when done.
    streaming: bool = Field(True, validation_alias="PRHUB_STREAMING")
    # Prices in USD per million tokens, for the cost estimate `prhub analyze` prints.
    llm_price_input: float = Field(0.15, validation_alias="PRHUB_LLM_PRICE_INPUT", ge=0)
    llm_price_output: float = Field(0.60, validation_alias="PRHUB_LLM_PRICE_OUTPUT", ge=0)

    # Subscriptions: who may change them (platform user ids; empty = everyone) and which repos may be
    # subscribed (owner/name; empty = any), comma-separated.
    admins: str = Field("", validation_alias="PRHUB_ADMINS")
    allowed_repos: str = Field("", validation_alias="PRHUB_ALLOWED_REPOS")

    # The bot's HTTP server (`prhub serve`): platform events, report pages, health checks.
    host: str = Field("127.0.0.1", validation_alias="PRHUB_HOST")
    port: int = Field(8080, validation_alias="PRHUB_PORT", ge=0, le=65535)
    # When set, report pages need ?token=… (or `Authorization: Bearer …`).
    reports_token: SecretStr | None = Field(None, validation_alias="PRHUB_REPORTS_TOKEN")
    # When set, /metrics needs it too (`Authorization: Bearer …`); the figures name repos and volumes.
    metrics_token: SecretStr | None = Field(None, validation_alias="PRHUB_METRICS_TOKEN")
    # The secret of the GitHub webhook (pull_request events) at /github/webhook.
    github_webhook_secret: SecretStr | None = Field(None, validation_alias="GITHUB_WEBHOOK_SECRET")

    # Slack adapter.
    slack_bot_token: SecretStr | None = Field(None, validation_alias="SLACK_BOT_TOKEN")
    slack_signing_secret: SecretStr | None = Field(None, validation_alias="SLACK_SIGNING_SECRET")
    slack_app_token: SecretStr | None = Field(None, validation_alias="SLACK_APP_TOKEN")
    slack_api_url: str = Field("https://slack.com/api/", validation_alias="SLACK_API_URL")

    # Slack "Add to Slack" for several workspaces (docs/slack.md): with a client id and secret, prhub serves
    # /slack/install and /slack/oauth_redirect and answers each workspace with the bot token its install
    # gave, kept in the database encrypted with PRHUB_SECRET_KEY (Fernet keys, comma-separated: the first
    # encrypts, all decrypt, so a key is rotated by putting a new one first). SLACK_BOT_TOKEN is then unused.
    slack_client_id: str | None = Field(None, validation_alias="SLACK_CLIENT_ID")
    slack_client_secret: SecretStr | None = Field(None, validation_alias="SLACK_CLIENT_SECRET")
    slack_scopes: str = Field(
        "app_mentions:read,chat:write,commands,im:history,links:read,links:write,channels:history,"
        "groups:history,assistant:write,users:read,channels:read,groups:read",
        validation_alias="SLACK_SCOPES",
    )
    secret_key: SecretStr | None = Field(None, validation_alias="PRHUB_SECRET_KEY")

    # Feishu / Lark adapter. FEISHU_MODE: http (callback at /feishu/events) or ws (long connection).
    feishu_app_id: str | None = Field(None, validation_alias="FEISHU_APP_ID")
    feishu_app_secret: SecretStr | None = Field(None, validation_alias="FEISHU_APP_SECRET")
    feishu_encrypt_key: SecretStr | None = Field(None, validation_alias="FEISHU_ENCRYPT_KEY")
    feishu_verification_token: SecretStr | None = Field(None, validation_alias="FEISHU_VERIFICATION_TOKEN")
    feishu_domain: str = Field("https://open.feishu.cn", validation_alias="FEISHU_DOMAIN")
    feishu_mode: Literal["http", "ws"] = Field("http", validation_alias="FEISHU_MODE")

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown timezone {value!r} (use an IANA name such as Asia/Shanghai)") from exc
        return value

    @field_validator("database_url", "github_api_url")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def admin_ids(self) -> frozenset[str]:
        return frozenset(a.strip() for a in self.admins.split(",") if a.strip())

    @property
    def allowed_repo_names(self) -> frozenset[str]:
        return frozenset(r.strip().lower() for r in self.allowed_repos.split(",") if r.strip())

    @property
    def autofollow_accounts(self) -> frozenset[str]:
        return frozenset(a.strip().lower() for a in self.autofollow.split(",") if a.strip())

    @property
    def github_app_configured(self) -> bool:
        return bool(self.github_app_id and self.github_app_private_key is not None)

    @property
    def github_configured(self) -> bool:
        """Whether prhub can read GitHub: a token, a GitHub App, or both."""
        return self.github_token is not None or self.github_app_configured

    @property
    def slack_oauth_configured(self) -> bool:
        """Whether Slack is installed through "Add to Slack" (several workspaces) rather than one token."""
        return bool(self.slack_client_id and self.slack_client_id.strip())

    @property
    def slack_scope_list(self) -> list[str]:
        return [s.strip() for s in self.slack_scopes.split(",") if s.strip()]

    @property
    def llm_configured(self) -> bool:
        """Whether an LLM key is set (placeholders included: using one then fails loudly)."""
        return bool(self.openai_api_key and self.openai_api_key.get_secret_value().strip())

    def require_github_token(self) -> str:
        """The GitHub token, or ConfigError when it is unset or still a placeholder."""
        return require_secret(
            self.github_token, "GITHUB_TOKEN", "a GitHub token with read access to the repo"
        )

    def require_github_app(self) -> tuple[str, str]:
        """(app id, private key PEM) of the GitHub App. GITHUB_APP_PRIVATE_KEY is the PEM itself (newlines
        may be written `\\n`, as in one-line environment values) or the path of the .pem file."""
        app_id = (self.github_app_id or "").strip()
        if not app_id.isdigit():
            raise ConfigError(
                "GITHUB_APP_ID must be the GitHub App's numeric id (its settings page shows it)"
            )
        value = require_secret(
            self.github_app_private_key, "GITHUB_APP_PRIVATE_KEY", "the app's private key (.pem) or its path"
        )
        if "-----BEGIN" in value:
            pem = value.replace("\\n", "\n")
        else:
            path = Path(value).expanduser()
            try:
                pem = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(
                    f"GITHUB_APP_PRIVATE_KEY: cannot read the key file {path} ({exc.__class__.__name__})"
                ) from exc
        if "PRIVATE KEY-----" not in pem:
            raise ConfigError(
                "GITHUB_APP_PRIVATE_KEY is not a PEM private key (-----BEGIN … PRIVATE KEY-----)"
            )
        return app_id, pem.strip() + "\n"

    def sqlite_path(self) -> Path | None:
        """The database file when the store is a file-backed SQLite database."""
        prefix = "sqlite:///"
        if self.database_url.startswith(prefix) and self.database_url != "sqlite:///:memory:":
            return Path(self.database_url[len(prefix) :].split("?", 1)[0])
        return None


def require_secret(value: SecretStr | None, env: str, what: str) -> str:
    """Return the secret, refusing unset values and placeholders such as `changeme` or `<token>`."""
    secret = value.get_secret_value().strip() if value is not None else ""
    if not secret:
        raise ConfigError(f"{env} is not set: put {what} in the environment or in .env")
    if is_placeholder(secret):
        raise ConfigError(f"{env} still holds a placeholder value: replace it with {what}")
    return secret


def is_placeholder(secret: str) -> bool:
    return bool(_PLACEHOLDER.match(secret.strip()))


def load_settings(**overrides: object) -> Settings:
    """Build the settings once at start-up; a bad value becomes one ConfigError line."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}" for err in exc.errors()
        )
        raise ConfigError(f"invalid settings: {problems}") from exc
