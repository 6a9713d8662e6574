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
)
from chatbot.messages import say
from chatbot.models import Actions, BulletList, Button, Heading, Paragraph, Reply, plain
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

# INJECTION as Slack must receive it: entities for & < >, a joiner after the @ of @here, look-alikes for _
INERT = (
    '&lt;!channel&gt; 紧急 @all &lt;at user\u02cdid="all"&gt;&lt;/at&gt; [x](javascript:alert(1)) '
    "&lt;@U123&gt; @\u200dhere &lt;http://evil|click&gt;"
)
# A `<` in mrkdwn may only open one of our own links.
OUR_LINK = re.compile(r"<https?://[^\s<>|]+\|")


def assert_valid(message: SlackMessage) -> None:
    """What Slack would refuse: slack_sdk's validators, plus what they leave out (unknown keys, empty
    text, field length, the message totals)."""
    assert message["text"] and len(message["text"]) <= MAX_FALLBACK_TEXT
    assert 0 < len(message["blocks"]) <= MAX_BLOCKS
    assert _text_length(message["blocks"]) <= MAX_BLOCK_TEXT
    for block in message["blocks"]:
        model = Block.parse(block)
        assert model is not None
        model.validate_json()
        assert model.to_dict() == block  # nothing unknown, nothing dropped
        for text in _texts(block):
            assert text["text"].strip()
            if text["type"] == "mrkdwn":
                assert text["verbatim"] is True
        for field in block.get("fields", []):
            assert len(field["text"]) <= MAX_FIELD_TEXT


def _texts(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        own = [value] if value.get("type") in ("mrkdwn", "plain_text") else []
        return own + [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _mrkdwn(messages: list[SlackMessage]) -> list[str]:
    return [t["text"] for m in messages for t in _texts(m["blocks"]) if t["type"] == "mrkdwn"]


def _bullets(messages: list[SlackMessage]) -> list[str]:
    return [line for text in _mrkdwn(messages) for line in text.split("\n") if line.startswith("• ")]


def test_the_card_is_one_valid_message_with_title_sections_table_and_buttons():
    report = written_week()
    [message] = render_blocks(report_card(report, links(report)), max_messages=1)
    assert_valid(message)
    blocks = message["blocks"]
    assert blocks[0] == {
        "type": "header",
        "text": {"type": "plain_text", "text": report.title, "emoji": True},
    }
    text = "\n".join(_mrkdwn([message]))
    for heading in ("report.section.highlights", "report.section.risks", "report.section.key_prs"):
        assert f"\u200b*{say(heading, 'zh')}*\u200b" in text
    assert f"<https://github.com/acme/widgets/pull/{INJECTED_PR}|#{INJECTED_PR}>" in text
    assert message["text"].startswith(report.title)
    buttons = blocks[-1]["elements"]
    assert buttons[0]["url"] == links(report).page and buttons[0]["style"] == "primary"
    assert buttons[-1] == {
        "type": "button",
        "text": {"type": "plain_text", "text": say("report.button.risks", "zh"), "emoji": True},
        "action_id": "report_risks",
        "value": f"{report.repo} {report.label}",
    }


def test_a_key_pr_row_is_one_compact_line():
    report = written_week()
    [message] = render_blocks(report_card(report, links(report)))
    rows = [line for text in _mrkdwn([message]) for line in text.split("\n") if line.startswith("<https://")]
    assert rows[1] == (
        "<https://github.com/acme/widgets/pull/101|#101> — [megatron] feat: pipeline parallel for Qwen3 — "
        "megatron — 8.5 — look at the loop"
    )


def test_the_full_document_keeps_every_line_of_the_report():
    report = written_week()
    document = report_document(report, links(report))
    messages = render_blocks(document)
    for message in messages:
        assert_valid(message)
    text = "\n".join(_mrkdwn(messages))
    assert escape(report.executive_summary) in text
    assert all(f"|#{number}>" in text for number in report.prs)
    assert len(_bullets(messages)) == sum(len(b.items) for b in document.blocks if isinstance(b, BulletList))


def test_the_injection_title_stays_inert_in_card_and_document():
    report = written_week()
    for reply in (report_card(report, links(report)), report_document(report, links(report))):
        messages = render_blocks(reply)
        texts = _mrkdwn(messages) + [m["text"] for m in messages]
        assert any(INERT in text for text in texts)
        for text in texts:
            assert OUR_LINK.sub("", text).count("<") == 0
            assert "<!" not in text and "<@" not in text and "<http://evil" not in text
            assert not re.search(r"@(here|channel|everyone)\b", text)


def test_every_kind_of_block_escapes_its_spans():
    messages = render_blocks(injected_reply())
    [message] = messages
    assert_valid(message)
    blocks = message["blocks"]
    # plain_text is never parsed by Slack: the header and button labels keep their characters
    assert blocks[0]["text"]["text"] == INJECTION
    paragraph, links_paragraph = blocks[1]["text"]["text"], blocks[2]["text"]["text"]
    assert paragraph == f"{INERT}\u200b*{INERT}*\u200b\u200b`{INERT}`\u200b"
    assert links_paragraph == f"<https://github.com/acme/widgets/pull/1|{INERT}>bad"
    assert blocks[3]["text"]["text"] == f"1. {INERT}"
    assert blocks[4]["fields"][0]["text"] == f"\u200b*{INERT}*\u200b\n{INERT}"
    assert blocks[5]["text"]["text"] == f"\u200b_{INERT}_\u200b\n{INERT}"
    assert blocks[6]["elements"][0]["text"] == INERT
    # the javascript: button is left out; the action button keeps its value as data
    assert blocks[8]["elements"] == [
        {
            "type": "button",
            "text": {"type": "plain_text", "text": INJECTION[:40], "emoji": True},
            "action_id": "report_risks",
            "value": INJECTION,
        }
    ]
    assert all("javascript" not in str(b.get("url", "")) for b in blocks[8]["elements"])


def test_formatting_characters_become_look_alikes_and_a_leading_quote_stays_text():
    assert (
        escape("*bold* _it_ ~s~ `c` a&b")
        == "\u2217bold\u2217 \u02cdit\u02cd \u223cs\u223c \u02cbc\u02cb a&amp;b"
    )
    assert (
        escape("line\nbreak @channel @Everyone @hereafter")
        == "line break @\u200dchannel @\u200dEveryone @hereafter"
    )
    [message] = render_blocks(Reply((Paragraph((plain("> quoted"),)),)))
    assert message["blocks"][0]["text"]["text"] == "\u00ad&gt; quoted"


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
    assert len(_bullets(document)) == items


def test_a_long_document_is_split_into_a_thread_without_losing_a_line():
    reply = long_reply(2000)
    messages = render_blocks(reply)
    assert len(messages) > 1
    for message in messages:
        assert_valid(message)
    numbers = [int(line.split()[2]) for line in _bullets(messages)]
    assert numbers == list(range(2000))
    assert [m["text"] for m in messages[1:3]] == [
        f"A very long reply (2/{len(messages)})",
        f"A very long reply (3/{len(messages)})",
    ]


def test_a_split_never_leaves_a_heading_at_the_end_of_a_message():
    messages = render_blocks(long_reply(2000))
    for message in messages[:-1]:
        assert not any(t["text"].startswith("\u200b*Part") for t in _texts(message["blocks"][-1]))


def test_a_capped_reply_is_truncated_with_and_n_more_linking_the_full_report():
    reply = long_reply(2000)
    [message] = render_blocks(reply, max_messages=1)
    assert_valid(message)
    shown = len(_bullets([message]))
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
    assert message["blocks"][-1]["text"]["text"] == f"line {MAX_BLOCKS - 1}"


def test_a_quiet_week_is_one_line():
    report = quiet_week()
    [message] = render_blocks(report_card(report))
    assert message["blocks"] == [
        {"type": "section", "text": {"type": "mrkdwn", "text": escape(report.headline), "verbatim": True}}
    ]
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
    assert len(message["blocks"][1]["text"]["text"]) == MAX_SECTION_TEXT
    # a URL past 3,000 characters would break if shortened: that button is left out
    assert [b.get("action_id") for b in message["blocks"][3]["elements"]] == ["a"]
    assert json.dumps(message)  # plain JSON, ready for chat.postMessage
