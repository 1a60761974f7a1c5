-- Real sidecar, a workspace MCP server (.mcp.json) waiting for approval: the user dismisses
-- the sidecar's question, the winbar says the server waits, and the picker
-- (:ContextSidecarMcp pick, vim.ui.select) approves it; its tools then reach the model.
-- Rejected with /mcp reject, they do not; approved again from the list's <CR>, they do.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  local root = os.getenv("CS_ROOT")
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false }, mcp = { startupTimeoutSeconds = 30, maxRestarts = 0 } })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  local mcp = require("context_sidecar.mcp")
  local winbar = require("context_sidecar.winbar")
  local picks = {}
  -- The answers: the sidecar's question is dismissed; the picker takes the server named in
  -- `want.server`, then the action `want.action`.
  local want = {}
  vim.ui.select = function(items, opts, on_choice)
    local shown = vim.tbl_map(opts.format_item or tostring, items)
    table.insert(picks, { kind = opts.kind, prompt = opts.prompt, items = shown })
    if opts.kind == "context_sidecar_mcp" then
      for _, s in ipairs(items) do
        if s.name == want.server then
          return on_choice(s)
        end
      end
    elseif opts.kind == "context_sidecar_mcp_action" then
      for _, a in ipairs(items) do
        if a == want.action then
          return on_choice(a)
        end
      end
    end
    on_choice(nil)
  end
  local function state(name)
    for _, s in ipairs(mcp.servers(root)) do
      if s.name == name then
        return mcp.state(s), mcp.label(s)
      end
    end
  end
  local chat = H.open_chat()
  H.wait(60000, function()
    return state("probe") == "waiting"
  end, "the server waiting for approval")
  H.wait(5000, function()
    return winbar.text(chat):find("mcp 0/1, 1 waiting", 1, true) ~= nil
  end, "the winbar says one waits: " .. winbar.text(chat))
  H.record("waiting_label", select(2, state("probe")))
  H.turn(chat, "before approval", 60000)
  H.record("marks", { "before" })

  want = { server = "probe", action = "approve" }
  vim.cmd("ContextSidecarMcp pick")
  H.wait(60000, function()
    return state("probe") == "connected"
  end, "the server connected after Approve")
  H.record("connected_label", select(2, state("probe")))
  H.turn(chat, "after approval", 60000)

  -- Rejected (a connected server has nothing to approve: /mcp reject turns it off) ...
  H.turn(chat, "/mcp reject probe", 60000)
  H.wait(30000, function()
    return state("probe") == "rejected"
  end, "the server rejected")
  H.record("rejected_label", select(2, state("probe")))
  H.turn(chat, "after rejection", 60000)

  -- ... and approved again from the list: <CR> on its row opens the picker of its actions.
  want = { action = "approve" }
  vim.cmd("ContextSidecarMcp")
  local buf
  H.wait(10000, function()
    buf = vim.fn.bufnr("context-sidecar://mcp")
    return buf ~= -1
  end, ":ContextSidecarMcp")
  H.record("mcp_view", H.lines(buf))
  vim.fn.cursor(3, 1)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<CR>", true, false, true), "x", false)
  H.wait(60000, function()
    return state("probe") == "connected"
  end, "the server connected again")
  H.record("picks", picks)
  H.turn(chat, "approved again", 60000)
end)
