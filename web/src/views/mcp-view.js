// The Servers panel: the workspace's remote MCP servers. Add one by URL (and an optional bearer token),
// see each server's state and why it is not connected, connect one that came in a hand-off file (it waits
// for the user), turn its tools on and off, give a server that needs sign-in a token, remove it. The worker keeps the servers and tells every change (`mcp` messages);
// tokens stay on the page (mcp-tokens.js). When the worker finds a server unreachable, the connection
// doctor (mcp-doctor.js) looks from the page and says why in words, with a fix. Everything a server sends
// (its name, its tools' names) goes into textContent only.
import { button, el } from "./dom.js";
import { diagnose } from "../mcp/page/mcp-doctor.js";
import { openSignIn, signInUrls } from "../mcp/page/mcp-signin.js";

/** A server as the worker describes it (py/agentlite/mcp).
 * @typedef {{ url: string, name?: string, title?: string, state: string, diagnosis?: string,
 *   tools?: { name: string, enabled?: boolean }[], note?: string }} ServerView */
/** @typedef {{ state: string, diagnosis: string, fix: string }} Finding */

/** @type {Record<string, string>} */
const STATE_WORDS = {
  held: "not connected (from a hand-off file)",
  connecting: "connecting…",
  connected: "connected",
  "needs-auth": "needs sign-in",
  unreachable: "unreachable",
  "cors-blocked": "blocked by CORS",
  error: "error",
};

/** @param {Element} root @param {{call: (method: string, args?: object) => Promise<any>,
 *   tokens: import("../mcp/page/mcp-tokens.js").McpTokens}} options */
export function createMcpView(root, { call, tokens }) {
  const toggle = /** @type {HTMLButtonElement} */ (root.querySelector("[data-testid=mcp-open]"));
  const panel = /** @type {HTMLElement} */ (root.querySelector("[data-testid=mcp-panel]"));
  const list = /** @type {HTMLElement} */ (panel.querySelector(".mcp-list"));
  const message = /** @type {HTMLElement} */ (panel.querySelector(".mcp-message"));
  const form = /** @type {HTMLFormElement} */ (panel.querySelector(".mcp-add-form"));
  const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  /** @type {Map<string, ServerView>} url -> the worker's view of the server */
  const servers = new Map();
  /** @type {Map<string, Finding>} url -> the doctor's finding */
  const findings = new Map();

  /** @param {HTMLElement["hidden"]} open */
  function setOpen(open) {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) field("url").focus();
  }

  /** A server's view from the worker (an `mcp` message or a call's answer).
   * @param {ServerView | null | undefined} view */
  function update(view) {
    if (!view?.url) return;
    servers.set(view.url, view);
    if (view.state !== "unreachable") findings.delete(view.url);
    else if (!findings.has(view.url)) consultDoctor(view.url);
    render();
  }

  /** @param {string} url */
  async function consultDoctor(url) {
    findings.set(url, { state: "unreachable", diagnosis: servers.get(url)?.diagnosis || "", fix: "" });
    try {
      const found = await diagnose(url, { token: tokens.get(url) });
      if (servers.get(url)?.state === "unreachable" && found.state !== "connected")
        findings.set(url, /** @type {Finding} */ (found));
    } catch (err) {
      console.warn("agentlite: connection doctor", err);
    }
    render();
  }

  function render() {
    const focused = document.activeElement?.closest?.("[data-testid=mcp-server]")?.getAttribute("data-url");
    const items = [...servers.values()].map((view) =>
      view.url === focused ? refreshItem(list.querySelector(`[data-url="${CSS.escape(view.url)}"]`), view) : item(view),
    );
    list.replaceChildren(...items);
    message.textContent = servers.size ? "" : "No servers yet. Add one by its URL to give the agent its tools.";
  }

  /** Keep the item that holds the focus (a token being typed), with its state brought up to date.
   * @param {HTMLElement | null} node
   * @param {ServerView} view */
  function refreshItem(node, view) {
    if (!node) return item(view);
    const fresh = item(view);
    node.dataset.state = fresh.dataset.state;
    /** @type {Element} */ (node.querySelector(".mcp-state")).textContent = /** @type {Element} */ (
      fresh.querySelector(".mcp-state")
    ).textContent;
    return node;
  }

  /** @param {ServerView} view */
  function item(view) {
    const finding = findings.get(view.url);
    const state = finding?.state || view.state;
    const node = el("li", "mcp-server", null, { testid: "mcp-server", "data-url": view.url });
    node.dataset.name = view.name || "";
    node.dataset.state = state;
    const head = el("div", "mcp-head");
    head.append(
      el("strong", "mcp-title", view.title || view.name || view.url),
      el("span", "mcp-url-text", view.url),
      el("span", "mcp-state", STATE_WORDS[state] || state),
    );
    const remove = button("Remove", "mcp-remove", () => act(() => call("mcp.remove", { url: view.url }), view.url));
    remove.setAttribute("aria-label", `Remove the server ${view.url}`);
    head.append(remove);
    node.append(head);
    if (state !== "connected" && state !== "connecting") node.append(diagnosisOf(view, finding));
    if (state === "held") node.append(connectButton(view));
    if (state === "needs-auth") node.append(signInButton(view), tokenForm(view));
    if (view.tools?.length) node.append(toolList(view));
    if (view.note) node.append(el("p", "mcp-note", view.note, { testid: "mcp-note", role: "status" }));
    return node;
  }

  /**
   * @param {ServerView} view
   * @param {Finding | undefined} finding
   */
  function diagnosisOf(view, finding) {
    const text = finding?.diagnosis || view.diagnosis || "the server did not answer";
    const fix = finding?.fix ? ` ${finding.fix}` : "";
    return el("p", "mcp-diagnosis", `${text}${fix}`, { testid: "mcp-diagnosis", role: "status" });
  }

  /** A server that came in a hand-off file waits for the user: Connect sends it its first request.
   * @param {ServerView} view */
  function connectButton(view) {
    const connect = button("Connect", "mcp-connect", () =>
      act(() => call("mcp.connect", { url: view.url, token: tokens.get(view.url) || null }).then(update)),
    );
    connect.setAttribute("aria-label", `Connect to the server ${view.url}`);
    return connect;
  }

  /** A token for a server that needs sign-in: it connects again with it.
   * @param {ServerView} view */
  function tokenForm(view) {
    const box = el("form", "mcp-token-form", null, { autocomplete: "off" });
    const label = el("label", "", "Bearer token ");
    const input = el("input", "", null, { testid: "mcp-token", type: "password", name: "token" });
    label.append(input);
    const use = el("button", "", "Use token", { testid: "mcp-token-use", type: "submit" });
    box.append(label, use);
    box.addEventListener("submit", (event) => {
      event.preventDefault();
      const token = input.value.trim();
      tokens.set(view.url, token, false);
      act(() => call("mcp.token", { url: view.url, token }).then(update), view.url);
    });
    return box;
  }

  /** OAuth sign-in (docs/mcp.md, "Sign-in"): the worker finds where, the popup is opened here, the worker
   * trades the code for tokens. The access token comes back to be kept like a pasted one (memory only).
   * @param {ServerView} view */
  function signInButton(view) {
    const signIn = button("Sign in", "mcp-signin", () =>
      signInTo(view.url).catch((err) => {
        message.textContent = `Sign-in to ${view.url} failed: ${err.message}`;
      }),
    );
    signIn.setAttribute("aria-label", `Sign in to ${view.title || view.url}`);
    return signIn;
  }

  /** @param {string} url */
  async function signInTo(url) {
    const { redirectUri, metadataDocumentUrl } = signInUrls();
    const begun = await call("mcp.signin_begin", {
      url,
      redirect_uri: redirectUri,
      metadata_document_url: (await servedClientId()) === metadataDocumentUrl ? metadataDocumentUrl : null,
    });
    const answer = await openSignIn(begun.authorization_url);
    const done = await call("mcp.signin_finish", { state: answer.state, code: answer.code, iss: answer.iss ?? null });
    tokens.set(url, done.token, false);
    update(done.server);
  }

  /** @param {ServerView} view */
  function toolList(view) {
    const tools = el("ul", "mcp-tools", null, { "aria-label": `Tools of ${view.title || view.url}` });
    for (const tool of /** @type {NonNullable<ServerView["tools"]>} */ (view.tools)) {
      const entry = el("li");
      const flip = button(tool.name, "mcp-tool", () =>
        act(() => call("mcp.toggle", { url: view.url, tool: tool.name, enabled: !tool.enabled }).then(update)),
      );
      flip.dataset.name = tool.name;
      flip.dataset.enabled = String(Boolean(tool.enabled));
      flip.setAttribute("aria-pressed", String(Boolean(tool.enabled)));
      flip.title = tool.enabled ? "On: the agent may call it (click to turn off)" : "Off (click to turn on)";
      entry.append(flip);
      tools.append(entry);
    }
    return tools;
  }

  /** The client id of the metadata document this site serves: only a document built for this very
   * address may stand for the page (a site built for another address signs in by registration). */
  async function servedClientId() {
    try {
      const answer = await fetch("oauth/client.json", { cache: "no-store" });
      return answer.ok ? (await answer.json()).client_id : null;
    } catch {
      return null;
    }
  }

  /**
   * @param {() => Promise<unknown>} change
   * @param {string | null} [forget]
   */
  async function act(change, forget = null) {
    try {
      await change();
      if (forget) {
        servers.delete(forget);
        findings.delete(forget);
        tokens.forget(forget);
        render();
      }
    } catch (err) {
      message.textContent = `Could not change the server: ${/** @type {Error} */ (err).message}`;
    }
  }

  /** "Always allow" from an approval card: the tool `name` or its whole server. The server is the one whose
   * tool list holds that name (what the worker registered), never a part of the name read back.
   * @param {string} name
   * @param {unknown} [server] */
  function allow(name, server) {
    const owners = [...servers.values()].filter((view) => view.tools?.some((tool) => tool.name === name));
    if (owners.length !== 1) return Promise.reject(new Error(`no single server lists the tool ${name}`));
    const found = owners[0];
    return call("mcp.allow", server ? { url: found.url } : { url: found.url, tool: name }).then(update);
  }

  /** Connect the workspace's servers (after the start, and again after a worker restart). */
  function start() {
    return call("mcp.start", { tokens: tokens.all() }).then(
      (/** @type {ServerView[]} */ views) => {
        for (const view of views) update(view);
        render();
      },
      (/** @type {Error} */ err) => {
        message.textContent = `Servers unavailable: ${err.message}`;
      },
    );
  }

  toggle.addEventListener("click", () => setOpen(panel.hidden));
  panel.querySelector("[data-testid=mcp-close]")?.addEventListener("click", () => {
    setOpen(false);
    toggle.focus();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const [url, token, remember] = [field("url"), field("token"), field("remember")];
    const values = { url: url.value.trim(), token: token.value.trim() };
    if (!values.url) return;
    tokens.set(values.url, values.token, remember.checked);
    token.value = "";
    act(() =>
      call("mcp.add", values).then((view) => {
        url.value = "";
        update(view);
      }),
    );
  });
  render();
  return { update, start, allow };
}
