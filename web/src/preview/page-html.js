// The entry HTML of a preview with its references turned into keys (resolve.js), line for line: the
// text is edited in place, never re-serialised, so an error in an inline script keeps its line number.
import { keyOf, rewriteCss, rewriteImports, workspacePath } from "./resolve.js";

const BLOCK = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;
const TAG = /<(link|img|source|video|audio|iframe|embed|track|input|object)\b[^>]*>/gi;
const URL_ATTR = /(\s(?:src|href|poster|data)\s*=\s*)(["']?)([^"'\s>]+)\2/gi;
const SRCSET = /(\ssrcset\s*=\s*)(["'])([^"']*)\2/gi;
const STYLE_ATTR = /(\sstyle\s*=\s*)(["'])([^"']*)\2/gi;

// -> {html, scripts: [{key, module}], imports: Set<key>, computed}: the module entry points the page names,
// and whether an inline module has a computed import() (then every script may be imported).
export function rewriteHtml(html, from, has, missing) {
  const scripts = [];
  const imports = new Set();
  const ref = (value) => {
    const path = workspacePath(value, from);
    if (path === null) return null;
    if (!has(path)) missing(`${from}: cannot find "${value}" (${path})`);
    return keyOf(path);
  };
  const attrs = (text) =>
    text
      .replace(URL_ATTR, (whole, head, quote, value) => {
        const key = ref(value);
        return key ? `${head}${quote}${key}${quote}` : whole;
      })
      .replace(SRCSET, (_whole, head, quote, value) => `${head}${quote}${srcset(value, ref)}${quote}`)
      .replace(
        STYLE_ATTR,
        (_whole, head, quote, value) => `${head}${quote}${rewriteCss(value, from, has, missing)}${quote}`,
      );
  const context = { attrs, from, has, missing, scripts, imports, computed: false };
  const pieces = [];
  let at = 0;
  for (const match of html.matchAll(BLOCK)) {
    pieces.push(rewriteTags(html.slice(at, match.index), attrs));
    pieces.push(block(match, context));
    at = match.index + match[0].length;
  }
  pieces.push(rewriteTags(html.slice(at), attrs));
  return { html: pieces.join(""), scripts, imports, computed: context.computed };
}

function rewriteTags(text, attrs) {
  return text.replace(TAG, (tag) => attrs(tag));
}

function block([whole, name, attributes, body], context) {
  const { attrs, from, has, missing, scripts, imports } = context;
  if (name.toLowerCase() === "style") {
    return `<${name}${attrs(attributes)}>${rewriteCss(body, from, has, missing)}</${name}>`;
  }
  const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase() || "";
  const module = type === "module";
  if (type && !module && !/javascript|ecmascript/.test(type)) return whole; // JSON, templates, importmap...
  const rewritten = attrs(attributes);
  const src = /\ssrc\s*=\s*["']?(agentlite-ws:[^"'\s>]+)/i.exec(rewritten)?.[1];
  if (src) scripts.push({ key: src, module });
  let code = body;
  if (module && !src && body.trim()) {
    try {
      const computed = () => (context.computed = true);
      code = rewriteImports(body, from, has, { missing, imports, meta: true, computed });
    } catch {
      code = body; // the browser reports the syntax error itself
    }
  }
  return `<${name}${rewritten}>${code}</${name}>`;
}

function srcset(value, ref) {
  return value
    .split(",")
    .map((part) => {
      const [url, ...rest] = part.trim().split(/\s+/);
      const key = url ? ref(url) : null;
      return [key || url, ...rest].join(" ");
    })
    .join(", ");
}
