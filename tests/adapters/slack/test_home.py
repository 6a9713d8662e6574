"""The App Home tab and the subscription modal, end to end through signed events and interactions to
the bolt app; the fake Web API checks views.publish / views.open against Block Kit's limits. Edits run
the same SubscriptionService as typed commands: permission, validation and audit alike."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import select

from adapters.slack.home import EDIT_ACTION, EDIT_VIEW
from chatbot.commands import parse_command
from chatbot.messages import say
from chatbot.models import Message
from chatbot.store.schema import SubscriptionEventRow, SubscriptionRow
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService
from tests.adapters.slack.conftest import SlackHarness
from tests.fakes.slack import TEAM_ID, home_opened
from tests.reports.fixtures import REPO


def manage(slack: SlackHarness, admins: frozenset[str] = frozenset()) -> None:
    """The bot takes subscription commands (with PRHUB_ADMINS = `admins`); C1 and C2 subscribe."""
    service = SubscriptionService(slack.bot.db, slack.bot.clock, SubscriptionPolicy("Asia/Shanghai", admins))
    slack.bot.subscriptions = service
    setter = min(admins, default="UA")
    for channel in ("C1", "C2"):
        command = parse_command(f"订阅 {REPO} 周五 18:00")
        assert command is not None
        service.execute(
            command, Message("", platform="slack", workspace=TEAM_ID, channel=channel, user=setter), "zh"
        )


def subscription(slack: SlackHarness, channel: str) -> SubscriptionRow:
    with slack.bot.db.session() as session:
        row = session.scalar(select(SubscriptionRow).where(SubscriptionRow.channel == channel))
        assert row is not None
        session.expunge(row)
        return row


def published(slack: SlackHarness) -> dict[str, Any]:
    call = slack.fake.wait_for("views.publish")[-1]
    view = call.params["view"]
    return json.loads(view) if isinstance(view, str) else view


def test_the_home_tab_lists_the_subscriptions_of_the_users_channels_and_what_to_ask(slack: SlackHarness):
    manage(slack)
    slack.fake.memberships["U1"] = ["C1", "C7"]  # not in C2
    slack.event(home_opened("U1"), "Ev-home")
    view = published(slack)
    text = json.dumps(view, ensure_ascii=False)
    assert "<#C1>" in text and "<#C2>" not in text
    assert "周五 18:00" in text
    [button] = [
        b["accessory"] for b in view["blocks"] if b.get("accessory", {}).get("action_id") == EDIT_ACTION
    ]
    assert button["value"] == str(subscription(slack, "C1").id)
    assert say("home.ask", "zh") in text and say("qa.example.risks", "zh", repo="widgets") in text


def test_without_the_channel_scopes_the_home_tab_says_so_and_still_shows_what_to_ask(slack: SlackHarness):
    manage(slack)
    slack.fake.channels_readable = False
    slack.event(home_opened("U1"), "Ev-home")
    text = json.dumps(published(slack), ensure_ascii=False)
    assert say("home.subscriptions.unknown", "zh") in text and say("home.ask", "zh") in text


def click_edit(slack: SlackHarness, row: SubscriptionRow, user: str = "U1") -> dict[str, Any]:
    action = {
        "action_id": EDIT_ACTION,
        "block_id": "b",
        "value": str(row.id),
        "type": "button",
        "action_ts": "1.1",
    }
    payload = {
        "type": "block_actions",
        "user": {"id": user},
        "team": {"id": TEAM_ID},
        "trigger_id": f"trigger-{user}",
        "container": {"type": "view", "view_id": "V1"},
        "actions": [action],
    }
    assert slack.interact(payload).status_code == 200
    view = slack.fake.wait_for("views.open")[-1].params["view"]
    return json.loads(view) if isinstance(view, str) else view


def submit(slack: SlackHarness, modal: dict[str, Any], user: str = "U1", **changes: Any) -> Any:
    values: dict[str, Any] = {
        "weekday": {
            "value": {"type": "static_select", "selected_option": {"value": changes.get("weekday", "fri")}}
        },
        "time": {"value": {"type": "timepicker", "selected_time": changes.get("time", "18:00")}},
        "tz": {"value": {"type": "plain_text_input", "value": changes.get("tz", "Asia/Shanghai")}},
        "lang": {"value": {"type": "static_select", "selected_option": {"value": changes.get("lang", "zh")}}},
        "modules": {"value": {"type": "plain_text_input", "value": changes.get("modules")}},
        "min_importance": {"value": {"type": "number_input", "value": changes.get("min_importance")}},
        "exclude_authors": {"value": {"type": "plain_text_input", "value": None}},
    }
    payload = {
        "type": "view_submission",
        "team": {"id": TEAM_ID},
        "user": {"id": user},
        "trigger_id": "trigger-submit",
        "view": {
            "id": "V2",
            "type": "modal",
            "callback_id": EDIT_VIEW,
            "private_metadata": modal["private_metadata"],
            "state": {"values": values},
        },
    }
    response = slack.interact(payload)
    assert response.status_code == 200
    return response.json() if response.text else None


def test_edit_opens_a_modal_filled_with_the_subscription(slack: SlackHarness):
    manage(slack)
    modal = click_edit(slack, subscription(slack, "C1"))
    fields = {b["block_id"]: b["element"] for b in modal["blocks"] if b["type"] == "input"}
    assert fields["weekday"]["initial_option"]["value"] == "fri"
    assert fields["time"]["initial_time"] == "18:00"
    assert fields["tz"]["initial_value"] == "Asia/Shanghai"


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"weekday": "wed", "time": "10:30"}, {"weekday": 3, "time_of_day": "10:30", "filters": {}}),
        ({"tz": "Europe/Berlin", "lang": "en"}, {"timezone": "Europe/Berlin", "language": "en"}),
        (
            {"modules": "megatron, fsdp", "min_importance": "6.5"},
            {"filters": {"modules": ["megatron", "fsdp"], "min_importance": 6.5}},
        ),
    ],
)
def test_a_modal_submission_changes_the_subscription_audits_and_announces_it(
    slack: SlackHarness, changes: dict[str, str], expected: dict[str, Any]
):
    manage(slack)
    slack.fake.memberships["U1"] = ["C1"]
    modal = click_edit(slack, subscription(slack, "C1"))
    assert submit(slack, modal, **changes) is None  # closes the modal
    slack.drain()
    row = subscription(slack, "C1")
    assert {key: getattr(row, key) for key in expected} == expected
    with slack.bot.db.session() as session:
        [event] = session.scalars(
            select(SubscriptionEventRow).where(
                SubscriptionEventRow.subscription_id == row.id, SubscriptionEventRow.action == "updated"
            )
        ).all()
        assert event.actor == "U1"
    [announcement] = slack.fake.shown("C1")
    assert REPO in announcement.text
    assert subscription(slack, "C2").time_of_day == "18:00"  # the other channel's is untouched
    slack.fake.wait_for("views.publish")  # the Home tab refreshed


def test_a_submission_by_someone_not_an_admin_is_refused_in_the_modal_and_changes_nothing(
    slack: SlackHarness,
):
    manage(slack, admins=frozenset({"UADMIN"}))
    modal = click_edit(slack, subscription(slack, "C1"), user="U1")
    answer = submit(slack, modal, user="U1", weekday="mon")
    assert answer["response_action"] == "update"
    assert say("sub.refused.permission", "zh") in json.dumps(answer["view"], ensure_ascii=False)
    slack.drain()
    assert subscription(slack, "C1").weekday == 5
    assert slack.fake.shown("C1") == []
    with slack.bot.db.session() as session:
        actions = [
            e.action
            for e in session.scalars(select(SubscriptionEventRow).where(SubscriptionEventRow.actor == "U1"))
        ]
    assert actions == ["refused"]


def test_an_admin_may_change_it(slack: SlackHarness):
    manage(slack, admins=frozenset({"UADMIN"}))
    modal = click_edit(slack, subscription(slack, "C1"), user="UADMIN")
    assert submit(slack, modal, user="UADMIN", weekday="mon") is None
    slack.drain()
    assert subscription(slack, "C1").weekday == 1


def test_an_unknown_timezone_is_a_field_error_and_changes_nothing(slack: SlackHarness):
    manage(slack)
    modal = click_edit(slack, subscription(slack, "C1"))
    answer = submit(slack, modal, tz="Mars/Olympus")
    assert answer == {"response_action": "errors", "errors": {"tz": say("home.modal.bad_tz", "zh")}}
    assert subscription(slack, "C1").timezone == "Asia/Shanghai"


def test_a_home_tab_of_many_subscriptions_fits_slacks_view_limits(slack: SlackHarness):
    manage(slack)
    service = slack.bot.subscriptions
    assert service is not None
    channels = [f"CX{n}" for n in range(60)]
    for channel in channels:
        command = parse_command(f"订阅 {REPO}")
        assert command is not None
        service.execute(
            command, Message("", platform="slack", workspace=TEAM_ID, channel=channel, user="UA"), "zh"
        )
    slack.fake.memberships["U1"] = channels
    slack.event(home_opened("U1"), "Ev-home")
    view = published(slack)  # the fake refuses more than 100 blocks
    text = json.dumps(view, ensure_ascii=False)
    assert say("qa.more", "zh", n=20) in text and say("home.ask", "zh") in text
