"""The protocol's major version: clients refuse a server of another one."""

PROTOCOL_VERSION = 5
