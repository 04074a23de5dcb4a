// The active chat's proposal as the editor and the preview show it: which files its stage changes, and
// whether they show the proposed text ("after", the default) or the workspace's ("before"). The review
// view sets it from each review; the editor and the preview read it and hear when it changes. A marker
// (`markProposed`) says "Proposed" where the staged state is shown, with the before/after toggle.

/** The review's files as this needs them. @typedef {{path: string, state: string}} ProposedFile */

export function createProposal() {
  /** @type {string | null} */
  let chat = null;
  /** @type {Set<string>} paths still undecided on the stage (pending or in conflict) */
  let paths = new Set();
  let before = false;
  /** @type {((by: "user" | "agent") => void)[]} */
  const listeners = [];
  /** @param {"user" | "agent"} by the user toggled, or the agent's proposal changed */
  const told = (by) => {
    for (const listener of listeners) listener(by);
  };

  return {
    /** The review of `chatId` (its files), or none: each change of what is proposed is told once.
     * @param {string | null} chatId @param {ProposedFile[] | null} files */
    set(chatId, files) {
      const next = new Set(
        (files || []).filter((f) => f.state === "pending" || f.state === "conflict").map((f) => f.path),
      );
      const nextChat = next.size ? chatId : null;
      if (nextChat === chat && next.size === paths.size && [...next].every((path) => paths.has(path))) return;
      if (nextChat !== chat) before = false;
      chat = nextChat;
      paths = next;
      told("agent");
    },
    /** Whether `path` is changed by the proposal. @param {string} path */
    has: (path) => chat !== null && paths.has(path),
    /** The chat whose stage to read `path` from: null where the workspace's text is shown.
     * @param {string} path */
    chatFor: (path) => (chat !== null && !before && paths.has(path) ? chat : null),
    /** The chat whose stage the preview shows (null: the workspace). */
    chat: () => (before ? null : chat),
    /** Whether anything is proposed. */
    active: () => chat !== null,
    /** How many files are still to decide. */
    count: () => (chat === null ? 0 : paths.size),
    before: () => before,
    toggle() {
      before = !before;
      told("user");
    },
    /** @param {(by: "user" | "agent") => void} listener */
    onChange: (listener) => listeners.push(listener),
  };
}

/** @typedef {ReturnType<typeof createProposal>} Proposal */

/** The "Proposed" marker in `marker` (its `.proposed-text` and `.proposed-toggle`); returns `show(shown)`,
 * which shows it while the proposal concerns what is on view.
 * @param {HTMLElement} marker @param {Proposal} proposal @param {{after: string, before: string}} words */
export function markProposed(marker, proposal, words) {
  const text = /** @type {HTMLElement} */ (marker.querySelector(".proposed-text"));
  const toggle = /** @type {HTMLButtonElement} */ (marker.querySelector(".proposed-toggle"));
  toggle.addEventListener("click", () => proposal.toggle());
  /** @param {boolean} shown */
  return function show(shown) {
    marker.hidden = !shown;
    const before = proposal.before();
    marker.dataset.showing = before ? "before" : "after";
    text.textContent = before ? words.before : words.after;
    toggle.setAttribute("aria-pressed", String(before));
  };
}
