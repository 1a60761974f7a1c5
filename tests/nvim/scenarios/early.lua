-- Updates that arrive while session/new runs (a SessionStart hook's output, the title, the
-- commands) reach the chat once it exists, above the first draft.
local H = dofile(os.getenv("CS_HELPERS"))
local F = dofile(os.getenv("CS_FAKE_SERVER"))

H.run(function()
  local script
  script = F.install({
    protocol = require("context_sidecar.client").PROTOCOL_VERSION,
    handlers = {
      ["session/new"] = function(_, reply)
        script.push("session/update", { sessionId = "s9", update = { sessionUpdate = "hook_result", event = "SessionStart", command = "echo hi", output = "hi\n", exitCode = 0 } })
        script.push("session/update", { sessionId = "s9", update = { sessionUpdate = "available_commands_update", availableCommands = { { name = "compact", description = "Compact" } } } })
        vim.defer_fn(function()
          reply(nil, { sessionId = "s9", model = "fake-model", provider = "anthropic", gauge = F.gauge("s9", 1, 1000) })
        end, 30)
      end,
    },
  })
  require("context_sidecar").setup({ cmd = { "unused" }, settings = {}, resume_last_session = false })
  vim.cmd("cd " .. vim.fn.fnameescape(os.getenv("CS_ROOT")))
  local chat = H.open_chat()
  local lines = H.lines(chat.buf)
  H.record("lines", lines)
  H.check(vim.deep_equal(lines, { "⚑ Hook SessionStart: echo hi · exit 0", "    hi", "", "## You", "", "" }), "the hook row above the draft:\n" .. table.concat(lines, "\n"))
  H.check(chat.commands and chat.commands[1].name == "compact", "commands that came early are known")
  vim.api.nvim_win_call(vim.fn.bufwinid(chat.buf), function()
    H.check(vim.fn.foldclosed(1) == 1 and vim.fn.foldclosedend(1) == 2, "the hook row folded")
  end)
end)
