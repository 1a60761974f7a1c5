---`:checkhealth context_sidecar`
local M = {}

local health = vim.health

local PROVIDER_KEYS = { anthropic = "ANTHROPIC_API_KEY", openai = "OPENAI_API_KEY" }

---@param cmd string[]
---@return string[]|nil output, integer code
local function run(cmd)
  local ok, result = pcall(function()
    return vim.system(cmd, { text = true }):wait(10000)
  end)
  if not ok or not result then
    return nil, -1
  end
  local out = vim.trim((result.stdout or "") .. "\n" .. (result.stderr or ""))
  return vim.split(out, "\n", { trimempty = true }), result.code
end

---The command that prints the sidecar's version: the configured cmd up to `serve`.
---@param cmd string[]
---@return string[]
function M.version_cmd(cmd)
  local out = {}
  for _, part in ipairs(cmd) do
    if part == "serve" then
      break
    end
    table.insert(out, part)
  end
  table.insert(out, "--version")
  return out
end

---Parse `context-sidecar 0.1.0 (protocol 2)`.
---@param line string
---@return string|nil version, integer|nil protocol
function M.parse_version(line)
  local version = line:match("context%-sidecar%s+([%w%.%-%+]+)")
  local protocol = tonumber(line:match("protocol%s+(%d+)"))
  return version, protocol
end

---The Python interpreter behind the configured command: the command itself when it is a
---python, else the interpreter named in the console script's shebang.
---@param cmd string[]
---@return string|nil
function M.python_for(cmd)
  local exe = vim.fn.exepath(cmd[1])
  if exe == "" then
    return nil
  end
  if vim.fs.basename(exe):match("^python") then
    return exe
  end
  local f = io.open(exe, "r")
  if not f then
    return nil
  end
  local first = f:read("*l") or ""
  f:close()
  local interpreter = first:match("^#!%s*(%S+)")
  if interpreter and vim.fs.basename(interpreter) == "env" then
    interpreter = first:match("^#!%s*%S+%s+(%S+)")
    interpreter = interpreter and vim.fn.exepath(interpreter) or nil
  end
  return interpreter
end

function M.check()
  local config = require("context_sidecar.config").get()
  local client = require("context_sidecar.client")

  health.start("context_sidecar: editor")
  local v = vim.version()
  local version = ("%d.%d.%d"):format(v.major, v.minor, v.patch)
  if vim.fn.has("nvim-0.10") == 1 then
    health.ok("Neovim " .. version)
  else
    health.error("Neovim " .. version .. " is too old", { "Install Neovim 0.10 or newer" })
  end
  -- The sidecar watches CLAUDE.md and git state itself; changes an editor reports with
  -- workspace/didChangeWatchedFiles join the same stream. `:ContextSidecar context` shows
  -- the mode each open workspace runs in.
  health.info("Watcher mode: the sidecar watches CLAUDE.md files and git state itself (watchfiles)")
  health.info("LSP log: " .. vim.lsp.get_log_path())

  health.start("context_sidecar: sidecar")
  local cmd = config.cmd
  if vim.fn.executable(cmd[1]) ~= 1 then
    health.error(("`%s` is not executable"):format(cmd[1]), {
      "pip install context-sidecar (in the Python environment you want it to use)",
      'or set cmd = { "/path/to/python", "-m", "sidecar", "serve" } in setup()',
    })
  else
    health.ok("Command: " .. table.concat(cmd, " "))
    local python = M.python_for(cmd)
    if python then
      local out = run({ python, "--version" })
      health.ok(("Python: %s (%s)"):format(python, out and out[1] or "version unknown"))
    else
      health.info("Python: could not tell which interpreter runs the sidecar")
    end
    local out, code = run(M.version_cmd(cmd))
    local line = out and out[#out] or ""
    local sidecar_version, protocol = M.parse_version(line)
    if code ~= 0 or not sidecar_version then
      health.error(("`%s` failed: %s"):format(table.concat(M.version_cmd(cmd), " "), line))
    elseif protocol ~= client.PROTOCOL_VERSION then
      health.error(
        ("context-sidecar %s speaks protocol %s; this plugin speaks %d"):format(
          sidecar_version,
          tostring(protocol),
          client.PROTOCOL_VERSION
        ),
        { "Install matching versions of the sidecar and the plugin" }
      )
    else
      health.ok(("context-sidecar %s, protocol %d"):format(sidecar_version, protocol))
    end
  end

  local settings = config.settings or {}
  local provider = settings.provider or "anthropic"
  local key_env = settings.apiKeyEnv or PROVIDER_KEYS[provider]
  if not key_env then
    health.warn(("No apiKeyEnv set for provider %s"):format(provider), {
      "Set settings.apiKeyEnv to the name of the variable that holds the key",
    })
  else
    local env = config.cmd_env or {}
    local value = env[key_env] or vim.env[key_env]
    if value and value ~= "" then
      health.ok(("Provider %s: key variable %s is set"):format(provider, key_env))
    else
      health.warn(("Provider %s: key variable %s is not set"):format(provider, key_env), {
        ("export %s=... before starting Neovim"):format(key_env),
      })
    end
  end

  health.start("context_sidecar: running clients")
  local states = client.all()
  if #states == 0 then
    health.info("No sidecar started yet (`:ContextSidecar chat` starts one)")
  end
  for _, state in ipairs(states) do
    if state.error then
      health.error(("%s: %s"):format(state.root, state.error))
    elseif state.ready and client.is_running(state) then
      local info = state.server_info or {}
      local caps_server = state.server_capabilities or {}
      health.ok(("%s: %s %s, protocol %s%s"):format(
        state.root,
        tostring(info.name or "?"),
        tostring(info.version or "?"),
        tostring(caps_server.protocolVersion),
        type(caps_server.providers) == "table" and (", providers " .. table.concat(caps_server.providers, ", ")) or ""
      ))
    elseif state.stopped then
      health.warn(state.root .. ": stopped")
    else
      health.info(state.root .. ": starting")
    end
  end
  local server_status = require("context_sidecar.status").server_status()
  if server_status then
    local kind = server_status.kind
    local message = ("Sidecar status: %s%s"):format(tostring(kind), server_status.message and (" — " .. server_status.message) or "")
    if kind == "error" then
      health.error(message)
    elseif kind == "warning" then
      health.warn(message)
    else
      health.ok(message)
    end
  end

  health.start("context_sidecar: MCP servers")
  local mcp = require("context_sidecar.mcp")
  local any = false
  for _, state in ipairs(states) do
    for _, server in ipairs(mcp.servers(state.root)) do
      any = true
      local line = table.concat(vim.tbl_map(vim.trim, mcp.lines({ server })), "; ")
      local server_status_name = client.value(server.status)
      if server_status_name == "failed" then
        health.error(line)
      elseif server_status_name == "connected" then
        health.ok(line)
      else
        health.info(line)
      end
    end
  end
  if not any then
    health.info("No MCP server reported (none configured, or no session open yet)")
  end
end

return M
