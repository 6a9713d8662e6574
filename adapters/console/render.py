"""Reply → the terminal, with rich. Every span becomes a `rich.text.Text`, so no markup is ever parsed
from it; control characters (escape sequences, bidi overrides) are replaced before they reach the
terminal; only http(s) URLs become OSC-8 hyperlinks, and outside tables the URL is printed too."""

from __future__ import annotations

import re

from rich import box
from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text

from chatbot.models import (
    Actions,
    BulletList,
    Context,
    Divider,
    Fields,
    Heading,
    Inline,
    Paragraph,
    Reply,
    Table,
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


def inline(spans: Inline, *, show_urls: bool = True) -> Text:
    """Spans as styled text; a link is its label, hyperlinked, followed by the URL when `show_urls`."""
    text = Text()
    for span in spans:
        style = Style.parse(_SPAN_STYLE[span.style])
        url = safe_url(span.url)
        if url:
            text.append(sanitize(span.text), style + Style(link=url, underline=True))
            if show_urls:
                text.append(f" ({url})", Style(dim=True, link=url))
        else:
            text.append(sanitize(span.text), style)
    return text


def _table(block: Table) -> RichTable:
    table = RichTable(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in block.columns:
        table.add_column(Text(sanitize(column)), overflow="fold")
    for row in block.rows:
        # URLs in cells would double a column's width; the hyperlink on the label carries them.
        table.add_row(*(inline(cell, show_urls=False) for cell in row))
    return table


def reply_renderable(reply: Reply) -> RenderableType:
    """The reply as one rich renderable, for `console.print` or for embedding in a larger layout."""
    parts: list[RenderableType] = []
    for block in reply.blocks:
        if isinstance(block, Heading):
            if parts:
                parts.append(Text())  # a blank line before every heading but the first thing printed
            parts.append(Text(sanitize(block.text), _HEADING_STYLE.get(block.level, "bold")))
        elif isinstance(block, Paragraph):
            parts.append(inline(block.spans))
        elif isinstance(block, Context):
            parts.append(Text.assemble(inline(block.spans), style="dim"))
        elif isinstance(block, BulletList):
            parts.append(
                Text("\n").join(
                    Text.assemble(f"{n}. " if block.ordered else "• ", inline(item))
                    for n, item in enumerate(block.items, start=1)
                )
            )
        elif isinstance(block, Fields):
            grid = RichTable.grid(padding=(0, 2))
            for key, value in block.pairs:
                grid.add_row(Text(sanitize(key), "bold"), inline(value))
            parts.append(grid)
        elif isinstance(block, Table):
            parts.append(_table(block))
        elif isinstance(block, Divider):
            parts.append(Rule(style="dim"))
        elif isinstance(block, Actions):
            # Only link buttons mean something in a terminal; action buttons need a chat client.
            links = [
                Text.assemble("→ ", inline((link(b.label, url),)))
                for b in block.buttons
                if (url := safe_url(b.url))
            ]
            if links:
                parts.append(Text("\n").join(links))
    return Group(*parts)


def render_console(reply: Reply, console: Console) -> None:
    """Print the reply to `console`."""
    console.print(reply_renderable(reply))
