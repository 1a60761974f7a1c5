---One wrapper per sidecar method (docs/protocol.md). Each takes a ready client state, params and an
---optional callback `cb(err, result)`. Without a callback it must run inside a coroutine: it
---yields until the answer arrives and returns `err, result`.
local client = require("context_sidecar.client")

local M = {}

---The wire names of the methods below; tests hold them to docs/contract/index.json.
M.methods = {
  session_new = "session/new",
  session_load = "session/load",
  session_list = "session/list",
  session_close = "session/close",
  session_delete = "session/delete",
  session_prompt = "session/prompt",
  session_set_model = "session/set_model",
  session_set_mode = "session/set_mode",
  session_set_title = "session/set_title",
  session_cancel = "session/cancel",
  gauge = "sidecar/gauge",
  compact = "sidecar/compact",
  context = "sidecar/context",
  history_list = "sidecar/history/list",
  history_undo = "sidecar/history/undo",
  trust_workspace = "sidecar/trustWorkspace",
}
local methods = M.methods

---@alias context_sidecar.Level "ok"|"warning"|"error"|"blocking"

---@class context_sidecar.Gauge
---@field sessionId string
---@field seq integer rises by one per change; older payloads are dropped
---@field model string
---@field provider string
---@field used integer tokens in context now
---@field size integer the model's raw context window
---@field effectiveWindow integer
---@field autoCompactAt integer|nil
---@field warningAt integer
---@field errorAt integer
---@field blockingAt integer
---@field percentUsed number
---@field percentLeftUntilAutoCompact number|nil
---@field level context_sidecar.Level
---@field source "provider"|"estimate"
---@field breakdown table<string, integer>|nil
---@field cost {amount: number, currency: string}|nil

---@class context_sidecar.SessionResult
---@field sessionId string
---@field model string
---@field provider string
---@field gauge context_sidecar.Gauge

---@class context_sidecar.SessionSummary
---@field sessionId string
---@field title string|nil
---@field cwd string
---@field model string
---@field provider string
---@field createdAt string
---@field updatedAt string
---@field used integer
---@field size integer

---@class context_sidecar.PromptResult
---@field stopReason "end_turn"|"max_tokens"|"max_turn_requests"|"refusal"|"cancelled"
---@field gauge context_sidecar.Gauge

---@class context_sidecar.CompactResult
---@field compactionId string
---@field status string
---@field tier string
---@field tokensBefore integer
---@field tokensAfter integer

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
---@param params {cwd: string, model?: string, provider?: string, title?: string}
---@param cb? fun(err: table|nil, result: context_sidecar.SessionResult|nil)
function M.session_new(state, params, cb)
  return M.request(state, methods.session_new, params, cb)
end

---Replays the session's visible history as session/update notifications, then answers.
---@param state context_sidecar.ClientState
---@param params {sessionId: string}
---@param cb? fun(err: table|nil, result: context_sidecar.SessionResult|nil)
function M.session_load(state, params, cb)
  return M.request(state, methods.session_load, params, cb)
end

---@param state context_sidecar.ClientState
---@param params {cwd?: string}
---@param cb? fun(err: table|nil, result: {sessions: context_sidecar.SessionSummary[]}|nil)
function M.session_list(state, params, cb)
  return M.request(state, methods.session_list, client.object(params), cb)
end

---@param state context_sidecar.ClientState
---@param params {sessionId: string}
---@param cb? context_sidecar.Callback
function M.session_close(state, params, cb)
  return M.request(state, methods.session_close, params, cb)
end

---@param state context_sidecar.ClientState
---@param params {sessionId: string}
---@param cb? context_sidecar.Callback
function M.session_delete(state, params, cb)
  return M.request(state, methods.session_delete, params, cb)
end

---Answered when the turn ends; streamed output arrives as session/update meanwhile.
---@param state context_sidecar.ClientState
---@param params {sessionId: string, prompt: table[]}
---@param cb? fun(err: table|nil, result: context_sidecar.PromptResult|nil)
function M.session_prompt(state, params, cb)
  return M.request(state, methods.session_prompt, params, cb)
end

---@param state context_sidecar.ClientState
---@param params {sessionId: string, model: string, provider?: string}
---@param cb? fun(err: table|nil, result: {gauge: context_sidecar.Gauge}|nil)
function M.session_set_model(state, params, cb)
  return M.request(state, methods.session_set_model, params, cb)
end

---@param state context_sidecar.ClientState
---@param params {sessionId: string, modeId: string}
---@param cb? fun(err: table|nil, result: table|nil)
function M.session_set_mode(state, params, cb)
  return M.request(state, methods.session_set_mode, params, cb)
end

---`session/set_title {sessionId, title}` -> `{}`: a new title for an open or stored session.
function M.session_set_title(state, params, cb)
  return M.request(state, methods.session_set_title, params, cb)
end

---Notification: the running session/prompt then answers with stopReason "cancelled".
---@param state context_sidecar.ClientState
---@param params {sessionId: string}
---@return boolean
function M.session_cancel(state, params)
  return client.notify(state, methods.session_cancel, params)
end

---@param state context_sidecar.ClientState
---@param params {sessionId: string}
---@param cb? fun(err: table|nil, result: context_sidecar.Gauge|nil)
function M.gauge(state, params, cb)
  return M.request(state, methods.gauge, params, cb)
end

---@param state context_sidecar.ClientState
---@param params {sessionId: string, instructions?: string, workDoneToken?: string}
---@param cb? fun(err: table|nil, result: context_sidecar.CompactResult|nil)
function M.compact(state, params, cb)
  return M.request(state, methods.compact, params, cb)
end

---The `/context` view.
---@param state context_sidecar.ClientState
---@param params {sessionId: string}
---@param cb? fun(err: table|nil, result: {gauge: context_sidecar.Gauge, prefix: any, fileReadState: any, messages: any}|nil)
function M.context(state, params, cb)
  return M.request(state, methods.context, params, cb)
end

---@param state context_sidecar.ClientState
---@param params {limit?: integer, project?: string}
---@param cb? context_sidecar.Callback
function M.history_list(state, params, cb)
  return M.request(state, methods.history_list, client.object(params), cb)
end

---@param state context_sidecar.ClientState
---@param cb? context_sidecar.Callback
function M.history_undo(state, cb)
  return M.request(state, methods.history_undo, vim.empty_dict(), cb)
end

---The user trusts the folder: sessions opened afterwards get its hooks, settings and MCP servers.
---@param state context_sidecar.ClientState
---@param params {cwd?: string}
---@param cb? fun(err: table|nil, result: {trusted: boolean, cwd: string}|nil)
function M.trust_workspace(state, params, cb)
  return M.request(state, methods.trust_workspace, client.object(params), cb)
end

return M
