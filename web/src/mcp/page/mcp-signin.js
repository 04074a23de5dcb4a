// Signing in to an MCP server from the page (docs/mcp.md, "Sign-in"): the worker builds the
// authorization URL (agentlite.mcp.oauth), the page opens it in a popup, and the authorization server
// sends the popup back to oauth-callback.html, which hands the answer to this page and closes. The
// popup is opened with `noopener` and `noreferrer`: the authorization page gets no `window.opener` (it
// cannot script or navigate this tab) and no address of ours, and this page holds no handle to it. The
// answer travels only over a same-origin BroadcastChannel; here only a message of the expected shape,
// carrying the state of this sign-in, is taken. The code is worth nothing without the PKCE verifier,
// which never leaves the worker, and the worker sends it only to its own issuer (RFC 9207 `iss`).

export const CHANNEL = "agentlite-oauth";
export const MESSAGE_TYPE = "agentlite-oauth";
export const TIMEOUT_MS = 5 * 60_000;
export const POPUP_FEATURES = "popup,noopener,noreferrer,width=520,height=680";

/**
 * @typedef {{ type: string, code?: string, state?: string, iss?: string, error?: string, description?: string }} CallbackAnswer
 */

/** What arrived as a callback answer, unchecked. @typedef {{[K in keyof CallbackAnswer]?: unknown}} UncheckedAnswer */

/** What the callback page says, from its query string: the code and state, or the error.
 * @param {string} search */
export function readCallback(search) {
  const params = new URLSearchParams(search);
  /** @type {CallbackAnswer} */
  const answer = { type: MESSAGE_TYPE, state: params.get("state") ?? "" };
  const error = params.get("error");
  if (error) {
    answer.error = error.slice(0, 80);
    answer.description = (params.get("error_description") ?? "").slice(0, 300);
  } else {
    answer.code = params.get("code") ?? "";
  }
  const iss = params.get("iss"); // RFC 9207: which authorization server answered (the worker checks it)
  if (iss) answer.iss = iss;
  return answer;
}

/** The answer for this sign-in (its state), or null for anything else.
 * @param {UncheckedAnswer | null | undefined} data @param {string} state */
export function acceptAnswer(data, state) {
  if (!data || typeof data !== "object" || data.type !== MESSAGE_TYPE || data.state !== state) return null;
  if (typeof data.error === "string" && data.error) {
    const said = data.description ? `${data.error}: ${data.description}` : data.error;
    return { error: `the authorization server refused the sign-in (${String(said).slice(0, 400)})` };
  }
  if (typeof data.code !== "string" || !data.code) return null;
  return typeof data.iss === "string" ? { code: data.code, state, iss: data.iss } : { code: data.code, state };
}

/** @type {((outcome: { error: string }) => void) | null} */
let waiting = null; // the sign-in in progress: a new one takes its place

/**
 * Open the authorization URL in a popup cut from this page, and wait for its answer on the channel.
 * Rejects when the server refuses, when another sign-in starts, and after `timeoutMs`: with no handle
 * on the popup, a blocked or closed one is seen only that way. The seams (`open`, `channel`, timers)
 * let Node tests drive it.
 * @param {string} authorizationUrl
 * @param {{ open?: (url: string, target: string, features: string) => unknown, channel?: any,
 *           timeoutMs?: number }} [options]
 * @returns {Promise<{ code: string, state: string, iss?: string }>}
 */
export function openSignIn(authorizationUrl, options = {}) {
  const parsed = new URL(authorizationUrl);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return Promise.reject(new Error("the sign-in address is not a web address"));
  }
  const state = parsed.searchParams.get("state") ?? "";
  const open = options.open ?? ((url, target, features) => globalThis.window.open(url, target, features));
  const channel = options.channel ?? new BroadcastChannel(CHANNEL);
  waiting?.({ error: "another sign-in took its place" });
  return new Promise((resolve, reject) => {
    const finish = (/** @type {any} */ outcome) => {
      clearTimeout(timer);
      if (waiting === finish) waiting = null;
      channel.removeEventListener("message", onChannel);
      if (!options.channel) channel.close();
      if (outcome.code) resolve(outcome);
      else reject(new Error(outcome.error));
    };
    const onChannel = (/** @type {MessageEvent} */ event) => {
      const outcome = acceptAnswer(event.data, state);
      if (outcome) finish(outcome);
    };
    const timer = setTimeout(() => finish({ error: "the sign-in took too long" }), options.timeoutMs ?? TIMEOUT_MS);
    waiting = finish;
    channel.addEventListener("message", onChannel);
    open(authorizationUrl, "_blank", POPUP_FEATURES); // null whatever happened: noopener gives no handle
  });
}

/** Where sign-in returns, and the page's Client ID Metadata Document, for the page at `base`
 * (the build writes that document for AGENTLITE_SITE_URL: docs/mcp.md). */
export function signInUrls(base = globalThis.location?.href) {
  return {
    redirectUri: new URL("oauth-callback.html", base).href,
    metadataDocumentUrl: new URL("oauth/client.json", base).href,
  };
}
