"""Replies rendered as Feishu card JSON 2.0: documented properties only, within 200 components and 30 KB,
every span inert."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from adapters.feishu import escape, render_card, render_text
from adapters.feishu.card import MAX_CARD_BYTES, MAX_COMPONENTS, MAX_TABLES
from chatbot.messages import say
from chatbot.models import BulletList, Paragraph, Reply, Table, code, plain
from chatbot.reports.cards import report_card, report_document
from tests.adapters.report_replies import (
    INJECTED_PR,
    INJECTION,
    busy_week,
    counted_entries,
    injected_reply,
    links,
    long_reply,
    quiet_week,
    written_week,
)

# INJECTION as the card must carry it: every markdown or tag character as a numeric entity (the
# rich-text component reference, "特殊字符转义说明").
INERT = (
    '&#60;&#33;channel&#62; 紧急 @all &#60;at user&#95;id="all"&#62;&#60;/at&#62; '
    "&#91;x&#93;&#40;javascript&#58;alert&#40;1&#41;&#41; &#60;@U123&#62; @here "
    "&#60;http&#58;//evil&#124;click&#62;"
)

# The properties each tag may carry, from the card JSON 2.0 references (structure, rich text, divider,
# table, button, column set). 2.0 refuses a card with any other.
DOCUMENTED: dict[str, set[str]] = {
    "markdown": {"tag", "content", "text_size"},
    "hr": {"tag"},
    "table": {"tag", "page_size", "row_height", "columns", "rows"},
    "button": {"tag", "text", "type", "behaviors"},
    "column_set": {"tag", "flex_mode", "columns"},
    "column": {"tag", "elements"},
    "plain_text": {"tag", "content"},
}
TEXT_SIZES = {"heading", "notation"}
BUTTON_TYPES = {"default", "primary_filled"}


def assert_valid(card: dict[str, Any]) -> None:
    assert set(card) <= {"schema", "config", "header", "body"}
    assert card["schema"] == "2.0"
    assert card["config"]["update_multi"] is True and set(card["config"]) <= {"update_multi", "summary"}
    if "header" in card:
        assert card["header"]["template"] == "blue" and set(card["header"]) == {"title", "template"}
        _check(card["header"]["title"])
    assert set(card["body"]) == {"elements"}
    for element in card["body"]["elements"]:
        _check(element)
    assert _components(card) <= MAX_COMPONENTS
    assert len(json.dumps(card, ensure_ascii=False).encode()) <= MAX_CARD_BYTES


def _check(element: dict[str, Any]) -> None:
    tag = element["tag"]
    assert set(element) <= DOCUMENTED[tag], element
    if tag == "markdown":
        assert element["content"].strip()
        assert element.get("text_size", "heading") in TEXT_SIZES
    elif tag == "table":
        assert 1 <= element["page_size"] <= 10
        names = set()
        for column in element["columns"]:
            assert set(column) == {"name", "display_name", "data_type"} and column["data_type"] == "markdown"
            names.add(column["name"])
        assert all(set(row) <= names for row in element["rows"])
    elif tag == "button":
        assert element["type"] in BUTTON_TYPES
        _check(element["text"])
        assert len(element["text"]["content"]) <= 100
        [behavior] = element["behaviors"]
        if behavior["type"] == "open_url":
            assert set(behavior) == {"type", "default_url"} and behavior["default_url"].startswith("https://")
        else:
            assert behavior["type"] == "callback" and isinstance(behavior["value"], dict)
    elif tag in ("column_set", "column"):
        for child in element.get("columns", element.get("elements", [])):
            _check(child)


def _components(value: Any) -> int:
    if isinstance(value, dict):
        return ("tag" in value) + sum(_components(v) for v in value.values())
    if isinstance(value, list):
        return sum(_components(v) for v in value)
    return 0


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def _markdown(card: dict[str, Any]) -> list[str]:
    return [e["content"] for e in card["body"]["elements"] if e["tag"] == "markdown"]


def _list_items(card: dict[str, Any]) -> list[str]:
    return [line for text in _markdown(card) for line in text.split("\n") if line.startswith("- ")]


def test_the_card_has_a_blue_header_sections_a_table_and_buttons():
    report = written_week()
    card = render_card(report_card(report, links(report)))
    assert_valid(card)
    assert card["header"]["title"] == {"tag": "plain_text", "content": report.title}
    assert card["config"]["summary"] == {"content": report.title}
    elements = card["body"]["elements"]
    assert {
        "tag": "markdown",
        "content": f"**{say('report.section.highlights', 'zh')}**",
        "text_size": "heading",
    } in elements
    [table] = [e for e in elements if e["tag"] == "table"]
    assert [c["display_name"] for c in table["columns"]] == ["PR", "标题", "模块", "重要性", "要点"]
    assert table["rows"][1] == {
        "c0": "[&#35;101](https://github.com/acme/widgets/pull/101)",
        "c1": "&#91;megatron&#93; feat&#58; pipeline parallel for Qwen3",
        "c2": "megatron",
        "c3": "8.5",
        "c4": "look at the loop",
    }
    buttons = [c["elements"][0] for c in elements[-1]["columns"]]
    assert buttons[0]["type"] == "primary_filled"
    assert buttons[0]["behaviors"] == [{"type": "open_url", "default_url": links(report).page}]
    assert buttons[-1]["behaviors"] == [
        {"type": "callback", "value": {"action": "report_risks", "value": f"{report.repo} {report.label}"}}
    ]


def test_the_full_document_has_every_section_and_list_item():
    report = written_week()
    document = report_document(report, links(report))
    card = render_card(document)
    assert_valid(card)
    assert len(_list_items(card)) == sum(len(b.items) for b in document.blocks if isinstance(b, BulletList))
    assert sum(e["tag"] == "table" for e in card["body"]["elements"]) == 3
    summary = next(text for text in _markdown(card) if text.startswith(escape("本周合并 7 个 PR（上周")))
    for number in (101, 102, 103, 104):  # every PR it names is a link
        assert f"[{escape(f'#{number}')}](https://github.com/acme/widgets/pull/{number})" in summary


def test_the_injection_title_stays_inert_in_card_and_document():
    report = written_week()
    for reply in (report_card(report, links(report)), report_document(report, links(report))):
        card = render_card(reply)
        serialized = "\n".join(_strings(card))
        # in report prose the identifier `user_id` is a code span: inert too, and copyable
        assert INERT.replace("user&#95;id", "`user_id`") in serialized
        for forbidden in ("<at", "<!channel>", "<@U123>", "<http://evil", "](javascript", "javascript:"):
            assert forbidden not in serialized
        assert f"[&#35;{INJECTED_PR}](https://github.com/acme/widgets/pull/{INJECTED_PR})" in serialized


def test_every_kind_of_block_escapes_its_spans():
    card = render_card(injected_reply())
    assert_valid(card)
    # a header is plain_text, never parsed
    assert card["header"]["title"]["content"] == INJECTION
    elements = card["body"]["elements"]
    assert elements[0]["content"] == f"{INERT} **{INERT}** {INERT}"  # code style dropped: entities need it
    assert elements[1]["content"] == f"[{INERT}](https://github.com/acme/widgets/pull/1)bad"
    assert elements[2]["content"] == f"1. {INERT}"
    assert elements[3]["content"] == f"**{INERT}**: {INERT}"
    assert elements[4]["columns"][0]["display_name"] == INJECTION  # a plain_text column title
    assert elements[4]["rows"] == [{"c0": INERT}]
    assert elements[5] == {"tag": "markdown", "content": INERT, "text_size": "notation"}
    assert elements[6] == {"tag": "hr"}
    # the javascript: button is left out; the action button carries its value as data
    assert elements[7]["tag"] == "button"
    assert elements[7]["behaviors"] == [
        {"type": "callback", "value": {"action": "report_risks", "value": INJECTION}}
    ]


def test_a_line_that_looks_like_a_list_or_heading_stays_a_paragraph():
    card = render_card(
        Reply((Paragraph((plain("1. not a list"),)), Paragraph((plain("# - + > not markup"),))))
    )
    assert _markdown(card) == ["1&#46; not a list", "&#35; &#45; &#43; &#62; not markup"]


def test_a_safe_code_span_keeps_its_style():
    card = render_card(Reply((Paragraph((plain("run "), code("make test_all*"))),)))
    assert _markdown(card) == ["run `make test_all*`"]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_300_pr_week_fits_in_200_components_and_30_kb(language):
    report = busy_week(300, language)
    for reply in (report_card(report, links(report)), report_document(report, links(report))):
        card = render_card(reply)
        assert_valid(card)
        # nothing was cut
        assert len(_list_items(card)) == sum(len(b.items) for b in reply.blocks if isinstance(b, BulletList))
        assert card["body"]["elements"][-1]["tag"] != "markdown"


def test_an_oversized_reply_is_truncated_with_and_n_more_linking_the_full_report():
    reply = long_reply(20_000)
    card = render_card(reply)
    assert_valid(card)
    shown = len(_list_items(card))
    left_out = counted_entries(reply) - shown
    assert card["body"]["elements"][-1] == {
        "tag": "markdown",
        "content": f"[{escape(say('report.and_more', 'zh', n=left_out))}]({reply.more_url})",
        "text_size": "notation",
    }


def test_truncation_counts_components_too():
    many = Reply(tuple(Paragraph((plain(f"p{i}"),)) for i in range(400)), more_url="https://x.example/more")
    card = render_card(many, language="en")
    assert_valid(card)
    elements = card["body"]["elements"]
    assert len(elements) == MAX_COMPONENTS
    assert (
        elements[-1]["content"]
        == f"[{escape(say('report.and_more', 'en', n=400 - 199))}](https://x.example/more)"
    )


def test_tables_past_five_become_markdown_lines():
    table = Table(("PR", "title"), (((plain("#1"),), (plain("one"),)),))
    card = render_card(Reply((table,) * (MAX_TABLES + 1)))
    assert_valid(card)
    tags = [e["tag"] for e in card["body"]["elements"]]
    assert tags == ["table"] * MAX_TABLES + ["markdown"]
    assert card["body"]["elements"][-1]["content"] == "*PR — title*\n&#35;1 — one"


def test_a_quiet_week_is_one_line():
    report = quiet_week()
    card = render_card(report_card(report))
    assert_valid(card)
    assert "header" not in card
    assert card["body"]["elements"] == [{"tag": "markdown", "content": escape(report.headline)}]


def test_the_text_fallback_keeps_tags_and_links_as_text():
    text = render_text(injected_reply())
    assert '<\u200bat user_id="all">' in text and "[x]\u200b(javascript:alert(1))" in text
    assert not re.search(r"<[a-z/!@]", text)


def test_the_text_fallback_of_a_card_reads_like_the_card():
    report = written_week()
    text = render_text(report_card(report, links(report)))
    assert text.splitlines()[0] == report.title
    assert f"完整周报: {links(report).page}" in text
