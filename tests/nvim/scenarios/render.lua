-- Chat buffer rendering against an in-process fake server with exact, timed updates:
-- streamed text, a folded thought, a tool call with a permission prompt and status updates,
-- a compaction notice above the draft, cancelling a turn and a pending permission prompt.
local H = dofile(os.getenv("CS_HELPERS"))
local F = dofile(os.getenv("CS_FAKE_SERVER"))

H.run(function()
  local cs = require("context_sidecar")
  local chat_mod = require("context_sidecar.chat")
  local turns = {}
  local script = F.install({
    protocol = require("context_sidecar.client").PROTOCOL_VERSION,
    turn = function(ctx)
      table.remove(turns, 1)(ctx)
    end,
  })
  cs.setup({ cmd = { "unused" }, settings = {} })
  vim.cmd("cd " .. vim.fn.fnameescape(os.getenv("CS_ROOT")))

  local answered
  H.stub_select(function(items, opts)
    for _, item in ipairs(items) do
      if item.optionId == "allow" then
        return item
      end
    end
  end)

  local chat = H.open_chat()
  H.check(vim.api.nvim_get_current_buf() == chat.buf, "chat buffer is focused")
  H.check(vim.bo[chat.buf].filetype == "markdown", "filetype markdown")
  H.check(cs.statusline() == "ctx 10% 1K/10K", "gauge from session/new: " .. cs.statusline())
  H.check(H.lines(chat.buf)[1] == "## You", "draft header")

  -- Turn 1 ------------------------------------------------------------------------------------
  table.insert(turns, function(ctx)
    local function later(ms, fn)
      vim.defer_fn(fn, ms)
    end
    ctx.update({ sessionUpdate = "agent_thought_chunk", content = { type = "text", text = "pondering\nmore" } })
    later(10, function()
      ctx.update({ sessionUpdate = "agent_message_chunk", content = { type = "text", text = "Hello" } })
      ctx.update({ sessionUpdate = "agent_message_chunk", content = { type = "text", text = " world\nsecond line" } })
      ctx.update({
        sessionUpdate = "tool_call",
        toolCallId = "t1",
        title = "Bash: echo hi",
        kind = "execute",
        status = "pending",
        rawInput = { command = "echo hi" },
      })
      ctx.request("session/request_permission", {
        sessionId = "s1",
        toolCall = { toolCallId = "t1", title = "Bash: echo hi" },
        options = {
          { optionId = "allow", name = "Allow once", kind = "allow_once" },
          { optionId = "reject", name = "Reject", kind = "reject_once" },
        },
      }, function(err, result)
        answered = result
        ctx.update({ sessionUpdate = "tool_call_update", toolCallId = "t1", status = "in_progress" })
        ctx.update({
          sessionUpdate = "tool_call_update",
          toolCallId = "t1",
          status = "completed",
          content = { { type = "content", content = { type = "text", text = "hi\n" } } },
        })
        ctx.update({ sessionUpdate = "agent_message_chunk", content = { type = "text", text = "Done." } })
        ctx.update({
          sessionUpdate = "usage_update",
          used = 7500,
          size = 10000,
          _meta = { sidecar = F.gauge("s1", 2, 7500, "warning") },
        })
        later(10, function()
          ctx.finish("end_turn")
        end)
      end)
    end)
  end)
  local gauge_events = H.collect("ContextSidecarGauge")
  local done = H.turn(chat, "say hello")
  H.check(done.stopReason == "end_turn", "turn ended")
  H.check(answered and answered.outcome.outcome == "selected" and answered.outcome.optionId == "allow", "permission answered allow")
  H.check(#H.selects == 1 and H.selects[1].kind == "context_sidecar_permission" and H.selects[1].prompt == "Run `echo hi`?", "permission prompt says the command: " .. tostring(H.selects[1] and H.selects[1].prompt))
  H.check(gauge_events[1] and gauge_events[1].level == "warning", "usage_update gauge published")
  -- The prompt's answer carries seq 99 and wins.
  H.check(cs.statusline() == "ctx 50% 5K/10K", "gauge from the prompt answer: " .. cs.statusline())
  local lines = H.lines(chat.buf)
  H.record("turn1", lines)
  local expected = {
    "## You",
    "",
    "say hello",
    "",
    "## Assistant",
    "",
    "▷ Thinking",
    "pondering",
    "more",
    "",
    "Hello world",
    "second line",
    "",
    "⚙ Bash: echo hi · completed",
    "    $ echo hi",
    "    permission: Allow once",
    "    output:",
    "    hi",
    "",
    "Done.",
    "",
    "## You",
    "",
    "",
  }
  H.check(vim.deep_equal(lines, expected), "turn 1 rendering:\n" .. table.concat(lines, "\n"))
  -- Thought and tool call are closed folds; text is not folded.
  local win = vim.fn.bufwinid(chat.buf)
  vim.api.nvim_win_call(win, function()
    vim.cmd("normal! zx")
    H.check(vim.fn.foldclosed(8) == 7 and vim.fn.foldclosedend(7) == 9, "thought fold 7-9 closed")
    H.check(vim.fn.foldclosed(16) == 14 and vim.fn.foldclosedend(14) == 18, "tool fold 14-18 closed")
    H.check(vim.fn.foldclosed(11) == -1 and vim.fn.foldclosed(20) == -1, "text not folded")
    H.check(vim.fn.foldclosed(24) == -1, "draft not folded")
  end)
  H.check(vim.bo[chat.buf].modifiable, "buffer editable between turns")

  -- Compaction while idle lands above the draft, which is kept -----------------------------
  vim.api.nvim_buf_set_lines(chat.buf, -2, -1, false, { "my draft" })
  script.push("session/update", { sessionId = "s1", update = { sessionUpdate = "compaction_update", compactionId = "c1", status = "in_progress", tier = "full", trigger = "manual" } })
  H.wait(1000, function()
    return H.text(chat.buf):find("Compacting conversation (manual)", 1, true) ~= nil
  end, "compaction in progress line")
  script.push("session/update", {
    sessionId = "s1",
    update = {
      sessionUpdate = "compaction_update",
      compactionId = "c1",
      status = "completed",
      tier = "full",
      trigger = "manual",
      tokensBefore = 42100,
      tokensAfter = 3200,
      summary = "The user greeted.",
    },
  })
  H.wait(1000, function()
    return H.text(chat.buf):find("saved 39K", 1, true) ~= nil
  end, "compaction completed line")
  lines = H.lines(chat.buf)
  H.record("compaction", lines)
  local tail = vim.list_slice(lines, #lines - 6)
  H.check(vim.deep_equal(tail, {
    "",
    "↻ Compacted (manual, full): 42K → 3.2K tokens, saved 39K",
    "    The user greeted.",
    "",
    "## You",
    "",
    "my draft",
  }), "compaction above the draft:\n" .. table.concat(tail, "\n"))
  H.check(chat_mod.draft(chat) == "my draft", "draft intact")

  -- Submitting the draft with the mapping --------------------------------------------------
  table.insert(turns, function(ctx)
    ctx.update({ sessionUpdate = "agent_message_chunk", content = { type = "text", text = "Got: " .. ctx.params.prompt[1].text } })
    vim.defer_fn(function()
      ctx.finish("end_turn")
    end, 10)
  end)
  local ended = H.collect("ContextSidecarTurnEnd")
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<CR>", true, false, true), "x", false)
  H.wait(3000, function()
    return #ended == 1
  end, "turn from <CR>")
  H.check(H.text(chat.buf):find("Got: my draft", 1, true) ~= nil, "draft sent by <CR>")

  -- Cancel midway -------------------------------------------------------------------------
  table.insert(turns, function(ctx)
    ctx.update({ sessionUpdate = "agent_message_chunk", content = { type = "text", text = "Counting: 1" } })
  end)
  chat_mod.send(chat, "count slowly")
  H.wait(2000, function()
    return H.text(chat.buf):find("Counting: 1", 1, true) ~= nil
  end, "first chunk")
  H.check(not vim.bo[chat.buf].modifiable, "buffer locked while streaming")
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<C-c>", true, false, true), "x", false)
  H.wait(2000, function()
    return #ended == 2
  end, "cancelled turn to end")
  H.check(ended[2].stopReason == "cancelled", "stopReason cancelled")
  H.check(vim.tbl_contains(script.log, "session/cancel"), "session/cancel sent")
  H.check(H.text(chat.buf):find("*Stopped: cancelled*", 1, true) ~= nil, "cancel shown")

  -- Cancelling answers a pending permission prompt with "cancelled" --------------------------
  local never_answer = {}
  vim.ui.select = function(items, opts, on_choice)
    table.insert(never_answer, on_choice)
  end
  local perm
  table.insert(turns, function(ctx)
    ctx.request("session/request_permission", {
      sessionId = "s1",
      toolCall = { toolCallId = "t2", title = "Write: a.txt", rawInput = { path = "a.txt" } },
      options = { { optionId = "allow", name = "Allow once", kind = "allow_once" } },
    }, function(_, result)
      perm = result
    end)
  end)
  chat_mod.send(chat, "write a file")
  H.wait(2000, function()
    return #never_answer == 1
  end, "second permission prompt")
  cs.cancel()
  H.wait(2000, function()
    return perm ~= nil and #ended == 3
  end, "permission cancelled and turn ended")
  H.check(perm.outcome.outcome == "cancelled", "pending permission answered cancelled")
  H.check(H.text(chat.buf):find("⚙ Write: a.txt · pending", 1, true) ~= nil, "tool from the permission request rendered")
  H.check(H.text(chat.buf):find("permission: cancelled", 1, true) ~= nil, "cancelled permission rendered")
  H.record("final", H.lines(chat.buf))

  -- Markdown through Neovim's treesitter highlighter, with `**` and backticks concealed -------
  local win = vim.fn.bufwinid(chat.buf)
  H.check(vim.wo[win].conceallevel == 2, "markup concealed in the chat window")
  if pcall(vim.treesitter.language.add, "markdown") and pcall(vim.treesitter.language.add, "markdown_inline") then
    H.check(chat.treesitter == true and vim.treesitter.highlighter.active[chat.buf] ~= nil, "treesitter highlighter attached")
    local last = vim.api.nvim_buf_line_count(chat.buf)
    vim.api.nvim_buf_set_lines(chat.buf, last - 1, last, false, { "**bold** and `code`" })
    vim.treesitter.get_parser(chat.buf):parse(true)
    local function concealed(col)
      for _, cap in ipairs(vim.treesitter.get_captures_at_pos(chat.buf, last - 1, col)) do
        if cap.metadata and (cap.metadata.conceal or (cap.metadata[cap.id] or {}).conceal) then
          return true
        end
      end
      return false
    end
    H.check(concealed(0) and concealed(1), "`**` concealed")
    H.check(concealed(13) and not concealed(14), "backtick concealed, code kept")
    H.check(not concealed(2), "bold text kept")
    H.record("treesitter", true)
  else
    H.check(chat.treesitter == false, "no parser: the markdown filetype's syntax stays")
    H.record("treesitter", false)
  end
end)
