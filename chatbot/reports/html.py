"""Reply → a standalone HTML page: readable on a laptop and a phone, CJK-friendly, printable.
Every span is HTML-escaped; only http(s) URLs become links."""

from __future__ import annotations

from html import escape

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
from chatbot.reports.markdown import safe_url

STYLE = """
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da;
  --bg: #ffffff; --soft: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d;
  --accent: #4493f8; --bg: #0d1117; --soft: #151b23; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.65 -apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB",
  "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei", "Source Han Sans SC", sans-serif; }
main { max-width: 60rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
h1 { font-size: 1.6rem; line-height: 1.3; margin: 0 0 .75rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
p, li, dd { overflow-wrap: anywhere; }
td { overflow-wrap: break-word; }  /* not `anywhere`: that would let a column shrink to "#12 / 47" */
td.lead:first-child { white-space: nowrap; }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
.context { color: var(--muted); font-size: .875rem; }
.table { overflow-x: auto; margin: .5rem 0 1rem; }
table { border-collapse: collapse; width: 100%; font-size: .925rem; }
th, td { border: 1px solid var(--line); padding: .4rem .6rem; text-align: left; vertical-align: top; }
th { background: var(--soft); white-space: nowrap; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; background: var(--soft);
  padding: .05rem .3rem; border-radius: 4px; overflow-wrap: anywhere; }
hr { border: 0; border-top: 1px solid var(--line); margin: 2rem 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: 1rem 0; }
.actions a { border: 1px solid var(--line); border-radius: 6px; padding: .3rem .8rem; }
/* A phone: each table row becomes a small card, its lead cells as the card's heading line and every
   other cell labelled with its column, side by side while they fit (the header row stays for screen
   readers only). Nothing is wider than the screen, so nothing scrolls sideways. */
@media (max-width: 40rem) { body { font-size: 15px; } main { padding: 1rem .75rem 3rem; }
  ul, ol { padding-left: 1.25rem; }
  .table { overflow: visible; }
  .table table, .table tbody, .table tr { display: block; }
  .table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .table tr { border: 1px solid var(--line); border-radius: 8px; padding: .45rem .75rem; margin: 0 0 .6rem; }
  .table td { border: 0; padding: 0; }
  .table td.lead { display: inline; font-weight: 600; }
  .table td.lead + td.lead { margin-left: .4rem; }
  .table td.lead-end::after { content: "\\A"; white-space: pre; }
  .table td:not(.lead) { display: inline-block; max-width: 100%; margin: .15rem 1.1rem 0 0; }
  .table td:not(.lead)::before { content: attr(data-label); color: var(--muted); font-size: .85em;
    margin-right: .4rem; } }
@media print { .actions { display: none; } a { color: inherit; } main { max-width: none; padding: 0; }
  h2 { break-after: avoid; } tr { break-inside: avoid; } }
"""


def _span(span: Span) -> str:
    text = escape(span.text)
    if span.style == "bold":
        text = f"<strong>{text}</strong>"
    elif span.style == "italic":
        text = f"<em>{text}</em>"
    elif span.style == "code":
        text = f"<code>{text}</code>"
    url = safe_url(span.url)
    return f'<a href="{escape(url)}" rel="noopener noreferrer">{text}</a>' if url else text


def inline(spans: Inline) -> str:
    return "".join(_span(s) for s in spans)


def _labels(block: Table) -> tuple[str, ...]:
    """A label for every cell of the widest row, the column's name or nothing."""
    width = max((len(row) for row in block.rows), default=0)
    return block.columns + ("",) * (width - len(block.columns))


def render_html_body(reply: Reply) -> str:
    out: list[str] = []
    for block in reply.blocks:
        if isinstance(block, Heading):
            level = min(max(block.level, 1), 6)
            out.append(f"<h{level}>{escape(block.text)}</h{level}>")
        elif isinstance(block, Paragraph):
            out.append(f"<p>{inline(block.spans)}</p>")
        elif isinstance(block, Context):
            out.append(f'<p class="context">{inline(block.spans)}</p>')
        elif isinstance(block, BulletList):
            tag = "ol" if block.ordered else "ul"
            items = "".join(f"<li>{inline(item)}</li>" for item in block.items)
            out.append(f"<{tag}>{items}</{tag}>")
        elif isinstance(block, Fields):
            rows = "".join(f"<dt>{escape(k)}</dt><dd>{inline(v)}</dd>" for k, v in block.pairs)
            out.append(f"<dl>{rows}</dl>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{escape(c)}</th>" for c in block.columns)
            body = "".join(
                "<tr>"
                + "".join(
                    f'<td class="lead{" lead-end" if i == block.lead - 1 else ""}">{inline(cell)}</td>'
                    if i < block.lead
                    else f'<td data-label="{escape(column)}">{inline(cell)}</td>'
                    for i, (column, cell) in enumerate(zip(_labels(block), row, strict=False))
                )
                + "</tr>"
                for row in block.rows
            )
            out.append(
                f'<div class="table"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'
            )
        elif isinstance(block, Divider):
            out.append("<hr>")
        elif isinstance(block, Actions):
            links = "".join(
                f'<a href="{escape(url)}" rel="noopener noreferrer">{escape(b.label)}</a>'
                for b in block.buttons
                if (url := safe_url(b.url))
            )
            if links:
                out.append(f'<nav class="actions">{links}</nav>')
    return "\n".join(out)


def render_html(reply: Reply, language: str = "zh") -> str:
    """A complete, self-contained page (no external assets)."""
    lang = "zh-CN" if language == "zh" else "en"
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(reply.title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n"
        f"{render_html_body(reply)}\n</main>\n</body>\n</html>\n"
    )
