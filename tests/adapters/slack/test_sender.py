"""Posting below Slack's limits: per-channel pacing, Retry-After, long replies threaded, response_url
posts capped at five. Against the fake Web API; waits happen on a FixedClock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from slack_sdk.errors import SlackApiError

from adapters.slack.blocks import SlackMessage
from adapters.slack.convert import ReplyTarget
from adapters.slack.sender import (
    MAX_RETRY_AFTER,
    RATE_LIMIT_RETRIES,
    ChannelPacer,
    SlackSender,
    slack_error,
    web_client,
)
from chatbot.clock import FixedClock
from tests.adapters.report_replies import long_reply
from tests.fakes.slack import BOT_TOKEN, FakeSlack

HELLO = SlackMessage(text="hello", blocks=[])


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        assert isinstance(fake, FakeSlack)
        yield fake


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 6, 24, 1, 0, tzinfo=UTC))


def sender(fake: FakeSlack, clock: FixedClock, jitter: float = 0.0) -> SlackSender:
    client = web_client(BOT_TOKEN, fake.api_url, clock, lambda: jitter)
    return SlackSender(client, ChannelPacer(clock, 1.0))


def test_messages_to_one_channel_are_a_second_apart_and_other_channels_do_not_wait(clock: FixedClock):
    pacer = ChannelPacer(clock, 1.0)
    assert [pacer.wait("C1"), pacer.wait("C1"), pacer.wait("C1"), pacer.wait("C2")] == [0, 1.0, 1.0, 0]
    assert clock.slept == [1.0, 1.0]


def test_a_long_reply_continues_in_the_thread_of_its_first_message(fake: FakeSlack, clock: FixedClock):
    sender(fake, clock).send(ReplyTarget("C1"), long_reply(300), "zh")

    first, *rest = fake.called("chat.postMessage", ok=True)
    assert len(rest) >= 1
    assert "thread_ts" not in first.params
    assert {m.params["thread_ts"] for m in rest} == {first.answer["ts"]}
    assert clock.slept == [1.0] * len(rest)  # paced: one message a second in the channel


def test_a_429_is_retried_after_retry_after_plus_jitter(fake: FakeSlack, clock: FixedClock):
    fake.rate_limit("chat.postMessage", retry_after=2)
    sender(fake, clock, jitter=0.25).post("C1", HELLO)
    assert [c.status for c in fake.called("chat.postMessage")] == [429, 200]
    assert clock.slept == [2.25]


def test_an_absurd_retry_after_is_capped_and_a_lasting_limit_gives_up(fake: FakeSlack, clock: FixedClock):
    fake.rate_limit("chat.postMessage", retry_after=86_400, times=RATE_LIMIT_RETRIES + 1)
    with pytest.raises(SlackApiError) as failure:
        sender(fake, clock).post("C1", HELLO)
    assert slack_error(failure.value) == "http_429"
    assert clock.slept == [MAX_RETRY_AFTER] * RATE_LIMIT_RETRIES


def test_a_response_url_gets_at_most_five_messages(fake: FakeSlack, clock: FixedClock):
    target = ReplyTarget("C1", response_url=fake.response_url("r1"))
    sender(fake, clock).send(target, long_reply(1000), "en", ephemeral=True)
    posts = fake.posted("response_url")
    assert 1 < len(posts) <= 5
    assert {p["response_type"] for p in posts} == {"ephemeral"}
    assert fake.called("chat.postMessage") == []
