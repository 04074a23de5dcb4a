// Runs the preview's pure resolution code under Node for tests/page/test_preview_resolve.py: each case's
// answer is printed as one JSON object, {name: value}. argv[2] is web/src/preview/page/, argv[3] the
// shared resolver web/src/frames/common/workspace-url.js (the frame's fetch, XHR and element URLs use it).
const dir = process.argv[2];
const { metaObject, resolver, rewriteImports } = await import(`${dir}/../common/resolve.js`);
const { buildBundle } = await import(`${dir}/page-bundle.js`);
const { targetOf, workspacePath } = await import(process.argv[3]);

const out = {};
const files = new Map(
  Object.entries({
    "/index.html":
      '<script type="module" src="src/app/main.js"></script>\n<script type="module">const here = import.meta.url;</script>',
    "/src/app/main.js": 'const m = await import("./" + "lazy.js");\nexport const u = import.meta.url;\n',
    "/src/app/lazy.js": 'import { dep } from "./dep";\nexport default dep;\n',
    "/src/app/dep.js": "export const dep = 1;\n",
    "/src/unused.js": "export const x = 1;\n",
  }).map(([path, text]) => [path, { text }]),
);
const has = (path) => files.has(path);

// import.meta in a workspace module: {url, resolve} against its own key.
const meta = eval(metaObject("agentlite-ws:/src/app/main.js"));
out.metaUrl = meta.url;
out.nextToMeta = new URL("./data.json", meta.url).href;
out.upFromMeta = new URL("../../pics/a.png", meta.url).href;
out.resolveRelative = meta.resolve("./x.js");
out.resolveBare = meta.resolve("react");
// A computed import() takes relative and absolute paths against the module, leaves the rest.
const name = "lazy";
const wrap = (expression) => eval(`(${resolver("agentlite-ws:/src/app/main.js")})(${expression})`);
out.computedRelative = wrap('"./" + name + ".js"');
out.computedUp = wrap('"../" + name + ".js"');
out.computedAbsolute = wrap('"/lib/" + name + ".js"');
out.computedBare = wrap('"pre" + "act"');
out.computedUrl = String(wrap('new URL("./x.js", "agentlite-ws:/a/b.js")'));

// rewriteImports keeps line numbers, rewrites import.meta only with `meta`, and never in vendor code.
const code =
  'import a from "./dep.js";\nconst u = import.meta.url;\nconst m = import("./" + name);\n' +
  'const n = await import(new URL("./dep.js", import.meta.url).href + import.meta.url.length);\n' +
  'import(import("./dep.js").then(() => "./" + name));\n';
let computed = 0;
const withMeta = rewriteImports(code, "/src/app/main.js", has, { meta: true, computed: () => computed++ });
out.withMetaLines = withMeta.split("\n").length === code.split("\n").length;
out.withMeta = withMeta;
const evaluated = [];
const stub = (specifier) => (evaluated.push(String(specifier)), Promise.resolve({}));
const runnable = withMeta.replace(/^import a from .*$/m, "").replaceAll("await ", "").replaceAll("import(", "stub(");
new Function("stub", "name", "URL", runnable)(stub, "lazy", URL);
out.evaluated = evaluated;
out.computedCount = computed;
out.withoutMeta = rewriteImports(code, "/src/app/main.js", has);
out.vendor = rewriteImports("const u = import.meta.url;", "agentlite-vendor:/react.js", () => false, { meta: true });

// A computed import() makes every workspace script a module of the bundle (rewritten, in the map).
const bundle = await buildBundle({
  entry: "/index.html",
  files,
  transpile: async (_path, text) => text,
  vendor: async () => "",
});
out.bundleModules = bundle.modules.map((m) => m.key).sort();
out.lazyCode = bundle.modules.find((m) => m.key === "agentlite-ws:/src/app/lazy.js")?.code;
out.entryHtml = bundle.html;
const plain = new Map(files);
plain.set("/index.html", { text: '<script type="module" src="/src/app/dep.js"></script>' });
const small = await buildBundle({ entry: "/index.html", files: plain, transpile: async (_p, t) => t, vendor: async () => "" });
out.noComputedModules = small.modules.map((m) => m.key).sort();

// The frame's targetOf: where a URL the page asks for leads, from a frame at `frameUrl`.
const frameUrl = "http://127.0.0.1:8000/app/sandbox/preview.html";
const entry = "/pages/index.html";
out.targets = Object.fromEntries(
  [
    "data/x.json",
    "/data/x.json",
    "../top.json",
    "agentlite-ws:/src/a%20b.json",
    "blob:null/1234",
    "data:,hi",
    "https://example.com/x",
    "http://127.0.0.1:8000/app/sandbox/data/x.json",
    "http://127.0.0.1:8000/other/y.json",
    "http://127.0.0.1:9999/z.json",
    "http://[bad",
  ].map((url) => [url, targetOf(url, entry, frameUrl)]),
);
// The app's side of the same resolver: references in a page's HTML and CSS.
out.paths = Object.fromEntries(
  ["img/a.png", "/img/a.png", "../a.png", "a%20b.png", "//cdn.example/x.js", "https://x/y", "#top", " "].map(
    (ref) => [ref, workspacePath(ref, "/pages/index.html")],
  ),
);
console.log(JSON.stringify(out));
