// The content blocks of one prompt: the typed text, then what the user attached (a file as
// `resource_link`, which the sidecar reads with its file tool and records as read; a
// selection as `resource` with its text), then the editor's context when the user asked for
// it (docs/protocol.md, "ContentBlock").

import type { Attachment } from "../shared/messages";
import type { ContentBlock } from "../shared/protocol";

export function attachmentBlock(a: Attachment): ContentBlock {
  if (a.kind === "selection" && typeof a.text === "string") {
    return { type: "resource", resource: { uri: selectionUri(a.uri, a.lines), text: a.text } };
  }
  return { type: "resource_link", uri: a.uri, name: a.label };
}

/** A selection's URI names its lines the way editors link them: file:///a.ts#L12-20. */
export function selectionUri(uri: string, lines?: [number, number]): string {
  if (!lines) return uri;
  const [first, last] = lines;
  return `${uri}#L${first}${last !== first ? `-${last}` : ""}`;
}

export function promptBlocks(text: string, attachments: readonly Attachment[], editor: readonly ContentBlock[]): ContentBlock[] {
  const blocks: ContentBlock[] = [{ type: "text", text }];
  const seen = new Set<string>();
  const add = (b: ContentBlock) => {
    const key = b.type === "resource_link" ? `link:${b.uri}` : b.type === "resource" ? `res:${b.resource.uri}` : "";
    if (key && seen.has(key)) return;
    if (key) seen.add(key);
    blocks.push(b);
  };
  for (const a of attachments) add(attachmentBlock(a));
  for (const b of editor) add(b);
  return blocks;
}
