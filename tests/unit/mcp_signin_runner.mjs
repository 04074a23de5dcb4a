// Drives the page's sign-in popup logic (web/src/mcp-signin.js) under Node for
// tests/unit/test_mcp_signin.py: stdin is a list of cases; prints one JSON line per case: the outcome.
import { readFileSync } from "node:fs";
import { CHANNEL, openSignIn, readCallback, signInUrls } from "../../web/src/mcp-signin.js";

const ORIGIN = "https://page.test";
const URL_ = "https://auth.test/authorize?client_id=c&state=S1";

async function drive(steps, url = URL_) {
  const target = new EventTarget();
  const popup = { closed: false };
  const sender = new BroadcastChannel(CHANNEL);
  const pending = openSignIn(url, {
    open: () => (steps.includes("blocked") ? null : popup),
    target,
    origin: ORIGIN,
    timeoutMs: 300,
    pollMs: 10,
    graceMs: 30,
  }).then(
    (ok) => ({ ok }),
    (error) => ({ error: String(error.message) }),
  );
  for (const step of steps) {
    await new Promise((r) => setTimeout(r, 20));
    if (step.channel) sender.postMessage(readCallback(step.channel));
    if (step.window) target.dispatchEvent(new MessageEvent("message", { data: readCallback(step.window.search), origin: step.window.origin }));
    if (step === "close") popup.closed = true;
  }
  const outcome = await pending;
  sender.close();
  return outcome;
}

const cases = JSON.parse(readFileSync(0, "utf8"));
for (const item of cases) {
  if (item.read !== undefined) console.log(JSON.stringify(readCallback(item.read)));
  else if (item.urls) console.log(JSON.stringify(signInUrls(item.urls)));
  else console.log(JSON.stringify(await drive(item.steps, item.url)));
}
