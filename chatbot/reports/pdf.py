"""Reply → PDF: the HTML report page printed by WeasyPrint, so the PDF looks like the page and holds real,
extractable text. Chinese glyphs come from any system font with Chinese coverage that fontconfig finds:
Noto Sans CJK (Debian's fonts-noto-cjk) first, for its bold face, else e.g. fonts-wqy-microhei, which has
none (headings are then told apart by size and colour alone); without any the PDF is still produced, with
a warning. A report whose last page would hold only a few lines is set a little tighter instead."""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import subprocess
from html import escape
from typing import TYPE_CHECKING

from chatbot.models import Reply
from chatbot.reports.html import STYLE, render_html_body

if TYPE_CHECKING:
    from weasyprint.document import Document
    from weasyprint.urls import URLFetcher

log = logging.getLogger(__name__)

FONT_PACKAGE = "fonts-noto-cjk"

# Printing needs a page size, margins and a footer; `html` carries the size too so the page's
# rem-based sizes (headings, tables) scale with the body text.
PRINT_STYLE = """
@page { size: A4; margin: 16mm 15mm 18mm;
  @bottom-left { content: string(report-title); font: 8pt sans-serif; color: #59636e; }
  @bottom-right { content: counter(page) " / " counter(pages); font: 8pt sans-serif; color: #59636e; } }
html, body { font-size: 10.5pt; color: #1f2328; }
body { font-family: "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", sans-serif; }
h1 { string-set: report-title content(); font-size: 1.75rem; color: #000; }
h2 { font-size: 1.4rem; color: #000; }
h3 { font-size: 1.15rem; color: #000; break-after: avoid; }
h1, h2, h3, strong, th { font-weight: 700; }
a { color: #0969da; }
p, li { orphans: 3; widows: 3; }
li, tr, .context { break-inside: avoid; }
"""
# Tried once when the last page would be nearly empty: slightly smaller text, lines and margins (about a
# tenth more on a page), still comfortable to read on A4. Kept only if it saves the page.
TIGHTER_STYLE = (
    "@page { margin: 13mm 13mm 16mm; } html, body { font-size: 10pt; } body { line-height: 1.55; }"
)
NEARLY_EMPTY = 0.2  # a last page filled less than this is worth avoiding

_CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


class _ScreenOnlyCss(logging.Filter):
    """Drops WeasyPrint's warnings about the page stylesheet: its screen-only rules (dark mode, narrow
    screens, scrolling tables) are meant for browsers and expected to be ignored in print. Warnings
    about anything else (fonts, resources) still pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return f"{os.sep}weasyprint{os.sep}css{os.sep}" not in record.pathname


_SCREEN_ONLY_CSS = _ScreenOnlyCss()


@functools.cache
def cjk_font_available() -> bool:
    """Whether fontconfig, which WeasyPrint renders through, knows a font covering Chinese
    (`fc-list :lang=zh` lists one). False when fc-list is missing or fails. Cached for the process:
    fonts are installed by an operator, not while prhub runs."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    try:
        listed = subprocess.run(
            [fc_list, ":lang=zh", "family"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return listed.returncode == 0 and bool(listed.stdout.strip())


def offline_url_fetcher() -> URLFetcher:
    """A WeasyPrint URL fetcher that serves only `data:` URLs, so rendering never reaches the network or
    the file system; WeasyPrint logs and skips any other URL. The report page has no external assets."""
    from weasyprint.urls import URLFetcher

    return URLFetcher(allowed_protocols=("data",))


def _print_page(reply: Reply, language: str = "zh", tighter: str = "") -> str:
    """The page `render_html` writes (same body, same stylesheet) with the print stylesheet added."""
    lang = "zh-CN" if language == "zh" else "en"
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(reply.title)}</title>\n<style>{STYLE}{PRINT_STYLE}{tighter}</style>\n</head>\n"
        f"<body>\n<main>\n{render_html_body(reply)}\n</main>\n</body>\n</html>\n"
    )


def last_page_fill(document: Document) -> float:
    """How much of the last page's content area its text lines use, from 0 to 1 (1 for a one-page
    document, which cannot be set tighter usefully)."""
    if len(document.pages) < 2:
        return 1.0
    page = document.pages[-1]._page_box  # WeasyPrint's laid-out page: no public API has the line boxes
    bottoms = [
        line.position_y + line.height
        for child in page.children
        if type(child).__name__ != "MarginBox"  # the footer is on every page, full or not
        for line in child.descendants()
        if type(line).__name__ == "LineBox"
    ]
    top, height = page.content_box_y(), page.height
    return max(0.0, min(1.0, (max(bottoms, default=top) - top) / height)) if height else 1.0


def render_pdf(reply: Reply, language: str = "zh") -> bytes:
    """The reply as an A4 PDF with real text and https links. Logs a one-line warning naming the font
    package to install when the reply has Chinese text and no Chinese font is available (the PDF is still
    produced; those characters show as empty boxes)."""
    if not cjk_font_available() and _CHINESE.search(reply.plain_text()):
        log.warning(
            "no Chinese font found (`fc-list :lang=zh` is empty): Chinese text in the PDF will be empty "
            "boxes; install one, e.g. `apt-get install %s`",
            FONT_PACKAGE,
        )
    from weasyprint import HTML  # slow to import (Pango, fontTools): only when a PDF is wanted

    weasyprint_log = logging.getLogger("weasyprint")
    weasyprint_log.addFilter(_SCREEN_ONLY_CSS)
    try:
        document = HTML(string=_print_page(reply, language), url_fetcher=offline_url_fetcher()).render()
        if last_page_fill(document) < NEARLY_EMPTY:
            tighter = HTML(
                string=_print_page(reply, language, TIGHTER_STYLE), url_fetcher=offline_url_fetcher()
            ).render()
            if len(tighter.pages) < len(document.pages):
                document = tighter
        pdf: bytes = document.write_pdf()
    finally:
        weasyprint_log.removeFilter(_SCREEN_ONLY_CSS)
    return pdf
