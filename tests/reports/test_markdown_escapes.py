"""Markdown escapes render as the text they protect: numbers that would open a list show no backslash."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from chatbot.models import Paragraph, Reply, Span, Table, bold, code, plain
from chatbot.reports.markdown import render_markdown


def rendered_text(markdown: str) -> str:
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    return html


@pytest.mark.parametrize("cell", ["7.1", "10.0", "3)", "- x", "# not a heading", "> not a quote", "+1"])
def test_table_cells_and_paragraphs_show_their_text_without_backslashes(cell):
    reply = Reply(
        (
            Table(("PR", "importance"), (((plain("#1"),), (plain(cell),)),)),
            Paragraph((plain(cell),)),
        )
    )
    html = rendered_text(render_markdown(reply))
    assert "\\" not in html
    assert html.count(cell.replace(">", "&gt;")) == 2
    assert "<ol" not in html and "<ul" not in html and "<h1" not in html and "<blockquote" not in html


@pytest.mark.parametrize(
    "spans",
    [
        (
            bold("需关注："),
            Span("#5374", "bold", "https://github.com/a/b/pull/5374"),
            bold(" 破坏性变更：删除 "),
        ),
        (bold("[高] "), plain("#5411 默认值被修改")),
        (bold(" needs attention: "), code("max_length"), bold(" is removed. ")),
        (Span(" (corrected) ", "italic"), plain("x")),
    ],
)
def test_bold_and_italic_spans_with_their_own_spaces_show_no_asterisks(spans):
    """A bold span that opens or closes with a space (a bold headline split around a link or code)
    is still bold: its spaces go outside the markers, which CommonMark needs to open and close it."""
    html = rendered_text(render_markdown(Reply((Paragraph(spans),))))
    assert "*" not in re.sub(r"<[^>]+>", "", html), html
    assert html.count("<strong>") + html.count("<em>") == sum(s.style in ("bold", "italic") for s in spans)
