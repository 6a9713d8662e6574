"""The Feishu bot menu and the subscription card form, end to end: encrypted, signed pushes of
`application.bot.menu_v6` and `card.action.trigger` to the Feishu app, lark's client against the fake
Open API (which checks the form's shape). Edits run the same SubscriptionService as typed commands."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import select

from adapters.feishu.card import escape
from adapters.feishu.menu import EDIT_ACTION, SAVE_PREFIX, describe
from chatbot.commands import parse_command
from chatbot.messages import say
from chatbot.models import Message
from chatbot.store.schema import SubscriptionEventRow, SubscriptionRow
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService
from tests.adapters.feishu.conftest import TOKEN, FeishuHarness
from tests.fakes.feishu import Sent, bot_menu, card_action, form_submit
from tests.reports.fixtures import REPO

TENANT = "tenant-1"
FORM = {"weekday": "fri", "time": "18:00", "tz": "Asia/Shanghai", "lang": "zh"}


def manage(feishu: FeishuHarness, admins: frozenset[str] = frozenset()) -> None:
    """The bot takes subscription commands (PRHUB_ADMINS = `admins`); oc_team and oc_other subscribe;
    ou_alice is in oc_team only."""
    service = SubscriptionService(
        feishu.bot.db, feishu.bot.clock, SubscriptionPolicy("Asia/Shanghai", admins)
    )
    feishu.bot.subscriptions = service
    for chat in ("oc_team", "oc_other"):
        command = parse_command(f"订阅 {REPO} 周五 18:00")
        assert command is not None
        setter = min(admins, default="ou_setter")
        service.execute(
            command, Message("", platform="feishu", workspace=TENANT, channel=chat, user=setter), "zh"
        )
    feishu.fake.members = {"oc_team": ["ou_alice", "ou_bob"], "oc_other": ["ou_bob"]}


def subscription(feishu: FeishuHarness, chat: str) -> SubscriptionRow:
    with feishu.bot.db.session() as session:
        row = session.scalar(select(SubscriptionRow).where(SubscriptionRow.channel == chat))
        assert row is not None
        session.expunge(row)
        return row


def open_menu(feishu: FeishuHarness, operator: str = "ou_alice") -> Sent:
    assert feishu.push(bot_menu(TOKEN, operator=operator)).status_code == 200
    [card] = [s for s in feishu.shown() if s.target == operator]
    return card


def test_the_menu_sends_the_user_the_subscriptions_of_their_groups_and_what_to_ask(feishu: FeishuHarness):
    manage(feishu)
    card = open_menu(feishu)
    assert (card.kind, card.msg_type) == ("create", "interactive")
    text = json.dumps(card.content, ensure_ascii=False)
    line = escape(describe(subscription(feishu, "oc_team"), REPO, "zh"))
    assert line in text and text.count(EDIT_ACTION) == 1  # oc_team, not oc_other
    assert f'"id": {subscription(feishu, "oc_team").id}' in text
    assert say("home.ask", "zh") in text


def test_without_the_members_permission_the_menu_says_so(feishu: FeishuHarness):
    manage(feishu)
    feishu.fake.members_readable = False
    text = json.dumps(open_menu(feishu).content, ensure_ascii=False)
    assert say("feishu.menu.chats_unknown", "zh").split("（")[0] in text and EDIT_ACTION not in text


def edit(feishu: FeishuHarness, menu: Sent, row: SubscriptionRow) -> dict[str, Any]:
    value = {"action": EDIT_ACTION, "id": row.id}
    response = feishu.push(card_action(value, TOKEN, message_id=menu.message_id, chat_id="oc_p2p_alice"))
    assert response.json()["toast"]["type"] == "info"
    [form_card] = [s for s in feishu.shown() if s.message_id == menu.message_id]
    return form_card.content


def save(feishu: FeishuHarness, menu: Sent, row: SubscriptionRow, operator: str = "ou_alice", **changes: str):
    button = f"{SAVE_PREFIX}{row.id}"
    payload = form_submit(button, FORM | changes, TOKEN, operator=operator, message_id=menu.message_id)
    return feishu.push(payload).json()["toast"]


def test_edit_turns_the_menu_card_into_a_form_filled_with_the_subscription(feishu: FeishuHarness):
    manage(feishu)
    menu = open_menu(feishu)
    card = edit(feishu, menu, subscription(feishu, "oc_team"))
    [form] = [e for e in card["body"]["elements"] if e["tag"] == "form"]
    fields = {e["name"]: e for e in form["elements"]}
    assert fields["weekday"]["initial_option"] == "fri"
    assert fields["time"]["default_value"] == "18:00"
    assert fields[f"{SAVE_PREFIX}{subscription(feishu, 'oc_team').id}"]["form_action_type"] == "submit"


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"weekday": "wed", "time": "10:30"}, {"weekday": 3, "time_of_day": "10:30"}),
        ({"tz": "Europe/Berlin", "lang": "en"}, {"timezone": "Europe/Berlin", "language": "en"}),
        (
            {"modules": "megatron, fsdp", "min_importance": "7"},
            {"filters": {"modules": ["megatron", "fsdp"], "min_importance": 7.0}},
        ),
    ],
)
def test_a_saved_form_changes_the_subscription_audits_and_announces_it(
    feishu: FeishuHarness, changes: dict[str, str], expected: dict[str, Any]
):
    manage(feishu)
    menu = open_menu(feishu)
    row = subscription(feishu, "oc_team")
    assert save(feishu, menu, row, **changes)["type"] == "success"
    feishu.settle()
    changed = subscription(feishu, "oc_team")
    assert {key: getattr(changed, key) for key in expected} == expected
    with feishu.bot.db.session() as session:
        [event] = session.scalars(
            select(SubscriptionEventRow).where(
                SubscriptionEventRow.subscription_id == row.id, SubscriptionEventRow.action == "updated"
            )
        ).all()
        assert event.actor == "ou_alice"
    [announcement] = [s for s in feishu.fake.shown() if s.target == "oc_team"]
    assert REPO in json.dumps(announcement.content, ensure_ascii=False)
    assert subscription(feishu, "oc_other").time_of_day == "18:00"


def test_a_form_saved_by_someone_not_an_admin_is_refused_and_changes_nothing(feishu: FeishuHarness):
    manage(feishu, admins=frozenset({"ou_admin"}))
    menu = open_menu(feishu)
    toast = save(feishu, menu, subscription(feishu, "oc_team"), weekday="mon")
    assert (toast["type"], toast["content"]) == ("error", say("sub.refused.permission", "zh"))
    feishu.settle()
    assert subscription(feishu, "oc_team").weekday == 5
    assert not [s for s in feishu.fake.shown() if s.target == "oc_team"]
    with feishu.bot.db.session() as session:
        actions = [
            e.action
            for e in session.scalars(
                select(SubscriptionEventRow).where(SubscriptionEventRow.actor == "ou_alice")
            )
        ]
    assert actions == ["refused"]


@pytest.mark.parametrize("changes", [{"tz": "Mars/Olympus"}, {"time": "25:99"}, {"min_importance": "11"}])
def test_a_form_with_a_bad_field_is_refused_with_what_is_wrong(
    feishu: FeishuHarness, changes: dict[str, str]
):
    manage(feishu)
    menu = open_menu(feishu)
    toast = save(feishu, menu, subscription(feishu, "oc_team"), **changes)
    assert toast["type"] == "error" and next(iter(changes.values())) in toast["content"]
    assert subscription(feishu, "oc_team").timezone == "Asia/Shanghai"


def test_a_menu_card_of_many_subscriptions_fits_feishus_card_limits(feishu: FeishuHarness):
    manage(feishu)
    service = feishu.bot.subscriptions
    assert service is not None
    chats = [f"oc_many_{n}" for n in range(50)]
    for chat in chats:
        command = parse_command(f"订阅 {REPO}")
        assert command is not None
        service.execute(
            command, Message("", platform="feishu", workspace=TENANT, channel=chat, user="ou_s"), "zh"
        )
        feishu.fake.members[chat] = ["ou_alice"]
    card = open_menu(feishu).content
    body = json.dumps(card, ensure_ascii=False)
    assert len(body.encode()) < 30_000
    assert body.count('"tag"') < 200  # components, counted generously
    assert escape(say("qa.more", "zh", n=31)) in body  # oc_team and 50 more: 20 shown
