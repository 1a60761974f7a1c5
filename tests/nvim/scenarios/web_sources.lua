-- Real sidecar + fake LLM: the provider's web search and fetch render as tool blocks whose
-- output lists the pages read as markdown links, and the /context view says which of the
-- provider's tools the model has.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  local cs = require("context_sidecar")
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false } })
  local chat = H.open_chat()
  local done = H.turn(chat, "any python news?", 60000)
  H.check(done.stopReason == "end_turn", "turn ended: " .. vim.inspect(done))
  H.record("lines", H.lines(chat.buf))
  local view_buf
  cs.context(function(buf)
    view_buf = buf
  end)
  H.wait(5000, function()
    return view_buf ~= nil
  end, "sidecar/context")
  H.record("context_view", H.lines(view_buf))
end)
