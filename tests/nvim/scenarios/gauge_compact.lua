-- Real sidecar: the statusline gauge moves through ok, warning and error as the session
-- grows (usage from the fake model), :ContextSidecar compact shows the saving in the chat
-- and drops the gauge, :ContextSidecar context opens the view, :ContextSidecar model switches.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  -- 60K window: effective 40K, auto-compact at 27K; warning at 13.5K and error at 17K.
  H.setup_real({
    contextWindow = 60000,
    errorBufferTokens = 10000,
    sessionMemory = { enabled = false },
  })
  vim.cmd("cd " .. vim.fn.fnameescape(os.getenv("CS_ROOT")))
  local cs = require("context_sidecar")
  local events = H.collect("ContextSidecarGauge")
  local chat = H.open_chat()
  H.mark("session_new")

  local seen = {}
  for i, expect in ipairs({ "ok", "warning", "error" }) do
    local done = H.turn(chat, "grow step " .. i, 90000)
    H.check(done.stopReason == "end_turn", "turn " .. i .. " ended: " .. vim.inspect(done.error))
    local line, hl = cs.statusline(), cs.statusline_hl()
    table.insert(seen, { statusline = line, hl = hl, level = cs.gauge().level, stage = cs.gauge().stage, used = cs.gauge().used })
    H.check(cs.gauge().level == expect, ("after turn %d level %s, want %s (%s)"):format(i, cs.gauge().level, expect, line))
    H.check(line:match("^ctx %d+%% [%d%.]+K/60K$") ~= nil, "statusline shape: " .. line)
  end
  H.mark("turns")
  H.record("seen", seen)
  -- The colour follows the gauge's presentation stage; a server without stages, the level.
  local by = { ok = "ContextSidecarOk", normal = "ContextSidecarOk", warning = "ContextSidecarWarning", error = "ContextSidecarError", blocking = "ContextSidecarBlocking" }
  for i, s in ipairs(seen) do
    H.check(s.hl == by[s.stage or s.level], ("turn %d: highlight %s for stage %s, level %s"):format(i, s.hl, tostring(s.stage), s.level))
  end
  H.check(seen[1].used < seen[2].used and seen[2].used < seen[3].used, "used grows")
  -- Every published gauge is newer than the one before it.
  local last_seq = -1
  for _, g in ipairs(events) do
    H.check(g.seq > last_seq, "gauge events in seq order")
    last_seq = g.seq
  end
  H.record("event_levels", vim.tbl_map(function(g)
    return g.level
  end, events))

  -- Manual compaction by command.
  local compacted
  cs.compact("keep the numbers", function(err, result)
    compacted = { err = err, result = result }
  end)
  H.wait(30000, function()
    return compacted ~= nil
  end, "sidecar/compact")
  H.mark("compact")
  H.check(compacted.err == nil, "compact ok: " .. vim.inspect(compacted.err))
  H.record("compact", compacted.result)
  H.wait(3000, function()
    return H.text(chat.buf):find("↻ Compacted (manual", 1, true) ~= nil
  end, "compaction shown in the chat")
  local text = H.text(chat.buf)
  H.check(text:find("saved %d") ~= nil or text:find("saved [%d%.]+K") ~= nil, "tokens saved shown")
  H.wait(3000, function()
    return cs.gauge().used < seen[3].used
  end, "gauge drop after compaction")
  H.record("after_compact", { statusline = cs.statusline(), hl = cs.statusline_hl(), level = cs.gauge().level })
  H.check(cs.gauge().level == "ok", "level ok after compaction: " .. cs.statusline())
  H.check(require("context_sidecar.chat").draft(chat) == "", "draft area kept empty")

  -- The /context view.
  local view_buf
  vim.api.nvim_set_current_buf(chat.buf)
  cs.context(function(buf)
    view_buf = buf
  end)
  H.wait(5000, function()
    return view_buf ~= nil
  end, "sidecar/context")
  local view = H.lines(view_buf)
  H.record("context_view", view)
  H.check(view[1]:match("^# Context: [%d,]+ / 60,000 tokens") ~= nil, "context header: " .. view[1])
  H.check(vim.tbl_contains(view, "| part | tokens |"), "breakdown table")

  -- Model switch.
  vim.api.nvim_set_current_buf(chat.buf)
  local switched
  cs.model("claude-haiku-4-5", function(err, result)
    switched = { err = err, result = result }
  end)
  H.wait(5000, function()
    return switched ~= nil
  end, "session/set_model")
  H.check(switched.err == nil, "set_model ok: " .. vim.inspect(switched.err))
  H.check(cs.gauge().model == "claude-haiku-4-5", "gauge reports the new model")
  H.mark("done")
end)
