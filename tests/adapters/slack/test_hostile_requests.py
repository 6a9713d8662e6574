"""What an anonymous client or an odd signed payload gets from `/slack/events`: the signature is judged
before anything is parsed, refusals are 4xx with no traceback and no body in the log, and the body size
is bounded."""

from __future__ import annotations

import json
import logging

import requests

from adapters.slack.app import EVENTS_PATH
from tests.adapters.slack.conftest import FORM, JSON, SlackHarness
from tests.fakes.slack import TEAM_ID, mention, signed

MARKER = "hostile-body-marker"


def unsigned(slack: SlackHarness, body: bytes, headers: dict[str, str]) -> requests.Response:
    return requests.post(
        slack.url + EVENTS_PATH, data=body, headers={"Connection": "close", **headers}, timeout=5
    )


BODIES = [b"{", b"[]", b"null", b"\xff\xfe\xfd", f'{{"type": "{MARKER}"}}'.encode(), b"payload={"]
FORGED_HEADERS = [
    {},
    {"X-Slack-Request-Timestamp": "soon", "X-Slack-Signature": "v0=00"},
    {"X-Slack-Request-Timestamp": "1750000000", "X-Slack-Signature": "v0=é".encode().decode("latin-1")},
    {"X-Slack-Request-Timestamp": "٣٤٥".encode().decode("latin-1"), "X-Slack-Signature": "v0=00"},
]


def test_an_unsigned_request_is_a_401_whatever_its_body(slack: SlackHarness, caplog):
    """No signature, a timestamp that is not a number (or not ASCII digits), a non-ASCII signature;
    one server for all the cases (fewer server restarts, see BackgroundServer.stop)."""
    caplog.set_level(logging.DEBUG)
    for body in BODIES:
        for headers in FORGED_HEADERS:
            response = unsigned(slack, body, {"Content-Type": JSON, **headers})
            assert response.status_code == 401, (body, headers)
    assert MARKER not in caplog.text
    assert "Traceback" not in caplog.text
    slack.drain()
    assert slack.fake.called("chat.postMessage") == []


def test_a_refused_body_is_logged_by_its_size_only(slack: SlackHarness, caplog):
    caplog.set_level(logging.DEBUG)
    body = (MARKER * 1000).encode()
    assert unsigned(slack, body, {"Content-Type": JSON}).status_code == 401
    assert MARKER not in caplog.text
    assert f"{len(body)} bytes" in caplog.text


def test_a_body_above_one_mebibyte_is_a_413(slack: SlackHarness):
    body = json.dumps({"type": "event_callback", "padding": "x" * (2 << 20)})
    assert slack.post(body, JSON).status_code == 413


def test_a_signed_body_that_is_not_a_slack_payload_is_a_400(slack: SlackHarness, caplog):
    for body in (
        "{",
        "[]",
        "null",
        json.dumps({"type": "event_callback", "event": None, "team_id": TEAM_ID}),
        json.dumps({"type": "event_callback", "event": "x", "team_id": TEAM_ID}),
        "payload=%7Bnot-json",
        "payload=%5B%5D",
    ):
        response = slack.post(body, FORM if body.startswith("payload") else JSON)
        assert response.status_code == 400, body
    assert "Traceback" not in caplog.text


def test_a_signed_event_with_fields_of_the_wrong_type_is_a_4xx_not_a_500(slack: SlackHarness, caplog):
    event = {**mention("hi"), "text": 5, "channel": ["C1"]}
    body = json.dumps({"type": "event_callback", "team_id": TEAM_ID, "event": event, "event_id": "EvOdd"})
    response = slack.post(body, JSON)
    assert response.status_code < 500
    assert "Traceback" not in caplog.text


def test_a_slash_command_about_payloads_is_answered(slack: SlackHarness):
    ack = slack.command("widgets payload 相关的改动", response="cmd-payload", trigger_id="t-payload")
    assert ack.status_code == 200
    (answer,) = slack.fake.wait_for("response_url")
    assert answer.path.endswith("/cmd-payload")


def test_two_distinct_messages_without_an_event_id_are_both_answered(slack: SlackHarness):
    for ts in ("1750000000.000301", "1750000000.000302"):
        event = mention("上周 widgets 有哪些风险？", channel="C7", ts=ts)
        body = json.dumps({"type": "event_callback", "team_id": TEAM_ID, "event": event})
        assert slack.post(body, JSON).status_code == 200
    slack.drain()
    assert sorted(str(s.thread_ts) for s in slack.fake.shown()) == ["1750000000.000301", "1750000000.000302"]


def test_the_same_message_without_an_event_id_delivered_twice_is_answered_once(slack: SlackHarness):
    body = json.dumps({"type": "event_callback", "team_id": TEAM_ID, "event": mention("帮助", ts="1.5")})
    for retry in (0, 1):
        assert slack.post(body, JSON, retry=retry).status_code == 200
    slack.drain()
    assert len(slack.fake.shown()) == 1 and len(slack.fake.called("chat.update")) == 1


def test_a_signed_request_still_works_with_a_charset_in_its_content_type(slack: SlackHarness):
    body = json.dumps({"type": "url_verification", "challenge": "c-1", "token": "unused"})
    response = requests.post(
        slack.url + EVENTS_PATH,
        data=body.encode(),
        headers={**signed(body, content_type="application/json; charset=utf-8"), "Connection": "close"},
        timeout=5,
    )
    assert response.status_code == 200
    assert "c-1" in response.text
