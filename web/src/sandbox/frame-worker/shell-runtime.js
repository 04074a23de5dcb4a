// The runtime of the "shell" sandbox frame (shell_exec, and Python run directly): a bash-like shell
// (just-bash: pipes, redirects, grep, sed, awk, find, jq, ...) over an in-memory copy of the files it
// was given. After the command, the files that differ from what was given come back as `changed`,
// the given files that are gone as `deleted`, new and removed folders as `created_dirs` and
// `deleted_dirs`; the caller records them as one change.
import { Bash } from "just-bash/browser";
import shared from "../../limits.json";
import { RunTimedOut, servePort } from "./runtime-port.js";
import { cap, CHANGED_LIMIT_BYTES } from "../common/limits.js";
import { pythonCommands, pythonStarted, runPythonCode } from "./python-runtime.js";

// The shell's own folders and its scratch space: files there are not the user's and never come back
// (unless they were given).
const SYSTEM = ["/bin", "/usr", "/dev", "/proc", "/tmp"];
const OUTPUT_LIMIT = 16 * 1024 * 1024; // the shell's own bound on output inside pipelines

/** @import { IFileSystem } from "just-bash/browser" */
/** @import { RunContext } from "./runtime-port.js" */
/** @import { ProcessResult } from "../../frames/common/sandbox-messages.js" */
/** @typedef {import("./python-runtime.js").ShellRun} ShellRun */

/** @param {MessagePort} port */
export function start(port) {
  servePort(port, { shell: runShell, python: runPython });
}

/**
 * payload {command, files: {path: text}, cwd, dirs?: [path]}
 * @param {Record<string, any>} payload
 * @param {RunContext} run
 */
async function runShell(payload, run) {
  if (typeof payload.command !== "string" || !payload.command.trim()) {
    throw new Error("payload.command must be a non-empty string");
  }
  const usesPython = /\b(python3?|pip3?|pytest)\b/.test(payload.command);
  const session = await openSession(payload, run, usesPython);
  const result = await session.bash.exec(payload.command, { cwd: session.cwd });
  if (session.run.timedOut) throw new RunTimedOut(run.timeoutMs);
  return session.finish(result.stdout, result.stderr, result.exitCode);
}

/**
 * payload {code, files, cwd, args?: [string], dirs?}: Python run directly, with the same file rules.
 * @param {Record<string, any>} payload
 * @param {RunContext} run
 */
async function runPython(payload, run) {
  if (typeof payload.code !== "string") throw new Error("payload.code must be a string");
  const session = await openSession(payload, run, true);
  const ctx = { fs: session.bash.fs, cwd: session.cwd, stdin: "" };
  const argv = Array.isArray(payload.args) ? payload.args.map(String) : [];
  const result = await runPythonCode(session.run, payload.code, argv, ctx);
  if (session.run.timedOut) throw new RunTimedOut(run.timeoutMs);
  return session.finish(result.stdout, result.stderr, result.exitCode);
}

/**
 * @param {Record<string, any>} payload
 * @param {RunContext} run
 * @param {boolean} usesPython
 */
async function openSession(payload, run, usesPython) {
  const files = givenFiles(payload.files);
  const cwd = normalisePath(payload.cwd || "/");
  // Python's own deadline, where the page asks for it: a little before the watchdog's, like the shell's.
  const deadline = run.pythonDeadline
    ? { startedAt: run.startedAt, budgetMs: shellDeadline(run.timeoutMs, false) }
    : null;
  /** @type {ShellRun} */
  const context = { channel: run.channel, id: run.id, deadline, bootMs: 0, timedOut: false };
  const bash = new Bash({
    files,
    cwd,
    env: { HOME: "/", USER: "user", LANG: "C.UTF-8" },
    customCommands: pythonCommands(context),
    executionLimits: {
      maxExecutionTimeMs: shellDeadline(run.timeoutMs, usesPython),
      maxOutputSize: OUTPUT_LIMIT,
    },
  });
  await bash.fs.mkdir("/tmp", { recursive: true });
  for (const dir of Array.isArray(payload.dirs) ? payload.dirs : []) {
    await bash.fs.mkdir(normalisePath(dir), { recursive: true });
  }
  const dirsBefore = new Set(await directories(bash.fs));
  return {
    bash,
    cwd,
    run: context,
    /**
     * @param {string} stdout
     * @param {string} stderr
     * @param {number} exitCode
     * @returns {Promise<ProcessResult>}
     */
    finish: async (stdout, stderr, exitCode) => {
      const diff = await changes(bash.fs, files, dirsBefore);
      const notes = diff.notes.length ? `${diff.notes.join("\n")}\n` : "";
      return {
        stdout: cap(stdout),
        stderr: cap(stderr + notes),
        exit_code: exitCode,
        changed: diff.changed,
        deleted: diff.deleted,
        created_dirs: diff.createdDirs,
        deleted_dirs: diff.deletedDirs,
      };
    },
  };
}

// The shell stops itself a little before the host's watchdog would, so output and files survive a
// runaway loop; Python's first start in this frame gets the same allowance the host grants.
/**
 * @param {number} timeoutMs
 * @param {boolean} usesPython
 */
function shellDeadline(timeoutMs, usesPython) {
  const ms = Math.max(100, timeoutMs - Math.min(1000, timeoutMs / 10));
  return usesPython && !pythonStarted() ? ms + shared.sandbox.start_allowance_ms : ms;
}

/**
 * @param {unknown} files
 * @returns {Record<string, string>}
 */
function givenFiles(files) {
  /** @type {Record<string, string>} */
  const out = {};
  if (!files || typeof files !== "object") return out;
  for (const [path, text] of Object.entries(files)) out[normalisePath(path)] = String(text);
  return out;
}

// "src/a.ts" and "/src//a.ts" are "/src/a.ts"; ".." cannot climb above "/".
/** @param {unknown} path */
function normalisePath(path) {
  const parts = [];
  for (const part of String(path).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** @param {string} path */
function isSystem(path) {
  return SYSTEM.some((root) => path === root || path.startsWith(`${root}/`));
}

/** @param {IFileSystem} fs */
async function directories(fs) {
  const dirs = [];
  for (const path of fs.getAllPaths()) {
    if (path !== "/" && !isSystem(path) && (await fs.lstat(path)).isDirectory) dirs.push(path);
  }
  return dirs;
}

// What the command did to the user's files, compared with what it was given.
/**
 * @param {IFileSystem} fs
 * @param {Record<string, string>} given
 * @param {Set<string>} dirsBefore
 */
async function changes(fs, given, dirsBefore) {
  /** @type {Record<string, string>} */
  const changed = {};
  const notes = [];
  const present = new Set();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let total = 0;
  let full = false;
  for (const path of fs.getAllPaths()) {
    if (isSystem(path) && !(path in given)) continue;
    const stat = await fs.lstat(path);
    if (!stat.isFile) continue;
    present.add(path);
    const bytes = await fs.readFileBuffer(path);
    let text;
    try {
      text = decoder.decode(bytes);
    } catch {
      notes.push(`note: ${path} is not UTF-8 text and was not kept`);
      continue;
    }
    if (given[path] === text) continue;
    total += bytes.length;
    if (full || total > CHANGED_LIMIT_BYTES) {
      if (!full) notes.push(`note: the changed files exceed ${CHANGED_LIMIT_BYTES} bytes; not all were kept`);
      full = true;
      continue;
    }
    changed[path] = text;
  }
  const deleted = Object.keys(given).filter((path) => !present.has(path));
  const dirsAfter = new Set(await directories(fs));
  const createdDirs = [...dirsAfter].filter((dir) => !dirsBefore.has(dir));
  const deletedDirs = [...dirsBefore].filter((dir) => !dirsAfter.has(dir));
  return { changed, deleted, createdDirs, deletedDirs, notes };
}
