// The worker protocol: every message is {type, id?, ...}. Defined once here for the main thread and
// the worker; py/agentlite/protocol.py mirrors it (tests/unit/test_protocol.py keeps them in step).

export const MSG = Object.freeze({
  // main thread -> worker
  CALL: "call", // {id, method, args}: a request answered by one REPLY (vfs.*, chats.*, settings.apply, editor.changed)
  SANDBOX_RESULT: "sandbox_result", // {id, ok, result | error}: the answer to one SANDBOX_RUN
  // worker -> main thread
  PHASE: "phase", // {phase, progress, path, detail, at_ms}: start-up progress and start path; `ready` adds timings
  READY: "ready", // {}: the agent accepts messages
  FAILED: "failed", // {phase, message}: start-up failed in that phase
  EVENT: "event", // {chat, event}: a conversation event to render
  CHANGE: "change", // {change}: the workspace changed (refresh the file tree)
  REPLY: "reply", // {id, ok, value | error}: the answer to one CALL
  SANDBOX_RUN: "sandbox_run", // {id, kind, payload, timeout_ms}: run model-written code in a sandbox frame
});

// Start-up phases of the worker, in order.
export const PHASES = Object.freeze(["runtime", "packages", "storage", "agent", "ready"]);
