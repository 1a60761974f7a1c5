---Human dates for the session picker: "today 14:03", "yesterday 09:12", "Mon 18:40",
---"2026-11-02", from the ISO 8601 timestamps the sidecar stores (UTC or with an offset).
local M = {}

---Seconds since the epoch for an ISO 8601 timestamp, or nil when it does not parse.
---@param iso string
---@return integer|nil
function M.parse(iso)
  if type(iso) ~= "string" then
    return nil
  end
  local y, mo, d, h, mi, s, rest = iso:match("^(%d%d%d%d)-(%d%d)-(%d%d)[T ](%d%d):(%d%d):?(%d*)(.*)$")
  if not y then
    return nil
  end
  -- os.time reads the fields as local time; convert through the local offset to UTC.
  local fields = { year = tonumber(y), month = tonumber(mo), day = tonumber(d), hour = tonumber(h), min = tonumber(mi), sec = tonumber(s) or 0, isdst = false }
  local as_local = os.time(fields)
  local utc_of_local = os.time(os.date("!*t", as_local) --[[@as osdateparam]])
  local t = as_local + (as_local - utc_of_local)
  local sign, oh, om = rest:match("([+-])(%d%d):?(%d%d)$")
  if sign then
    local offset = tonumber(oh) * 3600 + tonumber(om) * 60
    t = sign == "+" and t - offset or t + offset
  end
  return t
end

---@param iso string
---@param now? integer seconds since the epoch (tests)
---@return string
function M.human(iso, now)
  local t = M.parse(iso)
  if not t then
    return tostring(iso or "")
  end
  now = now or os.time()
  local age = now - t
  if age >= 0 and age < 60 then
    return "just now"
  elseif age >= 0 and age < 3600 then
    return ("%d min ago"):format(math.floor(age / 60))
  end
  local day = os.date("%Y-%m-%d", t)
  if day == os.date("%Y-%m-%d", now) then
    return "today " .. os.date("%H:%M", t)
  elseif day == os.date("%Y-%m-%d", now - 86400) then
    return "yesterday " .. os.date("%H:%M", t)
  elseif age > 0 and age < 6 * 86400 then
    return os.date("%a %H:%M", t) --[[@as string]]
  elseif os.date("%Y", t) == os.date("%Y", now) then
    return os.date("%b %d", t) --[[@as string]]
  end
  return os.date("%Y-%m-%d", t) --[[@as string]]
end

return M
