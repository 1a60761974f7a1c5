"""Every method name of the protocol, as the LSP transport spells it (docs/protocol.md).

The ACP transport serves the same requests, the sidecar's own (``sidecar/...``) under its
``_sidecar/`` prefix.
"""

# Requests, client to server.
SESSION_NEW = "session/new"
SESSION_LOAD = "session/load"
SESSION_LIST = "session/list"
SESSION_CLOSE = "session/close"
SESSION_DELETE = "session/delete"
SESSION_PROMPT = "session/prompt"
SESSION_SET_MODEL = "session/set_model"
SESSION_SET_MODE = "session/set_mode"
SESSION_SET_TITLE = "session/set_title"
GAUGE = "sidecar/gauge"
MODELS = "sidecar/models"
COMPACT = "sidecar/compact"
CONTEXT = "sidecar/context"
HISTORY_LIST = "sidecar/history/list"
HISTORY_UNDO = "sidecar/history/undo"
TRUST_WORKSPACE = "sidecar/trustWorkspace"
MCP_ACTION = "sidecar/mcpAction"
CHECKPOINTS = "sidecar/checkpoints"
REWIND = "sidecar/rewind"
FORK = "sidecar/fork"

# Notifications, client to server. The document ones are ACP's names and shapes; over LSP
# they arrive as LSP's own textDocument/didOpen|didChange|didClose, which the transport
# restates in these shapes.
SESSION_CANCEL = "session/cancel"
DOCUMENT_DID_OPEN = "document/didOpen"
DOCUMENT_DID_CHANGE = "document/didChange"
DOCUMENT_DID_CLOSE = "document/didClose"
FILES_DID_CHANGE = "workspace/didChangeWatchedFiles"

# Server to client.
SESSION_UPDATE = "session/update"
SESSION_REQUEST_PERMISSION = "session/request_permission"
DID_CHANGE_STATUS = "sidecar/didChangeStatus"

# The sidecar's own methods, as opposed to the session/* vocabulary it shares with ACP.
OWN_PREFIX = "sidecar/"
