---`?` in a chat buffer: a float listing the chat's keymaps and commands.
local M = {}

---The help lines for the current configuration.
---@return string[]
function M.lines()
  local m = require("context_sidecar.config").get().mappings
  local rows = {
    { m.submit, "send the draft under the last `## You`" },
    { m.submit_insert, "send the draft (insert mode)" },
    { m.cancel, "cancel the running turn (and a pending permission prompt)" },
    { m.retry, "send the last message again (after an error)" },
    { m.mode, "pick the permission mode" },
    { m.close, "close the chat window" },
    { m.help, "this help" },
    { "za / zo / zc", "open or close a fold (thinking, tool call, summary, hook)" },
    { "<C-x><C-o>", "complete @file (workspace files) and /command (server commands)" },
  }
  local lines = { "context-sidecar chat keys", "" }
  for _, row in ipairs(rows) do
    if row[1] then
      table.insert(lines, ("  %-14s %s"):format(row[1], row[2]))
    end
  end
  vim.list_extend(lines, {
    "",
    "Permission review (edits open as a diff in a new tab; leaving plan mode shows the plan):",
    ("  %-14s accept / accept all edits this turn / reject"):format(
      table.concat(vim.tbl_map(tostring, { m.accept or "-", m.accept_all or "-", m.reject or "-" }), " / ")
    ),
    "  y / d / n      plan: yes and accept edits / yes, ask before edits / keep planning",
    "  q              reject",
    "",
    "Commands: :ContextSidecar [chat|new|sessions|compact|context|cancel|model|mode|plan|mcp|add]",
    "          :ContextSidecarMode [name]  :ContextSidecarPlan [off]  :ContextSidecarMcp",
    "          :[range]ContextSidecarAdd  (selection or current file into the draft)",
    "",
    "q or <Esc> closes this window.",
  })
  return lines
end

---@param _chat? context_sidecar.Chat
---@return integer buf, integer win
function M.open(_chat)
  local lines = M.lines()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = "wipe"
  local width = 0
  for _, line in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(line))
  end
  width = math.min(width + 2, vim.o.columns - 4)
  local height = math.min(#lines, vim.o.lines - 4)
  local win = vim.api.nvim_open_win(buf, true, {
    relative = "editor",
    width = width,
    height = height,
    row = math.floor((vim.o.lines - height) / 2),
    col = math.floor((vim.o.columns - width) / 2),
    border = "rounded",
    title = " context-sidecar help ",
    style = "minimal",
  })
  for _, key in ipairs({ "q", "<Esc>" }) do
    vim.keymap.set("n", key, function()
      if vim.api.nvim_win_is_valid(win) then
        vim.api.nvim_win_close(win, true)
      end
    end, { buffer = buf, nowait = true })
  end
  return buf, win
end

return M
