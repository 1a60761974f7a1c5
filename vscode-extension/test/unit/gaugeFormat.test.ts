import assert from "node:assert/strict";
import { test } from "node:test";
import { GaugeTracker, formatPercent, formatTokens, gaugeColor, gaugeText, gaugeTooltipMarkdown } from "../../src/status/gaugeFormat";
import { gauge } from "./fixtures";

test("formatTokens abbreviates to one decimal and drops a zero decimal", () => {
  assert.equal(formatTokens(0), "0");
  assert.equal(formatTokens(999), "999");
  assert.equal(formatTokens(1_000), "1K");
  assert.equal(formatTokens(1_050), "1.1K");
  assert.equal(formatTokens(142_300), "142.3K");
  assert.equal(formatTokens(200_000), "200K");
  assert.equal(formatTokens(999_949), "999.9K");
  assert.equal(formatTokens(999_960), "1M");
  assert.equal(formatTokens(1_000_000), "1M");
  assert.equal(formatTokens(1_250_000), "1.3M");
  assert.equal(formatTokens(-2_500), "-2.5K");
  assert.equal(formatTokens(Number.NaN), "?");
});

test("formatPercent floors, so 71.9% never reads as 72% before it is", () => {
  assert.equal(formatPercent(71.15), "71%");
  assert.equal(formatPercent(71.99), "71%");
  assert.equal(formatPercent(0), "0%");
  assert.equal(formatPercent(0.2), "<1%");
  assert.equal(formatPercent(100), "100%");
});

test("gaugeText is used / size · percentUsed", () => {
  assert.equal(gaugeText(gauge()), "142.3K / 200K · 71%");
  assert.equal(gaugeText(gauge({ used: 12_000, size: 1_000_000, percentUsed: 1.2 })), "12K / 1M · 1%");
  // A gauge without percentUsed still says something true.
  assert.equal(gaugeText({ used: 50_000, size: 200_000, percentUsed: Number.NaN }), "50K / 200K · 25%");
});

test("gaugeColor maps levels onto the status bar's two alert colours", () => {
  assert.equal(gaugeColor("ok"), undefined);
  assert.equal(gaugeColor("warning"), "warning");
  assert.equal(gaugeColor("error"), "error");
  assert.equal(gaugeColor("blocking"), "error");
  assert.equal(gaugeColor("something-new"), undefined);
});

test("the tooltip names the threshold, breakdown, source, compactions and breaker", () => {
  const md = gaugeTooltipMarkdown(gauge());
  assert.match(md, /\*\*Context: 142\.3K \/ 200K · 71%\*\* \(ok\)/);
  assert.match(md, /\| Auto-compact at \| 167,000 \(14% left\) \|/);
  assert.match(md, /\| Tool results \| 36,100 \|/);
  assert.match(md, /\| Reserved for output \| 20,000 \|/);
  assert.match(md, /Source: Counted by the provider/);
  assert.match(md, /Compactions: 3 \(session_memory 1, full 2\)/);
  assert.match(md, /circuit breaker closed/);
  assert.match(md, /Cost so far: 0\.4213 USD/);

  const off = gaugeTooltipMarkdown(gauge({ autoCompactAt: null, source: "estimate", autoCompact: { enabled: false, circuitBreaker: "open", consecutiveFailures: 3 } }));
  assert.match(off, /\| Auto-compact \| off \|/);
  assert.match(off, /Source: Estimated/);
  assert.match(off, /circuit breaker \*\*open\*\* after 3 failures/);
});

test("GaugeTracker drops stale seqs and other sessions' gauges", () => {
  const t = new GaugeTracker();
  assert.equal(t.offer(gauge()), false, "nothing is accepted before a session is focused");
  t.setSession("s-1");
  assert.equal(t.offer(gauge({ seq: 5, used: 1_000 })), true);
  assert.equal(t.offer(gauge({ seq: 4, used: 9_000 })), false);
  assert.equal(t.gauge?.used, 1_000);
  assert.equal(t.offer(gauge({ seq: 5, used: 1_200 })), true, "an equal seq is the same state, re-sent");
  assert.equal(t.offer(gauge({ sessionId: "other", seq: 99 })), false);
  assert.equal(t.offer(gauge({ seq: 6, used: 2_000 })), true);
  t.setSession("s-2");
  assert.equal(t.gauge, undefined);
  assert.equal(t.offer(gauge({ sessionId: "s-2", seq: 1 })), true, "seq numbering is per session");
});
