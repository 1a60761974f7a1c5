-- Real sidecar + fake LLM: `:ContextSidecar model` lists the provider's models with
-- vim.ui.select, the one picked answers the next prompt, and a new session keeps it.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  local root = os.getenv("CS_ROOT")
  H.setup_real()
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  local cs = require("context_sidecar")
  local chat = H.open_chat()
  H.check(chat.model == "claude-sonnet-5-5", "the session opens on the settings' model")

  local labels
  H.stub_select(function(items, opts)
    labels = vim.tbl_map(opts.format_item, items)
    H.record("select_prompt", opts.prompt)
    for _, item in ipairs(items) do
      if item.id == "claude-opus-5-5" then
        return item
      end
    end
  end)
  vim.cmd("ContextSidecar model")
  H.wait(60000, function()
    return chat.model == "claude-opus-5-5"
  end, "the picked model")
  H.record("labels", labels)
  H.record("select_kind", H.selects[1] and H.selects[1].kind)
  H.check(H.turn(chat, "first question", 60000).stopReason == "end_turn", "a turn on the picked model")

  local second
  cs.new(function(c)
    second = c
  end)
  H.wait(60000, function()
    return second ~= nil
  end, "the new session")
  H.check(second.session_id ~= chat.session_id, "a new session")
  H.record("new_model", second.model)
  H.check(H.turn(second, "second question", 60000).stopReason == "end_turn", "a turn in the new session")
end)
