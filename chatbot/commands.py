"""Chat commands shared by every platform: subscribe, unsubscribe, list subscriptions.

(Reports and help are questions like any other and go through question answering.)
Syntax, Chinese or English, options in any order:
    订阅 verl-project/verl [周一 09:30] [tz=Europe/Berlin] [lang=en] [modules=megatron,fsdp]
         [min-importance=6] [exclude-authors=dependabot[bot]]
    subscribe verl-project/verl [mon 09:30] …
    取消订阅 verl / unsubscribe verl
    订阅列表 / subscriptions
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from chatbot.subscriptions.schedule import WEEKDAY_WORDS

CommandKind = Literal["subscribe", "unsubscribe", "list"]

_LIST = re.compile(
    r"^(?:订阅列表|我的订阅|查看订阅|subscriptions|list subscriptions|subscription list)$", re.I
)
_UNSUBSCRIBE = re.compile(r"^(?:取消订阅|退订|unsubscribe)\s*(?P<rest>.*)$", re.I)
_SUBSCRIBE = re.compile(r"^(?:订阅|subscribe)\s*(?P<rest>.*)$", re.I)
_OPTION = re.compile(
    r"^(?P<key>tz|timezone|lang|language|modules|min-importance|min_importance|exclude-authors|"
    r"exclude_authors|weekday|time)\s*[=:]\s*(?P<value>\S+)$",
    re.I,
)
_TIME = re.compile(r"^\d{1,2}(?::\d{2})?$")


@dataclass(frozen=True, slots=True)
class Command:
    kind: CommandKind
    repo: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    problems: tuple[str, ...] = ()  # words the parser could not place (answered, not ignored)


def parse_command(text: str) -> Command | None:
    """The command in `text`, or None when it is a question. Mentions must already be stripped."""
    norm = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()
    norm = norm.rstrip("。.!！")
    if _LIST.match(norm):
        return Command("list")
    match = _UNSUBSCRIBE.match(norm)
    kind: CommandKind = "unsubscribe"
    if match is None:
        match = _SUBSCRIBE.match(norm)
        kind = "subscribe"
    if match is None:
        return None
    words = match.group("rest").split()
    if not words:
        return Command(kind)
    repo, options, problems = words[0].lower(), {}, []
    for word in words[1:]:
        option = _OPTION.match(word)
        if option:
            key = option.group("key").lower().replace("_", "-")
            options[{"timezone": "tz", "language": "lang"}.get(key, key)] = option.group("value")
        elif word.lower().removeprefix("每") in WEEKDAY_WORDS:
            options["weekday"] = word.lower().removeprefix("每")
        elif _TIME.match(word):
            options["time"] = word
        else:
            problems.append(word)
    return Command(kind, repo, options, tuple(problems))
