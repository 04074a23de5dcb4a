// Runs the preview's HTML scans (web/src/preview/page/html-scan.js, and rewriteHtml over them) under Node for
// tests/page/test_html_scan.py. Prints one JSON object:
// - `differ`: random pages on which a scan finds something else than the regular expression it replaces
//   (the first few, with what each found);
// - `work`: for each hostile page family, the characters the scans looked at for n and for 10 n pieces.
import * as guard from "../../web/src/preview/page/loop-guard.js";
import { replaceMarkup, replaceMediaTags, scriptBlocks } from "../../web/src/preview/page/html-scan.js";
import { rewriteHtml } from "../../web/src/preview/page/page-html.js";

const BLOCK = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;
const TAG = /<(link|img|source|video|audio|iframe|embed|track|input|object)\b[^>]*>/gi;
const MARKUP =
  /<!--[\s\S]*?-->|<[a-zA-Z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g;
const PIECES = [
  "<script", "<SCRIPT", "<style", "<img", "<input", "<a", "<b", ">", "/>", "</script>", "</Script  >", "</style>",
  "<!--", "-->", " ", "\n", "a", "x", "=", '"', "'", "/", "-", "src=", "on", "`", "<",
];

let seed = 7;
const random = (below) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % below;
};
const page = () => Array.from({ length: random(24) }, () => PIECES[random(PIECES.length)]).join("");

const differ = [];
for (let n = 0; n < 20000; n += 1) {
  const html = page();
  const expected = {
    blocks: [...html.matchAll(BLOCK)].map((m) => [m.index, m[0], m[1], m[2], m[3]]),
    tags: html.replace(TAG, (tag) => `[${tag}]`),
    markup: html.replace(MARKUP, (tag, at) => `[${at}:${tag}]`),
  };
  const found = {
    blocks: scriptBlocks(html).map((b) => [b.index, b.whole, b.name, b.attributes, b.body]),
    tags: replaceMediaTags(html, (tag) => `[${tag}]`),
    markup: replaceMarkup(html, (tag, at) => `[${at}:${tag}]`),
  };
  if (JSON.stringify(found) !== JSON.stringify(expected) && differ.length < 5) differ.push({ html, found, expected });
}

const FAMILIES = {
  "an unclosed <script>": (n) => `<script>${"a".repeat(n)}`,
  "<script openers without >": (n) => "<script ".repeat(n),
  "<script> openers never closed": (n) => "<script>x".repeat(n),
  "<script> closed by </style>": (n) => "<script>x</style>".repeat(n),
  "a <script attribute run": (n) => `<script ${"a ".repeat(n)}`,
  "an <img attribute run": (n) => `<img ${"a=b ".repeat(n)}`,
  "tags inside attribute names": (n) => "<a <a ".repeat(n),
  "tag names without end": (n) => "<a".repeat(n),
  "unclosed quotes": (n) => '<a x="'.repeat(n),
  "quotes of both kinds": (n) => `<a x='"<b y="'`.repeat(n),
  "unclosed comments": (n) => "<!--".repeat(n),
  "values without end": (n) => "<a x=".repeat(n),
  "handlers everywhere": (n) => '<b onclick="f()" <i onload=g '.repeat(n),
  "many small scripts": (n) => "<script>1</script>\n".repeat(n),
};
const SIZE = 2000;
const stepsOf = (html) => {
  const counter = { steps: 0 };
  rewriteHtml(html, "/index.html", () => true, () => {}, guard, counter);
  return counter.steps;
};
const work = Object.fromEntries(
  Object.entries(FAMILIES).map(([name, make]) => [name, [stepsOf(make(SIZE)), stepsOf(make(10 * SIZE))]]),
);
console.log(JSON.stringify({ differ, work, size: SIZE }));
