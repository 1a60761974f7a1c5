---Options for the Neovim client: defaults, validation and the merged result.
local M = {}

---@class context_sidecar.ChatOptions
---@field layout "vertical"|"horizontal"|"float"|"current" where `:ContextSidecar chat` opens the buffer
---@field width number columns (>= 1) or a fraction of the editor width
---@field height number lines (>= 1) or a fraction of the editor height
---@field max_tool_lines integer tool output lines shown in a tool call's fold

---@class context_sidecar.Mappings
---@field submit string|false normal-mode key in a chat buffer that sends the draft
---@field submit_insert string|false insert-mode key that sends the draft
---@field cancel string|false normal-mode key that cancels the running turn
---@field close string|false normal-mode key that closes the chat window
---@field retry string|false normal-mode key that sends the last message again
---@field help string|false normal-mode key that lists the chat's keymaps
---@field mode string|false normal-mode key that picks the permission mode
---@field accept string|false in an edit's diff: accept this edit
---@field accept_all string|false in an edit's diff: accept every edit of this turn
---@field reject string|false in an edit's diff (and the plan view): reject

---@class context_sidecar.Config
---@field cmd string[] how the sidecar is started (LSP over stdio)
---@field cmd_env table<string,string>|nil extra environment for the sidecar process
---@field root_markers string[] files or folders that mark a workspace root
---@field settings table the `contextSidecar` settings object (docs/protocol.md), passed through untouched
---@field model string|nil model for new sessions until one is picked (sent as the settings' model when they name none)
---@field attach_buffers boolean attach file buffers under the root so the sidecar sees unsaved text
---@field resume_last_session boolean `:ContextSidecar chat` reopens the workspace's last session
---@field chat context_sidecar.ChatOptions
---@field mappings context_sidecar.Mappings
---@field statusline {prefix: string}

---@type context_sidecar.Config
M.defaults = {
  cmd = { "context-sidecar", "serve" },
  cmd_env = nil,
  root_markers = { ".git", ".context-sidecar" },
  settings = {},
  model = nil,
  attach_buffers = true,
  resume_last_session = true,
  chat = {
    layout = "vertical",
    width = 0.4,
    height = 0.4,
    max_tool_lines = 40,
  },
  mappings = {
    submit = "<CR>",
    submit_insert = "<C-s>",
    cancel = "<C-c>",
    close = "q",
    retry = "R",
    help = "?",
    mode = "gm",
    accept = "a",
    accept_all = "A",
    reject = "r",
  },
  statusline = {
    prefix = "ctx",
  },
}

---@type context_sidecar.Config
local current = vim.deepcopy(M.defaults)

-- vim.validate changed shape in 0.11 (positional form; the table form is deprecated there),
-- so pick the form the running editor prefers.
local has_positional_validate = vim.fn.has("nvim-0.11") == 1

---@param name string
---@param value any
---@param validator string|string[]|fun(v: any): boolean, string?
---@param optional? boolean
---@param message? string
local function check(name, value, validator, optional, message)
  if has_positional_validate then
    if type(validator) == "function" then
      vim.validate(name, value, validator, optional, message)
    else
      vim.validate(name, value, validator, optional)
    end
  else
    vim.validate({ [name] = { value, validator, optional or message } })
  end
end

local function is_string_list(v)
  if type(v) ~= "table" then
    return false
  end
  for _, item in ipairs(v) do
    if type(item) ~= "string" then
      return false
    end
  end
  -- Holes or string keys mean it is not a plain list.
  return #v == vim.tbl_count(v)
end

local function key_or_false(v)
  return v == false or type(v) == "string"
end

local function size_value(v)
  return type(v) == "number" and v > 0
end

---Raise a readable error when `cfg` has a value of the wrong shape.
---@param cfg context_sidecar.Config
function M.validate(cfg)
  check("cmd", cfg.cmd, function(v)
    return is_string_list(v) and #v > 0
  end, false, "non-empty list of strings")
  check("cmd_env", cfg.cmd_env, "table", true)
  check("root_markers", cfg.root_markers, is_string_list, false, "list of strings")
  check("settings", cfg.settings, "table")
  check("model", cfg.model, "string", true)
  check("attach_buffers", cfg.attach_buffers, "boolean")
  check("resume_last_session", cfg.resume_last_session, "boolean")
  check("chat", cfg.chat, "table")
  check("chat.layout", cfg.chat.layout, function(v)
    return vim.tbl_contains({ "vertical", "horizontal", "float", "current" }, v)
  end, false, "one of vertical, horizontal, float, current")
  check("chat.width", cfg.chat.width, size_value, false, "positive number")
  check("chat.height", cfg.chat.height, size_value, false, "positive number")
  check("chat.max_tool_lines", cfg.chat.max_tool_lines, size_value, false, "positive number")
  check("mappings", cfg.mappings, "table")
  for _, name in ipairs({ "submit", "submit_insert", "cancel", "close", "retry", "help", "mode", "accept", "accept_all", "reject" }) do
    check("mappings." .. name, cfg.mappings[name], key_or_false, false, "key string or false")
  end
  check("statusline", cfg.statusline, "table")
  check("statusline.prefix", cfg.statusline.prefix, "string")
end

---Merge `opts` over the defaults, validate, and make the result current.
---Unknown top-level keys are reported rather than silently ignored.
---@param opts? table
---@return context_sidecar.Config
function M.set(opts)
  opts = opts or {}
  local unknown = {}
  for key in pairs(opts) do
    if M.defaults[key] == nil and key ~= "cmd_env" and key ~= "model" then
      table.insert(unknown, key)
    end
  end
  if #unknown > 0 then
    table.sort(unknown)
    vim.notify(
      "context_sidecar: unknown option(s) ignored: " .. table.concat(unknown, ", "),
      vim.log.levels.WARN
    )
  end
  local merged = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts)
  -- Lists replace rather than merge index by index, so a shorter cmd does not keep a tail.
  if opts.cmd then
    merged.cmd = vim.deepcopy(opts.cmd)
  end
  if opts.root_markers then
    merged.root_markers = vim.deepcopy(opts.root_markers)
  end
  if opts.settings then
    merged.settings = vim.deepcopy(opts.settings)
  end
  for _, key in ipairs(unknown) do
    merged[key] = nil
  end
  M.validate(merged)
  current = merged
  return current
end

---@return context_sidecar.Config
function M.get()
  return current
end

return M
