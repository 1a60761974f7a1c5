-- Real sidecar with hooks: a SessionStart hook's output is a folded hook row above the first
-- draft, never assistant text.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false }, sessionStartHooks = { "echo started-hook" } })
  vim.cmd("cd " .. vim.fn.fnameescape(os.getenv("CS_ROOT")))
  local chat = H.open_chat()
  H.wait(30000, function()
    return H.text(chat.buf):find("⚑ Hook SessionStart", 1, true) ~= nil
  end, "the SessionStart hook row")
  local lines = H.lines(chat.buf)
  H.record("lines", lines)
  vim.api.nvim_win_call(vim.fn.bufwinid(chat.buf), function()
    H.check(vim.fn.foldclosed(2) == 1, "the hook row is folded")
  end)
end)
