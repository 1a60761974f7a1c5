---One wrapper per sidecar method (docs/protocol.md). Each takes a ready client state, params and an
---optional callback `cb(err, result)`. Without a callback it must run inside a coroutine: it
---yields until the answer arrives and returns `err, result`.
local client = require("context_sidecar.client")
local contract = require("context_sidecar.contract")

local M = {}

---The wire names of the methods below (the contract's); tests hold them to docs/contract/index.json.
M.methods = {
  session_new = contract.methods.SESSION_NEW,
  session_load = contract.methods.SESSION_LOAD,
  session_list = contract.methods.SESSION_LIST,
  session_close = contract.methods.SESSION_CLOSE,
  session_delete = contract.methods.SESSION_DELETE,
  session_prompt = contract.methods.SESSION_PROMPT,
  session_set_model = contract.methods.SESSION_SET_MODEL,
  session_set_mode = contract.methods.SESSION_SET_MODE,
  session_set_title = contract.methods.SESSION_SET_TITLE,
  session_cancel = contract.methods.SESSION_CANCEL,
  gauge = contract.methods.GAUGE,
  models = contract.methods.MODELS,
  compact = contract.methods.COMPACT,
  context = contract.methods.CONTEXT,
  history_list = contract.methods.HISTORY_LIST,
  history_undo = contract.methods.HISTORY_UNDO,
  trust_workspace = contract.methods.TRUST_WORKSPACE,
  mcp_action = contract.methods.MCP_ACTION,
  checkpoints = contract.methods.CHECKPOINTS,
  rewind = contract.methods.REWIND,
  fork = contract.methods.FORK,
}
local methods = M.methods

---The params and results below are the contract's types (context_sidecar/contract.lua,
---generated from the sidecar's contract).

---@alias context_sidecar.Callback fun(err: {code: integer, message: string, data: any}|nil, result: any)

---@param state context_sidecar.ClientState
---@param method string
---@param params table
---@param cb? context_sidecar.Callback
---@return any err_or_request_id, any result
function M.request(state, method, params, cb)
  if cb then
    return client.request(state, method, params, cb)
  end
  local co, is_main = coroutine.running()
  assert(co and not is_main, "context_sidecar.api: call with a callback or from a coroutine")
  local answered, answer_err, answer = false, nil, nil
  local waiting = false
  client.request(state, method, params, function(err, result)
    answered, answer_err, answer = true, err, result
    if waiting then
      coroutine.resume(co)
    end
  end)
  if not answered then
    waiting = true
    coroutine.yield()
  end
  return answer_err, answer
end

---@param state context_sidecar.ClientState
---@param params context_sidecar.NewSessionParams
---@param cb? fun(err: table|nil, result: context_sidecar.SessionOpened|nil)
function M.session_new(state, params, cb)
  return M.request(state, methods.session_new, params, cb)
end

---Replays the session's visible history as session/update notifications, then answers.
---@param state context_sidecar.ClientState
---@param params context_sidecar.LoadSessionParams
---@param cb? fun(err: table|nil, result: context_sidecar.SessionOpened|nil)
function M.session_load(state, params, cb)
  return M.request(state, methods.session_load, params, cb)
end

---@param state context_sidecar.ClientState
---@param params context_sidecar.ListSessionsParams
---@param cb? fun(err: table|nil, result: context_sidecar.SessionList|nil)
function M.session_list(state, params, cb)
  return M.request(state, methods.session_list, client.object(params), cb)
end

---@param state context_sidecar.ClientState
---@param params context_sidecar.SessionParams
---@param cb? context_sidecar.Callback
function M.session_close(state, params, cb)
  return M.request(state, methods.session_close, params, cb)
end

---@param state context_sidecar.ClientState
---@param params context_sidecar.SessionParams
---@param cb? context_sidecar.Callback
function M.session_delete(state, params, cb)
  return M.request(state, methods.session_delete, params, cb)
end

---Answered when the turn ends; streamed output arrives as session/update meanwhile.
---@param state context_sidecar.ClientState
---@param params context_sidecar.PromptParams
---@param cb? fun(err: table|nil, result: context_sidecar.PromptResult|nil)
function M.session_prompt(state, params, cb)
  return M.request(state, methods.session_prompt, params, cb)
end

---@param state context_sidecar.ClientState
---@param params context_sidecar.SetModelParams
---@param cb? fun(err: table|nil, result: context_sidecar.ModelSet|nil)
function M.session_set_model(state, params, cb)
  return M.request(state, methods.session_set_model, params, cb)
end

---@param state context_sidecar.ClientState
---@param params context_sidecar.SetModeParams
---@param cb? fun(err: table|nil, result: context_sidecar.Empty|nil)
function M.session_set_mode(state, params, cb)
  return M.request(state, methods.session_set_mode, params, cb)
end

---`session/set_title {sessionId, title}` -> `{}`: a new title for an open or stored session.
---@param state context_sidecar.ClientState
---@param params context_sidecar.SetTitleParams
---@param cb? fun(err: table|nil, result: context_sidecar.Empty|nil)
function M.session_set_title(state, params, cb)
  return M.request(state, methods.session_set_title, params, cb)
end

---Notification: the running session/prompt then answers with stopReason "cancelled".
---@param state context_sidecar.ClientState
---@param params context_sidecar.SessionParams
---@return boolean
function M.session_cancel(state, params)
  return client.notify(state, methods.session_cancel, params)
end

---`sidecar/mcpAction {sessionId, server, action}`: approve, reject or retry an MCP server.
---@param state context_sidecar.ClientState
---@param params context_sidecar.McpActionParams
---@param cb? fun(err: table|nil, result: context_sidecar.McpActionDone|nil)
function M.mcp_action(state, params, cb)
  return M.request(state, methods.mcp_action, params, cb)
end

---@param state context_sidecar.ClientState
---@param params context_sidecar.SessionParams
---@param cb? fun(err: table|nil, result: context_sidecar.Gauge|nil)
function M.gauge(state, params, cb)
  return M.request(state, methods.gauge, params, cb)
end

---The models the session can switch to (the provider's list, or the catalog's picks).
---@param state context_sidecar.ClientState
---@param params context_sidecar.SessionParams
---@param cb? fun(err: table|nil, result: context_sidecar.ModelList|nil)
function M.models(state, params, cb)
  return M.request(state, methods.models, params, cb)
end

---@param state context_sidecar.ClientState
---@param params context_sidecar.CompactParams
---@param cb? fun(err: table|nil, result: context_sidecar.Compacted|nil)
function M.compact(state, params, cb)
  return M.request(state, methods.compact, params, cb)
end

---The `/context` view.
---@param state context_sidecar.ClientState
---@param params context_sidecar.SessionParams
---@param cb? fun(err: table|nil, result: context_sidecar.ContextView|nil)
function M.context(state, params, cb)
  return M.request(state, methods.context, params, cb)
end

---@param state context_sidecar.ClientState
---@param params context_sidecar.HistoryListParams
---@param cb? fun(err: table|nil, result: context_sidecar.HistoryList|nil)
function M.history_list(state, params, cb)
  return M.request(state, methods.history_list, client.object(params), cb)
end

---@param state context_sidecar.ClientState
---@param cb? fun(err: table|nil, result: context_sidecar.HistoryUndone|nil)
function M.history_undo(state, cb)
  return M.request(state, methods.history_undo, vim.empty_dict(), cb)
end

---The checkpoints of the conversation as it now stands, one per prompt, oldest first.
---@param state context_sidecar.ClientState
---@param params context_sidecar.SessionParams
---@param cb? fun(err: table|nil, result: context_sidecar.CheckpointList|nil)
function M.checkpoints(state, params, cb)
  return M.request(state, methods.checkpoints, params, cb)
end

---Back to the state just before a checkpoint's prompt: the conversation, the code or both
---(`preview` changes nothing and says what would change).
---@param state context_sidecar.ClientState
---@param params context_sidecar.RewindParams
---@param cb? fun(err: table|nil, result: context_sidecar.Rewound|nil)
function M.rewind(state, params, cb)
  return M.request(state, methods.rewind, params, cb)
end

---A new session continuing a copy of the conversation, up to a checkpoint's prompt or all of it.
---@param state context_sidecar.ClientState
---@param params context_sidecar.ForkParams
---@param cb? fun(err: table|nil, result: context_sidecar.SessionOpened|nil)
function M.fork(state, params, cb)
  return M.request(state, methods.fork, params, cb)
end

---The user trusts the folder: sessions opened afterwards get its hooks, settings and MCP servers.
---@param state context_sidecar.ClientState
---@param params {cwd?: string} the folder (over LSP, the workspace root when not given)
---@param cb? fun(err: table|nil, result: context_sidecar.WorkspaceTrusted|nil)
function M.trust_workspace(state, params, cb)
  return M.request(state, methods.trust_workspace, client.object(params), cb)
end

return M
