"""Replies printed to the terminal with rich: readable, no markup parsed from text, no escape sequences
smuggled in, hyperlinks only for http(s)."""

from __future__ import annotations

import io
import re

from rich.console import Console

from adapters.console import render_console, sanitize
from chatbot.messages import say
from chatbot.models import BulletList, Paragraph, Reply, link, plain
from chatbot.reports.cards import report_card, report_document
from tests.adapters.report_replies import (
    INJECTION,
    busy_week,
    injected_reply,
    links,
    quiet_week,
    written_week,
)

OSC8 = re.compile(r"\x1b]8;[^\x1b]*\x1b\\")  # an OSC-8 hyperlink's opening or closing sequence
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def printed(reply: Reply, *, terminal: bool = False, width: int = 1000) -> str:
    """What the reply looks like on a (wide, so nothing wraps) console: plain text, or with the
    terminal's escape codes."""
    out = io.StringIO()
    console = Console(
        file=out, width=width, force_terminal=terminal, color_system="truecolor" if terminal else None
    )
    render_console(reply, console)
    return out.getvalue()


def test_the_card_reads_top_to_bottom():
    report = written_week()
    lines = printed(report_card(report, links(report))).splitlines()
    assert lines[0] == report.title
    assert lines[1] == report.headline
    assert say("report.section.highlights", "zh") in lines
    first = report.highlights[0]
    assert f"• {first.text}" in lines  # the PRs it cites are named in its text
    assert f"→ {say('report.button.full', 'zh')}: {links(report).page}" in lines


def test_on_a_terminal_the_full_document_prints_its_tables_as_tables():
    report = written_week()
    text = OSC8.sub("", ANSI.sub("", printed(report_document(report, links(report)), terminal=True)))
    assert report.executive_summary in text
    row = next(line for line in text.splitlines() if "Qwen3" in line and "8.5" in line)
    assert " ".join(row.split()) == (
        "#101 [megatron] feat: pipeline parallel for Qwen3 megatron 8.5 look at the loop"
    )


def test_off_a_terminal_a_table_row_is_a_small_card_with_labelled_cells():
    report = written_week()
    lines = printed(report_document(report, links(report)), width=40).splitlines()
    at = lines.index("#101 [megatron] feat: pipeline parallel for Qwen3")
    assert lines[at + 1] == "  模块: megatron · 重要性: 8.5 · 要点: look at the loop"


def test_off_a_terminal_nothing_is_wrapped_inside_a_word_or_a_command():
    words = (
        "get_named_tensor_buckets `make demo` .venv/bin/prhub serve https://github.com/acme/widgets/pull/101"
    )
    reply = Reply((Paragraph((plain(words * 3),)), BulletList(((plain(words * 2),),))))
    for width in (20, 40, 80):
        assert printed(reply, width=width).splitlines() == [words * 3, "• " + words * 2]
    report = busy_week(300)
    document = report_document(report, links(report))
    narrow, wide = printed(document, width=40), printed(document, width=10_000)
    assert narrow == wide


def test_off_a_terminal_every_url_is_printed_once_after_the_answer():
    report = written_week()
    text = printed(report_document(report, links(report)))
    lines = text.splitlines()
    for number in report.prs:
        url = f"https://github.com/acme/widgets/pull/{number}"
        assert text.count(url) == 1
        assert f"#{number} {url}" in lines
    assert lines.index("#101 https://github.com/acme/widgets/pull/101") > lines.index(
        report.executive_summary
    )


def test_on_a_terminal_links_are_hyperlinks_and_no_url_is_printed():
    report = written_week()
    terminal = printed(report_document(report, links(report)), terminal=True)
    visible = OSC8.sub("", ANSI.sub("", terminal))
    assert "\x1b]8;" in terminal and "https://github.com/acme/widgets/pull/101" in terminal
    assert "https://github.com/acme/widgets/pull/" not in visible


def test_the_injection_title_prints_as_it_was_written():
    report = written_week()
    for reply in (report_card(report, links(report)), report_document(report, links(report))):
        assert INJECTION in printed(reply)


def test_rich_markup_in_text_is_never_parsed():
    text = printed(Reply((Paragraph((plain("[bold red]alarm[/] [link=https://evil.example]x[/link]"),)),)))
    assert text == "[bold red]alarm[/] [link=https://evil.example]x[/link]\n"


def test_every_kind_of_block_keeps_its_text():
    text = printed(injected_reply())
    assert text.count(INJECTION) >= 7
    assert "javascript" not in text.replace(INJECTION, "")  # the javascript: link and button are not shown


def test_escape_sequences_and_bidi_overrides_never_reach_the_terminal():
    hostile = "red\x1b[31m title\x1b]8;;https://evil.example\x1b\\click\x07 \u202eevil\r\nnext"
    assert (
        sanitize(hostile)
        == "red\ufffd[31m title\ufffd]8;;https://evil.example\ufffd\\click\ufffd \ufffdevil  next"
    )
    assert "\x1b" not in printed(Reply((Paragraph((plain(hostile),)),)))
    terminal = printed(Reply((Paragraph((plain(hostile),)),)), terminal=True)
    assert "evil.example\x1b" not in terminal and "\u202e" not in terminal


def test_only_http_links_become_terminal_hyperlinks():
    reply = Reply(
        (
            Paragraph(
                (link("#1", "https://github.com/a/b/pull/1"), plain(" "), link("bad", "javascript:alert(1)"))
            ),
        )
    )
    terminal = printed(reply, terminal=True)
    assert "\x1b]8;" in terminal and "https://github.com/a/b/pull/1" in terminal
    assert "javascript" not in terminal
    assert printed(reply) == "#1 bad\n\n#1 https://github.com/a/b/pull/1\n"


def test_a_300_pr_week_prints_every_key_pr():
    report = busy_week(300)
    text = printed(report_document(report, links(report)))
    for pr in report.key_prs:
        assert f"#{pr.number} {pr.title}" in text.splitlines()


def test_a_quiet_week_is_one_line():
    report = quiet_week()
    assert printed(report_card(report)) == report.headline + "\n"
