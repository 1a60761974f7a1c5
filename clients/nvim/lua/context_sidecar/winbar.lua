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

local ORDER = { "model", "title", "gauge", "next", "mode", "mcp", "restricted" }
-- What gives way first when the window is narrow: the long "next" text, then the MCP count,
-- the title, the model, the help hint and the trust warning. The gauge and the mode stay.
local YIELD = { "next", "mcp", "title", "model", "help", "restricted" }
-- Items that shrink (with an ellipsis) before they are dropped, and their shortest useful width.
local SHRINK = { next = 12, title = 8 }
local SEP = " · "

local function width_of(text)
  return vim.fn.strdisplaywidth(text)
end

---Cut `text` to at most `cols` display columns, ending in an ellipsis when cut.
local function shorten(text, cols)
  if width_of(text) <= cols then
    return text
  end
  local chars = vim.fn.strchars(text)
  local out = ""
  for n = chars, 1, -1 do
    out = vim.fn.strcharpart(text, 0, n) .. "…"
    if width_of(out) <= cols then
      return out
    end
  end
  return "…"
end

---The winbar's items fitted to `width` columns: a list of `{key, text}` in display order and
---whether the help hint fits. Without `width` everything is kept.
---@param chat context_sidecar.Chat
---@param width integer|nil
---@return {key: string, text: string}[] items
---@return string|nil help
function M.layout(chat, width)
  local p = M.parts(chat)
  local shown = {}
  for _, key in ipairs(ORDER) do
    if p[key] and p[key] ~= "" then
      shown[key] = key == "mode" and ("mode: " .. p[key]) or tostring(p[key])
    end
  end
  local help_key = require("context_sidecar.config").get().mappings.help
  local help = help_key and (help_key .. " help") or nil
  local function total()
    local n, cols = 0, 1 -- the leading space
    for _, key in ipairs(ORDER) do
      if shown[key] then
        cols = cols + (n > 0 and width_of(SEP) or 0) + width_of(shown[key])
        n = n + 1
      end
    end
    if help then
      cols = cols + 1 + width_of(help)
    end
    return cols
  end
  if width then
    for _, key in ipairs(YIELD) do
      local over = total() - width
      if over <= 0 then
        break
      end
      if key == "help" then
        help = nil
      elseif shown[key] then
        local room = width_of(shown[key]) - over
        if SHRINK[key] and room >= SHRINK[key] then
          shown[key] = shorten(shown[key], room)
        else
          shown[key] = nil
        end
      end
    end
  end
  local items = {}
  for _, key in ipairs(ORDER) do
    if shown[key] then
      table.insert(items, { key = key, text = shown[key] })
    end
  end
  return items, help
end

---Plain text of the winbar (what the user reads); fitted to `width` columns when given (the
---help hint on the right is left out).
---@param chat context_sidecar.Chat
---@param width integer|nil
---@return string
function M.text(chat, width)
  local items = M.layout(chat, width)
  local texts = {}
  for _, item in ipairs(items) do
    table.insert(texts, item.text)
  end
  return table.concat(texts, SEP)
end

---'winbar' expression for chat windows, evaluated on every redraw: it fits the window's
---current width, so a resize shows as much as fits (the gauge and the mode always).
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
  local items, help = M.layout(chat, vim.api.nvim_win_get_width(win))
  local out = {}
  for _, item in ipairs(items) do
    local text = escape(item.text)
    if item.key == "model" then
      text = "%#ContextSidecarModel#" .. text .. "%*"
    elseif item.key == "gauge" or item.key == "next" then
      text = ("%%#%s#%s%%*"):format(p.hl, text)
    elseif item.key == "mode" then
      text = "%#ContextSidecarMode#" .. text .. "%*"
    elseif item.key == "restricted" then
      text = "%#WarningMsg#" .. text .. "%*"
    end
    table.insert(out, text)
  end
  local right = help and ("%=" .. escape(help)) or ""
  -- Anything still too wide is cut at the end, never before the gauge.
  return " " .. table.concat(out, SEP) .. "%<" .. right
end

return M
