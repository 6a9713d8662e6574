"""Reply → Slack Block Kit messages: rich-text blocks, headers, context, dividers and buttons, every
Block Kit limit respected by splitting a long reply into a thread or truncating it.

Text from PRs is shown exactly as written, and can never format, mention or link:
- Paragraphs, lists, headings below the title and table rows are `rich_text` blocks, which Slack's
  reference recommends for user-defined text: each span is a `text` element whose formatting is an
  explicit style object, so nothing in it is parsed (`*bold*`, `<!channel>`, `@here` and
  `get_named_tensor_buckets` stay those characters, byte for byte; code spans carry `code` style).
  Links are `link` elements, for http(s) URLs only.
- mrkdwn is used only where Block Kit allows nothing else (context lines, section fields, the "and N
  more" note) and only for text it cannot misread: `&`, `<` and `>` escaped as Slack's formatting guide
  says, no `*`, `_`, `~` or backtick anywhere, no `>` opening it, and `verbatim` so that no bare
  mention or URL is parsed. Anything else falls back to `plain_text` or to a rich-text block.
- The notification `text` is escaped the same way (it is shown without formatting).
- Streamed text (chat.appendStream's `markdown_text`, shown while an answer is written and replaced
  by the final blocks) is escaped for markdown: entities for `&`, `<`, `>` and a backslash before
  every character markdown would read, so it shows as written and can neither mention nor link.
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
from chatbot.team.feedback import FEEDBACK_ACTION, is_feedback

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

_MRKDWN = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": " ", "\n": " "})
# What mrkdwn could read as formatting, a quote or a code span: text with it goes to rich text instead.
_MARKUP = re.compile(r"[*_~`]|^\s*>")
_MARKDOWN = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": ""} | {c: "\\" + c for c in "\\`*_~[]()#|!+-=.{}"}
)
_RICH_STYLE: dict[str, dict[str, bool]] = {
    "bold": {"bold": True},
    "italic": {"italic": True},
    "code": {"code": True},
}


class SlackMessage(TypedDict):
    """Keyword arguments for `chat.postMessage` (add `channel`, and `thread_ts` for the rest)."""

    text: str
    blocks: list[dict[str, Any]]


def escape(text: str) -> str:
    """Text for mrkdwn as Slack documents it: `&`, `<` and `>` as entities, on one line. Neutralises
    `<!channel>`, `<@U123>` and `<http://x|y>`; formatting characters are the caller's concern."""
    return text.translate(_MRKDWN)


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


def _mrkdwn_span(span: Span) -> str:
    text = escape(span.text)
    url = safe_url(span.url)
    return f"<{url.replace('&', '&amp;').replace('|', '%7C')}|{text}>" if url and text else text


def faithful_mrkdwn(spans: Inline) -> str | None:
    """The spans as mrkdwn when Slack would show exactly their text (plain style, no formatting
    character, links only to http(s)); None when only rich text can show them faithfully."""
    if any(span.style != "plain" or _MARKUP.search(span.text) for span in spans):
        return None
    return "".join(_mrkdwn_span(s) for s in spans)


def _text(text: str) -> dict[str, Any]:
    return {"type": "mrkdwn", "text": text, "verbatim": True}


def _rich_element(span: Span, text: str) -> dict[str, Any]:
    element: dict[str, Any] = {"type": "text", "text": text}
    url = safe_url(span.url)
    if url:
        element = {"type": "link", "url": url, "text": text}
    if span.style in _RICH_STYLE:
        element["style"] = dict(_RICH_STYLE[span.style])
    return element


def _rich_elements(spans: Inline, limit: int = MAX_SECTION_TEXT) -> list[dict[str, Any]]:
    """Spans as rich-text elements, one line, at most `limit` characters of text (cut with … past it)."""
    elements: list[dict[str, Any]] = []
    room = limit
    for span in spans:
        text = span.text.replace("\r", " ").replace("\n", " ")
        if not text:
            continue
        if len(text) > room:
            text = text[: max(0, room - len(ELLIPSIS))] + ELLIPSIS
        element = _rich_element(span, text)
        previous = elements[-1] if elements else {}
        if element["type"] == previous.get("type") == "text" and element.get("style") == previous.get(
            "style"
        ):
            previous["text"] += text  # one element per run of the same style
        else:
            elements.append(element)
        room -= len(text)
        if room <= 0:
            break
    return elements


def _rich_section(spans: Inline, limit: int = MAX_SECTION_TEXT) -> dict[str, Any]:
    return {"type": "rich_text_section", "elements": _rich_elements(spans, limit)}


def _rich(*elements: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rich_text", "elements": list(elements)}


def _rich_blocks(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sections packed into as few rich-text blocks as `MAX_SECTION_TEXT` characters each allow."""
    blocks: list[dict[str, Any]] = []
    current: list[dict[str, Any]] = []
    size = 0
    for section in sections:
        length = _text_length(section)
        if current and size + length > MAX_SECTION_TEXT:
            blocks.append(_rich(*current))
            current, size = [], 0
        current.append(section)
        size += length
    if current:
        blocks.append(_rich(*current))
    return blocks


def _row(block: Table, row: tuple[Inline, ...], last: bool) -> dict[str, Any]:
    """A table row as a small card: the lead cells in bold on the first line, the other non-empty cells
    labelled with their column on the next, and a blank line after it unless it is the last."""
    first = tuple(
        Span(s.text, "bold" if s.style == "plain" else s.style, s.url)
        for i, cell in enumerate(row[: block.lead])
        for s in ((Span(" "),) if i else ()) + cell
    )
    rest: list[Span] = []
    for column, cell in zip(block.columns[block.lead :], row[block.lead :], strict=False):
        if inline_text(cell).strip():
            rest += [*((Span(" · "),) if rest else ()), Span(f"{column}: ", "italic"), *cell]
    elements = _rich_elements(first, MAX_SECTION_TEXT // 2)
    if rest:
        elements += [{"type": "text", "text": "\n"}, *_rich_elements(tuple(rest), MAX_SECTION_TEXT // 2)]
    if not last:
        elements.append({"type": "text", "text": "\n"})
    return {"type": "rich_text_section", "elements": elements}


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


def _feedback_buttons(block: Actions) -> list[dict[str, Any]]:
    """The 👍 / 👎 pair as Slack's own feedback buttons (a `context_actions` block, documented for AI
    apps): one element whose click carries the pressed button's value."""
    up, down = block.buttons
    if any(b.value is None or len(b.value) > MAX_BUTTON_VALUE for b in (up, down)):
        return []

    def side(button: Button) -> dict[str, Any]:
        text = {"type": "plain_text", "text": _fit(button.label, MAX_BUTTON_TEXT, str), "emoji": True}
        return {"text": text, "value": button.value, "accessibility_label": button.label[:75]}

    element = {
        "type": "feedback_buttons",
        "action_id": FEEDBACK_ACTION,
        "positive_button": side(up),
        "negative_button": side(down),
    }
    return [{"type": "context_actions", "elements": [element]}]


def _render(block: Block, start: int, stop: int, native_feedback: bool = False) -> list[dict[str, Any]]:
    """Entries `start:stop` of a block as Slack blocks (the whole block for the unsplittable ones).
    Empty text renders to nothing: Slack refuses an empty text object. The 👍 / 👎 pair is Slack's
    feedback buttons with `native_feedback`, plain buttons without."""
    if isinstance(block, Heading):
        if not block.text.strip():
            return []
        if block.level == 1:
            text = _fit(block.text, MAX_HEADER_TEXT, str)
            return [{"type": "header", "text": {"type": "plain_text", "text": text, "emoji": True}}]
        return [_rich(_rich_section((Span(block.text, "bold"),)))]
    if isinstance(block, Paragraph):
        return [_rich(_rich_section(block.spans))] if inline_text(block.spans).strip() else []
    if isinstance(block, Context):
        return _context(block.spans)
    if isinstance(block, BulletList):
        items = [_rich_section(item) for item in block.items[start:stop]]
        return [
            _rich(
                {
                    "type": "rich_text_list",
                    "style": "ordered" if block.ordered else "bullet",
                    "elements": chunk["elements"],
                    **({"offset": start + done} if block.ordered and start + done else {}),
                }
            )
            for chunk, done in _counted_chunks(items)
        ]
    if isinstance(block, Table):
        rows = block.rows[start:stop]
        return _rich_blocks([_row(block, row, i == len(rows) - 1) for i, row in enumerate(rows)])
    if isinstance(block, Fields):
        return _fields(block.pairs[start:stop])
    if isinstance(block, Divider):
        return [{"type": "divider"}]
    if native_feedback and is_feedback(block):
        return _feedback_buttons(block)
    buttons = [element for b in block.buttons if (element := _button(b)) is not None]
    return [
        {"type": "actions", "elements": buttons[i : i + MAX_ACTIONS]}
        for i in range(0, len(buttons), MAX_ACTIONS)
    ]


def _counted_chunks(sections: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    """List items packed into rich-text blocks, each with how many items came before it."""
    chunks, done = [], 0
    for chunk in _rich_blocks(sections):
        chunks.append((chunk, done))
        done += len(chunk["elements"])
    return chunks


def _context(spans: Inline) -> list[dict[str, Any]]:
    """A muted line: plain_text when it is only text, mrkdwn when that shows it faithfully (links), or
    else a rich-text block (styles, or characters mrkdwn would format)."""
    if not inline_text(spans).strip():
        return []
    if all(s.style == "plain" and not safe_url(s.url) for s in spans):
        text = _fit(inline_text(spans).replace("\r", " ").replace("\n", " "), MAX_SECTION_TEXT, str)
        return [{"type": "context", "elements": [{"type": "plain_text", "text": text, "emoji": False}]}]
    text = faithful_mrkdwn(spans)
    if text is not None and len(text) <= MAX_SECTION_TEXT:
        return [{"type": "context", "elements": [_text(text)]}]
    return [_rich(_rich_section(spans))]


def _fields(pairs: tuple[tuple[str, Inline], ...]) -> list[dict[str, Any]]:
    """Key/value pairs side by side (section fields, bold keys) when mrkdwn shows every value
    faithfully; else one rich-text line per pair."""
    texts = [(faithful_mrkdwn((Span(key),)), faithful_mrkdwn(value)) for key, value in pairs]
    if all(k is not None and v is not None for k, v in texts):
        fields = [_text(_fit(f"*{k}*\n{v}", MAX_FIELD_TEXT, str)) for k, v in texts]
        return [
            {"type": "section", "fields": fields[i : i + MAX_FIELDS]}
            for i in range(0, len(fields), MAX_FIELDS)
        ]
    return _rich_blocks([_rich_section((Span(f"{key}: ", "bold"), *value)) for key, value in pairs])


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
    text = escape(say("report.and_more", language, n=n))  # our own words: nothing mrkdwn would format
    return [{"type": "context", "elements": [_text(f"<{url}|{text}>" if url else text)]}]


def render_blocks(
    reply: Reply, *, language: Language = "zh", max_messages: int | None = None, native_feedback: bool = True
) -> list[SlackMessage]:
    """The reply as one or more Slack messages; post the first, the rest in its thread.

    `max_messages=None` splits a long document into as many messages as it needs; a card passes 1, and
    whatever does not fit is cut at the last list item, row or paragraph that fits, followed by
    "及其他 N 个 / and N more" linking `reply.more_url`. Never raises on a long or odd reply.
    `native_feedback` False renders an answer's 👍 / 👎 as plain buttons (where Slack refuses its own)."""
    more_url = safe_url(reply.more_url)
    body, tail = _split_tail(reply.blocks) if max_messages is not None else (reply.blocks, ())
    # The closing buttons (links, 👍 / 👎) of a reply cut to `max_messages` always stay: content is cut.
    closing = [b for block in tail for b in _render(block, 0, _entries(block), native_feedback)]
    messages = _pack(body, max_messages, None, native_feedback, closing)
    if messages is None:
        # Too long for `max_messages`: pack again with room for the "and N more" line in the last one.

        def more(n: int) -> list[dict[str, Any]]:
            return _more(n, more_url, language)

        messages = _pack(body, max_messages, more, native_feedback, closing)
    messages = messages or [_Message()]
    messages[-1].add(closing)
    return _finish(messages, reply)


def _split_tail(blocks: tuple[Block, ...]) -> tuple[tuple[Block, ...], tuple[Block, ...]]:
    """The blocks before the reply's closing run of buttons, and that run."""
    cut = len(blocks)
    while cut > 0 and isinstance(blocks[cut - 1], Actions):
        cut -= 1
    return blocks[:cut], blocks[cut:]


def _pack(
    blocks: tuple[Block, ...],
    max_messages: int | None,
    more: Callable[[int], list[dict[str, Any]]] | None,
    native_feedback: bool,
    closing: list[dict[str, Any]],
) -> list[_Message] | None:
    """Blocks packed greedily into messages, a heading kept with what follows it, with room for the
    `closing` blocks in the last message.

    Past `max_messages`, returns None without `more`; with it, ends the last message with `more(n)`, n
    being what was left out."""
    # Room for the note, sized for the largest count it could carry, and for the closing buttons.
    note = more(max(1, sum(_counted(b, _entries(b)) for b in blocks))) if more else []
    reserve = (len(note) + len(closing), _text_length(note) + _text_length(closing))
    messages = [_Message()]
    for index, block in enumerate(blocks):
        total, start = _entries(block), 0
        while start < total:
            message = messages[-1]
            last = max_messages is not None and len(messages) >= max_messages
            room = reserve if last else (0, 0)
            stop = total
            rendered = _render(block, start, stop, native_feedback)
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
                    _counted(b, _entries(b)) for b in blocks[index + 1 :]
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


def stream_markdown(text: str) -> str:
    """Text for chat streaming's `markdown_text`: shown as written, inert (no mention, link or format)."""
    return text.translate(_MARKDOWN)


def thinking_message(language: Language) -> SlackMessage:
    """The small message a question gets at once, updated into the answer with `chat.update`."""
    text = say("progress.thinking", language)
    return SlackMessage(
        text=text, blocks=[{"type": "context", "elements": [{"type": "mrkdwn", "text": text}]}]
    )
