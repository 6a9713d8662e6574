"""The app manifest asks Slack for what the adapter handles: its command, events, endpoint and unfurls.
(Read as text: the project has no YAML parser, and the manifest is small and flat.)"""

from __future__ import annotations

import re
from pathlib import Path

import adapters.slack
from adapters.slack.app import COMMAND, EVENTS_PATH

MANIFEST = (Path(adapters.slack.__file__).parent / "manifest.yml").read_text(encoding="utf-8")


def _list(key: str) -> list[str]:
    """The `- item` lines under `key:`, without comments."""
    block = re.search(rf"^(\s*){key}:\n((?:\1\s+- .*\n)+)", MANIFEST, re.MULTILINE)
    assert block, f"{key} is missing"
    return [line.split("#")[0].strip()[2:].strip() for line in block.group(2).splitlines()]


def test_the_manifest_subscribes_to_the_events_the_adapter_answers():
    assert _list("bot_events") == [
        "app_mention",
        "message.im",
        "link_shared",
        "assistant_thread_started",
        "assistant_thread_context_changed",
        "app_home_opened",
    ]
    assert "\n    home_tab_enabled: true" in MANIFEST
    assert re.search(r"^  assistant_view:.*\n    assistant_description: \S", MANIFEST, re.MULTILINE)
    assert _list("unfurl_domains") == ["github.com"]
    assert f"- command: {COMMAND}\n" in MANIFEST


def test_the_manifest_grants_the_scopes_those_events_and_calls_need():
    assert set(_list("bot")) == {
        "app_mentions:read",
        "chat:write",
        "channels:history",  # settling a push left in doubt (SlackPushSender.find_sent)
        "groups:history",
        "commands",
        "im:history",
        "links:read",
        "links:write",
        "assistant:write",  # the assistant panel (adapters/slack/assistant.py)
        "users:read",  # its greeting in the user's language
        "channels:read",  # the Home tab: the channels you are in (adapters/slack/home.py)
        "groups:read",
    }


def test_every_request_url_is_the_one_events_endpoint():
    urls = re.findall(r"^\s*(?:url|request_url): (\S+)$", MANIFEST, re.MULTILINE)
    assert len(urls) == 3
    assert all(url == f"https://HOST{EVENTS_PATH}" for url in urls)
