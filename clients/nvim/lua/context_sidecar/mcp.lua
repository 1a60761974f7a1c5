---MCP servers as the sidecar reports them (`mcp_status_update`, `sidecar/context`): kept per
---workspace root for `:ContextSidecarMcp`, `:checkhealth` and the winbar count.
local M = {}

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

---`mcp 2/3` (connected of all), or nil when there are no servers.
---@param root string|nil
---@return string|nil
function M.summary(root)
  local servers = M.servers(root)
  if #servers == 0 then
    return nil
  end
  local connected = 0
  for _, s in ipairs(servers) do
    if nn(s.status) == "connected" then
      connected = connected + 1
    end
  end
  return ("mcp %d/%d"):format(connected, #servers)
end

---One line per server: `name · connected · stdio · 3 tools`, plus its error.
---@param servers context_sidecar.McpServer[]
---@return string[]
function M.lines(servers)
  if #servers == 0 then
    return { "No MCP servers configured." }
  end
  local lines = {}
  for _, s in ipairs(servers) do
    local tools = nn(s.tools) or {}
    table.insert(lines, ("%s · %s · %s · %d %s"):format(
      tostring(nn(s.name) or "?"),
      tostring(nn(s.status) or "?"),
      tostring(nn(s.transport) or "?"),
      #tools,
      #tools == 1 and "tool" or "tools"
    ))
    if nn(s.error) then
      table.insert(lines, "    error: " .. tostring(s.error))
    end
    if #tools > 0 then
      table.insert(lines, "    tools: " .. table.concat(tools, ", "))
    end
  end
  return lines
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
