-- Real sidecar + fake LLM: in plan mode the model writes its plan and calls ExitPlanMode; the
-- plan float is answered "n" (keep planning) and vim.ui.input asks what should change. What
-- the user types goes with the answer, and the model reads it (the test checks the request).
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  local root = os.getenv("CS_ROOT")
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false } })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  local inputs = {}
  vim.ui.input = function(opts, on_confirm)
    table.insert(inputs, { prompt = opts.prompt, kind = opts.kind })
    vim.defer_fn(function()
      on_confirm("split it in two steps")
    end, 20)
  end
  local chat = H.open_chat()
  vim.cmd("ContextSidecarPlan")
  H.wait(20000, function()
    return chat.mode == "plan"
  end, "plan mode")
  local poll = vim.uv.new_timer()
  poll:start(50, 50, vim.schedule_wrap(function()
    if chat.review and not chat.review.answered then
      local wins = vim.api.nvim_tabpage_list_wins(0)
      -- The plan's Write opens as a diff (accept it); the plan itself asks in a float.
      vim.api.nvim_feedkeys(#wins > 1 and vim.wo[wins[1]].diff and "a" or "n", "x", false)
    end
  end))
  local done = H.turn(chat, "plan the change", 90000)
  poll:stop()
  H.check(done.stopReason == "end_turn", "the planning turn ended: " .. vim.inspect(done))
  H.check(chat.mode == "plan", "still planning: " .. tostring(chat.mode))
  H.record("inputs", inputs)
  H.record("lines", H.lines(chat.buf))
end)
