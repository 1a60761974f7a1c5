"""Names the dead-code check (vulture) cannot see used: called by a framework or by name.

Each entry says who uses it. Anything not listed here and not used is dead code and fails
the test command.
"""

# http.server calls these on the fake LLM server's handler and server classes.
from sidecar.fake_llm import transport

transport.HTTPServer.daemon_threads
transport.Handler.protocol_version
transport.HTTPServer.block_on_close
transport.Handler.log_message
transport.Handler.do_GET
transport.Handler.do_POST
transport.Handler.close_connection

# The terminal client dispatches session/update kinds to _on_<kind> by name.
from sidecar.terminal import updates

updates.UpdatePrinter._on_agent_message_chunk
updates.UpdatePrinter._on_agent_thought_chunk
updates.UpdatePrinter._on_user_message_chunk
updates.UpdatePrinter._on_tool_call
updates.UpdatePrinter._on_tool_call_update
updates.UpdatePrinter._on_usage_update
updates.UpdatePrinter._on_compaction_update
updates.UpdatePrinter._on_available_commands_update
updates.UpdatePrinter._on_current_mode_update
updates.UpdatePrinter._on_retry_update
updates.UpdatePrinter._on_hook_result
updates.UpdatePrinter._on_mcp_status_update
updates.UpdatePrinter._on_plan

# Python calls a module's __getattr__ for a name it lacks (sidecar.PROTOCOL_VERSION, loaded
# on first use).
import sidecar

sidecar.__getattr__

# Read by tests and the log as a module attribute after the start-up handoff.
from sidecar import credentials

credentials.handoff_state

# logging.LogRecord subclasses are swapped in by assigning __class__.
from sidecar.core.secrets import redaction

redaction._RedactingRecord.__class__

# The fake LLM server is a test tool: its scripting API is used by the tests and the Node
# and Neovim suites, not by the sidecar.
from sidecar.fake_llm import invariants, script, server

server.FakeLLMServer.take_violations
server.FakeLLMServer.wait_for_requests
server.FakeLLMServer.openai_base_url
script.Reply.tool_use
script.Reply.failure
invariants.InvariantChecker.process_checked
invariants.InvariantChecker.process_refused

# Tests reset the process-wide registry of held keys between cases.
redaction.forget_secrets

# Read by the provider adapters' consumers through the dataclass (a delta's JSON piece).
from sidecar.core import ports

ports.ToolInputDelta.partial_json

# pygls calls these overrides on the LSP server.
from sidecar.lsp import server as lsp_server

lsp_server.SidecarServer._send_handler_result
lsp_server.SidecarServer.report_server_error

# Wire fields with one-word names (camelCase ones are left to the check's own rule): the
# clients read them from the contract's message shapes.
from sidecar.contract import results as wire_results
from sidecar.contract import updates as wire_updates

wire_results.Breakdown.free
wire_results.Gauge.breakdown
wire_results.Cost.amount
wire_results.Cost.currency
wire_updates._SidecarGauge.sidecar
wire_updates._PlanEntryRequired.priority

# A TypedDict field of an answer, filled and read by key.
from sidecar.contract import results

results.SessionOpened.modes
results.Gauge.stage

# The fake's scripting helpers for server tools, used by the tests that script replies.
from sidecar.fake_llm import script

script.web_fetch
