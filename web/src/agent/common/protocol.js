// The worker protocol: every message is {type, id?, ...}. py/agentlite/protocol.py defines the types and
// the start-up phases; buildsys/build/page_facts.py writes them to web/src/generated/protocol.json, which the
// main thread and the worker both read, with each message's fields as types (protocol-types.d.ts):
//   main thread -> worker
//     CALL {id, method, args}: a request answered by one REPLY (methods: web/src/generated/calls.json)
//     PAGE_JOB_RESULT {id, ok, result | error}: the answer to one PAGE_JOB
//   worker -> main thread
//     PHASE {phase, progress, path, detail, at_ms}: start-up progress and start path; `ready` adds timings
//     READY {}: the agent accepts messages
//     FAILED {phase, message}: start-up failed in that phase
//     EVENT {chat, event}: a conversation event to render (web/src/agent/page/chat-events.js)
//     CHANGE {change}: the workspace changed (refresh the file tree)
//     REPLY {id, ok, value | error}: the answer to one CALL
//     PAGE_JOB {id, kind, payload, timeout_ms}: work only the page can do: a sandbox run, a preview, a PDF
import { protocol } from "../../generated/protocol.json";

export const MSG = Object.freeze(protocol.MSG);

// Start-up phases of the worker, in order.
export const PHASES = Object.freeze(protocol.PHASES);

// The base URL of the model in the page: the worker's requests to it go through a port the page hands over
// in a LOCAL_PORT message (web/src/local-model/bridge.js, web/src/agent/worker/local-fetch.js).
export const LOCAL_BASE = protocol.LOCAL_BASE;
export const DEMO_MODEL = protocol.DEMO_MODEL;
export const LOCAL_PORT = "local-model-port";
