"""Sending through lark's client to the fake Open API: idempotency, pacing, rate limits, retries, token
refresh, refusals. Waits go to a FixedClock, so nothing sleeps."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from adapters.feishu.app import feishu_client
from adapters.feishu.card import render_card
from adapters.feishu.sender import (
    PER_APP,
    PER_CHAT,
    FeishuSender,
    FeishuSendError,
    Outgoing,
    Pacer,
    check_credentials,
    idempotency_uuid,
)
from chatbot.clock import FixedClock
from chatbot.config import ConfigError
from chatbot.models import Heading, Paragraph, Reply, plain
from chatbot.ports import ChannelGone, Destination
from tests.fakes.feishu import FakeFeishu

HELLO = Outgoing.text("你好")


@pytest.fixture
def fake() -> Iterator[FakeFeishu]:
    with FakeFeishu() as fake:
        assert isinstance(fake, FakeFeishu)
        yield fake


@pytest.fixture
def waits() -> FixedClock:
    return FixedClock(datetime(2026, 6, 24, 1, 0, tzinfo=UTC))


@pytest.fixture
def sender(fake: FakeFeishu, waits: FixedClock) -> FeishuSender:
    app_id = f"cli_{uuid.uuid4().hex[:16]}"  # lark caches tenant tokens per app id, process-wide
    return FeishuSender(feishu_client(app_id, "secret", fake.url), app_id, waits)


def test_a_reply_goes_into_the_thread_with_a_uuid_from_its_key(sender: FeishuSender, fake: FakeFeishu):
    message_id = sender.reply("om_question", "oc_team", HELLO, in_thread=True, key="event-1")
    [sent] = fake.sent
    assert (sent.kind, sent.target, sent.message_id, sent.reply_in_thread) == (
        "reply",
        "om_question",
        message_id,
        True,
    )
    assert (sent.msg_type, sent.content, sent.uuid) == ("text", {"text": "你好"}, idempotency_uuid("event-1"))
    assert len(sent.uuid) <= 50


def test_sending_the_same_key_twice_shows_one_message(sender: FeishuSender, fake: FakeFeishu):
    first = sender.create("oc_team", HELLO, key="push-7")
    second = sender.create("oc_team", HELLO, key="push-7")
    assert first == second
    assert len(fake.sent) == 1
    assert fake.tokens_issued == 1


def test_a_push_is_a_card_created_in_the_chat(sender: FeishuSender, fake: FakeFeishu):
    reply = Reply((Heading("acme/widgets"), Paragraph((plain("三个 PR"),))))
    sender.post(
        Destination("feishu", "tenant-1", "oc_team"), reply, language="zh", idempotency_key="delivery-1"
    )
    [sent] = fake.sent
    assert (sent.kind, sent.target, sent.msg_type) == ("create", "oc_team", "interactive")
    assert sent.content == render_card(reply, language="zh")


def test_a_rate_limit_is_retried_after_x_ogw_ratelimit_reset(
    sender: FeishuSender, fake: FakeFeishu, waits: FixedClock
):
    fake.rate_limit(2, reset="3")
    sender.reply("om_q", "oc_team", HELLO, in_thread=True, key="k")
    assert len(fake.sent) == 1
    assert len(fake.send_calls()) == 3
    assert waits.slept == [3.0, 3.0]


def test_a_5xx_with_an_html_body_is_retried_with_backoff(
    sender: FeishuSender, fake: FakeFeishu, waits: FixedClock
):
    fake.server_error(2)
    sender.reply("om_q", "oc_team", HELLO, in_thread=True, key="k")
    assert len(fake.sent) == 1
    assert waits.slept == [0.5, 1.0]


def test_retries_are_bounded(sender: FeishuSender, fake: FakeFeishu):
    fake.rate_limit(10)
    with pytest.raises(FeishuSendError) as failure:
        sender.reply("om_q", "oc_team", HELLO, in_thread=True, key="k")
    assert failure.value.code == 99991400
    assert len(fake.send_calls()) == 4
    assert fake.sent == []


def test_a_token_the_server_no_longer_accepts_is_fetched_anew(sender: FeishuSender, fake: FakeFeishu):
    sender.create("oc_team", HELLO, key="a")
    fake.revoke_tokens()
    sender.create("oc_team", HELLO, key="b")
    assert len(fake.sent) == 2
    assert fake.tokens_issued == 2


def test_a_refusal_is_raised_and_logged_with_code_msg_and_log_id(
    sender: FeishuSender, fake: FakeFeishu, caplog: pytest.LogCaptureFixture
):
    fake.fail(1, code=230025, msg="message content too long")
    with caplog.at_level(logging.ERROR), pytest.raises(FeishuSendError) as failure:
        sender.create("oc_team", HELLO, key="k")
    assert (failure.value.code, failure.value.msg, failure.value.status) == (
        230025,
        "message content too long",
        400,
    )
    assert failure.value.log_id and failure.value.log_id.startswith("fake-")
    assert f"log_id={failure.value.log_id}" in caplog.text and "code=230025" in caplog.text
    assert len(fake.send_calls()) == 1


def test_a_chat_the_bot_left_is_reported_as_gone(sender: FeishuSender, fake: FakeFeishu):
    fake.fail(1, code=230002, msg="The bot can not be outside the group.")
    with pytest.raises(ChannelGone):
        sender.create("oc_team", HELLO, key="k")


def test_credentials_feishu_refuses_are_a_config_error():
    with FakeFeishu(app_secret="the-real-secret") as fake:
        client = feishu_client(f"cli_{uuid.uuid4().hex[:16]}", "a-stale-secret", fake.url)
        with pytest.raises(ConfigError, match="FEISHU_APP_SECRET: code 10014"):
            check_credentials(client)


def test_a_bad_domain_is_a_config_error():
    with pytest.raises(ConfigError, match="FEISHU_DOMAIN"):
        feishu_client("cli_x", "secret", "http://10.0.0.1:80")


def test_the_pacer_keeps_five_a_second_per_chat(waits: FixedClock):
    pacer = Pacer(waits)
    waited = [pacer.wait("oc_busy") for _ in range(11)]
    assert waited[:5] == [0.0] * 5
    assert sum(waited) == pytest.approx(2 * PER_CHAT[0][1])  # two full windows (5% over Feishu's second)
    assert pacer.wait("oc_quiet") == 0.0


def test_the_pacer_keeps_fifty_a_second_per_app(waits: FixedClock):
    pacer = Pacer(waits)
    waited = [pacer.wait(f"oc_{n}") for n in range(51)]
    assert waited[:50] == [0.0] * 50
    assert waited[50] == pytest.approx(PER_APP[0][1])
