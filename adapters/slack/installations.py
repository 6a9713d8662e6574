"""Where "Add to Slack" keeps each workspace's installation: slack_sdk's own SQLAlchemy installation and
OAuth state stores, on prhub's database (tables from migration 0013), with every token encrypted at rest.

Tokens are Fernet-encrypted with PRHUB_SECRET_KEY: a comma-separated list of keys, the first encrypts
and any decrypts (`MultiFernet`), so a key is rotated by putting a new one first, re-encrypting the rows
(`EncryptedInstallationStore.rotate`, `prhub slack rotate-key`), then removing the old one.
"""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import Dialect, Engine, Text, TypeDecorator

from chatbot.config import ConfigError, Settings, require_secret

log = logging.getLogger(__name__)
# The columns of slack_sdk's tables that hold a credential.
TOKEN_COLUMNS = frozenset(
    {"bot_token", "bot_refresh_token", "user_token", "user_refresh_token", "incoming_webhook_url"}
)
STATE_EXPIRATION = 600  # seconds between /slack/install and Slack's redirect back


def token_cipher(settings: Settings) -> MultiFernet:
    """The cipher of PRHUB_SECRET_KEY; ConfigError when it is unset, a placeholder, or not Fernet keys."""
    value = require_secret(
        settings.secret_key,
        "PRHUB_SECRET_KEY",
        "a Fernet key (python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())')",
    )
    keys = [k.strip() for k in value.split(",") if k.strip()]
    try:
        return MultiFernet([Fernet(k) for k in keys])
    except ValueError:
        # the key itself is never echoed
        raise ConfigError(
            "PRHUB_SECRET_KEY must be Fernet keys (32 url-safe base64-encoded bytes each), comma-separated"
        ) from None


class EncryptedText(TypeDecorator[str]):
    """Text stored as a Fernet token: encrypted on the way in, decrypted on the way out."""

    impl = Text
    cache_ok = True

    def __init__(self, cipher: MultiFernet) -> None:
        super().__init__()
        self.cipher = cipher

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        return None if value is None else self.cipher.encrypt(value.encode()).decode("ascii")

    def process_result_value(self, value: str | None, dialect: Dialect) -> str | None:
        if value is None:
            return None
        try:
            return self.cipher.decrypt(value.encode("ascii")).decode()
        except InvalidToken:
            # The key that encrypted it is gone from PRHUB_SECRET_KEY: the workspace must reinstall.
            log.error(
                "slack: a stored token cannot be decrypted with PRHUB_SECRET_KEY (was its key removed?)"
            )
            return None


class EncryptedInstallationStore(SQLAlchemyInstallationStore):
    """slack_sdk's SQLAlchemy installation store, its token columns encrypted."""

    def __init__(self, client_id: str, engine: Engine, cipher: MultiFernet) -> None:
        super().__init__(client_id=client_id, engine=engine)
        self.cipher = cipher
        encrypted = EncryptedText(cipher)
        # slack_sdk builds its tables in classmethods that cannot take the key; the column types are
        # swapped before any statement is compiled, so every read and write goes through the cipher.
        for table in (self.installations, self.bots):
            for column in table.c:
                if column.name in TOKEN_COLUMNS:
                    column.type = encrypted

    def bot_token(self, team_id: str) -> str | None:
        """The bot token of the newest installation in workspace `team_id` (any Enterprise Grid org),
        or None when the app is not installed there."""
        c = self.bots.c
        query = (
            sqlalchemy.select(c.bot_token)
            .where(c.client_id == self.client_id, c.team_id == team_id, c.bot_token.is_not(None))
            .order_by(c.installed_at.desc())
            .limit(1)
        )
        with self.engine.connect() as conn:
            return conn.execute(query).scalar_one_or_none()

    def rotate(self) -> int:
        """Re-encrypt every stored token with the first key of PRHUB_SECRET_KEY; returns the rows
        rewritten. Safe to run twice; run it before removing an old key."""
        rewritten = 0
        with self.engine.begin() as conn:
            for table in (self.installations, self.bots):
                columns = [c for c in table.c if c.name in TOKEN_COLUMNS]
                # Read the raw ciphertexts (a plain Text view of the same columns), rotate each.
                raw = sqlalchemy.select(
                    table.c.id, *[sqlalchemy.type_coerce(c, Text).label(c.name) for c in columns]
                )
                for row in conn.execute(raw).mappings().all():
                    try:
                        values: dict[str, Any] = {
                            c.name: self.cipher.rotate(row[c.name].encode("ascii")).decode("ascii")
                            for c in columns
                            if row[c.name] is not None
                        }
                    except InvalidToken:
                        raise ConfigError(
                            f"a token in {table.name} cannot be decrypted with any key of PRHUB_SECRET_KEY: "
                            "put back the key it was stored with, after the new one"
                        ) from None
                    if values:
                        plain = sqlalchemy.table(
                            table.name, *[sqlalchemy.column(n, Text) for n in values], sqlalchemy.column("id")
                        )
                        conn.execute(plain.update().where(plain.c.id == row["id"]).values(**values))
                        rewritten += 1
        return rewritten


def state_store(engine: Engine) -> SQLAlchemyOAuthStateStore:
    """slack_sdk's OAuth state store on our database: a state is issued by /slack/install and consumed
    (deleted) by the redirect, so it works once, within STATE_EXPIRATION seconds."""
    return SQLAlchemyOAuthStateStore(expiration_seconds=STATE_EXPIRATION, engine=engine)
