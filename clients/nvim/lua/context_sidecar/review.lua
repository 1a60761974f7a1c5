---Permission prompts that need more than a one-line question: an edit is reviewed as a diff
---(the current text beside the proposed text, both in diff mode) and leaving plan mode shows
---the plan. Each view answers with one of the request's options through its keymaps.
local M = {}

local nn = require("context_sidecar.client").value

---Keys for the options of an edit (from the `mappings` option); any other option gets its
---position as key.
---@return table<string, string>
function M.edit_keys()
  local m = require("context_sidecar.config").get().mappings
  local keys = {}
  keys.allow_once = m.accept or nil
  keys.allow_turn = m.accept_all or nil
  keys.reject_once = m.reject or nil
  return keys
end
---Keys for leaving plan mode, by option id.
M.plan_keys = { accept_edits = "y", default = "d", reject_once = "n" }

---The first diff content of a tool call, if any.
---@param tool_call table
---@return table|nil
function M.diff_of(tool_call)
  for _, item in ipairs(nn(tool_call.content) or {}) do
    if type(item) == "table" and item.type == "diff" then
      return item
    end
  end
  return nil
end

---The text of a tool call's `content` items (the plan of a switch_mode request).
---@param tool_call table
---@return string
function M.text_of(tool_call)
  local parts = {}
  for _, item in ipairs(nn(tool_call.content) or {}) do
    local content = type(item) == "table" and nn(item.content) or nil
    if type(content) == "table" and content.type == "text" then
      table.insert(parts, nn(content.text) or "")
    end
  end
  return table.concat(parts, "\n")
end

---Key for each option: the named keys first, then 1..n for every option.
---@param options table[]
---@param named table<string, string>
---@return {key: string, option: table}[]
function M.keys_for(options, named)
  local out = {}
  for i, option in ipairs(options) do
    table.insert(out, { key = named[option.optionId] or tostring(i), option = option })
  end
  return out
end

local function lines_of(text)
  if text == nil then
    return {}
  end
  local lines = vim.split(text, "\n", { plain = true })
  if lines[#lines] == "" then
    table.remove(lines)
  end
  return lines
end

local function scratch(name, lines, filetype)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  pcall(vim.api.nvim_buf_set_name, buf, name)
  if filetype then
    vim.bo[buf].filetype = filetype
  end
  return buf
end

local function hint(keys)
  local parts = {}
  for _, k in ipairs(keys) do
    table.insert(parts, ("%s %s"):format(k.key, k.option.name))
  end
  return table.concat(parts, " · ")
end

---@class context_sidecar.Review
---@field tab integer|nil
---@field win integer|nil
---@field bufs integer[]
---@field answered boolean
---@field close fun()

---Bind `keys` in `bufs`; the first key pressed answers, closes the view and calls `on_choice`.
---`q` answers with the reject option (or cancels when there is none).
local function bind(review, bufs, keys, on_choice)
  local function answer(option)
    if review.answered then
      return
    end
    review.answered = true
    review.close()
    on_choice(option)
  end
  local reject
  for _, k in ipairs(keys) do
    if k.option.kind == "reject_once" or k.option.kind == "reject_always" then
      reject = reject or k.option
    end
  end
  for _, buf in ipairs(bufs) do
    for _, k in ipairs(keys) do
      vim.keymap.set("n", k.key, function()
        answer(k.option)
      end, { buffer = buf, nowait = true, desc = k.option.name })
    end
    vim.keymap.set("n", "q", function()
      answer(reject)
    end, { buffer = buf, nowait = true, desc = reject and reject.name or "Cancel" })
    vim.api.nvim_create_autocmd("BufWipeout", {
      buffer = buf,
      once = true,
      callback = function()
        -- Closed some other way: the question stays unanswered, so cancel it.
        if not review.answered then
          review.answered = true
          vim.schedule(function()
            review.close()
            on_choice(nil)
          end)
        end
      end,
    })
  end
end

---Open a tab with the current text (left) and the proposed text (right) in diff mode.
---@param diff {path: string, oldText: string|nil, newText: string}
---@param options table[]
---@param on_choice fun(option: table|nil)
---@return context_sidecar.Review
function M.diff(diff, options, on_choice)
  local path = tostring(nn(diff.path) or "file")
  local rel = vim.fn.fnamemodify(path, ":~:.")
  local filetype = vim.filetype.match({ filename = path })
  local old = nn(diff.oldText)
  local previous_tab = vim.api.nvim_get_current_tabpage()
  local left = scratch(("context-sidecar://diff/%s (current)"):format(rel), lines_of(old or ""), filetype)
  local right = scratch(("context-sidecar://diff/%s (proposed)"):format(rel), lines_of(nn(diff.newText) or ""), filetype)
  vim.cmd("tabnew")
  local tab = vim.api.nvim_get_current_tabpage()
  local scratch_buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_win_set_buf(0, left)
  if vim.api.nvim_buf_is_valid(scratch_buf) and scratch_buf ~= left then
    pcall(vim.api.nvim_buf_delete, scratch_buf, { force = true })
  end
  local left_win = vim.api.nvim_get_current_win()
  vim.cmd("diffthis")
  vim.cmd("rightbelow vsplit")
  local right_win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(right_win, right)
  vim.cmd("diffthis")
  local keys = M.keys_for(options, M.edit_keys())
  local bar = ("%s%s  %s"):format(old == nil and "New file " or "Edit ", rel, hint(keys) .. " · q " .. "reject")
  for _, win in ipairs({ left_win, right_win }) do
    vim.wo[win].winbar = bar:gsub("%%", "%%%%")
    vim.wo[win].foldenable = false
  end
  local review = { tab = tab, win = right_win, bufs = { left, right }, answered = false }
  function review.close()
    if vim.api.nvim_tabpage_is_valid(tab) then
      if #vim.api.nvim_list_tabpages() > 1 then
        vim.cmd("tabclose " .. vim.api.nvim_tabpage_get_number(tab))
      end
    end
    for _, buf in ipairs(review.bufs) do
      if vim.api.nvim_buf_is_valid(buf) then
        pcall(vim.api.nvim_buf_delete, buf, { force = true })
      end
    end
    if vim.api.nvim_tabpage_is_valid(previous_tab) then
      vim.api.nvim_set_current_tabpage(previous_tab)
    end
  end
  bind(review, { left, right }, keys, on_choice)
  return review
end

---A centred float with `text` (markdown) and one line per option with its key.
---@param title string
---@param text string
---@param options table[]
---@param named table<string, string>
---@param on_choice fun(option: table|nil)
---@return context_sidecar.Review
function M.choice_float(title, text, options, named, on_choice)
  local keys = M.keys_for(options, named)
  local lines = lines_of(text)
  table.insert(lines, "")
  for _, k in ipairs(keys) do
    table.insert(lines, ("[%s] %s"):format(k.key, k.option.name))
  end
  local buf = scratch("context-sidecar://" .. title, lines, "markdown")
  local width = math.min(math.max(40, vim.o.columns - 8), 100)
  local height = math.min(#lines, math.max(5, vim.o.lines - 6))
  local win = vim.api.nvim_open_win(buf, true, {
    relative = "editor",
    width = width,
    height = height,
    row = math.floor((vim.o.lines - height) / 2),
    col = math.floor((vim.o.columns - width) / 2),
    border = "rounded",
    title = " " .. title .. " ",
    style = "minimal",
  })
  vim.wo[win].wrap = true
  local review = { win = win, bufs = { buf }, answered = false }
  function review.close()
    if vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_win_close(win, true)
    end
    if vim.api.nvim_buf_is_valid(buf) then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
  end
  bind(review, { buf }, keys, on_choice)
  return review
end

---The plan of an ExitPlanMode request with its three answers.
---@param tool_call table
---@param options table[]
---@param on_choice fun(option: table|nil)
---@return context_sidecar.Review
function M.plan(tool_call, options, on_choice)
  local title = nn(tool_call.title) or "Leave plan mode?"
  return M.choice_float(title, M.text_of(tool_call), options, M.plan_keys, on_choice)
end

return M
