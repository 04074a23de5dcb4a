// The preview's TypeScript / JSX transpiler (sucrase, pinned in web/package.json), a bundle of its own
// (dist/preview-transpiler.js) that the app loads when a page first needs it. Sucrase keeps every line
// where it was, so an error's file:line points into the file as written. JSX uses the automatic
// runtime (`react/jsx-runtime`), as today's React templates expect. Measured against esbuild-wasm and
// TypeScript's transpileModule in docs/preview.md.
import { transform } from "sucrase";

/** @import { Transform } from "sucrase" */

/**
 * @param {string} path
 * @param {string} code
 */
export function transpile(path, code) {
  /** @type {Transform[]} */
  const transforms = [];
  if (/\.(ts|tsx|mts)$/.test(path)) transforms.push("typescript");
  if (/\.(tsx|jsx)$/.test(path)) transforms.push("jsx");
  return transform(code, {
    transforms,
    filePath: path,
    jsxRuntime: "automatic",
    production: true,
    disableESTransforms: true,
  }).code;
}
