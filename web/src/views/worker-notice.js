// "The agent stopped answering and was restarted": shown under the top bar when the watchdog ended a
// worker whose Python step never finished (web/src/agent/page/watchdog.js). It says what happened and what was
// kept, and follows the new worker until it is ready (`data-state` restarting → ready).
import { button, el } from "./dom.js";

const KEPT =
  "Your files, chats and settings are kept (they were already saved); a turn that was running ended with an error.";

/** @param {ParentNode} root */
export function createWorkerNotice(root) {
  const anchor = /** @type {Element} */ (root.querySelector(".topbar"));
  /** @type {HTMLDivElement | null} */
  let box = null;
  /** @type {HTMLSpanElement | null} */
  let text = null;

  /** @param {{reason: string, hangMs: number}} restart why the watchdog restarted the worker */
  function restarting({ reason, hangMs }) {
    box?.remove();
    box = el("div", "storage-notice worker-restarted", null, { testid: "worker-restarted", role: "alert" });
    box.dataset.state = "restarting";
    text = el(
      "span",
      "",
      `AgentLite restarted its agent: ${reason} (a step in Python ran past the ${hangMs / 1000} s limit, ` +
        `as a runaway search pattern or an endless loop would). ${KEPT} Starting it again…`,
    );
    box.append(
      text,
      button("Dismiss", "worker-restarted-dismiss", () => box?.remove()),
    );
    anchor.after(box);
  }

  function ready() {
    if (box?.dataset.state !== "restarting") return;
    box.dataset.state = "ready";
    /** @type {HTMLSpanElement} */ (text).textContent = /** @type {string} */ (
      /** @type {HTMLSpanElement} */ (text).textContent
    ).replace(/Starting it again…$/, "The agent is ready again.");
  }

  return { restarting, ready };
}
