-- Real sidecar with MCP servers from the workspace's .mcp.json: the winbar counts the
-- connected ones (mcp_status_update), :ContextSidecarMcp lists each with its status, tools
-- or error, and :checkhealth reports the failed one.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  local root = os.getenv("CS_ROOT")
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false }, mcp = { startupTimeoutSeconds = 30, maxRestarts = 0 } })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  local cs = require("context_sidecar")
  local winbar = require("context_sidecar.winbar")
  local chat = H.open_chat()
  -- Servers connect in the background once the session is used.
  H.turn(chat, "hello", 90000)
  H.wait(60000, function()
    return winbar.text(chat):find("mcp 1/2", 1, true) ~= nil
  end, "one of two MCP servers connected")
  H.check(vim.endswith(winbar.text(chat), " · mcp 1/2"), "winbar ends with the count: " .. winbar.text(chat))
  H.check(cs.statusline_mcp() == "mcp 1/2", "statusline count")
  local buf
  vim.cmd("ContextSidecarMcp")
  H.wait(10000, function()
    buf = vim.fn.bufnr("context-sidecar://mcp")
    return buf ~= -1
  end, ":ContextSidecarMcp")
  local lines = H.lines(buf)
  H.record("mcp_view", lines)
  vim.cmd("close")
  vim.cmd("checkhealth context_sidecar")
  H.record("health", H.lines(0))
end)
