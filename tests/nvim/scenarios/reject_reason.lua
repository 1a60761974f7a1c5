-- Real sidecar + fake LLM: rejecting a command (vim.ui.select) and an edit (the diff view's
-- reject key) asks why through vim.ui.input; what the user types goes with the answer, the
-- model reads it, and the row shows it. Enter on an empty line rejects without a reason.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  local root = os.getenv("CS_ROOT")
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false } })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  H.stub_select(function(items)
    for _, item in ipairs(items) do
      if item.kind == "reject_once" then
        return item
      end
    end
  end)
  -- What the user types at each "Why?" (asynchronously, as input plugins answer).
  local typed = { "use printf instead", "keep the greeting in README", "" }
  local inputs = {}
  vim.ui.input = function(opts, on_confirm)
    table.insert(inputs, { prompt = opts.prompt, kind = opts.kind })
    local text = table.remove(typed, 1)
    vim.defer_fn(function()
      on_confirm(text)
    end, 20)
  end
  local chat = H.open_chat()
  -- An edit opens as a diff: reject it with the reject key.
  local reviewed = 0
  local poll = vim.uv.new_timer()
  poll:start(50, 50, vim.schedule_wrap(function()
    if chat.review and not chat.review.answered then
      reviewed = reviewed + 1
      vim.api.nvim_feedkeys(require("context_sidecar.config").get().mappings.reject, "x", false)
    end
  end))

  local done = H.turn(chat, "run the echo tool", 60000)
  H.check(done.stopReason == "end_turn", "command turn ended: " .. vim.inspect(done))
  done = H.turn(chat, "write hello.txt", 60000)
  H.check(done.stopReason == "end_turn", "edit turn ended: " .. vim.inspect(done))
  H.check(reviewed >= 1, "the edit was reviewed as a diff")
  H.check(vim.fn.filereadable(root .. "/hello.txt") == 0, "the rejected file was not written")
  done = H.turn(chat, "run the echo tool again", 60000)
  H.check(done.stopReason == "end_turn", "third turn ended")
  poll:stop()
  H.record("inputs", inputs)
  H.record("lines", H.lines(chat.buf))
end)
