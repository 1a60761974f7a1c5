// Ranks workspace paths for `@` completion: a match in the file name beats one in the folder,
// a prefix beats a substring, and every character of the query must appear in order.

export function fileScore(relPath: string, query: string): number {
  const q = query.toLowerCase().replace(/^@/, "");
  if (!q) return 1;
  const p = relPath.toLowerCase();
  const base = p.slice(p.lastIndexOf("/") + 1);
  if (base.startsWith(q)) return 100 - Math.min(base.length - q.length, 50) / 100;
  if (base.includes(q)) return 80;
  if (p.startsWith(q)) return 70;
  if (p.includes(q)) return 60;
  // Subsequence: "ctrl" matches "controller.ts".
  let i = 0;
  for (const ch of p) if (ch === q[i]) i++;
  return i === q.length ? 20 : 0;
}

export function rankFiles(paths: string[], query: string, limit = 20): string[] {
  return paths
    .map((p) => ({ p, s: fileScore(p, query) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.p.length - b.p.length || a.p.localeCompare(b.p))
    .slice(0, limit)
    .map((x) => x.p);
}

/** Either case of a letter, as a glob class: globs match case-sensitively on Linux. */
function anyCase(ch: string): string {
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  return lower === upper ? ch : `[${lower}${upper}]`;
}

/** The glob workspace.findFiles gets for a query: file names holding its characters in order. */
export function queryGlob(query: string): string {
  const q = query.replace(/^@/, "").replace(/[{}[\]*?!]/g, "");
  // The file-name part narrows the search; ranking does the rest.
  const last = q.slice(q.lastIndexOf("/") + 1);
  if (!last) return "**/*";
  return `**/*${[...last].map(anyCase).join("*")}*`;
}
