---The context gauge: last Gauge per session, the statusline string, highlight groups, and
---subscribers (callbacks plus the `User ContextSidecarGauge` autocmd).
local M = {}

---Level -> highlight group. Linked by default, so a colourscheme or the user can override.
M.highlights = {
  ok = "ContextSidecarOk",
  warning = "ContextSidecarWarning",
  error = "ContextSidecarError",
  blocking = "ContextSidecarBlocking",
}

---Gauge stage -> level of the same colour.
M.STAGES = { normal = "ok", warning = "warning", error = "error", blocking = "blocking" }

local links = {
  ContextSidecarOk = "DiagnosticOk",
  ContextSidecarWarning = "DiagnosticWarn",
  ContextSidecarError = "DiagnosticError",
  ContextSidecarBlocking = "ErrorMsg",
  ContextSidecarModel = "Title",
  ContextSidecarMode = "Special",
}

---@type table<string, context_sidecar.Gauge>
local gauges = {}
---@type string|nil session shown by the statusline
local active
---@type table|nil last sidecar/didChangeStatus payload
local server_status
---@type table<integer, fun(gauge: context_sidecar.Gauge)>
local callbacks = {}
local next_callback = 0

function M.define_highlights()
  for group, target in pairs(links) do
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
end

local function nn(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

---@param gauge context_sidecar.Gauge
local function publish(gauge)
  for _, cb in pairs(callbacks) do
    local ok, err = pcall(cb, gauge)
    if not ok then
      vim.notify("context_sidecar: gauge callback failed: " .. tostring(err), vim.log.levels.WARN)
    end
  end
  vim.api.nvim_exec_autocmds("User", { pattern = "ContextSidecarGauge", modeline = false, data = gauge })
  vim.cmd("redrawstatus!")
end

---Record a gauge. Payloads whose `seq` is not newer than the one held are stale and dropped.
---@param gauge context_sidecar.Gauge|nil
---@return boolean applied
function M.update(gauge)
  if type(gauge) ~= "table" or type(gauge.sessionId) ~= "string" then
    return false
  end
  local prev = gauges[gauge.sessionId]
  local seq, prev_seq = tonumber(nn(gauge.seq)), prev and tonumber(nn(prev.seq))
  if prev and seq and prev_seq and seq <= prev_seq then
    return false
  end
  gauges[gauge.sessionId] = gauge
  if not active then
    active = gauge.sessionId
  end
  publish(gauge)
  return true
end

---A `usage_update` carries the full gauge under `_meta.sidecar`; without it only used/size
---are known, so keep the last level rather than inventing one.
---@param session_id string
---@param update table
---@return boolean applied
function M.from_usage_update(session_id, update)
  local meta = nn(update._meta)
  local gauge = type(meta) == "table" and nn(meta.sidecar) or nil
  if type(gauge) == "table" then
    gauge = vim.deepcopy(gauge)
    gauge.sessionId = gauge.sessionId or session_id
    return M.update(gauge)
  end
  local used, size = tonumber(nn(update.used)), tonumber(nn(update.size))
  if not used or not size then
    return false
  end
  local prev = gauges[session_id] or {}
  local partial = vim.tbl_extend("force", prev, {
    sessionId = session_id,
    used = used,
    size = size,
    percentUsed = size > 0 and used / size * 100 or 0,
    level = prev.level or "ok",
    seq = prev.seq,
  })
  gauges[session_id] = partial
  if not active then
    active = session_id
  end
  publish(partial)
  return true
end

---@param session_id string|nil
function M.set_active(session_id)
  if session_id and session_id ~= active then
    active = session_id
    vim.cmd("redrawstatus!")
  end
end

---@param session_id string
function M.forget(session_id)
  gauges[session_id] = nil
  if active == session_id then
    active = nil
  end
end

---@param session_id? string defaults to the active session
---@return context_sidecar.Gauge|nil
function M.get(session_id)
  return gauges[session_id or active or ""]
end

---@param params table|nil
function M.set_server_status(params)
  server_status = params
  vim.api.nvim_exec_autocmds("User", { pattern = "ContextSidecarStatus", modeline = false, data = params })
  vim.cmd("redrawstatus!")
end

---@return table|nil
function M.server_status()
  return server_status
end

---Register `cb(gauge)`; it is called at once with the current gauge, then on every change.
---@param cb fun(gauge: context_sidecar.Gauge)
---@return integer handle for `unsubscribe`
function M.subscribe(cb)
  next_callback = next_callback + 1
  callbacks[next_callback] = cb
  local gauge = M.get()
  if gauge then
    cb(gauge)
  end
  return next_callback
end

---@param handle integer
function M.unsubscribe(handle)
  callbacks[handle] = nil
end

---Compact token count: 950, 8.5K, 142K, 1.2M.
---@param n number
---@return string
function M.format_tokens(n)
  n = tonumber(n) or 0
  if n < 1000 then
    return tostring(math.floor(n + 0.5))
  end
  local function short(value, suffix)
    if value < 10 then
      local s = ("%.1f"):format(math.floor(value * 10) / 10):gsub("%.0$", "")
      return s .. suffix
    end
    return ("%d%s"):format(math.floor(value + 0.5), suffix)
  end
  if n < 1000000 then
    return short(n / 1000, "K")
  end
  return short(n / 1000000, "M")
end

---@param gauge context_sidecar.Gauge
---@return integer
function M.percent(gauge)
  local pct = tonumber(nn(gauge.percentUsed))
  if not pct then
    local used, size = tonumber(nn(gauge.used)) or 0, tonumber(nn(gauge.size)) or 0
    pct = size > 0 and used / size * 100 or 0
  end
  return math.floor(pct + 0.5)
end

---@param gauge? context_sidecar.Gauge
---@return string highlight group for the gauge's level
function M.highlight(gauge)
  gauge = gauge or M.get()
  -- `stage` is the presentation ramp; older servers only send `level`.
  local level = gauge and (M.STAGES[nn(gauge.stage) or ""] or nn(gauge.level)) or "ok"
  return M.highlights[level] or M.highlights.ok
end

---@class context_sidecar.StatuslineOpts
---@field session_id? string
---@field escape? boolean double `%` for use inside a 'statusline' expression or lualine
---@field highlight? boolean wrap in `%#Group#...%*` (implies escape)

---A short gauge string such as `ctx 71% 142K/200K`; empty when no session has reported.
---@param opts? context_sidecar.StatuslineOpts
---@return string
function M.statusline(opts)
  opts = opts or {}
  local gauge = M.get(opts.session_id)
  if not gauge then
    return ""
  end
  local prefix = require("context_sidecar.config").get().statusline.prefix
  local text = ("%s%d%% %s/%s"):format(
    prefix ~= "" and (prefix .. " ") or "",
    M.percent(gauge),
    M.format_tokens(nn(gauge.used) or 0),
    M.format_tokens(nn(gauge.size) or 0)
  )
  if opts.escape or opts.highlight then
    text = text:gsub("%%", "%%%%")
  end
  if opts.highlight then
    text = ("%%#%s#%s%%*"):format(M.highlight(gauge), text)
  end
  return text
end

---Drop everything (tests and client restarts).
function M.reset()
  gauges = {}
  active = nil
  server_status = nil
end

return M
