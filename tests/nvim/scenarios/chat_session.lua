-- Real sidecar + fake LLM, one editor: open the chat with :ContextSidecar chat and stream a
-- reply; a Bash tool call asks for permission through vim.ui.select and runs once allowed;
-- a slow reply is cancelled midway with :ContextSidecar cancel; finally the session is
-- reopened through :ContextSidecar sessions and its history replayed into a new buffer.
local H = dofile(os.getenv("CS_HELPERS"))

H.run(function()
  H.setup_real({ contextWindow = 60000, sessionMemory = { enabled = false } })
  vim.cmd("cd " .. vim.fn.fnameescape(os.getenv("CS_ROOT")))
  local cs = require("context_sidecar")
  local chunks = 0
  local orig = require("context_sidecar.chat").on_update
  require("context_sidecar.chat").on_update = function(params, ...)
    if params.update.sessionUpdate == "agent_message_chunk" then
      chunks = chunks + 1
    end
    return orig(params, ...)
  end

  local chosen
  H.stub_select(function(items, opts)
    H.record("permission_options", items)
    H.record("permission_prompt", opts.prompt)
    for _, item in ipairs(items) do
      if item.kind == "allow_once" then
        chosen = item
        return item
      end
    end
  end)

  vim.cmd("ContextSidecar chat")
  H.wait(60000, function()
    return require("context_sidecar.chat").current() ~= nil
  end, "session/new through :ContextSidecar chat")
  H.mark("session_new")
  local chat = require("context_sidecar.chat").current()
  H.record("session_id", chat.session_id)
  H.check(vim.api.nvim_get_current_buf() == chat.buf, "chat focused")
  H.check(cs.statusline():match("^ctx %d+%% [%d%.]+K?/60K$") ~= nil, "gauge after session/new: " .. cs.statusline())

  local done = H.turn(chat, "Say hello", 30000)
  H.mark("turn")
  H.check(done.stopReason == "end_turn", "stopReason end_turn, got " .. tostring(done.stopReason) .. vim.inspect(done.error))
  local text = H.text(chat.buf)
  H.record("lines", H.lines(chat.buf))
  H.check(text:find("## Assistant\n\nHello from the fake model.", 1, true) ~= nil, "streamed reply in the buffer")
  H.record("chunks", chunks)
  H.check(chunks >= 2, "reply arrived in several chunks (" .. chunks .. ")")
  H.record("statusline", cs.statusline())
  H.record("gauge", cs.gauge())
  H.check(cs.gauge().sessionId == chat.session_id, "gauge belongs to the chat's session")

  -- Tool call with a permission prompt.
  done = H.turn(chat, "run the echo tool", 30000)
  H.mark("tool_turn")
  H.check(done.stopReason == "end_turn", "tool turn ended: " .. vim.inspect(done.error))
  H.check(chosen ~= nil, "an allow_once option was offered")
  H.check(#H.selects == 1 and H.selects[1].kind == "context_sidecar_permission", "one permission prompt")
  text = H.text(chat.buf)
  H.record("tool_lines", H.lines(chat.buf))
  H.check(text:find("\n⚙ [^\n]* · completed\n") ~= nil, "tool call completed")
  H.check(text:find("    permission: " .. chosen.name, 1, true) ~= nil, "permission answer shown")
  H.check(text:find("\n    hi\n", 1, true) ~= nil, "tool output shown")
  H.check(text:find("The command printed hi.", 1, true) ~= nil, "final text after the tool")

  -- Cancel midway.
  local ended = H.collect("ContextSidecarTurnEnd")
  require("context_sidecar.chat").send(chat, "count slowly please")
  H.wait(20000, function()
    return H.text(chat.buf):find("One, two", 1, true) ~= nil
  end, "first streamed chunk")
  H.mark("first_chunk")
  local t0 = vim.uv.hrtime()
  vim.cmd("ContextSidecar cancel")
  H.wait(5000, function()
    return #ended == 1
  end, "cancelled turn")
  H.mark("cancelled")
  H.record("cancel_ms", math.floor((vim.uv.hrtime() - t0) / 1e6))
  H.check(ended[1].stopReason == "cancelled", "stopReason cancelled, got " .. tostring(ended[1].stopReason))
  local after = H.text(chat.buf)
  H.check(after:find("*Stopped: cancelled*", 1, true) ~= nil, "cancel shown")
  H.check(after:find("ninety", 1, true) == nil, "the rest of the slow reply never arrived")
  H.check(vim.bo[chat.buf].modifiable, "buffer editable again")
  H.record("final_lines", H.lines(chat.buf))

  -- :ContextSidecar sessions lists it; picking it in a fresh buffer replays the history.
  local picked
  H.stub_select(function(items)
    picked = items
    for _, item in ipairs(items) do
      if item.sessionId == chat.session_id then
        return item
      end
    end
  end)
  vim.api.nvim_buf_delete(chat.buf, { force = true })
  vim.cmd("ContextSidecar sessions")
  H.wait(10000, function()
    local c = require("context_sidecar.chat").get(chat.session_id)
    return c ~= nil and c.input_mark ~= nil
  end, "session/load replay")
  H.mark("load")
  local loaded = require("context_sidecar.chat").get(chat.session_id)
  local replayed = H.text(loaded.buf)
  H.record("replayed", H.lines(loaded.buf))
  H.check(replayed:find("## You\n\nSay hello", 1, true) ~= nil, "user message replayed")
  H.check(replayed:find("## Assistant\n\nHello from the fake model.", 1, true) ~= nil, "assistant message replayed")
  H.check(replayed:find("The command printed hi.", 1, true) ~= nil, "later turns replayed")
  H.check(#picked >= 1, "session list offered")

  -- :checkhealth with the client running.
  vim.cmd("checkhealth context_sidecar")
  local report = H.text(vim.api.nvim_get_current_buf())
  H.record("health", H.lines(vim.api.nvim_get_current_buf()))
  H.check(report:find("Neovim %d+%.%d+") ~= nil, "health: Neovim version")
  local protocol = require("context_sidecar.client").PROTOCOL_VERSION
  H.check(report:find("context%-sidecar [%d%.]+, protocol " .. protocol) ~= nil, "health: sidecar --version and protocol")
  H.check(report:find("Python: ", 1, true) ~= nil, "health: Python interpreter")
  H.check(report:find("key variable FAKE_LLM_KEY is set", 1, true) ~= nil, "health: provider key present")
  H.check(report:find("Watcher mode:", 1, true) ~= nil, "health: watcher mode")
  H.check(report:find("context-sidecar 0.1.0, protocol " .. protocol, 1, true) ~= nil or report:find(": context%-sidecar [%d%.]+, protocol " .. protocol) ~= nil, "health: running client's serverInfo")
  H.check(report:find("ERROR", 1, true) == nil, "health: no errors")
end)
