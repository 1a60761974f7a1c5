-- Pure client logic: config validation, the gauge and statusline, command completion,
-- highlight links, and the handshake (capabilities sent, protocol refusal) against an
-- in-process fake server.
local H = dofile(os.getenv("CS_HELPERS"))
local F = dofile(os.getenv("CS_FAKE_SERVER"))

H.run(function()
  local cs = require("context_sidecar")
  local config = require("context_sidecar.config")
  local status = require("context_sidecar.status")

  -- The plugin file defines only the command.
  H.check(vim.fn.exists(":ContextSidecar") == 2, "plugin defines :ContextSidecar")
  H.check(package.loaded["context_sidecar.chat"] == nil, "plugin/ loads no module eagerly")

  -- Config ----------------------------------------------------------------------------------
  local notes = {}
  local orig_notify = vim.notify
  vim.notify = function(msg, level)
    table.insert(notes, { msg = msg, level = level })
  end
  cs.setup({ cmd = { "python3", "-m", "sidecar", "serve" }, chat = { width = 60 }, bogus = 1 })
  local cfg = config.get()
  H.check(vim.deep_equal(cfg.cmd, { "python3", "-m", "sidecar", "serve" }), "cmd replaced, not merged")
  H.check(cfg.chat.width == 60 and cfg.chat.layout == "vertical", "nested options merge over defaults")
  H.check(cfg.bogus == nil, "unknown option dropped")
  H.check(#notes == 1 and notes[1].msg:find("bogus", 1, true) ~= nil, "unknown option reported")
  vim.notify = orig_notify

  for _, bad in ipairs({
    { cmd = {} },
    { cmd = "context-sidecar serve" },
    { chat = { layout = "sideways" } },
    { mappings = { submit = 3 } },
    { settings = "x" },
    { attach_buffers = "yes" },
  }) do
    local ok, err = pcall(cs.setup, bad)
    H.check(not ok and type(err) == "string", "setup rejects " .. vim.inspect(bad, { newline = "" }))
  end
  -- Idempotent: a second setup replaces the autocmds rather than adding more.
  cs.setup({})
  cs.setup({})
  local autocmds = vim.api.nvim_get_autocmds({ group = "context_sidecar", event = "ColorScheme" })
  H.check(#autocmds == 1, "setup twice keeps one ColorScheme autocmd")

  -- Completion ------------------------------------------------------------------------------
  local all = cs.complete("", "ContextSidecar ")
  H.record("subcommands", all)
  H.check(vim.deep_equal(all, { "add", "cancel", "chat", "compact", "context", "fork", "mcp", "mode", "model", "new", "plan", "rewind", "sessions" }), "all subcommands complete")
  H.check(vim.deep_equal(cs.complete("co", "ContextSidecar co"), { "compact", "context" }), "prefix completion")
  H.check(#cs.complete("", "ContextSidecar model ") == 0, "no completion after the subcommand")
  H.check(#vim.fn.getcompletion("ContextSidecar se", "cmdline") == 1, "cmdline completion wired")

  -- Highlights ------------------------------------------------------------------------------
  for group, target in pairs({
    ContextSidecarOk = "DiagnosticOk",
    ContextSidecarWarning = "DiagnosticWarn",
    ContextSidecarError = "DiagnosticError",
    ContextSidecarBlocking = "ErrorMsg",
  }) do
    H.check(vim.api.nvim_get_hl(0, { name = group }).link == target, group .. " links to " .. target)
  end
  vim.cmd("hi clear")
  vim.api.nvim_exec_autocmds("ColorScheme", {})
  H.check(vim.api.nvim_get_hl(0, { name = "ContextSidecarOk" }).link == "DiagnosticOk", "links survive :hi clear")

  -- Gauge and statusline --------------------------------------------------------------------
  H.check(cs.statusline() == "", "empty statusline before any gauge")
  H.check(status.format_tokens(950) == "950", "format 950")
  H.check(status.format_tokens(8500) == "8.5K", "format 8.5K")
  H.check(status.format_tokens(142000) == "142K", "format 142K")
  H.check(status.format_tokens(200000) == "200K", "format 200K")
  H.check(status.format_tokens(1000000) == "1M", "format 1M")
  H.check(status.format_tokens(1250000) == "1.2M", "format 1.2M")

  local events = H.collect("ContextSidecarGauge")
  local seen_by_callback = {}
  local handle = cs.on_gauge(function(g)
    table.insert(seen_by_callback, g.seq)
  end)
  local g = {
    sessionId = "a",
    seq = 5,
    used = 142000,
    size = 200000,
    percentUsed = 71,
    level = "warning",
  }
  H.check(status.update(g), "first gauge applied")
  H.check(cs.statusline() == "ctx 71% 142K/200K", "statusline text: " .. cs.statusline())
  H.check(cs.statusline_hl() == "ContextSidecarWarning", "warning highlight")
  H.check(cs.statusline({ escape = true }) == "ctx 71%% 142K/200K", "escaped for lualine")
  H.check(
    cs.statusline({ highlight = true }) == "%#ContextSidecarWarning#ctx 71%% 142K/200K%*",
    "statusline with highlight"
  )
  -- The string works inside 'statusline'.
  vim.o.laststatus = 2
  vim.o.statusline = "%{%v:lua.require'context_sidecar'.statusline({'highlight': v:true})%}"
  vim.cmd("redrawstatus")
  local eval = vim.api.nvim_eval_statusline(vim.o.statusline, {})
  H.check(eval.str == "ctx 71% 142K/200K", "evaluated statusline: " .. eval.str)

  local stale = vim.tbl_extend("force", g, { seq = 4, used = 1000, percentUsed = 0.5, level = "ok" })
  H.check(not status.update(stale), "older seq dropped")
  H.check(not status.update(vim.tbl_extend("force", g, { used = 1 })), "equal seq dropped")
  H.check(cs.statusline() == "ctx 71% 142K/200K", "stale gauge did not change the statusline")

  H.check(
    status.from_usage_update("a", {
      sessionUpdate = "usage_update",
      used = 190000,
      size = 200000,
      _meta = { sidecar = vim.tbl_extend("force", g, { seq = 6, used = 190000, percentUsed = 95, level = "blocking" }) },
    }),
    "usage_update with _meta.sidecar applied"
  )
  H.check(cs.statusline() == "ctx 95% 190K/200K" and cs.statusline_hl() == "ContextSidecarBlocking", "blocking gauge")
  H.check(#events == 2 and events[2].level == "blocking" and events[2].seq == 6, "User ContextSidecarGauge carries the gauge")
  H.check(vim.deep_equal(seen_by_callback, { 5, 6 }), "callback saw each applied gauge once")
  -- The MCP tools waiting for a tool search, in the /context view.
  local context_view = require("context_sidecar.context_view")
  H.check(context_view.deferred_tools_text(vim.NIL) == nil, "no deferred tools, no line")
  local deferred_view = context_view.lines({ gauge = { used = 1, size = 10, level = "ok",
    deferredTools = { count = 300, savedTokens = 19954, search = "server" } } })
  H.check(vim.tbl_contains(deferred_view, "Tool search: 300 MCP tools deferred, 19,954 tokens of "
    .. "definitions kept out of every request; the provider's tool search finds them."),
    "context view: deferred tools " .. vim.inspect(deferred_view))
  cs.on_gauge(function() end)
  status.unsubscribe(handle)
  -- Without _meta only used/size move; the level is kept.
  status.from_usage_update("a", { sessionUpdate = "usage_update", used = 20000, size = 200000 })
  H.check(cs.statusline() == "ctx 10% 20K/200K" and cs.statusline_hl() == "ContextSidecarBlocking", "usage without _meta")
  status.update({ sessionId = "b", seq = 1, used = 500, size = 1000, percentUsed = 50, level = "ok" })
  H.check(cs.statusline() == "ctx 10% 20K/200K", "a second session does not steal the statusline")
  status.set_active("b")
  H.check(cs.statusline() == "ctx 50% 500/1K" and cs.statusline_hl() == "ContextSidecarOk", "active session switches")
  status.reset()

  -- Handshake -------------------------------------------------------------------------------
  local client = require("context_sidecar.client")
  local function start(script)
    script.log = script.log or {}
    script.gauge = F.gauge
    require("context_sidecar.config").set({ cmd = { "unused" }, settings = { model = "m1" } })
    local root = vim.fn.tempname()
    vim.fn.mkdir(root, "p")
    -- cmd may be a function in vim.lsp; config validation wants strings, so patch after.
    local orig = vim.lsp.start
    vim.lsp.start = function(cfg, opts)
      cfg.cmd = F.cmd(script)
      return orig(cfg, opts)
    end
    local result = {}
    client.ensure(root, function(err, state)
      result.err, result.state, result.done = err, state, true
    end)
    vim.lsp.start = orig
    H.wait(3000, function()
      return result.done
    end, "handshake")
    return result, script
  end

  local notes2 = {}
  vim.notify = function(msg, level)
    table.insert(notes2, { msg = msg, level = level })
  end
  local refused = start({ protocol = 1 })
  vim.wait(50)
  vim.notify = orig_notify
  H.check(refused.err and refused.err:find("protocol 1", 1, true) ~= nil, "protocol 1 refused: " .. tostring(refused.err))
  H.check(#notes2 == 1 and notes2[1].level == vim.log.levels.ERROR, "refusal shown as an error")
  H.record("refusal", refused.err)

  vim.notify = function() end
  local missing = start({ protocol = nil })
  vim.wait(50)
  vim.notify = orig_notify
  H.check(missing.err and missing.err:find("did not announce", 1, true) ~= nil, "server without our capability refused")

  local current = client.PROTOCOL_VERSION
  local accepted, script = start({ protocol = current })
  H.check(accepted.err == nil and accepted.state.ready, ("protocol %d accepted"):format(current))
  local init = script.init_params
  local ours = init.capabilities.experimental.contextSidecar
  H.check(ours.protocolVersion == current and ours.permissionRequests == true and ours.compactionUpdates == true, "capabilities advertised")
  H.check(init.initializationOptions.settings.model == "m1", "init_options.settings sent")
  H.check(init.initializationOptions.editorInfo.name == "Neovim", "editorInfo sent")
  H.check(accepted.state.server_info.version == "0.0-fake", "serverInfo kept")

  -- A second ensure for the same root reuses the client.
  local again
  client.ensure(accepted.state.root, function(_, st)
    again = st
  end)
  H.check(again == accepted.state, "one client per root")

  -- A command that cannot start reports instead of hanging.
  require("context_sidecar.config").set({ cmd = { "/nonexistent/context-sidecar", "serve" } })
  local failed
  vim.notify = function() end
  client.ensure(vim.fn.tempname(), function(err)
    failed = err or "no error"
  end)
  H.wait(3000, function()
    return failed ~= nil
  end, "start failure")
  vim.notify = orig_notify
  H.check(failed:find("could not start", 1, true) ~= nil, "unstartable cmd reported: " .. failed)

  -- Health helpers.
  local health = require("context_sidecar.health")
  H.check(vim.deep_equal(health.version_cmd({ "py", "-m", "sidecar", "serve" }), { "py", "-m", "sidecar", "--version" }), "version cmd")
  local v, p = health.parse_version("context-sidecar 0.1.0 (protocol 2)")
  H.check(v == "0.1.0" and p == 2, "parse --version")

  -- Permission prompts and tool rows in words, not JSON.
  local tr = require("context_sidecar.transcript")
  local bash = { title = "List files", kind = "execute", rawInput = { command = "ls -la", description = "List files" } }
  H.check(tr.permission_prompt(bash, "/w") == "Run `ls -la`?", "shell prompt: " .. tr.permission_prompt(bash, "/w"))
  H.check(vim.deep_equal(tr.input_lines(bash, "/w"), { "    $ ls -la" }), "shell row")
  local multi = { kind = "execute", rawInput = { command = "cd src\nmake" } }
  H.check(tr.permission_prompt(multi) == "Run `cd src …`?", "multi-line command prompt: " .. tr.permission_prompt(multi))
  H.check(vim.deep_equal(tr.input_lines(multi), { "    $ cd src", "      make" }), "multi-line command row")
  local read = { title = "Read a.py", kind = "read", rawInput = { file_path = "/w/src/a.py" } }
  H.check(tr.permission_prompt(read, "/w") == "Read src/a.py?", "read prompt: " .. tr.permission_prompt(read, "/w"))
  H.check(vim.deep_equal(tr.input_lines(read, "/w"), { "    file: src/a.py" }), "read row")
  local other = { title = "Fetch", kind = "fetch", rawInput = { url = "https://x.test", prompt = "summary" } }
  H.check(tr.permission_prompt(other) == "Allow Fetch (prompt: summary, url: https://x.test)?", "other prompt: " .. tr.permission_prompt(other))
  H.check(vim.deep_equal(tr.input_lines(other), { "    prompt: summary", "    url: https://x.test" }), "other row")
  H.check(vim.deep_equal(tr.hunk("a\nb\nc\n", "a\nB\nc"), { "@@ -1,3 +1,3 @@", " a", "-b", "+B", " c" }), "hunk: " .. vim.inspect(tr.hunk("a\nb\nc\n", "a\nB\nc")))
end)
