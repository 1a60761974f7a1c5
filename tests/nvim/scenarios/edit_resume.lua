-- Real sidecar + fake LLM, two editor runs on one workspace (CS_PHASE 1, then 2).
-- Phase 1: the model writes a file through workspace/applyEdit; the client saves it, so the
-- model's next shell command reads the new text and no buffer is left unsaved (:qa works).
-- Phase 2 (a restarted editor): :ContextSidecar chat reopens that session and replays it.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  local root = os.getenv("CS_ROOT")
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false } })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  local cs = require("context_sidecar")
  H.stub_select(function(items)
    for _, item in ipairs(items) do
      if item.kind == "allow_once" then
        return item
      end
    end
  end)
  local chat = H.open_chat()
  H.record("session_id", chat.session_id)
  -- An edit the sidecar asks about (the default mode) opens as a diff: accept it with `a`.
  local reviewed = {}
  local poll = vim.uv.new_timer()
  poll:start(50, 50, vim.schedule_wrap(function()
    if chat.review and not chat.review.answered then
      local wins = vim.api.nvim_tabpage_list_wins(0)
      table.insert(reviewed, H.lines(vim.api.nvim_win_get_buf(wins[#wins])))
      vim.api.nvim_feedkeys("a", "x", false)
    end
  end))
  H.record("reviewed", reviewed)
  if os.getenv("CS_PHASE") == "1" then
    local done = H.turn(chat, "write hello.txt", 90000)
    H.check(done.stopReason == "end_turn", "write turn ended: " .. vim.inspect(done))
    local buf = vim.fn.bufnr(root .. "/hello.txt")
    H.check(buf ~= -1 and not vim.bo[buf].modified, "the written buffer is saved")
    H.check(vim.deep_equal(vim.fn.readfile(root .. "/hello.txt"), { "hello from the model" }), "the file is on disk")
    done = H.turn(chat, "run cat", 60000)
    H.check(done.stopReason == "end_turn", "cat turn ended")
    local blocking = {}
    for _, info in ipairs(vim.fn.getbufinfo({ bufmodified = 1 })) do
      if vim.bo[info.bufnr].buftype == "" then
        table.insert(blocking, info.name)
      end
    end
    H.check(#blocking == 0, ":qa would stop on E37 for " .. table.concat(blocking, ", "))
  else
    H.check(cs ~= nil, "phase 2")
  end
  H.record("name", vim.api.nvim_buf_get_name(chat.buf))
  H.record("lines", H.lines(chat.buf))
end)
