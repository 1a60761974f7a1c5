// Bundles the extension host code, the webview, and (with --tests) the test files.
//   node scripts/build.mjs [--production] [--tests]
import { build } from "esbuild";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const production = process.argv.includes("--production");
const withTests = process.argv.includes("--tests");
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: "warning", absWorkingDir: root };

const started = Date.now();
await Promise.all([
  build({
    ...common,
    entryPoints: ["src/extension.ts"],
    outfile: "dist/extension.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
  }),
  build({
    ...common,
    entryPoints: { webview: "webview/main.ts" },
    outdir: "dist",
    platform: "browser",
    format: "iife",
    target: "es2022",
  }),
  build({ ...common, entryPoints: { webview: "webview/style.css" }, outdir: "dist", sourcemap: false }),
]);

if (withTests) {
  const layers = ["unit", "webview", "protocol", "e2e"];
  const entryPoints = [
    ...layers.flatMap((layer) =>
      readdirSync(join(root, "test", layer))
        .filter((f) => f.endsWith(".test.ts"))
        .map((f) => ({ in: `test/${layer}/${f}`, out: `${layer}/${f.replace(/\.ts$/, "")}` })),
    ),
    // Benchmarks: programs that print figures (tests/bench/bench_vscode_first_prompt.py runs them).
    ...readdirSync(join(root, "test", "bench"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => ({ in: `test/bench/${f}`, out: `bench/${f.replace(/\.ts$/, "")}` })),
  ];
  await build({
    ...common,
    sourcemap: true,
    entryPoints,
    outdir: "out-test",
    platform: "node",
    format: "cjs",
    target: "node20",
    // The unit layer runs host code with the `vscode` module replaced by a recording fake.
    alias: { vscode: "./test/mocks/vscode.ts" },
    external: ["playwright-core", "vscode-jsonrpc", "vscode-jsonrpc/*"],
  });
}
console.log(`built in ${Date.now() - started} ms${withTests ? " (with tests)" : ""}`);
