// Build step: load the pinned Pyodide under node and add bytecode to the given wheels in place.
// Usage: node wheel_bytecode.mjs <pyodide dir> <wheel dir> <wheel file>...
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const [pyodideDir, wheelDir, ...wheels] = process.argv.slice(2);
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
pyodide.FS.mkdirTree("/wheels");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: wheelDir }, "/wheels");
const here = dirname(fileURLToPath(import.meta.url));
pyodide.runPython(readFileSync(join(here, "wheel_bytecode.py"), "utf8"));
const addBytecode = pyodide.globals.get("add_bytecode");
for (const wheel of wheels) console.log(`${wheel}: ${addBytecode(`/wheels/${wheel}`)} modules compiled`);
