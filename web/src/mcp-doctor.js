// The connection doctor of remote MCP servers: asked by the Servers panel when the worker cannot reach a
// server, it looks from the page and says why in words, with a fix. This minimal version tells a server
// that answers (and whether it wants a token) from one that cannot be reached at all.

/** @param {string} url @param {{token?: string}} options
 *  @returns {Promise<{state: "connected"|"needs-auth"|"unreachable"|"cors-blocked"|"error", diagnosis: string, fix: string}>} */
export async function diagnose(url, options) {
  const headers = { accept: "application/json, text/event-stream", "content-type": "application/json" };
  if (options?.token) headers.authorization = `Bearer ${options.token}`;
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  let response;
  try {
    response = await fetch(url, { method: "POST", headers, body, credentials: "omit", redirect: "error" });
  } catch (err) {
    return {
      state: /** @type {const} */ ("unreachable"),
      diagnosis: `unreachable: ${err instanceof Error ? err.message : String(err)}`,
      fix: "Check that the server is running and the URL is right; a server on another site must allow this page in its CORS answer.",
    };
  }
  if (response.status === 401 || response.status === 403) {
    return {
      state: /** @type {const} */ ("needs-auth"),
      diagnosis: "this server needs sign-in: paste a token",
      fix: "Enter a bearer token for this server.",
    };
  }
  return {
    state: /** @type {const} */ ("connected"),
    diagnosis: `the server answered (HTTP ${response.status})`,
    fix: "",
  };
}
