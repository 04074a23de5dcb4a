// Model output to safe HTML: markdown-it with raw HTML off (its link validator refuses javascript:,
// vbscript: and data: links). Links open in a new tab without referrer; images are never loaded
// automatically (the markdown-image exfiltration attack): they render as a click-to-load button.
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  token.attrSet("target", "_blank");
  token.attrSet("rel", "noopener noreferrer");
  token.attrSet("title", token.attrGet("href") || "");
  return self.renderToken(tokens, idx, options);
};

md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  const src = md.utils.escapeHtml(token.attrGet("src") || "");
  const alt = md.utils.escapeHtml(token.content || "image");
  return `<button type="button" class="remote-image" data-src="${src}" title="${src}">Load image: ${alt}</button>`;
};

export function renderMarkdown(text) {
  return md.render(text);
}
