// Gauge payloads shaped as docs/protocol.md's Gauge section describes them.
import type { Gauge } from "../../src/shared/protocol";

export function gauge(overrides: Partial<Gauge> = {}): Gauge {
  const used = overrides.used ?? 142_300;
  const size = overrides.size ?? 200_000;
  return {
    sessionId: "s-1",
    seq: 1,
    model: "claude-sonnet-5-5",
    provider: "anthropic",
    used,
    size,
    effectiveWindow: 180_000,
    autoCompactAt: 167_000,
    warningAt: 147_000,
    errorAt: 147_000,
    blockingAt: 177_000,
    percentUsed: (used / size) * 100,
    percentLeftUntilAutoCompact: ((167_000 - used) / 167_000) * 100,
    level: "ok",
    source: "provider",
    anchor: { apiTokens: 140_000, estimatedSince: 2_300, messagesSince: 1 },
    breakdown: { system: 3_000, tools: 12_000, memoryFiles: 1_200, messages: 90_000, toolResults: 36_100, summary: 0, free: 37_700, reservedOutput: 20_000 },
    lastTurn: { inputTokens: 12, cacheReadTokens: 139_000, cacheWriteTokens: 988, outputTokens: 400 },
    cost: { amount: 0.4213, currency: "USD" },
    compactions: { session_memory: 1, full: 2 },
    autoCompact: { enabled: true, circuitBreaker: "closed", consecutiveFailures: 0 },
    ...overrides,
  };
}
