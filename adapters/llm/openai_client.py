"""The LLM ports over the `openai` SDK: one JSON answer per call, or plain text streamed as it is
generated (`stream=True`, server-sent events), from any OpenAI-compatible endpoint (OpenAI, DeepSeek,
Qwen/DashScope, Volcengine Ark, Moonshot, vLLM, Ollama).

This is the only module of prhub that imports `openai`. Vendor errors become `LLMError` here, with a
message fit for a log line and never the API key. The SDK's own retries (429, 408, 409, 5xx, timeouts,
honouring `retry-after-ms`/`Retry-After` up to 120 s) are the only retries at this layer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args
from urllib.parse import urlsplit

import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from openai.types.chat.completion_create_params import ResponseFormat

from chatbot.config import ConfigError, require_secret
from chatbot.ports import LLMError, LLMReply

JsonMode = Literal["json_schema", "json_object"]
JSON_MODES: tuple[JsonMode, ...] = get_args(JsonMode)

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_JSON_MODE: JsonMode = "json_schema"
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRIES = 3
DEFAULT_MAX_OUTPUT_TOKENS = 2048

# json_object mode only promises *some* JSON object, so the schema travels in the prompt. Providers
# (OpenAI, DeepSeek) reject json_object requests whose messages never mention "json"; this text does.
JSON_OBJECT_INSTRUCTIONS = (
    "Answer with exactly one JSON object and nothing else (no Markdown fences, no prose). "
    "It must validate against the JSON Schema named {name!r} below: every property is required, "
    "no other properties are allowed.\n{schema}"
)
_DETAIL_CHARS = 300


@dataclass(frozen=True, slots=True)
class LLMSettings:
    """What the adapter needs from the settings. `max_output_tokens` of 0 leaves `max_tokens` unset
    (for models that only accept `max_completion_tokens`)."""

    api_key: str = field(repr=False)
    base_url: str
    model: str = DEFAULT_MODEL
    json_mode: JsonMode = DEFAULT_JSON_MODE
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_MAX_RETRIES
    max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS

    def __post_init__(self) -> None:
        if self.json_mode not in JSON_MODES:
            raise ConfigError(
                f"PRHUB_LLM_JSON_MODE must be one of {', '.join(JSON_MODES)}, got {self.json_mode!r}"
            )
        if not self.model.strip():
            raise ConfigError("PRHUB_LLM_MODEL is empty: name the model the endpoint serves")
        if self.timeout <= 0:
            raise ConfigError(f"PRHUB_LLM_TIMEOUT must be positive, got {self.timeout}")
        if self.max_retries < 0:
            raise ConfigError(f"PRHUB_LLM_MAX_RETRIES must be 0 or more, got {self.max_retries}")
        if self.max_output_tokens < 0:
            raise ConfigError(f"PRHUB_LLM_MAX_TOKENS must be 0 or more, got {self.max_output_tokens}")

    @classmethod
    def from_settings(cls, settings: object) -> LLMSettings:
        """Read the LLM settings from `chatbot.config.Settings`. Fields that settings does not (yet)
        define take the defaults above. Raises ConfigError for a missing or placeholder API key."""
        api_key = require_secret(
            getattr(settings, "openai_api_key", None),
            "OPENAI_API_KEY",
            "the API key of the OpenAI-compatible endpoint (any non-placeholder value for a local server)",
        )
        return cls(
            api_key=api_key,
            base_url=str(getattr(settings, "openai_base_url", "https://api.openai.com/v1")).strip(),
            model=str(getattr(settings, "llm_model", DEFAULT_MODEL)).strip(),
            json_mode=cast(JsonMode, getattr(settings, "llm_json_mode", DEFAULT_JSON_MODE)),
            timeout=float(getattr(settings, "llm_timeout", DEFAULT_TIMEOUT)),
            max_retries=int(getattr(settings, "llm_max_retries", DEFAULT_MAX_RETRIES)),
            max_output_tokens=int(getattr(settings, "llm_max_tokens", DEFAULT_MAX_OUTPUT_TOKENS)),
        )


class OpenAICompatibleLLM:
    """`chatbot.ports.LLM` and `TextStreamLLM` over `openai.OpenAI`. Thread-safe: one instance serves
    every worker."""

    def __init__(self, settings: LLMSettings) -> None:
        self._settings = settings
        self._client = openai.OpenAI(
            api_key=settings.api_key,
            base_url=settings.base_url,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
        )
        self._where = f"the LLM endpoint {_host(settings.base_url)} (model {settings.model})"

    @property
    def settings(self) -> LLMSettings:
        return self._settings

    def complete_json(self, system: str, user: str, schema_name: str, schema: dict[str, object]) -> LLMReply:
        """One chat completion in the configured JSON mode; the reply text is not validated here.

        Raises LLMError."""
        response_format: ResponseFormat
        if self._settings.json_mode == "json_schema":
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": True},
            }
        else:
            response_format = {"type": "json_object"}
            rendered = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
            system = f"{system}\n\n{JSON_OBJECT_INSTRUCTIONS.format(name=schema_name, schema=rendered)}"
        messages, extra = self._request(system, user)
        try:
            completion = self._client.chat.completions.create(
                model=self._settings.model, messages=messages, response_format=response_format, **extra
            )
        except openai.OpenAIError as exc:
            # `from None`: the SDK exception may carry the server's echo of the request headers or key.
            raise LLMError(self._describe(exc)) from None
        return self._reply(completion)

    def _request(self, system: str, user: str) -> tuple[list[ChatCompletionMessageParam], dict[str, Any]]:
        """The messages of a system and a user turn, and the request's optional settings (max_tokens)."""
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        extra: dict[str, Any] = {}
        if self._settings.max_output_tokens:
            extra["max_tokens"] = self._settings.max_output_tokens
        return messages, extra

    def stream_text(self, system: str, user: str) -> Iterator[str]:
        """`chatbot.ports.TextStreamLLM`: one streamed chat completion in plain text, its content deltas
        as they arrive. The request is sent when the first piece is asked for; closing the iterator
        closes the response. Raises LLMError, also mid-stream (a dropped connection, an error event, a
        reply cut at the token limit or filtered)."""
        messages, extra = self._request(system, user)
        try:
            with self._client.chat.completions.create(
                model=self._settings.model, messages=messages, stream=True, **extra
            ) as chunks:
                for chunk in chunks:
                    choice = chunk.choices[0] if chunk.choices else None
                    if choice is None:
                        continue  # a usage-only chunk
                    if choice.delta.content:
                        yield choice.delta.content
                    if choice.finish_reason in ("length", "content_filter"):
                        raise LLMError(f"{self._where} stopped the text early ({choice.finish_reason})")
        except openai.OpenAIError as exc:
            raise LLMError(self._describe(exc)) from None

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def _reply(self, completion: ChatCompletion) -> LLMReply:
        if not completion.choices:
            raise LLMError(f"{self._where} answered with no choices")
        choice = completion.choices[0]
        if choice.finish_reason == "length":
            limit = self._settings.max_output_tokens or "the model's default"
            raise LLMError(
                f"{self._where} stopped at its output limit ({limit} tokens) before the JSON was complete; "
                "raise PRHUB_LLM_MAX_TOKENS"
            )
        if choice.finish_reason == "content_filter":
            raise LLMError(f"{self._where} withheld the answer (content filter)")
        if choice.message.refusal:
            raise LLMError(f"{self._where} refused: {self._clip(choice.message.refusal)}")
        text = choice.message.content or ""
        # DeepSeek's JSON mode answers blank (or all spaces) when the model produced no valid JSON.
        if not text.strip():
            raise LLMError(f"{self._where} returned blank content (finish_reason={choice.finish_reason})")
        usage = completion.usage
        return LLMReply(
            text=text,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            model=completion.model or self._settings.model,
        )

    def _describe(self, exc: openai.OpenAIError) -> str:
        attempts = self._settings.max_retries + 1
        # Order matters: the timeout error is a connection error, and each status error is a status error.
        if isinstance(exc, openai.APITimeoutError):
            return f"{self._where} timed out after {self._settings.timeout:g} s ({attempts} attempts)"
        if isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc
            return f"could not connect to {self._where} ({attempts} attempts): {self._clip(str(cause))}"
        if isinstance(exc, openai.RateLimitError):
            return f"{self._where} is rate-limiting (HTTP 429) after {attempts} attempts: {self._detail(exc)}"
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return f"{self._where} refused the API key (HTTP {exc.status_code}): check OPENAI_API_KEY"
        if isinstance(exc, openai.APIStatusError):
            message = f"{self._where} answered HTTP {exc.status_code}: {self._detail(exc)}"
            if exc.status_code == 400 and self._settings.json_mode == "json_schema":
                message += " (if the model lacks structured outputs, set PRHUB_LLM_JSON_MODE=json_object)"
            return message
        return f"{self._where} failed: {type(exc).__name__}: {self._clip(str(exc))}"

    def _detail(self, exc: openai.APIStatusError) -> str:
        body = exc.body
        if isinstance(body, dict):
            error = body.get("error", body)
            if isinstance(error, dict) and error.get("message"):
                return self._clip(str(error["message"]))
        return self._clip(exc.message)

    def _clip(self, text: str) -> str:
        """Text from a server or the SDK, one line, bounded, and with the API key masked should a
        proxy echo it back."""
        text = " ".join(text.split())
        if len(self._settings.api_key) >= 4:
            text = text.replace(self._settings.api_key, "***")
        return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 1] + "…"


def _host(base_url: str) -> str:
    parts = urlsplit(base_url)
    return parts.netloc or base_url
