// The first prompt in VS Code against later ones: from Enter in the chat's box to the
// answer's first words in the panel, in code-server with the packaged extension, the real
// sidecar and the fake LLM. Each run is a fresh window (a new extension host, a new sidecar)
// whose chat is opened as soon as the workbench shows; then two more prompts in the same
// session show the floor. Runs alternate between two ways of writing the first prompt:
//   typed   at a fast typist's pace (TYPING_MS a key, about 200 words a minute), as a person
//           writes it into a window that just opened;
//   pasted  the moment the box takes it, the least time the sidecar could have had: the
//           prompt then waits for the sidecar's own cold start (bench_startup's "first
//           prompt's first token, from spawn").
//
//   node out-test/bench/firstPrompt.js [runs]   (CODE_SERVER, VSIX and PYTHON as for e2e;
//   BENCH_SHOW_LOG=1 also prints each window's sidecar channel)

import { CodeServerSession, skipReason } from "../support/codeServer";
import { startFakeLlm } from "../support/processes";

const KEY_ENV = "CONTEXT_SIDECAR_BENCH_KEY";
const PROMPTS = 3;
const TYPING_MS = 60;
const FIRST_PROMPT = "Summarize the README and list what app.py defines.";
type Mode = "typed" | "pasted";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const ms = (x: number): string => `${Math.round(x)} ms`;

interface Run {
  mode: Mode;
  workbenchToSent: number; // the window showing -> the first prompt sent
  latencies: number[]; // Enter -> first words, per prompt
}

async function openChat(cs: CodeServerSession) {
  const frame = cs.chat();
  if (!(await frame.locator("#input").isVisible().catch(() => false))) {
    // As a person does: the extension's icon in the activity bar, once the window shows it.
    await cs.page.locator('.activitybar .action-item a[aria-label^="Context Sidecar"]').click({ timeout: 60_000 });
  }
  await frame.locator("#input").waitFor({ timeout: 60_000 });
  return frame;
}

/** One request through the fake before the runs: its first validation builds the SDK's
 * request types, which no run's first prompt should pay for. */
async function warmFake(url: string, queue: (replies: unknown[]) => Promise<void>): Promise<void> {
  await queue([{ content: [{ type: "text", text: "warm" }] }]);
  const response = await fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "bench-key", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "claude-haiku-4-5", max_tokens: 64, messages: [{ role: "user", content: "hi" }] }),
  });
  if (!response.ok) throw new Error(`warming the fake: ${response.status} ${await response.text()}`);
}

async function oneRun(mode: Mode, fakeUrl: string, queue: (replies: unknown[]) => Promise<void>): Promise<Run> {
  const cs = new CodeServerSession();
  try {
    await queue(Array.from({ length: PROMPTS }, (_, i) => ({
      content: [{ type: "text", text: `Answer number ${i + 1} is here.` }],
    })));
    await cs.start(
      { "contextSidecar.baseUrl": fakeUrl, "contextSidecar.model": "claude-haiku-4-5", "contextSidecar.apiKeyEnv": KEY_ENV },
      { [KEY_ENV]: "bench-key" },
    );
    const shown = Date.now();
    const latencies: number[] = [];
    let workbenchToSent = 0;
    for (let i = 1; i <= PROMPTS; i++) {
      const frame = await openChat(cs);
      await frame.locator("#send:not([disabled])").waitFor({ timeout: 120_000 });
      if (i === 1 && mode === "typed") {
        await frame.locator("#input").pressSequentially(FIRST_PROMPT, { delay: TYPING_MS });
      } else {
        await frame.locator("#input").fill(i === 1 ? FIRST_PROMPT : `Question ${i}?`);
      }
      const answer = frame.locator(".message.agent .markdown", { hasText: `Answer number ${i}` }).first();
      const sent = Date.now();
      if (i === 1) workbenchToSent = sent - shown;
      await frame.locator("#input").press("Enter");
      await answer.waitFor({ timeout: 120_000 });
      latencies.push(Date.now() - sent);
      // The turn's end, so the next prompt is not queued behind it.
      await frame.locator("#send:not([disabled])").waitFor({ timeout: 120_000 });
    }
    if (process.env.BENCH_SHOW_LOG) console.log(cs.channelLogs());
    return { mode, workbenchToSent, latencies };
  } finally {
    await cs.stop();
  }
}

async function main(): Promise<number> {
  const skip = skipReason();
  if (skip) {
    console.log(`bench firstPrompt skipped: ${skip}`);
    return 0;
  }
  const runs = Number(process.argv[2] ?? 3); // of each mode
  const fake = await startFakeLlm();
  const results: Run[] = [];
  try {
    await warmFake(fake.url, fake.queue);
    await fake.reset();
    for (let r = 0; r < runs; r++) {
      for (const mode of ["typed", "pasted"] as const) {
        const run = await oneRun(mode, fake.url, fake.queue);
        results.push(run);
        console.log(`   run ${r + 1} ${mode.padEnd(6)}: window shown -> first prompt sent ${ms(run.workbenchToSent)}; ` +
          `Enter -> first words: ${run.latencies.map(ms).join(", ")}`);
      }
    }
    const violations = await fake.violations();
    if (violations.length) {
      console.log(`   the fake refused requests: ${violations.join("; ")}`);
      return 1;
    }
  } finally {
    await fake.stop();
  }
  const later = median(results.flatMap((r) => r.latencies.slice(1)));
  console.log(`   later prompts: median ${ms(later)} (${runs * 2 * (PROMPTS - 1)} prompts)`);
  for (const mode of ["typed", "pasted"] as const) {
    const first = median(results.filter((r) => r.mode === mode).map((r) => r.latencies[0]));
    console.log(`   first prompt ${mode.padEnd(6)}: median ${ms(first)} | first - later: ${ms(first - later)}` +
      (mode === "typed" ? " (target: within 500 ms)" : " (the sidecar's cold start; no target)"));
  }
  return 0;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
