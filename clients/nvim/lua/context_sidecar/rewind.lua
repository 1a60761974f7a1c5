---Checkpoints, rewind and fork: a picker of the session's checkpoints (one per prompt, newest
---first), then what to do from there: restore the code and the conversation, one of them, or
---fork a new session. A code restore is previewed first (`preview: true` changes nothing): the
---files and what happens to each, their diffs, the shell commands that cannot be undone and the
---files someone else changed since (left alone unless the user overwrites them), then asked.
---After a conversation rewind the chat shows the conversation as it now stands and the draft
---holds the rewound prompt, to send again or change.
local api = require("context_sidecar.api")
local client = require("context_sidecar.client")

local M = {}

local nn = client.value

---What can be done from a checkpoint, in the order the picker offers it.
M.ACTIONS = {
  { id = "both", name = "Restore code and conversation" },
  { id = "conversation", name = "Restore conversation only" },
  { id = "code", name = "Restore code only" },
  { id = "fork", name = "Fork from here (a new session)" },
  { id = "summarize", name = "Summarize from here (what came before stays word for word)" },
}

---How each `restore` reads in the preview and the summary.
local RESTORE_WORDS = { both = "code and conversation", conversation = "conversation", code = "code" }

---The words of a file's action in the preview.
M.ACTION_WORDS = {
  restore = "restore",
  delete = "delete",
  unchanged = "unchanged",
  conflict = "conflict",
}

local function fire(pattern, data)
  vim.api.nvim_exec_autocmds("User", { pattern = pattern, modeline = false, data = data })
end

local function notify(message, level)
  vim.notify("context-sidecar: " .. message, level or vim.log.levels.INFO)
end

---`/rewind`, `/rewind N [both|conversation|code]`, `/fork`, `/fork N`.
---@param text string
---@return boolean
function M.is_command(text)
  local name = vim.trim(text):match("^/(%S+)")
  return name == "rewind" or name == "fork"
end

---The first line of a prompt, shortened to `limit` characters.
---@param text string|nil
---@param limit? integer
---@return string
function M.first_line(text, limit)
  limit = limit or 60
  local line = vim.trim((tostring(text or "")):match("^%s*([^\n]*)") or "")
  if vim.fn.strchars(line) > limit then
    line = vim.fn.strcharpart(line, 0, limit - 1) .. "…"
  end
  if line == "" then
    return "(empty prompt)"
  end
  return line
end

---`a.py, b.py +2 more` (at most three names, relative to the root).
---@param files table[] a checkpoint's `files`
---@param root string|nil
---@return string
local function file_names(files, root)
  local transcript = require("context_sidecar.transcript")
  local names = {}
  for i, f in ipairs(files) do
    if i > 3 then
      table.insert(names, ("+%d more"):format(#files - 3))
      break
    end
    table.insert(names, transcript.display_path(tostring(nn(f.path) or "?"), root))
  end
  return table.concat(names, ", ")
end

---One line of the checkpoint picker: `#2 · make the second change · today 14:03 · a.py, b.py ·
---1 shell command`. `#N` counts from the oldest, as `/rewind N` does.
---@param checkpoint context_sidecar.Checkpoint
---@param number integer
---@param root string|nil
---@param now? integer
---@return string
function M.label(checkpoint, number, root, now)
  local parts = { ("#%d"):format(number), M.first_line(nn(checkpoint.prompt)) }
  if nn(checkpoint.at) then
    table.insert(parts, require("context_sidecar.dates").human(checkpoint.at, now))
  end
  local files = nn(checkpoint.files) or {}
  table.insert(parts, #files > 0 and file_names(files, root) or "no file changes")
  local commands = nn(checkpoint.commands) or {}
  if #commands > 0 then
    table.insert(parts, ("%d shell %s"):format(#commands, #commands == 1 and "command" or "commands"))
  end
  return table.concat(parts, " · ")
end

---The lines of a preview (a `sidecar/rewind` result with `preview: true`): what happens to each
---file, the shell commands whose changes stay, then a diff of each file that changes.
---@param result context_sidecar.Rewound
---@param heading string
---@param root string|nil
---@return string[] lines, integer conflicts
function M.preview_lines(result, heading, root)
  local transcript = require("context_sidecar.transcript")
  local lines = { heading, "Nothing has changed yet: this is what the rewind would do.", "" }
  local files = nn(result.files) or {}
  local conflicts = 0
  if #files == 0 then
    table.insert(lines, "Files: none to restore (no edit of the model's since this point).")
  else
    table.insert(lines, "Files:")
    for _, f in ipairs(files) do
      local path = transcript.display_path(tostring(nn(f.path) or "?"), root)
      local action = tostring(nn(f.action) or "?")
      local note = ""
      if action == "delete" then
        note = "  (created after this point)"
      elseif action == "unchanged" then
        note = "  (already as it was)"
      elseif action == "conflict" then
        conflicts = conflicts + 1
        note = "  (changed by someone else since; left alone unless you overwrite it)"
      end
      table.insert(lines, ("  %-9s %s%s"):format(M.ACTION_WORDS[action] or action, path, note))
    end
  end
  local commands = nn(result.commands) or {}
  if #commands > 0 then
    table.insert(lines, "")
    table.insert(lines, "Shell commands run after this point (what they changed is not undone):")
    for _, command in ipairs(commands) do
      table.insert(lines, "  $ " .. tostring(command))
    end
  end
  for _, f in ipairs(files) do
    local action = nn(f.action)
    if action ~= "unchanged" then
      local path = transcript.display_path(tostring(nn(f.path) or "?"), root)
      local old, new = nn(f.oldText), nn(f.newText)
      table.insert(lines, "")
      table.insert(lines, ("diff %s%s"):format(path, action == "conflict" and " (if overwritten)" or ""))
      table.insert(lines, old == nil and "--- /dev/null" or ("--- a/" .. path))
      table.insert(lines, new == nil and "+++ /dev/null" or ("+++ b/" .. path))
      vim.list_extend(lines, transcript.hunk(old, new))
    end
  end
  return lines, conflicts
end

---Show `lines` in a scratch split (filetype diff); returns a function that closes it.
---@param lines string[]
---@return fun()
local function open_preview(lines)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = "diff"
  pcall(vim.api.nvim_buf_set_name, buf, "context-sidecar://rewind preview")
  local previous = vim.api.nvim_get_current_win()
  vim.cmd("botright split")
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, buf)
  vim.api.nvim_win_set_height(win, math.max(5, math.min(#lines + 1, math.floor(vim.o.lines * 0.6))))
  vim.wo[win].wrap = false
  vim.wo[win].foldenable = false
  vim.keymap.set("n", "q", "<cmd>close<cr>", { buffer = buf, nowait = true, desc = "Close the preview" })
  return function()
    if vim.api.nvim_win_is_valid(win) and #vim.api.nvim_list_wins() > 1 then
      vim.api.nvim_win_close(win, true)
    end
    if vim.api.nvim_buf_is_valid(buf) then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
    if vim.api.nvim_win_is_valid(previous) then
      vim.api.nvim_set_current_win(previous)
    end
  end
end

---Reload the buffers of restored files (unmodified ones; a buffer with unsaved changes is
---left as it is and named).
---@param files table[]
---@return string[] paths of buffers left with unsaved changes
local function reload_buffers(files)
  local kept = {}
  for _, f in ipairs(files) do
    local path, action = nn(f.path), nn(f.action)
    if type(path) == "string" and (action == "restore" or action == "delete") then
      local buf = vim.fn.bufnr(path)
      if buf ~= -1 and vim.api.nvim_buf_is_loaded(buf) then
        if vim.bo[buf].modified then
          table.insert(kept, path)
        elseif action == "restore" then
          vim.api.nvim_buf_call(buf, function()
            vim.cmd("silent! edit!")
          end)
        end
      end
    end
  end
  return kept
end

---What a rewind did, in one line: `restored a.py, b.py; deleted new.py; ...`.
---@param result context_sidecar.Rewound
---@param root string|nil
---@return string
function M.summary(result, root)
  local transcript = require("context_sidecar.transcript")
  local by_action = {}
  for _, f in ipairs(nn(result.files) or {}) do
    local action = tostring(nn(f.action) or "?")
    by_action[action] = by_action[action] or {}
    table.insert(by_action[action], transcript.display_path(tostring(nn(f.path) or "?"), root))
  end
  local parts = {}
  if nn(result.conversation) then
    table.insert(parts, "the conversation is back before that prompt")
  end
  for _, item in ipairs({
    { "restore", "restored" },
    { "delete", "deleted" },
    { "unchanged", "already as they were" },
    { "conflict", "left alone (changed since)" },
  }) do
    local names = by_action[item[1]]
    if names then
      table.insert(parts, item[2] .. " " .. table.concat(names, ", "))
    end
  end
  local restore = nn(result.restore)
  if (restore == "code" or restore == "both") and not next(by_action) then
    table.insert(parts, "no file to restore")
  end
  local commands = (restore == "code" or restore == "both") and nn(result.commands) or {}
  if #commands > 0 then
    table.insert(parts, "not undone: " .. table.concat(vim.tbl_map(function(c)
      return "$ " .. tostring(c)
    end, commands), ", "))
  end
  return table.concat(parts, "; ")
end

---After a rewind: say what changed, reload the restored files' buffers, and after a conversation
---rewind show the conversation again with the rewound prompt in the draft.
---@param chat context_sidecar.Chat
---@param result context_sidecar.Rewound
---@param cb? fun(result: table|nil)
local function after_rewind(chat, result, cb)
  local files = nn(result.files) or {}
  local kept = reload_buffers(files)
  notify("rewound: " .. M.summary(result, chat.root))
  if #kept > 0 then
    notify("buffers with unsaved changes were not reloaded: " .. table.concat(kept, ", "), vim.log.levels.WARN)
  end
  local gauge = nn(result.gauge)
  if type(gauge) == "table" then
    gauge.sessionId = gauge.sessionId or chat.session_id
    require("context_sidecar.status").update(gauge)
  end
  local function finish()
    fire("ContextSidecarRewind", {
      sessionId = chat.session_id,
      restore = nn(result.restore),
      conversation = nn(result.conversation) == true,
      files = files,
      commands = nn(result.commands) or {},
      prompt = nn(result.prompt),
    })
    if cb then
      cb(result)
    end
  end
  if not nn(result.conversation) then
    finish()
    return
  end
  local chat_mod = require("context_sidecar.chat")
  chat_mod.reload(chat, function()
    local prompt = nn(result.prompt)
    if type(prompt) == "string" and prompt ~= "" then
      chat_mod.set_draft(chat, prompt)
    end
    finish()
  end)
end

---Summarize this checkpoint's prompt and what follows, keeping what came before verbatim.
---@param chat context_sidecar.Chat
---@param checkpoint context_sidecar.Checkpoint
---@param cb? fun(result: any)
function M.summarize(chat, checkpoint, cb)
  local params = { sessionId = chat.session_id, fromCheckpointId = checkpoint.checkpointId }
  api.compact(chat.state, params, function(err, result)
    if err then
      notify("summarize from here failed: " .. tostring(err.message), vim.log.levels.ERROR)
    end
    if cb then
      cb(not err and result or nil)
    end
  end)
end

---Fork the chat's session at `checkpoint` (nil: all of the conversation) and open the new
---session in the chat; forked at a checkpoint, its draft holds that checkpoint's prompt.
---@param chat context_sidecar.Chat
---@param checkpoint context_sidecar.Checkpoint|nil
---@param cb? fun(new_chat: context_sidecar.Chat|nil)
function M.fork(chat, checkpoint, cb)
  local params = { sessionId = chat.session_id }
  if checkpoint then
    params.checkpointId = checkpoint.checkpointId
  end
  api.fork(chat.state, params, function(err, result)
    local new_id = result and nn(result.sessionId)
    if err or not new_id then
      notify("sidecar/fork failed: " .. tostring(err and err.message or "no session"), vim.log.levels.ERROR)
      if cb then
        cb(nil)
      end
      return
    end
    local chat_mod = require("context_sidecar.chat")
    chat_mod.load_session(chat.root, new_id, function(new_chat)
      if not new_chat then
        if cb then
          cb(nil)
        end
        return
      end
      chat_mod.show(new_chat)
      local prompt = checkpoint and nn(checkpoint.prompt)
      if type(prompt) == "string" and prompt ~= "" then
        chat_mod.set_draft(new_chat, prompt)
      end
      notify(("forked into a new session %s%s"):format(
        new_id:sub(1, 8),
        checkpoint and (" before “" .. M.first_line(checkpoint.prompt, 40) .. "”") or ""
      ))
      fire("ContextSidecarFork", { sessionId = new_id, from = chat.session_id, checkpointId = params.checkpointId })
      if cb then
        cb(new_chat)
      end
    end, { model = nn(result.model) })
  end)
end

---Ask whether to go ahead after the preview; with conflicts, whether to overwrite them.
---@param prompt string
---@param conflicts integer
---@param cb fun(go: boolean, force: boolean)
local function confirm(prompt, conflicts, cb)
  local choices
  if conflicts > 0 then
    choices = {
      { go = true, force = false, name = ("Rewind, leaving the %d file%s changed since alone"):format(conflicts, conflicts == 1 and "" or "s") },
      { go = true, force = true, name = "Rewind and overwrite the files changed since too" },
      { go = false, force = false, name = "Cancel" },
    }
  else
    choices = {
      { go = true, force = false, name = "Rewind" },
      { go = false, force = false, name = "Cancel" },
    }
  end
  vim.ui.select(choices, {
    prompt = prompt,
    kind = "context_sidecar_rewind_confirm",
    format_item = function(choice)
      return choice.name
    end,
  }, function(choice)
    cb(choice ~= nil and choice.go, choice ~= nil and choice.force)
  end)
end

---Rewind the chat's session to `checkpoint`: `restore` is both, conversation or code. A code
---restore is previewed and asked first.
---@param chat context_sidecar.Chat
---@param checkpoint context_sidecar.Checkpoint
---@param number integer its position, 1 the oldest
---@param restore "both"|"conversation"|"code"
---@param cb? fun(result: table|nil)
function M.rewind(chat, checkpoint, number, restore, cb)
  local function failed(err)
    notify("sidecar/rewind failed: " .. tostring(err and err.message or "no result"), vim.log.levels.ERROR)
    if cb then
      cb(nil)
    end
  end
  local params = { sessionId = chat.session_id, checkpointId = checkpoint.checkpointId, restore = restore }
  local function run(force)
    api.rewind(chat.state, vim.tbl_extend("force", params, force and { force = true } or {}), function(err, result)
      if err or not result then
        return failed(err)
      end
      after_rewind(chat, result, cb)
    end)
  end
  if restore == "conversation" then
    run(false)
    return
  end
  api.rewind(chat.state, vim.tbl_extend("force", params, { preview = true }), function(err, preview)
    if err or not preview then
      return failed(err)
    end
    local heading = ("Rewind to #%d “%s”: %s"):format(number, M.first_line(checkpoint.prompt), RESTORE_WORDS[restore])
    local lines, conflicts = M.preview_lines(preview, heading, chat.root)
    local close = open_preview(lines)
    confirm(("Rewind to #%d (%s)? The preview lists what changes"):format(number, RESTORE_WORDS[restore]), conflicts, function(go, force)
      close()
      if not go then
        notify("rewind cancelled; nothing changed")
        if cb then
          cb(nil)
        end
        return
      end
      run(force)
    end)
  end)
end

---Do `action` (an M.ACTIONS id) from checkpoint number `number`.
---@param chat context_sidecar.Chat
---@param checkpoint context_sidecar.Checkpoint
---@param number integer
---@param action string
---@param cb? fun(result: any)
function M.act(chat, checkpoint, number, action, cb)
  if action == "fork" then
    M.fork(chat, checkpoint, cb)
  elseif action == "summarize" then
    M.summarize(chat, checkpoint, cb)
  else
    M.rewind(chat, checkpoint, number, action, cb)
  end
end

---The session's checkpoints, oldest first.
---@param chat context_sidecar.Chat
---@param cb fun(checkpoints: context_sidecar.Checkpoint[]|nil)
function M.list(chat, cb)
  api.checkpoints(chat.state, { sessionId = chat.session_id }, function(err, result)
    if err or type(result) ~= "table" then
      notify("sidecar/checkpoints failed: " .. tostring(err and err.message or "no result"), vim.log.levels.ERROR)
      cb(nil)
      return
    end
    cb(vim.tbl_filter(function(c)
      return type(c) == "table" and type(nn(c.checkpointId)) == "string"
    end, nn(result.checkpoints) or {}))
  end)
end

---@class context_sidecar.RewindOpts
---@field fork? boolean fork rather than rewind (the picker offers all of the conversation too)
---@field number? integer the checkpoint, 1 the oldest (no checkpoint picker)
---@field restore? string both, conversation or code (no action picker)
---@field cb? fun(result: any)

---The picker: a checkpoint (newest first), then what to do from it.
---@param chat context_sidecar.Chat|nil
---@param opts? context_sidecar.RewindOpts
function M.pick(chat, opts)
  opts = opts or {}
  local cb = opts.cb or function() end
  if not chat then
    vim.notify("context_sidecar: no chat yet; run :ContextSidecar chat", vim.log.levels.WARN)
    return cb(nil)
  end
  if chat.busy then
    vim.notify("context_sidecar: a turn is running; wait for it or cancel it first", vim.log.levels.WARN)
    return cb(nil)
  end
  M.list(chat, function(checkpoints)
    if not checkpoints then
      return cb(nil)
    end
    local function chosen(checkpoint, number)
      if opts.fork then
        M.fork(chat, checkpoint, cb)
      elseif opts.restore then
        M.rewind(chat, checkpoint, number, opts.restore, cb)
      else
        vim.ui.select(M.ACTIONS, {
          prompt = ("From #%d “%s”"):format(number, M.first_line(checkpoint.prompt, 40)),
          kind = "context_sidecar_rewind_action",
          format_item = function(action)
            return action.name
          end,
        }, function(action)
          if not action then
            return cb(nil)
          end
          M.act(chat, checkpoint, number, action.id, cb)
        end)
      end
    end
    if opts.number then
      local checkpoint = checkpoints[opts.number]
      if not checkpoint then
        vim.notify(("context_sidecar: no checkpoint %d; the session has %d (1 is the oldest)"):format(opts.number, #checkpoints), vim.log.levels.ERROR)
        return cb(nil)
      end
      return chosen(checkpoint, opts.number)
    end
    if #checkpoints == 0 and not opts.fork then
      vim.notify("context_sidecar: no checkpoints yet: each prompt sent makes one", vim.log.levels.INFO)
      return cb(nil)
    end
    local items = {}
    if opts.fork then
      table.insert(items, { whole = true })
    end
    for i = #checkpoints, 1, -1 do
      table.insert(items, { checkpoint = checkpoints[i], number = i })
    end
    local now = os.time()
    vim.ui.select(items, {
      prompt = opts.fork and "Fork from" or "Rewind to (before that prompt)",
      kind = "context_sidecar_checkpoint",
      format_item = function(item)
        if item.whole then
          return "All of the conversation (a copy of it as it is now)"
        end
        return M.label(item.checkpoint, item.number, chat.root, now)
      end,
    }, function(item)
      if not item then
        return cb(nil)
      end
      if item.whole then
        return M.fork(chat, nil, cb)
      end
      chosen(item.checkpoint, item.number)
    end)
  end)
end

---`/rewind [N [both|conversation|code]]` or `/fork [N]` typed in the chat.
---@param chat context_sidecar.Chat
---@param text string
function M.command(chat, text)
  local words = vim.split(vim.trim(text), "%s+")
  local name = words[1]:sub(2)
  local number = tonumber(words[2] or "")
  local restore = words[3]
  if words[2] and not number then
    vim.notify(("context_sidecar: usage: /%s%s"):format(name, name == "fork" and " [N]" or " [N [both|conversation|code]]"), vim.log.levels.ERROR)
    return
  end
  if name == "fork" then
    if number then
      M.pick(chat, { fork = true, number = number })
    else
      M.pick(chat, { fork = true })
    end
    return
  end
  if restore and not RESTORE_WORDS[restore] then
    vim.notify("context_sidecar: rewind what? both, conversation or code", vim.log.levels.ERROR)
    return
  end
  M.pick(chat, { number = number, restore = number and (restore or "both") or nil })
end

return M
