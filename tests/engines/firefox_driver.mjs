// Drives Debian's Firefox ESR for the engine suite (tests/engines/drivers.py) with puppeteer-core over
// WebDriver BiDi (no geckodriver). Reads one JSON command per line on stdin, answers one JSON line per
// command on stdout: {"id", "op": "goto" | "eval" | "close", "arg", "timeout_ms"} ->
// {"id", "ok", "value" | "error"}; "upload" takes `{"selector", "path"}` as JSON and hands the path (a file
// or a folder) to that file input with ElementHandle.uploadFile; "frameEval" takes `{"selector", "expression"}`
// and evaluates the expression in the document of that iframe (any origin). Every command is bounded by its
// own timeout: a script against a frozen page never returns by itself.
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const require = createRequire(new URL("../../web/package.json", import.meta.url));
const puppeteer = require("puppeteer-core");

const executablePath = process.env.AGENTLITE_FIREFOX || "/usr/bin/firefox-esr";
const profile = mkdtempSync(join(tmpdir(), "agentlite-firefox-"));
// Relaxed SIMD off: the model in the page then runs the plain-SIMD copy of the engine's default build
// (docs/local-model.md), as a Firefox before 146 would; Chromium's suite runs the relaxed one.
const extraPrefsFirefox = { "javascript.options.wasm_relaxed_simd": false };
const launch = { browser: "firefox", executablePath, headless: true, userDataDir: profile, extraPrefsFirefox };
const browser = await puppeteer.launch(launch);
const page = await browser.newPage();
page.on("console", (message) => process.stderr.write(`[firefox console.${message.type()}] ${message.text()}\n`));
page.on("pageerror", (error) => process.stderr.write(`[firefox pageerror] ${error.message}\n`));

const ops = {
  goto: (url) => page.goto(url, { waitUntil: "load" }).then(() => null),
  eval: (expression) => page.evaluate(`(async () => (${expression}))()`),
  upload: async (arg) => {
    const { selector, path } = JSON.parse(arg);
    const input = await page.$(selector);
    if (!input) throw new Error(`no element ${selector}`);
    await input.uploadFile(path);
    return null;
  },
  frameEval: async (arg) => {
    const { selector, expression } = JSON.parse(arg);
    const element = await page.$(selector);
    const frame = element && (await element.contentFrame());
    if (!frame) throw new Error(`no frame ${selector}`);
    return frame.evaluate(`(async () => (${expression}))()`);
  },
  close: () => null,
};

function bounded(promise, ms) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function answer({ id, op, arg, timeout_ms: ms }) {
  try {
    if (!(op in ops)) throw new Error(`unknown op ${op}`);
    const value = await bounded(Promise.resolve().then(() => ops[op](arg)), ms || 30_000);
    return { id, ok: true, value: value === undefined ? null : value };
  } catch (error) {
    return { id, ok: false, error: String((error && error.message) || error) };
  }
}

async function shutdown() {
  await bounded(browser.close(), 10_000).catch(() => browser.process()?.kill("SIGKILL"));
  rmSync(profile, { recursive: true, force: true });
}

process.stdout.write(`${JSON.stringify({ id: 0, ok: true, value: await browser.version() })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const command = JSON.parse(line);
  process.stdout.write(`${JSON.stringify(await answer(command))}\n`);
  if (command.op === "close") break;
}
await shutdown();
process.exit(0);
