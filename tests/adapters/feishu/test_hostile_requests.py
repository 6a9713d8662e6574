"""What an anonymous client or a forged push gets from `/feishu/events`: a 4xx that says no more than
"refused", one log line without a traceback, and no answer."""

from __future__ import annotations

import logging
import time
import uuid

import pytest
import requests

from adapters.feishu.webhook import EVENTS_PATH
from tests.adapters.feishu.conftest import ENCRYPT_KEY, NOW, TOKEN, FeishuHarness
from tests.fakes.feishu import encrypt, signature, text_event

QUESTION = "本周 widgets 有哪些风险？"


def post(feishu: FeishuHarness, body: bytes, **headers: str) -> requests.Response:
    # An idle keep-alive connection would keep waitress's loop, and so the fixture's teardown, waiting.
    return requests.post(
        feishu.url + EVENTS_PATH, data=body, headers={**headers, "Connection": "close"}, timeout=5
    )


def signed_headers(body: bytes, key: str = ENCRYPT_KEY) -> dict[str, str]:
    stamp, nonce = str(int(NOW.timestamp())), uuid.uuid4().hex
    return {
        "X-Lark-Request-Timestamp": stamp,
        "X-Lark-Request-Nonce": nonce,
        "X-Lark-Signature": signature(stamp, nonce, key, body),
    }


BODIES = [b"{", b"[]", b"null", b"\xff\xfe", b'{"encrypt": "not base64 at all"}', b'{"encrypt": 5}', b"{}"]


def test_a_body_feishu_would_not_send_is_a_4xx_without_detail(feishu: FeishuHarness, caplog):
    caplog.set_level(logging.DEBUG)
    for body in BODIES:
        for headers in ({}, signed_headers(body), signed_headers(body, "another-key")):
            response = post(feishu, body, **headers)
            assert 400 <= response.status_code < 500, (body, headers)
            assert response.json()["msg"] in ("request refused", "malformed request")
    assert "Traceback" not in caplog.text
    feishu.settle()
    assert feishu.fake.sent == []


@pytest.mark.parametrize(
    "forgery",
    [
        pytest.param({"sign_with": "another-key"}, id="bad signature"),
        pytest.param({"token": "wrong-token"}, id="wrong verification token"),
    ],
)
def test_a_forged_push_is_a_401_that_names_no_internals(feishu: FeishuHarness, forgery, caplog):
    options = dict(forgery)
    token = options.pop("token", TOKEN)
    response = feishu.push(text_event(f"@_user_1 {QUESTION}").payload(token), **options)
    assert response.status_code == 401
    assert response.json() == {"msg": "request refused"}
    assert "Traceback" not in caplog.text


def test_non_ascii_signature_headers_are_a_401(feishu: FeishuHarness):
    body = encrypt(text_event(f"@_user_1 {QUESTION}").payload(TOKEN), ENCRYPT_KEY)
    headers = signed_headers(body)
    headers["X-Lark-Signature"] = "é".encode().decode("latin-1") * 64
    assert post(feishu, body, **headers).status_code == 401
    headers = signed_headers(body)
    headers["X-Lark-Request-Nonce"] = "ü".encode().decode("latin-1")
    assert post(feishu, body, **headers).status_code == 401


def test_a_body_above_one_mebibyte_is_a_413(feishu: FeishuHarness):
    body = b'{"encrypt": "' + b"A" * (2 << 20) + b'"}'
    assert post(feishu, body, **signed_headers(body)).status_code == 413


def test_a_timestamp_that_is_not_a_number_is_a_401(feishu: FeishuHarness):
    body = encrypt(text_event(f"@_user_1 {QUESTION}").payload(TOKEN), ENCRYPT_KEY)
    headers = signed_headers(body)
    headers["X-Lark-Request-Timestamp"] = f"{time.time()}e99"
    assert post(feishu, body, **headers).status_code == 401


@pytest.mark.parametrize(
    "odd",
    [
        pytest.param({"chat_id": ["oc_group_1"]}, id="a list for the chat"),
        pytest.param({"message_id": 5}, id="a number for the message"),
        pytest.param({"content": 7}, id="a number for the content"),
        pytest.param({"mentions": "everyone"}, id="a string for the mentions"),
    ],
)
def test_a_signed_message_with_fields_of_the_wrong_type_is_no_500_and_no_traceback(
    feishu: FeishuHarness, odd, caplog
):
    payload = text_event(f"@_user_1 {QUESTION}").payload(TOKEN)
    payload["event"]["message"].update(odd)
    assert feishu.push(payload).status_code < 500
    feishu.settle()
    assert "Traceback" not in caplog.text
