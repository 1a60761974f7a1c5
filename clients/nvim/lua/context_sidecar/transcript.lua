---The chat buffer as a document: role headers, streamed text, foldable blocks (thinking,
---tool calls, compactions) tracked by extmarks, and the draft area under the last `## You`.
---chat.lua owns sessions and turns; this module only writes and reads the buffer.
local client = require("context_sidecar.client")
local status = require("context_sidecar.status")

local M = {}

local ns = vim.api.nvim_create_namespace("context_sidecar_chat")
local nn = client.value

---@type table<integer, context_sidecar.Chat> chats by buffer, for 'foldexpr'
local by_buf = {}

---@param chat context_sidecar.Chat
function M.attach(chat)
  by_buf[chat.buf] = chat
end

---@param buf integer
function M.detach(buf)
  by_buf[buf] = nil
end

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

---Re-evaluate 'foldexpr' in every window showing the chat. Blocks grow by moving their end
---mark after the lines went in, which Neovim's own fold update (run while the lines change)
---cannot see; `vim._foldupdate` recomputes the levels and keeps folds the user opened.
---@param buf integer
local function refresh_folds(buf)
  local update = rawget(vim, "_foldupdate")
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    if vim.wo[win].foldmethod == "expr" then
      if update then
        pcall(update, win, 0, line_count(buf))
      else
        vim.wo[win].foldmethod = "expr"
      end
    end
  end
end
M.refresh_folds = refresh_folds

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
  if ok then
    refresh_folds(buf)
  end
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
    -- Listed before edit() refreshes the folds, so the new block is folded at once.
    table.insert(chat.blocks, block)
  end)
  return block
end

---Insert `lines` after the block's last line (the block may no longer be at the end).
function M.extend_block(chat, block, lines)
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
    table.insert(chat.blocks, block)
  end)
  return block
end

-- Folds ----------------------------------------------------------------------------------------

---'foldexpr' for chat windows: each block is one fold, closed by the window's foldlevel 0.
---@return string
function M.foldexpr()
  local buf = vim.api.nvim_get_current_buf()
  local chat = by_buf[buf]
  if not chat then
    return "0"
  end
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  if not chat.fold_cache or chat.fold_cache.tick ~= tick then
    local levels = {}
    for _, block in ipairs(chat.blocks) do
      local first, last = mark_row(chat, block.start_mark), mark_row(chat, block.end_mark)
      if first and last and not block.nofold then
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

---JSON with object keys sorted, so a tool's input reads the same live and on replay.
---@param value any
---@return string
function M.stable_json(value)
  if type(value) ~= "table" or value == vim.NIL then
    return vim.json.encode(value)
  end
  if getmetatable(value) == nil and vim.islist(value) then
    local parts = {}
    for _, item in ipairs(value) do
      table.insert(parts, M.stable_json(item))
    end
    return "[" .. table.concat(parts, ",") .. "]"
  end
  local keys = vim.tbl_keys(value)
  table.sort(keys, function(a, b)
    return tostring(a) < tostring(b)
  end)
  local parts = {}
  for _, k in ipairs(keys) do
    table.insert(parts, vim.json.encode(tostring(k)) .. ":" .. M.stable_json(value[k]))
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

function M.one_line(value, limit)
  local text = type(value) == "string" and value or M.stable_json(value)
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

---`path` relative to `root` when it lies inside it.
---@param path string
---@param root string|nil
---@return string
function M.display_path(path, root)
  if type(root) == "string" and root ~= "" then
    local prefix = root:gsub("/+$", "") .. "/"
    if path:sub(1, #prefix) == prefix then
      return path:sub(#prefix + 1)
    end
  end
  return path
end

---The shell command a tool call runs, or nil.
---@param fields table tool_call or toolCall
---@return string|nil
function M.command_of(fields)
  local raw = nn(fields.rawInput)
  local kind = nn(fields.kind)
  if type(raw) == "table" and type(nn(raw.command)) == "string" and (kind == nil or kind == "execute") then
    return raw.command
  end
  return nil
end

---The file a tool call reads or changes, or nil.
---@param fields table tool_call or toolCall
---@return string|nil
function M.path_of(fields)
  local raw = nn(fields.rawInput)
  if type(raw) == "table" then
    for _, key in ipairs({ "file_path", "path", "notebook_path" }) do
      if type(nn(raw[key])) == "string" then
        return raw[key]
      end
    end
  end
  local locations = nn(fields.locations)
  if type(locations) == "table" and type(locations[1]) == "table" and type(nn(locations[1].path)) == "string" then
    return locations[1].path
  end
  return nil
end

local PATH_KINDS = { read = true, edit = true, delete = true, move = true }

---The input's plain values as `key: value` pairs (sorted), for tools without a better wording.
local function input_pairs(raw, limit)
  local keys = vim.tbl_keys(raw)
  table.sort(keys, function(a, b)
    return tostring(a) < tostring(b)
  end)
  local pairs_ = {}
  for _, key in ipairs(keys) do
    local value = nn(raw[key])
    if value ~= nil then
      table.insert(pairs_, ("%s: %s"):format(key, M.one_line(value, limit)))
    end
  end
  return pairs_
end

---The question a permission prompt asks about a tool call, in words: `Run \`ls -la\`?` for
---a shell command, `Read src/app.py?` for a read, else `Allow <title>?` with its input's values.
---@param fields table toolCall (with `kind` and `rawInput`)
---@param root string|nil the workspace root, for relative paths
---@return string
function M.permission_prompt(fields, root)
  local command = M.command_of(fields)
  if command then
    local first = vim.split(command, "\n", { plain = true })[1]
    if first ~= command then
      first = first .. " …"
    end
    return ("Run `%s`?"):format(M.one_line(first, 120))
  end
  local kind = nn(fields.kind)
  local path = M.path_of(fields)
  if path and PATH_KINDS[kind] then
    local verb = ({ read = "Read", edit = "Edit", delete = "Delete", move = "Move" })[kind]
    return ("%s %s?"):format(verb, M.display_path(path, root))
  end
  local title = nn(fields.title) or "a tool call"
  local raw = nn(fields.rawInput)
  if type(raw) == "table" and next(raw) ~= nil then
    local said = table.concat(input_pairs(raw, 60), ", ")
    return ("Allow %s (%s)?"):format(title, M.one_line(said, 100))
  elseif type(raw) == "string" and raw ~= "" then
    return ("Allow %s (%s)?"):format(title, M.one_line(raw, 100))
  end
  return ("Allow %s?"):format(title)
end

---The lines under a tool row's header saying what the call does: `$ ls -la` for a shell
---command, `file: src/app.py` for reads and edits, else the input's values.
---@param fields table tool_call
---@param root string|nil
---@return string[]
function M.input_lines(fields, root)
  local command = M.command_of(fields)
  if command then
    local lines = {}
    for i, line in ipairs(vim.split(command, "\n", { plain = true })) do
      if i > 5 then
        table.insert(lines, "      …")
        break
      end
      table.insert(lines, (i == 1 and "    $ " or "      ") .. line)
    end
    return lines
  end
  local path = M.path_of(fields)
  if path and PATH_KINDS[nn(fields.kind)] then
    return { "    file: " .. M.display_path(path, root) }
  end
  local raw = nn(fields.rawInput)
  if type(raw) == "table" then
    local lines = {}
    for _, pair in ipairs(input_pairs(raw, 200)) do
      table.insert(lines, "    " .. pair)
    end
    return lines
  elseif raw ~= nil then
    return { "    input: " .. M.one_line(raw, 400) }
  end
  return {}
end

local diff_text = (vim.text and vim.text.diff) or vim.diff

---A compact unified hunk of an edit (one line of context), without file headers.
---@param old_text string|nil nil for a new file
---@param new_text string|nil
---@return string[]
function M.hunk(old_text, new_text)
  local function ended(text)
    text = type(text) == "string" and text or ""
    if text ~= "" and text:sub(-1) ~= "\n" then
      text = text .. "\n"
    end
    return text
  end
  local ok, out = pcall(diff_text, ended(old_text), ended(new_text), { result_type = "unified", ctxlen = 1 })
  if not ok or type(out) ~= "string" then
    return {}
  end
  local lines = vim.split(out, "\n", { plain = true })
  while #lines > 0 and lines[#lines] == "" do
    table.remove(lines)
  end
  return lines
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
function M.tool(chat, id, fields)
  local tool = chat.tools[id]
  if tool then
    return tool
  end
  begin_role(chat, "assistant")
  tool = {
    title = nn(fields.title) or nn(fields.kind) or "tool",
    status = nn(fields.status) or "pending",
  }
  -- Kept for the permission prompt, whose toolCall may leave them out.
  tool.kind = nn(fields.kind)
  tool.raw = nn(fields.rawInput)
  local lines = { tool_header(tool) }
  vim.list_extend(lines, M.input_lines(fields, chat.root))
  tool.block = new_block(chat, "tool", lines)
  chat.segment = "tool"
  chat.thought = nil
  chat.tools[id] = tool
  return tool
end

---The Task call a subagent's tool call belongs to (`_meta.sidecar.parentToolCallId`).
local function parent_of(update)
  local meta = type(nn(update._meta)) == "table" and nn(update._meta.sidecar) or nil
  return type(meta) == "table" and type(nn(meta.parentToolCallId)) == "string" and meta.parentToolCallId or nil
end

---A subagent's call: one line in its Task call's block once it ends (`↳ ✓ Read file`).
local function on_nested_tool(chat, parent, update)
  local id = nn(update.toolCallId) or "?"
  chat.nested = chat.nested or {}
  local seen = chat.nested[id] or {}
  chat.nested[id] = seen
  seen.title = nn(update.title) or seen.title or nn(update.kind) or "tool"
  local status = nn(update.status)
  if (status == "completed" or status == "failed") and not seen.shown then
    seen.shown = true
    M.extend_block(chat, parent.block, { ("    ↳ %s %s"):format(status == "completed" and "✓" or "✗", seen.title) })
  end
end

local function on_tool_update(chat, update)
  local id = nn(update.toolCallId) or "?"
  local parent = parent_of(update)
  if parent and chat.tools[parent] then
    return on_nested_tool(chat, chat.tools[parent], update)
  end
  local tool = M.tool(chat, id, update)
  local permission = nn(update.permission)
  if type(permission) == "table" and not tool.permission then
    -- The answer the server recorded (live after the prompt, and on replay).
    M.set_permission(chat, tool, nn(permission.name) or nn(permission.optionId) or "answered", nn(permission.reason))
  end
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
        local old_text = nn(item.oldText)
        local path = type(nn(item.path)) == "string" and M.display_path(item.path, chat.root) or "?"
        table.insert(lines, ("    %s%s:"):format(old_text == nil and "new file " or "", path))
        vim.list_extend(lines, indent(table.concat(M.hunk(old_text, nn(item.newText)), "\n"), max))
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
    M.extend_block(chat, tool.block, lines)
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
  -- Once per compaction: a replay after a restart sends the same compaction again.
  if summary and summary ~= "" and not block.has_summary then
    block.has_summary = true
    M.extend_block(chat, block, indent(summary, 10000))
  end
end

---Record how a tool's permission prompt was answered, once, under its input line, with what
---the user told the model about a rejection.
---@param chat context_sidecar.Chat
---@param tool table
---@param label string
---@param reason string|nil
function M.set_permission(chat, tool, label, reason)
  if tool.permission then
    return
  end
  tool.permission = label
  local lines = { "    permission: " .. label }
  if type(reason) == "string" and reason ~= "" then
    table.insert(lines, "    you said: " .. reason:gsub("%s*\n%s*", " "))
  end
  M.extend_block(chat, tool.block, lines)
end

local function on_hook(chat, update)
  local code = nn(update.exitCode)
  local header = ("⚑ Hook %s: %s · %s"):format(
    tostring(nn(update.event) or "?"),
    tostring(nn(update.command) or "?"),
    code == nil and "no exit code" or ("exit " .. tostring(code))
  )
  local lines = { header }
  local max = require("context_sidecar.config").get().chat.max_tool_lines
  vim.list_extend(lines, indent(tostring(nn(update.output) or ""), max))
  notice_block(chat, "hook", lines)
end

---The model's task list (a `plan` update, sent whole each time): a markdown task list that
---stays open, the task in progress as it reads while being done.
---@param update table plan
---@return string[]
function M.plan_lines(update)
  local lines = { "☰ Tasks" }
  for _, entry in ipairs(nn(update.entries) or {}) do
    local content = tostring(nn(entry.content) or "")
    local status = nn(entry.status)
    if status == "completed" then
      table.insert(lines, "- [x] " .. content)
    elseif status == "in_progress" then
      local meta = type(nn(entry._meta)) == "table" and nn(entry._meta.sidecar) or nil
      local doing = type(meta) == "table" and type(nn(meta.activeForm)) == "string" and meta.activeForm or content
      table.insert(lines, "- [ ] **" .. doing .. "**")
    else
      table.insert(lines, "- [ ] " .. content)
    end
  end
  return lines
end

local function on_plan(chat, update)
  local block = notice_block(chat, "plan", M.plan_lines(update))
  block.nofold = true
  chat.fold_cache = nil
  refresh_folds(chat.buf)
end

---@param update table retry_update
---@param remaining integer|nil seconds left before the next attempt
---@return string
function M.retry_line(update, remaining)
  local attempt, max = tonumber(nn(update.attempt)) or 1, tonumber(nn(update.maxRetries))
  local of = max and (" of " .. max) or ""
  local reason = nn(update.reason) or "the provider did not answer"
  if nn(update.done) then
    return ("⟳ Went through after %d %s"):format(attempt, attempt == 1 and "retry" or "retries")
  end
  if remaining and remaining > 0 then
    return ("⟳ Retry %d%s in %ds: %s"):format(attempt, of, remaining, reason)
  end
  return ("⟳ Retry %d%s now: %s"):format(attempt, of, reason)
end

---Stop the countdown of the chat's retry line (the turn ended or the call went through).
---@param chat context_sidecar.Chat
function M.stop_retry(chat)
  local retry = chat.retry
  if retry and retry.timer then
    retry.timer:stop()
    retry.timer:close()
    retry.timer = nil
  end
  if retry and nn(retry.update.done) then
    chat.retry = nil
  end
end

local function on_retry(chat, update)
  M.stop_retry(chat)
  local retry = chat.retry
  local seconds = math.ceil((tonumber(nn(update.delayMs)) or 0) / 1000)
  local line = M.retry_line(update, seconds)
  if retry and vim.api.nvim_buf_is_valid(chat.buf) then
    retry.update = update
    set_block_header(chat, retry.block, line)
  else
    if chat.busy or chat.replay then
      -- The wait belongs to the reply being fetched.
      begin_role(chat, "assistant")
    end
    local block = notice_block(chat, "retry", { line })
    block.nofold = true
    retry = { block = block, update = update }
    chat.retry = retry
  end
  if nn(update.done) then
    chat.retry = nil
    return
  end
  if seconds > 0 and not chat.replay then
    local remaining = seconds
    retry.timer = vim.uv.new_timer()
    retry.timer:start(1000, 1000, vim.schedule_wrap(function()
      if chat.retry ~= retry or not retry.timer then
        return
      end
      remaining = remaining - 1
      if vim.api.nvim_buf_is_valid(chat.buf) then
        set_block_header(chat, retry.block, M.retry_line(update, remaining))
      end
      if remaining <= 0 then
        M.stop_retry(chat)
      end
    end))
  end
end

---Write one `session/update` (other than usage_update) into the chat's buffer.
---@param chat context_sidecar.Chat
---@param update table
function M.render(chat, update)
  local kind = update.sessionUpdate
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
  elseif kind == "hook_result" then
    on_hook(chat, update)
  elseif kind == "retry_update" then
    on_retry(chat, update)
  elseif kind == "plan" then
    on_plan(chat, update)
  end
end

-- Draft area -----------------------------------------------------------------------------------

---@param chat context_sidecar.Chat
---@param locked boolean
function M.set_locked(chat, locked)
  if vim.api.nvim_buf_is_valid(chat.buf) then
    vim.bo[chat.buf].modifiable = not locked
  end
end

---Append the `## You` header the next prompt is typed under.
function M.open_draft(chat)
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

---Replace the draft under the last `## You` header with `text` and return the header row.
function M.write_draft(chat, text)
  local lines = vim.split(text, "\n", { plain = true })
  edit(chat, function(buf)
    local header = mark_row(chat, chat.input_mark)
    vim.api.nvim_buf_set_lines(buf, header + 1, -1, false, vim.list_extend({ "" }, lines))
  end)
end

---Add `text` to the draft: on its last line when that is empty, else on a new line.
---@param chat context_sidecar.Chat
---@param text string
function M.append_to_draft(chat, text)
  if not chat.input_mark then
    M.open_draft(chat)
  end
  edit(chat, function(buf)
    local last = get_line(buf, line_count(buf) - 1)
    if last == "" then
      vim.api.nvim_buf_set_lines(buf, -2, -1, false, { text, "" })
    else
      vim.api.nvim_buf_set_lines(buf, -1, -1, false, { text, "" })
    end
  end)
end

---A line of text at the end of the assistant's message (errors, stop reasons).
function M.notice(chat, text)
  begin_role(chat, "assistant")
  chat.segment = "notice"
  open_paragraph(chat)
  append_text(chat, text)
end

---Empty the buffer and forget its blocks, before the conversation is shown again (after a
---rewind the session's history is replayed into it).
---@param chat context_sidecar.Chat
function M.reset(chat)
  M.stop_retry(chat)
  chat.retry = nil
  edit(chat, function(buf)
    vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "" })
  end)
  chat.blocks = {}
  chat.tools = {}
  chat.compactions = {}
  chat.thought = nil
  chat.input_mark = nil
  chat.role = nil
  chat.segment = nil
  chat.fresh = false
end

---Stop treating the draft header as the draft (the draft was sent).
---@param chat context_sidecar.Chat
function M.close_draft(chat)
  if chat.input_mark then
    vim.api.nvim_buf_del_extmark(chat.buf, ns, chat.input_mark)
    chat.input_mark = nil
  end
end

return M
