// Signing in to an MCP server from the page (docs/mcp.md, "Sign-in"): the worker builds the
// authorization URL (agentlite.mcp.oauth), the page opens it in a popup, and the authorization server
// sends the popup back to oauth-callback.html, which hands the answer to this page and closes. The
// answer travels over a same-origin BroadcastChannel (it survives an authorization server that cuts
// window.opener) and over window.opener.postMessage aimed at our own origin; here only a message from
// our own origin, of the expected shape, carrying the state of this sign-in is taken. The code is
// worth nothing without the PKCE verifier, which never leaves the worker.

export const CHANNEL = "agentlite-oauth";
export const MESSAGE_TYPE = "agentlite-oauth";
export const TIMEOUT_MS = 5 * 60_000;
const POLL_MS = 500;
const CLOSED_GRACE_MS = 2000; // a closed popup may still have answered on the channel just before

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

/**
 * Open the authorization URL in a popup and wait for its answer.
 * Rejects when the server refuses, when the popup is blocked or closed without an answer, and after
 * `timeoutMs`. The seams (`open`, `channel`, `target`, `origin`, timers) let Node tests drive it.
 * @param {string} authorizationUrl
 * @param {{ open?: (url: string) => any, channel?: any, target?: any, origin?: string,
 *           timeoutMs?: number, pollMs?: number, graceMs?: number }} [options]
 * @returns {Promise<{ code: string, state: string, iss?: string }>}
 */
export function openSignIn(authorizationUrl, options = {}) {
  const parsed = new URL(authorizationUrl);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return Promise.reject(new Error("the sign-in address is not a web address"));
  }
  const state = parsed.searchParams.get("state") ?? "";
  const target = options.target ?? globalThis.window;
  const origin = options.origin ?? globalThis.location?.origin;
  const open = options.open ?? ((url) => target.open(url, "agentlite-signin", "popup,width=520,height=680"));
  const channel = options.channel ?? new BroadcastChannel(CHANNEL);
  return new Promise((resolve, reject) => {
    /** @type {ReturnType<typeof setTimeout>[]} */
    const timers = [];
    const finish = (/** @type {any} */ outcome) => {
      for (const timer of timers) clearTimeout(timer);
      clearInterval(/** @type {ReturnType<typeof setInterval>} */ (poll));
      channel.removeEventListener("message", onChannel);
      target?.removeEventListener?.("message", onWindow);
      if (!options.channel) channel.close();
      if (outcome.code) resolve(outcome);
      else reject(new Error(outcome.error));
    };
    const take = (/** @type {UncheckedAnswer | null | undefined} */ data) => {
      const outcome = acceptAnswer(data, state);
      if (outcome) finish(outcome);
    };
    const onChannel = (/** @type {MessageEvent} */ event) => take(event.data);
    const onWindow = (/** @type {MessageEvent} */ event) => {
      if (event.origin === origin) take(event.data);
    };
    channel.addEventListener("message", onChannel);
    target?.addEventListener?.("message", onWindow);
    const popup = open(authorizationUrl);
    /** @type {ReturnType<typeof setInterval> | null} */
    let poll = null;
    if (!popup) {
      finish({ error: "the sign-in window was blocked: allow pop-ups for this page and try again" });
      return;
    }
    poll = setInterval(() => {
      if (!popup.closed) return;
      clearInterval(/** @type {ReturnType<typeof setInterval>} */ (poll));
      const closed = "the sign-in window was closed before the authorization server answered";
      timers.push(setTimeout(() => finish({ error: closed }), options.graceMs ?? CLOSED_GRACE_MS));
    }, options.pollMs ?? POLL_MS);
    timers.push(setTimeout(() => finish({ error: "the sign-in took too long" }), options.timeoutMs ?? TIMEOUT_MS));
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
