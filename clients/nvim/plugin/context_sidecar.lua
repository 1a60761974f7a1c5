-- Only the command is defined at startup; the plugin's modules load on first use.
if vim.g.loaded_context_sidecar then
  return
end
vim.g.loaded_context_sidecar = 1

vim.api.nvim_create_user_command("ContextSidecar", function(args)
  require("context_sidecar").command(args)
end, {
  nargs = "*",
  desc = "context-sidecar: chat, new, sessions, compact, context, cancel, model",
  complete = function(arglead, cmdline)
    return require("context_sidecar").complete(arglead, cmdline)
  end,
})
