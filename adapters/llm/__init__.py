"""The LLM port (`chatbot.ports.LLM`) over the `openai` SDK, for any OpenAI-compatible endpoint."""

from adapters.llm.openai_client import JSON_MODES, LLMSettings, OpenAICompatibleLLM

__all__ = ["JSON_MODES", "LLMSettings", "OpenAICompatibleLLM"]
