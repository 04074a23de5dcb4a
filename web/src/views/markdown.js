// Model output to safe HTML: markdown-it with raw HTML off (its link validator refuses javascript:,
// vbscript: and data: links), code blocks highlighted by highlight.js (which escapes what it wraps).
// Links open in a new tab without referrer and show where they go; images are never loaded
// automatically (the markdown-image exfiltration attack): they render as a button that opens the
// image in a new tab when the user clicks it.
// A streaming message is rendered as a list of top-level blocks, so the view replaces only the blocks
// that changed (the tail); highlighted code is remembered, so a finished block is not highlighted again.
import MarkdownIt from "markdown-it";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";

/** @import { Renderer, RendererRule, Token } from "markdown-it" */

const LANGUAGES = { bash, css, diff, javascript, json, markdown, python, typescript, xml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
hljs.registerAliases(["sh", "shell", "console"], { languageName: "bash" });
hljs.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
hljs.registerAliases(["ts", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });
hljs.registerAliases(["py"], { languageName: "python" });

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, highlight });

const HIGHLIGHTED_KEPT = 64;
/** @type {Map<string, string>} */
const highlighted = new Map(); // "lang\0code" -> html, the most recently used last

/** @param {string} code @param {string} lang */
function highlight(code, lang) {
  const name = (lang || "").toLowerCase();
  if (!hljs.getLanguage(name)) return ""; // markdown-it escapes it as plain text
  const key = `${name}\0${code}`;
  let html = highlighted.get(key);
  if (html === undefined) html = hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  highlighted.delete(key);
  highlighted.set(key, html);
  if (highlighted.size > HIGHLIGHTED_KEPT) highlighted.delete(/** @type {string} */ (highlighted.keys().next().value));
  return html;
}

/** The link targets of the open links, innermost last. @typedef {{linkTargets?: string[]} & Record<string, any>} LinkEnv */

/** A link rule, given the env that `render` and `renderBlocks` always pass (markdown-it types it optional).
 * @typedef {(tokens: Token[], idx: number, options: Parameters<RendererRule>[2], env: LinkEnv, self: Renderer) => string} LinkRule */

/** @type {Record<string, LinkRule>} */ (md.renderer.rules).link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const href = /** @type {string} */ (token.attrGet("href") || "");
  token.attrSet("target", "_blank");
  token.attrSet("rel", "noopener noreferrer");
  token.attrSet("title", href);
  env.linkTargets = [...(env.linkTargets || []), token.markup === "linkify" || token.markup === "autolink" ? "" : href];
  return self.renderToken(tokens, idx, options);
};

/** @type {Record<string, LinkRule>} */ (md.renderer.rules).link_close = (tokens, idx, options, env, self) => {
  const href = env.linkTargets?.pop();
  const shown = href ? `<span class="link-target"> (${md.utils.escapeHtml(linkHost(href))})</span>` : "";
  return self.renderToken(tokens, idx, options) + shown;
};

md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  const src = md.utils.escapeHtml(/** @type {string} */ (token.attrGet("src") || ""));
  const alt = md.utils.escapeHtml(token.content || "image");
  return `<button type="button" class="remote-image" data-src="${src}" title="Open ${src} in a new tab">Image not loaded: ${alt} (${src}) — click to open</button>`;
};

/** @param {string} href */
function linkHost(href) {
  try {
    const url = new URL(href);
    return url.protocol === "http:" || url.protocol === "https:"
      ? url.host + (url.pathname === "/" ? "" : url.pathname)
      : href;
  } catch {
    return href;
  }
}

/** @param {string} text */
export function renderMarkdown(text) {
  return md.render(text, {});
}

/** The HTML of each top-level block of `text`, in order; joined they are `renderMarkdown(text)` (up to
 * the line breaks between blocks). The whole text is parsed each time, so link references defined
 * anywhere still apply.
 * @param {string} text */
export function renderBlocks(text) {
  const env = {};
  const tokens = md.parse(text, env);
  const blocks = [];
  let start = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.level !== 0 || token.nesting === 1) continue; // a top-level block ends at level 0
    blocks.push(md.renderer.render(tokens.slice(start, i + 1), md.options, env));
    start = i + 1;
  }
  return blocks;
}

// Rendering once ahead of the first answer compiles the parser's, the highlighter's and the DOM
// parser's code paths, which otherwise cost the first streamed chunk several milliseconds.
const WARM_UP_TEXT =
  "# A\n\nSome *text* with [a link](https://example.com) and `code`.\n\n- one\n- two\n\n```js\nconst a = 1;\n```\n";

/** Render a small sample once, when the page is idle. */
export function warmUp() {
  const template = document.createElement("template");
  template.innerHTML = renderBlocks(WARM_UP_TEXT).join("");
}
