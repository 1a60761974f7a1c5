// The chat panel's behaviour, one test per thing users asked for: code block actions and
// theme colours, concise tool rows and permission cards, the Context and Sessions views,
// the keyboard, retries and errors, the header, and replayed sessions rendering as live.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { gauge } from "../unit/fixtures";
import { host, launchChromium, openView, posted, postedOf, running, skip, update } from "./harness";

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

const CWD = "/home/me/calc";
const text = (t: string, messageId = "m1") => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: t }, messageId });
const noErrors = (page: Page) => assert.deepEqual((page as any).__errors, []);
const bg = (page: Page, selector: string) => page.locator(selector).first().evaluate((e) => getComputedStyle(e).backgroundColor);
const color = (page: Page, selector: string) => page.locator(selector).first().evaluate((e) => getComputedStyle(e).color);
const transparent = (c: string) => c === "rgba(0, 0, 0, 0)" || c === "transparent";

// ---- 1. code blocks -----------------------------------------------------------------------

test("code blocks: one framed block with Copy / Insert / Apply posting the code to the host", { skip }, async () => {
  const page = await openView(browser, "dark");
  await host(page, running);
  await update(page, text("Try:\n\n```python\ndef add(a, b):\n    return a + b  # sum\n```\n"));
  await page.waitForSelector(".code-block pre code.hljs");
  assert.equal(await page.locator(".code-block").count(), 1);
  assert.equal(await page.locator(".code-block .code-lang").innerText(), "python");
  await page.click(".code-block .code-action[data-code-action=copy]");
  await page.click(".code-block .code-action[data-code-action=insert]");
  await page.click(".code-block .code-action[data-code-action=apply]");
  const code = "def add(a, b):\n    return a + b  # sum\n";
  const sent = (await posted(page)).filter((m) => ["copyCode", "insertCode", "applyCode"].includes(m.type)).map(({ seq, ...m }) => m);
  assert.deepEqual(sent, [
    { type: "copyCode", text: code },
    { type: "insertCode", text: code, language: "python" },
    { type: "applyCode", text: code, language: "python" },
  ]);
  assert.equal(await page.locator(".code-action[data-code-action=copy]").innerText(), "Copied");
  // One background for the whole block: lines and the code element carry none of their own.
  assert.ok(!transparent(await bg(page, ".code-block")), "the frame has a background");
  assert.ok(transparent(await bg(page, ".code-block pre")), "pre adds no band");
  assert.ok(transparent(await bg(page, ".code-block pre code")), "code adds no band");
  noErrors(page);
  await page.close();
});

test("code blocks: keyword colours follow the theme, and the light theme has a block background", { skip }, async () => {
  const colours: Record<string, { keyword: string; string: string; block: string; panel: string }> = {};
  for (const theme of ["dark", "light"] as const) {
    const page = await openView(browser, theme);
    await host(page, running);
    await update(page, text("```python\nimport os\nx = 'hi'\n```\n"));
    await page.waitForSelector(".code-block .hljs-keyword");
    colours[theme] = {
      keyword: await color(page, ".hljs-keyword"),
      string: await color(page, ".hljs-string"),
      block: await bg(page, ".code-block"),
      panel: await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
    };
    await page.close();
  }
  assert.equal(colours.dark!.keyword, "rgb(78, 148, 206)", "dark: the theme's token colour");
  assert.equal(colours.light!.keyword, "rgb(0, 0, 255)", "light: the theme's token colour");
  assert.equal(colours.light!.string, "rgb(163, 21, 21)");
  assert.notEqual(colours.light!.block, colours.light!.panel, "light: the block stands out from the panel");
  assert.notEqual(colours.dark!.block, colours.dark!.panel, "dark: the block stands out from the panel");
});

// ---- 2. tool rows and permissions ---------------------------------------------------------

async function toolRun(page: Page, id: string, call: Record<string, unknown>, end: Record<string, unknown>): Promise<void> {
  await update(page, { sessionUpdate: "tool_call", toolCallId: id, status: "pending", ...call });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: id, ...end });
}

test("tool rows are one concise line, with clickable paths and input on demand, not JSON", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, text("Let me look.", "m1"));
  await toolRun(page, "r1",
    { title: "Read calc.py", kind: "read", rawInput: { file_path: `${CWD}/calc.py` }, locations: [{ path: `${CWD}/calc.py` }] },
    { status: "completed", rawOutput: { path: `${CWD}/calc.py`, startLine: 1, numLines: 19 }, content: [{ type: "content", content: { type: "text", text: "1→def add(a, b):" } }] });
  const oldText = "a\nb\nc\nd\n";
  const newText = "a\nB\nc\nd\ne\nf\n";
  await toolRun(page, "e1",
    { title: "Edit src/a.py", kind: "edit", rawInput: { file_path: `${CWD}/src/a.py`, old_string: "b\nd", new_string: "B\nd\ne\nf" }, locations: [{ path: `${CWD}/src/a.py`, line: 2 }],
      content: [{ type: "diff", path: `${CWD}/src/a.py`, oldText, newText }] },
    { status: "completed", rawOutput: { path: `${CWD}/src/a.py`, created: false, replacements: 1 }, content: [{ type: "content", content: { type: "text", text: "The file has been updated." } }] });
  await toolRun(page, "b1",
    { title: "Run the tests", kind: "execute", rawInput: { command: "pytest -q", description: "Run the tests" } },
    { status: "completed", rawOutput: { exitCode: 0, timedOut: false, cancelled: false }, content: [{ type: "content", content: { type: "text", text: "3 passed\nExit code: 0" } }] });
  await toolRun(page, "g1",
    { title: "Grep 'def add' in src", kind: "search", rawInput: { pattern: "def add", path: `${CWD}/src` }, locations: [{ path: `${CWD}/src` }] },
    { status: "completed", rawOutput: { mode: "files_with_matches", numFiles: 2 } });
  await update(page, text("All green.", "m2"));

  const line = (id: string) => page.locator(`details.tool[data-tool-call-id="${id}"] > summary`).innerText();
  assert.equal((await line("r1")).replace(/\s+/g, " "), "✓ Read calc.py · 19 lines");
  assert.equal((await line("e1")).replace(/\s+/g, " "), "✓ Edit src/a.py +3 −1");
  assert.equal((await line("b1")).replace(/\s+/g, " "), "✓ Bash pytest -q · exit 0");
  assert.equal((await line("g1")).replace(/\s+/g, " "), "✓ Grep 'def add' in src · 2 files");
  // No "Assistant" header anywhere; the agent's text blocks carry no role label.
  assert.equal(await page.locator("text=Assistant").count(), 0);
  assert.equal(await page.locator(".message.agent").count(), 2);
  // Collapsed until asked; then the input reads as a command, never as JSON.
  const bash = page.locator('details.tool[data-tool-call-id="b1"]');
  assert.equal(await bash.evaluate((d) => (d as HTMLDetailsElement).open), false);
  await bash.locator("summary").click();
  assert.equal(await bash.locator(".tool-input").innerText(), "$ pytest -q");
  assert.match(await bash.locator(".tool-output").innerText(), /3 passed/);
  assert.doesNotMatch(await page.locator("#transcript").innerText(), /[{]"|": /);
  // The edit's diff is there when opened.
  await page.locator('details.tool[data-tool-call-id="e1"] > summary .tool-verb').click();
  assert.equal(await page.locator('details.tool[data-tool-call-id="e1"] .diff-line.add').count(), 3);
  // Paths open in the editor without toggling the row.
  await page.click('details.tool[data-tool-call-id="r1"] .tool-path');
  assert.deepEqual((await postedOf(page, "openFile")).map(({ seq, ...m }) => m), [{ type: "openFile", path: `${CWD}/calc.py` }]);
  assert.equal(await page.locator('details.tool[data-tool-call-id="r1"]').evaluate((d) => (d as HTMLDetailsElement).open), false);
  noErrors(page);
  await page.close();
});

test("a Bash permission asks about the command (not its description) and folds into the row once answered", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, { sessionUpdate: "tool_call", toolCallId: "t9", title: "List src and run python", kind: "execute", status: "pending", rawInput: { command: "ls src && python calc.py", description: "List src and run python" } });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "t9", status: "in_progress" });
  await host(page, {
    type: "permission", requestId: 3,
    toolCall: { toolCallId: "t9", title: "List src and run python", kind: "execute", rawInput: { command: "ls src && python calc.py", description: "List src and run python" } },
    options: [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      { optionId: "allow_always", name: "Always allow Bash", kind: "allow_always" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ],
  });
  const card = page.locator('details.tool[data-tool-call-id="t9"] .permission');
  assert.equal(await card.locator(".permission-title").innerText(), "Run this command?");
  assert.equal(await card.locator(".permission-why").innerText(), "List src and run python");
  assert.equal(await card.locator("pre").innerText(), "$ ls src && python calc.py");
  assert.doesNotMatch(await page.locator("#transcript").innerText(), /Allow List src/);
  await card.locator("button >> text=Allow once").click();
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "t9", status: "completed", rawOutput: { exitCode: 0 }, content: [{ type: "content", content: { type: "text", text: "calc.py\n42" } }] });
  // Gone from the transcript, remembered on the row; the output is not under a focus-bordered card.
  assert.equal(await page.locator(".permission").count(), 0);
  const row = page.locator('details.tool[data-tool-call-id="t9"]');
  assert.equal(await row.locator(".tool-permission").innerText(), "✓ Allow once");
  assert.equal(await row.evaluate((d) => (d as HTMLDetailsElement).open), false);
  assert.deepEqual((await postedOf(page, "permissionAnswer")).map(({ seq, ...m }) => m), [{ type: "permissionAnswer", requestId: 3, optionId: "allow_once" }]);
  await page.close();
});

test("an edit permission shows a compact diff with Accept / Accept all edits this turn / Reject", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  const oldText = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const newText = oldText.replace("line 15\n", "line fifteen\nline 15b\n");
  const toolCall = {
    toolCallId: "ed1", title: "Edit src/calc.py", kind: "edit", status: "pending",
    rawInput: { file_path: `${CWD}/src/calc.py`, old_string: "line 15", new_string: "line fifteen\nline 15b" },
    locations: [{ path: `${CWD}/src/calc.py` }],
    content: [{ type: "diff", path: `${CWD}/src/calc.py`, oldText, newText }],
  };
  await update(page, { sessionUpdate: "tool_call", ...toolCall });
  await host(page, {
    type: "permission", requestId: 4, toolCall,
    options: [
      { optionId: "allow_once", name: "Accept", kind: "allow_once" },
      { optionId: "allow_turn", name: "Accept all edits this turn", kind: "allow_always" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ],
  });
  const card = page.locator(".permission");
  assert.equal(await card.locator(".permission-title").innerText(), "Edit calc.py?");
  assert.equal(await card.locator(".diff-line.del").count(), 1);
  assert.equal(await card.locator(".diff-line.add").count(), 2);
  // Compact: two lines of context each side, the rest folded.
  assert.equal(await card.locator(".diff-line.ctx").count(), 4);
  assert.deepEqual(await card.locator(".diff-line.gap").allInnerTexts().then((t) => t.map((s) => s.replace(/\s+/g, " ").trim())), ["⋯ 12 unchanged lines", "⋯ 13 unchanged lines"]);
  assert.deepEqual(await card.locator(".permission-options button").allInnerTexts(), ["Accept", "Accept all edits this turn", "Reject"]);
  await card.locator("button >> text=Reject").click();
  assert.equal(await page.locator('details.tool[data-tool-call-id="ed1"] .tool-permission').innerText(), "✗ Reject");
  await page.close();
});

test("leaving plan mode shows the plan as markdown with its three options", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, {
    type: "permission", requestId: 5,
    toolCall: { toolCallId: "p1", title: "Leave plan mode?", kind: "switch_mode", content: [{ type: "content", content: { type: "text", text: "## Plan\n\n1. Fix `add`\n2. Run **pytest**" } }] },
    options: [
      { optionId: "accept_edits", name: "Yes, and accept edits", kind: "allow_once" },
      { optionId: "default", name: "Yes, ask before edits", kind: "allow_once" },
      { optionId: "reject_once", name: "No, keep planning", kind: "reject_once" },
    ],
  });
  const card = page.locator(".permission");
  assert.equal(await card.locator(".permission-title").innerText(), "Leave plan mode?");
  assert.equal(await card.locator(".permission-plan h2").innerText(), "Plan");
  assert.equal(await card.locator(".permission-plan li").count(), 2);
  assert.equal(await card.locator(".permission-plan strong").innerText(), "pytest");
  assert.deepEqual(await card.locator(".permission-options button").allInnerTexts(), ["Yes, and accept edits", "Yes, ask before edits", "No, keep planning"]);
  await card.locator("button >> text=Yes, and accept edits").click();
  assert.equal((await postedOf(page, "permissionAnswer"))[0].optionId, "accept_edits");
  await page.close();
});

// ---- 3. Context and Sessions views --------------------------------------------------------

const contextView = (used: number) => ({
  gauge: gauge({ used, percentUsed: (used / 200_000) * 100 }),
  prefix: { parts: { system: 3000, memoryFiles: 1200, tools: 12000 }, memoryFiles: [{ path: `${CWD}/CLAUDE.md`, kind: "project", tokens: 1200, chars: 4800 }] },
  fileReadState: [
    { path: `${CWD}/calc.py`, tokens: 2100, readAt: "2026-01-01T00:00:00.000Z", stale: false, origin: "read" },
    { path: `${CWD}/src/a.py`, tokens: 300, readAt: "2026-01-01T00:00:00.000Z", stale: true, origin: "read" },
  ],
  messages: [
    { role: "user", content: [{ type: "text", text: "Fix the failing test" }] },
    { role: "assistant", content: [{ type: "text", text: "Reading." }, { type: "tool_use", id: "t", name: "Read", input: {} }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "x".repeat(500) }] },
  ],
});

test("the Context view is tables: prefix parts, files with sizes, messages by kind; refreshed after a compaction", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await page.click("#context");
  assert.equal((await posted(page)).at(-1).type, "requestContext");
  await host(page, { type: "context", view: contextView(142_300) });
  const view = page.locator("#context-view");
  await view.waitFor();
  const rowsOf = (caption: string) => view.locator(`section:has(h3:text-is("${caption}")) tbody tr`).allInnerTexts().then((r) => r.map((x) => x.replace(/\s+/g, " ").trim()));
  assert.deepEqual(await rowsOf("Prefix"), ["System prompt 3K", "Memory files (CLAUDE.md) 1.2K", "Tool definitions 12K"]);
  assert.deepEqual(await rowsOf("Files (2)"), ["calc.py 2.1K read", "a.py 300 changed since read"]);
  // Characters are what each block holds: text, a tool call's input, a result's content.
  assert.deepEqual(await rowsOf("Messages (3)"), ["user tool result 1 500", "user text 1 20", "assistant text 1 8", "assistant tool use 1 2"]);
  await view.locator("a.file-link >> text=calc.py").click();
  assert.equal((await posted(page)).at(-1).path, `${CWD}/calc.py`);
  // A compaction while the view is open asks for fresh sizes, and they replace the old ones.
  const before = (await postedOf(page, "requestContext")).length;
  await update(page, { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed", tier: "full", trigger: "manual", tokensBefore: 142_300, tokensAfter: 18_400 });
  assert.equal((await postedOf(page, "requestContext")).length, before + 1);
  await host(page, { type: "context", view: contextView(18_400) });
  assert.match(await view.locator(".view-summary").innerText(), /18\.4K \/ 200K/);
  await page.keyboard.press("Escape");
  assert.equal(await view.isHidden(), true, "Escape closes the view");
  assert.equal((await postedOf(page, "cancel")).length, 0, "Escape with a view open does not cancel");
  await page.close();
});

test("a host that leaves requestContext unanswered still shows the context, as a document", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await page.click("#context");
  assert.deepEqual((await posted(page)).slice(-1).map((m) => m.type), ["requestContext"]);
  await page.waitForFunction(() => (window as any).__posted.at(-1).type === "showContext", undefined, { timeout: 5000 });
  await page.close();
});

test("the Sessions view: current marker, filter, rename, delete (confirmed), Escape closes", { skip }, async () => {
  const page = await openView(browser);
  await host(page, { ...running, sessionId: "s-2" });
  await page.click("#sessions");
  assert.equal((await posted(page)).at(-1).type, "listSessions");
  await host(page, {
    type: "sessions",
    sessions: [
      { sessionId: "s-1", title: "Fix the parser", updatedAt: "2026-11-29T10:00:00Z", used: 42_000, size: 200_000 },
      { sessionId: "s-2", title: "Add a calculator", updatedAt: "2026-11-30T10:00:00Z", used: 9_000, size: 200_000 },
      { sessionId: "s-3", title: "Write the README", updatedAt: "2026-11-28T10:00:00Z" },
    ],
  });
  const view = page.locator("#sessions-view");
  assert.equal(await view.locator(".session-row.current").getAttribute("data-session-id"), "s-2");
  assert.match(await view.locator(".session-row.current").innerText(), /current/);
  await page.fill(".view-filter", "pars");
  assert.deepEqual(await view.locator(".session-row").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.sessionId)), ["s-1"]);
  await page.fill(".view-filter", "");
  const row = view.locator('.session-row[data-session-id="s-3"]');
  await row.hover();
  await row.locator(".session-rename").click();
  await page.fill(".session-rename-input", "Write the docs");
  await page.press(".session-rename-input", "Enter");
  assert.deepEqual({ ...(await posted(page)).at(-1), seq: 0 }, { type: "renameSession", sessionId: "s-3", title: "Write the docs", seq: 0 });
  assert.match(await view.locator('.session-row[data-session-id="s-3"]').innerText(), /Write the docs/);
  const del = view.locator('.session-row[data-session-id="s-1"] .session-delete');
  await view.locator('.session-row[data-session-id="s-1"]').hover();
  await del.click();
  assert.equal((await postedOf(page, "deleteSession")).length, 0, "the first click only asks");
  await del.click();
  assert.deepEqual((await postedOf(page, "deleteSession")).map((m) => m.sessionId), ["s-1"]);
  assert.equal(await view.locator('.session-row[data-session-id="s-1"]').count(), 0);
  await page.keyboard.press("Escape");
  assert.equal(await view.isHidden(), true);
  await page.close();
});

// ---- 4. keyboard and composer -------------------------------------------------------------

test("keyboard: Escape cancels a running turn, Up recalls the last prompt, Enter while busy queues", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await page.fill("#input", "first question");
  await page.press("#input", "Enter");
  await host(page, { type: "userPrompt", text: "first question" });
  await host(page, { ...running, busy: true });
  await page.press("#input", "Escape");
  assert.equal((await posted(page)).at(-1).type, "cancel");
  await page.press("#input", "ArrowUp");
  assert.equal(await page.inputValue("#input"), "first question");
  await page.fill("#input", "second question");
  await page.press("#input", "Enter");
  // Not sent yet, not lost: shown as queued.
  assert.equal((await postedOf(page, "prompt")).length, 1);
  assert.match(await page.locator("#queued").innerText(), /Queued.*second question/s);
  assert.equal(await page.inputValue("#input"), "");
  await host(page, { ...running, busy: false });
  assert.deepEqual((await postedOf(page, "prompt")).map((m) => m.text), ["first question", "second question"]);
  assert.equal(await page.locator("#queued").isHidden(), true);
  // Without a running sidecar, Enter says why instead of doing nothing.
  await host(page, { ...running, connection: "stopped" });
  await page.fill("#input", "third");
  await page.press("#input", "Enter");
  assert.match(await page.locator("#status").innerText(), /not running/);
  assert.equal(await page.inputValue("#input"), "third");
  await page.close();
});

test("a 10 KB paste folds into a chip and is sent whole", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  const big = Array.from({ length: 250 }, (_, i) => `log line ${i} ${"x".repeat(30)}`).join("\n");
  assert.ok(big.length >= 10_000);
  await page.focus("#input");
  await page.keyboard.type("Why does this fail? ");
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData("text/plain", t);
    document.getElementById("input")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, big);
  assert.equal(await page.inputValue("#input"), "Why does this fail? [Pasted text +250 lines]");
  await page.press("#input", "Enter");
  assert.equal((await postedOf(page, "prompt"))[0].text, `Why does this fail? ${big}`);
  // The echoed prompt is readable: the first lines, the rest behind a toggle.
  await host(page, { type: "userPrompt", text: `Why does this fail? ${big}` });
  assert.match(await page.locator(".message.user .show-more").innerText(), /Show 242 more lines/);
  await page.close();
});

test("sending while scrolled up jumps to the new message; /clear empties the view; command output is styled as such", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  for (let i = 0; i < 40; i++) await update(page, text(`Paragraph ${i}\n\n`.repeat(3), `m${i}`));
  await page.evaluate(() => document.getElementById("transcript")!.scrollTo(0, 0));
  await page.fill("#input", "/context");
  await page.press("#input", "Enter");
  await host(page, { type: "userPrompt", text: "/context" });
  const atBottom = await page.evaluate(() => {
    const t = document.getElementById("transcript")!;
    return t.scrollHeight - t.scrollTop - t.clientHeight < 5;
  });
  assert.equal(atBottom, true);
  await update(page, text("Context: 12K of 200K", "cmd"));
  await page.waitForSelector(".message.agent.command-output >> text=Context: 12K");
  await host(page, { type: "turnEnded", stopReason: "end_turn" });
  await update(page, text("A normal answer", "after"));
  await page.waitForSelector(".message.agent >> text=A normal answer");
  assert.equal(await page.locator(".message.agent.command-output").count(), 1);
  await page.fill("#input", "/clear");
  await page.press("#input", "Enter");
  assert.equal(await page.locator("#transcript > *").count(), 0);
  assert.equal((await postedOf(page, "prompt")).at(-1).text, "/clear");
  await page.close();
});

test("`/` completes commands from available_commands_update; `@` asks the host for files", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, { sessionUpdate: "available_commands_update", availableCommands: [
    { name: "compact", description: "Compact now" }, { name: "context", description: "Show the context" }, { name: "mcp", description: "MCP servers" },
  ] });
  await page.focus("#input");
  await page.keyboard.type("/co");
  assert.deepEqual(await page.locator(".completion .completion-label").allInnerTexts(), ["/compact", "/context"]);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  assert.equal(await page.inputValue("#input"), "/context ");
  assert.equal((await postedOf(page, "prompt")).length, 0, "Enter picked the completion, it did not send");
  await page.fill("#input", "");
  await page.keyboard.type("look at @cal");
  const query = (await postedOf(page, "fileQuery")).at(-1);
  assert.equal(query.query, "cal");
  await host(page, { type: "fileResults", requestId: query.requestId, files: [
    { path: "calc.py", uri: "file:///w/calc.py" }, { path: "src/calculator.ts", uri: "file:///w/src/calculator.ts" },
  ] });
  assert.deepEqual(await page.locator(".completion .completion-label").allInnerTexts(), ["calc.py", "src/calculator.ts"]);
  await page.keyboard.press("Tab");
  assert.equal(await page.inputValue("#input"), "look at @calc.py ");
  await page.keyboard.press("Escape");
  assert.equal((await postedOf(page, "cancel")).length, 0);
  await page.close();
});

test("attached files and selections are chips the user can drop", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, { type: "attachments", items: [
    { id: 1, kind: "file", uri: "file:///w/calc.py", label: "calc.py" },
    { id: 2, kind: "selection", uri: "file:///w/src/a.py", label: "src/a.py:12-20", text: "def f():\n    pass", lines: [12, 20] },
  ] });
  assert.deepEqual(await page.locator("#chips .chip-label").allInnerTexts(), ["calc.py", "src/a.py:12-20"]);
  await page.click('#chips .chip[data-id="2"] .chip-drop');
  assert.deepEqual({ ...(await posted(page)).at(-1), seq: 0 }, { type: "removeAttachment", id: 2, seq: 0 });
  await host(page, { type: "attachments", items: [] });
  assert.equal(await page.locator("#chips").isHidden(), true);
  await page.close();
});

// ---- 5. retries, errors, compaction ---------------------------------------------------------

test("retry_update shows the attempt and a countdown; errors say the fix and offer Retry", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, { type: "userPrompt", text: "Summarize calc.py" });
  await update(page, { sessionUpdate: "retry_update", attempt: 2, maxRetries: 10, delayMs: 4000, reason: "The provider is overloaded (529)", status: 529 });
  const row = page.locator(".retry");
  assert.match(await row.innerText(), /The provider is overloaded \(529\) · attempt 2 of 10 · retrying in 4s/);
  await page.waitForFunction(() => /retrying in [123]s/.test(document.querySelector(".retry")!.textContent!), undefined, { timeout: 5000 });
  await update(page, { sessionUpdate: "retry_update", attempt: 2, maxRetries: 10, delayMs: 0, reason: "", status: null, done: true });
  assert.equal(await row.innerText(), "Went through after 2 retries.");
  assert.equal(await page.locator(".retry").count(), 1, "one row per run of retries");

  await host(page, { type: "error", message: "The API key was refused by anthropic.", code: -33002, fix: "Set ANTHROPIC_API_KEY or run 'Context Sidecar: Set API Key'" });
  const error = page.locator(".error");
  assert.equal(await error.locator(".error-message").innerText(), "The API key was refused by anthropic.");
  assert.equal(await error.locator(".error-fix").innerText(), "Set ANTHROPIC_API_KEY or run 'Context Sidecar: Set API Key'");
  await error.locator("button >> text=Retry").click();
  assert.equal((await postedOf(page, "prompt")).at(-1).text, "Summarize calc.py");
  // An error that is no prompt's failure (the turn had ended) offers no Retry.
  await host(page, { type: "turnEnded", stopReason: "end_turn" });
  await host(page, { type: "error", message: "No session yet.", fix: "Send a message or press New to start one." });
  assert.equal(await page.locator(".error").nth(1).locator("button").count(), 0);
  await page.close();
});

test("a missing key offers Set API Key; a failed prompt offers Resend; a filling context offers Compact now", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, { type: "userPrompt", text: "Hello" });
  await host(page, { type: "error", message: "No API key for anthropic", code: -33002, fix: "Set ANTHROPIC_API_KEY or run 'Context Sidecar: Set API Key'" });
  await page.click(".error button >> text=Set API Key");
  assert.equal((await posted(page)).at(-1).type, "setApiKey");
  await host(page, { type: "resendOffer", text: "Hello" });
  assert.match(await page.locator("#offer").innerText(), /Not sent: “Hello”/);
  // Retry on the error and Resend in the offer both ask the host to resend (it kept the attachments).
  await page.click(".error button >> text=Retry");
  assert.equal((await posted(page)).at(-1).type, "resend");
  assert.equal(await page.locator("#offer").isHidden(), true);
  await host(page, { type: "resendOffer", text: "Hello" });
  await page.click("#offer .offer-dismiss");
  assert.equal((await posted(page)).at(-1).type, "dismissResend");
  await host(page, { type: "compactOffer", stage: "warning", next: "Auto-compact at 167K (in 20K tokens): older turns will be summarized" });
  assert.match(await page.locator("#offer").innerText(), /Auto-compact at 167K/);
  await page.click("#offer button >> text=Compact now");
  assert.equal((await posted(page)).at(-1).type, "compact");
  await host(page, { type: "compactOffer", stage: "normal" });
  assert.equal(await page.locator("#offer").isHidden(), true);
  await page.close();
});

test("an edit also under review in the editor says so on its card", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  const toolCall = { toolCallId: "e5", title: "Edit app.py", kind: "edit", rawInput: { file_path: "/w/app.py", old_string: "a", new_string: "b" }, locations: [{ path: "/w/app.py" }], content: [{ type: "diff", path: "/w/app.py", oldText: "a\n", newText: "b\n" }] };
  await host(page, { type: "permission", requestId: 9, toolCall, options: [{ optionId: "allow_once", name: "Accept", kind: "allow_once" }, { optionId: "reject_once", name: "Reject", kind: "reject_once" }] });
  await host(page, { type: "reviewInEditor", requestId: 9, path: "/w/app.py" });
  assert.match(await page.locator(".permission .permission-review").innerText(), /open as a diff in the editor: app\.py/);
  // Answered in the editor: the host settles the card.
  await host(page, { type: "permissionDone", requestId: 9, optionId: "allow_once" });
  assert.equal(await page.locator(".permission.answered .tool-permission").innerText(), "✓ Accept");
  await page.close();
});

test("compaction shows a spinner, then before and after, with its summary as a summary", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, { sessionUpdate: "compaction_update", compactionId: "c9", status: "in_progress", tier: "full", trigger: "manual" });
  assert.equal(await page.locator(".compaction .spinner").count(), 1);
  await update(page, { sessionUpdate: "compaction_update", compactionId: "c9", status: "completed", tier: "full", trigger: "manual", tokensBefore: 120_000, tokensAfter: 9_000, summary: "## Primary request\nFix **calc.py**" });
  assert.equal(await page.locator(".compaction .spinner").count(), 0);
  assert.equal(await page.locator(".compaction .compaction-line").innerText(), "Compaction (full): 120K → 9K tokens, saved 111K");
  assert.equal(await page.locator(".compaction details.compaction-summary").evaluate((d) => (d as HTMLDetailsElement).open), false);
  assert.equal(await page.locator(".compaction-summary strong").textContent(), "calc.py");
  await page.close();
});

// ---- 6. header: mode, plan, MCP; hooks -----------------------------------------------------

test("the header shows the mode and posts setMode; /plan toggles plan mode; MCP status line; hook rows collapsed", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, { type: "modes", currentModeId: "default", availableModes: [
    { id: "default", name: "Default", description: "Ask before edits and shell" },
    { id: "acceptEdits", name: "Accept edits" }, { id: "plan", name: "Plan" }, { id: "bypassPermissions", name: "Bypass permissions" },
  ] });
  assert.equal(await page.inputValue("#mode"), "default");
  await page.selectOption("#mode", "acceptEdits");
  assert.deepEqual({ ...(await posted(page)).at(-1), seq: 0 }, { type: "setMode", modeId: "acceptEdits", seq: 0 });
  assert.equal(await page.inputValue("#mode"), "default", "the picker waits for the sidecar to confirm");
  await update(page, { sessionUpdate: "current_mode_update", currentModeId: "acceptEdits" });
  assert.equal(await page.inputValue("#mode"), "acceptEdits");
  await page.click("#plan");
  assert.equal((await posted(page)).at(-1).modeId, "plan");
  await update(page, { sessionUpdate: "current_mode_update", currentModeId: "plan" });
  assert.equal(await page.getAttribute("#plan", "aria-pressed"), "true");
  await page.click("#plan");
  assert.equal((await posted(page)).at(-1).modeId, "default");

  assert.equal(await page.locator("#mcp").isHidden(), true);
  await update(page, { sessionUpdate: "mcp_status_update", servers: [
    { name: "github", status: "connected", transport: "http", tools: ["search", "issue"] },
    { name: "db", status: "failed", transport: "stdio", tools: [], error: "exited with 1" },
  ] });
  assert.equal(await page.locator("#mcp").innerText(), "MCP: 1 connected · 1 failed");
  assert.match((await page.getAttribute("#mcp", "title")) ?? "", /db \(stdio\): failed · exited with 1/);

  await update(page, { sessionUpdate: "hook_result", event: "PreCompact", command: "./save-notes.sh", output: "saved 3 notes", exitCode: 0 });
  const hook = page.locator("details.hook");
  assert.equal(await hook.evaluate((d) => (d as HTMLDetailsElement).open), false);
  assert.equal((await hook.locator("summary").innerText()).replace(/\s+/g, " "), "Hook PreCompact ./save-notes.sh exit 0");
  assert.equal(await page.locator(".message.agent").count(), 0, "hook output is not assistant text");
  await page.close();
});

// ---- 7. replay renders as live ------------------------------------------------------------

const session = (replay: boolean): Record<string, unknown>[] => {
  const r = replay ? { replay: true } : {};
  return [
    { sessionUpdate: "user_message_chunk", content: { type: "text", text: "Fix calc.py" }, ...r },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Reading it." }, messageId: "a1", ...r },
    { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read calc.py", kind: "read", status: "pending", rawInput: { file_path: `${CWD}/calc.py` }, locations: [{ path: `${CWD}/calc.py` }], ...r },
    { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", rawOutput: { numLines: 19 }, content: [{ type: "content", content: { type: "text", text: "def add" } }], ...r },
    { sessionUpdate: "tool_call", toolCallId: "t2", title: "pytest", kind: "execute", status: "pending", rawInput: { command: "pytest -q" }, ...r },
    { sessionUpdate: "tool_call_update", toolCallId: "t2", status: "failed", rawOutput: { exitCode: 1 }, content: [{ type: "content", content: { type: "text", text: "1 failed" } }], permission: { optionId: "allow_once", name: "Allow once" }, ...r },
    { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed", tier: "full", trigger: "auto", tokensBefore: 160_000, tokensAfter: 12_000, summary: "The user asked to fix calc.py.", ...r },
    { sessionUpdate: "hook_result", event: "PostCompact", command: "echo done", output: "done", exitCode: 0, ...r },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Fixed." }, messageId: "a2", ...r },
  ];
};

test("a call known only from its final update still reads as one line", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "late", status: "completed", title: "Run the tests", kind: "execute", rawInput: { command: "pytest -q" }, rawOutput: { exitCode: 1 }, replay: true });
  assert.equal((await page.locator("details.tool > summary").innerText()).replace(/\s+/g, " "), "✓ Bash pytest -q · exit 1");
  await page.close();
});

test("a replayed session renders exactly as the live one did", { skip }, async () => {
  const shapes: string[] = [];
  for (const replay of [false, true]) {
    const page = await openView(browser);
    await host(page, running);
    const updates = session(replay);
    for (const u of updates) {
      await update(page, u);
      // Live, the permission was asked and answered before the call ended.
      if (!replay && u.toolCallId === "t2" && u.sessionUpdate === "tool_call") {
        await host(page, { type: "permission", requestId: 1, toolCall: { toolCallId: "t2", title: "pytest", kind: "execute", rawInput: { command: "pytest -q" } }, options: [{ optionId: "allow_once", name: "Allow once", kind: "allow_once" }] });
        await page.click(".permission button >> text=Allow once");
      }
    }
    await page.waitForSelector(".message.agent >> text=Fixed.");
    shapes.push(
      await page.evaluate(() => {
        const t = document.getElementById("transcript")!.cloneNode(true) as HTMLElement;
        return t.innerHTML;
      }),
    );
    if (replay) {
      assert.equal(await page.locator(".message.user").count(), 1, "the user's message is a user message");
      assert.equal(await page.locator(".message.user").innerText(), "Fix calc.py");
      assert.equal(await page.locator(".compaction").count(), 1, "compaction is a compaction row, not a message");
      assert.equal((await page.locator(".compaction-summary .markdown").textContent())?.trim(), "The user asked to fix calc.py.");
      assert.equal(await page.locator('details.tool[data-tool-call-id="t2"]').getAttribute("data-status"), "failed");
      assert.equal(await page.locator('details.tool[data-tool-call-id="t2"] .tool-permission').innerText(), "✓ Allow once");
      assert.equal(await page.locator(".permission").count(), 0);
    }
    await page.close();
  }
  assert.equal(shapes[1], shapes[0]);
});
