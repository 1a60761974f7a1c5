-- An in-process sidecar stand-in handed to vim.lsp.start as a `cmd` function, for tests of
-- the client's own logic (handshake refusal, rendering) that need exact, timed messages.
-- `script.protocol` is the version it announces; `script.turn(ctx)` plays one prompt turn;
-- `script.answers[method]`, when set, is the answer to every request of that method.
local F = {}

---@param script {protocol: integer|nil, turn: fun(ctx: table)|nil, answers: table|nil, log: table}
function F.cmd(script)
  return function(dispatchers)
    local closing = false
    local next_id = 0
    local pending_prompt
    local log = script.log
    local server = {}

    local function notify(method, params)
      if not closing then
        dispatchers.notification(method, params)
      end
    end

    -- Lets a scenario push notifications outside a turn (e.g. a compaction).
    script.push = function(method, params)
      notify(method, params)
    end

    local function update(session_id, upd)
      notify("session/update", { sessionId = session_id, update = upd })
    end

    ---Ask the client something the way the real RPC layer does: inside a coroutine.
    local function server_request(method, params, cb)
      vim.schedule(coroutine.wrap(function()
        local result, err = dispatchers.server_request(method, params)
        cb(err, result)
      end))
    end

    -- Lets a scenario ask the client something outside a turn (e.g. workspace/applyEdit).
    script.request = server_request

    function server.request(method, params, callback)
      next_id = next_id + 1
      table.insert(log, method)
      local function reply(err, result)
        vim.schedule(function()
          callback(err, result)
        end)
      end
      local canned = script.answers and script.answers[method]
      local custom = script.handlers and script.handlers[method]
      script.params = script.params or {}
      script.params[method] = script.params[method] or {}
      table.insert(script.params[method], params)
      if custom then
        custom(params, reply)
      elseif canned ~= nil then
        script.asked = script.asked or {}
        script.asked[method] = params
        reply(nil, vim.deepcopy(canned))
      elseif method == "initialize" then
        local caps = { experimental = {} }
        if script.protocol then
          caps.experimental.contextSidecar = { protocolVersion = script.protocol, providers = { "anthropic" } }
        end
        script.init_params = params
        reply(nil, { capabilities = caps, serverInfo = { name = "context-sidecar", version = "0.0-fake" } })
      elseif method == "session/new" then
        local gauge = script.gauge("s1", 1, 1000)
        reply(nil, { sessionId = "s1", model = "fake-model", provider = "anthropic", gauge = gauge, modes = script.modes })
      elseif method == "session/prompt" then
        local ctx = {
          params = params,
          update = function(upd)
            update(params.sessionId, upd)
          end,
          request = server_request,
          finish = function(stop_reason)
            if pending_prompt then
              pending_prompt = nil
              reply(nil, { stopReason = stop_reason, gauge = script.gauge(params.sessionId, 99, 5000) })
            end
          end,
        }
        pending_prompt = ctx
        script.turn(ctx)
      elseif method == "shutdown" then
        reply(nil, vim.NIL)
      else
        reply({ code = -32601, message = "no such method in the fake: " .. method }, nil)
      end
      return true, next_id
    end

    function server.notify(method, params)
      table.insert(log, method)
      if method == "session/cancel" and pending_prompt then
        pending_prompt.cancelled = true
        pending_prompt.finish("cancelled")
      elseif method == "exit" then
        closing = true
        vim.schedule(function()
          dispatchers.on_exit(0, 0)
        end)
      end
      return true
    end

    function server.is_closing()
      return closing
    end

    function server.terminate()
      if not closing then
        closing = true
        vim.schedule(function()
          dispatchers.on_exit(0, 15)
        end)
      end
    end

    return server
  end
end

---Make every vim.lsp.start in this editor use the fake for `script`.
function F.install(script)
  script.log = script.log or {}
  script.gauge = script.gauge or F.gauge
  local orig = vim.lsp.start
  vim.lsp.start = function(cfg, opts)
    cfg.cmd = F.cmd(script)
    return orig(cfg, opts)
  end
  return script
end

---A gauge payload with the given seq and used tokens (window 10,000).
function F.gauge(session_id, seq, used, level)
  return {
    sessionId = session_id,
    seq = seq,
    used = used,
    size = 10000,
    percentUsed = used / 100,
    level = level or "ok",
    model = "fake-model",
    provider = "anthropic",
  }
end

return F
