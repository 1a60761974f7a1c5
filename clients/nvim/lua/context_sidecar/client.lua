---The sidecar process: one LSP client per workspace root, started with vim.lsp.start.
---Callers ask for a ready client with `ensure(root, cb)`; requests made before the server
---answered `initialize` wait in a queue, and a server that speaks another protocol major
---version is stopped with a message saying why.
local M = {}

local contract = require("context_sidecar.contract")

---The protocol major version this client speaks: the contract's (docs/protocol.md).
M.PROTOCOL_VERSION = contract.PROTOCOL_VERSION
M.NAME = "context_sidecar"

local has_011 = vim.fn.has("nvim-0.11") == 1

---@class context_sidecar.ClientState
---@field root string workspace root the client serves
---@field id integer|nil vim.lsp client id
---@field ready boolean true once `initialize` answered with a compatible protocol
---@field stopped boolean
---@field error string|nil why the client is not usable
---@field waiters fun(err: string|nil, state: context_sidecar.ClientState|nil)[]
---@field server_info {name: string, version: string}|nil
---@field server_capabilities table|nil `capabilities.experimental.contextSidecar` of the server
---@field trust context_sidecar.WorkspaceTrust|nil the last `workspaceTrust` the sidecar reported

---@type table<string, context_sidecar.ClientState>
local states = {}

---JSON null arrives as vim.NIL; treat it as absent.
---@generic T
---@param v T
---@return T|nil
function M.value(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

---An empty Lua table encodes as a JSON array; objects must stay objects on the wire.
---@param t table|nil
---@return table
function M.object(t)
  if t == nil or next(t) == nil then
    return vim.empty_dict()
  end
  return t
end

---The workspace root for a buffer: nearest root marker, else the current directory.
---@param bufnr? integer
---@return string
function M.root(bufnr)
  local markers = require("context_sidecar.config").get().root_markers
  local ok, found = pcall(vim.fs.root, bufnr or 0, markers)
  if ok and found then
    return vim.fs.normalize(found)
  end
  return vim.fs.normalize(vim.fn.getcwd())
end

---Client capabilities: Neovim's own plus what this plugin handles (docs/protocol.md, Lifecycle).
---@return table
function M.capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.experimental = vim.tbl_extend("force", caps.experimental or {}, {
    contextSidecar = {
      protocolVersion = M.PROTOCOL_VERSION,
      permissionRequests = true,
      compactionUpdates = true,
    },
  })
  return caps
end

---Read the server's protocol version from an initialize result.
---@param result table|nil
---@return integer|nil major, table|nil capabilities
function M.server_protocol(result)
  local caps = type(result) == "table" and M.value(result.capabilities) or nil
  local experimental = type(caps) == "table" and M.value(caps.experimental) or nil
  local ours = type(experimental) == "table" and M.value(experimental.contextSidecar) or nil
  if type(ours) ~= "table" then
    return nil, nil
  end
  local version = tonumber(M.value(ours.protocolVersion))
  if not version then
    return nil, ours
  end
  return math.floor(version), ours
end

---@param state context_sidecar.ClientState
---@param err string|nil
local function flush(state, err)
  local waiters = state.waiters
  state.waiters = {}
  for _, cb in ipairs(waiters) do
    if err then
      cb(err, nil)
    else
      cb(nil, state)
    end
  end
end

---@param state context_sidecar.ClientState
---@param message string
local function fail(state, message)
  state.error = message
  state.ready = false
  vim.schedule(function()
    flush(state, message)
  end)
end

---Notification and server-request handlers; the modules are required when a message arrives.
---@return table<string, function>
function M.handlers()
  return {
    [contract.methods.SESSION_UPDATE] = function(_, params, ctx)
      require("context_sidecar.chat").on_update(params, ctx.client_id)
    end,
    [contract.methods.DID_CHANGE_STATUS] = function(_, params)
      require("context_sidecar.status").set_server_status(params)
    end,
    [contract.methods.SESSION_REQUEST_PERMISSION] = function(_, params)
      return require("context_sidecar.chat").request_permission(params)
    end,
    ["workspace/applyEdit"] = function(err, params, ctx)
      return require("context_sidecar.edits").apply(err, params, ctx)
    end,
  }
end

---Attach file buffers under the root so the sidecar sees unsaved edits (didOpen/didChange).
---@param state context_sidecar.ClientState
---@param bufnr integer
function M.attach_buffer(state, bufnr)
  if not state.ready or not state.id then
    return
  end
  if not vim.api.nvim_buf_is_loaded(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" then
    return
  end
  name = vim.fs.normalize(name)
  local prefix = state.root:sub(-1) == "/" and state.root or (state.root .. "/")
  if name:sub(1, #prefix) ~= prefix then
    return
  end
  if not vim.lsp.buf_is_attached(bufnr, state.id) then
    vim.lsp.buf_attach_client(bufnr, state.id)
  end
end

---@param state context_sidecar.ClientState
local function attach_existing_buffers(state)
  if not require("context_sidecar.config").get().attach_buffers then
    return
  end
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    M.attach_buffer(state, bufnr)
  end
end

---The settings the sidecar gets: `settings`, with the plugin's `model` option as their
---model when they name none. New sessions open on it until the user picks another model,
---which the sidecar then keeps for the workspace's new sessions.
---@param cfg table the plugin's configuration
---@return table
function M.sidecar_settings(cfg)
  local settings = vim.deepcopy(cfg.settings or {})
  if cfg.model ~= nil and settings.model == nil then
    settings.model = cfg.model
  end
  return M.object(settings)
end

---Start (or reuse) the client for `root` and call `cb(err, state)` once it is ready.
---@param root string
---@param cb fun(err: string|nil, state: context_sidecar.ClientState|nil)
function M.ensure(root, cb)
  local state = states[root]
  if state and not state.stopped and not state.error then
    if state.ready then
      cb(nil, state)
    else
      table.insert(state.waiters, cb)
    end
    return
  end

  local cfg = require("context_sidecar.config").get()
  state = { root = root, ready = false, stopped = false, waiters = { cb } }
  states[root] = state

  local client_config = {
    name = M.NAME,
    cmd = cfg.cmd,
    cmd_env = cfg.cmd_env,
    cmd_cwd = root,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    capabilities = M.capabilities(),
    init_options = {
      settings = M.sidecar_settings(cfg),
      editorInfo = { name = "Neovim", version = tostring(vim.version()) },
      -- true when Neovim's trust database (vim.secure) allows the root; absent otherwise, and
      -- the sidecar decides itself.
      workspaceTrusted = require("context_sidecar.trust").is_trusted(root),
    },
    -- Answers the server's workspace/configuration pull (section contextSidecar).
    settings = { contextSidecar = M.sidecar_settings(cfg) },
    handlers = M.handlers(),
    on_init = function(client, result)
      local major, caps = M.server_protocol(result)
      if major ~= M.PROTOCOL_VERSION then
        local message = major
            and ("context-sidecar: the server speaks protocol %d, this plugin speaks %d; install matching versions"):format(
              major,
              M.PROTOCOL_VERSION
            )
          or "context-sidecar: the server did not announce a context-sidecar protocol version; is `cmd` the sidecar?"
        vim.schedule(function()
          vim.notify(message, vim.log.levels.ERROR)
        end)
        fail(state, message)
        if has_011 then
          client:stop(true)
        else
          client.stop(true)
        end
        return
      end
      state.server_capabilities = caps
      state.server_info = M.value(result.serverInfo)
      state.ready = true
      vim.schedule(function()
        attach_existing_buffers(state)
        flush(state, nil)
      end)
    end,
    on_exit = function(code, signal)
      state.stopped = true
      state.ready = false
      if #state.waiters > 0 then
        fail(state, ("context-sidecar exited before it was ready (code %s, signal %s)"):format(code, signal))
      end
      vim.schedule(function()
        require("context_sidecar.chat").on_client_exit(state)
      end)
    end,
  }

  local ok, id_or_err
  if has_011 then
    ok, id_or_err = pcall(vim.lsp.start, client_config, { attach = false, silent = true })
  else
    -- 0.10's vim.lsp.start always attaches the current buffer; start_client does not.
    ok, id_or_err = pcall(vim.lsp.start_client, client_config)
  end
  if not ok or not id_or_err then
    local cmd = table.concat(cfg.cmd, " ")
    local message = ("context-sidecar: could not start `%s`%s"):format(
      cmd,
      ok and "" or (": " .. tostring(id_or_err))
    )
    states[root] = nil
    state.stopped = true
    fail(state, message)
    return
  end
  state.id = id_or_err
end

---@param state context_sidecar.ClientState
---@return vim.lsp.Client|nil
function M.lsp_client(state)
  if not state or not state.id then
    return nil
  end
  return vim.lsp.get_client_by_id(state.id)
end

---Send a request; `handler(err, result)` gets the response. Returns the request id.
---@param state context_sidecar.ClientState
---@param method string
---@param params table
---@param handler fun(err: table|nil, result: any)
---@return integer|nil request_id
function M.request(state, method, params, handler)
  local client = M.lsp_client(state)
  if not client then
    handler({ code = -32099, message = "context-sidecar is not running" }, nil)
    return nil
  end
  local cb = function(err, result)
    handler(err, result)
  end
  local ok, request_id
  if has_011 then
    ok, request_id = client:request(method, params, cb)
  else
    ok, request_id = client.request(method, params, cb)
  end
  if not ok then
    handler({ code = -32099, message = "context-sidecar is not running" }, nil)
    return nil
  end
  return request_id
end

---@param state context_sidecar.ClientState
---@param method string
---@param params table
---@return boolean
function M.notify(state, method, params)
  local client = M.lsp_client(state)
  if not client then
    return false
  end
  if has_011 then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

---@param state context_sidecar.ClientState
---@param request_id integer
function M.cancel_request(state, request_id)
  local client = M.lsp_client(state)
  if not client then
    return
  end
  if has_011 then
    client:cancel_request(request_id)
  else
    client.cancel_request(request_id)
  end
end

---@param root string
---@return context_sidecar.ClientState|nil
function M.get(root)
  return states[root]
end

---@return context_sidecar.ClientState[]
function M.all()
  local list = {}
  for _, state in pairs(states) do
    table.insert(list, state)
  end
  return list
end

---@param state context_sidecar.ClientState
---@return boolean
function M.is_running(state)
  local client = M.lsp_client(state)
  if not client then
    return false
  end
  if has_011 then
    return not client:is_stopped()
  end
  return not client.is_stopped()
end

---Stop every client this plugin started (used by tests and by `setup` re-runs after a cmd change).
function M.stop_all()
  for root, state in pairs(states) do
    local client = M.lsp_client(state)
    if client then
      if has_011 then
        client:stop()
      else
        client.stop()
      end
    end
    states[root] = nil
  end
end

return M
