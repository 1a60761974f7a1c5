-- Only the command is defined at startup; the plugin's modules load on first use.
if vim.g.loaded_context_sidecar then
  return
end
vim.g.loaded_context_sidecar = 1

vim.api.nvim_create_user_command("ContextSidecar", function(args)
  require("context_sidecar").command(args)
end, {
  nargs = "*",
  desc = "context-sidecar: chat, new, sessions, compact, context, cancel, model, mode, plan, mcp, add, rewind, fork",
  complete = function(arglead, cmdline)
    return require("context_sidecar").complete(arglead, cmdline)
  end,
})

vim.api.nvim_create_user_command("ContextSidecarMode", function(args)
  require("context_sidecar").mode(args.args)
end, {
  nargs = "?",
  desc = "context-sidecar: switch the permission mode (default, acceptEdits, plan, bypassPermissions)",
  complete = function(arglead)
    return require("context_sidecar").complete_mode(arglead)
  end,
})

vim.api.nvim_create_user_command("ContextSidecarPlan", function(args)
  require("context_sidecar").plan(args.args)
end, {
  nargs = "?",
  desc = "context-sidecar: enter plan mode (`off` leaves it)",
  complete = function()
    return { "off" }
  end,
})

vim.api.nvim_create_user_command("ContextSidecarMcp", function(args)
  require("context_sidecar").mcp(nil, args.args)
end, {
  nargs = "?",
  desc = "context-sidecar: MCP servers and their status (`pick`: approve, reject or retry one)",
  complete = function()
    return { "pick" }
  end,
})

vim.api.nvim_create_user_command("ContextSidecarAdd", function(args)
  if args.range > 0 then
    require("context_sidecar").add(args.line1, args.line2)
  else
    require("context_sidecar").add()
  end
end, { range = true, desc = "context-sidecar: add the selection (or the current file) to the chat's draft" })

vim.api.nvim_create_user_command("ContextSidecarTrust", function()
  require("context_sidecar").trust()
end, {
  desc = "context-sidecar: trust this workspace (vim.secure) so new sessions apply its hooks, settings and MCP servers",
})

vim.api.nvim_create_user_command("ContextSidecarRewind", function(args)
  require("context_sidecar").rewind(args.args)
end, {
  nargs = "*",
  desc = "context-sidecar: rewind the code and/or the conversation to before a prompt (picker; or N [both|conversation|code])",
  complete = function(_, cmdline)
    if #vim.split(vim.trim(cmdline), "%s+") >= 2 then
      return { "both", "conversation", "code" }
    end
    return {}
  end,
})

vim.api.nvim_create_user_command("ContextSidecarFork", function(args)
  require("context_sidecar").fork(args.args)
end, {
  nargs = "?",
  desc = "context-sidecar: fork the session into a new one, before a prompt (picker; or N) or whole",
})
