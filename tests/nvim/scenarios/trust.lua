-- Workspace trust, Neovim's own (vim.secure's trust database): what initialize says of the
-- root, :ContextSidecarTrust recording trust and sending sidecar/trustWorkspace, and the chat
-- saying "restricted" once /context reports the folder untrusted. Against the in-process fake.
local H = dofile(os.getenv("CS_HELPERS"))
local F = dofile(os.getenv("CS_FAKE_SERVER"))

H.run(function()
  local cs = require("context_sidecar")
  local client = require("context_sidecar.client")
  local trust = require("context_sidecar.trust")
  local winbar = require("context_sidecar.winbar")

  local withheld = { "hooks in .claude/settings.json", "MCP servers in .mcp.json" }
  local script = F.install({
    protocol = client.PROTOCOL_VERSION,
    handlers = {
      ["sidecar/trustWorkspace"] = function(params, reply)
        reply(nil, { trusted = true, cwd = params.cwd })
      end,
      ["sidecar/context"] = function(_, reply)
        local trusted = trust.is_trusted(os.getenv("CS_ROOT")) == true
        reply(nil, {
          gauge = F.gauge("s1", 2, 1000),
          workspaceTrust = { trusted = trusted, source = trusted and "sidecar" or "none", withheld = trusted and {} or withheld },
        })
      end,
    },
  })
  cs.setup({ cmd = { "context-sidecar", "serve" } })
  local notes = {}
  local orig_notify = vim.notify
  vim.notify = function(msg, level)
    table.insert(notes, { msg = msg, level = level })
  end

  ---Start a client for `root` and return what its initialize carried.
  local function init_options(root)
    client.stop_all()
    script.init_params = nil
    local done
    client.ensure(root, function(err)
      done = err or true
    end)
    H.wait(5000, function()
      return done ~= nil
    end, "initialize for " .. root)
    H.check(done == true, "client ready: " .. tostring(done))
    return script.init_params.initializationOptions
  end

  local function folder(name)
    local dir = vim.fn.tempname() .. "-" .. name
    vim.fn.mkdir(dir, "p")
    return vim.uv.fs_realpath(dir)
  end

  -- No entry in Neovim's trust database: the sidecar decides (the field is left out).
  local plain = folder("plain")
  local opts = init_options(plain)
  H.check(opts.workspaceTrusted == nil, "an unknown root sends no verdict")
  H.check(opts.settings ~= nil and opts.editorInfo.name == "Neovim", "the rest of initializationOptions is kept")
  H.record("untrusted_keys", vim.tbl_keys(opts))

  -- The root directory allowed by name, as :trust on a directory records it.
  local dir = folder("dir")
  vim.fn.mkdir(vim.fn.stdpath("state"), "p")
  local f = assert(io.open(trust.db_path(), "a"))
  f:write(("directory %s\n"):format(dir))
  f:close()
  H.check(init_options(dir).workspaceTrusted == true, "a directory allowed in the trust database is trusted")

  -- The root's .nvim.lua allowed with its contents ('exrc' trust): trusted while unchanged.
  local exrc_root = folder("exrc")
  local exrc = exrc_root .. "/.nvim.lua"
  vim.fn.writefile({ "vim.g.from_exrc = 1" }, exrc)
  vim.cmd("edit " .. vim.fn.fnameescape(exrc))
  local ok = vim.secure.trust({ action = "allow", bufnr = vim.api.nvim_get_current_buf() })
  vim.cmd("bwipeout!")
  H.check(ok, "vim.secure.trust allowed .nvim.lua")
  H.check(init_options(exrc_root).workspaceTrusted == true, "a root whose .nvim.lua is allowed is trusted")
  vim.fn.writefile({ "vim.g.from_exrc = 2" }, exrc)
  H.check(init_options(exrc_root).workspaceTrusted == nil, "a changed .nvim.lua no longer vouches for the root")

  -- A denied directory gives no verdict either.
  local denied = folder("denied")
  f = assert(io.open(trust.db_path(), "a"))
  f:write(("! %s\n"):format(denied))
  f:close()
  H.check(init_options(denied).workspaceTrusted == nil, "a denied root sends no verdict")

  -- The chat says "restricted" once /context reports the folder untrusted.
  local root = vim.uv.fs_realpath(assert(os.getenv("CS_ROOT")))
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  client.stop_all()
  script.init_params = nil
  local chat = H.open_chat()
  H.check(script.init_params.initializationOptions.workspaceTrusted == nil, "the workspace starts without a verdict")
  H.check(not winbar.text(chat):find("restricted", 1, true), "no restricted mark before the sidecar says so")
  local shown
  cs.context(function(buf)
    shown = buf
  end)
  H.wait(5000, function()
    return shown ~= nil
  end, "the /context view")
  local view = table.concat(vim.api.nvim_buf_get_lines(shown, 0, -1, false), "\n")
  H.check(view:find("## Restricted: this folder is not trusted", 1, true) ~= nil, "the /context view says it is restricted")
  H.check(view:find("- hooks in .claude/settings.json", 1, true) ~= nil, "the /context view lists what is withheld")
  vim.cmd("close")
  local bar = winbar.text(chat)
  H.record("winbar_untrusted", bar)
  H.check(bar:find("restricted", 1, true) ~= nil, "the winbar says restricted: " .. bar)
  local warned = vim.tbl_filter(function(n)
    return n.msg:find("restricted", 1, true) ~= nil
  end, notes)
  H.check(#warned == 1 and warned[1].level == vim.log.levels.WARN, "one warning says so")
  H.check(warned[1].msg:find("hooks in .claude/settings.json; MCP servers in .mcp.json", 1, true) ~= nil, "it names what is withheld")
  H.check(warned[1].msg:find(":ContextSidecarTrust", 1, true) ~= nil, "it says how to trust the folder")

  -- :ContextSidecarTrust records trust in the database and tells the sidecar.
  H.check(vim.fn.exists(":ContextSidecarTrust") == 2, "plugin defines :ContextSidecarTrust")
  H.check(trust.is_trusted(root) == nil, "not trusted before the command")
  script.params = {}
  vim.cmd("ContextSidecarTrust")
  H.wait(5000, function()
    return script.params["sidecar/trustWorkspace"] ~= nil
  end, "sidecar/trustWorkspace")
  H.record("trust_params", script.params["sidecar/trustWorkspace"])
  H.check(vim.deep_equal(script.params["sidecar/trustWorkspace"], { { cwd = root } }), "sidecar/trustWorkspace {cwd = root}")
  H.check(trust.is_trusted(root) == true, "the root is trusted in Neovim's database")
  H.check(trust.read_db()[root] == "directory", "recorded as vim.secure records a directory")
  H.wait(2000, function()
    return not winbar.text(chat):find("restricted", 1, true)
  end, "the restricted mark to go")
  H.check(#vim.tbl_filter(function(n)
    return n.msg:find("trusted " .. root, 1, true) ~= nil
  end, notes) == 1, "the command says the folder is trusted")

  -- The next start tells the sidecar at once.
  H.check(init_options(root).workspaceTrusted == true, "a trusted root sends workspaceTrusted = true")
  vim.notify = orig_notify
end)
