// The page's copy of the workspace's files for the preview: asked of the agent worker in one call
// (`vfs.pageFiles`), which sends only what changed since the last time (by sha256). Transpiled code is
// kept by the same sha256, so a reload transpiles only the files that changed.
import { fromBase64 } from "../../bytes.js";

/**
 * A workspace file as the page keeps it: text, or bytes for anything else.
 * @typedef {{sha256: string, text?: string, bytes?: Uint8Array<ArrayBuffer>}} PageFile
 * What `vfs.pageFiles` answers: the paths still as known, and the files that are new or changed.
 * @typedef {{kept?: string[], files?: {path: string, sha256: string, text?: string, base64?: string}[]}} PageFiles
 * @typedef {{transpile: (path: string, code: string) => string}} Transpiler
 */

export class WorkspaceFiles {
  /** @param {(method: string, args: object) => Promise<unknown>} call e.g. client.call */
  constructor(call) {
    this.call = call;
    /** @type {Map<string, PageFile>} */
    this.files = new Map();
    /** @type {Map<string, Promise<string>>} `${path}\n${sha256}` -> the transpiled code */
    this.transpiled = new Map();
  }

  // Map<path, {text?, bytes?}> of the workspace as it is now.
  async load() {
    const known = Object.fromEntries([...this.files].map(([path, file]) => [path, file.sha256]));
    const answer = /** @type {PageFiles} */ (await this.call("vfs.pageFiles", { known }));
    /** @type {Map<string, PageFile>} */
    const next = new Map();
    for (const path of answer.kept || []) {
      const file = this.files.get(path);
      if (file) next.set(path, file);
    }
    for (const item of answer.files || []) {
      /** @type {PageFile} */
      const file = { sha256: item.sha256 };
      if (typeof item.text === "string") file.text = item.text;
      else file.bytes = fromBase64(item.base64 || "");
      next.set(item.path, file);
    }
    this.files = next;
    return next;
  }

  /**
   * The transpiled code of a workspace file, made once per content.
   * @param {string} path
   * @param {string} code
   * @param {() => Promise<Transpiler>} transpiler
   * @returns {Promise<string>}
   */
  transpile(path, code, transpiler) {
    const sha = this.files.get(path)?.sha256 || code;
    const key = `${path}\n${sha}`;
    if (!this.transpiled.has(key)) {
      const made = transpiler().then((t) => t.transpile(path, code));
      made.catch(() => this.transpiled.delete(key));
      this.transpiled.set(key, made);
    }
    return /** @type {Promise<string>} */ (this.transpiled.get(key));
  }
}
