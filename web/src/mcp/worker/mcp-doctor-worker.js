// The MCP connection doctor's worker (docs/mcp.md, Connection doctor): the page's CSP allows it no request
// to another origin, so the probes run here, in a worker of the page's own origin, and only their
// outcomes go back. One diagnosis per worker; the page ends it.
import { probeServer } from "./mcp-doctor-probes.js";

self.onmessage = async (/** @type {MessageEvent<{url: string, token?: string}>} */ event) => {
  const { url, token } = event.data;
  self.postMessage(await probeServer(url, { token, origin: self.location.origin }));
};
