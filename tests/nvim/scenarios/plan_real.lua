-- Real sidecar + fake LLM, with permission modes on the server: :ContextSidecarPlan enters
-- plan mode (session/set_mode), the model writes its plan and calls ExitPlanMode, the plan
-- float answers "Yes, and accept edits", and current_mode_update moves the winbar's mode.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  local root = os.getenv("CS_ROOT")
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false } })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  local winbar = require("context_sidecar.winbar")
  local chat = H.open_chat()
  H.check(chat.mode == "default", "a new session starts in the default mode: " .. tostring(chat.mode))
  H.check(#chat.available_modes == 4, "the server's four modes")
  local modes_seen = H.collect("ContextSidecarMode")
  vim.cmd("ContextSidecarPlan")
  H.wait(20000, function()
    return chat.mode == "plan"
  end, "plan mode")
  H.check(winbar.text(chat):find("mode: Plan", 1, true) ~= nil, "winbar shows Plan: " .. winbar.text(chat))

  local views = {}
  local poll = vim.uv.new_timer()
  poll:start(50, 50, vim.schedule_wrap(function()
    if chat.review and not chat.review.answered then
      local wins = vim.api.nvim_tabpage_list_wins(0)
      local buf = vim.api.nvim_get_current_buf()
      table.insert(views, { diff = #wins > 1 and vim.wo[wins[1]].diff, lines = H.lines(buf) })
      vim.api.nvim_feedkeys(#wins > 1 and vim.wo[wins[1]].diff and "a" or "y", "x", false)
    end
  end))
  local done = H.turn(chat, "plan the change", 90000)
  poll:stop()
  H.check(done.stopReason == "end_turn", "the planning turn ended")
  H.record("views", views)
  local plan_view = views[#views]
  H.check(plan_view and vim.deep_equal(plan_view.lines, {
    "# Plan", "1. Change main", "", "[y] Yes, and accept edits", "[d] Yes, ask before edits", "[n] No, keep planning",
  }), "the plan float: " .. vim.inspect(plan_view))
  H.wait(5000, function()
    return chat.mode == "acceptEdits"
  end, "current_mode_update to acceptEdits")
  H.check(winbar.text(chat):find("mode: Accept edits", 1, true) ~= nil, "winbar shows Accept edits: " .. winbar.text(chat))
  H.record("modes_seen", vim.tbl_map(function(d)
    return d.modeId
  end, modes_seen))
  H.record("lines", H.lines(chat.buf))
end)
