// What the type check cannot see on its own: files the build provides beside the bundles, and text
// the build embeds. Read only by the type check (tsconfig.json); esbuild never bundles it.

/** The sandbox's Python driver, embedded as text (esbuild's text loader, buildsys/build/assemble.py). */
declare module "*.py" {
  const text: string;
  export default text;
}

/** Pyodide, copied into dist/pyodide/ and loaded apart from the bundles. */
declare module "*/pyodide/pyodide.mjs" {
  export * from "pyodide";
}

/** The tokenizer bundle built from web/src/agent/worker/tokens.js, loaded after start-up. */
declare module "*/worker-tokens.js" {
  export function count(text: string): number;
}
