// Runs the preview's choice of files for the frame (page-reach.js through page-bundle.js) and its reload
// rule (reload-rule.js) under Node for tests/page/test_preview_reach.py; prints one JSON object.
const dir = process.argv[2];
const { buildBundle } = await import(`${dir}/page-bundle.js`);
const { reach } = await import(`${dir}/page-reach.js`);
const { onChange } = await import(`${dir}/reload-rule.js`);

const out = {};
const text = (entries) => new Map(Object.entries(entries).map(([path, body]) => [path, { text: body }]));
const files = text({
  "/site/index.html":
    '<link rel="stylesheet" href="css/a.css"><script type="module" src="js/main.js"></script>' +
    '<script>fetch("../sharex/data.json")</script>',
  "/site/css/a.css": '@font-face { src: url("../../fonts/f.woff2"); }',
  "/site/js/main.js": 'import { x } from "../../lib/x.js";\nfetch("/site/.config/named.json");\n',
  "/site/js/later.js": "export const later = 1;\n",
  "/site/pics/a.png": "png",
  "/site/.config/named.json": "{}",
  "/site/.config/hidden.json": "{}",
  "/site/notes.py": "print(1)\n",
  "/lib/x.js": "export const x = 1;\n",
  "/lib/unused.js": "export const u = 1;\n",
  "/fonts/f.woff2": "font",
  "/sharex/data.json": "[]",
  "/secret.env": "KEY=1\n",
  "/.env": "KEY=2\n",
  "/site/.git/config": "[core]\n",
});
const bundle = await buildBundle({
  entry: "/site/index.html",
  files,
  transpile: async (_path, code) => code,
  vendor: async () => "",
});
out.handed = bundle.files.map((file) => file.path).sort();
const root = text({
  "/index.html": '<script src="app.js"></script>',
  "/app.js": 'fetch("/data/items.json");\n',
  "/data/items.json": "[]",
  "/secret.env": "KEY=1\n",
  "/.env": "KEY=2\n",
  "/.git/HEAD": "ref\n",
  "/.agentlite/notes.md": "private\n",
  "/readme.md": "hello\n",
});
const rootBundle = await buildBundle({ entry: "/index.html", files: root, transpile: async (_p, c) => c, vendor: async () => "" });
out.rootHanded = rootBundle.files.map((file) => file.path).sort();
const named = await buildBundle({
  entry: "/index.html",
  files: new Map([...root, ["/index.html", { text: '<script>fetch("/.env"); fetch("/.git/HEAD")</script>' }]]),
  transpile: async (_p, c) => c,
  vendor: async () => "",
});
out.namedHanded = named.files.map((file) => file.path).sort();
const big = new Map([
  ["/index.html", { text: '<img src="b.png">' }],
  ["/a.png", { bytes: new Uint8Array(6) }],
  ["/b.png", { bytes: new Uint8Array(6) }],
]);
const capped = reach({ entry: "/index.html", files: big, named: ["/b.png"], cap: 25 });
out.capped = { paths: [...capped.paths], skipped: capped.skipped };

const shown = new Set(["/site/index.html", "/site/js/main.js"]);
const rule = (change, agentMayRun = false) => onChange({ change, entry: "/site/index.html", shown, agentMayRun });
out.rule = {
  user: rule({ type: "commit", author: "user", paths: ["/site/js/main.js"] }),
  disk: rule({ type: "commit", author: "disk", paths: ["/site/js/main.js"] }),
  agentShown: rule({ type: "commit", author: "agent", paths: ["/site/js/main.js"] }),
  shellNewInFolder: rule({ type: "commit", author: "shell", paths: ["/site/js/new.js"] }),
  agentElsewhere: rule({ type: "commit", author: "agent", paths: ["/notes/todo.md"] }),
  agentAllowed: rule({ type: "commit", author: "agent", paths: ["/site/js/main.js"] }, true),
  otherTab: rule({ type: "reload", author: null, paths: [] }),
  userImport: rule({ type: "import", author: null, paths: ["/site/js/main.js"] }),
};
console.log(JSON.stringify(out));
