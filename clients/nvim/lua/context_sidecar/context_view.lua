---The `/context` view (result of `sidecar/context`) as a read-only markdown buffer.
local client = require("context_sidecar.client")
local status = require("context_sidecar.status")

local M = {}

local nn = client.value

local BREAKDOWN_ORDER = { "system", "tools", "memoryFiles", "messages", "toolResults", "summary", "free", "reservedOutput" }

local function commas(n)
  local s = tostring(math.floor(tonumber(n) or 0))
  local out = s:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  return (out:gsub("^,", ""))
end

local function message_text(message)
  local content = nn(message.content)
  if type(content) == "string" then
    return content
  end
  if type(content) ~= "table" then
    return ""
  end
  for _, block in ipairs(content) do
    if block.type == "text" and nn(block.text) then
      return block.text
    elseif block.type == "tool_use" then
      return "tool_use " .. tostring(nn(block.name))
    elseif block.type == "tool_result" then
      return "tool_result"
    end
  end
  return ""
end

---The gauge's `deferredTools` in words, or nil while no tool is deferred.
---@param deferred table|nil
---@return string|nil
function M.deferred_tools_text(deferred)
  if type(deferred) ~= "table" or type(nn(deferred.count)) ~= "number" then
    return nil
  end
  local how = nn(deferred.search) == "server" and "the provider's tool search finds them"
    or "the model finds them with the ToolSearch tool"
  return ("Tool search: %s MCP tools deferred, %s tokens of definitions kept out of every request; %s"):format(
    commas(deferred.count), commas(nn(deferred.savedTokens) or 0), how)
end

---Markdown lines for a `sidecar/context` result.
---@param view table
---@return string[]
function M.lines(view)
  local gauge = nn(view.gauge) or {}
  local lines = {
    ("# Context: %s / %s tokens (%d%%), level %s"):format(
      commas(nn(gauge.used)),
      commas(nn(gauge.size)),
      status.percent(gauge),
      tostring(nn(gauge.level) or "?")
    ),
    "",
  }
  local auto = nn(gauge.autoCompactAt)
  table.insert(lines, auto and ("Auto-compact at %s tokens."):format(commas(auto)) or "Auto-compact is off.")
  if type(nn(gauge.next)) == "string" then
    table.insert(lines, ("Next: %s (stage %s)."):format(gauge.next, tostring(nn(gauge.stage) or nn(gauge.level) or "?")))
  end
  table.insert(lines, ("Source: %s; model %s (%s)."):format(
    tostring(nn(gauge.source) or "?"),
    tostring(nn(gauge.model) or "?"),
    tostring(nn(gauge.provider) or "?")
  ))
  local deferred = M.deferred_tools_text(nn(gauge.deferredTools))
  if deferred then
    table.insert(lines, deferred .. ".")
  end
  local breakdown = nn(gauge.breakdown)
  if type(breakdown) == "table" then
    vim.list_extend(lines, { "", "| part | tokens |", "|---|---:|" })
    local seen = {}
    for _, key in ipairs(BREAKDOWN_ORDER) do
      if nn(breakdown[key]) then
        table.insert(lines, ("| %s | %s |"):format(key, commas(breakdown[key])))
        seen[key] = true
      end
    end
    for key, value in pairs(breakdown) do
      if not seen[key] and type(value) == "number" then
        table.insert(lines, ("| %s | %s |"):format(key, commas(value)))
      end
    end
  end
  local trust = nn(view.workspaceTrust)
  if type(trust) == "table" and nn(trust.trusted) == false then
    vim.list_extend(lines, { "", "## Restricted: this folder is not trusted", "",
      "Not applied until you trust it (:ContextSidecarTrust or /trust):" })
    for _, item in ipairs(nn(trust.withheld) or {}) do
      table.insert(lines, "- " .. tostring(item))
    end
  end
  local prefix = nn(view.prefix)
  local memory = type(prefix) == "table" and nn(prefix.memoryFiles) or nil
  if type(memory) == "table" and #memory > 0 then
    vim.list_extend(lines, { "", "## Memory files", "" })
    for _, file in ipairs(memory) do
      table.insert(lines, ("- %s (%s tokens)"):format(tostring(nn(file.path)), commas(nn(file.tokens))))
    end
  end
  local reads = nn(view.fileReadState)
  if type(reads) == "table" and #reads > 0 then
    vim.list_extend(lines, { "", "## Files read", "" })
    for _, file in ipairs(reads) do
      table.insert(lines, ("- %s (%s tokens)%s"):format(
        tostring(nn(file.path)),
        commas(nn(file.tokens)),
        nn(file.stale) and " stale" or ""
      ))
    end
  end
  -- The provider's own tools (web search, web fetch): offered, or why not.
  local provided = nn(view.serverTools)
  if type(provided) == "table" and #provided > 0 then
    vim.list_extend(lines, { "", "## Provider tools", "" })
    for _, tool in ipairs(provided) do
      table.insert(lines, ("- %s: %s — %s"):format(
        (tostring(nn(tool.tool) or "?"):gsub("_", " ")),
        nn(tool.offered) and "offered" or "not offered",
        tostring(nn(tool.reason) or "")
      ))
    end
  end
  local servers = nn(view.mcpServers)
  if type(servers) == "table" and #servers > 0 then
    vim.list_extend(lines, { "", "## MCP servers", "" })
    for _, line in ipairs(require("context_sidecar.mcp").lines(servers)) do
      table.insert(lines, vim.startswith(line, "    ") and ("  " .. vim.trim(line)) or ("- " .. line))
    end
  end
  local skills = nn(view.skills)
  if type(skills) == "table" and #skills > 0 then
    vim.list_extend(lines, { "", "## Skills", "" })
    for _, skill in ipairs(skills) do
      table.insert(lines, ("- %s (%s%s): %s"):format(
        tostring(nn(skill.name) or "?"),
        tostring(nn(skill.source) or "?"),
        nn(skill.invoked) and ", invoked" or "",
        tostring(nn(skill.description) or "")
      ))
    end
  end
  local messages = nn(view.messages)
  if type(messages) == "table" then
    vim.list_extend(lines, { "", ("## Messages (%d in the model's view)"):format(#messages), "" })
    for i, message in ipairs(messages) do
      local text = message_text(message):gsub("%s+", " ")
      if #text > 100 then
        text = text:sub(1, 99) .. "…"
      end
      table.insert(lines, ("%d. %s: %s"):format(i, tostring(nn(message.role) or "?"), text))
    end
  end
  return lines
end

---Open the view in a split and return its buffer.
---@param view table
---@return integer
function M.open(view)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, M.lines(view))
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = "markdown"
  vim.cmd("botright split")
  vim.api.nvim_win_set_buf(0, buf)
  vim.keymap.set("n", "q", "<cmd>close<cr>", { buffer = buf, desc = "Close the context view" })
  return buf
end

return M
