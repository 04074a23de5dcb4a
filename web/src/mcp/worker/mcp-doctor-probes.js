// The MCP connection doctor's probes (docs/mcp.md, Connection doctor): the requests that find out why a
// server cannot be used, run where the page's CSP (connect-src 'self') does not apply — the doctor's
// worker. Each probe is bounded by its own timeout; none sends a cookie; none follows a redirect; the
// token goes only to the server's URL itself, and only on the MCP requests (never on a probe of headers).
import { MCP, REQUEST_HEADERS, SESSION_ONLY } from "../common/mcp-doctor-verdict.js";

/** @import { Findings, RpcReply } from "../common/mcp-doctor-verdict.js" */
/** The findings while the probes run: the first sets `reach`.
 * @typedef {Omit<Findings, "reach"> & Partial<Pick<Findings, "reach">>} Gathered */

const PROBE_MS = 5000;
const MAX_BODY = 256 * 1024;
const ACCEPT = "application/json, text/event-stream";
const PING = JSON.stringify({ jsonrpc: "2.0", id: "doctor-ping", method: "ping" });
const HEADER = MCP.headers;
/** @type {Record<string, string>} */
const SAMPLE = {
  "content-type": "application/json",
  [HEADER.version]: MCP.handshake_version,
  [HEADER.session]: "doctor-probe",
  [HEADER.method]: "ping",
  [HEADER.name]: "doctor-probe",
  authorization: "Bearer doctor-probe", // not the user's token: the preflight probes need only the name
  [HEADER.resume]: "0",
};

/**
 * Every probe's outcome for `url`, as web/src/mcp/common/mcp-doctor-verdict.js judges them.
 * @param {string} url @param {{token?: string, origin?: string}} [options] @param {number} [timeoutMs]
 * @returns {Promise<Gathered>}
 */
export async function probeServer(url, { token = "", origin = "" } = {}, timeoutMs = PROBE_MS) {
  /** @type {Gathered} */
  const found = { host: new URL(url).host, origin, token: Boolean(token) };
  // A no-cors request may not set redirect "manual" (the browser refuses it): it carries nothing to leak.
  const reach = await request(url, { mode: "no-cors", redirect: "follow" }, timeoutMs);
  found.reach = reach.ok ? "ok" : reach.error;
  if (!reach.ok) return found;
  found.simple = await request(url, { method: "GET" }, timeoutMs);
  if (!found.simple.ok || found.simple.redirected) return found;
  const names = REQUEST_HEADERS.filter((name) => name !== "authorization" || token);
  const passed = await Promise.all(names.map((name) => preflightPasses(url, name, timeoutMs)));
  found.preflight = Object.fromEntries(names.map((name, i) => [name, passed[i]]));
  // Without the session revision's headers, a server of the stateless revision may still be usable.
  if (names.some((name, i) => !passed[i] && !SESSION_ONLY.includes(name))) return found;
  return { ...found, ...(await mcpSteps(url, token, timeoutMs)) };
}

/**
 * One request, bounded; its status, whether it redirected, and the headers the page may read.
 * @param {string} url @param {RequestInit} init @param {number} timeoutMs @param {boolean} [read]
 * @returns {Promise<RpcReply>}
 */
async function request(url, init, timeoutMs, read = false) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await fetch(url, { credentials: "omit", redirect: "manual", ...init, signal: abort.signal });
    /** @type {RpcReply} */
    const reply = {
      ok: true,
      status: response.status,
      redirected: response.type === "opaqueredirect",
      wwwAuthenticate: response.headers.get("www-authenticate"),
      sessionId: response.headers.get(HEADER.session),
    };
    if (read && !reply.redirected) Object.assign(reply, await rpcAnswer(response));
    return reply;
  } catch {
    return { ok: false, error: abort.signal.aborted ? "timeout" : "network" };
  } finally {
    clearTimeout(timer);
  }
}

/** A preflight for `name` alone fails (a TypeError) iff the server does not allow that header.
 * @param {string} url @param {string} name @param {number} timeoutMs */
async function preflightPasses(url, name, timeoutMs) {
  /** @type {Record<string, string>} */
  const headers = { [name]: SAMPLE[name] };
  if (name !== "content-type") headers["content-type"] = "text/plain"; // safelisted: this header alone
  const reply = await request(url, { method: "POST", headers, body: PING }, timeoutMs);
  return reply.ok;
}

/** @param {string} url @param {string} token @param {number} timeoutMs */
async function mcpSteps(url, token, timeoutMs) {
  /** @type {Record<string, string>} */
  const auth = token ? { authorization: `Bearer ${token}` } : {};
  /** @param {Record<string, string>} headers @param {string} body */
  const post = (headers, body) =>
    request(
      url,
      { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json", ...auth, ...headers }, body },
      timeoutMs,
      true,
    );
  const meta = {
    [MCP.meta.version]: MCP.modern_version,
    [MCP.meta.capabilities]: {},
    [MCP.meta.client]: MCP.client_info,
  };
  const discoverBody = rpc("doctor-discover", "server/discover", { _meta: meta });
  const discover = await post(
    { [HEADER.version]: MCP.modern_version, [HEADER.method]: "server/discover" },
    discoverBody,
  );
  if (discover.ok && (discover.answer === "result" || [401, 403].includes(discover.status))) return { discover };
  const params = { protocolVersion: MCP.handshake_version, capabilities: {}, clientInfo: MCP.client_info };
  const initialize = await post({}, rpc("doctor-init", "initialize", params));
  if (!initialize.ok || initialize.answer !== "result") return { discover, initialize };
  if (initialize.sessionId) {
    await closeSession(url, auth, initialize.sessionId, timeoutMs);
    return { discover, initialize };
  }
  const followUp = await post({ [HEADER.version]: MCP.handshake_version }, rpc("doctor-list", "tools/list", {}));
  return { discover, initialize, followUp };
}

/** The probe's session is not left open on the server (best effort: DELETE may not be allowed).
 * @param {string} url @param {Record<string, string>} auth @param {string} sessionId @param {number} timeoutMs */
function closeSession(url, auth, sessionId, timeoutMs) {
  const headers = { ...auth, [HEADER.session]: sessionId, [HEADER.version]: MCP.handshake_version };
  return request(url, { method: "DELETE", headers }, timeoutMs);
}

/** @param {string} id @param {string} method @param {object} params */
function rpc(id, method, params) {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

/** @typedef {{answer: "result"|"error"|"none", version: string | null}} RpcAnswer */

/** The JSON-RPC answer in a JSON or SSE body: read until it has arrived, at most MAX_BODY characters.
 * @param {Response} response @returns {Promise<RpcAnswer>} */
async function rpcAnswer(response) {
  /** @type {RpcAnswer} */
  const none = { answer: "none", version: null };
  if (!response.body) return none;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < MAX_BODY) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const answer = answerIn(text);
      if (answer) return answer;
    }
  } catch {
    // the timeout cut the stream: judge what arrived
  } finally {
    reader.cancel().catch(() => {});
  }
  return answerIn(text) ?? none;
}

/** @param {string} text @returns {RpcAnswer | null} */
function answerIn(text) {
  for (const item of messages(text)) {
    if (item && typeof item === "object" && "id" in item) {
      if ("result" in item) return { answer: "result", version: item.result?.protocolVersion ?? null };
      if ("error" in item) return { answer: "error", version: null };
    }
  }
  return null;
}

/** The JSON values in a JSON or SSE body: a server's, so anything at all. @param {string} text @returns {any[]} */
function messages(text) {
  const parsed = [];
  const whole = parseJson(text.trim());
  if (whole !== undefined) return Array.isArray(whole) ? whole : [whole];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    const item = parseJson(data);
    if (item !== undefined) parsed.push(item);
  }
  return parsed;
}

/** @param {string} text @returns {any} */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
