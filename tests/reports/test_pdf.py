"""The PDF of the weekly report: real Chinese text, any size of week, inert PR titles, nothing fetched."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from pypdf import PdfReader

from chatbot.models import Heading, Paragraph, Reply, plain
from chatbot.prose import prose
from chatbot.reports.builder import AnalyzedPR
from chatbot.reports.cards import ReportLinks, report_document
from chatbot.reports.pdf import FONT_PACKAGE, offline_url_fetcher, render_pdf
from tests.reports.fixtures import WEEK_START, analysis, pr
from tests.reports.synthetic import synthetic_report

REPO_ROOT = Path(__file__).resolve().parents[2]
SITE = "https://prhub.example.com"
INJECTION = "<!channel> 紧急 <script>alert(1)</script> [x](javascript:alert(1))"
INJECTED_PR = AnalyzedPR(
    pr(999, f"[doc] chore: {INJECTION}", WEEK_START + timedelta(days=1)),
    analysis(("doc",), 9.9, verdict="must-read"),
)
# Every font fontconfig knows except those covering Chinese: a machine before `apt-get install fonts-…`.
HIDE_CHINESE_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><pattern><patelt name="lang"><string>zh</string></patelt></pattern></rejectfont></selectfont>
</fontconfig>
"""


def fc_list(*args: str, env: dict[str, str] | None = None) -> str:
    """What `fc-list ARGS` prints; empty when fc-list is not installed."""
    command = shutil.which("fc-list")
    if command is None:
        return ""
    return subprocess.run(
        [command, *args], capture_output=True, text=True, env=env, check=False
    ).stdout.strip()


needs_chinese_font = pytest.mark.skipif(
    not fc_list(":lang=zh"),
    reason=f"no Chinese font: `fc-list :lang=zh` is empty (Debian: apt-get install {FONT_PACKAGE})",
)


def squeezed(text: str) -> str:
    """Text without whitespace: PDF extraction breaks lines where the layout wrapped them."""
    return "".join(text.split())


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def link_actions(pdf: bytes) -> list[dict[str, str]]:
    """The action of every annotation on every page, as {key: value} strings."""
    actions = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            if action is not None:
                actions.append({str(k): str(v) for k, v in action.get_object().items()})
    return actions


@pytest.fixture(scope="module")
def week_report() -> tuple[str, bytes]:
    """The title and PDF of a realistic 20-PR week that includes a PR with a hostile title."""
    report = synthetic_report(20, extra=(INJECTED_PR,))
    return report.title, render_pdf(report_document(report, ReportLinks.for_report(SITE, report)))


def test_the_report_is_a_pdf(week_report: tuple[str, bytes]) -> None:
    _, pdf = week_report
    assert pdf.startswith(b"%PDF-")


@needs_chinese_font
def test_the_chinese_title_and_pr_numbers_are_real_text(week_report: tuple[str, bytes]) -> None:
    title, pdf = week_report
    text = squeezed(pdf_text(pdf))
    assert "周报" in title and squeezed(title) in text
    assert "#4000" in text and "#999" in text


@needs_chinese_font
def test_a_hostile_pr_title_is_printed_as_text(week_report: tuple[str, bytes]) -> None:
    _, pdf = week_report
    assert squeezed(INJECTION) in squeezed(pdf_text(pdf))


def test_every_link_in_the_pdf_is_an_https_link(week_report: tuple[str, bytes]) -> None:
    _, pdf = week_report
    actions = link_actions(pdf)
    assert actions, "the PR numbers should be clickable"
    assert all(a.get("/S") == "/URI" and a.get("/URI", "").startswith("https://") for a in actions), actions
    assert not any("javascript" in value.lower() for a in actions for value in a.values())


def test_the_download_buttons_are_left_out_of_print(week_report: tuple[str, bytes]) -> None:
    _, pdf = week_report
    assert not any(a.get("/URI", "").startswith(f"{SITE}/reports/") for a in link_actions(pdf))


def test_a_300_pr_week_renders() -> None:
    pdf = render_pdf(report_document(synthetic_report(300)))
    assert pdf.startswith(b"%PDF-") and len(PdfReader(io.BytesIO(pdf)).pages) > 1


def test_an_english_report_renders_in_english() -> None:
    report = synthetic_report(20, language="en")
    pdf = render_pdf(report_document(report), language="en")
    assert squeezed(report.title) in squeezed(pdf_text(pdf))


def test_the_renderer_fetches_nothing_but_data_urls() -> None:
    fetcher = offline_url_fetcher()
    for url in ("https://example.com/style.css", "http://127.0.0.1:9/logo.png", "file:///etc/passwd"):
        with pytest.raises(ValueError, match="disallowed protocol"):
            fetcher.fetch(url)
    assert fetcher.fetch("data:text/plain,ok").read() == b"ok"


def test_without_a_chinese_font_the_pdf_is_still_made_and_one_warning_names_the_package(
    tmp_path: Path,
) -> None:
    config = tmp_path / "fonts.conf"
    config.write_text(HIDE_CHINESE_FONTS, encoding="utf-8")
    env = {**os.environ, "FONTCONFIG_FILE": str(config)}
    if not fc_list(":", "family", env=env):
        pytest.skip("fontconfig lists no font at all once Chinese ones are hidden (or fc-list is missing)")
    assert not fc_list(":lang=zh", env=env)
    script = (
        "import sys\n"
        "from chatbot.reports.cards import report_document\n"
        "from chatbot.reports.pdf import render_pdf\n"
        "from tests.reports.synthetic import synthetic_report\n"
        "sys.stdout.buffer.write(render_pdf(report_document(synthetic_report(20))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=REPO_ROOT, capture_output=True, timeout=120, check=False
    )
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, stderr
    assert done.stdout.startswith(b"%PDF-")
    assert len([line for line in stderr.splitlines() if FONT_PACKAGE in line]) == 1, stderr


def pdf_fonts(pdf: bytes) -> set[str]:
    """The base names of the fonts the PDF embeds."""
    return {
        str(font.get_object().get("/BaseFont"))
        for page in PdfReader(io.BytesIO(pdf)).pages
        for font in (page.get("/Resources", {}).get("/Font") or {}).values()
    }


def test_every_pr_number_in_the_risks_is_a_link(week_report: tuple[str, bytes]) -> None:
    _, pdf = week_report
    report = synthetic_report(20, extra=(INJECTED_PR,))
    named = {int(n) for risk in report.risks for n in re.findall(r"#(\d+)", risk.text)}
    assert named
    uris = {a.get("/URI") for a in link_actions(pdf)}
    assert {f"https://github.com/{report.repo}/pull/{n}" for n in named} <= uris


def test_code_prints_as_code_without_its_backticks() -> None:
    reply = Reply((Paragraph(prose("修复 `actor_wg` 与 get_named_tensor_buckets 中的问题")),))
    pdf = render_pdf(reply)
    text = pdf_text(pdf)
    assert "`" not in text and "actor_wg" in text and "get_named_tensor_buckets" in text
    assert any("Mono" in font for font in pdf_fonts(pdf))


@pytest.mark.skipif(
    not fc_list(":lang=zh:weight=bold"),
    reason="no Chinese font with a bold face (apt-get install fonts-noto-cjk)",
)
def test_chinese_headings_are_set_in_a_bold_face() -> None:
    pdf = render_pdf(Reply((Heading("本周亮点", 2), Paragraph((plain("正文"),)))))
    assert any("Bold" in font for font in pdf_fonts(pdf)), pdf_fonts(pdf)


def test_a_last_page_of_a_few_lines_is_avoided() -> None:
    """The longest reply whose plain print spills one paragraph onto a second page is set tighter and
    fits one page."""
    from weasyprint import HTML

    from chatbot.reports.pdf import NEARLY_EMPTY, _print_page, last_page_fill

    def reply(paragraphs: int) -> Reply:
        return Reply(
            tuple(Paragraph((plain(f"第 {i} 段：" + "周报正文，" * 30),)) for i in range(paragraphs))
        )

    low, high = 1, 80  # one page holds `low` paragraphs; `high` needs more than one page
    while high - low > 1:
        middle = (low + high) // 2
        pages = len(HTML(string=_print_page(reply(middle))).render().pages)
        low, high = (middle, high) if pages == 1 else (low, middle)
    plain_print = HTML(string=_print_page(reply(high))).render()
    assert len(plain_print.pages) == 2 and last_page_fill(plain_print) < NEARLY_EMPTY

    assert len(PdfReader(io.BytesIO(render_pdf(reply(high)))).pages) == 1
