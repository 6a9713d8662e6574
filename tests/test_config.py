"""Settings: defaults, the environment, `.env`, bad values and placeholder secrets."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from chatbot.config import ConfigError, Settings, is_placeholder, load_settings, require_secret


def test_defaults_are_the_embedded_ones(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for name in ("PRHUB_DATABASE_URL", "PRHUB_TIMEZONE", "PRHUB_LANGUAGE", "GITHUB_TOKEN", "GITHUB_API_URL"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    assert settings.database_url == "sqlite:///data/prhub.db"
    assert settings.sqlite_path() == Path("data/prhub.db")
    assert (settings.timezone, settings.language) == ("Asia/Shanghai", "zh")
    assert settings.github_api_url == "https://api.github.com"
    assert settings.github_token is None


def test_dotenv_is_read_and_the_environment_wins(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("PRHUB_LANGUAGE=en\nGITHUB_API_URL=http://dotenv.example\n")
    monkeypatch.setenv("GITHUB_API_URL", "http://env.example")
    monkeypatch.delenv("PRHUB_LANGUAGE", raising=False)
    settings = load_settings()
    assert settings.language == "en"
    assert settings.github_api_url == "http://env.example"


def test_a_bad_value_is_one_readable_error(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PRHUB_TIMEZONE", "Mars/Olympus")
    with pytest.raises(ConfigError, match="unknown timezone 'Mars/Olympus'"):
        load_settings()


def test_secrets_never_show_in_the_repr():
    settings = Settings(_env_file=None, github_token="ghp_realLookingSecret123")
    assert "ghp_realLookingSecret123" not in repr(settings)
    assert "ghp_realLookingSecret123" not in str(settings.model_dump())


@pytest.mark.parametrize(
    "value", ["changeme", "CHANGEME", "<token>", "your-token-here", "xxxx", "xoxb-xxxx", "..."]
)
def test_placeholders_are_refused(value):
    assert is_placeholder(value)
    with pytest.raises(ConfigError, match="placeholder"):
        require_secret(SecretStr(value), "X_TOKEN", "a token")


def test_real_looking_secrets_pass():
    assert require_secret(SecretStr(" ghp_abc123DEF456 "), "X", "a token") == "ghp_abc123DEF456"


def test_env_example_lists_every_setting_and_nothing_else():
    example = Path(__file__).resolve().parents[1] / ".env.example"
    keys = {
        line.split("=", 1)[0].strip()
        for line in example.read_text(encoding="utf-8").splitlines()
        if "=" in line and not line.lstrip().startswith("#")
    }
    assert keys == {str(field.validation_alias) for field in Settings.model_fields.values()}


def test_env_example_loads_as_valid_settings(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    example = Path(__file__).resolve().parents[1] / ".env.example"
    (tmp_path / ".env").write_text(example.read_text(encoding="utf-8"), encoding="utf-8")
    settings = load_settings()
    assert settings.analyzer == "auto" and not settings.llm_configured
    assert settings.module_map_dir is None and settings.public_url is None and settings.github_token is None
