// A Node module hook for the page tests: the page imports JSON as the bundler does (`import x from
// "./a.json"`, and `import { key } from "./a.json"` for a top-level key), which Node's own JSON modules do
// not (they need a `type: "json"` attribute and have no named exports); this serves each JSON file as a
// module with both. A runner registers it (`register("./json_hooks.mjs", import.meta.url)`) before it
// imports a page module that reads JSON.
import { readFile } from "node:fs/promises";

export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".json")) return next(url, context);
  const data = JSON.parse(await readFile(new URL(url), "utf8"));
  const keys = data && typeof data === "object" && !Array.isArray(data) ? Object.keys(data) : [];
  // Each key exported under its own name as a string, so a key that is no identifier (or a reserved word)
  // is exported too.
  const named = keys.filter((key) => key !== "default");
  const source = [`const data = ${JSON.stringify(data)};`, "export default data;"]
    .concat(
      named.map((key, i) => `const k${i} = data[${JSON.stringify(key)}]; export { k${i} as ${JSON.stringify(key)} };`),
    )
    .join("\n");
  return { format: "module", source, shortCircuit: true };
}
