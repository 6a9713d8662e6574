"""Reply → Markdown (CommonMark/GFM). Every span is escaped, so PR text can never become markup."""

from __future__ import annotations

import re

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
    Span,
    Table,
)

_SPECIAL = re.compile(r"([\\`*_\[\]|<>~&])")
# What would start a heading, quote, list or rule when it opens a line.
_BLOCK_START = re.compile(r"^(\s*)(?:([#>+=-])|(\d+)([.)]))")
_SAFE_URL = re.compile(r"^https?://[^\s<>()\"']+$")


def escape(text: str) -> str:
    """Backslash-escape Markdown punctuation and flatten line breaks inside a block."""
    return _SPECIAL.sub(r"\\\1", text.replace("\r", " ").replace("\n", " "))


def safe_url(url: str | None) -> str | None:
    """Only plain http(s) URLs become links; `javascript:` and friends stay text."""
    return url if url and _SAFE_URL.match(url) else None


def _span(span: Span) -> str:
    text = escape(span.text)
    if span.style in ("bold", "italic") and text.strip():
        # Emphasis opens before a non-space and closes after one (CommonMark's flanking rule): a bold
        # span's own spaces go outside its markers, or "** 破坏性变更 **" shows its asterisks.
        mark = "**" if span.style == "bold" else "*"
        core = text.strip()
        text = f"{text[: len(text) - len(text.lstrip())]}{mark}{core}{mark}{text[len(text.rstrip()) :]}"
    elif span.style == "code":
        fence = "``" if "`" in span.text else "`"
        text = f"{fence}{span.text.replace(chr(10), ' ')}{fence}"
    url = safe_url(span.url)
    return f"[{text}](<{url}>)" if url else text


def inline(spans: Inline) -> str:
    return _BLOCK_START.sub(_unblock, "".join(_span(s) for s in spans))


def _unblock(match: re.Match[str]) -> str:
    """Escape what would open a block. Only punctuation can be backslash-escaped: `1.` becomes `1\\.`
    (a `\\7.1` would show its backslash, as importance cells did)."""
    indent, mark, digits, dot = match.groups()
    return f"{indent}\\{mark}" if mark else f"{indent}{digits}\\{dot}"


def render_markdown(reply: Reply) -> str:
    out: list[str] = []
    for block in reply.blocks:
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {escape(block.text)}")
        elif isinstance(block, Paragraph):
            out.append(inline(block.spans))
        elif isinstance(block, Context):
            out.append(f"<sub>{inline(block.spans)}</sub>")
        elif isinstance(block, BulletList):
            out.append(
                "\n".join(
                    f"{f'{n}.' if block.ordered else '-'} {inline(item)}"
                    for n, item in enumerate(block.items, start=1)
                )
            )
        elif isinstance(block, Fields):
            out.append("\n".join(f"- **{escape(key)}**: {inline(value)}" for key, value in block.pairs))
        elif isinstance(block, Table):
            header = "| " + " | ".join(escape(c) for c in block.columns) + " |"
            rule = "|" + "|".join(" --- " for _ in block.columns) + "|"
            rows = ["| " + " | ".join(inline(cell) for cell in row) + " |" for row in block.rows]
            out.append("\n".join([header, rule, *rows]))
        elif isinstance(block, Divider):
            out.append("---")
        elif isinstance(block, Actions):
            links = [f"[{escape(b.label)}](<{url}>)" for b in block.buttons if (url := safe_url(b.url))]
            if links:
                out.append(" · ".join(links))
    return "\n\n".join(out) + "\n"
