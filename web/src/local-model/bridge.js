// The page's side of the model in the page for the agent worker: a MessagePort on which the worker's
// `local:` requests arrive (web/src/agent/worker/local-fetch.js) and their answers go back as an HTTP status and
// then the body's text in pieces, so the agent reads them like any endpoint's (server-sent events of
// `chat.completion.chunk`s). A new port is given to every worker the page starts.
import { LOCAL_PORT } from "../agent/common/protocol.js";
import { errorAnswer, modelsListing } from "./wire.js";

/** @import { AgentClient } from "../agent/page/agent-client.js" */
/** @import { LocalModel } from "./local-model.js" */
/** @import { ModelFacts } from "./gguf-header.js" */
/** @import { ResultTimings } from "@wllama/wllama" */
/** Hears the answer speed in tokens/s; `timings` once the answer is over.
 * @typedef {(perSecond: number, timings?: ResultTimings) => void} SpeedListener */
/** Sends one piece of the answer to a request (its id is added).
 * @typedef {(message: Omit<LocalPortAnswer, "id">) => void} Reply */

export const LOCAL_MODEL_ID = "local"; // the model id the settings and the listing use

/** Serve `local` (a LocalModel) to `client`'s worker; `onSpeed(tokensPerSecond)` hears the live figure,
 * and once an answer is over, with the engine's timings for it.
 * @param {AgentClient} client @param {LocalModel} local @param {SpeedListener} onSpeed */
export function serveWorker(client, local, onSpeed) {
  const connect = () => {
    const channel = new MessageChannel();
    /** @type {Map<number, AbortController>} */
    const running = new Map(); // request id -> AbortController
    channel.port1.onmessage = (/** @type {MessageEvent<LocalPortRequest | LocalPortCancel>} */ { data }) => {
      if (data.cancel) return running.get(data.id)?.abort();
      const controller = new AbortController();
      running.set(data.id, controller);
      /** @type {Reply} */
      const reply = (message) => channel.port1.postMessage({ id: data.id, ...message });
      answer(local, data, controller.signal, reply, onSpeed).finally(() => running.delete(data.id));
    };
    client.worker.postMessage({ type: LOCAL_PORT, port: channel.port2 }, [channel.port2]);
  };
  connect();
  client.on("restart", connect);
}

/** @param {LocalModel} local @param {LocalPortRequest} request @param {AbortSignal} signal @param {Reply} reply
 * @param {SpeedListener} onSpeed */
async function answer(local, { path, body }, signal, reply, onSpeed) {
  const engine = local.engine;
  if (!engine) {
    const error = {
      message: "no model is loaded in this browser: choose one in the settings",
      type: "local_model_error",
    };
    return reply({ status: 503, text: JSON.stringify({ error }), end: true });
  }
  // A started engine's facts are set (LocalModel.start runs after them).
  const facts = /** @type {ModelFacts} */ (local.facts);
  if (path === "models") return reply({ status: 200, text: modelsListing(facts, engine.contextSize), end: true });
  if (path !== "chat/completions") return reply({ status: 404, text: "{}", end: true });
  let started = false;
  const began = performance.now();
  let pieces = 0;
  try {
    await engine.chat(JSON.parse(body || "{}"), facts.name, signal, (text) => {
      if (!started) reply({ status: 200 });
      started = true;
      pieces++;
      onSpeed(pieces / Math.max(0.001, (performance.now() - began) / 1000));
      reply({ text });
    });
    reply(started ? { end: true } : { status: 200, end: true });
    if (engine.lastTimings) onSpeed(engine.lastTimings.predicted_per_second, engine.lastTimings);
  } catch (err) {
    if (signal.aborted) return reply({ end: true });
    const { status, body: text } = errorAnswer(err, engine.contextSize);
    reply(
      started
        ? { failed: String(/** @type {Error | undefined} */ (err)?.message || err) }
        : { status, text, end: true },
    );
  }
}
