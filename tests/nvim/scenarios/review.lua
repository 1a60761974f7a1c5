-- Edits reviewed as diffs, edits saved after workspace/applyEdit, leaving plan mode, permission
-- modes, the chat's name and winbar, and folds that cover a tool call's output, against an
-- in-process fake server that sends the documented updates and requests (docs/protocol.md:
-- modes, current_mode_update, diff content, switch_mode).
local H = dofile(os.getenv("CS_HELPERS"))
local F = dofile(os.getenv("CS_FAKE_SERVER"))

local function key(k)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(k, true, false, true), "x", false)
end

H.run(function()
  local root = os.getenv("CS_ROOT")
  local cs = require("context_sidecar")
  local chat_mod = require("context_sidecar.chat")
  local winbar = require("context_sidecar.winbar")
  local turns = {}
  local MODES = {
    currentModeId = "default",
    availableModes = {
      { id = "default", name = "Default", description = "Ask before edits and shell" },
      { id = "acceptEdits", name = "Accept edits", description = "Edits go through" },
      { id = "plan", name = "Plan", description = "Read-only" },
      { id = "bypassPermissions", name = "Bypass permissions", description = "Nothing asks" },
    },
  }
  local script = F.install({
    protocol = require("context_sidecar.client").PROTOCOL_VERSION,
    modes = MODES,
    answers = { ["session/set_mode"] = vim.empty_dict() },
    turn = function(ctx)
      table.remove(turns, 1)(ctx)
    end,
  })
  cs.setup({ cmd = { "unused" }, settings = {} })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  local target = root .. "/src/app.py"
  vim.fn.mkdir(root .. "/src", "p")
  vim.fn.writefile({ "def main():", "    return 1" }, target)
  -- Another file with unsaved changes: saving the sidecar's edit must not write it.
  vim.fn.writefile({ "notes" }, root .. "/notes.txt")
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/notes.txt"))
  vim.api.nvim_buf_set_lines(0, -1, -1, false, { "unsaved line" })
  local notes = vim.api.nvim_get_current_buf()

  -- Wide enough for the whole winbar beside the notes window.
  vim.o.columns = 240
  local chat = H.open_chat()
  -- Name and winbar ------------------------------------------------------------------------
  H.check(vim.api.nvim_buf_get_name(chat.buf) == "context-sidecar://s1", "buffer named by short id: " .. vim.api.nvim_buf_get_name(chat.buf))
  script.push("session/update", { sessionId = "s1", update = { sessionUpdate = "session_info_update", title = "Fix the bug" } })
  H.wait(1000, function()
    return vim.api.nvim_buf_get_name(chat.buf) == "context-sidecar://Fix the bug"
  end, "buffer renamed after the title")
  H.check(winbar.text(chat) == "fake-model · Fix the bug · ctx 10% 1K/10K · mode: Default", "winbar: " .. winbar.text(chat))
  local win = vim.fn.bufwinid(chat.buf)
  local bar = vim.api.nvim_eval_statusline(vim.wo[win].winbar, { winid = win, use_winbar = true, highlights = true, maxwidth = 200 })
  H.record("winbar", bar.str)
  H.check(bar.str:find("fake-model · Fix the bug · ctx 10% 1K/10K · mode: Default", 1, true) == 2, "winbar drawn: " .. bar.str)
  H.check(bar.str:find("? help", 1, true) ~= nil, "winbar names the help key")
  local gauge_hl
  for _, h in ipairs(bar.highlights) do
    if bar.str:sub(h.start + 1, h.start + 3) == "ctx" then
      gauge_hl = h.group
    end
  end
  H.check(gauge_hl == "ContextSidecarOk", "gauge coloured by level: " .. tostring(gauge_hl))
  -- stage wins over level
  local staged = F.gauge("s1", 5, 1000, "ok")
  staged.stage = "warning"
  staged.next = "Auto-compact at 8K (in 7K tokens): older turns will be summarized"
  script.push("session/update", { sessionId = "s1", update = { sessionUpdate = "usage_update", used = 1000, size = 10000, _meta = { sidecar = staged } } })
  H.wait(1000, function()
    return winbar.parts(chat).hl == "ContextSidecarWarning"
  end, "gauge coloured by stage")
  H.check(winbar.text(chat) == "fake-model · Fix the bug · ctx 10% 1K/10K · Auto-compact at 8K (in 7K tokens): older turns will be summarized · mode: Default",
    "next shown past the normal stage: " .. winbar.text(chat))
  -- A normal split: the drawn winbar keeps the gauge and the mode, and the rest gives way.
  local full_width = vim.api.nvim_win_get_width(win)
  local drawn = {}
  for _, cols in ipairs({ 60, 40 }) do
    vim.cmd("vertical resize " .. cols)
    H.check(vim.api.nvim_win_get_width(win) == cols, "window resized to " .. cols)
    local fitted = vim.api.nvim_eval_statusline(vim.wo[win].winbar, { winid = win, use_winbar = true, maxwidth = cols }).str
    drawn[tostring(cols)] = fitted
    H.check(fitted:find("ctx 10% 1K/10K", 1, true) ~= nil, cols .. " columns keep the gauge: " .. fitted)
    H.check(fitted:find("mode: Default", 1, true) ~= nil, cols .. " columns keep the mode: " .. fitted)
    H.check(fitted:sub(1, 2) ~= "<" and not fitted:find("<", 1, true), cols .. " columns not cut at the start: " .. fitted)
    H.check(vim.fn.strdisplaywidth(fitted) <= cols, cols .. " columns fit: " .. fitted)
  end
  H.record("winbar_fitted", drawn)
  vim.api.nvim_win_set_width(win, full_width)
  local normal = F.gauge("s1", 6, 1000, "ok")
  normal.stage = "normal"
  normal.next = "Auto-compact at 8K"
  script.push("session/update", { sessionId = "s1", update = { sessionUpdate = "usage_update", used = 1000, size = 10000, _meta = { sidecar = normal } } })
  H.wait(1000, function()
    return winbar.text(chat) == "fake-model · Fix the bug · ctx 10% 1K/10K · mode: Default"
  end, "next hidden in the normal stage")

  -- Modes ----------------------------------------------------------------------------------
  H.check(vim.deep_equal(vim.fn.getcompletion("ContextSidecarMode ", "cmdline"), { "default", "acceptEdits", "plan", "bypassPermissions" }), "mode completion")
  H.check(vim.deep_equal(vim.fn.getcompletion("ContextSidecarMode a", "cmdline"), { "acceptEdits" }), "mode completion filtered")
  vim.cmd("ContextSidecarPlan")
  H.wait(1000, function()
    return chat.mode == "plan"
  end, "plan mode")
  H.check(script.params["session/set_mode"][1].modeId == "plan" and script.params["session/set_mode"][1].sessionId == "s1", "session/set_mode plan sent")
  H.check(winbar.text(chat):sub(-10) == "mode: Plan", "winbar shows plan: " .. winbar.text(chat))
  vim.cmd("ContextSidecarMode acceptEdits")
  H.wait(1000, function()
    return chat.mode == "acceptEdits"
  end, "acceptEdits mode")
  script.push("session/update", { sessionId = "s1", update = { sessionUpdate = "current_mode_update", currentModeId = "default" } })
  H.wait(1000, function()
    return chat.mode == "default" and winbar.text(chat):sub(-13) == "mode: Default"
  end, "current_mode_update applied")

  -- An edit reviewed as a diff, accepted for the turn, applied and saved --------------------
  local answers = {}
  local applied
  table.insert(turns, function(ctx)
    ctx.update({ sessionUpdate = "tool_call", toolCallId = "r1", title = "Read src/app.py", kind = "read", status = "pending", rawInput = { file_path = target }, locations = { { path = target } } })
    ctx.update({ sessionUpdate = "tool_call_update", toolCallId = "r1", status = "completed", content = { { type = "content", content = { type = "text", text = "1\tdef main():" } } } })
    ctx.update({ sessionUpdate = "tool_call", toolCallId = "e1", title = "Edit: src/app.py", kind = "edit", status = "pending", rawInput = { file_path = target } })
    ctx.request("session/request_permission", {
      sessionId = "s1",
      toolCall = {
        toolCallId = "e1",
        title = "Edit: src/app.py",
        kind = "edit",
        locations = { { path = target } },
        content = { { type = "diff", path = target, oldText = "def main():\n    return 1\n", newText = "def main():\n    return 2\n" } },
      },
      options = {
        { optionId = "allow_once", name = "Accept", kind = "allow_once" },
        { optionId = "allow_turn", name = "Accept all edits this turn", kind = "allow_always" },
        { optionId = "reject_once", name = "Reject", kind = "reject_once" },
      },
    }, function(_, result)
      table.insert(answers, result)
      ctx.request("workspace/applyEdit", {
        label = "Edit: src/app.py",
        edit = {
          documentChanges = {
            {
              textDocument = { uri = vim.uri_from_fname(target), version = vim.NIL },
              edits = { { range = { start = { line = 0, character = 0 }, ["end"] = { line = 10000000, character = 0 } }, newText = "def main():\n    return 2\n" } },
            },
          },
        },
      }, function(err, res)
        applied = { err = err, result = res }
        ctx.update({ sessionUpdate = "tool_call_update", toolCallId = "e1", status = "completed",
          permission = { optionId = "allow_turn", name = "Accept all edits this turn" },
          content = { { type = "diff", path = target, oldText = "def main():\n    return 1\n", newText = "def main():\n    return 2\n" } } })
        ctx.update({ sessionUpdate = "agent_message_chunk", content = { type = "text", text = "Changed it." } })
        vim.defer_fn(function()
          ctx.finish("end_turn")
        end, 10)
      end)
    end)
  end)
  local ended = H.collect("ContextSidecarTurnEnd")
  chat_mod.send(chat, "make main return 2")
  H.wait(2000, function()
    return chat.review ~= nil
  end, "the diff review")
  local tab = vim.api.nvim_get_current_tabpage()
  local wins = vim.api.nvim_tabpage_list_wins(tab)
  H.check(#vim.api.nvim_list_tabpages() == 2 and #wins == 2, "diff opens in a new tab with two windows")
  local left, right = vim.api.nvim_win_get_buf(wins[1]), vim.api.nvim_win_get_buf(wins[2])
  H.check(vim.deep_equal(H.lines(left), { "def main():", "    return 1" }), "left is the current text")
  H.check(vim.deep_equal(H.lines(right), { "def main():", "    return 2" }), "right is the proposed text")
  H.check(vim.wo[wins[1]].diff and vim.wo[wins[2]].diff, "both windows in diff mode")
  H.check(vim.bo[right].filetype == "python", "proposed text highlighted as python")
  H.check(vim.api.nvim_buf_get_name(right):match("context%-sidecar://diff/src/app%.py %(proposed%)$") ~= nil, "proposed buffer named: " .. vim.api.nvim_buf_get_name(right))
  H.check(vim.wo[wins[2]].winbar:find("a Accept · A Accept all edits this turn · r Reject", 1, true) ~= nil, "keys in the winbar: " .. vim.wo[wins[2]].winbar)
  key("A")
  H.wait(2000, function()
    return #ended == 1
  end, "the edit turn to end")
  H.check(answers[1].outcome.outcome == "selected" and answers[1].outcome.optionId == "allow_turn", "A answers allow_turn")
  H.check(#vim.api.nvim_list_tabpages() == 1, "the diff tab closed")
  H.check(not vim.api.nvim_buf_is_valid(left) and not vim.api.nvim_buf_is_valid(right), "diff buffers wiped")
  H.check(applied.result and applied.result.applied == true, "applyEdit answered applied")
  H.check(vim.deep_equal(vim.fn.readfile(target), { "def main():", "    return 2" }), "the edit is on disk")
  local app_buf = vim.fn.bufnr(target)
  H.check(app_buf ~= -1 and not vim.bo[app_buf].modified, "the edited buffer is saved")
  H.check(vim.bo[notes].modified and vim.deep_equal(vim.fn.readfile(root .. "/notes.txt"), { "notes" }), "the other unsaved buffer was not written")
  local lines = H.lines(chat.buf)
  H.record("edit_turn", lines)
  local expected = {
    "## You",
    "",
    "make main return 2",
    "",
    "## Assistant",
    "",
    "⚙ Read src/app.py · completed",
    "    file: src/app.py",
    "    output:",
    "    1\tdef main():",
    "",
    "⚙ Edit: src/app.py · completed",
    "    file: src/app.py",
    "    permission: Accept all edits this turn",
    "    output:",
    "    src/app.py:",
    "    @@ -1,2 +1,2 @@",
    "     def main():",
    "    -    return 1",
    "    +    return 2",
    "",
    "Changed it.",
    "",
    "## You",
    "",
    "",
  }
  H.check(vim.deep_equal(lines, expected), "edit turn rendering:\n" .. table.concat(lines, "\n"))
  -- The tool call, output included, is one closed fold without any refresh by hand.
  win = vim.fn.bufwinid(chat.buf)
  vim.api.nvim_win_call(win, function()
    H.check(vim.fn.foldclosed(7) == 7 and vim.fn.foldclosedend(7) == 10, ("read fold 7-10 closed (got %d-%d)"):format(vim.fn.foldclosed(7), vim.fn.foldclosedend(7)))
    H.check(vim.fn.foldclosed(12) == 12 and vim.fn.foldclosedend(12) == 20, ("edit fold 12-20 closed (got %d-%d)"):format(vim.fn.foldclosed(12), vim.fn.foldclosedend(12)))
    H.check(vim.fn.foldclosed(22) == -1 and vim.fn.foldclosed(3) == -1, "text not folded")
  end)

  -- A rejected edit (r) -----------------------------------------------------------------------
  table.insert(turns, function(ctx)
    ctx.request("session/request_permission", {
      sessionId = "s1",
      toolCall = { toolCallId = "w1", title = "Write: new.txt", kind = "edit",
        content = { { type = "diff", path = root .. "/new.txt", oldText = vim.NIL, newText = "hello\n" } } },
      options = {
        { optionId = "allow_once", name = "Accept", kind = "allow_once" },
        { optionId = "allow_turn", name = "Accept all edits this turn", kind = "allow_always" },
        { optionId = "reject_once", name = "Reject", kind = "reject_once" },
      },
    }, function(_, result)
      table.insert(answers, result)
      ctx.update({ sessionUpdate = "tool_call_update", toolCallId = "w1", status = "failed",
        content = { { type = "content", content = { type = "text", text = "The user rejected this edit." } } } })
      ctx.finish("end_turn")
    end)
  end)
  -- After the reject key, vim.ui.input asks why (answered asynchronously, as input plugins do).
  local asked = {}
  vim.ui.input = function(opts, on_confirm)
    table.insert(asked, opts.prompt)
    vim.defer_fn(function()
      on_confirm("  keep new.txt out of the repo  ")
    end, 20)
  end
  chat_mod.send(chat, "write new.txt")
  H.wait(2000, function()
    return chat.review ~= nil
  end, "the second review")
  wins = vim.api.nvim_tabpage_list_wins(0)
  H.check(vim.deep_equal(H.lines(vim.api.nvim_win_get_buf(wins[1])), { "" }) and vim.wo[wins[1]].winbar:find("New file new.txt", 1, true) ~= nil, "a new file diffs against nothing: " .. vim.wo[wins[1]].winbar)
  key("r")
  H.wait(2000, function()
    return #ended == 2
  end, "the rejected turn to end")
  H.check(answers[2].outcome.optionId == "reject_once", "r answers reject_once")
  H.check(vim.deep_equal(asked, { "Why? (optional, Enter to skip) " }), "a rejection asks why: " .. vim.inspect(asked))
  H.check(vim.deep_equal(answers[2].outcome._meta, { sidecar = { reason = "keep new.txt out of the repo" } }),
    "the reason goes with the answer, trimmed: " .. vim.inspect(answers[2].outcome))
  H.check(vim.fn.filereadable(root .. "/new.txt") == 0, "nothing written")
  H.check(H.text(chat.buf):find("⚙ Write: new.txt · failed\n    permission: Reject\n    you said: keep new.txt out of the repo\n    output:\n    The user rejected this edit.", 1, true) ~= nil, "rejected edit rendered with the reason")

  -- Leaving plan mode shows the plan with its three answers ---------------------------------
  table.insert(turns, function(ctx)
    ctx.request("session/request_permission", {
      sessionId = "s1",
      toolCall = { toolCallId = "p1", title = "Leave plan mode?", kind = "switch_mode",
        content = { { type = "content", content = { type = "text", text = "# Plan\n1. Change main\n2. Run tests" } } } },
      options = {
        { optionId = "accept_edits", name = "Yes, and accept edits", kind = "allow_once" },
        { optionId = "default", name = "Yes, ask before edits", kind = "allow_once" },
        { optionId = "reject_once", name = "No, keep planning", kind = "reject_once" },
      },
    }, function(_, result)
      table.insert(answers, result)
      ctx.update({ sessionUpdate = "current_mode_update", currentModeId = "default" })
      ctx.finish("end_turn")
    end)
  end)
  chat.mode = "plan"
  chat_mod.send(chat, "plan it")
  H.wait(2000, function()
    return chat.review ~= nil
  end, "the plan view")
  local plan_buf = vim.api.nvim_get_current_buf()
  H.check(vim.api.nvim_win_get_config(0).relative == "editor", "the plan is in a float")
  H.check(vim.deep_equal(H.lines(plan_buf), {
    "# Plan", "1. Change main", "2. Run tests", "",
    "[y] Yes, and accept edits", "[d] Yes, ask before edits", "[n] No, keep planning",
  }), "plan view:\n" .. H.text(plan_buf))
  key("d")
  H.wait(2000, function()
    return #ended == 3
  end, "the plan turn to end")
  H.check(answers[3].outcome.optionId == "default", "d answers default")
  H.check(answers[3].outcome._meta == nil and #asked == 1, "accepting asks nothing more")

  -- "No, keep planning" asks what should change; Enter on an empty line sends no reason ----
  table.insert(turns, function(ctx)
    ctx.request("session/request_permission", {
      sessionId = "s1",
      toolCall = { toolCallId = "p2", title = "Leave plan mode?", kind = "switch_mode",
        content = { { type = "content", content = { type = "text", text = "# Plan\n1. Change main" } } } },
      options = {
        { optionId = "accept_edits", name = "Yes, and accept edits", kind = "allow_once" },
        { optionId = "default", name = "Yes, ask before edits", kind = "allow_once" },
        { optionId = "reject_once", name = "No, keep planning", kind = "reject_once" },
      },
    }, function(_, result)
      table.insert(answers, result)
      ctx.finish("end_turn")
    end)
  end)
  vim.ui.input = function(opts, on_confirm)
    table.insert(asked, opts.prompt)
    vim.defer_fn(function()
      on_confirm("")
    end, 20)
  end
  chat_mod.send(chat, "plan it again")
  H.wait(2000, function()
    return chat.review ~= nil
  end, "the second plan view")
  key("n")
  H.wait(2000, function()
    return #ended == 4
  end, "the second plan turn to end")
  H.check(answers[4].outcome.optionId == "reject_once", "n answers reject_once")
  H.check(asked[2] == "What should change in the plan? (optional, Enter to skip) ", "the plan asks what should change: " .. vim.inspect(asked))
  H.check(answers[4].outcome._meta == nil, "an empty answer sends no reason: " .. vim.inspect(answers[4].outcome))
  H.check(chat.mode == "default", "mode back to default")
  H.check(vim.api.nvim_get_current_buf() == chat.buf, "back in the chat")

  -- :qa does not stop on a buffer the sidecar edited (only on the user's own) ---------------
  vim.api.nvim_buf_delete(notes, { force = true })
  local blocking = {}
  for _, info in ipairs(vim.fn.getbufinfo({ bufmodified = 1 })) do
    if vim.bo[info.bufnr].buftype == "" then
      table.insert(blocking, info.name)
    end
  end
  H.check(#blocking == 0, ":qa would stop on E37 for " .. table.concat(blocking, ", "))
end)
