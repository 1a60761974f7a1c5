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
---@field kind "thought"|"tool"|"compaction"|"notice"
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
  end),
  available_commands_update = in_chat(function(chat, update)
    chat.commands = nn(update.availableCommands)
  end),
  user_message_chunk = in_chat(transcript.render),
  agent_message_chunk = in_chat(transcript.render),
  agent_thought_chunk = in_chat(transcript.render),
  tool_call = in_chat(transcript.render),
  tool_call_update = in_chat(transcript.render),
  compaction_update = in_chat(transcript.render, true),
}

---Route one `session/update` notification.
---@param params {sessionId: string, update: table}
function M.on_update(params)
  if type(params) ~= "table" or type(params.update) ~= "table" then
    return
  end
  local handler = M.update_handlers[params.update.sessionUpdate]
  if handler then
    handler(params)
  end
end

-- Permission prompts ---------------------------------------------------------------------------

---Server request `session/request_permission`; runs in the coroutine Neovim's RPC layer gives
---server requests, so an asynchronous vim.ui.select can answer later.
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
  local subject = nn(tool_call.title) or (tool and tool.title) or "a tool call"
  local input = nn(tool_call.rawInput)
  local prompt = ("Allow %s%s?"):format(subject, input and (" " .. transcript.one_line(input, 80)) or "")

  local co, is_main = coroutine.running()
  local choice
  if co and not is_main then
    local pending = { co = co, done = false }
    if chat then
      chat.pending_permission = pending
    end
    vim.ui.select(options, {
      prompt = prompt,
      kind = "context_sidecar_permission",
      format_item = function(option)
        return option.name
      end,
    }, function(item)
      -- Scheduled so a synchronous vim.ui.select cannot resume before the yield below.
      vim.schedule(function()
        if not pending.done then
          pending.done = true
          coroutine.resume(co, item)
        end
      end)
    end)
    choice = coroutine.yield()
    if chat and chat.pending_permission == pending then
      chat.pending_permission = nil
    end
  else
    local items = { prompt }
    for i, option in ipairs(options) do
      table.insert(items, ("%d. %s"):format(i, option.name))
    end
    choice = options[vim.fn.inputlist(items)]
  end

  local answer = cancelled
  if type(choice) == "table" and choice.optionId then
    answer = { outcome = { outcome = "selected", optionId = choice.optionId } }
  end
  if chat and tool then
    local label = type(choice) == "table" and choice.name or "cancelled"
    transcript.extend_block(chat, tool.block, { "    permission: " .. label })
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
  if err then
    local data = nn(err.data)
    local hint = type(data) == "table" and (nn(data.fix) or nn(data.hint) or nn(data.message)) or nil
    transcript.notice(chat, ("> **Error** (%s): %s%s"):format(tostring(err.code), tostring(err.message), hint and (" — " .. hint) or ""))
  else
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
  transcript.open_draft(chat)
  fire("ContextSidecarTurnEnd", { sessionId = chat.session_id, stopReason = stop_reason, error = err })
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
  if not chat.input_mark then
    transcript.open_draft(chat)
  end
  transcript.write_draft(chat, text)
  chat.role = "user"
  chat.segment = "text"
  chat.fresh = false
  transcript.close_draft(chat)
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
      prompt = { { type = "text", text = text } },
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
  }
  for name, value in pairs(options) do
    vim.api.nvim_set_option_value(name, value, { win = win, scope = "local" })
  end
end

---@param state context_sidecar.ClientState
---@param result context_sidecar.SessionResult
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
  pcall(vim.api.nvim_buf_set_name, buf, "context-sidecar://" .. chat.session_id)
  vim.bo[buf].filetype = "markdown"
  vim.b[buf].context_sidecar_session = chat.session_id

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

  local group = vim.api.nvim_create_augroup("context_sidecar_chat_" .. buf, { clear = true })
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
    local cfg = require("context_sidecar.config").get()
    api.session_new(state, { cwd = root, model = cfg.model }, function(new_err, result)
      if new_err or not result then
        local message = "context-sidecar: session/new failed: " .. (new_err and new_err.message or "no result")
        vim.notify(message, vim.log.levels.ERROR)
        cb(nil, message)
        return
      end
      local chat = M.create(state, result, root)
      transcript.open_draft(chat)
      cb(chat, nil)
    end)
  end)
end

---Open an existing session in a chat buffer; the server replays its history into it.
---@param root string
---@param session_id string
---@param cb fun(chat: context_sidecar.Chat|nil, err: string|nil)
function M.load_session(root, session_id, cb)
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
    local chat = M.create(state, { sessionId = session_id }, root)
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
      if type(nn(result.gauge)) == "table" then
        result.gauge.sessionId = result.gauge.sessionId or session_id
        status.update(result.gauge)
      end
      transcript.open_draft(chat)
      cb(chat, nil)
    end)
  end)
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
