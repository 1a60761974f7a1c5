-- Real sidecar + fake LLM, with retries and error fixes on the server: an overloaded provider
-- shows a retry row that counts down and then says the call went through; a provider that
-- keeps failing ends the turn with the error in plain words, its fix, and R sends the message
-- again.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  local root = os.getenv("CS_ROOT")
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false }, retry = { maxRetries = 1, baseDelayMs = 1500, maxDelayMs = 1500 } })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  local chat = H.open_chat()
  local rows = {}
  local seen = H.collect("ContextSidecarTurnEnd")
  local function sample()
    for _, line in ipairs(H.lines(chat.buf)) do
      if line:find("^⟳") and rows[#rows] ~= line then
        table.insert(rows, line)
      end
    end
  end
  local poll = vim.uv.new_timer()
  poll:start(20, 20, vim.schedule_wrap(sample))
  local done = H.turn(chat, "first try", 90000)
  H.check(done.stopReason == "end_turn", "the retried turn ended")
  poll:stop()
  sample()
  H.record("retry_rows", rows)
  H.record("after_retry", H.lines(chat.buf))
  done = H.turn(chat, "second try", 90000)
  H.check(done.error ~= nil, "the failing turn ended with an error")
  local lines = H.lines(chat.buf)
  H.record("after_error", lines)
  local err_row
  for i, line in ipairs(lines) do
    if vim.startswith(line, "> **Error:** ") then
      err_row = i
    end
  end
  H.check(err_row ~= nil, "the error in plain words:\n" .. table.concat(lines, "\n"))
  H.check(vim.startswith(lines[err_row + 1], "> **Fix:** ") and lines[err_row + 2] == "> Press R to send the message again.", "the fix and the retry key")
  H.check(not lines[err_row]:find("%-330%d%d"), "no raw error code: " .. lines[err_row])
  vim.api.nvim_set_current_win(vim.fn.bufwinid(chat.buf))
  vim.api.nvim_feedkeys("R", "x", false)
  H.wait(90000, function()
    return #seen == 3
  end, "the message sent again")
  H.check(seen[3].stopReason == "end_turn", "the second try went through")
  H.record("final", H.lines(chat.buf))
end)
