"""Reply → PDF: the HTML report page printed by WeasyPrint, so the PDF looks like the page and holds real,
extractable text. Chinese glyphs come from any system font with Chinese coverage that fontconfig finds
(e.g. Debian's fonts-wqy-microhei); without one the PDF is still produced, with a warning."""

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
    from weasyprint.urls import URLFetcher

log = logging.getLogger(__name__)

FONT_PACKAGE = "fonts-wqy-microhei"

# Printing needs a page size, margins and a footer; `html` carries the size too so the page's
# rem-based sizes (headings, tables) scale with the body text.
PRINT_STYLE = """
@page { size: A4; margin: 16mm 15mm 18mm;
  @bottom-left { content: string(report-title); font: 8pt sans-serif; color: #59636e; }
  @bottom-right { content: counter(page) " / " counter(pages); font: 8pt sans-serif; color: #59636e; } }
html, body { font-size: 10.5pt; }
h1 { string-set: report-title content(); }
h3 { break-after: avoid; }
"""

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


def _print_page(reply: Reply, language: str = "zh") -> str:
    """The page `render_html` writes (same body, same stylesheet) with the print stylesheet added."""
    lang = "zh-CN" if language == "zh" else "en"
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(reply.title)}</title>\n<style>{STYLE}{PRINT_STYLE}</style>\n</head>\n<body>\n<main>\n"
        f"{render_html_body(reply)}\n</main>\n</body>\n</html>\n"
    )


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
        pdf: bytes = HTML(string=_print_page(reply, language), url_fetcher=offline_url_fetcher()).write_pdf()
    finally:
        weasyprint_log.removeFilter(_SCREEN_ONLY_CSS)
    return pdf
