-- A subagent's tool calls (updates with _meta.sidecar.parentToolCallId) against an in-process
-- fake server: they fold into their Task call's block as one line each, never a block of
-- their own, and the Task call's report follows.
local H = dofile(os.getenv("CS_HELPERS"))
local F = dofile(os.getenv("CS_FAKE_SERVER"))

H.run(function()
  local cs = require("context_sidecar")
  local turns = {}
  F.install({
    protocol = require("context_sidecar.client").PROTOCOL_VERSION,
    turn = function(ctx)
      table.remove(turns, 1)(ctx)
    end,
  })
  cs.setup({ cmd = { "unused" }, settings = {} })
  vim.cmd("cd " .. vim.fn.fnameescape(os.getenv("CS_ROOT")))
  local chat = H.open_chat()
  local nested = { sidecar = { parentToolCallId = "task1" } }
  table.insert(turns, function(ctx)
    ctx.update({ sessionUpdate = "tool_call", toolCallId = "task1", title = "Find the config loader",
      kind = "think", status = "pending", rawInput = { subagent_type = "general-purpose" } })
    ctx.update({ sessionUpdate = "tool_call", toolCallId = "r1", title = "Read src/config.py",
      kind = "read", status = "pending", _meta = nested })
    ctx.update({ sessionUpdate = "tool_call_update", toolCallId = "r1", status = "completed",
      content = { { type = "content", content = { type = "text", text = "def load(): ..." } } }, _meta = nested })
    ctx.update({ sessionUpdate = "tool_call_update", toolCallId = "task1", status = "completed",
      content = { { type = "content", content = { type = "text", text = "load() in src/config.py" } } } })
    vim.defer_fn(function()
      ctx.finish("end_turn")
    end, 10)
  end)
  local done = H.turn(chat, "where is the config read?")
  H.check(done.stopReason == "end_turn", "turn ended")
  local text = H.text(chat.buf)
  H.record("lines", H.lines(chat.buf))
  H.check(text:find("    ↳ ✓ Read src/config.py", 1, true) ~= nil, "the subagent's read is a line of its Task block")
  H.check(text:find("⚙ Read src/config.py", 1, true) == nil, "and no block of its own")
  H.check(#vim.tbl_filter(function(b)
    return b.kind == "tool"
  end, chat.blocks) == 1, "one tool block")
end)
