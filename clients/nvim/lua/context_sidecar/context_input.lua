---Editor context in the prompt: `@file` and `/command` completion in the chat buffer, the
---selection or current file added to the draft, and the prompt's content blocks (docs/protocol.md:
---`resource_link` for a file the sidecar reads itself, `resource` for embedded text).
local M = {}

local nn = require("context_sidecar.client").value

local MAX_FILES = 5000

---Workspace files relative to `root`: `git ls-files` (tracked and untracked, not ignored),
---else a bounded walk.
---@param root string
---@return string[]
function M.files(root)
  local ok, result = pcall(function()
    return vim.system({ "git", "ls-files", "--cached", "--others", "--exclude-standard" }, { cwd = root, text = true }):wait(3000)
  end)
  if ok and result and result.code == 0 then
    local list = vim.split(result.stdout or "", "\n", { trimempty = true })
    if #list > MAX_FILES then
      list = vim.list_slice(list, 1, MAX_FILES)
    end
    return list
  end
  local list = {}
  for name, kind in vim.fs.dir(root, {
    depth = 6,
    skip = function(dir)
      return not dir:match("^%.") and dir ~= "node_modules"
    end,
  }) do
    if kind == "file" then
      table.insert(list, name)
      if #list >= MAX_FILES then
        break
      end
    end
  end
  table.sort(list)
  return list
end

---Commands the chat answers itself (with pickers), completed with the server's.
M.LOCAL_COMMANDS = {
  { name = "rewind", description = "Rewind the code and/or the conversation to before a prompt: /rewind [N [both|conversation|code]]" },
  { name = "fork", description = "Fork the session into a new one: /fork [N]" },
}

---'omnifunc' for chat buffers: `@path` completes workspace files, `/name` at the start of a
---line completes the server's commands (available_commands_update).
function M.omnifunc(findstart, base)
  local buf = vim.api.nvim_get_current_buf()
  local chat = require("context_sidecar.chat").for_buffer(buf)
  if findstart == 1 then
    local line = vim.api.nvim_get_current_line():sub(1, vim.api.nvim_win_get_cursor(0)[2])
    local at = line:find("@[^%s@]*$")
    if at then
      return at - 1
    end
    if line:match("^/%S*$") then
      return 0
    end
    return -3
  end
  local items = {}
  if vim.startswith(base, "@") then
    local prefix = base:sub(2):lower()
    for _, path in ipairs(M.files(chat and chat.root or vim.fn.getcwd())) do
      if prefix == "" or path:lower():find(prefix, 1, true) then
        table.insert(items, { word = "@" .. path, menu = "file" })
      end
    end
    table.sort(items, function(a, b)
      -- Paths that start with what was typed first, then shorter paths.
      local as, bs = vim.startswith(a.word:lower(), base:lower()), vim.startswith(b.word:lower(), base:lower())
      if as ~= bs then
        return as
      end
      if #a.word ~= #b.word then
        return #a.word < #b.word
      end
      return a.word < b.word
    end)
  elseif vim.startswith(base, "/") then
    local commands = vim.list_extend(vim.deepcopy(chat and chat.commands or {}), M.LOCAL_COMMANDS)
    local seen = {}
    for _, command in ipairs(commands) do
      local name = tostring(nn(command.name) or "")
      if vim.startswith("/" .. name, base) and not seen[name] then
        seen[name] = true
        table.insert(items, { word = "/" .. name, menu = nn(command.description) or "", info = nn(command.description) or "" })
      end
    end
  end
  return items
end

---@param root string
---@param path string absolute or relative to root
---@return string absolute
local function absolute(root, path)
  if path:sub(1, 1) == "/" then
    return vim.fs.normalize(path)
  end
  return vim.fs.normalize(root .. "/" .. path)
end

---The content blocks of a prompt: the text, then one block per `@reference` in it: a
---selection added with `:ContextSidecarAdd` (embedded text) or an existing file (a link).
---@param chat context_sidecar.Chat
---@param text string
---@return table[]
function M.prompt_blocks(chat, text)
  local blocks = { { type = "text", text = text } }
  local seen = {}
  local selections = chat.selections or {}
  for ref in text:gmatch("@([^%s]+)") do
    ref = ref:gsub("[%.,;:!?%)]+$", "")
    if not seen[ref] then
      seen[ref] = true
      local selection = selections[ref]
      local file, first, last = ref:match("^(.-)#L(%d+)%-?(%d*)$")
      if not selection and file and vim.fn.filereadable(absolute(chat.root, file)) == 1 then
        -- A range typed by hand (or added before a restart): read those lines from disk.
        local path = absolute(chat.root, file)
        first, last = tonumber(first), tonumber(last) or tonumber(first)
        local lines = vim.list_slice(vim.fn.readfile(path), first, last)
        selection = { type = "resource", resource = {
          uri = vim.uri_from_fname(path) .. ("#L%d-%d"):format(first, last),
          text = table.concat(lines, "\n"),
          mimeType = "text/plain",
        } }
      end
      if selection then
        table.insert(blocks, selection)
      else
        local path = absolute(chat.root, ref)
        if vim.fn.filereadable(path) == 1 then
          table.insert(blocks, { type = "resource_link", uri = vim.uri_from_fname(path), name = ref })
        end
      end
    end
  end
  chat.selections = {}
  return blocks
end

---The reference for `buf` lines `first..last` (1-based) and its `resource` block.
---@param root string
---@param buf integer
---@param first integer|nil
---@param last integer|nil
---@return string ref, table|nil block nil for a whole file (a resource_link at send time)
function M.reference(root, buf, first, last)
  local name = vim.api.nvim_buf_get_name(buf)
  local rel = name ~= "" and vim.fs.relpath and vim.fs.relpath(root, name) or nil
  rel = rel or (name ~= "" and vim.fn.fnamemodify(name, ":~:.") or ("buffer" .. buf))
  if not first then
    return rel, nil
  end
  local ref = first == last and ("%s#L%d"):format(rel, first) or ("%s#L%d-%d"):format(rel, first, last)
  local lines = vim.api.nvim_buf_get_lines(buf, first - 1, last, false)
  local uri = (name ~= "" and vim.uri_from_fname(name) or ("untitled:" .. rel)) .. ("#L%d-%d"):format(first, last)
  return ref, { type = "resource", resource = { uri = uri, text = table.concat(lines, "\n"), mimeType = "text/plain" } }
end

---Add `@reference` of the current file (or of lines first..last) to the chat's draft.
---@param chat context_sidecar.Chat
---@param buf integer
---@param first integer|nil
---@param last integer|nil
---@return string ref
function M.add(chat, buf, first, last)
  local ref, block = M.reference(chat.root, buf, first, last)
  if block then
    chat.selections = chat.selections or {}
    chat.selections[ref] = block
  end
  if chat.busy then
    -- The draft opens when the reply ends; the reference goes in then.
    chat.queued_refs = chat.queued_refs or {}
    table.insert(chat.queued_refs, "@" .. ref)
  else
    require("context_sidecar.transcript").append_to_draft(chat, "@" .. ref)
  end
  return ref
end

return M
