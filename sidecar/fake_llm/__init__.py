"""A scripted, stdlib-only fake of the Anthropic Messages, OpenAI Chat Completions and OpenAI
Responses APIs (``/v1/responses``, ``/v1/responses/compact``, ``/v1/responses/input_tokens``).

Used in-process by tests (``FakeLLMServer``) and as a separate process by Node and Neovim
tests (``python -m sidecar.fake_llm``). Counts tokens with tiktoken and simulates
both providers' prompt caches, so usage figures behave like the real services'. Its models
endpoints (``models_wire``) answer as Anthropic, OpenAI, vLLM, OpenRouter, llama.cpp server
or Ollama do; ``POST /_fake/models`` (or ``configure_models``) sets what they list.
"""

from .process import main
from .script import RecordedRequest, Reply, default_reply
from .server import DEFAULT_CONTEXT_WINDOW, FakeLLMServer

__all__ = [
    "DEFAULT_CONTEXT_WINDOW",
    "FakeLLMServer",
    "RecordedRequest",
    "Reply",
    "default_reply",
    "main",
]
