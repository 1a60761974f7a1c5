"""What the server says of itself in ``initialize``: the protocol's major version (clients
refuse a server of another one) and the providers it speaks."""

PROTOCOL_VERSION = 8

# The one list of providers: the adapters in sidecar.providers build each, the settings
# accept them, and both transports announce them.
PROVIDERS: tuple[str, ...] = ("anthropic", "openai", "openai-compatible")
