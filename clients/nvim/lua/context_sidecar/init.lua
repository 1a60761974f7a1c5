---context-sidecar for Neovim: chat buffers and a context gauge backed by the sidecar process.
---Public API: setup(), statusline(), statusline_hl(), gauge(), on_gauge() and one function per
---`:ContextSidecar` subcommand.
local M = {}

local did_setup = false

local function check_version()
  if vim.fn.has("nvim-0.10") == 1 then
    return true
  end
  vim.notify("context_sidecar needs Neovim 0.10 or newer", vim.log.levels.ERROR)
  return false
end

---Define highlights once per colorscheme; called by setup() and on first statusline use.
local highlights_defined = false
local function ensure_highlights()
  if highlights_defined then
    return
  end
  highlights_defined = true
  require("context_sidecar.status").define_highlights()
end

---@param opts? table see `:help context_sidecar-config`
function M.setup(opts)
  if not check_version() then
    return
  end
  local config = require("context_sidecar.config")
  local previous = did_setup and vim.deepcopy(config.get()) or nil
  config.set(opts)
  did_setup = true

  local group = vim.api.nvim_create_augroup("context_sidecar", { clear = true })
  require("context_sidecar.status").define_highlights()
  highlights_defined = true
  vim.api.nvim_create_autocmd("ColorScheme", {
    group = group,
    desc = "context_sidecar: restore gauge highlight links",
    callback = function()
      require("context_sidecar.status").define_highlights()
    end,
  })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    desc = "context_sidecar: let the sidecar see file buffers under its root",
    callback = function(args)
      if not config.get().attach_buffers then
        return
      end
      for _, state in ipairs(require("context_sidecar.client").all()) do
        require("context_sidecar.client").attach_buffer(state, args.buf)
      end
    end,
  })

  -- A second setup() with a different command or settings restarts the sidecar so the
  -- change takes effect instead of silently applying only to roots opened later.
  if previous then
    local now = config.get()
    if not vim.deep_equal(previous.cmd, now.cmd) or not vim.deep_equal(previous.settings, now.settings) then
      require("context_sidecar.client").stop_all()
    end
  end
end

-- Statusline --------------------------------------------------------------------------------

---The gauge as a short string, e.g. `ctx 71% 142K/200K`; "" until a session reports.
---@param opts? context_sidecar.StatuslineOpts
---@return string
function M.statusline(opts)
  ensure_highlights()
  return require("context_sidecar.status").statusline(opts)
end

---Highlight group for the current gauge level (ContextSidecarOk/Warning/Error/Blocking).
---@return string
function M.statusline_hl()
  ensure_highlights()
  return require("context_sidecar.status").highlight()
end

---The current chat's permission mode name (e.g. `Plan`), "" before a session reports one;
---for statuslines.
---@return string
function M.statusline_mode()
  local chat_mod = require("context_sidecar.chat")
  local chat = chat_mod.current()
  return chat and chat_mod.mode_name(chat) or ""
end

---`mcp 2/3` (connected of all MCP servers of the current workspace, `, 1 waiting` for
---approval), "" without servers.
---@return string
function M.statusline_mcp()
  local chat = require("context_sidecar.chat").current()
  local root = chat and chat.root or require("context_sidecar.client").root()
  return require("context_sidecar.mcp").summary(root) or ""
end

---@param session_id? string
---@return context_sidecar.Gauge|nil
function M.gauge(session_id)
  return require("context_sidecar.status").get(session_id)
end

---Call `cb(gauge)` now (if a gauge exists) and on every gauge change; returns a handle.
---@param cb fun(gauge: context_sidecar.Gauge)
---@return integer
function M.on_gauge(cb)
  return require("context_sidecar.status").subscribe(cb)
end

-- Commands ----------------------------------------------------------------------------------

local function current_chat(quiet)
  local chat = require("context_sidecar.chat").current()
  if not chat and not quiet then
    vim.notify("context_sidecar: no chat yet; run :ContextSidecar chat", vim.log.levels.WARN)
  end
  return chat
end

---Open the chat for this workspace, starting a session when there is none.
---@param cb? fun(chat: context_sidecar.Chat|nil)
function M.chat(cb)
  local chat_mod = require("context_sidecar.chat")
  local root = require("context_sidecar.client").root()
  local chat = chat_mod.current()
  if chat and chat.root == root then
    chat_mod.show(chat)
    if cb then
      cb(chat)
    end
    return
  end
  if require("context_sidecar.config").get().resume_last_session then
    M.resume(cb)
    return
  end
  M.new(cb)
end

---Reopen the workspace's newest stored session (`session/list {cwd}` is newest first), or
---start one when the workspace has none.
---@param cb? fun(chat: context_sidecar.Chat|nil)
function M.resume(cb)
  local client = require("context_sidecar.client")
  local chat_mod = require("context_sidecar.chat")
  local root = client.root()
  client.ensure(root, function(err, state)
    if err or not state then
      vim.notify(err or "context-sidecar is not running", vim.log.levels.ERROR)
      if cb then
        cb(nil)
      end
      return
    end
    require("context_sidecar.api").session_list(state, { cwd = root }, function(list_err, result)
      local sessions = not list_err and result and client.value(result.sessions) or {}
      local last = sessions[1]
      if not last or not client.value(last.sessionId) then
        M.new(cb)
        return
      end
      chat_mod.load_session(root, last.sessionId, function(chat)
        if not chat then
          -- The transcript could not be read: a fresh session is better than nothing.
          M.new(cb)
          return
        end
        chat_mod.show(chat)
        if cb then
          cb(chat)
        end
      end, last)
    end)
  end)
end

---Start a new session and show it.
---@param cb? fun(chat: context_sidecar.Chat|nil)
function M.new(cb)
  local chat_mod = require("context_sidecar.chat")
  chat_mod.new_session(require("context_sidecar.client").root(), function(chat)
    if chat then
      chat_mod.show(chat)
    end
    if cb then
      cb(chat)
    end
  end)
end

---Send `text` from the current chat (opening one first when needed).
---@param text string
function M.send(text)
  local chat = current_chat(true)
  if chat then
    return require("context_sidecar.chat").send(chat, text)
  end
  M.chat(function(new_chat)
    if new_chat then
      require("context_sidecar.chat").send(new_chat, text)
    end
  end)
end

---One line of the session picker: title · model · size · when. The size of a session open
---here comes from its live gauge, so it is fresh after a compaction.
---@param s context_sidecar.SessionSummary
---@param now? integer
---@return string
function M.session_label(s, now)
  local nn = require("context_sidecar.client").value
  local status = require("context_sidecar.status")
  local parts = { nn(s.title) or "(untitled)" }
  if nn(s.model) then
    table.insert(parts, s.model)
  end
  local live = status.get(s.sessionId)
  local used, size = nn(s.used), nn(s.size)
  if live and live.sessionId == s.sessionId and nn(live.used) then
    used, size = nn(live.used), nn(live.size) or size
  end
  if used and size then
    table.insert(parts, ("%s/%s"):format(status.format_tokens(used), status.format_tokens(size)))
  end
  if nn(s.updatedAt) then
    table.insert(parts, require("context_sidecar.dates").human(s.updatedAt, now))
  end
  return table.concat(parts, " · ")
end
local session_label = M.session_label

---Pick a stored session of this workspace and open it (its history is replayed).
function M.sessions()
  local client = require("context_sidecar.client")
  local root = client.root()
  client.ensure(root, function(err, state)
    if err or not state then
      vim.notify(err or "context-sidecar is not running", vim.log.levels.ERROR)
      return
    end
    require("context_sidecar.api").session_list(state, { cwd = root }, function(list_err, result)
      if list_err then
        vim.notify("context-sidecar: session/list failed: " .. list_err.message, vim.log.levels.ERROR)
        return
      end
      local sessions = result and client.value(result.sessions) or {}
      if #sessions == 0 then
        vim.notify("context_sidecar: no stored sessions for " .. root, vim.log.levels.INFO)
        return
      end
      vim.ui.select(sessions, {
        prompt = "Open session",
        kind = "context_sidecar_session",
        format_item = session_label,
      }, function(choice)
        if not choice then
          return
        end
        local chat_mod = require("context_sidecar.chat")
        chat_mod.load_session(root, choice.sessionId, function(chat)
          if chat then
            chat_mod.show(chat)
          end
        end, choice)
      end)
    end)
  end)
end

---Compact the current session now.
---@param instructions? string what the summary should keep
---@param cb? fun(err: table|nil, result: context_sidecar.Compacted|nil)
function M.compact(instructions, cb)
  local chat = current_chat()
  if not chat then
    return
  end
  local params = { sessionId = chat.session_id, workDoneToken = "context-sidecar-compact-" .. vim.uv.hrtime() }
  if instructions and vim.trim(instructions) ~= "" then
    params.instructions = vim.trim(instructions)
  end
  require("context_sidecar.api").compact(chat.state, params, function(err, result)
    if err then
      vim.notify("context-sidecar: compaction failed: " .. tostring(err.message), vim.log.levels.ERROR)
    elseif result then
      local status = require("context_sidecar.status")
      local before, after = tonumber(result.tokensBefore), tonumber(result.tokensAfter)
      if before and after then
        vim.notify(
          ("context-sidecar: compacted %s → %s tokens (saved %s)"):format(
            status.format_tokens(before),
            status.format_tokens(after),
            status.format_tokens(math.max(0, before - after))
          ),
          vim.log.levels.INFO
        )
      end
    end
    if cb then
      cb(err, result)
    end
  end)
end

---Show the `/context` view of the current session in a scratch buffer.
---@param cb? fun(buf: integer|nil)
function M.context(cb)
  local chat = current_chat()
  if not chat then
    return
  end
  require("context_sidecar.api").context(chat.state, { sessionId = chat.session_id }, function(err, result)
    if err or not result then
      vim.notify("context-sidecar: sidecar/context failed: " .. (err and err.message or "no result"), vim.log.levels.ERROR)
      if cb then
        cb(nil)
      end
      return
    end
    M.note_trust(chat.state, result.workspaceTrust)
    local buf = require("context_sidecar.context_view").open(result)
    if cb then
      cb(buf)
    end
  end)
end

---Keep what the sidecar says of the workspace's trust (a `sidecar/context` result's
---`workspaceTrust`); an untrusted folder that has something withheld says so once, and the chat's
---winbar shows "restricted" until the folder is trusted.
---@param state context_sidecar.ClientState
---@param trust table|nil
function M.note_trust(state, trust)
  local nn = require("context_sidecar.client").value
  trust = nn(trust)
  if type(trust) ~= "table" or type(nn(trust.trusted)) ~= "boolean" then
    return
  end
  local withheld = {}
  for _, item in ipairs(nn(trust.withheld) or {}) do
    if type(item) == "string" then
      table.insert(withheld, item)
    end
  end
  local before = state.trust
  state.trust = { trusted = trust.trusted, source = nn(trust.source) or "none", withheld = withheld }
  if not trust.trusted and #withheld > 0 and not (before and before.trusted == false) then
    vim.notify(
      ("context-sidecar: restricted: this folder is not trusted, so these are not applied: %s. :ContextSidecarTrust trusts it."):format(
        table.concat(withheld, "; ")
      ),
      vim.log.levels.WARN
    )
  end
  vim.cmd("redrawstatus!")
end

---`:ContextSidecarTrust`: trust the workspace root in Neovim's trust database (vim.secure, the
---same one `:trust` and 'exrc' use), then tell the sidecar (`sidecar/trustWorkspace`), which
---applies the folder's hooks, settings and MCP servers to sessions opened afterwards.
---@param cb? fun(err: string|nil, result: context_sidecar.WorkspaceTrusted|nil)
function M.trust(cb)
  local chat = current_chat(true)
  local client = require("context_sidecar.client")
  local root = chat and chat.root or client.root()
  local function done(err, result)
    if err then
      vim.notify("context-sidecar: " .. err, vim.log.levels.ERROR)
    end
    if cb then
      cb(err, result)
    end
  end
  local ok, recorded = require("context_sidecar.trust").record(root)
  if not ok then
    return done("could not record trust for " .. root .. ": " .. tostring(recorded))
  end
  client.ensure(root, function(err, state)
    if err or not state then
      return done(err or "context-sidecar is not running")
    end
    require("context_sidecar.api").trust_workspace(state, { cwd = root }, function(req_err, result)
      if req_err or not result then
        return done(require("context_sidecar.contract").methods.TRUST_WORKSPACE .. " failed: " .. (req_err and tostring(req_err.message) or "no result"))
      end
      state.trust = { trusted = true, source = "editor", withheld = {} }
      vim.cmd("redrawstatus!")
      vim.notify(
        ("context-sidecar: trusted %s; sessions started from now on apply its hooks, settings and MCP servers"):format(
          client.value(result.cwd) or root
        ),
        vim.log.levels.INFO
      )
      done(nil, result)
    end)
  end)
end

---Cancel the running turn of the current chat.
function M.cancel()
  local chat = current_chat()
  if chat then
    require("context_sidecar.chat").cancel(chat)
  end
end

---`1M`, `200K`: a context window in words.
---@param tokens number
---@return string
local function window_words(tokens)
  if tokens >= 1000000 and tokens % 1000000 < 100000 then
    return ("%dM"):format(math.floor(tokens / 1000000))
  elseif tokens >= 1000000 then
    return ("%.1fM"):format(tokens / 1000000)
  end
  return ("%dK"):format(math.floor(tokens / 1000 + 0.5))
end

---One line of the model picker: `● id — Display name · 1M context · deprecated`.
---@param choice table a `sidecar/models` entry
---@param current string|nil
---@return string
function M.model_label(choice, current)
  local client = require("context_sidecar.client")
  local parts = {}
  local name = client.value(choice.displayName)
  if type(name) == "string" and name ~= "" and name ~= choice.id then
    table.insert(parts, name)
  end
  local window = client.value(choice.contextWindow)
  if type(window) == "number" and window > 0 then
    table.insert(parts, window_words(window) .. " context")
  end
  if choice.lifecycle and choice.lifecycle ~= "active" then
    table.insert(parts, choice.lifecycle)
  end
  local mark = choice.id == current and "● " or "  "
  return mark .. choice.id .. (#parts > 0 and (" — " .. table.concat(parts, " · ")) or "")
end

---Switch the current session's model; without a name, pick one from the provider's list
---(`sidecar/models`) with |vim.ui.select()|. New sessions of the workspace keep the model
---picked (the sidecar remembers it).
---@param name? string
---@param cb? fun(err: table|nil, result: table|nil)
function M.model(name, cb)
  local chat = current_chat()
  if not chat then
    return
  end
  local api = require("context_sidecar.api")
  local client = require("context_sidecar.client")
  local function switch(model)
    api.session_set_model(chat.state, { sessionId = chat.session_id, model = model }, function(err, result)
      if err then
        vim.notify("context-sidecar: session/set_model failed: " .. tostring(err.message), vim.log.levels.ERROR)
      else
        chat.model = model
        local gauge = result and client.value(result.gauge)
        if type(gauge) == "table" then
          gauge.sessionId = gauge.sessionId or chat.session_id
          require("context_sidecar.status").update(gauge)
        end
      end
      if cb then
        cb(err, result)
      end
    end)
  end
  if name and name ~= "" then
    switch(name)
    return
  end
  api.models(chat.state, { sessionId = chat.session_id }, function(err, result)
    if err or type(result) ~= "table" then
      vim.notify("context-sidecar: sidecar/models failed: " .. tostring(err and err.message), vim.log.levels.ERROR)
      if cb then
        cb(err, nil)
      end
      return
    end
    local current = client.value(result.current) or chat.model
    local choices = vim.tbl_filter(function(c)
      return type(c) == "table" and type(c.id) == "string"
    end, result.models or {})
    local from = result.source == "provider" and "the provider's list" or "the catalog"
    vim.ui.select(choices, {
      prompt = ("Model (now %s; from %s)"):format(current or "?", from),
      kind = "context_sidecar_model",
      format_item = function(choice)
        return M.model_label(choice, current)
      end,
    }, function(choice)
      if choice and choice.id ~= current then
        switch(choice.id)
      elseif cb then
        cb(nil, nil)
      end
    end)
  end)
end

---Switch the current chat's permission mode; without a name, pick one.
---@param name? string mode id (or its display name)
---@param cb? fun(err: table|nil)
function M.mode(name, cb)
  local chat = current_chat()
  if not chat then
    return
  end
  local chat_mod = require("context_sidecar.chat")
  local modes = chat_mod.modes(chat)
  local function switch(id)
    chat_mod.set_mode(chat, id, cb)
  end
  if name and name ~= "" then
    for _, mode in ipairs(modes) do
      if mode.id == name or (mode.name and mode.name:lower() == name:lower()) then
        switch(mode.id)
        return
      end
    end
    local ids = vim.tbl_map(function(m)
      return m.id
    end, modes)
    vim.notify(("context_sidecar: no mode %q; modes: %s"):format(name, table.concat(ids, ", ")), vim.log.levels.ERROR)
    return
  end
  vim.ui.select(modes, {
    prompt = "Permission mode (now " .. (chat.mode or "?") .. ")",
    kind = "context_sidecar_mode",
    format_item = function(mode)
      return ("%s%s — %s"):format(mode.id == chat.mode and "● " or "", mode.name or mode.id, mode.description or "")
    end,
  }, function(choice)
    if choice then
      switch(choice.id)
    end
  end)
end

---Enter plan mode (read-only); `off` goes back to the default mode.
---@param arg? string
---@param cb? fun(err: table|nil)
function M.plan(arg, cb)
  local off = arg and vim.trim(arg) == "off"
  M.mode(off and "default" or "plan", cb)
end

---Mode ids for completion: the current chat's, else the standard four.
---@param arglead string
---@return string[]
function M.complete_mode(arglead)
  local modes = require("context_sidecar.chat").modes(require("context_sidecar.chat").current())
  local out = {}
  for _, mode in ipairs(modes) do
    if vim.startswith(mode.id, arglead) then
      table.insert(out, mode.id)
    end
  end
  return out
end

---Add the lines `first..last` of the current buffer (or, without a range, the current file)
---to the chat's draft as an `@reference`; sent as a `resource` / `resource_link` block.
---@param first? integer
---@param last? integer
---@param cb? fun(ref: string|nil)
function M.add(first, last, cb)
  local buf = vim.api.nvim_get_current_buf()
  local chat_mod = require("context_sidecar.chat")
  if chat_mod.for_buffer(buf) then
    vim.notify("context_sidecar: run this from the file to add, not from the chat", vim.log.levels.WARN)
    return
  end
  local win = vim.api.nvim_get_current_win()
  local function add_to(chat)
    if not chat then
      if cb then
        cb(nil)
      end
      return
    end
    local ref = require("context_sidecar.context_input").add(chat, buf, first, last)
    vim.notify("context_sidecar: added @" .. ref .. " to the draft", vim.log.levels.INFO)
    if cb then
      cb(ref)
    end
  end
  local chat = current_chat(true)
  if chat then
    add_to(chat)
    return
  end
  M.chat(function(new_chat)
    if vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_set_current_win(win)
    end
    add_to(new_chat)
  end)
end

---Show the MCP servers of the current workspace (`pick`: the picker, to approve, reject or
---retry one).
---@param cb? fun(buf: integer)
---@param how? string "pick"
function M.mcp(cb, how)
  if how == "pick" then
    require("context_sidecar.mcp").pick()
    return
  end
  require("context_sidecar.mcp").show(cb)
end

---Rewind the current session: pick a checkpoint (newest first), then restore the code and the
---conversation, one of them, or fork from there. `args` as typed after the command, as `/rewind`
---takes them: `N` (1 the oldest) rewinds both to that checkpoint, `N conversation` or `N code`
---one of them; a code restore is still previewed and asked.
---@param args? string
---@param cb? fun(result: any)
function M.rewind(args, cb)
  local chat = current_chat()
  if not chat then
    return
  end
  local rewind = require("context_sidecar.rewind")
  args = vim.trim(args or "")
  if args == "" then
    rewind.pick(chat, { cb = cb })
    return
  end
  local number, restore = args:match("^(%d+)%s*(%a*)$")
  if not number or (restore ~= "" and not vim.tbl_contains({ "both", "conversation", "code" }, restore)) then
    vim.notify("context_sidecar: usage: :ContextSidecarRewind [N [both|conversation|code]]", vim.log.levels.ERROR)
    return
  end
  rewind.pick(chat, { number = tonumber(number), restore = restore ~= "" and restore or "both", cb = cb })
end

---Fork the current session into a new one and open it: at checkpoint `N` (1 the oldest),
---or, without it, at one picked (or all of the conversation).
---@param args? string
---@param cb? fun(chat: context_sidecar.Chat|nil)
function M.fork(args, cb)
  local chat = current_chat()
  if not chat then
    return
  end
  args = vim.trim(args or "")
  local number = tonumber(args:match("^(%d+)$") or "")
  if args ~= "" and not number then
    vim.notify("context_sidecar: usage: :ContextSidecarFork [N]", vim.log.levels.ERROR)
    return
  end
  require("context_sidecar.rewind").pick(chat, { fork = true, number = number, cb = cb })
end

---Subcommands of `:ContextSidecar` and how each takes its arguments.
M.subcommands = {
  chat = function()
    M.chat()
  end,
  new = function()
    M.new()
  end,
  sessions = function()
    M.sessions()
  end,
  compact = function(rest)
    M.compact(rest)
  end,
  context = function()
    M.context()
  end,
  cancel = function()
    M.cancel()
  end,
  model = function(rest)
    M.model(vim.trim(rest or ""))
  end,
  mode = function(rest)
    M.mode(vim.trim(rest or ""))
  end,
  plan = function(rest)
    M.plan(rest)
  end,
  mcp = function(rest)
    M.mcp(nil, vim.trim(rest or ""))
  end,
  add = function()
    M.add()
  end,
  rewind = function(rest)
    M.rewind(rest)
  end,
  fork = function(rest)
    M.fork(rest)
  end,
}

---`:ContextSidecar [subcommand] [args]`; no subcommand opens the chat.
---@param args {fargs: string[], args: string}
function M.command(args)
  if not check_version() then
    return
  end
  local name = args.fargs[1] or "chat"
  local handler = M.subcommands[name]
  if not handler then
    vim.notify("context_sidecar: unknown subcommand " .. name, vim.log.levels.ERROR)
    return
  end
  local rest = (args.args or ""):gsub("^%s*%S+%s*", "", 1)
  handler(rest)
end

---Completion for `:ContextSidecar`.
---@param arglead string
---@param cmdline string
---@return string[]
function M.complete(arglead, cmdline)
  local words = vim.split(vim.trim(cmdline), "%s+")
  local completing_first = #words == 1 or (#words == 2 and not cmdline:match("%s$"))
  if not completing_first then
    if words[2] == "mode" and (#words == 2 or (#words == 3 and not cmdline:match("%s$"))) then
      return M.complete_mode(arglead)
    end
    return {}
  end
  local names = vim.tbl_keys(M.subcommands)
  table.sort(names)
  return vim.tbl_filter(function(name)
    return vim.startswith(name, arglead)
  end, names)
end

return M
