"""Replies rendered as Slack Block Kit messages: valid for slack_sdk's models, within every limit, inert."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from slack_sdk.models.blocks import Block

from adapters.slack import SlackMessage, escape, render_blocks
from adapters.slack.blocks import (
    MAX_BLOCK_TEXT,
    MAX_BLOCKS,
    MAX_FALLBACK_TEXT,
    MAX_FIELD_TEXT,
    MAX_SECTION_TEXT,
    _text_length,
    faithful_mrkdwn,
)
from chatbot.messages import say
from chatbot.models import Actions, BulletList, Button, Context, Heading, Paragraph, Reply, bold, link, plain
from chatbot.prose import prose
from chatbot.reports.cards import report_card, report_document
from chatbot.team.feedback import AnswerRef, with_feedback
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

# Characters an escaping scheme might smuggle in: look-alikes of * _ ~ ` and invisible joiners.
SUBSTITUTES = re.compile("[\u02cb\u02cd\u2217\u223c\u200b\u200c\u200d\u00ad\u2060]")
# A `<` in mrkdwn may only open one of our own links.
OUR_LINK = re.compile(r"<https?://[^\s<>|]+\|")


def assert_valid(message: SlackMessage) -> None:
    """What Slack would refuse: slack_sdk's validators, plus what they leave out (unknown keys, empty
    text, field length, the message totals); and what no message may hold: a look-alike character."""
    assert message["text"] and len(message["text"]) <= MAX_FALLBACK_TEXT
    assert 0 < len(message["blocks"]) <= MAX_BLOCKS
    assert _text_length(message["blocks"]) <= MAX_BLOCK_TEXT
    assert not SUBSTITUTES.search(json.dumps(message, ensure_ascii=False))
    for block in message["blocks"]:
        model = Block.parse(block)
        assert model is not None
        model.validate_json()
        assert model.to_dict() == block  # nothing unknown, nothing dropped
        for text in _texts(block):
            assert text["text"].strip()
            if text["type"] == "mrkdwn":
                assert text["verbatim"] is True
                # nothing mrkdwn could read as formatting, a quote, a mention or a foreign link
                assert not re.search(r"[_~`]|^\s*&gt;", OUR_LINK.sub("", text["text"]))
                assert OUR_LINK.sub("", text["text"]).count("<") == 0
        for field in block.get("fields", []):
            assert len(field["text"]) <= MAX_FIELD_TEXT
        for section in _sections(block):
            assert section["elements"] and _text_length(section) <= MAX_SECTION_TEXT


def _texts(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        own = [value] if value.get("type") in ("mrkdwn", "plain_text") else []
        return own + [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _sections(value: Any) -> list[dict[str, Any]]:
    """Every rich_text_section, however deep (in lists too)."""
    if isinstance(value, dict):
        own = [value] if value.get("type") == "rich_text_section" else []
        return own + [s for v in value.values() for s in _sections(v)]
    if isinstance(value, list):
        return [s for v in value for s in _sections(v)]
    return []


def _line(section: dict[str, Any]) -> str:
    """A rich-text section as the reader sees its characters."""
    return "".join(element["text"] for element in section["elements"])


def _lines(messages: list[SlackMessage]) -> list[str]:
    return [_line(s) for m in messages for s in _sections(m["blocks"])]


def _items(messages: list[SlackMessage]) -> list[str]:
    """The list items of the messages, in order."""
    return [
        _line(item)
        for m in messages
        for block in m["blocks"]
        if block["type"] == "rich_text"
        for part in block["elements"]
        if part["type"] == "rich_text_list"
        for item in part["elements"]
    ]


def test_the_card_is_one_valid_message_with_title_sections_table_and_buttons():
    report = written_week()
    [message] = render_blocks(report_card(report, links(report)), max_messages=1)
    assert_valid(message)
    blocks = message["blocks"]
    assert blocks[0] == {
        "type": "header",
        "text": {"type": "plain_text", "text": report.title, "emoji": True},
    }
    for heading in ("report.section.highlights", "report.section.risks", "report.section.key_prs"):
        assert {
            "type": "rich_text",
            "elements": [
                {
                    "type": "rich_text_section",
                    "elements": [{"type": "text", "text": say(heading, "zh"), "style": {"bold": True}}],
                }
            ],
        } in blocks
    link = {
        "type": "link",
        "url": f"https://github.com/acme/widgets/pull/{INJECTED_PR}",
        "text": f"#{INJECTED_PR}",
    }
    assert any(link in s["elements"] for s in _sections(blocks))
    assert message["text"].startswith(report.title)
    buttons = blocks[-1]["elements"]
    assert buttons[0]["url"] == links(report).page and buttons[0]["style"] == "primary"
    assert buttons[-1] == {
        "type": "button",
        "text": {"type": "plain_text", "text": say("report.button.risks", "zh"), "emoji": True},
        "action_id": "report_risks",
        "value": f"{report.repo} {report.label}",
    }


def test_a_key_pr_row_is_a_small_card_led_by_its_linked_number():
    report = written_week()
    [message] = render_blocks(report_card(report, links(report)))
    row = next(s for s in _sections(message["blocks"]) if _line(s).startswith("#101 "))
    assert row["elements"][0] == {
        "type": "link",
        "url": "https://github.com/acme/widgets/pull/101",
        "text": "#101",
        "style": {"bold": True},
    }
    assert _line(row) == (
        "#101 [megatron] feat: pipeline parallel for Qwen3\n"
        "模块: megatron · 重要性: 8.5 · 要点: look at the loop\n"
    )
    labels = [e["text"] for e in row["elements"] if e.get("style") == {"italic": True}]
    assert labels == ["模块: ", "重要性: ", "要点: "]
    rows = [
        s for s in _sections(message["blocks"]) if re.match(r"#\d+ ", _line(s)) and "重要性: " in _line(s)
    ]
    assert [_line(r).split()[0] for r in rows] == [f"#{pr.number}" for pr in report.key_prs[:5]]


def test_every_pr_number_in_the_risks_is_a_link():
    report = written_week()
    for reply in (report_card(report, links(report)), report_document(report, links(report))):
        for message in render_blocks(reply):
            for section in _sections(message["blocks"]):
                for element in section["elements"]:
                    if element["type"] == "text" and element.get("style") != {"code": True}:
                        assert not re.search(r"#\d{3}\b", element["text"]), element
    risk = next(line for line in _items(render_blocks(report_card(report))) if line.startswith("#102 "))
    assert "large buffers on GPU" in risk and "pkg/rollout.py" in risk


def test_an_identifier_reaches_slack_byte_for_byte_in_a_code_span():
    text = "修复 `actor_wg` 与 get_named_tensor_buckets 中的 *bug*（verl/workers/fsdp_workers.py）"
    [message] = render_blocks(Reply((Paragraph(prose(text)),)))
    assert_valid(message)
    elements = _sections(message["blocks"])[0]["elements"]
    code = [e["text"] for e in elements if e.get("style") == {"code": True}]
    assert code == ["actor_wg", "get_named_tensor_buckets", "verl/workers/fsdp_workers.py"]
    assert _line(_sections(message["blocks"])[0]) == text.replace("`", "")


def test_the_full_document_keeps_every_line_of_the_report():
    report = written_week()
    document = report_document(report, links(report))
    messages = render_blocks(document)
    for message in messages:
        assert_valid(message)
    text = "\n".join(_lines(messages))
    assert report.executive_summary in text
    assert all(f"#{number}" in text for number in report.prs)
    assert len(_items(messages)) == sum(len(b.items) for b in document.blocks if isinstance(b, BulletList))


def test_the_injection_title_reaches_slack_as_text_and_never_as_markup():
    report = written_week()
    for reply in (report_card(report, links(report)), report_document(report, links(report))):
        messages = render_blocks(reply)
        assert any(INJECTION in line for line in _lines(messages))  # rich text: exactly as written
        for text in [t["text"] for m in messages for t in _texts(m["blocks"]) if t["type"] == "mrkdwn"] + [
            m["text"] for m in messages
        ]:
            assert OUR_LINK.sub("", text).count("<") == 0
            assert "<!" not in text and "<@" not in text and "<http://evil" not in text


def test_every_kind_of_block_keeps_its_spans_exactly_and_inert():
    [message] = render_blocks(injected_reply())
    assert_valid(message)
    blocks = message["blocks"]
    # plain_text is never parsed by Slack: the header and button labels keep their characters
    assert blocks[0]["text"]["text"] == INJECTION
    paragraph = _sections(blocks[1])[0]["elements"]
    assert paragraph == [
        {"type": "text", "text": INJECTION},
        {"type": "text", "text": INJECTION, "style": {"bold": True}},
        {"type": "text", "text": INJECTION, "style": {"code": True}},
    ]
    assert _sections(blocks[2])[0]["elements"] == [
        {"type": "link", "url": "https://github.com/acme/widgets/pull/1", "text": INJECTION},
        {"type": "text", "text": "bad"},  # a javascript: URL is no link
    ]
    assert blocks[3]["elements"][0]["style"] == "ordered" and _items([message]) == [INJECTION]
    assert _line(_sections(blocks[4])[0]) == f"{INJECTION}: {INJECTION}"  # fields mrkdwn cannot show
    assert _line(_sections(blocks[5])[0]) == INJECTION  # a table row
    assert blocks[6] == {
        "type": "context",
        "elements": [{"type": "plain_text", "text": INJECTION, "emoji": False}],
    }
    # the javascript: button is left out; the action button keeps its value as data
    assert blocks[8]["elements"] == [
        {
            "type": "button",
            "text": {"type": "plain_text", "text": INJECTION[:40], "emoji": True},
            "action_id": "report_risks",
            "value": INJECTION,
        }
    ]


def test_mrkdwn_is_used_only_where_it_shows_the_text_faithfully():
    assert escape("*bold* _it_ ~s~ `c` a&b <!here>") == "*bold* _it_ ~s~ `c` a&amp;b &lt;!here&gt;"
    assert faithful_mrkdwn((plain("a & b "), link("#1", "https://x.example/?a=1&b=2"))) == (
        "a &amp; b <https://x.example/?a=1&amp;b=2|#1>"
    )
    for spans in ((plain("*bold*"),), (plain("snake_case"),), (plain("> quote"),), (bold("x"),)):
        assert faithful_mrkdwn(spans) is None
    # a context line with a link: mrkdwn when faithful, else rich text
    [message] = render_blocks(Reply((Context((plain("by a_b · "), link("open", "https://x.example/1"))),)))
    assert message["blocks"][0]["type"] == "rich_text"
    [message] = render_blocks(Reply((Context((plain("by ab · "), link("open", "https://x.example/1"))),)))
    assert message["blocks"][0]["elements"][0]["text"] == "by ab · <https://x.example/1|open>"


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_300_pr_week_fits_every_limit(language):
    report = busy_week(300, language)
    card = render_blocks(report_card(report, links(report)), max_messages=1)
    document = render_blocks(report_document(report, links(report)))
    assert len(card) == 1
    for message in card + document:
        assert_valid(message)
    # nothing of the document was cut: it goes on in the thread instead
    items = sum(len(b.items) for b in report_document(report).blocks if isinstance(b, BulletList))
    assert len(_items(document)) == items


def test_a_long_document_is_split_into_a_thread_without_losing_a_line():
    reply = long_reply(2000)
    messages = render_blocks(reply)
    assert len(messages) > 1
    for message in messages:
        assert_valid(message)
    numbers = [int(line.split()[1]) for line in _items(messages)]
    assert numbers == list(range(2000))
    assert [m["text"] for m in messages[1:3]] == [
        f"A very long reply (2/{len(messages)})",
        f"A very long reply (3/{len(messages)})",
    ]


def test_a_split_never_leaves_a_heading_at_the_end_of_a_message():
    messages = render_blocks(long_reply(2000))
    for message in messages[:-1]:
        assert not _line(_sections(message["blocks"][-1])[0]).startswith("Part")


def test_a_capped_reply_is_truncated_with_and_n_more_linking_the_full_report():
    reply = long_reply(2000)
    [message] = render_blocks(reply, max_messages=1)
    assert_valid(message)
    shown = len(_items([message]))
    note = message["blocks"][-1]
    left_out = counted_entries(reply) - shown
    assert note == {
        "type": "context",
        "elements": [
            {
                "type": "mrkdwn",
                "text": f"<{reply.more_url}|{say('report.and_more', 'zh', n=left_out)}>",
                "verbatim": True,
            }
        ],
    }


def test_truncation_speaks_the_reply_language_and_links_only_http_urls():
    reply = long_reply(2000, more_url="javascript:alert(1)")
    [message] = render_blocks(reply, language="en", max_messages=1)
    note = message["blocks"][-1]["elements"][0]["text"]
    assert re.fullmatch(r"and \d+ more", note)


def test_a_card_that_fits_exactly_is_not_truncated():
    reply = Reply(tuple(Paragraph((plain(f"line {i}"),)) for i in range(MAX_BLOCKS)))
    [message] = render_blocks(reply, max_messages=1)
    assert len(message["blocks"]) == MAX_BLOCKS
    assert _line(_sections(message["blocks"][-1])[0]) == f"line {MAX_BLOCKS - 1}"


def test_a_quiet_week_is_one_line():
    report = quiet_week()
    [message] = render_blocks(report_card(report))
    assert _lines([message]) == [report.headline]
    assert message["text"] == escape(report.headline)


def test_over_long_texts_are_cut_never_refused():
    long = "x" * 5000
    reply = Reply(
        (
            Heading(long),
            Paragraph((plain(long),)),
            BulletList(((plain(long),),)),
            Actions((Button(long, url="https://x.example/" + long), Button(long, action_id="a", value="v"))),
        )
    )
    [message] = render_blocks(reply)
    assert_valid(message)
    assert len(_line(_sections(message["blocks"][1])[0])) == MAX_SECTION_TEXT
    # a URL past 3,000 characters would break if shortened: that button is left out
    assert [b.get("action_id") for b in message["blocks"][3]["elements"]] == ["a"]
    assert json.dumps(message)  # plain JSON, ready for chat.postMessage


def test_a_card_at_the_block_limit_keeps_its_closing_buttons_and_feedback_and_cuts_content():
    ref = AnswerRef(question="周报 verl", repo="acme/x", cited=(), language="en")
    buttons = Actions((Button("Full report", url="https://prhub.example.com/r"),))
    body = tuple(Paragraph((plain(f"line {i}"),)) for i in range(2 * MAX_BLOCKS))
    reply = with_feedback(Reply((*body, buttons), more_url="https://prhub.example.com/r"), ref)
    for native in (True, False):
        [message] = render_blocks(reply, language="en", max_messages=1, native_feedback=native)
        assert_valid(message)
        blocks = message["blocks"]
        assert len(blocks) == MAX_BLOCKS
        assert blocks[-2]["type"] == "actions" and blocks[-2]["elements"][0]["url"].endswith("/r")
        assert blocks[-1]["type"] == ("context_actions" if native else "actions")
        assert re.fullmatch(r"<[^|]+\|and \d+ more>", blocks[-3]["elements"][0]["text"])
