"""The openai-SDK adapter against the fake OpenAI-compatible server: request shapes in both JSON modes,
the SDK's retries, and every failure turned into an LLMError that never shows the key."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from pydantic import SecretStr

from adapters.llm import LLMSettings, OpenAICompatibleLLM
from chatbot.config import ConfigError, Settings
from chatbot.ports import LLMError
from tests.fakes.openai import FakeOpenAI

SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(answer=lambda body: {"answer": "42"}) as started:
        assert isinstance(started, FakeOpenAI)
        yield started


@pytest.fixture
def fake(server: FakeOpenAI) -> Iterator[FakeOpenAI]:
    """The module's server, reset after each test (which also releases a held slow response)."""
    yield server
    server.reset()


def make_llm(fake: FakeOpenAI, **overrides: object) -> OpenAICompatibleLLM:
    values: dict[str, object] = {"api_key": "test-key", "base_url": fake.base_url, "model": "qwen-plus"}
    values.update(overrides)
    return OpenAICompatibleLLM(LLMSettings(**values))  # type: ignore[arg-type]


def test_json_schema_mode_sends_a_strict_named_schema(fake: FakeOpenAI) -> None:
    reply = make_llm(fake, max_output_tokens=900).complete_json("Be terse.", "Question?", "answer", SCHEMA)

    assert json.loads(reply.text) == {"answer": "42"}
    [request] = fake.requests
    assert request["model"] == "qwen-plus"
    assert request["messages"] == [
        {"role": "system", "content": "Be terse."},
        {"role": "user", "content": "Question?"},
    ]
    assert request["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": SCHEMA, "strict": True},
    }
    assert request["max_tokens"] == 900
    assert fake.chat_calls[0].headers["authorization"] == "Bearer test-key"


def test_json_object_mode_puts_the_schema_in_the_system_prompt(fake: FakeOpenAI) -> None:
    make_llm(fake, json_mode="json_object").complete_json("Be terse.", "Question?", "answer", SCHEMA)

    [request] = fake.requests
    assert request["response_format"] == {"type": "json_object"}
    system = request["messages"][0]["content"]
    assert system.startswith("Be terse.")
    assert "json" in system.lower()
    assert json.dumps(SCHEMA, separators=(",", ":")) in system
    assert request["messages"][1] == {"role": "user", "content": "Question?"}


def test_a_zero_output_limit_leaves_max_tokens_unset(fake: FakeOpenAI) -> None:
    make_llm(fake, max_output_tokens=0).complete_json("s", "u", "answer", SCHEMA)

    assert "max_tokens" not in fake.requests[0]


def test_reply_carries_the_token_usage_and_the_model(fake: FakeOpenAI) -> None:
    reply = make_llm(fake).complete_json("s", "u", "answer", SCHEMA)

    assert (reply.prompt_tokens, reply.completion_tokens) == fake.served_usage[0]
    assert reply.model == "qwen-plus"


def test_a_429_is_retried_after_retry_after_ms_and_then_succeeds(fake: FakeOpenAI) -> None:
    fake.fail_next("rate_limit")

    reply = make_llm(fake, max_retries=2).complete_json("s", "u", "answer", SCHEMA)

    assert json.loads(reply.text) == {"answer": "42"}
    assert fake.statuses() == [429, 200]
    assert fake.retry_counts() == ["0", "1"]


def test_rate_limiting_past_the_retry_budget_is_an_llm_error(fake: FakeOpenAI) -> None:
    fake.fail_next("rate_limit", times=3)

    with pytest.raises(LLMError, match=r"rate-limiting \(HTTP 429\) after 2 attempts"):
        make_llm(fake, max_retries=1).complete_json("s", "u", "answer", SCHEMA)
    assert len(fake.chat_calls) == 2


def test_server_errors_past_the_retry_budget_are_an_llm_error(fake: FakeOpenAI) -> None:
    fake.fail_next("server_error", times=2)

    with pytest.raises(LLMError, match="answered HTTP 500"):
        make_llm(fake, max_retries=1).complete_json("s", "u", "answer", SCHEMA)
    assert fake.statuses() == [500, 500]


def test_blank_content_is_an_llm_error(fake: FakeOpenAI) -> None:
    fake.fail_next("blank")

    with pytest.raises(LLMError, match="blank content"):
        make_llm(fake).complete_json("s", "u", "answer", SCHEMA)


def test_an_answer_cut_at_the_length_limit_is_an_llm_error(fake: FakeOpenAI) -> None:
    fake.fail_next("length")

    with pytest.raises(LLMError, match="PRHUB_LLM_MAX_TOKENS"):
        make_llm(fake).complete_json("s", "u", "answer", SCHEMA)


def test_a_response_slower_than_the_timeout_is_an_llm_error(fake: FakeOpenAI) -> None:
    fake.fail_next("slow")

    with pytest.raises(LLMError, match=r"timed out after 0.3 s \(1 attempts\)"):
        make_llm(fake, timeout=0.3, max_retries=0).complete_json("s", "u", "answer", SCHEMA)


def test_an_unreachable_endpoint_is_an_llm_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once the socket closes: nothing listens there

    llm = OpenAICompatibleLLM(
        LLMSettings(api_key="test-key", base_url=f"http://127.0.0.1:{port}/v1", max_retries=0)
    )
    with pytest.raises(LLMError, match="could not connect"):
        llm.complete_json("s", "u", "answer", SCHEMA)


def test_a_refused_key_is_reported_without_the_key(
    fake: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    with pytest.raises(LLMError, match="refused the API key") as raised:
        make_llm(fake, api_key="sk-live-secret-123").complete_json("s", "u", "answer", SCHEMA)

    assert "sk-live-secret-123" not in str(raised.value)
    assert raised.value.__cause__ is None and raised.value.__suppress_context__
    assert "sk-live-secret-123" not in caplog.text


def test_a_400_in_json_schema_mode_suggests_json_object_mode(fake: FakeOpenAI) -> None:
    with pytest.raises(LLMError, match="PRHUB_LLM_JSON_MODE=json_object"):
        make_llm(fake).complete_json("s", "u", "", SCHEMA)  # the fake, like OpenAI, requires a name


def test_settings_never_show_the_key_in_their_repr() -> None:
    settings = LLMSettings(api_key="sk-live-secret-123", base_url="http://127.0.0.1:9/v1")

    assert "sk-live-secret-123" not in repr(settings)


def test_from_settings_reads_the_llm_fields_with_defaults_for_missing_ones() -> None:
    settings = SimpleNamespace(
        openai_api_key=SecretStr("sk-real"),
        openai_base_url=" http://127.0.0.1:9/v1 ",
        llm_model="deepseek-chat",
        llm_json_mode="json_object",
    )

    llm_settings = LLMSettings.from_settings(settings)

    assert llm_settings == LLMSettings(
        api_key="sk-real", base_url="http://127.0.0.1:9/v1", model="deepseek-chat", json_mode="json_object"
    )


def test_from_settings_works_on_the_project_settings_object() -> None:
    settings = Settings(_env_file=None, openai_api_key="sk-real", openai_base_url="http://127.0.0.1:9/v1")  # type: ignore[call-arg]

    assert LLMSettings.from_settings(settings).base_url == "http://127.0.0.1:9/v1"


@pytest.mark.parametrize("key", [None, "", "changeme", "sk-xxxx", "<your key>"])
def test_a_missing_or_placeholder_key_is_refused(key: str | None) -> None:
    settings = SimpleNamespace(openai_api_key=SecretStr(key) if key is not None else None)

    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        LLMSettings.from_settings(settings)


def test_an_unknown_json_mode_is_refused() -> None:
    with pytest.raises(ConfigError, match="json_schema, json_object"):
        LLMSettings(api_key="k", base_url="http://127.0.0.1:9/v1", json_mode="yaml")  # type: ignore[arg-type]


# Streaming (server-sent events) -------------------------------------------------------------------------

TEXT = "本周合并了 #12。It fixes a leak!"


def test_streamed_text_arrives_in_pieces_that_join_into_the_answer(fake: FakeOpenAI) -> None:
    fake.answer = lambda body: TEXT
    pieces = list(make_llm(fake, max_output_tokens=300).stream_text("Be terse.", "Question?"))
    assert len(pieces) > 3 and "".join(pieces) == TEXT
    [request] = fake.requests
    assert request["stream"] is True and request["max_tokens"] == 300 and "response_format" not in request
    assert request["messages"][-1] == {"role": "user", "content": "Question?"}


def test_nothing_is_requested_until_the_first_piece_is_asked_for(fake: FakeOpenAI) -> None:
    pieces = make_llm(fake).stream_text("s", "u")
    assert fake.requests == []
    fake.answer = lambda body: TEXT
    assert next(pieces)
    pieces.close()  # type: ignore[attr-defined]
    assert len(fake.requests) == 1


def test_a_429_before_the_stream_is_retried(fake: FakeOpenAI) -> None:
    fake.answer = lambda body: TEXT
    fake.fail_next("rate_limit")
    assert "".join(make_llm(fake, max_retries=2).stream_text("s", "u")) == TEXT
    assert fake.statuses() == [429, 200]


@pytest.mark.parametrize("fault", ["cut", "length"])
def test_a_stream_that_breaks_or_is_cut_midway_is_an_llm_error(fake: FakeOpenAI, fault: str) -> None:
    fake.answer = lambda body: TEXT * 4
    fake.fail_next(fault)  # type: ignore[arg-type]
    received: list[str] = []
    with pytest.raises(LLMError) as raised:
        for piece in make_llm(fake, max_retries=0).stream_text("s", "u"):
            received.append(piece)
    assert received and "test-key" not in str(raised.value)


def test_a_refused_key_fails_the_stream_without_showing_the_key(fake: FakeOpenAI) -> None:
    with pytest.raises(LLMError) as raised:
        list(make_llm(fake, api_key="sk-wrong-key", max_retries=0).stream_text("s", "u"))
    assert "sk-wrong-key" not in str(raised.value) and "401" in str(raised.value)
