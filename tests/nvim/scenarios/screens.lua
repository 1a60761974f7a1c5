-- Run in a real terminal (tmux), not headless: the chat as a person sees it. A file open
-- beside the chat, a markdown answer, a command asking through Neovim's own vim.ui.select
-- (answered with keys by the test), and the tool's row after it. At each picture the script
-- writes <name>.ready into CS_SHOTS and waits for the test's <name>.done.
local H = dofile(os.getenv("CS_HELPERS"))
local shots = assert(os.getenv("CS_SHOTS"), "CS_SHOTS not set")

local function shot(name)
  vim.cmd("redraw!")
  local f = assert(io.open(shots .. "/" .. name .. ".ready", "w"))
  f:close()
  H.wait(30000, function()
    return vim.uv.fs_stat(shots .. "/" .. name .. ".done") ~= nil
  end, "the picture " .. name)
end

local function main()
  vim.o.termguicolors = true
  H.setup_real({})
  vim.cmd("cd " .. vim.fn.fnameescape(os.getenv("CS_ROOT")))
  vim.cmd("edit hello.py")
  vim.cmd("ContextSidecar chat")
  H.wait(60000, function()
    return require("context_sidecar.chat").current() ~= nil
  end, "session/new through :ContextSidecar chat")
  local chat = require("context_sidecar.chat").current()
  local done = H.turn(chat, "Explain hello.py", 30000)
  H.check(done.stopReason == "end_turn", "the answer ended: " .. vim.inspect(done.error))
  shot("nvim-chat")
  done = H.turn(chat, "run the tests", 60000)
  H.check(done.stopReason == "end_turn", "the tool turn ended: " .. vim.inspect(done.error))
  H.record("lines", H.lines(chat.buf))
  shot("nvim-tool")
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    vim.schedule(function()
      H.run(main)
    end)
  end,
})
