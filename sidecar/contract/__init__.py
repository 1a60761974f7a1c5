"""The wire contract both transports serve and every client mirrors.

Method names, the params of every request and client notification (dataclasses with a
decoder), the results (TypedDicts), the ``session/update`` kinds with their constructors,
the error codes and classes, and the example values the golden fixtures under
``docs/contract/`` are generated from (``python -m sidecar.contract.fixtures``).

Nothing here imports the rest of the sidecar: core and the transports import the
contract, never the other way round, so a change to the wire is a change here first.
"""
