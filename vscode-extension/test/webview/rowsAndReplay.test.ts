// The chat panel's behaviour, one test per thing users asked for (rowsAndReplay); the harness
// drives the real bundle in Chromium.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { CWD, host, launchChromium, openView, posted, postedOf, running, skip, text, update } from "./harness";

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
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

test("a compaction row that appears is scrolled into view, wherever the reader was; a replayed one is not", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  for (let i = 0; i < 30; i++) await update(page, text(`Paragraph ${i}\n\n${"words ".repeat(40)}`, `m${i}`));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.evaluate(() => document.getElementById("transcript")!.scrollTo(0, 0));
  const inView = (selector: string) =>
    page.locator(selector).last().evaluate((row) => {
      const t = document.getElementById("transcript")!.getBoundingClientRect();
      const r = row.getBoundingClientRect();
      return r.top >= t.top - 1 && r.bottom <= t.bottom + 1;
    });
  await update(page, { sessionUpdate: "compaction_update", compactionId: "old", status: "completed", tier: "full", trigger: "auto", tokensBefore: 9, tokensAfter: 3, replay: true });
  assert.equal(await inView(".compaction"), false, "a replayed row leaves the reader where they were");
  await update(page, { sessionUpdate: "compaction_update", compactionId: "c2", status: "in_progress", tier: "full", trigger: "manual" });
  assert.equal(await inView(".compaction"), true, "the new compaction row is not below the fold");
  await page.close();
});

test("a compaction's summary renders as markdown: its numbered sections are a list", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  const sections = "1. Primary Request and Intent:\n   Fix the rounding in `calc.py`.\n2. Key Technical Concepts:\n   - Python\n   - decimal\n3. Pending Tasks:\n   None.";
  // As the summarizer wrote it (tags and all, as a provider's compaction block keeps them), and bare.
  const tagged = `<analysis>\nRead the turns in order.\n</analysis>\n<summary>\n${sections}\n</summary>`;
  for (const [id, summary] of [["c10", tagged], ["c11", sections]] as const) {
    await update(page, { sessionUpdate: "compaction_update", compactionId: id, status: "completed", tier: "full", trigger: "auto", tokensBefore: 150_000, tokensAfter: 12_000, summary });
    const body = page.locator(".compaction").last().locator(".compaction-summary .markdown");
    assert.equal(await body.locator("ol > li").count(), 3, `${id}: ${await body.innerHTML()}`);
    assert.equal(await body.locator("ol > li").nth(1).locator("ul > li").count(), 2);
    assert.equal(await body.locator("code").first().textContent(), "calc.py");
    assert.doesNotMatch(await body.innerText(), /Read the turns|<\/?summary>/, "the scratchpad and the tags are not shown");
  }
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
  assert.equal(await page.locator("#mcp").innerText(), "MCP: 2 tools · 1 failed");
  assert.match((await page.getAttribute("#mcp", "title")) ?? "", /db: failed: exited with 1/);

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
