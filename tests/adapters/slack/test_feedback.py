"""👍 / 👎 through the Slack adapter, as transcripts against the fake Slack with signed requests: an answer
carries Slack's own feedback buttons (plain buttons where Slack refuses those), a 👎 asks for its reason
in a modal, the vote is recorded once under duplicate deliveries, and only the voter gives its reason."""

from __future__ import annotations

import json
import time
from typing import Any

from chatbot.messages import say
from chatbot.team.feedback import FEEDBACK_ACTION, feedback_list, parse_feedback_value
from tests.adapters.slack.conftest import SlackHarness
from tests.fakes.slack import WAIT, Shown, mention
from tests.reports.fixtures import REPO

QUESTION = "widgets 上周有哪些风险？"


def _answer(slack: SlackHarness, marker: str) -> Shown:
    """The answer as the channel shows it, once its blocks contain `marker`."""
    deadline = time.monotonic() + WAIT
    while True:
        shown = slack.fake.shown()
        if shown and marker in json.dumps(shown[-1].blocks):
            return shown[-1]
        assert time.monotonic() < deadline, f"no answer with {marker}: {shown}"
        time.sleep(0.01)


def _feedback_element(answer: Shown) -> dict[str, Any]:
    (block,) = [b for b in answer.blocks if b["type"] == "context_actions"]
    (element,) = block["elements"]
    return element


def _click(
    slack: SlackHarness, answer: Shown, action: dict[str, Any], user: str = "U2", name: str = "li"
) -> None:
    payload = {
        "type": "block_actions",
        "user": {"id": user, "username": name, "team_id": "T1"},
        "team": {"id": "T1"},
        "channel": {"id": answer.channel},
        "container": {"type": "message", "message_ts": answer.ts, "channel_id": answer.channel},
        "message": {"ts": answer.ts},
        "trigger_id": f"trigger-{user}",
        "actions": [{**action, "action_ts": "1750000009.000001"}],
    }
    assert slack.interact(payload).status_code == 200


def _submit(slack: SlackHarness, view: dict[str, Any], reason: str, text: str, user: str = "U2") -> None:
    values = {
        "reason": {"reason_input": {"type": "radio_buttons", "selected_option": {"value": reason}}},
        "reason_text": {"reason_text_input": {"type": "plain_text_input", "value": text}},
    }
    submission = {
        "type": "view_submission",
        "user": {"id": user, "username": "someone", "team_id": "T1"},
        "team": {"id": "T1"},
        "view": {**view, "id": "V1", "state": {"values": values}},
    }
    assert slack.interact(submission).status_code == 200


def _opened_view(slack: SlackHarness) -> dict[str, Any]:
    view = slack.fake.wait_for("views.open")[-1].params["view"]
    return json.loads(view) if isinstance(view, str) else view


def test_a_thumbs_down_with_a_reason_is_recorded_with_the_question_and_its_cited_prs(slack: SlackHarness, db):
    slack.event(mention(QUESTION, ts="1750000000.000300"))
    answer = _answer(slack, "feedback_buttons")
    element = _feedback_element(answer)
    assert element["action_id"] == FEEDBACK_ACTION
    assert element["positive_button"]["text"]["text"] == say("feedback.button.up", "zh")
    down = {
        "type": "feedback_buttons",
        "action_id": FEEDBACK_ACTION,
        "value": element["negative_button"]["value"],
    }
    for _ in range(2):  # Slack delivering the same click twice
        _click(slack, answer, down)
    view = _opened_view(slack)
    assert view["title"]["text"] == say("feedback.modal.title", "zh")
    options = view["blocks"][0]["element"]["options"]
    assert [o["text"]["text"] for o in options][:2] == [
        say("feedback.reason.wrong_prs", "zh"),
        say("feedback.reason.missing_pr", "zh"),
    ]
    _submit(slack, view, "missing_pr", "漏了 #106 的显存风险")
    [vote] = feedback_list(db)
    assert (vote.platform, vote.user_id, vote.name, vote.vote) == ("slack", "U2", "li", "down")
    assert (vote.reason, vote.reason_text) == ("missing_pr", "漏了 #106 的显存风险")
    assert vote.question == QUESTION and vote.repo == REPO and 102 in vote.cited


def test_only_the_voter_gives_the_reason_of_their_thumbs_down(slack: SlackHarness, db):
    slack.event(mention(QUESTION, ts="1750000000.000400"))
    answer = _answer(slack, "feedback_buttons")
    element = _feedback_element(answer)
    _click(
        slack,
        answer,
        {
            "type": "feedback_buttons",
            "action_id": FEEDBACK_ACTION,
            "value": element["negative_button"]["value"],
        },
    )
    view = _opened_view(slack)
    _submit(slack, view, "wrong_window", "not mine", user="U9")
    [vote] = feedback_list(db)
    assert vote.reason is None and vote.reason_text is None
    _click(
        slack,
        answer,
        {
            "type": "feedback_buttons",
            "action_id": FEEDBACK_ACTION,
            "value": element["positive_button"]["value"],
        },
    )
    assert [v.vote for v in feedback_list(db)] == ["up"]  # a change of mind: the same vote, now 👍


def test_where_slack_refuses_its_feedback_buttons_the_answer_has_plain_ones(slack: SlackHarness, db):
    slack.fake.fail("chat.update", "invalid_blocks")
    slack.fake.fail("chat.postMessage", "invalid_blocks", after=1)
    slack.event(mention(QUESTION, ts="1750000000.000500"))
    answer = _answer(slack, f"{FEEDBACK_ACTION}:down")
    assert "context_actions" not in json.dumps(answer.blocks)
    buttons = {e["action_id"]: e for b in answer.blocks if b["type"] == "actions" for e in b["elements"]}
    up = buttons[f"{FEEDBACK_ACTION}:up"]
    parsed = parse_feedback_value(up["value"])
    assert parsed is not None and parsed[0] == "up" and parsed[1].question == QUESTION
    _click(slack, answer, {"type": "button", "action_id": up["action_id"], "value": up["value"]})
    assert [(v.vote, v.user_id) for v in feedback_list(db)] == [("up", "U2")]
    assert slack.fake.called("views.open") == []  # a 👍 asks nothing


def test_a_report_card_carries_feedback_buttons(slack: SlackHarness):
    slack.event(mention(f"周报 {REPO} 2026-W25", ts="1750000000.000600"))
    card = _answer(slack, "feedback_buttons")
    value = _feedback_element(card)["negative_button"]["value"]
    parsed = parse_feedback_value(value)
    assert parsed is not None and parsed[1].cited[:2] == (101, 102)
