-- Retries with a countdown, errors in plain words with their fix and a retry key, typing
-- during a turn, the help float, hook rows, MCP status, @file and /command completion, the
-- selection and current file added as context, and human dates in the session picker;
-- against an in-process fake server sending the documented updates.
local H = dofile(os.getenv("CS_HELPERS"))
local F = dofile(os.getenv("CS_FAKE_SERVER"))

local function key(k)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(k, true, false, true), "x", false)
end

H.run(function()
  local root = os.getenv("CS_ROOT")
  local cs = require("context_sidecar")
  local chat_mod = require("context_sidecar.chat")
  local turns = {}
  local MCP = {
    { name = "github", status = "connected", transport = "stdio", tools = { "search", "get_issue" } },
    { name = "docs", status = "failed", transport = "http", tools = {}, error = "connection refused" },
  }
  local script = F.install({
    protocol = require("context_sidecar.client").PROTOCOL_VERSION,
    answers = { ["sidecar/context"] = {
      gauge = vim.tbl_extend("force", F.gauge("s1", 3, 1000), { stage = "normal", next = "Auto-compact at 8K (in 7K tokens)" }),
      fileReadState = {},
      mcpServers = MCP,
      skills = { { name = "release", description = "Cut a release", source = "workspace", invoked = true } },
    } },
    turn = function(ctx)
      table.remove(turns, 1)(ctx)
    end,
  })
  cs.setup({ cmd = { "unused" }, settings = {} })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  vim.fn.mkdir(root .. "/lua/pkg", "p")
  vim.fn.writefile({ "return 1" }, root .. "/lua/pkg/init.lua")
  vim.fn.writefile({ "alpha", "beta", "gamma" }, root .. "/notes.md")
  local chat = H.open_chat()
  local win = vim.fn.bufwinid(chat.buf)
  local ended = H.collect("ContextSidecarTurnEnd")

  -- A retry with a countdown, then the call goes through -------------------------------------
  local release
  table.insert(turns, function(ctx)
    ctx.update({ sessionUpdate = "retry_update", attempt = 1, maxRetries = 10, delayMs = 2000, reason = "The provider is overloaded (529)", status = 529 })
    release = function()
      ctx.update({ sessionUpdate = "retry_update", attempt = 1, maxRetries = 10, delayMs = 0, reason = "The provider is overloaded (529)", status = vim.NIL, done = true })
      ctx.update({ sessionUpdate = "agent_message_chunk", content = { type = "text", text = "Finally." } })
      ctx.finish("end_turn")
    end
  end)
  chat_mod.send(chat, "hello")
  H.wait(1000, function()
    return H.text(chat.buf):find("⟳ Retry 1 of 10 in 2s: The provider is overloaded (529)", 1, true) ~= nil
  end, "the retry line")
  H.wait(1500, function()
    return H.text(chat.buf):find("⟳ Retry 1 of 10 in 1s: The provider is overloaded (529)", 1, true) ~= nil
  end, "the countdown")

  -- Typing while the reply streams: a clear message, no E21 --------------------------------
  vim.api.nvim_set_current_win(win)
  vim.v.errmsg = ""
  local before = H.lines(chat.buf)
  key("ihello")
  key("<Esc>")
  key("ddu")
  -- Insert mode entered some other way: typed characters are dropped with the same message.
  key("<Cmd>startinsert<CR>typed while busy<Esc>")
  H.check(vim.v.errmsg == "", "no error while typing during a turn: " .. vim.v.errmsg)
  H.check(chat.busy_notices and chat.busy_notices >= 1, "the user is told why the chat is read-only")
  H.check(vim.deep_equal(H.lines(chat.buf), before), "the buffer is unchanged")
  release()
  H.wait(2000, function()
    return #ended == 1
  end, "the retried turn to end")
  local lines = H.lines(chat.buf)
  H.record("retry_turn", lines)
  H.check(vim.deep_equal(vim.list_slice(lines, 5, 10), {
    "## Assistant",
    "",
    "⟳ Went through after 1 retry",
    "",
    "Finally.",
    "",
  }), "retry rendering:\n" .. table.concat(lines, "\n"))
  vim.api.nvim_win_call(win, function()
    H.check(vim.fn.foldclosed(7) == -1, "the retry line is not a fold")
  end)
  -- Now editable again.
  vim.api.nvim_win_set_cursor(win, { #lines, 0 })
  key("ityped<Esc>")
  H.check(chat_mod.draft(chat) == "typed", "draft typed after the turn: " .. chat_mod.draft(chat))
  vim.api.nvim_buf_set_lines(chat.buf, -2, -1, false, { "" })

  -- An error in plain words, with the fix, and R sends the message again ---------------------
  local prompts = 0
  script.handlers = {
    ["session/prompt"] = function(params, reply)
      prompts = prompts + 1
      if prompts == 1 then
        reply({ code = -33002, message = "The API key was refused (401).", data = { fix = "Set ANTHROPIC_API_KEY and try again.", retryable = false } }, nil)
      else
        script.push("session/update", { sessionId = "s1", update = { sessionUpdate = "agent_message_chunk", content = { type = "text", text = "Works now." } } })
        vim.defer_fn(function()
          reply(nil, { stopReason = "end_turn", gauge = F.gauge("s1", 50, 2000) })
        end, 10)
      end
    end,
  }
  chat_mod.send(chat, "try this")
  H.wait(2000, function()
    return #ended == 2
  end, "the failing turn")
  lines = H.lines(chat.buf)
  local tail = vim.list_slice(lines, #lines - 7)
  H.check(vim.deep_equal(tail, {
    "## Assistant",
    "",
    "> **Error:** The API key was refused (401).",
    "> **Fix:** Set ANTHROPIC_API_KEY and try again.",
    "> Press R to send the message again.",
    "",
    "## You",
    "",
  }) or vim.deep_equal(vim.list_slice(lines, #lines - 8), {
    "## Assistant",
    "",
    "> **Error:** The API key was refused (401).",
    "> **Fix:** Set ANTHROPIC_API_KEY and try again.",
    "> Press R to send the message again.",
    "",
    "## You",
    "",
    "",
  }), "error rendering:\n" .. table.concat(lines, "\n"))
  H.check(not H.text(chat.buf):find("-33002", 1, true), "no raw error code")
  vim.api.nvim_set_current_win(win)
  key("R")
  H.wait(2000, function()
    return #ended == 3
  end, "the retried message")
  H.check(script.params["session/prompt"][#script.params["session/prompt"]].prompt[1].text == "try this", "R sent the same message")
  H.check(H.text(chat.buf):find("Works now.", 1, true) ~= nil, "the retry's reply shown")
  script.handlers = nil

  -- Help ------------------------------------------------------------------------------------
  key("?")
  local help_buf = vim.api.nvim_get_current_buf()
  local help = H.lines(help_buf)
  H.record("help", help)
  H.check(help[1] == "context-sidecar chat keys", "help float opened")
  for _, want in ipairs({
    "  <CR>           send the draft under the last `## You`",
    "  <C-c>          cancel the running turn (and a pending permission prompt)",
    "  R              send the last message again (after an error)",
    "  gm             pick the permission mode",
    "  ?              this help",
  }) do
    H.check(vim.tbl_contains(help, want), "help lists: " .. want)
  end
  key("q")
  H.check(vim.api.nvim_get_current_buf() == chat.buf, "help closed with q")

  -- A hook row: folded, not assistant text ------------------------------------------------
  script.push("session/update", { sessionId = "s1", update = { sessionUpdate = "hook_result", event = "PreCompact", command = "./save-notes.sh", output = "saved 3 notes\nok", exitCode = 0 } })
  H.wait(1000, function()
    return H.text(chat.buf):find("⚑ Hook PreCompact: ./save-notes.sh · exit 0", 1, true) ~= nil
  end, "the hook row")
  lines = H.lines(chat.buf)
  local hook_row
  for i, line in ipairs(lines) do
    if line == "⚑ Hook PreCompact: ./save-notes.sh · exit 0" then
      hook_row = i
    end
  end
  H.check(lines[hook_row + 1] == "    saved 3 notes" and lines[hook_row + 2] == "    ok" and lines[hook_row + 3] == "" and lines[hook_row + 4] == "## You", "hook row above the draft")
  vim.api.nvim_win_call(win, function()
    H.check(vim.fn.foldclosed(hook_row + 1) == hook_row and vim.fn.foldclosedend(hook_row) == hook_row + 2, ("hook row %d folded: %d-%d level %d cursor %d"):format(hook_row, vim.fn.foldclosed(hook_row + 1), vim.fn.foldclosedend(hook_row), vim.fn.foldlevel(hook_row), vim.fn.line(".")))
  end)

  -- MCP status: winbar count and :ContextSidecarMcp --------------------------------------
  script.push("session/update", { sessionId = "s1", update = { sessionUpdate = "mcp_status_update", servers = MCP } })
  H.wait(1000, function()
    return require("context_sidecar.winbar").text(chat):find("mcp 1/2", 1, true) ~= nil
  end, "mcp count in the winbar")
  local mcp_buf
  cs.mcp(function(buf)
    mcp_buf = buf
  end)
  H.wait(1000, function()
    return mcp_buf ~= nil
  end, ":ContextSidecarMcp")
  H.check(vim.deep_equal(H.lines(mcp_buf), {
    "MCP servers",
    "",
    "github · connected · 2 tools · stdio",
    "    tools: search, get_issue",
    "docs · failed: connection refused · http",
  }), "mcp view:\n" .. H.text(mcp_buf))
  vim.cmd("close")
  vim.api.nvim_set_current_win(win)
  H.check(cs.statusline_mcp() == "mcp 1/2", "statusline MCP count: " .. cs.statusline_mcp())
  local view_buf
  cs.context(function(buf)
    view_buf = buf
  end)
  H.wait(1000, function()
    return view_buf ~= nil
  end, "the context view")
  local view = H.lines(view_buf)
  H.record("context_view", view)
  H.check(vim.tbl_contains(view, "Next: Auto-compact at 8K (in 7K tokens) (stage normal)."), "context view: next")
  local at = vim.fn.index(view, "## MCP servers") + 1
  H.check(at > 0 and vim.deep_equal(vim.list_slice(view, at, at + 4), {
    "## MCP servers", "", "- github · connected · 2 tools · stdio", "  tools: search, get_issue", "- docs · failed: connection refused · http",
  }), "context view: MCP servers\n" .. table.concat(view, "\n"))
  H.check(vim.tbl_contains(view, "- release (workspace, invoked): Cut a release"), "context view: skills")
  vim.cmd("close")
  vim.api.nvim_set_current_win(win)
  vim.cmd("checkhealth context_sidecar")
  local health = H.text(0)
  H.record("health", H.lines(0))
  H.check(health:find("github · connected · 2 tools · stdio", 1, true) ~= nil, "checkhealth lists the connected server")
  H.check(health:find("docs · failed: connection refused · http", 1, true) ~= nil, "checkhealth lists the failed server with why")
  vim.cmd("tabclose")
  vim.api.nvim_set_current_win(win)

  -- Completion: @file and /command ----------------------------------------------------------
  script.push("session/update", { sessionId = "s1", update = { sessionUpdate = "available_commands_update", availableCommands = {
    { name = "compact", description = "Summarize older turns" }, { name = "context", description = "What fills the window" }, { name = "plan", description = "Enter plan mode" } } } })
  H.wait(1000, function()
    return chat.commands ~= nil and #chat.commands == 3
  end, "commands")
  local omni = require("context_sidecar.context_input").omnifunc
  vim.api.nvim_buf_set_lines(chat.buf, -2, -1, false, { "look at @lua/pk" })
  vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(chat.buf), 15 })
  H.check(omni(1, "") == 8, "completion starts at @")
  local words = vim.tbl_map(function(i)
    return i.word
  end, omni(0, "@lua/pk"))
  H.check(vim.deep_equal(words, { "@lua/pkg/init.lua" }), "@file completion: " .. vim.inspect(words))
  vim.api.nvim_buf_set_lines(chat.buf, -2, -1, false, { "/co" })
  vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(chat.buf), 3 })
  H.check(omni(1, "") == 0, "command completion starts at /")
  words = vim.tbl_map(function(i)
    return i.word
  end, omni(0, "/co"))
  H.check(vim.deep_equal(words, { "/compact", "/context" }), "/command completion: " .. vim.inspect(words))
  vim.api.nvim_buf_set_lines(chat.buf, -2, -1, false, { "" })

  -- The selection and the current file as context ---------------------------------------
  vim.cmd("wincmd p")
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/notes.md"))
  vim.cmd("2,3ContextSidecarAdd")
  vim.cmd("ContextSidecarAdd")
  H.check(vim.deep_equal(vim.list_slice(H.lines(chat.buf), vim.api.nvim_buf_line_count(chat.buf) - 2), { "@notes.md#L2-3", "@notes.md", "" }), "references in the draft:\n" .. H.text(chat.buf))
  vim.api.nvim_buf_set_lines(chat.buf, -1, -1, false, { "and @lua/pkg/init.lua please, see @notes.md#L1" })
  table.insert(turns, function(ctx)
    ctx.finish("end_turn")
  end)
  chat_mod.submit(chat)
  H.wait(2000, function()
    return #ended == 4
  end, "the turn with context")
  local sent = script.params["session/prompt"][#script.params["session/prompt"]].prompt
  H.record("prompt", sent)
  H.check(#sent == 5, "text plus four context blocks: " .. vim.inspect(sent))
  H.check(sent[5].type == "resource" and sent[5].resource.text == "alpha"
    and sent[5].resource.uri == vim.uri_from_fname(root .. "/notes.md") .. "#L1-1", "a typed range read from disk")
  H.check(sent[2].type == "resource" and sent[2].resource.text == "beta\ngamma"
    and sent[2].resource.uri == vim.uri_from_fname(root .. "/notes.md") .. "#L2-3", "selection as a resource block")
  H.check(sent[3].type == "resource_link" and sent[3].uri == vim.uri_from_fname(root .. "/notes.md") and sent[3].name == "notes.md", "current file as a resource_link")
  H.check(sent[4].type == "resource_link" and sent[4].name == "lua/pkg/init.lua", "@file as a resource_link")

  -- Human dates in the session picker; sizes from the live gauge ------------------------------
  local now = os.time({ year = 2026, month = 12, day = 1, hour = 12, min = 0, sec = 0 })
  local dates = require("context_sidecar.dates")
  local function iso(t)
    return os.date("!%Y-%m-%dT%H:%M:%S", t) .. "Z"
  end
  H.check(dates.human(iso(now - 30), now) == "just now", "just now")
  H.check(dates.human(iso(now - 600), now) == "10 min ago", "minutes: " .. dates.human(iso(now - 600), now))
  H.check(dates.human(iso(now - 3 * 3600), now) == "today 09:00", "today: " .. dates.human(iso(now - 3 * 3600), now))
  H.check(dates.human(iso(now - 86400), now) == "yesterday 12:00", "yesterday")
  H.check(dates.human(iso(now - 3 * 86400), now) == os.date("%a 12:00", now - 3 * 86400), "weekday")
  H.check(dates.human("2025-03-04T10:00:00+00:00", now) == "2025-03-04", "another year")
  local label = cs.session_label({ sessionId = "s1", title = "Fix", model = "m", used = 90000, size = 200000, updatedAt = iso(now - 600) }, now)
  H.check(label == "Fix · m · 5K/10K · 10 min ago", "label uses the live gauge and a human date: " .. label)
end)
