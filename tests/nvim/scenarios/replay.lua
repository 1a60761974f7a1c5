-- Resume and replay: `:ContextSidecar chat` reopens the workspace's newest session
-- (session/list {cwd}, then session/load), and the replayed updates (replay: true) render
-- exactly as the same conversation did live: tool status, output and permission answer,
-- the compaction row with its summary folded, the hook row folded.
local H = dofile(os.getenv("CS_HELPERS"))
local F = dofile(os.getenv("CS_FAKE_SERVER"))

H.run(function()
  local root = os.getenv("CS_ROOT")
  local cs = require("context_sidecar")
  local chat_mod = require("context_sidecar.chat")
  local turns = {}

  local function tool_call()
    return { sessionUpdate = "tool_call", toolCallId = "t1", title = "Bash: ls", kind = "execute", status = "pending", rawInput = { command = "ls" } }
  end
  local function tool_done()
    return { sessionUpdate = "tool_call_update", toolCallId = "t1", status = "completed",
      permission = { optionId = "allow_once", name = "Allow once" },
      content = { { type = "content", content = { type = "text", text = "a.txt\nb.txt\n" } } } }
  end
  local function text(kind, t)
    return { sessionUpdate = kind, content = { type = "text", text = t } }
  end
  local compaction = { sessionUpdate = "compaction_update", compactionId = "c1", status = "completed", tier = "full", trigger = "auto",
    tokensBefore = 150000, tokensAfter = 12000, summary = "The user listed the files.\nTwo files exist." }
  local hook = { sessionUpdate = "hook_result", event = "PostCompact", command = "notify-send done", output = "", exitCode = 0 }

  local replayed = {
    text("user_message_chunk", "first question"),
    text("agent_message_chunk", "Let me look."),
    tool_call(),
    tool_done(),
    text("agent_message_chunk", "Done."),
    compaction,
    hook,
    text("user_message_chunk", "second question"),
    text("agent_message_chunk", "Second answer."),
  }
  local script
  script = F.install({
    protocol = require("context_sidecar.client").PROTOCOL_VERSION,
    handlers = {
      ["session/list"] = function(params, reply)
        reply(nil, { sessions = {
          { sessionId = "old1", title = "Earlier work", cwd = params.cwd, model = "fake-model", provider = "anthropic", updatedAt = "2026-11-30T10:00:00Z", used = 12000, size = 200000 },
          { sessionId = "older", title = "Older", cwd = params.cwd, model = "fake-model", provider = "anthropic", updatedAt = "2026-11-29T10:00:00Z", used = 1, size = 200000 },
        } })
      end,
      ["session/load"] = function(params, reply)
        for _, upd in ipairs(replayed) do
          local u = vim.deepcopy(upd)
          u.replay = true
          script.push("session/update", { sessionId = params.sessionId, update = u })
        end
        vim.defer_fn(function()
          reply(nil, { sessionId = params.sessionId, model = "fake-model", provider = "anthropic",
            gauge = F.gauge(params.sessionId, 7, 12000), modes = { currentModeId = "acceptEdits", availableModes = {} } })
        end, 20)
      end,
    },
    turn = function(ctx)
      table.remove(turns, 1)(ctx)
    end,
  })
  cs.setup({ cmd = { "unused" }, settings = {} })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  H.stub_select(function(items)
    return items[1]
  end)

  -- Resume ------------------------------------------------------------------------------------
  local resumed = H.open_chat()
  H.check(resumed.session_id == "old1", "the newest session reopened: " .. resumed.session_id)
  H.check(script.params["session/list"][1].cwd == vim.fs.normalize(root), "session/list asked for this workspace")
  H.check(script.params["session/load"][1].sessionId == "old1", "session/load of the newest")
  H.check(script.params["session/new"] == nil, "no new session")
  H.check(vim.api.nvim_buf_get_name(resumed.buf) == "context-sidecar://Earlier work", "named after its title")
  H.check(resumed.mode == "acceptEdits", "mode from session/load")
  local replay_lines = H.lines(resumed.buf)
  H.record("replay", replay_lines)
  local expected = {
    "## You",
    "",
    "first question",
    "",
    "## Assistant",
    "",
    "Let me look.",
    "",
    "⚙ Bash: ls · completed",
    "    $ ls",
    "    permission: Allow once",
    "    output:",
    "    a.txt",
    "    b.txt",
    "",
    "Done.",
    "",
    "↻ Compacted (auto, full): 150K → 12K tokens, saved 138K",
    "    The user listed the files.",
    "    Two files exist.",
    "",
    "⚑ Hook PostCompact: notify-send done · exit 0",
    "",
    "## You",
    "",
    "second question",
    "",
    "## Assistant",
    "",
    "Second answer.",
    "",
    "## You",
    "",
    "",
  }
  H.check(vim.deep_equal(replay_lines, expected), "replay rendering:\n" .. table.concat(replay_lines, "\n"))
  local win = vim.fn.bufwinid(resumed.buf)
  local folds = {}
  vim.api.nvim_win_call(win, function()
    for lnum = 1, #replay_lines do
      if vim.fn.foldclosed(lnum) == lnum then
        table.insert(folds, { lnum, vim.fn.foldclosedend(lnum) })
      end
    end
  end)
  H.record("replay_folds", folds)
  H.check(vim.deep_equal(folds, { { 9, 14 }, { 18, 20 }, { 22, 22 } }), "closed folds: tool 9-14, summary 18-20, hook 22: " .. vim.inspect(folds))

  -- The same conversation live renders the same lines ------------------------------------------
  table.insert(turns, function(ctx)
    ctx.update(text("agent_message_chunk", "Let me look."))
    ctx.update(tool_call())
    ctx.request("session/request_permission", {
      sessionId = "s1",
      toolCall = { toolCallId = "t1", title = "Bash: ls" },
      options = { { optionId = "allow_once", name = "Allow once", kind = "allow_once" }, { optionId = "reject_once", name = "Reject", kind = "reject_once" } },
    }, function()
      ctx.update(tool_done())
      ctx.update(text("agent_message_chunk", "Done."))
      vim.defer_fn(function()
        ctx.finish("end_turn")
      end, 10)
    end)
  end)
  table.insert(turns, function(ctx)
    ctx.update(text("agent_message_chunk", "Second answer."))
    vim.defer_fn(function()
      ctx.finish("end_turn")
    end, 10)
  end)
  local live
  cs.new(function(c)
    live = c
  end)
  H.wait(2000, function()
    return live ~= nil
  end, "a new session")
  H.turn(live, "first question")
  script.push("session/update", { sessionId = "s1", update = compaction })
  script.push("session/update", { sessionId = "s1", update = hook })
  H.wait(1000, function()
    return H.text(live.buf):find("⚑ Hook", 1, true) ~= nil
  end, "the live hook row")
  H.turn(live, "second question")
  local live_lines = H.lines(live.buf)
  H.record("live", live_lines)
  H.check(vim.deep_equal(live_lines, replay_lines), "live equals replay:\n" .. table.concat(live_lines, "\n"))
  local live_folds = {}
  vim.api.nvim_win_call(vim.fn.bufwinid(live.buf), function()
    for lnum = 1, #live_lines do
      if vim.fn.foldclosed(lnum) == lnum then
        table.insert(live_folds, { lnum, vim.fn.foldclosedend(lnum) })
      end
    end
  end)
  H.check(vim.deep_equal(live_folds, folds), "live folds equal replay folds: " .. vim.inspect(live_folds))

  -- The sidecar restarts: the next message reloads the session silently; nothing repeats -----
  for _, c in ipairs(vim.lsp.get_clients({ name = "context_sidecar" })) do
    c:stop(true)
  end
  H.wait(3000, function()
    return #vim.lsp.get_clients({ name = "context_sidecar" }) == 0
  end, "the client to stop")
  table.insert(turns, function(ctx)
    ctx.update(text("agent_message_chunk", "Third answer."))
    vim.defer_fn(function()
      ctx.finish("end_turn")
    end, 10)
  end)
  H.turn(resumed, "third question")
  H.check(#script.params["session/load"] == 2, "the session reloaded into the new process")
  local after = H.lines(resumed.buf)
  local want = vim.list_slice(replay_lines, 1, #replay_lines - 1)
  vim.list_extend(want, { "third question", "", "## Assistant", "", "Third answer.", "", "## You", "", "" })
  H.check(vim.deep_equal(after, want), "after a silent reload nothing repeats:\n" .. table.concat(after, "\n"))
end)
