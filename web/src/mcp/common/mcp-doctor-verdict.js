// The MCP connection doctor's judgement (docs/mcp.md, Connection doctor): what the probes of a server
// found (web/src/mcp/worker/mcp-doctor-probes.js) → {state, diagnosis, fix}. Pure, so every branch is
// tested under Node.
// A browser reports a CORS refusal and a dead server alike (a bare TypeError): the probes are chosen so
// that their outcomes together tell which step fails, and this names it.

// The revisions and header names are the worker's client's (py/agentlite/mcp/revisions.py), generated;
// imported as a JSON module, so the judgement also runs under Node as it is.
import facts from "../../generated/mcp.json" with { type: "json" };

/** The client's revisions, envelope and MCP header names (lower case), as the probes send them. */
export const MCP = facts.mcp;
const HEADER = MCP.headers;

/** The request headers the page's MCP client may send, in the order they are probed. */
export const REQUEST_HEADERS = [
  "content-type",
  HEADER.version,
  HEADER.session,
  HEADER.method,
  HEADER.name,
  "authorization",
  HEADER.resume,
];

/** Headers only the session revision sends: a server that answers `server/discover` needs neither. */
export const SESSION_ONLY = [HEADER.session, HEADER.resume];

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * What the doctor answers.
 * @typedef {{state: "connected"|"needs-auth"|"unreachable"|"cors-blocked"|"error", diagnosis: string, fix: string}} Verdict
 */

/** Why the URL cannot be asked at all from a page at `pageProtocol` ("https:"…), or null.
 * @param {string} url @param {string} pageProtocol @returns {Verdict | null} */
export function beforeAnyRequest(url, pageProtocol) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return verdict("error", `"${String(url).slice(0, 200)}" is not a URL`, "give the server's full http(s) URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return verdict("error", `${parsed.protocol} is not http: or https:`, "give the server's http(s) URL");
  }
  if (pageProtocol === "https:" && parsed.protocol === "http:" && !LOOPBACK.test(parsed.hostname)) {
    return verdict(
      "unreachable",
      `mixed content: this page is served over https:, and the browser blocks its requests to http://${parsed.host}`,
      "serve the MCP server over https:",
    );
  }
  return null;
}

/**
 * @typedef {{ok: true, status: number, redirected?: boolean, wwwAuthenticate?: string|null, error?: undefined}
 *   | {ok: false, error: "network"|"timeout"}} Reply
 * @typedef {Reply & {answer?: "result"|"error"|"none", sessionId?: string|null, version?: string|null}} RpcReply
 * @typedef {{host: string, origin: string, token: boolean, reach: "ok"|"network"|"timeout",
 *   simple?: Reply, preflight?: Record<string, boolean>, discover?: RpcReply, initialize?: RpcReply,
 *   followUp?: RpcReply}} Findings
 * @typedef {Extract<Reply, {ok: true}>} Answered a request that got an answer
 * @typedef {Extract<RpcReply, {ok: true}>} RpcAnswered
 */

/** @param {Findings} found @returns {Verdict} */
export function judge(found) {
  if (found.reach !== "ok") return unreachable(found);
  const simple = found.simple;
  if (!simple?.ok) return noAllowOrigin(found);
  if (simple.redirected) return redirected();
  const blocked = preflightVerdict(found, simple);
  if (blocked) return blocked;
  return answerVerdict(found);
}

/** @param {Verdict["state"]} state @param {string} diagnosis @param {string} fix @returns {Verdict} */
function verdict(state, diagnosis, fix) {
  return { state, diagnosis, fix };
}

/** @param {Findings} found */
function unreachable(found) {
  if (found.reach === "timeout") {
    return verdict(
      "unreachable",
      `${found.host} did not answer in time (not even a request without CORS)`,
      "check that the server is running and answers HTTP at this URL",
    );
  }
  return verdict(
    "unreachable",
    `nothing answers at ${found.host}: a network error even for a request without CORS (no server listening, a wrong host or port, or a TLS failure)`,
    "start the server, or correct the URL's host and port",
  );
}

/** @param {Findings} found */
function noAllowOrigin(found) {
  return verdict(
    "cors-blocked",
    `the server answers, but without Access-Control-Allow-Origin for ${found.origin}: the browser hides every answer from the page`,
    `send Access-Control-Allow-Origin: ${found.origin} (or *) on every response, including errors`,
  );
}

function redirected() {
  return verdict(
    "error",
    "the server answers with a redirect: the page does not follow redirects of an MCP server",
    "give the URL the server redirects to (its final MCP endpoint)",
  );
}

/** Which preflights failed, as the header names that are not allowed; null when all passed.
 * @param {Findings} found @param {Answered} simple */
function preflightVerdict(found, simple) {
  const probed = REQUEST_HEADERS.filter((name) => name !== "authorization" || found.token);
  const stateless = found.discover?.ok && found.discover.answer === "result";
  const needed = probed.filter((name) => !(stateless && SESSION_ONLY.includes(name)));
  const failed = needed.filter((name) => found.preflight?.[name] === false);
  if (failed.length === 0) return null;
  if (failed.length === needed.length || failed.includes("content-type")) {
    if (simple.status === 401 || simple.status === 403) {
      return verdict(
        "cors-blocked",
        `the server asks for sign-in on the preflight (OPTIONS answers ${simple.status}); preflights must be answered without credentials`,
        "answer OPTIONS before the authentication check, with the CORS headers and no credentials asked",
      );
    }
    return verdict(
      "cors-blocked",
      "every preflight fails, even for Content-Type: application/json alone: OPTIONS is refused or answered without Access-Control-Allow-Origin",
      `answer OPTIONS with Access-Control-Allow-Origin, Access-Control-Allow-Methods: POST, GET, DELETE and Access-Control-Allow-Headers: ${probed.join(", ")}`,
    );
  }
  return verdict(
    "cors-blocked",
    `the preflight fails: Access-Control-Allow-Headers lacks ${failed.join(", ")}`,
    `add ${failed.join(", ")} to Access-Control-Allow-Headers`,
  );
}

/** The MCP step: `server/discover` (the stateless revision) or else `initialize` (the handshake).
 * @param {Findings} found */
function answerVerdict(found) {
  const asked = /** @type {RpcAnswered[]} */ ([found.discover, found.initialize].filter((reply) => reply?.ok));
  const refused = asked.find((reply) => reply.status === 401 || reply.status === 403);
  if (refused) return needsAuth(found, refused);
  if (found.discover?.ok && found.discover.answer === "result") {
    return verdict("connected", `server/discover answered (protocol ${MCP.modern_version})`, "");
  }
  const init = found.initialize;
  if (init?.ok && init.answer === "result") return initialized(found, init);
  return notMcp(found);
}

/** @param {Findings} found @param {RpcAnswered} reply */
function needsAuth(found, reply) {
  const said = found.token ? "refuses the token" : "asks for a token";
  if (reply.wwwAuthenticate === null || reply.wwwAuthenticate === undefined) {
    return verdict(
      "needs-auth",
      `the server ${said} (HTTP ${reply.status}), and Access-Control-Expose-Headers lacks www-authenticate: the page cannot read how to sign in`,
      "add www-authenticate to Access-Control-Expose-Headers",
    );
  }
  return verdict(
    "needs-auth",
    `the server ${said} (HTTP ${reply.status}, WWW-Authenticate: ${reply.wwwAuthenticate.slice(0, 120)})`,
    found.token ? "give a valid bearer token for this server" : "give a bearer token for this server",
  );
}

/** @param {Findings} found @param {RpcAnswered} init */
function initialized(found, init) {
  const version = init.version ? ` (protocol ${init.version})` : "";
  if (init.sessionId) return verdict("connected", `initialize answered${version} with a session`, "");
  const follow = found.followUp;
  if (follow?.ok && follow.answer !== "result" && follow.status >= 400) {
    return verdict(
      "cors-blocked",
      `initialize answered${version}, but its Mcp-Session-Id cannot be read (a request without it fails with HTTP ${follow.status}): Access-Control-Expose-Headers lacks ${HEADER.session}`,
      `add ${HEADER.session} to Access-Control-Expose-Headers`,
    );
  }
  return verdict("connected", `initialize answered${version} without a session`, "");
}

/** @param {Findings} found */
function notMcp(found) {
  const reply = found.initialize ?? found.discover;
  if (!reply?.ok) {
    return verdict(
      "error",
      `the MCP request failed after its preflight passed (${reply?.ok === false ? reply.error : "not sent"})`,
      "check the server's log for the POST of initialize",
    );
  }
  if (reply.answer === "error") {
    return verdict(
      "error",
      `the server answered initialize with a JSON-RPC error (HTTP ${reply.status})`,
      `check that the server speaks MCP ${MCP.handshake_version} or ${MCP.modern_version} at this URL`,
    );
  }
  return verdict(
    "error",
    `the server answered initialize with HTTP ${reply.status} and no JSON-RPC answer: this URL is not an MCP endpoint`,
    "give the URL of the server's MCP endpoint (often ending in /mcp)",
  );
}
