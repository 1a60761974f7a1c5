// Line diffs for edit rows and edit permission cards: counts (+a −r) and a compact view
// of the changed lines with a little context, grouped in hunks.

export interface DiffLine {
  op: " " | "+" | "-";
  text: string;
}

function lines(text: string | null | undefined): string[] {
  if (!text) return [];
  const out = text.split("\n");
  if (out.at(-1) === "") out.pop();
  return out;
}

/** Longest-common-subsequence cells allowed before the middle is shown as replaced whole. */
const MAX_CELLS = 4_000_000;

/** The line diff of two texts (old null or empty: a new file, every line added). */
export function diffLines(oldText: string | null | undefined, newText: string | null | undefined): DiffLine[] {
  const a = lines(oldText);
  const b = lines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffLine[] = a.slice(0, start).map((text) => ({ op: " ", text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_CELLS) {
    for (const text of midA) out.push({ op: "-", text });
    for (const text of midB) out.push({ op: "+", text });
  } else {
    // lcs[i][j]: length of the LCS of midA[i..] and midB[j..].
    const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        out.push({ op: " ", text: midA[i]! });
        i++;
        j++;
      } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
        // Removed lines before the lines that replace them, as unified diffs show them.
        out.push({ op: "-", text: midA[i]! });
        i++;
      } else {
        out.push({ op: "+", text: midB[j]! });
        j++;
      }
    }
  }
  for (const text of a.slice(endA)) out.push({ op: " ", text });
  return out;
}

export function diffCounts(diff: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff) {
    if (line.op === "+") added++;
    else if (line.op === "-") removed++;
  }
  return { added, removed };
}

export type CompactLine = DiffLine | { op: "…"; text: string };

/** The changed lines with `context` unchanged lines around each, gaps shown as one marker. */
export function compactDiff(diff: DiffLine[], context = 2, maxLines = 60): CompactLine[] {
  const keep = new Array<boolean>(diff.length).fill(false);
  diff.forEach((line, i) => {
    if (line.op === " ") return;
    for (let k = Math.max(0, i - context); k <= Math.min(diff.length - 1, i + context); k++) keep[k] = true;
  });
  const out: CompactLine[] = [];
  let skipped = 0;
  diff.forEach((line, i) => {
    if (!keep[i]) {
      skipped++;
      return;
    }
    if (skipped) out.push({ op: "…", text: `${skipped} unchanged line${skipped === 1 ? "" : "s"}` });
    skipped = 0;
    out.push(line);
  });
  if (skipped && out.length) out.push({ op: "…", text: `${skipped} unchanged line${skipped === 1 ? "" : "s"}` });
  if (out.length > maxLines) {
    const rest = out.length - maxLines;
    return [...out.slice(0, maxLines), { op: "…", text: `${rest} more line${rest === 1 ? "" : "s"}` }];
  }
  return out;
}
