-- `:help` for the plugin from each install recipe in clients/nvim/README.md: the plugin folder
-- on the runtime path (lazy.nvim's `dir`, prepended) or appended to it after cloning the whole
-- repository. The tags file is shipped, so no `:helptags` runs here.
local plugin_dir = assert(os.getenv("CS_PLUGIN_DIR"))
local out = assert(os.getenv("CS_OUT"))
local results = { checks = {}, opened = {} }

local function check(cond, message)
  table.insert(results.checks, message)
  if not cond then
    error("check failed: " .. message, 2)
  end
end

local ok, err = pcall(function()
  local base = vim.o.runtimepath
  local recipes = {
    dir = function()
      vim.opt.runtimepath:prepend(plugin_dir)
    end,
    clone = function()
      vim.opt.runtimepath:append(plugin_dir)
      vim.cmd("runtime plugin/context_sidecar.lua")
    end,
  }
  for _, name in ipairs({ "dir", "clone" }) do
    vim.o.runtimepath = base
    recipes[name]()
    for _, tag in ipairs({ "context_sidecar", "context-sidecar", ":ContextSidecar", ":ContextSidecarMode", "context_sidecar-statusline" }) do
      local done, msg = pcall(vim.cmd, "help " .. tag)
      check(done, ("%s: :help %s: %s"):format(name, tag, tostring(msg)))
      local file = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ":t")
      local line = vim.api.nvim_get_current_line()
      check(file == "context_sidecar.txt", ("%s: :help %s opens %s"):format(name, tag, file))
      check(line:find("*" .. tag .. "*", 1, true) ~= nil, ("%s: :help %s lands on its tag: %s"):format(name, tag, line))
      table.insert(results.opened, name .. " " .. tag)
      vim.cmd("helpclose")
    end
  end
end)
results.ok = ok
results.error = not ok and tostring(err) or nil
local f = assert(io.open(out, "w"))
f:write(vim.json.encode(results))
f:close()
vim.cmd(ok and "qa!" or "cq")
