"""Reply → the terminal, with rich. Every span becomes a `rich.text.Text`, so no markup is ever parsed
from it; control characters (escape sequences, bidi overrides) are replaced before they reach the
terminal; only http(s) URLs become links.

On a terminal a link is an OSC-8 hyperlink on its label and tables are drawn to the terminal's width.
Anywhere else (a pipe, a file, a CI log) nothing is wrapped by us (a log viewer wraps long lines
itself, and a hard break inside an identifier or a command would corrupt it), tables become one small
card per row, and each URL is printed once, in a list closing the reply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rich import box
from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text

from chatbot.models import (
    Actions,
    Block,
    BulletList,
    Context,
    Divider,
    Fields,
    Heading,
    Inline,
    Paragraph,
    Reply,
    Table,
    inline_text,
    link,
)
from chatbot.reports.markdown import safe_url

# C0 and C1 controls (ESC starts colour, cursor and OSC-8 sequences) and the bidi overrides that can
# make a PR title display differently from what it is. Line breaks inside a span become spaces.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_HEADING_STYLE = {1: "bold cyan", 2: "bold", 3: "bold italic"}
_SPAN_STYLE = {"plain": "", "bold": "bold", "italic": "italic", "code": "bold magenta"}


def sanitize(text: str) -> str:
    """Text safe to print: no control characters, one line."""
    return _UNSAFE.sub(lambda m: " " if m.group() in "\r\n\t" else "\ufffd", text)


@dataclass
class _Links:
    """How links print: hyperlinks only (a terminal), or labels now and `urls` listed at the end."""

    hyperlinks: bool
    urls: dict[str, str] = field(default_factory=dict)  # url → the first label it had

    def note(self, label: str, url: str) -> None:
        if not self.hyperlinks:
            self.urls.setdefault(url, label)


def inline(spans: Inline, links: _Links | None = None) -> Text:
    """Spans as styled text; a link is its label, hyperlinked, its URL noted in `links`."""
    text = Text()
    for span in spans:
        style = Style.parse(_SPAN_STYLE[span.style])
        url = safe_url(span.url)
        if url:
            text.append(sanitize(span.text), style + Style(link=url, underline=True))
            if links is not None:
                links.note(sanitize(span.text), url)
        else:
            text.append(sanitize(span.text), style)
    return text


def _table(block: Table, links: _Links) -> RichTable:
    table = RichTable(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in block.columns:
        table.add_column(Text(sanitize(column)), overflow="fold")
    for row in block.rows:
        table.add_row(*(inline(cell, links) for cell in row))
    return table


def _row_cards(block: Table, links: _Links) -> Text:
    """A table as text that needs no width: per row, the lead cells on one line, then the other
    non-empty cells on an indented line, each labelled with its column."""
    cards = []
    for row in block.rows:
        lead = Text(" ").join(inline(cell, links) for cell in row[: block.lead])
        lead.stylize("bold")
        rest = [
            Text.assemble((f"{sanitize(column)}: ", "dim"), inline(cell, links))
            for column, cell in zip(block.columns[block.lead :], row[block.lead :], strict=False)
            if inline_text(cell).strip()
        ]
        cards.append(Text.assemble(lead, "\n  ", Text(" · ").join(rest)) if rest else lead)
    return Text("\n").join(cards)


def _shown(blocks: tuple[Block, ...]) -> list[Block]:
    """The blocks a terminal shows: not the action-only button rows (they need a chat client), and no
    rule closing the reply, which would only double whatever the caller prints next."""
    shown = [
        b for b in blocks if not isinstance(b, Actions) or any(safe_url(button.url) for button in b.buttons)
    ]
    while shown and isinstance(shown[-1], Divider):
        shown.pop()
    return shown


def reply_renderable(reply: Reply, *, terminal: bool = True) -> RenderableType:
    """The reply as one rich renderable, for `console.print` or for embedding in a larger layout; with
    `terminal` False, laid out for a pipe or a log (see the module docstring)."""
    links = _Links(hyperlinks=terminal)
    parts: list[RenderableType] = []
    for block in _shown(reply.blocks):
        if isinstance(block, Heading):
            if parts:
                parts.append(Text())  # a blank line before every heading but the first thing printed
            parts.append(Text(sanitize(block.text), _HEADING_STYLE.get(block.level, "bold")))
        elif isinstance(block, Paragraph):
            parts.append(inline(block.spans, links))
        elif isinstance(block, Context):
            parts.append(Text.assemble(inline(block.spans, links), style="dim"))
        elif isinstance(block, BulletList):
            parts.append(
                Text("\n").join(
                    Text.assemble(f"{n}. " if block.ordered else "• ", inline(item, links))
                    for n, item in enumerate(block.items, start=1)
                )
            )
        elif isinstance(block, Fields) and terminal:
            grid = RichTable.grid(padding=(0, 2))
            for key, value in block.pairs:
                grid.add_row(Text(sanitize(key), "bold"), inline(value, links))
            parts.append(grid)
        elif isinstance(block, Fields):
            parts.append(
                Text("\n").join(
                    Text.assemble((f"{sanitize(key)}: ", "bold"), inline(value, links))
                    for key, value in block.pairs
                )
            )
        elif isinstance(block, Table):
            parts.append(_table(block, links) if terminal else _row_cards(block, links))
        elif isinstance(block, Divider):
            parts.append(Rule(style="dim") if terminal else Text("─" * 40, "dim"))
        elif isinstance(block, Actions):
            # Only link buttons mean something in a terminal; action buttons need a chat client. Off a
            # terminal the URL is what the reader needs, so it follows the label.
            buttons = [
                Text.assemble("→ ", inline((link(b.label, url),)), "" if terminal else f": {url}")
                for b in block.buttons
                if (url := safe_url(b.url))
            ]
            if buttons:
                parts.append(Text("\n").join(buttons))
    if links.urls:
        parts += [Text(), *(Text.assemble((f"{label} ", "dim"), url) for url, label in links.urls.items())]
    return Group(*parts)


def render_console(reply: Reply, console: Console) -> None:
    """Print the reply to `console`: hyperlinks on a terminal; unwrapped, URLs listed, off one."""
    terminal = console.is_terminal
    console.print(reply_renderable(reply, terminal=terminal), soft_wrap=not terminal)
