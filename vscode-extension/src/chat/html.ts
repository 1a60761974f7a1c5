// The chat webview's HTML shell. Pure, so the webview tests load exactly this document.
// The CSP allows nothing but the bundled script (by nonce) and stylesheet from the
// extension, and images from the extension or data: URIs; model output can therefore
// neither run script nor fetch anything, even if sanitizing ever let something through.

export interface ChatHtmlParts {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

export function makeNonce(random: (n: number) => Uint8Array): string {
  return Buffer.from(random(18)).toString("base64").replace(/[+/=]/g, "");
}

function attr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
}

export function chatHtml(p: ChatHtmlParts): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(p.cspSource, p.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(p.styleUri)}">
<title>Context Sidecar</title>
</head>
<body>
<header id="toolbar">
  <div class="toolbar-row">
    <button id="new" type="button" title="Start a new session">New</button>
    <button id="sessions" type="button" title="Resume, rename or delete an earlier session">Sessions</button>
    <button id="context" type="button" title="What is in the context window (/context)">Context</button>
    <button id="compact" type="button" title="Compact the conversation now (/compact [instructions])">Compact</button>
    <span class="spacer"></span>
    <span class="mode-group">
      <button id="plan" type="button" aria-pressed="false">/plan</button>
      <select id="mode" aria-label="Permission mode"></select>
    </span>
  </div>
  <div class="toolbar-row meta">
    <span id="title" class="title"></span>
    <button id="fork" type="button" class="session-chip" title="Fork: continue a copy of this conversation in a new session; this one stays under Sessions (/fork)" hidden>Fork</button>
    <button id="model" type="button" class="model-chip" title="Switch the model (Context Sidecar: Switch Model)" hidden></button>
    <button id="mcp" class="mcp link" type="button" aria-controls="mcp-list" aria-expanded="false" hidden></button>
  </div>
  <div id="mcp-list" class="mcp-list" role="group" aria-label="MCP servers" hidden></div>
</header>
<div id="trust-banner" class="trust-banner" role="status" hidden>
  <span class="trust-text">Restricted Mode: this folder's hooks, MCP servers and settings are not applied.</span>
  <button id="trust-manage" type="button" title="Open Workspace Trust to trust this folder">Manage Trust</button>
</div>
<div id="gauge" class="gauge" hidden>
  <div class="gauge-bar"><div class="gauge-fill"></div><div class="gauge-mark" hidden></div></div>
  <span class="gauge-text"></span>
</div>
<section id="sessions-view" class="view" hidden aria-label="Sessions"></section>
<section id="context-view" class="view" hidden aria-label="Context"></section>
<main id="transcript" aria-live="polite"></main>
<footer id="composer">
  <details id="tasks" class="tasks" aria-label="The model's task list" hidden></details>
  <div id="offer" class="offer" hidden></div>
  <div id="queued" class="queued" hidden></div>
  <div id="chips" class="chips" hidden></div>
  <div id="completions" class="completions" role="listbox" hidden></div>
  <textarea id="input" rows="3" placeholder="Ask the model… (@ adds a file, / runs a command; Enter sends, Shift+Enter adds a line)"></textarea>
  <div class="composer-actions">
    <span id="status" class="status"></span>
    <button id="cancel" type="button" title="Stop the running turn (Escape)" hidden>Stop</button>
    <button id="send" type="button" class="primary">Send</button>
  </div>
</footer>
<script nonce="${attr(p.nonce)}" src="${attr(p.scriptUri)}"></script>
</body>
</html>`;
}
