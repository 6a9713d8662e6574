"""Markdown escapes render as the text they protect: numbers that would open a list show no backslash."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from chatbot.models import Paragraph, Reply, Table, plain
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
