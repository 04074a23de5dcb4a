// The page's copy of the workspace's files for the preview: asked of the agent worker in one call
// (`vfs.pageFiles`), which sends only what changed since the last time (by sha256). Transpiled code is
// kept by the same sha256, so a reload transpiles only the files that changed.
import { fromBase64 } from "../../bytes.js";

export class WorkspaceFiles {
  constructor(call) {
    this.call = call; // (method, args) -> Promise, e.g. client.call
    this.files = new Map(); // path -> {sha256, text?, bytes?}
    this.transpiled = new Map(); // `${path}\n${sha256}` -> Promise<code>
  }

  // Map<path, {text?, bytes?}> of the workspace as it is now.
  async load() {
    const known = Object.fromEntries([...this.files].map(([path, file]) => [path, file.sha256]));
    const answer = await this.call("vfs.pageFiles", { known });
    const next = new Map();
    for (const path of answer.kept || []) if (this.files.has(path)) next.set(path, this.files.get(path));
    for (const item of answer.files || []) {
      const file = { sha256: item.sha256 };
      if (typeof item.text === "string") file.text = item.text;
      else file.bytes = fromBase64(item.base64 || "");
      next.set(item.path, file);
    }
    this.files = next;
    return next;
  }

  // The transpiled code of a workspace file, made once per content.
  transpile(path, code, transpiler) {
    const sha = this.files.get(path)?.sha256 || code;
    const key = `${path}\n${sha}`;
    if (!this.transpiled.has(key)) {
      const made = transpiler().then((t) => t.transpile(path, code));
      made.catch(() => this.transpiled.delete(key));
      this.transpiled.set(key, made);
    }
    return this.transpiled.get(key);
  }
}
