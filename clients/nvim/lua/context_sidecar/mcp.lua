---MCP servers as the sidecar reports them (`mcp_status_update`, `sidecar/context`): kept per
---workspace root for `:ContextSidecarMcp`, `:checkhealth` and the winbar count. Each server is
---said in words (the sidecar's `label`: "waiting for your approval", "connected · 8 tools"),
---and the picker (vim.ui.select) approves, rejects or retries one (`sidecar/mcpAction`).
local M = {}

local WAITING = "waiting for approval"
local RESTRICTED = "not started: the folder is in the editor's Restricted Mode"
local REJECTED = "not started: rejected"
M.ACTION_NAMES = { approve = "Approve", reject = "Reject", retry = "Retry" }

local nn = require("context_sidecar.client").value

---@type table<string, context_sidecar.McpServer[]>
local by_root = {}

---@param root string|nil
---@param servers context_sidecar.McpServer[]|nil
function M.update(root, servers)
  if type(servers) ~= "table" then
    return
  end
  by_root[root or ""] = servers
  vim.api.nvim_exec_autocmds("User", { pattern = "ContextSidecarMcp", modeline = false, data = { root = root, servers = servers } })
  vim.cmd("redrawstatus!")
end

---@param root string|nil
---@return context_sidecar.McpServer[]
function M.servers(root)
  return by_root[root or ""] or by_root[""] or {}
end

---What the server is in: a hold (waiting, rejected, untrusted) is no failure. From the
---sidecar's `state`, or read from `status` and `error` (a sidecar from before it).
---@param s context_sidecar.McpServer
---@return string
function M.state(s)
  local state, status, err = nn(s.state), nn(s.status), nn(s.error)
  if state then
    return state
  end
  if status == "failed" and err == WAITING then
    return "waiting"
  end
  if status == "failed" and type(err) == "string" and vim.startswith(err, RESTRICTED) then
    return "untrusted"
  end
  if status == "failed" and type(err) == "string" and vim.startswith(err, REJECTED) then
    return "rejected"
  end
  return tostring(status or "?")
end

---The state in words.
---@param s context_sidecar.McpServer
---@return string
function M.label(s)
  if type(nn(s.label)) == "string" then
    return s.label
  end
  local state, tools = M.state(s), nn(s.tools) or {}
  if state == "waiting" then
    return "waiting for your approval"
  elseif state == "untrusted" then
    return "not used: the folder is not trusted"
  elseif state == "rejected" then
    return "rejected for this workspace"
  elseif state == "starting" then
    return "connecting…"
  elseif state == "connected" then
    return ("connected · %d %s"):format(#tools, #tools == 1 and "tool" or "tools")
  elseif state == "failed" then
    return nn(s.error) and ("failed: " .. tostring(s.error)) or "failed"
  end
  return state
end

---What can be done about it now (`sidecar/mcpAction`'s actions).
---@param s context_sidecar.McpServer
---@return string[]
function M.actions(s)
  local actions = nn(s.actions)
  if type(actions) == "table" then
    return actions
  end
  local state = M.state(s)
  if state == "waiting" then
    return { "approve", "reject" }
  elseif state == "rejected" then
    return { "approve" }
  end
  return {}
end

---`mcp 2/3` (connected of all), `, 1 waiting` when servers wait for the user's approval;
---nil when there are no servers.
---@param root string|nil
---@return string|nil
function M.summary(root)
  local servers = M.servers(root)
  if #servers == 0 then
    return nil
  end
  local connected, waiting = 0, 0
  for _, s in ipairs(servers) do
    local state = M.state(s)
    if state == "connected" then
      connected = connected + 1
    elseif state == "waiting" then
      waiting = waiting + 1
    end
  end
  local text = ("mcp %d/%d"):format(connected, #servers)
  if waiting > 0 then
    text = text .. (", %d waiting"):format(waiting)
  end
  return text
end

---One line per server: `name · connected · 3 tools · stdio`, then its buttons, its error
---(when the words do not say it) and its tools.
---@param servers context_sidecar.McpServer[]
---@return string[]
function M.lines(servers)
  if #servers == 0 then
    return { "No MCP servers configured." }
  end
  local lines = {}
  for _, s in ipairs(servers) do
    local tools = nn(s.tools) or {}
    local state = M.state(s)
    table.insert(lines, ("%s · %s · %s"):format(tostring(nn(s.name) or "?"), M.label(s), tostring(nn(s.transport) or "?")))
    local names = vim.tbl_map(function(a)
      return M.ACTION_NAMES[a] or a
    end, M.actions(s))
    if #names > 0 then
      table.insert(lines, "    " .. table.concat(names, " / ") .. ": <CR> or :ContextSidecarMcp pick")
    end
    if nn(s.error) and state == "connected" then
      table.insert(lines, "    note: " .. tostring(s.error))
    end
    if #tools > 0 then
      table.insert(lines, "    tools: " .. table.concat(tools, ", "))
    end
  end
  return lines
end

---`sidecar/mcpAction` for the current chat's session; the servers it answers with replace the
---ones shown, and its message is notified.
---@param name string
---@param action string
---@param cb? fun(err: table|nil, result: table|nil)
function M.act(name, action, cb)
  local chat = require("context_sidecar.chat").current()
  if not chat or not chat.session_id or not chat.state then
    vim.notify("context_sidecar: open a chat first (its session owns the MCP servers)", vim.log.levels.WARN)
    return
  end
  require("context_sidecar.api").mcp_action(chat.state, { sessionId = chat.session_id, server = name, action = action }, function(err, result)
    if err then
      vim.notify("context_sidecar: " .. tostring(err.message), vim.log.levels.ERROR)
    elseif result then
      if type(nn(result.servers)) == "table" then
        M.update(chat.root, result.servers)
      end
      vim.notify("context_sidecar: " .. tostring(result.message), result.done and vim.log.levels.INFO or vim.log.levels.WARN)
    end
    if cb then
      cb(err, result)
    end
  end)
end

---Pick what to do about `server` (vim.ui.select), then do it.
---@param server context_sidecar.McpServer
---@param cb? fun(err: table|nil, result: table|nil)
function M.pick_action(server, cb)
  local actions = M.actions(server)
  if #actions == 0 then
    vim.notify(("context_sidecar: MCP server %s: %s"):format(server.name, M.label(server)), vim.log.levels.INFO)
    return
  end
  vim.ui.select(actions, {
    prompt = ("MCP server %s (%s):"):format(server.name, M.label(server)),
    kind = "context_sidecar_mcp_action",
    format_item = function(a)
      return M.ACTION_NAMES[a] or a
    end,
  }, function(action)
    if action then
      M.act(server.name, action, cb)
    end
  end)
end

---The picker: the current workspace's servers in words (vim.ui.select); one that waits for
---approval, was rejected or failed is then approved, rejected or retried.
---@param cb? fun(err: table|nil, result: table|nil)
function M.pick(cb)
  local chat = require("context_sidecar.chat").current()
  local servers = M.servers(chat and chat.root or nil)
  if #servers == 0 then
    vim.notify("context_sidecar: no MCP servers are configured for this session", vim.log.levels.INFO)
    return
  end
  vim.ui.select(servers, {
    prompt = "MCP servers:",
    kind = "context_sidecar_mcp",
    format_item = function(s)
      local names = vim.tbl_map(function(a)
        return M.ACTION_NAMES[a] or a
      end, M.actions(s))
      return ("%s · %s%s"):format(s.name, M.label(s), #names > 0 and ("  [" .. table.concat(names, " / ") .. "]") or "")
    end,
  }, function(server)
    if server then
      M.pick_action(server, cb)
    end
  end)
end

---Show the servers in a scratch buffer (a split), refreshed from `sidecar/context` when a
---chat is open.
---@param cb? fun(buf: integer)
function M.show(cb)
  local chat = require("context_sidecar.chat").current()
  local function open(servers)
    local buf = vim.api.nvim_create_buf(false, true)
    local lines = { "MCP servers", "" }
    vim.list_extend(lines, M.lines(servers))
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    vim.bo[buf].modifiable = false
    vim.bo[buf].bufhidden = "wipe"
    pcall(vim.api.nvim_buf_set_name, buf, "context-sidecar://mcp")
    vim.cmd("botright split")
    vim.api.nvim_win_set_buf(0, buf)
    vim.api.nvim_win_set_height(0, math.min(#lines + 1, 15))
    vim.keymap.set("n", "q", "<cmd>close<cr>", { buffer = buf, nowait = true })
    vim.keymap.set("n", "<CR>", function()
      local line = vim.api.nvim_get_current_line()
      for _, s in ipairs(servers) do
        if vim.startswith(line, tostring(s.name) .. " · ") then
          vim.cmd("close")
          M.pick_action(s)
          return
        end
      end
    end, { buffer = buf, nowait = true, desc = "approve, reject or retry the server" })
    if cb then
      cb(buf)
    end
  end
  if not chat then
    open(M.servers(nil))
    return
  end
  require("context_sidecar.api").context(chat.state, { sessionId = chat.session_id }, function(err, result)
    local servers = not err and result and nn(result.mcpServers)
    if type(servers) == "table" then
      M.update(chat.root, servers)
    end
    open(M.servers(chat.root))
  end)
end

function M.reset()
  by_root = {}
end

return M
