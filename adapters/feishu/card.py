"""Reply → Feishu card JSON 2.0 (and a plain `text` message fallback), every span escaped, within the
card limits of 200 components and 30 KB, truncating with "及其他 N 个 / and N more" past them.

Escaping follows the rich-text (markdown) component reference, "特殊字符转义说明": a character that
markdown or the card's HTML-like tags (`<at>`, `<font>`, `<link>`…) would read must be written as an HTML
numeric entity `&#NN;`. Every such character in a span becomes one, so `<at id=all></at>` shows as text
and `[x](javascript:…)` is no link. Inside a code span entities are not decoded (CommonMark), so text
with `<`, `>`, `&` or a backtick is shown without the code style instead. Only http(s) URLs become links
or buttons.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from lark_oapi.event.callback.model.p2_card_action_trigger import P2CardActionTriggerResponse

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

MAX_COMPONENTS = 200
MAX_CARD_BYTES = 30_000  # below 30 KiB, whichever way "30 KB" is read
MAX_TABLES = 5  # table components per card; further tables become markdown lines
MAX_TABLE_PAGE = 10
MAX_BUTTON_TEXT = 100
MAX_TITLE = 200  # not a documented limit: keeps a runaway title from eating the card's budget
MAX_TEXT_BYTES = 150_000  # a `text` message body
ELLIPSIS = "…"

_ENTITIES = str.maketrans({c: f"&#{ord(c)};" for c in "&<>*_~`[]()#\\|$!-+:"} | {"\r": " ", "\n": " "})
# Digits and a dot opening a line start an ordered list; every other block marker is escaped already.
_LIST_START = re.compile(r"^(\s*\d{1,9})\.(?=\s|$)")
_CODE_UNSAFE = re.compile(r"[<>&`\r\n]")
_STYLE_MARK = {"bold": "**", "italic": "*"}

Element = dict[str, Any]


def escape(text: str) -> str:
    """Plain text as inert card markdown: every markdown and tag character as a numeric entity."""
    return text.translate(_ENTITIES)


def _span(span: Span) -> str:
    text = escape(span.text)
    core = text.strip()
    if span.style == "code" and span.text and not _CODE_UNSAFE.search(span.text):
        text = f"`{span.text}`"
    elif span.style in _STYLE_MARK and core:
        # Emphasis needs a word boundary (CommonMark flanking rules, and the component docs ask for a
        # space around bold): surrounding whitespace stays outside, and spaces are added below.
        mark = _STYLE_MARK[span.style]
        lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
        text = f"{lead or ' '}{mark}{core}{mark}{trail or ' '}"
    url = safe_url(span.url)
    return f"[{text}]({url})" if url and text.strip() else text


def markdown(spans: Inline) -> str:
    text = "".join(_span(s) for s in spans).strip(" ")
    return _LIST_START.sub(r"\1&#46;", text)


def _markdown(content: str, size: str | None = None) -> Element:
    element: Element = {"tag": "markdown", "content": content}
    if size:
        element["text_size"] = size
    return element


def _button(button: Button) -> Element | None:
    """A card button, or None for a non-http(s) URL or a button that does nothing."""
    url = safe_url(button.url)
    if url:
        behavior: dict[str, Any] = {"type": "open_url", "default_url": url}
    elif button.url is None and button.action_id:
        # Callback values must be objects (the SDKs reject strings).
        value = {"action": button.action_id} | ({} if button.value is None else {"value": button.value})
        behavior = {"type": "callback", "value": value}
    else:
        return None
    label = (
        button.label
        if len(button.label) <= MAX_BUTTON_TEXT
        else button.label[: MAX_BUTTON_TEXT - 1] + ELLIPSIS
    )
    return {
        "tag": "button",
        "text": {"tag": "plain_text", "content": label},
        "type": "primary_filled" if button.primary else "default",
        "behaviors": [behavior],
    }


def _buttons(buttons: tuple[Button, ...]) -> list[Element]:
    elements = [e for b in buttons if (e := _button(b)) is not None]
    if len(elements) <= 1:
        return elements
    # Buttons side by side, wrapping on narrow screens.
    return [
        {
            "tag": "column_set",
            "flex_mode": "flow",
            "columns": [{"tag": "column", "elements": [e]} for e in elements],
        }
    ]


def _table(block: Table, start: int, stop: int) -> Element:
    rows = block.rows[start:stop]
    return {
        "tag": "table",
        "page_size": max(1, min(len(rows), MAX_TABLE_PAGE)),
        "row_height": "auto",
        "columns": [
            {"name": f"c{i}", "display_name": name, "data_type": "markdown"}
            for i, name in enumerate(block.columns)
        ],
        "rows": [{f"c{i}": markdown(cell) for i, cell in enumerate(row)} for row in rows],
    }


def _table_lines(block: Table, start: int, stop: int) -> Element:
    head = markdown((Span(" — ".join(block.columns), "italic"),))
    rows = [
        markdown(tuple(s for i, c in enumerate(r) for s in ((Span(" — "),) if i else ()) + c))
        for r in block.rows[start:stop]
    ]
    return _markdown("\n".join([head, *rows]))


def _entries(block: Block) -> int:
    """How many pieces a block can be cut into when the card overflows."""
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


def _render(block: Block, start: int, stop: int, table_component: bool) -> list[Element]:
    """Entries `start:stop` of a block as card elements; empty text renders to nothing."""
    if isinstance(block, Heading):
        if not block.text.strip():
            return []
        return [_markdown(markdown((Span(block.text, "bold"),)), "heading" if block.level <= 2 else None)]
    if isinstance(block, Paragraph | Context):
        if not inline_text(block.spans).strip():
            return []
        return [_markdown(markdown(block.spans), "notation" if isinstance(block, Context) else None)]
    if isinstance(block, BulletList):
        return [
            _markdown(
                "\n".join(
                    f"{f'{n}.' if block.ordered else '-'} {markdown(item)}"
                    for n, item in enumerate(block.items[start:stop], start=start + 1)
                )
            )
        ]
    if isinstance(block, Table):
        return [_table(block, start, stop) if table_component else _table_lines(block, start, stop)]
    if isinstance(block, Fields):
        return [
            _markdown(
                "\n".join(
                    f"{markdown((Span(key, 'bold'),))}: {markdown(value)}"
                    for key, value in block.pairs[start:stop]
                )
            )
        ]
    if isinstance(block, Divider):
        return [{"tag": "hr"}]
    return _buttons(block.buttons)


def _components(value: Any) -> int:
    """Components and elements (anything with a `tag`, like a button's plain_text) in a JSON value."""
    if isinstance(value, dict):
        return ("tag" in value) + sum(_components(v) for v in value.values())
    if isinstance(value, list):
        return sum(_components(v) for v in value)
    return 0


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())


def _shell(title: str) -> dict[str, Any]:
    card: dict[str, Any] = {"schema": "2.0", "config": {"update_multi": True}}
    if title:
        title = title if len(title) <= MAX_TITLE else title[: MAX_TITLE - 1] + ELLIPSIS
        # `summary` is the preview in the chat list; without it the client shows a generic one.
        card["config"]["summary"] = {"content": title}
        card["header"] = {"title": {"tag": "plain_text", "content": title}, "template": "blue"}
    card["body"] = {"elements": []}
    return card


def render_card(reply: Reply, *, language: Language = "zh") -> dict[str, Any]:
    """The reply as a card JSON 2.0 dict (send `json.dumps(card, ensure_ascii=False)` as `content`).

    A leading level-1 heading becomes the card header. Past 200 components or 30 KB the card ends at the
    last list item, row or paragraph that fits, followed by "及其他 N 个 / and N more" linking
    `reply.more_url`. Never raises on a long or odd reply."""
    blocks = reply.blocks
    title = ""
    if blocks and isinstance(blocks[0], Heading) and blocks[0].level == 1:
        title, blocks = blocks[0].text, blocks[1:]
    card = _shell(title)
    elements: list[Element] = card["body"]["elements"]
    more_url = safe_url(reply.more_url)
    # What "and N more" would count after each block: list items, rows, fields, paragraphs.
    after = [0] * len(blocks)
    for i in range(len(blocks) - 1, 0, -1):
        after[i - 1] = after[i] + _counted(blocks[i], _entries(blocks[i]))
    # The size of the card is tracked incrementally: the shell, plus each element and its ", ".
    used = [_components(card) + ("header" in card), _size(card)]
    # Room for the note, sized for the largest count it could carry.
    note = _more(max(1, sum(_counted(b, _entries(b)) for b in blocks)), more_url, language)
    reserve = (_components(note), _size(note) + 2)
    tables = 0

    def fits(rendered: list[Element], room: tuple[int, int]) -> bool:
        return (
            used[0] + _components(rendered) + room[0] <= MAX_COMPONENTS
            and used[1] + sum(_size(e) + 2 for e in rendered) + room[1] <= MAX_CARD_BYTES
        )

    def add(rendered: list[Element]) -> None:
        elements.extend(rendered)
        used[0] += _components(rendered)
        used[1] += sum(_size(e) + 2 for e in rendered)

    for index, block in enumerate(blocks):
        table_component = isinstance(block, Table) and bool(block.columns) and tables < MAX_TABLES
        if table_component:
            tables += 1
        total = _entries(block)
        if total == 0:
            continue
        rendered = _render(block, 0, total, table_component)
        # Room for the note is kept only while something after this block could still be cut.
        if fits(rendered, reserve if after[index] else (0, 0)):
            add(rendered)
            continue
        stop = _longest_prefix(block, total, lambda b: fits(b, reserve), table_component)
        if stop:
            add(_render(block, 0, stop, table_component))
        add(_more(_counted(block, total - stop) + after[index], more_url, language))
        break
    return card


def _longest_prefix(
    block: Block, total: int, fits: Callable[[list[Element]], bool], table_component: bool
) -> int:
    """The largest `stop` below `total` whose entries `:stop` fit; 0 when none does."""
    if not isinstance(block, BulletList | Table | Fields):
        return 0
    low, high = 0, total - 1
    while low < high:
        middle = (low + high + 1) // 2
        if fits(_render(block, 0, middle, table_component)):
            low = middle
        else:
            high = middle - 1
    return low


def _more(n: int, url: str | None, language: Language) -> list[Element]:
    if n <= 0:
        return []
    text = escape(say("report.and_more", language, n=n))
    return [_markdown(f"[{text}]({url})" if url else text, "notation")]


def render_text(reply: Reply) -> str:
    """The reply as the body of a Feishu `text` message, for clients or chats that cannot take a card.

    A text message reads `<at user_id="all">`, `<b>`-style tags and `[label](url)` links and has no
    escape, so a zero-width space after each `<` and between `]` and `(` keeps them as text."""
    text = reply.plain_text().replace("<", "<\u200b").replace("](", "]\u200b(")
    encoded = text.encode()
    if len(encoded) <= MAX_TEXT_BYTES:
        return text
    return encoded[: MAX_TEXT_BYTES - len(ELLIPSIS.encode())].decode(errors="ignore") + ELLIPSIS


def thinking_card(language: Language) -> dict[str, Any]:
    """The small card a question gets at once, patched into the answer card when it is ready (shared
    with `update_multi`, as every card patched later must be)."""
    card = _shell("")
    card["config"]["summary"] = {"content": say("progress.thinking", language)}
    card["body"]["elements"].append(
        {"tag": "markdown", "content": escape(say("progress.thinking", language))}
    )
    return card


def toast_saying(kind: str, key: str, language: Language) -> P2CardActionTriggerResponse:
    """A card callback's toast (`kind`: success, info, warning, error) saying message `key` in
    `language`, with both languages for Feishu to show the reader's own (`i18n`)."""
    return P2CardActionTriggerResponse(
        {
            "toast": {
                "type": kind,
                "content": say(key, language),
                "i18n": {"zh_cn": say(key, "zh"), "en_us": say(key, "en")},
            }
        }
    )
