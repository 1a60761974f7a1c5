-- Real sidecar + fake LLM: two prompts edit, create and delete files; `:ContextSidecarRewind`
-- restores the code of the second (previewed, then confirmed), `/rewind` typed in the chat
-- rewinds its conversation (the chat shows what is left, the draft holds the prompt), `/fork`
-- opens a copy before a later prompt in the chat, and `:ContextSidecarRewind 1` there restores
-- everything, overwriting a file changed meanwhile once the user says so. Each picker is
-- answered by the label it offers; the preview is read while the question waits.
local H = dofile(os.getenv("CS_HELPERS"))

local function read(path)
  local f = io.open(path, "r")
  if not f then
    return nil
  end
  local text = f:read("*a")
  f:close()
  return text
end

H.run(function()
  local root = os.getenv("CS_ROOT")
  H.setup_real({ permissions = { defaultMode = "acceptEdits" }, sessionMemory = { enabled = false } })
  vim.cmd("cd " .. vim.fn.fnameescape(root))
  local cs = require("context_sidecar")
  local chat_mod = require("context_sidecar.chat")

  -- Answers for the pickers, in order: each the part of the label to pick.
  local answers = {}
  local picks = {}
  vim.ui.select = function(items, opts, on_choice)
    local labels = vim.tbl_map(opts.format_item or tostring, items)
    local entry = { kind = opts.kind, prompt = opts.prompt, items = labels }
    if opts.kind == "context_sidecar_rewind_confirm" then
      local buf = vim.fn.bufnr("context-sidecar://rewind preview")
      entry.preview = buf ~= -1 and H.lines(buf) or nil
    end
    table.insert(picks, entry)
    local choice
    if opts.kind == "context_sidecar_permission" then
      for _, item in ipairs(items) do
        if item.kind == "allow_once" then
          choice = item
        end
      end
    else
      local want = table.remove(answers, 1)
      for i, label in ipairs(labels) do
        if want and not choice and label:find(want, 1, true) then
          choice = items[i]
        end
      end
      entry.picked = want
    end
    vim.defer_fn(function()
      on_choice(choice)
    end, 20)
  end
  local rewinds = H.collect("ContextSidecarRewind")
  local forks = H.collect("ContextSidecarFork")
  local function files()
    return { a = read(root .. "/a.py"), b = read(root .. "/b.py"), new = read(root .. "/new.py"), gone = read(root .. "/gone.txt") }
  end

  local chat = H.open_chat()
  H.check(H.turn(chat, "make the first change", 60000).stopReason == "end_turn", "the first turn ended")
  H.check(H.turn(chat, "make the second change", 60000).stopReason == "end_turn", "the second turn ended")
  H.record("after_turns", files())
  -- a.py is open in a buffer: a restore reloads it.
  vim.cmd("split " .. vim.fn.fnameescape(root .. "/a.py"))
  local a_buf = vim.api.nvim_get_current_buf()
  H.check(H.lines(a_buf)[1] == "A2", "a.py's buffer shows the second change")
  vim.api.nvim_set_current_win(vim.fn.bufwinid(chat.buf))

  H.check(#picks == 1 and picks[1].kind == "context_sidecar_permission", "the shell command asked first")

  -- 1. Code only, back before the second prompt, from the command's pickers.
  picks = {}
  answers = { "#2 ", "Restore code only", "Rewind" }
  vim.cmd("ContextSidecarRewind")
  H.wait(30000, function()
    return #rewinds == 1
  end, "the code rewind")
  H.record("code_picks", vim.deepcopy(picks))
  H.record("after_code", files())
  H.check(H.lines(a_buf)[1] == "A1", "a.py's buffer was reloaded: " .. H.lines(a_buf)[1])
  H.check(H.text(chat.buf):find("Second change made.", 1, true) ~= nil, "a code rewind leaves the conversation")
  H.record("code_rewind", rewinds[1])

  -- 2. The conversation only, from `/rewind` typed in the chat.
  picks = {}
  answers = { "#2 ", "Restore conversation only" }
  chat_mod.set_draft(chat, "/rewind")
  chat_mod.submit(chat)
  H.wait(30000, function()
    return #rewinds == 2
  end, "the conversation rewind")
  H.record("conversation_picks", vim.deepcopy(picks))
  H.record("after_conversation", files())
  H.record("conversation_lines", H.lines(chat.buf))
  H.record("conversation_draft", chat_mod.draft(chat))
  H.check(chat_mod.draft(chat) == "make the second change", "the draft holds the rewound prompt")
  H.check(H.text(chat.buf):find("Second change made.", 1, true) == nil, "the rewound answer is gone from the chat")
  H.check(H.text(chat.buf):find("First change made.", 1, true) ~= nil, "the first answer is still shown")
  -- Sent again, changed.
  H.check(H.turn(chat, "try it another way", 60000).stopReason == "end_turn", "the turn after the rewind ended")

  -- 3. A fork before the latest prompt, from `/fork` typed in the chat.
  picks = {}
  answers = { "#2 " }
  chat_mod.set_draft(chat, "/fork")
  chat_mod.submit(chat)
  H.wait(30000, function()
    return #forks == 1
  end, "the fork")
  H.record("fork_picks", vim.deepcopy(picks))
  local fork = chat_mod.get(forks[1].sessionId)
  H.check(fork ~= nil and fork.session_id ~= chat.session_id, "the fork has a chat of its own")
  H.check(chat_mod.current() == fork, "the chat shows the fork")
  H.check(vim.api.nvim_win_get_buf(vim.fn.bufwinid(fork.buf)) == fork.buf, "the fork is on screen")
  H.record("fork_lines", H.lines(fork.buf))
  H.record("fork_draft", chat_mod.draft(fork))
  H.check(H.turn(fork, "a question in the fork", 60000).stopReason == "end_turn", "the fork's first turn ended")

  -- 4. Everything back before the first prompt, in the fork; a.py was changed meanwhile by the
  -- user, so the preview names it a conflict and the user overwrites it.
  local f = assert(io.open(root .. "/a.py", "w"))
  f:write("A1 and the user's own line\n")
  f:close()
  picks = {}
  answers = { "overwrite" }
  vim.cmd("ContextSidecarRewind 1")
  H.wait(30000, function()
    return #rewinds == 3
  end, "the rewind of everything")
  H.record("both_picks", vim.deepcopy(picks))
  H.record("both_rewind", rewinds[3])
  H.record("after_both", files())
  H.record("both_draft", chat_mod.draft(fork))
  H.check(H.turn(fork, "start over", 60000).stopReason == "end_turn", "the turn after the full rewind ended")
  H.record("final_lines", H.lines(fork.buf))
end)
