"""What every provider keeps of its official SDK client.

The key (never shown in a repr), the base URL, the catalog entry of the model, and one SDK
client made on first use (the SDKs import slowly: never on the start-up path) and closed
once. Each provider says how its client is made.
"""

from __future__ import annotations

from typing import Any

from sidecar.core.models.catalog import ModelInfo


class SdkClientHolder:
    name: str

    def __init__(
        self,
        api_key: str,
        base_url: str | None = None,
        model_info: ModelInfo | None = None,
        *,
        default_timeout: float = 600.0,
    ) -> None:
        self._api_key = api_key
        self.base_url = base_url
        self.model_info = model_info
        self._default_timeout = default_timeout
        self._client: Any = None

    def __repr__(self) -> str:  # never show the key
        return f"{type(self).__name__}(name={self.name!r}, base_url={self.base_url!r})"

    def _new_client(self) -> Any:
        """The SDK's async client for this key and base URL, retries left to the engine."""
        raise NotImplementedError

    def _sdk_client(self) -> Any:
        if self._client is None:
            self._client = self._new_client()
        return self._client

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()
