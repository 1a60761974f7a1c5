-- Shared by the scenario scripts: load the plugin from the checkout, bounded waits, and a
-- JSON result file the pytest side asserts on. Every scenario ends through H.finish or an
-- error, so a failure always leaves a result explaining itself.
local H = {}

H.plugin_dir = assert(os.getenv("CS_PLUGIN_DIR"), "CS_PLUGIN_DIR not set")
H.out = assert(os.getenv("CS_OUT"), "CS_OUT not set")
H.results = { checks = {} }

vim.opt.runtimepath:prepend(H.plugin_dir)
vim.opt.swapfile = false
vim.cmd("runtime plugin/context_sidecar.lua")

local function write(results)
  local f = assert(io.open(H.out, "w"))
  f:write(vim.json.encode(results))
  f:close()
end

H.t0 = vim.uv.hrtime()
H.results.marks = {}
---Note the time since start under `name` (milliseconds), for the timing report.
function H.mark(name)
  H.results.marks[name] = math.floor((vim.uv.hrtime() - H.t0) / 1e6)
end

---Record a named value for the pytest side.
function H.record(name, value)
  H.results[name] = value
end

---Assert inside the script; records the check so pytest can count them.
function H.check(cond, message)
  table.insert(H.results.checks, message)
  if not cond then
    error("check failed: " .. message, 2)
  end
end

---vim.wait with a hard bound that fails loudly.
function H.wait(ms, cond, what)
  local ok = vim.wait(ms, cond, 10)
  if not ok then
    error(("timed out after %d ms waiting for %s"):format(ms, what), 2)
  end
end

function H.lines(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

function H.text(buf)
  return table.concat(H.lines(buf), "\n")
end

---Answer every vim.ui.select with the item `pick(items)` returns (asynchronously, as
---picker plugins do).
function H.stub_select(pick)
  H.selects = {}
  vim.ui.select = function(items, opts, on_choice)
    table.insert(H.selects, { prompt = opts.prompt, kind = opts.kind, count = #items })
    local choice = pick(items, opts)
    vim.defer_fn(function()
      on_choice(choice)
    end, 20)
  end
end

---Collect `User <pattern>` autocmd payloads.
function H.collect(pattern)
  local seen = {}
  vim.api.nvim_create_autocmd("User", {
    pattern = pattern,
    callback = function(args)
      table.insert(seen, args.data)
    end,
  })
  return seen
end

---Standard setup against the real sidecar: python -m sidecar serve with the fake LLM.
function H.setup_real(extra_settings)
  local settings = {
    provider = "anthropic",
    model = "claude-sonnet-5-5",
    baseUrl = assert(os.getenv("CS_FAKE_URL"), "CS_FAKE_URL not set"),
    apiKeyEnv = "FAKE_LLM_KEY",
    storageDir = assert(os.getenv("CS_STORAGE")),
  }
  for k, v in pairs(extra_settings or {}) do
    settings[k] = v
  end
  require("context_sidecar").setup({
    cmd = { assert(os.getenv("CS_PYTHON")), "-m", "sidecar", "serve" },
    settings = settings,
  })
end

---Open a chat and wait for its session; returns the chat.
function H.open_chat()
  local chat
  require("context_sidecar").chat(function(c)
    chat = c
  end)
  H.wait(60000, function()
    return chat ~= nil
  end, "session/new")
  return chat
end

---Send a prompt and wait for the turn to end; returns the TurnEnd payload.
function H.turn(chat, text, timeout)
  local done
  local id = vim.api.nvim_create_autocmd("User", {
    pattern = "ContextSidecarTurnEnd",
    once = true,
    callback = function(args)
      done = args.data
    end,
  })
  H.check(require("context_sidecar.chat").send(chat, text), "send accepted: " .. text:sub(1, 30))
  H.wait(timeout or 10000, function()
    return done ~= nil
  end, "the turn to end")
  pcall(vim.api.nvim_del_autocmd, id)
  return done
end

---Stop the sidecars and wait (bounded) until they exited, so none outlives the editor.
local function stop_clients(force)
  for _, c in ipairs(vim.lsp.get_clients({ name = "context_sidecar" })) do
    c:stop(force)
  end
  vim.wait(tonumber(os.getenv("CS_STOP_MS") or "3000"), function()
    return #vim.lsp.get_clients({ name = "context_sidecar" }) == 0
  end, 20)
end

function H.finish()
  H.results.ok = true
  write(H.results)
  local t = vim.uv.hrtime()
  stop_clients(false)
  if os.getenv("CS_DEBUG_STOP") then
    io.stderr:write(("stop took %d ms, %d left\n"):format((vim.uv.hrtime() - t) / 1e6, #vim.lsp.get_clients({ name = "context_sidecar" })))
  end
  os.exit(0)
end

---Run the scenario; any error is written to the result file and exits 1.
function H.run(fn)
  local ok, err = xpcall(fn, debug.traceback)
  if not ok then
    H.results.ok = false
    H.results.error = tostring(err)
    write(H.results)
    stop_clients(true)
    os.exit(1)
  end
  H.finish()
end

return H
