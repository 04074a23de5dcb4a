// A TypeScript project held in memory for the problems checker (docs/problems.md): the workspace's
// TypeScript and JavaScript files, its tsconfig.json or jsconfig.json, the standard library's
// declarations, and one language service kept warm between jobs: a job changes only the files it names,
// and the service re-checks only what depends on them. A change's job answers the problems of the changed
// files and of their importers (two levels, so a barrel's re-export counts), before and after.
// Takes TypeScript's module as an argument: the worker passes the bundled one, the tests Node's.

import { TS_CONFIGS, forTypeScript } from "../common/checker-job.js";

/** @import { CheckerJob, ProblemMap, ProblemRow } from "../common/checker-job.js" */
/** @typedef {typeof import("typescript-lib")} Ts */
/** @typedef {import("typescript-lib").CompilerOptions} Options */

const LIB_DIR = "/__lib__/";
// Declares what a workspace cannot hold: the packages its files import (no node_modules is checked) are
// `any`, each by name, and JSX elements too, so a React project without its types is not drowned in
// "cannot find module". A relative import is never declared: a missing or renamed file is still an error.
const FALLBACK = "/__agentlite__/fallback.d.ts";
const FALLBACK_START = `declare namespace JSX { interface IntrinsicElements { [name: string]: any } interface Element {} }
declare module "react/jsx-runtime";
declare module "react/jsx-dev-runtime";
`;
const MAX_AFFECTED = 300; // files checked for one change: the changed ones and their importers
const MESSAGE_CHARS = 300;

/** @param {Ts} ts @returns {Options} */
const defaults = (ts) => ({
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  allowJs: true,
  checkJs: false,
  esModuleInterop: true,
  resolveJsonModule: true,
  allowImportingTsExtensions: true,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
});

export class TsProject {
  /** @param {Ts} ts @param {Record<string, string>} libs the standard library, file name -> text */
  constructor(ts, libs) {
    this.ts = ts;
    this.libs = libs;
    /** @type {Map<string, {text: string, version: number}>} */
    this.files = new Map();
    /** @type {Set<string>} */
    this.dirs = new Set(["/"]);
    this.options = defaults(ts);
    this.optionsVersion = 0;
    /** @type {Map<string, {key: string, imports: string[], unresolved: boolean, packages: string[]}>} */
    this.imports = new Map();
    this.fallback = { text: FALLBACK_START, version: 1 };
    this.version = 0; // of the whole project: the service skips its own comparison while it is unchanged
    this.service = ts.createLanguageService(this.host(), ts.createDocumentRegistry());
  }

  /** @param {CheckerJob} job @returns {{before: ProblemMap, problems: ProblemMap}} */
  run(job) {
    if (job.reset) this.files.clear();
    if (job.mode !== "change") {
      this.apply(job.files, job.deleted);
      return { before: {}, problems: job.mode === "check" ? this.problemsOf(job.check) : {} };
    }
    const changed = [...job.check.filter(forTypeScript), ...job.deleted.filter(forTypeScript)];
    const config = [...Object.keys(job.files), ...job.deleted].some((path) => TS_CONFIGS.includes(path));
    const appeared = changed.some((path) => !this.files.has(path)) || job.deleted.length > 0;
    const affected = config ? new Set(this.sources()) : this.affected(changed, appeared);
    const before = this.problemsOf([...affected]);
    this.apply(job.files, job.deleted);
    for (const path of config ? this.sources() : this.affected(changed, appeared)) affected.add(path);
    const within = [...affected].sort().slice(0, MAX_AFFECTED);
    return { before, problems: this.problemsOf(within) };
  }

  /** @param {Record<string, string>} files @param {string[]} deleted */
  apply(files, deleted) {
    this.version += 1;
    for (const path of deleted) this.files.delete(path);
    for (const [path, text] of Object.entries(files)) {
      const old = this.files.get(path);
      if (old?.text !== text) this.files.set(path, { text, version: (old?.version ?? 0) + 1 });
    }
    this.dirs = new Set(["/"]);
    for (const path of this.files.keys()) {
      for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1)) this.dirs.add(path.slice(0, at));
    }
    if (TS_CONFIGS.some((path) => path in files) || deleted.some((path) => TS_CONFIGS.includes(path))) this.configure();
    this.declarePackages();
  }

  /** The fallback declarations name every package the files import (read again when that set changes). */
  declarePackages() {
    const names = new Set(this.sources().flatMap((path) => this.importsOf(path).packages));
    const text =
      FALLBACK_START +
      [...names]
        .sort()
        .map((name) => `declare module ${JSON.stringify(name)};\n`)
        .join("");
    if (text !== this.fallback.text) this.fallback = { text, version: this.fallback.version + 1 };
  }

  /** The project's own options from tsconfig.json (or jsconfig.json), over the defaults; never emitting. */
  configure() {
    const ts = this.ts;
    const path = TS_CONFIGS.find((name) => this.files.has(name));
    /** @type {Options} */
    let options = defaults(ts);
    if (path) {
      const parsed = ts.parseConfigFileTextToJson(path, this.files.get(path)?.text ?? "");
      const own = ts.convertCompilerOptionsFromJson(parsed.config?.compilerOptions ?? {}, "/", path).options;
      options = { ...options, ...(path === "/jsconfig.json" ? { allowJs: true } : {}), ...own };
    }
    this.options = { ...options, noEmit: true, skipLibCheck: true, types: [] };
    this.optionsVersion += 1;
  }

  /** The source files the project checks (not its configs). */
  sources() {
    return [...this.files.keys()].filter((path) => forTypeScript(path) && !TS_CONFIGS.includes(path));
  }

  /** `changed` and the files that import them, two levels deep; with `appeared`, the files whose relative
   * imports did not resolve (a created file may be what they were missing). @param {string[]} changed
   * @param {boolean} appeared */
  affected(changed, appeared) {
    const found = new Set(changed.filter((path) => this.files.has(path)));
    let wave = new Set(changed);
    for (let level = 0; level < 2 && wave.size && found.size < MAX_AFFECTED; level += 1) {
      const next = new Set();
      for (const path of this.sources()) {
        const { imports, unresolved } = this.importsOf(path);
        if (found.has(path)) continue;
        if (imports.some((target) => wave.has(target)) || (appeared && level === 0 && unresolved)) next.add(path);
      }
      for (const path of next) found.add(path);
      wave = next;
    }
    return found;
  }

  /** A file's resolved imports, kept per version of the file and of the options. @param {string} path */
  importsOf(path) {
    const file = this.files.get(path);
    const key = `${file?.version}:${this.optionsVersion}`;
    const kept = this.imports.get(path);
    if (kept?.key === key) return kept;
    const names = this.ts.preProcessFile(file?.text ?? "", true, true).importedFiles.map((ref) => ref.fileName);
    const imports = [];
    const packages = [];
    let unresolved = false;
    for (const name of names) {
      const target = this.ts.resolveModuleName(name, path, this.options, this.host()).resolvedModule;
      if (target) imports.push(target.resolvedFileName);
      else if (name.startsWith(".") || name.startsWith("/")) unresolved = true;
      else packages.push(name);
    }
    const entry = { key, imports, unresolved, packages };
    this.imports.set(path, entry);
    return entry;
  }

  /** path -> the problems TypeScript reports in it (syntax and types), for the files held. @param {string[]} paths */
  problemsOf(paths) {
    /** @type {ProblemMap} */
    const found = {};
    for (const path of paths) {
      if (!this.files.has(path) || TS_CONFIGS.includes(path) || !forTypeScript(path)) continue;
      const all = [...this.service.getSyntacticDiagnostics(path), ...this.service.getSemanticDiagnostics(path)];
      found[path] = all.map((diagnostic) => this.row(diagnostic)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    }
    return found;
  }

  /** @param {import("typescript-lib").Diagnostic} diagnostic @returns {ProblemRow} */
  row(diagnostic) {
    const at =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
        : { line: 0, character: 0 };
    const message = this.ts.flattenDiagnosticMessageText(diagnostic.messageText, " ").slice(0, MESSAGE_CHARS);
    return [at.line + 1, at.character + 1, `TS${diagnostic.code}`, message];
  }

  /** The language service's view of the files held. @returns {import("typescript-lib").LanguageServiceHost} */
  host() {
    const ts = this.ts;
    /** @param {string} path */
    const textOf = (path) =>
      path === FALLBACK
        ? this.fallback.text
        : path.startsWith(LIB_DIR)
          ? this.libs[path.slice(LIB_DIR.length)]
          : this.files.get(path)?.text;
    return {
      getCompilationSettings: () => this.options,
      getProjectVersion: () => String(this.version),
      getScriptFileNames: () => [...this.sources(), FALLBACK],
      getScriptVersion: (path) =>
        String(path === FALLBACK ? this.fallback.version : (this.files.get(path)?.version ?? 0)),
      getScriptSnapshot: (path) => {
        const text = textOf(path);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => "/",
      getDefaultLibFileName: (options) => LIB_DIR + ts.getDefaultLibFileName(options),
      fileExists: (path) => textOf(path) !== undefined,
      readFile: (path) => textOf(path),
      directoryExists: (path) =>
        path === "/" || this.dirs.has(path.replace(/\/$/, "")) || path.startsWith(LIB_DIR.slice(0, -1)),
      getDirectories: () => [],
      useCaseSensitiveFileNames: () => true,
    };
  }
}
