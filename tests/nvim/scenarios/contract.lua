-- The client's mirror of the wire against the golden fixtures the sidecar generates from its
-- contract module (docs/contract/, `python -m sidecar.contract.fixtures`): method names, the
-- protocol version, the server messages it handles, every session/update kind reaching the
-- chat, and the fields it reads of each answer, played by a fake server answering with the
-- golden results.
local H = dofile(os.getenv("CS_HELPERS"))
local F = dofile(os.getenv("CS_FAKE_SERVER"))
local CONTRACT = assert(os.getenv("CS_CONTRACT"), "CS_CONTRACT not set")

local function read(file)
  local f = assert(io.open(CONTRACT .. "/" .. file, "r"))
  local text = f:read("*a")
  f:close()
  return vim.json.decode(text)
end

local function sorted_keys(t)
  local out = vim.tbl_keys(t)
  table.sort(out)
  return out
end

H.run(function()
  local index = read("index.json")
  local api = require("context_sidecar.api")
  local client = require("context_sidecar.client")
  local chat_mod = require("context_sidecar.chat")
  local status = require("context_sidecar.status")
  local cs = require("context_sidecar")

  H.check(client.PROTOCOL_VERSION == index.protocolVersion, "the contract's protocol version")

  -- LSP's own requests the client answers itself (not part of the sidecar's contract).
  local LSP_OWN = { ["workspace/applyEdit"] = true }

  -- Names: one wrapper per request and per session notification, and no other.
  local wanted = {}
  for method in pairs(index.requests) do
    wanted[method] = true
  end
  for method in pairs(index.notifications) do
    if vim.startswith(method, "session/") then
      wanted[method] = true
    end
  end
  local wrapped = {}
  for name, method in pairs(api.methods) do
    H.check(wanted[method], ("api.methods.%s is %s, which docs/contract/ does not have"):format(name, method))
    H.check(type(api[name]) == "function", "api." .. name .. " wraps " .. method)
    wrapped[method] = true
  end
  for method in pairs(wanted) do
    H.check(wrapped[method], "api wraps " .. method)
  end
  local recorded = {}
  for method in pairs(wrapped) do
    if wanted[method] then
      recorded[method] = true
    end
  end
  H.record("methods", sorted_keys(recorded))

  -- The server's notifications and requests: each handled, and only those.
  local from_server = vim.tbl_extend("error", {}, index.serverNotifications, index.serverRequests, LSP_OWN)
  H.check(vim.deep_equal(sorted_keys(client.handlers()), sorted_keys(from_server)),
    "handlers for " .. table.concat(sorted_keys(from_server), ", "))

  -- Every update kind has a handler, and nothing else does.
  local kinds = index.serverNotifications["session/update"].kinds
  local handled = {}
  for kind in pairs(chat_mod.update_handlers) do
    handled[kind] = true
  end
  H.check(vim.deep_equal(sorted_keys(handled), sorted_keys(kinds)),
    "update kinds: " .. table.concat(sorted_keys(handled), ", "))

  -- A server answering every request with the contract's result.
  local answers = {}
  for method, files in pairs(index.requests) do
    answers[method] = read(files.result).result
  end
  local script = F.install({ protocol = index.protocolVersion, answers = answers })
  cs.setup({ cmd = { "unused" }, settings = {}, resume_last_session = false })
  vim.cmd("cd " .. vim.fn.fnameescape(os.getenv("CS_ROOT")))

  local opened = answers["session/new"]
  local chat = H.open_chat()
  H.check(chat.session_id == opened.sessionId, "session/new: sessionId read")
  H.check(chat.model == opened.model and chat.provider == opened.provider, "session/new: model and provider read")
  H.check(status.get(chat.session_id).seq == opened.gauge.seq, "session/new: gauge read")

  -- Every golden update changes what the chat shows (the buffer, its title or commands, or
  -- the gauge). Sorted, tool_call comes before its tool_call_update.
  local function shown()
    return {
      lines = H.lines(chat.buf),
      title = chat.title,
      commands = vim.deepcopy(chat.commands),
      gauge = vim.deepcopy(status.get(chat.session_id)),
      winbar = require("context_sidecar.winbar").text(chat),
    }
  end
  for _, kind in ipairs(sorted_keys(kinds)) do
    local note = read(kinds[kind])
    H.check(note.method == "session/update" and note.params.update.sessionUpdate == kind, kinds[kind] .. " is a " .. kind)
    H.check(note.params.sessionId == chat.session_id, kind .. " is about the session session/new opened")
    local before = shown()
    script.push(note.method, note.params)
    H.wait(1000, function()
      return not vim.deep_equal(shown(), before)
    end, kind .. " to change what the chat shows")
  end
  local text = H.text(chat.buf)
  H.record("after_updates", H.lines(chat.buf))
  for _, kind in ipairs({ "user_message_chunk", "agent_message_chunk", "agent_thought_chunk" }) do
    local update = read(kinds[kind]).params.update
    H.check(text:find(update.content.text, 1, true) ~= nil, kind .. "'s text is in the chat")
  end
  H.check(text:find(read(kinds.tool_call).params.update.title, 1, true) ~= nil, "the tool call's title is in the chat")
  H.check(chat.title == read(kinds.session_info_update).params.update.title, "session_info_update: title read")

  -- session/prompt: the turn ends with the answer's stopReason.
  local done = H.turn(chat, "hello")
  H.check(done.stopReason == answers["session/prompt"].stopReason, "session/prompt: stopReason read")
  H.check(script.asked["session/prompt"].sessionId == chat.session_id, "session/prompt sent for the chat's session")

  -- session/list: every entry offered, labelled with what it says.
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = vim.tbl_map(opts.format_item, items)
    on_choice(nil)
  end
  cs.sessions()
  H.wait(2000, function()
    return offered ~= nil
  end, "the session picker")
  local entry = answers["session/list"].sessions[1]
  H.check(#offered == #answers["session/list"].sessions, "session/list: every entry offered")
  H.check(offered[1]:find(entry.title, 1, true) and offered[1]:find(entry.model, 1, true)
    and offered[1]:find(require("context_sidecar.dates").human(entry.updatedAt), 1, true),
    "session/list: title, model and updatedAt read: " .. offered[1])

  -- sidecar/context: the view shows the gauge's model and the files read.
  local view_buf
  cs.context(function(buf)
    view_buf = buf
  end)
  H.wait(2000, function()
    return view_buf ~= nil
  end, "the context view")
  local view = H.text(view_buf)
  local context = answers["sidecar/context"]
  H.check(view:find(context.gauge.model, 1, true) ~= nil, "sidecar/context: gauge read")
  H.check(view:find(context.fileReadState[1].path, 1, true) ~= nil, "sidecar/context: fileReadState read")
  vim.cmd("buffer " .. chat.buf)

  -- sidecar/compact: the notice says the tokens before and after.
  local notes = {}
  local orig_notify = vim.notify
  vim.notify = function(msg)
    table.insert(notes, msg)
  end
  local compacted
  cs.compact(nil, function(err, result)
    compacted = { err = err, result = result }
  end)
  H.wait(2000, function()
    return compacted ~= nil
  end, "sidecar/compact")
  vim.notify = orig_notify
  local c = answers["sidecar/compact"]
  local said = ("compacted %s → %s tokens"):format(status.format_tokens(c.tokensBefore), status.format_tokens(c.tokensAfter))
  H.check(compacted.err == nil and vim.iter(notes):any(function(n)
    return n:find(said, 1, true) ~= nil
  end), "sidecar/compact: tokensBefore and tokensAfter read: " .. table.concat(notes, " | "))

  -- session/set_model: the model is switched and the answer's gauge offered.
  local switched
  cs.model("gpt-5", function(err, result)
    switched = { err = err, result = result }
  end)
  H.wait(2000, function()
    return switched ~= nil
  end, "session/set_model")
  H.check(switched.err == nil and chat.model == "gpt-5", "session/set_model answered")
  H.check(type(switched.result.gauge) == "table" and switched.result.gauge.sessionId == chat.session_id,
    "session/set_model: gauge read")

  -- sidecar/checkpoints: the picker says each checkpoint's prompt, time, files and commands.
  local rewind = require("context_sidecar.rewind")
  local checkpoint = answers["sidecar/checkpoints"].checkpoints[1]
  local labels
  vim.ui.select = function(items, opts, on_choice)
    labels = vim.tbl_map(opts.format_item, items)
    on_choice(nil)
  end
  cs.rewind()
  H.wait(2000, function()
    return labels ~= nil
  end, "the checkpoint picker")
  H.check(labels[1]:find(checkpoint.prompt, 1, true) and labels[1]:find(require("context_sidecar.dates").human(checkpoint.at), 1, true)
    and labels[1]:find("src/app.py", 1, true) and labels[1]:find("1 shell command", 1, true),
    "sidecar/checkpoints: prompt, at, files and commands read: " .. labels[1])

  -- sidecar/rewind: the preview says each file's action and diff and the commands; the
  -- summary what was done.
  local rewound = answers["sidecar/rewind"]
  local preview = rewind.preview_lines(rewound, "heading", "/home/dev/project")
  for _, line in ipairs({ "  restore   src/app.py", "  delete    tests/test_app.py  (created after this point)",
    "  $ npm run build", "-    return run(fast=True)", "+    return run()", "+++ /dev/null" }) do
    H.check(vim.tbl_contains(preview, line), "sidecar/rewind preview: " .. line)
  end
  local summary = rewind.summary(rewound, "/home/dev/project")
  H.check(summary:find("restored src/app.py", 1, true) and summary:find("deleted tests/test_app.py", 1, true)
    and summary:find("$ npm run build", 1, true), "sidecar/rewind: files and commands read: " .. summary)
  local done_rewind
  local rewinds = H.collect("ContextSidecarRewind")
  rewind.rewind(chat, checkpoint, 1, "conversation", function(result)
    done_rewind = result or false
  end)
  H.wait(2000, function()
    return done_rewind ~= nil
  end, "sidecar/rewind")
  H.check(done_rewind and #rewinds == 1 and rewinds[1].prompt == rewound.prompt and rewinds[1].restore == rewound.restore
    and #rewinds[1].files == #rewound.files, "sidecar/rewind: restore, prompt and files read")

  -- sidecar/fork: the new session is opened by its sessionId.
  local forks = H.collect("ContextSidecarFork")
  rewind.fork(chat, checkpoint)
  H.wait(2000, function()
    return #forks == 1
  end, "sidecar/fork")
  H.check(forks[1].sessionId == answers["sidecar/fork"].sessionId, "sidecar/fork: sessionId read")
end)
