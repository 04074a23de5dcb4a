// Python inside the shell sandbox frame: `python`, `python3`, `pip`, `pip3` and `pytest` commands for
// the shell, backed by a Pyodide that starts on first use in this frame (never in the agent worker).
//
// The frame has no network. Pyodide's files come from the host by name: a fetch() shim answers every
// URL under INDEX_URL with bytes the host handed over; any other URL goes to the real fetch, which
// the frame's CSP refuses. Each run copies the shell's files into Pyodide's file system, runs, copies
// the writes and deletions back, and then removes them again, so runs do not see each other's files.
import { defineCommand } from "just-bash/browser";
import { pipCommand } from "./pip.js";
// The Python half of every run (argv, cwd, SystemExit, tracebacks): a module of the agentlite package,
// embedded here as text by the build (esbuild's text loader) because the frame cannot fetch it.
import DRIVER from "../../../../py/agentlite/sandbox_driver.py";

// A name that never resolves, used only as a key for the fetch shim.
const INDEX_URL = "https://runtime.invalid/pyodide/";
const LOCK_FILE = "agentlite-lock.json";
const STREAM_LIMIT = 8 * 1024 * 1024; // per stream inside a pipeline; the shell's result is capped later
const SHELL_SYSTEM = ["/bin", "/usr", "/dev", "/proc"]; // the shell's own folders, not the user's files
const PYTHON_SKIP = ["/dev", "/proc", "/sys"];
const PYTHON_HOME = "/home/pyodide"; // Python's own home (caches, config): never copied back

/** @type {Promise<Python> | null} */
let runtime = null; // once started in this frame

/** @import { Channel } from "./runtime-port.js" */
/** @import { IFileSystem } from "just-bash/browser" */
/** @import { CommandResult, Lock, Pyodide } from "./pip.js" */

/**
 * One shell run, as Python's commands see it: the channel and run id (to fetch files, to say that
 * Pyodide starts), Python's own deadline (null: none) and the time its start took inside this run.
 * @typedef {{channel: Channel, id: number, deadline: {startedAt: number, budgetMs: number} | null,
 *   bootMs: number, timedOut: boolean}} ShellRun
 */

/** What a Python command works on: the shell's files, its directory, its stdin (a byte string). @typedef {{fs: IFileSystem, cwd: string, stdin: unknown}} ShellContext */

/**
 * A parsed `python` command line.
 * @typedef {{mode?: string, target?: string, argv?: string[], error?: string}} Parsed
 */

// The commands for one shell run. `run` is {channel, id, deadline, bootMs, timedOut} of that run (to
// fetch files, to tell the host that Pyodide is starting, and Python's own deadline: null, or
// {startedAt, budgetMs}; a Pyodide start inside the run does not count, as for the host's watchdog).
/** @param {ShellRun} run */
export function pythonCommands(run) {
  const python = (/** @type {string[]} */ args, /** @type {ShellContext} */ ctx) => pythonCommand(run, args, ctx);
  const pip = (/** @type {string[]} */ args) => pipCommand(() => start(run), args);
  return [
    defineCommand("python", python),
    defineCommand("python3", python),
    defineCommand("pip", pip),
    defineCommand("pip3", pip),
    defineCommand("pytest", (args, ctx) => pytestCommand(run, args, ctx)),
  ];
}

export function pythonStarted() {
  return runtime !== null;
}

/**
 * `python -c CODE ...` as a direct call (the "python" kind), on a given shell file system.
 * @param {ShellRun} run
 * @param {string} code
 * @param {string[]} argv
 * @param {ShellContext} ctx
 */
export function runPythonCode(run, code, argv, ctx) {
  return pythonCommand(run, ["-c", code, ...argv], ctx);
}

// `pytest ARGS` as its installed command runs: like `python -m pytest` but without the working
// directory on sys.path. Its wheels load on this first use (they are in the lock, see loadImports).
/**
 * @param {ShellRun} run
 * @param {string[]} args
 * @param {ShellContext} ctx
 */
async function pytestCommand(run, args, ctx) {
  const py = await start(run);
  return executeGuarded(run, py, { mode: "entry", target: "pytest", argv: ["pytest", ...args] }, ctx);
}

/**
 * @param {ShellRun} run
 * @param {string[]} args
 * @param {ShellContext} ctx
 * @returns {Promise<CommandResult>}
 */
async function pythonCommand(run, args, ctx) {
  const parsed = parseArgs(args);
  if (parsed.error) return { stdout: "", stderr: `python: ${parsed.error}\n`, exitCode: 2 };
  if (parsed.mode === "version") return { stdout: `${await versionText(run)}\n`, stderr: "", exitCode: 0 };
  if (parsed.mode === "module" && parsed.target === "pip")
    return pipCommand(() => start(run), /** @type {string[]} */ (parsed.argv).slice(1));
  if (parsed.mode === "stdin") {
    const source = bytesToText(ctx.stdin);
    if (!source.trim()) {
      const stderr = "python: no interactive interpreter here; pass a script or -c CODE\n";
      return { stdout: "", stderr, exitCode: 2 };
    }
    Object.assign(parsed, { mode: "code", target: source });
    ctx = { ...ctx, stdin: "" };
  }
  const py = await start(run);
  return executeGuarded(run, py, parsed, ctx);
}

/**
 * Run under the run's own deadline, if it has one; a run the deadline stopped is marked timed out.
 * @param {ShellRun} run
 * @param {Python} py
 * @param {Parsed} parsed
 * @param {ShellContext} ctx
 * @returns {Promise<CommandResult>}
 */
async function executeGuarded(run, py, parsed, ctx) {
  const result = await py.execute(parsed, ctx, secondsLeft(run));
  if (result.exitCode === undefined) {
    // the driver's None: its deadline stopped the code
    run.timedOut = true;
    return { ...result, exitCode: 124 };
  }
  return result;
}

/**
 * Python's own deadline for this command (null: none), in seconds from now.
 * @param {ShellRun} run
 */
function secondsLeft(run) {
  if (!run.deadline) return null;
  const used = performance.now() - run.deadline.startedAt - run.bootMs;
  return Math.max(0.05, (run.deadline.budgetMs - used) / 1000);
}

/**
 * python [-u -B -I -E -s -O ...] (-c CODE | -m MODULE | SCRIPT | - | nothing) [ARGS...]
 * @param {string[]} args
 * @returns {Parsed}
 */
function parseArgs(args) {
  let i = 0;
  while (i < args.length && /^-[uBIEsSOqb]+$/.test(args[i])) i++;
  const flag = args[i];
  if (flag === "-V" || flag === "--version") return { mode: "version" };
  if (flag === "-c") {
    if (i + 1 >= args.length) return { error: "argument expected for the -c option" };
    return { mode: "code", target: args[i + 1], argv: ["-c", ...args.slice(i + 2)] };
  }
  if (flag === "-m") {
    if (i + 1 >= args.length) return { error: "argument expected for the -m option" };
    return { mode: "module", target: args[i + 1], argv: [args[i + 1], ...args.slice(i + 2)] };
  }
  if (flag === undefined || flag === "-") return { mode: "stdin", argv: ["-", ...args.slice(i + 1)] };
  if (flag.startsWith("-")) return { error: `unsupported option ${flag}` };
  return { mode: "file", target: flag, argv: args.slice(i) };
}

/** @param {ShellRun} run */
async function versionText(run) {
  const py = await start(run);
  return `Python ${py.version}`;
}

/**
 * @param {ShellRun} run
 * @returns {Promise<Python>}
 */
function start(run) {
  if (!runtime) {
    run.channel.loading(run.id);
    const began = performance.now();
    runtime = boot(run.channel);
    runtime.then(
      () => {
        run.bootMs = performance.now() - began;
        run.channel.loaded(run.id);
      },
      () => {
        run.channel.loaded(run.id);
        runtime = null; // a failed start is retried by the next command
      },
    );
  }
  return runtime;
}

/** @param {Channel} channel */
async function boot(channel) {
  installFetchShim(channel);
  const [mjs, asm, lockBytes] = await Promise.all(
    ["pyodide.mjs", "pyodide.asm.mjs", LOCK_FILE].map((name) => channel.asset(name)),
  );
  const { loadPyodide } = await importBytes(mjs);
  const { default: createPyodideModule } = await importBytes(asm);
  const lockText = new TextDecoder().decode(lockBytes);
  const pyodide = await loadPyodide({
    indexURL: INDEX_URL,
    packageBaseUrl: INDEX_URL,
    lockFileContents: lockText,
    createPyodideModule,
    env: { HOME: PYTHON_HOME, PYTHONDONTWRITEBYTECODE: "1" },
    stdout: () => {},
    stderr: () => {},
  });
  pyodide.runPython(DRIVER);
  return new Python(pyodide, JSON.parse(lockText));
}

/**
 * Route fetches of runtime files to the host; leave every other URL to the (CSP-blocked) network.
 * @param {Channel} channel
 */
function installFetchShim(channel) {
  const networkFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(INDEX_URL)) return networkFetch(input, init);
    const bytes = await channel.asset(decodeURIComponent(url.slice(INDEX_URL.length)));
    const type = url.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
    return new Response(bytes, { status: 200, headers: { "Content-Type": type } });
  };
}

/**
 * @param {ArrayBuffer} bytes
 * @returns {Promise<any>} the module (Pyodide's own, typed where it is used)
 */
async function importBytes(bytes) {
  const url = URL.createObjectURL(new Blob([bytes], { type: "text/javascript" }));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

class Python {
  /**
   * @param {Pyodide} pyodide
   * @param {Lock} lock
   */
  constructor(pyodide, lock) {
    this.pyodide = pyodide;
    this.lock = lock;
    this.FS = pyodide.FS;
    this.version = pyodide.runPython("import sys; sys.version.split()[0]");
    this.sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    this.baseline = new Set(this.walk().map((entry) => entry.path));
  }

  /**
   * @param {Parsed} parsed
   * @param {ShellContext} ctx
   * @param {number | null} [deadlineS]
   * @returns {Promise<CommandResult>}
   */
  async execute(parsed, ctx, deadlineS = null) {
    const out = new Sink();
    const err = new Sink();
    const placed = await this.placeFiles(ctx.fs);
    try {
      await this.loadImports(parsed, ctx.cwd, err);
      this.pyodide.setStdout({ write: (buf) => out.write(buf) });
      this.pyodide.setStderr({ write: (buf) => err.write(buf) });
      this.pyodide.setStdin(stdinFrom(bytesToText(ctx.stdin)));
      const runPy = this.pyodide.globals.get("run_command");
      let exitCode;
      try {
        const options = deadlineS === null ? {} : { deadline_s: deadlineS };
        exitCode = runPy.callKwargs(parsed.mode, parsed.target ?? "", parsed.argv, ctx.cwd, options);
      } finally {
        runPy.destroy();
      }
      await this.collectChanges(ctx.fs, placed, err);
      return { stdout: out.text(), stderr: err.text(), exitCode };
    } finally {
      this.clearFiles();
    }
  }

  // Wheels named in the lock that the code imports are loaded first (so `import pydantic` works).
  /**
   * @param {Parsed} parsed
   * @param {string} cwd
   * @param {Sink} err
   */
  async loadImports(parsed, cwd, err) {
    let source = /** @type {string} */ (parsed.mode === "code" ? parsed.target : "");
    if (parsed.mode === "file") {
      try {
        source = this.FS.readFile(this.resolve(/** @type {string} */ (parsed.target), cwd), { encoding: "utf8" });
      } catch {
        return; // a missing script is reported by Python itself
      }
    }
    if (parsed.mode === "module" || parsed.mode === "entry") source = `import ${parsed.target}`;
    await this.pyodide.loadPackagesFromImports(source, {
      messageCallback: () => {},
      errorCallback: (message) => err.write(new TextEncoder().encode(`${message}\n`)),
    });
  }

  /**
   * @param {string} path
   * @param {string} cwd
   */
  resolve(path, cwd) {
    return path.startsWith("/") ? path : `${cwd.replace(/\/$/, "")}/${path}`;
  }

  // Copy the shell's files (not its own /bin, /usr, /dev, /proc) into Pyodide's file system.
  /** @param {IFileSystem} fs */
  async placeFiles(fs) {
    /** @type {Map<string, Uint8Array>} */
    const placed = new Map(); // path -> bytes as written
    for (const path of fs.getAllPaths()) {
      if (underAny(path, SHELL_SYSTEM) || underAny(path, PYTHON_SKIP) || this.baseline.has(path)) continue;
      const stat = await fs.lstat(path);
      if (stat.isDirectory) this.FS.mkdirTree(path);
      if (!stat.isFile) continue;
      const bytes = await fs.readFileBuffer(path);
      this.FS.mkdirTree(parentOf(path));
      this.FS.writeFile(path, bytes);
      placed.set(path, bytes);
    }
    // The working directory exists in the shell even when empty; make it exist here too.
    return placed;
  }

  // Python's writes and deletions go back into the shell's file system.
  /**
   * @param {IFileSystem} fs
   * @param {Map<string, Uint8Array>} placed
   * @param {Sink} err
   */
  async collectChanges(fs, placed, err) {
    const seen = new Set();
    for (const { path, isFile } of this.walk()) {
      if (!isFile || this.baseline.has(path) || this.pythonOwns(path)) continue;
      seen.add(path);
      const bytes = this.FS.readFile(path);
      const before = placed.get(path);
      if (before && sameBytes(before, bytes)) continue;
      try {
        await fs.mkdir(parentOf(path), { recursive: true });
        await fs.writeFile(path, bytes);
      } catch (/** @type {any} */ error) {
        err.write(new TextEncoder().encode(`python: could not copy back ${path}: ${error.message}\n`));
      }
    }
    for (const path of placed.keys()) {
      if (!seen.has(path) && !this.pythonOwns(path)) await fs.rm(path, { force: true });
    }
  }

  // Files that belong to Python, not to the user: bytecode caches, installed packages, its home.
  /** @param {string} path */
  pythonOwns(path) {
    return path.includes("/__pycache__/") || underAny(path, [this.sitePackages, PYTHON_HOME]);
  }

  // Remove everything a run left behind, so the next run starts from the same state.
  clearFiles() {
    const extra = this.walk().filter(
      (entry) => !this.baseline.has(entry.path) && !underAny(entry.path, [this.sitePackages]),
    );
    for (const entry of extra.filter((e) => !e.isDir)) this.FS.unlink(entry.path);
    for (const entry of extra.filter((e) => e.isDir).reverse()) {
      try {
        this.FS.rmdir(entry.path);
      } catch {
        // not empty: it holds baseline files
      }
    }
    try {
      this.FS.chdir(PYTHON_HOME);
    } catch {
      // keep the current directory
    }
  }

  // Every path below "/" (depth first, parents before children), skipping /dev, /proc, /sys.
  walk() {
    /** @type {{path: string, isDir: boolean, isFile: boolean}[]} */
    const entries = [];
    const visit = (/** @type {string} */ dir) => {
      for (const name of this.FS.readdir(dir)) {
        if (name === "." || name === "..") continue;
        const path = dir === "/" ? `/${name}` : `${dir}/${name}`;
        if (underAny(path, PYTHON_SKIP)) continue;
        const mode = this.FS.lstat(path).mode;
        const isDir = this.FS.isDir(mode);
        entries.push({ path, isDir, isFile: this.FS.isFile(mode) });
        if (isDir) visit(path);
      }
    };
    visit("/");
    return entries;
  }

  // pip installed packages into site-packages: they are Python's, not files of the user.
  afterInstall() {
    this.baseline = new Set(this.walk().map((entry) => entry.path));
  }
}

// Collects a stream's bytes up to a limit; the rest is counted, not kept.
class Sink {
  constructor() {
    this.decoder = new TextDecoder();
    /** @type {string[]} */
    this.parts = [];
    this.size = 0;
    this.dropped = 0;
  }

  /** @param {Uint8Array} buf */
  write(buf) {
    const room = STREAM_LIMIT - this.size;
    if (room <= 0) this.dropped += buf.length;
    else {
      const kept = buf.length > room ? buf.subarray(0, room) : buf;
      this.parts.push(this.decoder.decode(kept, { stream: true }));
      this.size += kept.length;
      this.dropped += buf.length - kept.length;
    }
    return buf.length;
  }

  text() {
    const text = this.parts.join("") + this.decoder.decode();
    return this.dropped ? `${text}\n[output truncated: ${this.dropped} more bytes]\n` : text;
  }
}

/** @param {string} text */
function stdinFrom(text) {
  let given = false;
  return {
    stdin: () => {
      if (given || !text) return undefined;
      given = true;
      return text;
    },
    isatty: false,
  };
}

/**
 * The shell hands stdin over as a byte string (one char per byte).
 * @param {unknown} stdin just-bash's ByteString, or bytes
 */
function bytesToText(stdin) {
  if (!stdin) return "";
  if (typeof stdin !== "string") return new TextDecoder().decode(/** @type {Uint8Array} */ (stdin));
  return new TextDecoder().decode(Uint8Array.from(stdin, (c) => c.charCodeAt(0) & 0xff));
}

/**
 * @param {string} path
 * @param {string[]} roots
 */
function underAny(path, roots) {
  return roots.some((root) => path === root || path.startsWith(`${root}/`));
}

/** @param {string} path */
function parentOf(path) {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
