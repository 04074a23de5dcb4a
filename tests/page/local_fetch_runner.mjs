// Runs the agent worker's side of the model in the page (web/src/agent/worker/local-fetch.js) under Node for
// tests/page/test_local_model.py, against a fake page on the other end of a MessageChannel. Prints one
// JSON object: what a request before the port got, a streamed answer, and what a stop mid-answer did.
import { adoptPort, localFetch } from "../../web/src/agent/worker/local-fetch.js";

const before = await localFetch("local:/chat/completions", { method: "POST", body: "{}" });
const result = { before: { status: before.status, body: await before.text() } };
const channel = new MessageChannel();
const seen = [];
channel.port1.onmessage = ({ data }) => {
  seen.push(data);
  if (data.cancel) return;
  const reply = (message) => channel.port1.postMessage({ id: data.id, ...message });
  reply({ status: 200 });
  reply({ text: "data: one\n\n" });
  if (data.path === "models") reply({ text: "data: two\n\n", end: true });
};
adoptPort(channel.port2);
const whole = await localFetch("local:/models", { method: "GET" });
result.whole = { status: whole.status, type: whole.headers.get("content-type"), body: await whole.text() };
const controller = new AbortController();
const partial = await localFetch("local:/chat/completions", { method: "POST", body: '{"a":1}', signal: controller.signal });
const reader = partial.body.getReader();
const first = new TextDecoder().decode((await reader.read()).value);
controller.abort();
let after;
try {
  after = await reader.read();
} catch (err) {
  after = { error: err.name };
}
await new Promise((resolve) => setTimeout(resolve, 50));
result.stopped = { first, after, sent: seen.map(({ id, path, body, cancel }) => ({ id, path, body, cancel })) };
console.log(JSON.stringify(result));
channel.port1.close();
