---Chat buffers: one markdown buffer per session. Streamed `session/update` notifications are
---appended as they arrive; thinking, tool calls and compaction summaries become closed folds;
---the draft under the last `## You` header is sent with the submit mapping.
local api = require("context_sidecar.api")
local client = require("context_sidecar.client")
local status = require("context_sidecar.status")
local transcript = require("context_sidecar.transcript")

local M = {}

local nn = client.value

---@class context_sidecar.Block
---@field kind "thought"|"tool"|"compaction"|"notice"|"hook"|"retry"
---@field nofold boolean|nil a one-line row that is not a fold (the retry row)
---@field has_summary boolean|nil a compaction's summary is shown
---@field start_mark integer extmark on the block's first (header) line
---@field end_mark integer extmark on the block's last line

---@class context_sidecar.Chat
---@field session_id string
---@field state context_sidecar.ClientState
---@field root string
---@field buf integer
---@field model string|nil
---@field provider string|nil
---@field title string|nil
---@field role "user"|"assistant"|nil who the text at the end of the buffer belongs to
---@field segment string|nil what the end of the buffer is: text, thought, tool, notice
---@field fresh boolean the last line is the empty line right under a role header
---@field busy boolean a session/prompt is running
---@field replay "render"|"silent"|nil a session/load is replaying history
---@field input_mark integer|nil extmark on the `## You` header above the draft
---@field blocks context_sidecar.Block[]
---@field tools table<string, {block: context_sidecar.Block, title: string, status: string}>
---@field thought context_sidecar.Block|nil
---@field compactions table<string, context_sidecar.Block>
---@field pending_permission {co: thread, done: boolean}|nil
---@field commands table[]|nil available_commands_update
---@field fold_cache {tick: integer, levels: string[]}|nil
---@field mode string|nil permission mode id (current_mode_update, session/new `modes`)
---@field available_modes {id: string, name: string, description: string}[]|nil
---@field review context_sidecar.Review|nil the diff or plan view waiting for an answer
---@field retry {block: context_sidecar.Block, update: table, timer: uv.uv_timer_t|nil}|nil
---@field last_prompt string|nil the last message sent, for the retry key
---@field failed boolean|nil the last turn ended with an error
---@field selections table<string, table>|nil `resource` blocks by their `@path#Lx-y` reference
---@field queued_refs string[]|nil references added while a turn ran
---@field busy_notices integer|nil how often the user was told the chat is read-only
---@field explained_insert boolean|nil

---@type table<string, context_sidecar.Chat>
local chats = {}
---@type table<integer, string>
local by_buf = {}
---@type string|nil
local last_session

---An update for the chat showing its session, if one does. A silent replay (reopening a
---session already on screen) shows nothing but compactions.
---@param apply fun(chat: context_sidecar.Chat, update: table)
---@param while_silent? boolean
local function in_chat(apply, while_silent)
  return function(params)
    local chat = chats[params.sessionId]
    if not chat or not vim.api.nvim_buf_is_valid(chat.buf) then
      return
    end
    if chat.replay == "silent" and not while_silent then
      return
    end
    apply(chat, params.update)
  end
end

---What each `session/update` kind does; a kind missing here is ignored. Tests hold the kinds
---to docs/contract/index.json.
---@type table<string, fun(params: {sessionId: string, update: table})>
M.update_handlers = {
  usage_update = function(params)
    status.from_usage_update(params.sessionId, params.update)
  end,
  session_info_update = in_chat(function(chat, update)
    chat.title = nn(update.title) or chat.title
    vim.b[chat.buf].context_sidecar_title = chat.title
    M.name_buffer(chat)
  end, true),
  available_commands_update = in_chat(function(chat, update)
    chat.commands = nn(update.availableCommands)
  end, true),
  current_mode_update = in_chat(function(chat, update)
    M.set_mode_id(chat, nn(update.currentModeId))
  end, true),
  mcp_status_update = function(params)
    local chat = chats[params.sessionId or ""]
    require("context_sidecar.mcp").update(chat and chat.root or nil, nn(params.update.servers))
  end,
  hook_result = in_chat(transcript.render),
  retry_update = in_chat(transcript.render),
  plan = in_chat(transcript.render),
  user_message_chunk = in_chat(transcript.render),
  agent_message_chunk = in_chat(transcript.render),
  agent_thought_chunk = in_chat(transcript.render),
  tool_call = in_chat(transcript.render),
  tool_call_update = in_chat(transcript.render),
  compaction_update = in_chat(transcript.render, true),
}

---Route one `session/update` notification.
---@param params {sessionId: string, update: table}
---Updates that arrive while `session/new` runs are about a session with no chat yet (e.g. a
---SessionStart hook's output); they are kept and shown once the chat exists.
---@type table<string, table[]>
local early = {}
local opening = 0
local MAX_EARLY = 200

function M.on_update(params)
  if type(params) ~= "table" or type(params.update) ~= "table" then
    return
  end
  local handler = M.update_handlers[params.update.sessionUpdate]
  if not handler then
    return
  end
  local sid = params.sessionId
  if opening > 0 and type(sid) == "string" and not chats[sid] then
    early[sid] = early[sid] or {}
    if #early[sid] < MAX_EARLY then
      table.insert(early[sid], params)
    end
  end
  handler(params)
end

---Show the updates that arrived for `chat`'s session before it had a chat.
---@param chat context_sidecar.Chat
local function flush_early(chat)
  local queued = early[chat.session_id]
  early[chat.session_id] = nil
  for _, params in ipairs(queued or {}) do
    local handler = M.update_handlers[params.update.sessionUpdate]
    -- The gauge and the MCP status were taken when they arrived.
    if params.update.sessionUpdate ~= "usage_update" and params.update.sessionUpdate ~= "mcp_status_update" then
      handler(params)
    end
  end
end

-- Permission prompts ---------------------------------------------------------------------------

---Remember the open review view so cancelling the turn closes it.
---@param chat context_sidecar.Chat|nil
---@param view context_sidecar.Review
local function chat_pending_view(chat, view)
  if chat then
    chat.review = view
  end
end

---Wait in the request's coroutine for `start(done)` to call `done(value)` (a picker, a view's
---keymap, vim.ui.input); cancelling the turn resumes it with nil.
---@param chat context_sidecar.Chat|nil
---@param co thread
---@param start fun(done: fun(value: any))
---@return any
local function wait_in(chat, co, start)
  local pending = { co = co, done = false }
  if chat then
    chat.pending_permission = pending
  end
  start(function(value)
    -- Scheduled so a synchronous answer cannot resume before the yield below.
    vim.schedule(function()
      if not pending.done then
        pending.done = true
        coroutine.resume(co, value)
      end
    end)
  end)
  local value = coroutine.yield()
  if chat and chat.pending_permission == pending then
    chat.pending_permission = nil
  end
  return value
end

---Whether `option` rejects (the model is told no).
---@param option any
---@return boolean
local function rejects(option)
  return type(option) == "table" and type(option.kind) == "string" and option.kind:find("^reject") ~= nil
end

M.reason_prompt = "Why? (optional, Enter to skip) "
M.plan_reason_prompt = "What should change in the plan? (optional, Enter to skip) "

---Server request `session/request_permission`; runs in the coroutine Neovim's RPC layer gives
---server requests, so an asynchronous vim.ui.select can answer later. After a rejection
---vim.ui.input asks why; what the user types goes with the answer, and the model reads it.
---@param params table
---@return table result
function M.request_permission(params)
  local cancelled = { outcome = { outcome = "cancelled" } }
  if type(params) ~= "table" then
    return cancelled
  end
  local options = nn(params.options) or {}
  local tool_call = nn(params.toolCall) or {}
  local chat = chats[params.sessionId or ""]
  local tool
  if chat and nn(tool_call.toolCallId) then
    tool = transcript.tool(chat, tool_call.toolCallId, tool_call)
  end
  if #options == 0 then
    return cancelled
  end
  local prompt = transcript.permission_prompt({
    title = nn(tool_call.title) or (tool and tool.title),
    kind = nn(tool_call.kind) or (tool and tool.kind),
    rawInput = nn(tool_call.rawInput) or (tool and tool.raw),
    locations = nn(tool_call.locations),
  }, chat and chat.root)

  local review = require("context_sidecar.review")
  local diff = review.diff_of(tool_call)
  local ask
  if diff then
    ask = function(done)
      chat_pending_view(chat, review.diff(diff, options, done))
    end
  elseif nn(tool_call.kind) == "switch_mode" then
    ask = function(done)
      chat_pending_view(chat, review.plan(tool_call, options, done))
    end
  else
    ask = function(done)
      vim.ui.select(options, {
        prompt = prompt,
        kind = "context_sidecar_permission",
        format_item = function(option)
          return option.name
        end,
      }, done)
    end
  end

  local co, is_main = coroutine.running()
  local async = co ~= nil and not is_main
  local choice
  if async then
    choice = wait_in(chat, co, ask)
  else
    local items = { prompt }
    for i, option in ipairs(options) do
      table.insert(items, ("%d. %s"):format(i, option.name))
    end
    choice = options[vim.fn.inputlist(items)]
  end
  if chat and chat.review then
    chat.review.close()
    chat.review = nil
  end

  local reason
  if rejects(choice) and choice.optionId then
    local input_opts = {
      prompt = nn(tool_call.kind) == "switch_mode" and M.plan_reason_prompt or M.reason_prompt,
      kind = "context_sidecar_reason",
    }
    local typed
    if async then
      typed = wait_in(chat, co, function(done)
        vim.ui.input(input_opts, done)
      end)
    else
      vim.ui.input(input_opts, function(text)
        typed = text
      end)
    end
    reason = type(typed) == "string" and vim.trim(typed) or nil
    if reason == "" then
      reason = nil
    end
  end

  local answer = cancelled
  if type(choice) == "table" and choice.optionId then
    answer = { outcome = { outcome = "selected", optionId = choice.optionId } }
    if reason then
      answer.outcome._meta = { sidecar = { reason = reason } }
    end
  end
  if chat and tool then
    transcript.set_permission(chat, tool, type(choice) == "table" and choice.name or "cancelled", reason)
  end
  return answer
end

-- Turns ----------------------------------------------------------------------------------------




local function fire(pattern, data)
  vim.api.nvim_exec_autocmds("User", { pattern = pattern, modeline = false, data = data })
end


---@param chat context_sidecar.Chat
local function finish_turn(chat, err, result)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  local stop_reason
  transcript.stop_retry(chat)
  chat.retry = nil
  if err then
    transcript.notice(chat, M.error_text(err, chat))
    chat.failed = true
  else
    chat.failed = false
    result = result or {}
    stop_reason = nn(result.stopReason)
    if nn(result.gauge) then
      local gauge = result.gauge
      gauge.sessionId = gauge.sessionId or chat.session_id
      status.update(gauge)
    end
    if stop_reason and stop_reason ~= "end_turn" then
      transcript.notice(chat, ("*Stopped: %s*"):format(stop_reason:gsub("_", " ")))
    end
  end
  chat.busy = false
  chat.pending_permission = nil
  transcript.set_locked(chat, false)
  chat.explained_insert = nil
  transcript.open_draft(chat)
  for _, ref in ipairs(chat.queued_refs or {}) do
    transcript.append_to_draft(chat, ref)
  end
  chat.queued_refs = nil
  fire("ContextSidecarTurnEnd", { sessionId = chat.session_id, stopReason = stop_reason, error = err })
end


---An error in plain words: what went wrong, the fix the server suggests, and how to retry.
---@param err {code: integer|nil, message: string|nil, data: any}
---@param chat? context_sidecar.Chat
---@return string
function M.error_text(err, chat)
  local data = nn(err.data)
  local message = tostring(nn(err.message) or "The request failed.")
  message = message:gsub("^%s*[Ee]rror:%s*", "")
  local lines = { "> **Error:** " .. message }
  local fix = type(data) == "table" and (nn(data.fix) or nn(data.hint)) or nil
  if type(fix) == "string" and fix ~= "" then
    table.insert(lines, "> **Fix:** " .. fix)
  end
  local key = require("context_sidecar.config").get().mappings.retry
  if key and chat and chat.last_prompt then
    table.insert(lines, ("> Press %s to send the message again."):format(key))
  end
  return table.concat(lines, "\n")
end

---Make sure the chat's client is running; after a restart the new process loads the session
---silently (the buffer already shows its history).
local function with_live_client(chat, cb)
  if client.is_running(chat.state) and chat.state.ready then
    cb(nil)
    return
  end
  client.ensure(chat.root, function(err, state)
    if err or not state then
      cb(err or "context-sidecar is not running")
      return
    end
    chat.state = state
    chat.replay = "silent"
    api.session_load(state, { sessionId = chat.session_id }, function(load_err)
      chat.replay = nil
      cb(load_err and load_err.message or nil)
    end)
  end)
end

---Send `text` as the next user message.
---@param chat context_sidecar.Chat
---@param text string
---@return boolean started
function M.send(chat, text)
  if chat.busy then
    vim.notify("context_sidecar: a turn is running; cancel it first", vim.log.levels.WARN)
    return false
  end
  text = vim.trim(text or "")
  if text == "" then
    vim.notify("context_sidecar: nothing to send", vim.log.levels.WARN)
    return false
  end
  -- /rewind and /fork open the pickers here instead of asking the sidecar for text.
  local rewind = require("context_sidecar.rewind")
  if rewind.is_command(text) then
    if chat.input_mark then
      transcript.write_draft(chat, "")
    end
    rewind.command(chat, text)
    return true
  end
  if not chat.input_mark then
    transcript.open_draft(chat)
  end
  transcript.write_draft(chat, text)
  chat.role = "user"
  chat.segment = "text"
  chat.fresh = false
  transcript.close_draft(chat)
  local prompt = require("context_sidecar.context_input").prompt_blocks(chat, text)
  chat.last_prompt = text
  chat.busy = true
  transcript.set_locked(chat, true)
  status.set_active(chat.session_id)
  fire("ContextSidecarTurnStart", { sessionId = chat.session_id })
  with_live_client(chat, function(err)
    if err then
      finish_turn(chat, { code = -32099, message = err }, nil)
      return
    end
    api.session_prompt(chat.state, {
      sessionId = chat.session_id,
      prompt = prompt,
    }, function(prompt_err, result)
      finish_turn(chat, prompt_err, result)
    end)
  end)
  return true
end

---@param chat context_sidecar.Chat
---@return string the draft typed under the last `## You` header
function M.draft(chat)
  return transcript.draft(chat)
end

---Say why the chat cannot be edited right now (a turn is running) and what to do.
---@param chat context_sidecar.Chat
function M.explain_busy(chat)
  local cancel = require("context_sidecar.config").get().mappings.cancel
  local msg = "context-sidecar: the reply is still streaming; type your next message when it ends"
  if cancel then
    msg = msg .. (" (%s cancels it)"):format(cancel)
  end
  chat.busy_notices = (chat.busy_notices or 0) + 1
  vim.notify(msg, vim.log.levels.INFO)
end

---Send the last message again (after an error).
---@param chat context_sidecar.Chat
function M.retry(chat)
  if chat.busy then
    vim.notify("context_sidecar: a turn is running; wait for it or cancel it first", vim.log.levels.WARN)
    return
  end
  if not chat.last_prompt then
    vim.notify("context_sidecar: nothing to send again", vim.log.levels.INFO)
    return
  end
  M.send(chat, chat.last_prompt)
end

---Switch the chat's permission mode (`session/set_mode`).
---@param chat context_sidecar.Chat
---@param mode_id string
---@param cb? fun(err: table|nil)
function M.set_mode(chat, mode_id, cb)
  api.session_set_mode(chat.state, { sessionId = chat.session_id, modeId = mode_id }, function(err)
    if err then
      vim.notify("context-sidecar: could not switch to " .. mode_id .. ": " .. tostring(err.message), vim.log.levels.ERROR)
    else
      M.set_mode_id(chat, mode_id)
    end
    if cb then
      cb(err)
    end
  end)
end

---Mode ids and names: the session's list, else the contract's four, which every sidecar has.
M.DEFAULT_MODES = require("context_sidecar.contract").permission_modes

---@param chat context_sidecar.Chat|nil
---@return {id: string, name: string, description: string}[]
function M.modes(chat)
  local list = chat and chat.available_modes
  if type(list) == "table" and #list > 0 then
    return list
  end
  return M.DEFAULT_MODES
end

---@param chat context_sidecar.Chat
---@param mode_id string|nil
function M.set_mode_id(chat, mode_id)
  if not mode_id or mode_id == chat.mode then
    return
  end
  chat.mode = mode_id
  vim.cmd("redrawstatus!")
  fire("ContextSidecarMode", { sessionId = chat.session_id, modeId = mode_id })
end

---@param chat context_sidecar.Chat
---@return string the mode's display name, "" when the server has not said
function M.mode_name(chat)
  if not chat.mode then
    return ""
  end
  for _, mode in ipairs(M.modes(chat)) do
    if mode.id == chat.mode then
      return nn(mode.name) or mode.id
    end
  end
  return chat.mode
end

---@param chat context_sidecar.Chat
---@param modes table|nil `modes` of a session/new or session/load result
local function take_modes(chat, modes)
  if type(modes) ~= "table" then
    return
  end
  chat.available_modes = nn(modes.availableModes) or chat.available_modes
  M.set_mode_id(chat, nn(modes.currentModeId))
end

---Name the chat's buffer after its title (or its short id), unique among buffers.
---@param chat context_sidecar.Chat
function M.name_buffer(chat)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  local label = chat.title and vim.trim(chat.title) ~= "" and vim.trim(chat.title) or chat.session_id:sub(1, 8)
  label = label:gsub("[%c/\\]", " "):gsub("%s+", " ")
  local base = "context-sidecar://" .. label
  local taken = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if buf ~= chat.buf then
      taken[vim.api.nvim_buf_get_name(buf)] = true
    end
  end
  local name, n = base, 1
  while taken[name] do
    n = n + 1
    name = ("%s (%d)"):format(base, n)
  end
  pcall(vim.api.nvim_buf_set_name, chat.buf, name)
  vim.cmd("redrawstatus!")
end

---Send the draft typed under the last `## You` header.
---@param chat context_sidecar.Chat
function M.submit(chat)
  if chat.busy then
    vim.notify("context_sidecar: a turn is running; cancel it first", vim.log.levels.WARN)
    return
  end
  M.send(chat, transcript.draft(chat))
end

---Cancel the running turn and any permission prompt waiting for an answer.
---@param chat context_sidecar.Chat
function M.cancel(chat)
  if chat.review then
    local view = chat.review
    chat.review = nil
    view.answered = true
    view.close()
  end
  local pending = chat.pending_permission
  if pending and not pending.done then
    pending.done = true
    chat.pending_permission = nil
    vim.schedule(function()
      coroutine.resume(pending.co, nil)
    end)
  end
  if chat.busy then
    api.session_cancel(chat.state, { sessionId = chat.session_id })
  end
end

-- Buffers and windows --------------------------------------------------------------------------

local function map(chat, mode, lhs, fn, desc)
  if lhs then
    vim.keymap.set(mode, lhs, fn, { buffer = chat.buf, desc = desc, nowait = true })
  end
end

local function window_options(win)
  local options = {
    wrap = true,
    linebreak = true,
    number = false,
    relativenumber = false,
    signcolumn = "no",
    foldmethod = "expr",
    foldexpr = "v:lua.require'context_sidecar.transcript'.foldexpr()",
    foldtext = "v:lua.require'context_sidecar.transcript'.foldtext()",
    foldlevel = 0,
    foldenable = true,
    -- Markdown markup is concealed, except on the cursor's line.
    conceallevel = 2,
    concealcursor = "",
    winbar = "%{%v:lua.require'context_sidecar.winbar'.render()%}",
  }
  for name, value in pairs(options) do
    vim.api.nvim_set_option_value(name, value, { win = win, scope = "local" })
  end
end

---@param state context_sidecar.ClientState
---@param result context_sidecar.SessionOpened
---@param root string
---@return context_sidecar.Chat
function M.create(state, result, root)
  local buf = vim.api.nvim_create_buf(false, true)
  local chat = {
    session_id = result.sessionId,
    state = state,
    root = root,
    buf = buf,
    model = nn(result.model),
    provider = nn(result.provider),
    fresh = false,
    busy = false,
    blocks = {},
    tools = {},
    compactions = {},
  }
  chats[chat.session_id] = chat
  by_buf[buf] = chat.session_id
  transcript.attach(chat)
  last_session = chat.session_id
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].swapfile = false
  M.name_buffer(chat)
  vim.bo[buf].filetype = "markdown"
  -- Neovim's own markdown highlighting and conceal (`**`, backticks) where the parser is
  -- installed (Neovim ships it); without it the buffer keeps the markdown filetype's syntax.
  chat.treesitter = pcall(vim.treesitter.start, buf, "markdown")
  vim.bo[buf].omnifunc = "v:lua.require'context_sidecar.context_input'.omnifunc"
  vim.b[buf].context_sidecar_session = chat.session_id
  take_modes(chat, nn(result.modes))

  local cfg = require("context_sidecar.config").get()
  map(chat, "n", cfg.mappings.submit, function()
    M.submit(chat)
  end, "Send the draft to the sidecar")
  map(chat, "i", cfg.mappings.submit_insert, function()
    vim.cmd.stopinsert()
    M.submit(chat)
  end, "Send the draft to the sidecar")
  map(chat, "n", cfg.mappings.cancel, function()
    M.cancel(chat)
  end, "Cancel the running turn")
  map(chat, "n", cfg.mappings.close, function()
    if #vim.api.nvim_list_wins() > 1 then
      vim.api.nvim_win_close(0, false)
    end
  end, "Close the chat window")
  map(chat, "n", cfg.mappings.retry, function()
    M.retry(chat)
  end, "Send the last message again")
  map(chat, "n", cfg.mappings.help, function()
    require("context_sidecar.help").open(chat)
  end, "Show the chat's keymaps")
  map(chat, "n", cfg.mappings.mode, function()
    require("context_sidecar").mode()
  end, "Pick the permission mode")
  -- While a reply streams the buffer is read-only; starting an edit says why instead of
  -- letting the first typed character fail with E21.
  for _, key in ipairs({ "i", "a", "o", "I", "A", "O", "s", "S", "c", "C", "x", "X", "p", "P", "d", "D", "J", "r", "u", "<C-r>", "<Del>", "~", ">", "<" }) do
    vim.keymap.set("n", key, function()
      if chat.busy then
        M.explain_busy(chat)
        return ""
      end
      return key
    end, { buffer = buf, expr = true, nowait = false, desc = "context_sidecar: edit the draft" })
  end

  local group = vim.api.nvim_create_augroup("context_sidecar_chat_" .. buf, { clear = true })
  vim.api.nvim_create_autocmd("InsertCharPre", {
    group = group,
    buffer = buf,
    desc = "context_sidecar: no E21 for typing while a reply streams",
    callback = function()
      if chat.busy and not vim.bo[buf].modifiable then
        vim.v.char = ""
        if not chat.explained_insert then
          chat.explained_insert = true
          vim.schedule(function()
            M.explain_busy(chat)
          end)
        end
      end
    end,
  })
  vim.api.nvim_create_autocmd("BufWinEnter", {
    group = group,
    buffer = buf,
    desc = "context_sidecar: chat window options",
    callback = function()
      window_options(vim.api.nvim_get_current_win())
    end,
  })
  vim.api.nvim_create_autocmd("BufEnter", {
    group = group,
    buffer = buf,
    desc = "context_sidecar: this chat drives the statusline gauge",
    callback = function()
      last_session = chat.session_id
      status.set_active(chat.session_id)
    end,
  })
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    buffer = buf,
    desc = "context_sidecar: forget the chat (the session stays on disk)",
    callback = function()
      chats[chat.session_id] = nil
      by_buf[buf] = nil
      transcript.detach(buf)
      pcall(vim.api.nvim_del_augroup_by_id, group)
    end,
  })

  local gauge = nn(result.gauge)
  if type(gauge) == "table" then
    gauge.sessionId = gauge.sessionId or chat.session_id
    status.update(gauge)
  end
  status.set_active(chat.session_id)
  return chat
end

---Show the chat in a window according to `chat.layout`, reusing a window that shows a chat.
---@param chat context_sidecar.Chat
function M.show(chat)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if by_buf[vim.api.nvim_win_get_buf(win)] then
      vim.api.nvim_win_set_buf(win, chat.buf)
      vim.api.nvim_set_current_win(win)
      window_options(win)
      return win
    end
  end
  local opts = require("context_sidecar.config").get().chat
  local function size(value, total)
    return value < 1 and math.max(1, math.floor(total * value)) or math.floor(value)
  end
  local win
  if opts.layout == "float" then
    local width, height = size(opts.width, vim.o.columns), size(opts.height, vim.o.lines)
    win = vim.api.nvim_open_win(chat.buf, true, {
      relative = "editor",
      width = width,
      height = height,
      row = math.floor((vim.o.lines - height) / 2),
      col = math.floor((vim.o.columns - width) / 2),
      border = "rounded",
      title = " context-sidecar ",
    })
  elseif opts.layout == "current" then
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, chat.buf)
  else
    local vertical = opts.layout == "vertical"
    vim.cmd((vertical and "botright vsplit" or "botright split"))
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, chat.buf)
    if vertical then
      vim.api.nvim_win_set_width(win, size(opts.width, vim.o.columns))
    else
      vim.api.nvim_win_set_height(win, size(opts.height, vim.o.lines))
    end
  end
  window_options(win)
  pcall(vim.api.nvim_win_set_cursor, win, { vim.api.nvim_buf_line_count(chat.buf), 0 })
  return win
end

---Start a new session for `root` and call `cb(chat)` with its buffer (not yet shown).
---@param root string
---@param cb fun(chat: context_sidecar.Chat|nil, err: string|nil)
function M.new_session(root, cb)
  client.ensure(root, function(err, state)
    if err or not state then
      vim.notify(err or "context-sidecar is not running", vim.log.levels.ERROR)
      cb(nil, err)
      return
    end
    opening = opening + 1
    -- No model: the sidecar opens the session on the one last picked in this workspace,
    -- else on its settings' (the plugin's `model` option is one of them).
    api.session_new(state, { cwd = root }, function(new_err, result)
      opening = opening - 1
      if opening == 0 then
        -- Sessions that never got a chat (a failed session/new) keep nothing.
        local keep = result and nn(result.sessionId)
        for sid in pairs(early) do
          if sid ~= keep then
            early[sid] = nil
          end
        end
      end
      if new_err or not result then
        local message = "context-sidecar: session/new failed: " .. (new_err and new_err.message or "no result")
        vim.notify(message, vim.log.levels.ERROR)
        cb(nil, message)
        return
      end
      local chat = M.create(state, result, root)
      flush_early(chat)
      transcript.open_draft(chat)
      cb(chat, nil)
    end)
  end)
end

---Open an existing session in a chat buffer; the server replays its history into it.
---@param root string
---@param session_id string
---@param cb fun(chat: context_sidecar.Chat|nil, err: string|nil)
---@param info? context_sidecar.SessionSummary what session/list said about it (title, model)
function M.load_session(root, session_id, cb, info)
  local existing = chats[session_id]
  if existing and vim.api.nvim_buf_is_valid(existing.buf) then
    cb(existing, nil)
    return
  end
  client.ensure(root, function(err, state)
    if err or not state then
      vim.notify(err or "context-sidecar is not running", vim.log.levels.ERROR)
      cb(nil, err)
      return
    end
    -- The chat exists before the request so the replayed updates have somewhere to go.
    local chat = M.create(state, { sessionId = session_id, model = info and nn(info.model) }, root)
    if info and nn(info.title) then
      chat.title = info.title
      M.name_buffer(chat)
    end
    chat.replay = "render"
    chat.busy = true
    transcript.set_locked(chat, true)
    api.session_load(state, { sessionId = session_id }, function(load_err, result)
      chat.replay = nil
      chat.busy = false
      transcript.set_locked(chat, false)
      if load_err or not result then
        local message = "context-sidecar: session/load failed: " .. (load_err and load_err.message or "no result")
        vim.notify(message, vim.log.levels.ERROR)
        cb(nil, message)
        return
      end
      chat.model = nn(result.model)
      chat.provider = nn(result.provider)
      take_modes(chat, nn(result.modes))
      if type(nn(result.gauge)) == "table" then
        result.gauge.sessionId = result.gauge.sessionId or session_id
        status.update(result.gauge)
      end
      transcript.open_draft(chat)
      cb(chat, nil)
    end)
  end)
end

---Show the session's conversation again as the sidecar now has it (after a rewind): the
---buffer is emptied and `session/load` replays the history into it, then a new draft opens.
---@param chat context_sidecar.Chat
---@param cb? fun(err: string|nil)
function M.reload(chat, cb)
  local function done(err)
    if err then
      vim.notify("context-sidecar: session/load failed: " .. err, vim.log.levels.ERROR)
    end
    if cb then
      cb(err)
    end
  end
  if chat.busy then
    return done("a turn is running")
  end
  transcript.reset(chat)
  chat.replay = "render"
  chat.busy = true
  transcript.set_locked(chat, true)
  api.session_load(chat.state, { sessionId = chat.session_id }, function(err, result)
    chat.replay = nil
    chat.busy = false
    transcript.set_locked(chat, false)
    if not err and result then
      take_modes(chat, nn(result.modes))
      chat.model = nn(result.model) or chat.model
      if type(nn(result.gauge)) == "table" then
        result.gauge.sessionId = result.gauge.sessionId or chat.session_id
        status.update(result.gauge)
      end
    end
    transcript.open_draft(chat)
    done(err and tostring(err.message) or nil)
  end)
end

---Put `text` in the chat's draft (replacing what was typed there) and move the cursor of the
---windows showing the chat to its end.
---@param chat context_sidecar.Chat
---@param text string
function M.set_draft(chat, text)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  if not chat.input_mark then
    transcript.open_draft(chat)
  end
  transcript.write_draft(chat, text)
  local last = vim.api.nvim_buf_line_count(chat.buf)
  for _, win in ipairs(vim.fn.win_findbuf(chat.buf)) do
    pcall(vim.api.nvim_win_set_cursor, win, { last, 0 })
  end
end

---The chat of the current buffer, else the chat used last.
---@return context_sidecar.Chat|nil
function M.current()
  local chat = chats[by_buf[vim.api.nvim_get_current_buf()] or ""]
  if chat then
    return chat
  end
  chat = chats[last_session or ""]
  if chat and vim.api.nvim_buf_is_valid(chat.buf) then
    return chat
  end
  return nil
end

---@param session_id string
---@return context_sidecar.Chat|nil
function M.get(session_id)
  return chats[session_id]
end

---@param bufnr integer
---@return context_sidecar.Chat|nil
function M.for_buffer(bufnr)
  return chats[by_buf[bufnr] or ""]
end

---The client process exited: running turns end with an error; the next send restarts it.
---@param state context_sidecar.ClientState
function M.on_client_exit(state)
  for _, chat in pairs(chats) do
    if chat.state == state and chat.busy and not chat.replay then
      finish_turn(chat, { code = -32099, message = "context-sidecar exited" }, nil)
    end
  end
end

return M
