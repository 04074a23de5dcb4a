// Drives the page's sign-in popup logic (web/src/mcp/page/mcp-signin.js) under Node for
// tests/page/test_mcp_signin.py: stdin is a list of cases; prints one JSON line per case: the outcome.
import { readFileSync } from "node:fs";
import { CHANNEL, openSignIn, readCallback, signInUrls } from "../../web/src/mcp/page/mcp-signin.js";

const URL_ = "https://auth.test/authorize?client_id=c&state=S1";
const ORIGIN = "https://page.test";
globalThis.window = new EventTarget(); // where a page's window messages would arrive
globalThis.location = /** @type {any} */ ({ origin: ORIGIN, href: `${ORIGIN}/index.html` });
const pause = () => new Promise((r) => setTimeout(r, 20));

/** One sign-in: what `open` was asked, and how it ended. A step "again" starts a second sign-in. */
async function drive(steps, url = URL_) {
  const opened = [];
  const open = (...args) => {
    opened.push(args.slice(1));
    return null; // what window.open answers for a noopener popup, blocked or not
  };
  const sender = new BroadcastChannel(CHANNEL);
  const settle = (promise) => promise.then((ok) => ({ ok }), (error) => ({ error: String(error.message) }));
  const pending = settle(openSignIn(url, { open, timeoutMs: 300 }));
  let second = null;
  for (const step of steps) {
    await pause();
    if (step.channel) sender.postMessage(readCallback(step.channel));
    if (step.window) window.dispatchEvent(new MessageEvent("message", { data: readCallback(step.window), origin: ORIGIN }));
    if (step === "again") second = settle(openSignIn(url.replace("S1", "S2"), { open, timeoutMs: 300 }));
  }
  const outcome = await pending;
  const secondOutcome = second ? await second : undefined;
  sender.close();
  return { ...outcome, opened, ...(second ? { second: secondOutcome } : {}) };
}

const cases = JSON.parse(readFileSync(0, "utf8"));
for (const item of cases) {
  if (item.read !== undefined) console.log(JSON.stringify(readCallback(item.read)));
  else if (item.urls) console.log(JSON.stringify(signInUrls(item.urls)));
  else console.log(JSON.stringify(await drive(item.steps, item.url)));
}
