// `@path` in a prompt names a workspace file: the composer completes it, and the prompt
// carries the file as a `resource_link` the sidecar reads with its file tool (a mention
// that only showed text would reach the model as the bare name). Only regular files inside
// the workspace count; `@` elsewhere (an email, a decorator) stays text.

import { promises as fs } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const MENTION = /(^|\s)@((?:[^\s@\\]|\\ )+)/g;

/** The candidate paths a prompt mentions, in order, without trailing punctuation. */
export function mentionedPaths(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const raw = match[2]!.replace(/\\ /g, " ").replace(/[.,;:!?)\]]+$/, "");
    if (raw && !out.includes(raw)) out.push(raw);
  }
  return out;
}

export interface MentionedFile {
  uri: string;
  label: string;
}

/** The mentioned paths that are regular files inside ``root`` (symlinks followed). */
export async function mentionedFiles(text: string, root: string): Promise<MentionedFile[]> {
  const out: MentionedFile[] = [];
  const mentions = mentionedPaths(text);
  if (!mentions.length) return out;
  let realRoot: string;
  try {
    realRoot = await fs.realpath(root);
  } catch {
    return out;
  }
  for (const mention of mentions) {
    const full = path.resolve(root, mention);
    try {
      const real = await fs.realpath(full);
      const inside = real === realRoot || real.startsWith(realRoot + path.sep);
      if (!inside || !(await fs.stat(real)).isFile()) continue;
    } catch {
      continue;
    }
    out.push({ uri: pathToFileURL(full).href, label: path.relative(root, full) });
  }
  return out;
}
