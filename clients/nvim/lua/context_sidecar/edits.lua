---`workspace/applyEdit` from the sidecar: apply the edit to the buffers, then write each buffer
---it touched, so the next shell command, test run or `:qa` sees the file the model wrote.
---Other unsaved buffers are left alone.
local M = {}

local nn = require("context_sidecar.client").value

---The file URIs an edit changes (text edits and created or renamed files).
---@param edit table WorkspaceEdit
---@return string[]
function M.uris(edit)
  local seen, list = {}, {}
  local function add(uri)
    if type(uri) == "string" and not seen[uri] then
      seen[uri] = true
      table.insert(list, uri)
    end
  end
  for _, change in ipairs(nn(edit.documentChanges) or {}) do
    local doc = nn(change.textDocument)
    if type(doc) == "table" then
      add(doc.uri)
    elseif change.kind == "create" then
      add(change.uri)
    elseif change.kind == "rename" then
      add(change.newUri)
    end
  end
  for uri in pairs(nn(edit.changes) or {}) do
    add(uri)
  end
  return list
end

---Write one buffer without running autocommands: a format-on-save hook must not rewrite what
---the model just wrote (its next edit is matched against this text).
---@param buf integer
---@return boolean ok, string|nil err
function M.save(buf)
  if not vim.api.nvim_buf_is_loaded(buf) or not vim.bo[buf].modified or vim.bo[buf].buftype ~= "" then
    return true
  end
  local path = vim.api.nvim_buf_get_name(buf)
  if path == "" then
    return false, "buffer has no file name"
  end
  vim.fn.mkdir(vim.fs.dirname(path), "p")
  local ok, err = pcall(vim.api.nvim_buf_call, buf, function()
    vim.cmd("silent keepalt noautocmd write!")
  end)
  return ok, ok and nil or tostring(err)
end

---Handler for the server request `workspace/applyEdit`.
---@param params {edit: table, label?: string}
---@param ctx {client_id: integer}
---@return table ApplyWorkspaceEditResult
function M.apply(_, params, ctx)
  local lsp_client = vim.lsp.get_client_by_id(ctx.client_id)
  local edit = type(params) == "table" and nn(params.edit) or nil
  if not lsp_client or type(edit) ~= "table" then
    return { applied = false, failureReason = "no edit" }
  end
  local ok, err = pcall(vim.lsp.util.apply_workspace_edit, edit, lsp_client.offset_encoding or "utf-16")
  if not ok then
    return { applied = false, failureReason = tostring(err) }
  end
  local failed = {}
  for _, uri in ipairs(M.uris(edit)) do
    local buf = vim.uri_to_bufnr(uri)
    local saved, why = M.save(buf)
    if not saved then
      table.insert(failed, ("%s: %s"):format(vim.uri_to_fname(uri), why))
    end
  end
  if #failed > 0 then
    vim.notify("context-sidecar: applied the edit but could not save " .. table.concat(failed, "; "), vim.log.levels.WARN)
  end
  vim.api.nvim_exec_autocmds("User", {
    pattern = "ContextSidecarEditApplied",
    modeline = false,
    data = { uris = M.uris(edit), label = nn(params.label) },
  })
  return { applied = true }
end

return M
