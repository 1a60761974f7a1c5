// Model output to safe HTML: marked for markdown, DOMPurify for sanitizing, highlight.js
// for code. Everything is bundled; the webview loads nothing from the network.

import DOMPurify from "dompurify";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import lua from "highlight.js/lib/languages/lua";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { Marked } from "marked";

const languages = {
  bash, c, cpp, css, diff, go, java, javascript, json, lua, markdown, python, rust, sql, typescript, xml, yaml,
};
for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);
hljs.registerAliases(["sh", "shell", "zsh", "console"], { languageName: "bash" });
hljs.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
hljs.registerAliases(["ts", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["py"], { languageName: "python" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });
hljs.registerAliases(["yml"], { languageName: "yaml" });
hljs.registerAliases(["rs"], { languageName: "rust" });

const marked = new Marked({ gfm: true, breaks: false, async: false });

export function markdownToSafeHtml(text: string): string {
  const html = marked.parse(text) as string;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
    FORBID_ATTR: ["style"],
  });
}

/** Highlights code blocks that were not highlighted yet (streamed blocks re-render often). */
export function highlightWithin(root: HTMLElement): void {
  for (const code of Array.from(root.querySelectorAll<HTMLElement>("pre code"))) {
    if (code.dataset.highlighted === "yes") continue;
    const lang = /language-([\w+-]+)/.exec(code.className)?.[1];
    if (lang && hljs.getLanguage(lang)) hljs.highlightElement(code);
    else code.dataset.highlighted = "yes";
  }
}

function toolbarButton(action: string, label: string, title: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "code-action";
  b.dataset.codeAction = action;
  b.textContent = label;
  b.title = title;
  return b;
}

/** Wraps each code block in one frame with its language and Copy / Insert / Apply buttons
 *  (the panel handles their clicks by delegation; the buttons carry no handlers). */
export function decorateCodeBlocks(root: HTMLElement): void {
  for (const pre of Array.from(root.querySelectorAll<HTMLElement>("pre"))) {
    if (pre.parentElement?.classList.contains("code-block")) continue;
    const code = pre.querySelector("code");
    const lang = code ? /language-([\w+-]+)/.exec(code.className)?.[1] : undefined;
    const frame = document.createElement("div");
    frame.className = "code-block";
    if (lang) frame.dataset.language = lang;
    const header = document.createElement("div");
    header.className = "code-header";
    const label = document.createElement("span");
    label.className = "code-lang";
    label.textContent = lang ?? "text";
    header.append(
      label,
      toolbarButton("copy", "Copy", "Copy to the clipboard"),
      toolbarButton("insert", "Insert", "Insert at the cursor in the editor"),
      toolbarButton("apply", "Apply", "Apply to the active file (review the diff)"),
    );
    pre.replaceWith(frame);
    frame.append(header, pre);
  }
}

/** Renders markdown into an element. */
export function renderMarkdown(into: HTMLElement, text: string): void {
  into.innerHTML = markdownToSafeHtml(text);
  highlightWithin(into);
  decorateCodeBlocks(into);
}
