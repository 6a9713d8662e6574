"""Reply → Slack Block Kit messages: mrkdwn sections, headers, context, dividers and buttons, every span
escaped, every Block Kit limit respected by splitting a long reply into a thread or truncating it.

Escaping (Slack mrkdwn has no backslash escape):
- `&`, `<`, `>` become `&amp;`, `&lt;`, `&gt;`, the three characters Slack's formatting guide says to
  escape; this neutralises `<!channel>`, `<!here>`, `<@U123>` and `<http://x|y>`.
- `*`, `_`, `~` and the backtick become look-alike characters (∗ ˍ ∼ ˋ), the replacement jsx-slack uses
  for text it cannot escape otherwise (jsx-slack docs/about-escape-and-exact-mode.md). A zero-width space
  would not do: it is what *enables* formatting next to other text (jsx-slack's "exact mode").
- a bare `@here`, `@channel` or `@everyone` gets a zero-width joiner after the `@`, and every mrkdwn text
  object is `verbatim`, which per the text-object reference skips Slack's automatic parsing of mentions,
  channel names and URLs.
- our own bold/italic/code markers are wrapped in zero-width spaces so they format next to CJK text.
Only http(s) URLs become `<url|label>` links; anything else stays plain text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from chatbot.messages import Language, say
from chatbot.models import (
    Actions,
    Block,
    BulletList,
    Button,
    Context,
    Divider,
    Fields,
    Heading,
    Inline,
    Paragraph,
    Reply,
    Span,
    Table,
    inline_text,
)
from chatbot.reports.markdown import safe_url

MAX_BLOCKS = 50
MAX_BLOCK_TEXT = 12_000  # characters of text across a message's blocks (msg_blocks_too_long past ~13k)
MAX_SECTION_TEXT = 3_000
MAX_FIELDS = 10
MAX_FIELD_TEXT = 2_000
MAX_HEADER_TEXT = 150
MAX_ACTIONS = 25
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2_000
MAX_BUTTON_URL = 3_000
MAX_FALLBACK_TEXT = 4_000
ELLIPSIS = "…"

_MRKDWN = str.maketrans(
    {
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
        "*": "\u2217",
        "_": "\u02cd",
        "~": "\u223c",
        "`": "\u02cb",
        "\r": " ",
        "\n": " ",
    }
)
_BROADCAST = re.compile(r"@(?=(?:here|channel|everyone)\b)", re.IGNORECASE)
_ZWSP = "\u200b"
_STYLE_MARK = {"bold": "*", "italic": "_", "code": "`"}


class SlackMessage(TypedDict):
    """Keyword arguments for `chat.postMessage` (add `channel`, and `thread_ts` for the rest)."""

    text: str
    blocks: list[dict[str, Any]]


def escape(text: str) -> str:
    """Plain text as inert mrkdwn: no formatting, no mention, no link, on one line."""
    return _BROADCAST.sub("@\u200d", text.translate(_MRKDWN))


def _fit(text: str, limit: int, render: Callable[[str], str] = escape) -> str:
    """`render(text)`, or the longest `render(prefix) + …` within `limit` characters.

    Cutting the raw text, not the rendered one, never splits an `&amp;` or a `<url|label>`."""
    rendered = render(text)
    if len(rendered) <= limit:
        return rendered
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if len(render(text[:middle]) + ELLIPSIS) <= limit:
            low = middle
        else:
            high = middle - 1
    return render(text[:low]) + ELLIPSIS


def _span(span: Span) -> str:
    text = escape(span.text)
    mark = _STYLE_MARK.get(span.style)
    core = text.strip()
    if mark and core:
        # Whitespace stays outside the markers (Slack ignores `* x *`); zero-width spaces let the
        # markers work between CJK characters, where Slack wants a word boundary.
        lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
        text = f"{lead}{_ZWSP}{mark}{core}{mark}{_ZWSP}{trail}"
    url = safe_url(span.url)
    return f"<{url.replace('&', '&amp;').replace('|', '%7C')}|{text}>" if url and text else text


def mrkdwn(spans: Inline) -> str:
    text = "".join(_span(s) for s in spans)
    # `&gt;` opening a line still quotes it; a soft hyphen in front keeps the `>` literal.
    return "\u00ad" + text if text.startswith("&gt;") else text


def _fit_inline(spans: Inline, limit: int, prefix: str = "") -> str:
    """The spans as one mrkdwn line within `limit`; too long, they lose their links and are cut."""
    text = prefix + mrkdwn(spans)
    if len(text) <= limit:
        return text
    return _fit(inline_text(spans), limit, lambda t: prefix + escape(t))


def _text(text: str) -> dict[str, Any]:
    return {"type": "mrkdwn", "text": text, "verbatim": True}


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": _text(text)}


def _sections(lines: list[str], head: str = "") -> list[dict[str, Any]]:
    """Lines packed into as few sections as the 3,000-character limit allows; `head` opens each."""
    blocks: list[dict[str, Any]] = []
    current = head
    for line in lines:
        if current != head and len(current) + 1 + len(line) > MAX_SECTION_TEXT:
            blocks.append(_section(current))
            current = head
        current = f"{current}\n{line}" if current else line
    if current:
        blocks.append(_section(current))
    return blocks


def _button(button: Button) -> dict[str, Any] | None:
    """A Block Kit button, or None when Slack would refuse it (a non-http(s) URL, an over-long URL or
    value): a shortened URL or value would point somewhere else, so the button is left out."""
    if not button.label.strip():
        return None
    element: dict[str, Any] = {
        "type": "button",
        "text": {"type": "plain_text", "text": _fit(button.label, MAX_BUTTON_TEXT, str), "emoji": True},
    }
    if button.url is not None:
        url = safe_url(button.url)
        if url is None or len(url) > MAX_BUTTON_URL:
            return None
        element["url"] = url
    if button.action_id is not None:
        if button.value is not None and len(button.value) > MAX_BUTTON_VALUE:
            return None
        element["action_id"] = button.action_id[:255]
        if button.value is not None:
            element["value"] = button.value
    if "url" not in element and "action_id" not in element:
        return None
    if button.primary:
        element["style"] = "primary"
    return element


def _entries(block: Block) -> int:
    """How many pieces a block can be cut into between messages."""
    if isinstance(block, BulletList):
        return len(block.items)
    if isinstance(block, Table):
        return len(block.rows)
    if isinstance(block, Fields):
        return len(block.pairs)
    return 1


def _counted(block: Block, entries: int) -> int:
    """What "and N more" counts: list items, rows, fields and paragraphs; not headings or buttons."""
    return 0 if isinstance(block, Heading | Divider | Actions) else entries


def _render(block: Block, start: int, stop: int) -> list[dict[str, Any]]:
    """Entries `start:stop` of a block as Slack blocks (the whole block for the unsplittable ones).
    Empty text renders to nothing: Slack refuses an empty text object."""
    if isinstance(block, Heading):
        if not block.text.strip():
            return []
        if block.level == 1:
            text = _fit(block.text, MAX_HEADER_TEXT, str)
            return [{"type": "header", "text": {"type": "plain_text", "text": text, "emoji": True}}]
        return [_section(_fit_inline((Span(block.text, "bold"),), MAX_SECTION_TEXT))]
    if isinstance(block, Paragraph | Context):
        if not inline_text(block.spans).strip():
            return []
        text = _fit_inline(block.spans, MAX_SECTION_TEXT)
        return [
            _section(text) if isinstance(block, Paragraph) else {"type": "context", "elements": [_text(text)]}
        ]
    if isinstance(block, BulletList):
        return _sections(
            [
                _fit_inline(item, MAX_SECTION_TEXT, f"{n}. " if block.ordered else "• ")
                for n, item in enumerate(block.items[start:stop], start=start + 1)
            ]
        )
    if isinstance(block, Table):
        head = _fit_inline((Span(" — ".join(block.columns), "italic"),), MAX_SECTION_TEXT // 4)
        separator = (Span(" — "),)
        rows = [
            _fit_inline(
                tuple(span for i, cell in enumerate(row) for span in (separator if i else ()) + cell),
                MAX_SECTION_TEXT - len(head) - 1,
            )
            for row in block.rows[start:stop]
        ]
        return _sections(rows, head)
    if isinstance(block, Fields):
        pairs = block.pairs[start:stop]
        return [
            {
                "type": "section",
                "fields": [
                    _text(_fit_inline(value, MAX_FIELD_TEXT, mrkdwn((Span(key, "bold"),)) + "\n"))
                    for key, value in pairs[i : i + MAX_FIELDS]
                ],
            }
            for i in range(0, len(pairs), MAX_FIELDS)
        ]
    if isinstance(block, Divider):
        return [{"type": "divider"}]
    buttons = [element for b in block.buttons if (element := _button(b)) is not None]
    return [
        {"type": "actions", "elements": buttons[i : i + MAX_ACTIONS]}
        for i in range(0, len(buttons), MAX_ACTIONS)
    ]


def _text_length(value: Any) -> int:
    """Characters of text in a block: every `text` string, however deep (sections, fields, buttons)."""
    if isinstance(value, dict):
        return sum(
            len(v) if k == "text" and isinstance(v, str) else _text_length(v) for k, v in value.items()
        )
    if isinstance(value, list):
        return sum(_text_length(v) for v in value)
    return 0


@dataclass
class _Message:
    blocks: list[dict[str, Any]] = field(default_factory=list)
    headings: list[bool] = field(default_factory=list)  # which blocks are headings, kept with what follows
    text_length: int = 0

    def fits(self, blocks: list[dict[str, Any]], reserve: tuple[int, int] = (0, 0)) -> bool:
        return (
            len(self.blocks) + len(blocks) + reserve[0] <= MAX_BLOCKS
            and self.text_length + _text_length(blocks) + reserve[1] <= MAX_BLOCK_TEXT
        )

    def add(self, blocks: list[dict[str, Any]], heading: bool = False) -> None:
        self.blocks += blocks
        self.headings += [heading] * len(blocks)
        self.text_length += _text_length(blocks)

    def pop_trailing_headings(self) -> list[dict[str, Any]]:
        """The headings that close this message, removed so they can open the next one instead."""
        cut = len(self.blocks)
        while cut > 1 and self.headings[cut - 1]:
            cut -= 1
        moved = self.blocks[cut:]
        del self.blocks[cut:], self.headings[cut:]
        self.text_length -= _text_length(moved)
        return moved


def _more(n: int, url: str | None, language: Language) -> list[dict[str, Any]]:
    if n <= 0:
        return []
    text = escape(say("report.and_more", language, n=n))
    return [{"type": "context", "elements": [_text(f"<{url}|{text}>" if url else text)]}]


def render_blocks(
    reply: Reply, *, language: Language = "zh", max_messages: int | None = None
) -> list[SlackMessage]:
    """The reply as one or more Slack messages; post the first, the rest in its thread.

    `max_messages=None` splits a long document into as many messages as it needs; a card passes 1, and
    whatever does not fit is cut at the last list item, row or paragraph that fits, followed by
    "及其他 N 个 / and N more" linking `reply.more_url`. Never raises on a long or odd reply."""
    more_url = safe_url(reply.more_url)
    messages = _pack(reply, max_messages, None)
    if messages is None:
        # Too long for `max_messages`: pack again with room for the "and N more" line in the last one.
        messages = _pack(reply, max_messages, lambda n: _more(n, more_url, language))
    return _finish(messages or [_Message()], reply)


def _pack(
    reply: Reply, max_messages: int | None, more: Callable[[int], list[dict[str, Any]]] | None
) -> list[_Message] | None:
    """Blocks packed greedily into messages, a heading kept with what follows it.

    Past `max_messages`, returns None without `more`; with it, ends the last message with `more(n)`, n
    being what was left out."""
    # Room for the note, sized for the largest count it could carry.
    note = more(max(1, sum(_counted(b, _entries(b)) for b in reply.blocks))) if more else []
    reserve = (len(note), _text_length(note))
    messages = [_Message()]
    for index, block in enumerate(reply.blocks):
        total, start = _entries(block), 0
        while start < total:
            message = messages[-1]
            last = max_messages is not None and len(messages) >= max_messages
            room = reserve if last else (0, 0)
            stop = total
            rendered = _render(block, start, stop)
            if not message.fits(rendered, room):
                stop = _longest_prefix(block, start, total, lambda b: message.fits(b, room))  # noqa: B023
                rendered = _render(block, start, stop) if stop > start else []
            if stop > start:
                message.add(rendered, heading=isinstance(block, Heading))
                start = stop
                continue
            if last or not message.blocks:
                if more is None:
                    return None
                left_out = _counted(block, total - start) + sum(
                    _counted(b, _entries(b)) for b in reply.blocks[index + 1 :]
                )
                message.add(more(left_out))
                return messages
            following = _Message()
            following.add(message.pop_trailing_headings(), heading=True)
            messages.append(following)
    return messages


def _longest_prefix(
    block: Block, start: int, total: int, fits: Callable[[list[dict[str, Any]]], bool]
) -> int:
    """The largest `stop` in `start..total-1` whose entries `start:stop` fit; `start` when none does."""
    if not isinstance(block, BulletList | Table | Fields):
        return start
    low, high = start, total - 1
    while low < high:
        middle = (low + high + 1) // 2
        if fits(_render(block, start, middle)):
            low = middle
        else:
            high = middle - 1
    return low


def _finish(messages: list[_Message], reply: Reply) -> list[SlackMessage]:
    """Attach the notification fallback: the whole reply on the first message, "title (2/3)" after."""
    kept = [m for m in messages if m.blocks] or [_Message()]
    count = len(kept)
    return [
        SlackMessage(
            text=_fit(reply.plain_text(), MAX_FALLBACK_TEXT, _fallback)
            if i == 0
            else _fit(f"{reply.title} ({i + 1}/{count})".strip(), MAX_FALLBACK_TEXT, _fallback),
            blocks=message.blocks,
        )
        for i, message in enumerate(kept)
    ]


def _fallback(text: str) -> str:
    """Escaping for the top-level `text`, which keeps its line breaks."""
    return "\n".join(escape(line) for line in text.split("\n"))
