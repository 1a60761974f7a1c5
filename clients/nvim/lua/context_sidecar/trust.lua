---Workspace trust, Neovim's own: the trust database `vim.secure` keeps at
---`stdpath('state')/trust` (one `<hash> <path>` line per entry; a directory trusted by name has
---the hash `directory`, a denied path `!`). A workspace root counts as trusted when the root
---directory itself is allowed there, or when one of its exrc files (`.nvim.lua`, `.nvimrc`,
---`.exrc`) is allowed with its current contents. Reading never prompts: `vim.secure.read` would.
local M = {}

M.EXRC_FILES = { ".nvim.lua", ".nvimrc", ".exrc" }

---@return string
function M.db_path()
  return vim.fn.stdpath("state") .. "/trust"
end

---The trust database as path -> hash (empty when there is none).
---@return table<string, string>
function M.read_db()
  local entries = {}
  local f = io.open(M.db_path(), "r")
  if not f then
    return entries
  end
  for line in f:lines() do
    local hash, path = line:match("^(%S+) (.+)$")
    if hash and path then
      entries[path] = hash
    end
  end
  f:close()
  return entries
end

---@param path string
---@return string|nil
local function realpath(path)
  return vim.uv.fs_realpath(vim.fs.normalize(path))
end

---@param path string
---@return string|nil
local function file_hash(path)
  local f = io.open(path, "rb")
  if not f then
    return nil
  end
  local contents = f:read("*a")
  f:close()
  return contents and vim.fn.sha256(contents) or nil
end

---True when the trust database allows `root` (the directory, or one of its exrc files as they
---are now); nil otherwise, so the sidecar decides itself.
---@param root string
---@return true|nil
function M.is_trusted(root)
  local dir = realpath(root)
  if not dir then
    return nil
  end
  local db = M.read_db()
  if db[dir] == "directory" then
    return true
  end
  if db[dir] == "!" then
    return nil
  end
  for _, name in ipairs(M.EXRC_FILES) do
    local file = realpath(dir .. "/" .. name)
    local hash = file and db[file]
    if hash and hash ~= "!" and hash == file_hash(file) then
      return true
    end
  end
  return nil
end

---Records `root` as trusted in the database, as `:trust` does for a directory buffer: vim.secure
---decides a directory's trust by its name. Returns ok and the recorded path, or false and why.
---@param root string
---@return boolean ok, string path_or_error
function M.record(root)
  local dir = realpath(root)
  if not dir then
    return false, "no such folder: " .. root
  end
  -- vim.secure writes the database without creating its folder.
  vim.fn.mkdir(vim.fn.stdpath("state"), "p")
  -- Newer vim.secure.trust takes a path with "allow"; older ones only a buffer.
  local ok, done, msg = pcall(vim.secure.trust, { action = "allow", path = dir })
  if ok and done then
    return true, msg
  end
  local buf
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(b)
    if name ~= "" and realpath(name) == dir then
      buf = b
      break
    end
  end
  local scratch = buf == nil
  if scratch then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, dir)
  end
  local call_ok, trusted, message = pcall(vim.secure.trust, { action = "allow", bufnr = buf })
  if scratch then
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
  end
  if not call_ok then
    return false, tostring(trusted)
  end
  return trusted, message
end

return M
