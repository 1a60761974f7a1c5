---The chat window's winbar: model, title, the gauge coloured by its stage, the permission
---mode, and how to get help.
local M = {}

local nn = require("context_sidecar.client").value

local function escape(text)
  return (tostring(text):gsub("%%", "%%%%"))
end

---The parts of the winbar for `chat`, without highlights (tests and other bars use these).
---@param chat context_sidecar.Chat
---@return {model: string|nil, title: string|nil, gauge: string|nil, hl: string|nil, next: string|nil, mode: string|nil, mcp: string|nil, restricted: string|nil}
function M.parts(chat)
  local status = require("context_sidecar.status")
  local chat_mod = require("context_sidecar.chat")
  local gauge = status.get(chat.session_id)
  local parts = {
    model = chat.model or (gauge and nn(gauge.model)) or nil,
    title = chat.title,
    mode = chat.mode and chat_mod.mode_name(chat) or nil,
    mcp = require("context_sidecar.mcp").summary(chat.root),
    -- The sidecar reported the folder untrusted: its hooks, settings and MCP servers are not applied.
    restricted = (chat.state and chat.state.trust and chat.state.trust.trusted == false) and "restricted" or nil,
  }
  if gauge then
    parts.gauge = status.statusline({ session_id = chat.session_id })
    parts.hl = status.highlight(gauge)
    -- What happens next (e.g. the auto-compact point) once the gauge leaves the normal stage.
    local stage = nn(gauge.stage)
    if stage and stage ~= "normal" and type(nn(gauge.next)) == "string" then
      parts.next = gauge.next
    end
  end
  return parts
end

---Plain text of the winbar (what the user reads).
---@param chat context_sidecar.Chat
---@return string
function M.text(chat)
  local p = M.parts(chat)
  local items = {}
  for _, key in ipairs({ "model", "title", "gauge", "next", "mode", "mcp", "restricted" }) do
    if p[key] and p[key] ~= "" then
      table.insert(items, key == "mode" and ("mode: " .. p[key]) or p[key])
    end
  end
  return table.concat(items, " · ")
end

---'winbar' expression for chat windows.
---@return string
function M.render()
  local win = vim.g.statusline_winid or vim.api.nvim_get_current_win()
  local ok, buf = pcall(vim.api.nvim_win_get_buf, win)
  if not ok then
    return ""
  end
  local chat = require("context_sidecar.chat").for_buffer(buf)
  if not chat then
    return ""
  end
  local p = M.parts(chat)
  local items = {}
  if p.model then
    table.insert(items, "%#ContextSidecarModel#" .. escape(p.model) .. "%*")
  end
  if p.title then
    table.insert(items, escape(p.title))
  end
  if p.gauge then
    table.insert(items, ("%%#%s#%s%%*"):format(p.hl, escape(p.gauge)))
  end
  if p.next then
    table.insert(items, ("%%#%s#%s%%*"):format(p.hl, escape(p.next)))
  end
  if p.mode then
    table.insert(items, "%#ContextSidecarMode#mode: " .. escape(p.mode) .. "%*")
  end
  if p.mcp then
    table.insert(items, escape(p.mcp))
  end
  if p.restricted then
    table.insert(items, "%#WarningMsg#" .. escape(p.restricted) .. "%*")
  end
  local help = require("context_sidecar.config").get().mappings.help
  local right = help and ("%=" .. escape(help) .. " help") or ""
  return " " .. table.concat(items, " · ") .. right
end

return M
