"""Reading claims through the Slack adapter, as transcripts against the fake Slack with signed requests:
a claim updates the card in place, two people pressing at once both end up on it, a duplicate delivery
is recorded once, and "Done" asks for a takeaway in a modal that later answers quote."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from sqlalchemy import func, select

from chatbot.messages import say
from chatbot.models import Message
from chatbot.store.reading import ReadingClaimRow
from tests.adapters.slack.conftest import SlackHarness
from tests.fakes.slack import WAIT, Shown, mention
from tests.reports.fixtures import REPO


def _card_buttons(slack: SlackHarness) -> dict[str, dict[str, Any]]:
    """The W25 report card's buttons, by action id, once the bot has shown it in the channel."""
    slack.event(mention(f"周报 {REPO} 2026-W25", ts="1750000000.000200"))
    card = _card(slack)
    blocks = card.blocks
    return {
        e["action_id"]: e for b in blocks if b["type"] == "actions" for e in b["elements"] if "action_id" in e
    }


def _card(slack: SlackHarness, *texts: str) -> Shown:
    """The card as the channel shows it, once it has the reading buttons and every one of `texts`."""

    def ready() -> bool:
        shown = slack.fake.shown()
        content = json.dumps(shown[-1].blocks, ensure_ascii=False) if shown else ""
        return "team_claim:" in content and all(t in content for t in texts)

    deadline = time.monotonic() + WAIT
    while not ready():
        assert time.monotonic() < deadline, f"the card never showed {texts}: {slack.fake.shown()}"
        time.sleep(0.01)
    return slack.fake.shown()[-1]


def _click(slack: SlackHarness, button: dict[str, Any], user: str, name: str, ts: str) -> None:
    card_ts = _card(slack).ts
    payload = {
        "type": "block_actions",
        "user": {"id": user, "username": name, "team_id": "T1"},
        "team": {"id": "T1"},
        "channel": {"id": "C1"},
        "container": {"type": "message", "message_ts": card_ts, "channel_id": "C1", "is_ephemeral": False},
        "message": {"ts": card_ts, "thread_ts": "1750000000.000200"},
        "trigger_id": f"trigger-{user}-{ts}",
        "actions": [{**button, "action_ts": ts}],
    }
    assert slack.interact(payload).status_code == 200


def test_a_claim_updates_the_card_in_place_for_everyone(slack: SlackHarness):
    buttons = _card_buttons(slack)
    claim = buttons["team_claim:101"]
    assert claim["text"]["text"] == say("reading.button.claim", "zh", number=101)
    _click(slack, claim, "U2", "li", "1750000001.000001")
    card = _card(slack, say("reading.reading", "zh", names="@li"))
    assert card.channel == "C1" and card.updates >= 2  # the answer in place of "thinking", then the claim


def test_two_people_pressing_at_once_are_both_on_the_card(slack: SlackHarness, db):
    claim = _card_buttons(slack)["team_claim:101"]
    clicks = [
        threading.Thread(target=_click, args=(slack, claim, user, name, f"1750000002.00000{i}"))
        for i, (user, name) in enumerate((("U3", "wang"), ("U4", "zhao")))
    ]
    for thread in clicks:
        thread.start()
    for thread in clicks:
        thread.join()
    slack.adapter.reading.close()  # every queued update done
    shown = json.dumps(slack.fake.shown()[-1].blocks, ensure_ascii=False)
    assert "@wang" in shown and "@zhao" in shown
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(ReadingClaimRow)) == 2


def test_a_duplicate_delivery_of_a_click_is_recorded_once(slack: SlackHarness, db):
    claim = _card_buttons(slack)["team_claim:102"]
    for _ in range(2):  # Slack delivering the same click twice
        _click(slack, claim, "U2", "li", "1750000003.000001")
    slack.adapter.reading.close()
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(ReadingClaimRow)) == 1


def test_done_asks_for_a_takeaway_that_the_card_and_later_answers_quote(slack: SlackHarness):
    done = _card_buttons(slack)["team_done:101"]
    _click(slack, done, "U2", "li", "1750000004.000001")
    (opened,) = slack.fake.wait_for("views.open")
    view = (
        json.loads(opened.params["view"]) if isinstance(opened.params["view"], str) else opened.params["view"]
    )
    assert opened.params["trigger_id"] == "trigger-U2-1750000004.000001"
    takeaway = "流水线并行的切分方式值得学习"
    submission = {
        "type": "view_submission",
        "user": {"id": "U2", "username": "li", "team_id": "T1"},
        "team": {"id": "T1"},
        "view": {
            **view,
            "id": "V1",
            "state": {
                "values": {"takeaway": {"takeaway_input": {"type": "plain_text_input", "value": takeaway}}}
            },
        },
    }
    assert slack.interact(submission).status_code == 200
    _card(slack, say("reading.done", "zh", names="@li"), takeaway)
    answer = slack.bot.handle(Message(f"{REPO} #101 讲了什么"))
    assert takeaway in answer.reply.plain_text()
