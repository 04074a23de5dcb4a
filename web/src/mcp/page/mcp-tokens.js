// The bearer tokens of remote MCP servers, kept like the model key (settings.js): in this page's memory,
// and on this device only for a server whose "remember on this device" box was ticked. The worker never
// stores them: the page hands them over with each call that needs one (mcp.add, mcp.token, mcp.start).
import { rememberSecret, rememberedSecret } from "../../settings/settings.js";

const STORE = "agentlite.mcpTokens"; // {url: token} of the remembered tokens only

/** @typedef {{get: (url: string) => string, set: (url: string, token: string, remember: boolean) => void,
 *   forget: (url: string) => void, all: () => Record<string, string>}} McpTokens */

/** @param {Storage} storage @returns {McpTokens} */
export function createMcpTokens(storage) {
  const remembered = () => {
    try {
      const found = JSON.parse(rememberedSecret(storage, STORE) || "{}");
      return found && typeof found === "object" ? found : {};
    } catch {
      return {};
    }
  };
  /** @type {Map<string, string>} */
  const held = new Map(Object.entries(remembered()));
  const write = (/** @type {Record<string, string>} */ kept) =>
    rememberSecret(storage, STORE, Object.keys(kept).length ? JSON.stringify(kept) : "");

  return {
    get: (url) => held.get(url) || "",
    set(url, token, remember) {
      const kept = remembered();
      delete kept[url];
      if (token) held.set(url, token);
      else held.delete(url);
      if (token && remember) kept[url] = token;
      write(kept);
    },
    forget(url) {
      held.delete(url);
      const kept = remembered();
      delete kept[url];
      write(kept);
    },
    all: () => Object.fromEntries(held),
  };
}
