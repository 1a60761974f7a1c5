---Chat buffers: one markdown buffer per session. Streamed `session/update` notifications are
---appended as they arrive; thinking, tool calls and compaction summaries become closed folds;
---the draft under the last `## You` header is sent with the submit mapping.
local api = require("context_sidecar.api")
local client = require("context_sidecar.client")
local status = require("context_sidecar.status")

local M = {}

local ns = vim.api.nvim_create_namespace("context_sidecar_chat")
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

-- Buffer primitives ----------------------------------------------------------------------------

local function line_count(buf)
  return vim.api.nvim_buf_line_count(buf)
end

local function get_line(buf, row)
  return vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ""
end

local function mark_row(chat, mark)
  local pos = vim.api.nvim_buf_get_extmark_by_id(chat.buf, ns, mark, {})
  return pos[1]
end

-- Marks sit at column 0 with right gravity so lines inserted at their row push them down
-- (a notice inserted above the draft moves the draft's header mark along).
local function set_mark(chat, row, id)
  return vim.api.nvim_buf_set_extmark(chat.buf, ns, row, 0, { id = id })
end

---Windows showing the chat whose cursor sits on the last line keep following the stream.
local function followers(chat)
  local list = {}
  local last = line_count(chat.buf)
  for _, win in ipairs(vim.fn.win_findbuf(chat.buf)) do
    if vim.api.nvim_win_get_cursor(win)[1] >= last then
      table.insert(list, win)
    end
  end
  return list
end

---Run `fn` with the buffer writable; chat buffers are read-only while a turn streams.
---@param chat context_sidecar.Chat
---@param fn fun(buf: integer)
local function edit(chat, fn)
  local buf = chat.buf
  if not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  local follow = (chat.busy or chat.replay) and followers(chat) or {}
  local was = vim.bo[buf].modifiable
  vim.bo[buf].modifiable = true
  local ok, err = pcall(fn, buf)
  vim.bo[buf].modifiable = was
  chat.fold_cache = nil
  for _, win in ipairs(follow) do
    if vim.api.nvim_win_is_valid(win) then
      pcall(vim.api.nvim_win_set_cursor, win, { line_count(buf), 0 })
    end
  end
  if not ok then
    error(err, 0)
  end
end

local function is_empty(buf)
  return line_count(buf) == 1 and get_line(buf, 0) == ""
end

---Append whole lines at the end (replacing the single empty line of a new buffer).
local function append_lines(chat, lines)
  edit(chat, function(buf)
    if is_empty(buf) then
      vim.api.nvim_buf_set_lines(buf, 0, 1, false, lines)
    else
      vim.api.nvim_buf_set_lines(buf, -1, -1, false, lines)
    end
  end)
end

---Append streamed text to the last line; newlines in `text` start new lines.
local function append_text(chat, text)
  if text == "" then
    return
  end
  edit(chat, function(buf)
    local row = line_count(buf) - 1
    local col = #get_line(buf, row)
    vim.api.nvim_buf_set_text(buf, row, col, row, col, vim.split(text, "\n", { plain = true }))
  end)
end

---Make the last line an empty line separated by one blank line from what is above,
---unless the buffer already ends that way (right after a role header).
local function open_paragraph(chat)
  local buf = chat.buf
  if chat.fresh then
    chat.fresh = false
    return
  end
  local n = line_count(buf)
  local last = get_line(buf, n - 1)
  local prev = n > 1 and get_line(buf, n - 2) or ""
  if is_empty(buf) or (last == "" and prev == "") then
    return
  end
  append_lines(chat, last == "" and { "" } or { "", "" })
end

local ROLE_HEADERS = { user = "## You", assistant = "## Assistant" }

---@param chat context_sidecar.Chat
---@param role "user"|"assistant"
local function begin_role(chat, role)
  if chat.role == role then
    return
  end
  chat.role = role
  chat.segment = nil
  chat.thought = nil
  local lines = { ROLE_HEADERS[role], "", "" }
  if not is_empty(chat.buf) and get_line(chat.buf, line_count(chat.buf) - 1) ~= "" then
    table.insert(lines, 1, "")
  end
  append_lines(chat, lines)
  chat.fresh = true
end

---Start a foldable block at the end of the buffer with `lines` (first line is the header).
---@return context_sidecar.Block
local function new_block(chat, kind, lines)
  open_paragraph(chat)
  local block = { kind = kind }
  edit(chat, function(buf)
    local n = line_count(buf)
    vim.api.nvim_buf_set_lines(buf, n - 1, n, false, lines)
    block.start_mark = set_mark(chat, n - 1)
    block.end_mark = set_mark(chat, n - 1 + #lines - 1)
  end)
  table.insert(chat.blocks, block)
  return block
end

---Insert `lines` after the block's last line (the block may no longer be at the end).
local function extend_block(chat, block, lines)
  if #lines == 0 then
    return
  end
  edit(chat, function(buf)
    local last = mark_row(chat, block.end_mark)
    vim.api.nvim_buf_set_lines(buf, last + 1, last + 1, false, lines)
    set_mark(chat, last + #lines, block.end_mark)
  end)
end

local function set_block_header(chat, block, text)
  edit(chat, function(buf)
    local row = mark_row(chat, block.start_mark)
    -- Replace the text, not the line, so the marks on it stay on this row.
    vim.api.nvim_buf_set_text(buf, row, 0, row, #get_line(buf, row), { text })
    set_mark(chat, row, block.start_mark)
  end)
end

---Insert a notice block: above the draft when idle, at the end while a turn streams.
local function notice_block(chat, kind, lines)
  if chat.busy or chat.replay or not chat.input_mark then
    chat.segment = "notice"
    return new_block(chat, kind, lines)
  end
  local block = { kind = kind }
  edit(chat, function(buf)
    local header = mark_row(chat, chat.input_mark)
    local insert = vim.list_extend(vim.deepcopy(lines), { "" })
    vim.api.nvim_buf_set_lines(buf, header, header, false, insert)
    block.start_mark = set_mark(chat, header)
    block.end_mark = set_mark(chat, header + #lines - 1)
  end)
  table.insert(chat.blocks, block)
  return block
end

-- Folds ----------------------------------------------------------------------------------------

---'foldexpr' for chat windows: each block is one fold, closed by the window's foldlevel 0.
---@return string
function M.foldexpr()
  local buf = vim.api.nvim_get_current_buf()
  local chat = chats[by_buf[buf] or ""]
  if not chat then
    return "0"
  end
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  if not chat.fold_cache or chat.fold_cache.tick ~= tick then
    local levels = {}
    for _, block in ipairs(chat.blocks) do
      local first, last = mark_row(chat, block.start_mark), mark_row(chat, block.end_mark)
      if first and last then
        levels[first + 1] = ">1"
        for row = first + 2, last + 1 do
          levels[row] = "1"
        end
      end
    end
    chat.fold_cache = { tick = tick, levels = levels }
  end
  return chat.fold_cache.levels[vim.v.lnum] or "0"
end

---'foldtext': the block's header and how many lines it hides.
---@return string
function M.foldtext()
  local first = vim.fn.getline(vim.v.foldstart)
  local hidden = vim.v.foldend - vim.v.foldstart
  if hidden == 0 then
    return first
  end
  return ("%s  (+%d lines)"):format(first, hidden)
end

-- Rendering of session/update ------------------------------------------------------------------

local function content_text(content)
  content = nn(content)
  if type(content) ~= "table" then
    return ""
  end
  if content.type == "text" then
    return nn(content.text) or ""
  elseif content.type == "resource_link" then
    return ("[%s](%s)"):format(nn(content.name) or content.uri, content.uri)
  elseif content.type == "resource" then
    local resource = nn(content.resource) or {}
    return nn(resource.text) or nn(resource.uri) or ""
  elseif content.type == "image" then
    return "[image]"
  end
  return ""
end

local function one_line(value, limit)
  local text = type(value) == "string" and value or vim.json.encode(value)
  text = text:gsub("\n", " ")
  if #text > limit then
    text = text:sub(1, limit - 1) .. "…"
  end
  return text
end

local function indent(text, max_lines)
  local out = {}
  local lines = vim.split(text, "\n", { plain = true })
  while #lines > 0 and lines[#lines] == "" do
    table.remove(lines)
  end
  for i, line in ipairs(lines) do
    if i > max_lines then
      table.insert(out, ("    … %d more lines"):format(#lines - max_lines))
      break
    end
    table.insert(out, "    " .. line)
  end
  return out
end

local function tool_header(tool)
  return ("⚙ %s · %s"):format(tool.title, tool.status)
end

local function begin_text(chat, role)
  begin_role(chat, role)
  if chat.segment ~= "text" then
    open_paragraph(chat)
    chat.segment = "text"
    chat.thought = nil
  end
end

local function on_thought(chat, update)
  begin_role(chat, "assistant")
  if chat.segment ~= "thought" or not chat.thought then
    chat.thought = new_block(chat, "thought", { "▷ Thinking", "" })
    chat.segment = "thought"
  end
  append_text(chat, content_text(update.content))
  edit(chat, function(buf)
    set_mark(chat, line_count(buf) - 1, chat.thought.end_mark)
  end)
end

---@param chat context_sidecar.Chat
---@param id string
---@param fields table tool_call or session/request_permission toolCall
local function ensure_tool(chat, id, fields)
  local tool = chat.tools[id]
  if tool then
    return tool
  end
  begin_role(chat, "assistant")
  tool = {
    title = nn(fields.title) or nn(fields.kind) or "tool",
    status = nn(fields.status) or "pending",
  }
  local lines = { tool_header(tool) }
  local raw = nn(fields.rawInput)
  if raw ~= nil then
    table.insert(lines, "    input: " .. one_line(raw, 400))
  end
  tool.block = new_block(chat, "tool", lines)
  chat.segment = "tool"
  chat.thought = nil
  chat.tools[id] = tool
  return tool
end

local function on_tool_update(chat, update)
  local id = nn(update.toolCallId) or "?"
  local tool = ensure_tool(chat, id, update)
  local new_status = nn(update.status)
  if new_status and new_status ~= tool.status then
    tool.status = new_status
    set_block_header(chat, tool.block, tool_header(tool))
  end
  local max = require("context_sidecar.config").get().chat.max_tool_lines
  local lines = {}
  local contents = nn(update.content)
  if type(contents) == "table" then
    for _, item in ipairs(contents) do
      if item.type == "content" then
        vim.list_extend(lines, indent(content_text(item.content), max))
      elseif item.type == "diff" then
        table.insert(lines, "    diff: " .. tostring(nn(item.path)))
      elseif item.type == "terminal" then
        table.insert(lines, "    terminal: " .. tostring(nn(item.terminalId)))
      end
    end
  end
  local raw = nn(update.rawOutput)
  if #lines == 0 and raw ~= nil then
    lines = indent(type(raw) == "string" and raw or vim.json.encode(raw), max)
  end
  if #lines > 0 then
    table.insert(lines, 1, "    output:")
    extend_block(chat, tool.block, lines)
  end
end

local function summary_text(summary)
  summary = nn(summary)
  if type(summary) == "string" then
    return summary
  elseif type(summary) == "table" then
    if summary.type then
      return content_text(summary)
    end
    local parts = {}
    for _, block in ipairs(summary) do
      table.insert(parts, content_text(block))
    end
    return table.concat(parts, "\n")
  end
  return nil
end

---@param update table compaction_update
---@return string
function M.compaction_line(update)
  local trigger = nn(update.trigger) or "manual"
  local state = nn(update.status)
  if state == "in_progress" then
    return ("↻ Compacting conversation (%s)…"):format(trigger)
  elseif state == "completed" then
    local before, after = tonumber(nn(update.tokensBefore)), tonumber(nn(update.tokensAfter))
    if before and after then
      return ("↻ Compacted (%s, %s): %s → %s tokens, saved %s"):format(
        trigger,
        nn(update.tier) or "?",
        status.format_tokens(before),
        status.format_tokens(after),
        status.format_tokens(math.max(0, before - after))
      )
    end
    return ("↻ Compacted (%s)"):format(trigger)
  elseif state == "cancelled" then
    return ("↻ Compaction cancelled (%s)"):format(trigger)
  end
  local err = nn(update.error)
  if type(err) == "table" then
    err = nn(err.message) or vim.json.encode(err)
  end
  return ("↻ Compaction failed (%s): %s"):format(trigger, tostring(err or "unknown error"))
end

local function on_compaction(chat, update)
  local id = nn(update.compactionId) or ("c" .. tostring(#chat.blocks))
  local line = M.compaction_line(update)
  local block = chat.compactions[id]
  if block then
    set_block_header(chat, block, line)
  else
    block = notice_block(chat, "compaction", { line })
    chat.compactions[id] = block
  end
  local summary = nn(update.status) == "completed" and summary_text(update.summary) or nil
  if summary and summary ~= "" then
    extend_block(chat, block, indent(summary, 10000))
  end
end

---Route one `session/update` notification.
---@param params {sessionId: string, update: table}
function M.on_update(params)
  if type(params) ~= "table" or type(params.update) ~= "table" then
    return
  end
  local update = params.update
  local kind = update.sessionUpdate
  if kind == "usage_update" then
    status.from_usage_update(params.sessionId, update)
    return
  end
  local chat = chats[params.sessionId]
  if not chat or not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  if chat.replay == "silent" and kind ~= "compaction_update" then
    return
  end
  if kind == "agent_message_chunk" then
    begin_text(chat, "assistant")
    append_text(chat, content_text(update.content))
  elseif kind == "user_message_chunk" then
    begin_text(chat, "user")
    append_text(chat, content_text(update.content))
  elseif kind == "agent_thought_chunk" then
    on_thought(chat, update)
  elseif kind == "tool_call" or kind == "tool_call_update" then
    on_tool_update(chat, update)
  elseif kind == "compaction_update" then
    on_compaction(chat, update)
  elseif kind == "session_info_update" then
    chat.title = nn(update.title) or chat.title
    vim.b[chat.buf].context_sidecar_title = chat.title
  elseif kind == "available_commands_update" then
    chat.commands = nn(update.availableCommands)
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
    tool = ensure_tool(chat, tool_call.toolCallId, tool_call)
  end
  if #options == 0 then
    return cancelled
  end
  local subject = nn(tool_call.title) or (tool and tool.title) or "a tool call"
  local input = nn(tool_call.rawInput)
  local prompt = ("Allow %s%s?"):format(subject, input and (" " .. one_line(input, 80)) or "")

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
    extend_block(chat, tool.block, { "    permission: " .. label })
  end
  return answer
end

-- Turns ----------------------------------------------------------------------------------------

local function set_locked(chat, locked)
  if vim.api.nvim_buf_is_valid(chat.buf) then
    vim.bo[chat.buf].modifiable = not locked
  end
end

---Append the `## You` header the next prompt is typed under.
local function open_draft(chat)
  chat.role = nil
  begin_role(chat, "user")
  chat.segment = nil
  chat.fresh = false
  local header = line_count(chat.buf) - 3
  chat.input_mark = set_mark(chat, header, chat.input_mark)
end

---@param chat context_sidecar.Chat
---@return string
function M.draft(chat)
  if not chat.input_mark then
    return ""
  end
  local header = mark_row(chat, chat.input_mark)
  local lines = vim.api.nvim_buf_get_lines(chat.buf, header + 1, -1, false)
  return vim.trim(table.concat(lines, "\n"))
end

local function fire(pattern, data)
  vim.api.nvim_exec_autocmds("User", { pattern = pattern, modeline = false, data = data })
end

local function notice(chat, text)
  begin_role(chat, "assistant")
  chat.segment = "notice"
  open_paragraph(chat)
  append_text(chat, text)
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
    notice(chat, ("> **Error** (%s): %s%s"):format(tostring(err.code), tostring(err.message), hint and (" — " .. hint) or ""))
  else
    result = result or {}
    stop_reason = nn(result.stopReason)
    if nn(result.gauge) then
      local gauge = result.gauge
      gauge.sessionId = gauge.sessionId or chat.session_id
      status.update(gauge)
    end
    if stop_reason and stop_reason ~= "end_turn" then
      notice(chat, ("*Stopped: %s*"):format(stop_reason:gsub("_", " ")))
    end
  end
  chat.busy = false
  chat.pending_permission = nil
  set_locked(chat, false)
  open_draft(chat)
  fire("ContextSidecarTurnEnd", { sessionId = chat.session_id, stopReason = stop_reason, error = err })
end

---Replace the draft under the last `## You` header with `text` and return the header row.
local function write_draft(chat, text)
  local lines = vim.split(text, "\n", { plain = true })
  edit(chat, function(buf)
    local header = mark_row(chat, chat.input_mark)
    vim.api.nvim_buf_set_lines(buf, header + 1, -1, false, vim.list_extend({ "" }, lines))
  end)
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
    open_draft(chat)
  end
  write_draft(chat, text)
  chat.role = "user"
  chat.segment = "text"
  chat.fresh = false
  vim.api.nvim_buf_del_extmark(chat.buf, ns, chat.input_mark)
  chat.input_mark = nil
  chat.busy = true
  set_locked(chat, true)
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

---Send the draft typed under the last `## You` header.
---@param chat context_sidecar.Chat
function M.submit(chat)
  if chat.busy then
    vim.notify("context_sidecar: a turn is running; cancel it first", vim.log.levels.WARN)
    return
  end
  M.send(chat, M.draft(chat))
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
    foldexpr = "v:lua.require'context_sidecar.chat'.foldexpr()",
    foldtext = "v:lua.require'context_sidecar.chat'.foldtext()",
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
  pcall(vim.api.nvim_win_set_cursor, win, { line_count(chat.buf), 0 })
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
      open_draft(chat)
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
    set_locked(chat, true)
    api.session_load(state, { sessionId = session_id }, function(load_err, result)
      chat.replay = nil
      chat.busy = false
      set_locked(chat, false)
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
      open_draft(chat)
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
