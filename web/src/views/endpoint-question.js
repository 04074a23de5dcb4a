// "This link points AgentLite at another model endpoint": asked under the top bar when a link's
// `base_url` differs from the endpoint the user saved. Until the user answers, the page keeps the saved
// endpoint, so nothing (the workspace, memory, AGENTS.md, the model list) goes to the link's host
// unasked. "Use it" applies the link's settings for this visit (not saved, as URL parameters always are);
// "Keep my endpoint" drops them from the address, so a reload does not ask again.
import { button, el } from "./dom.js";
import { originOf } from "../settings/settings.js";

/** `linked`: the link's base URL; `saved`: the saved one; `onUse()` / `onKeep()`: the user's answer.
 * @param {ParentNode} root @param {{linked: string, saved: string, onUse: () => unknown, onKeep: () => unknown}} question */
export function askEndpoint(root, { linked, saved, onUse, onKeep }) {
  const box = el("div", "storage-notice endpoint-question", null, {
    testid: "endpoint-question",
    role: "alertdialog",
    "aria-label": "Use another model endpoint?",
    "data-origin": originOf(linked),
  });
  const text = el("span");
  text.append(
    "This link asks AgentLite to send your chats, files and memory to ",
    el("strong", "", originOf(linked) || linked),
    ` (${linked}). Until you choose, your endpoint ${originOf(saved) || saved} stays in use.`,
  );
  /** @param {() => unknown} then */
  const answer = (then) => () => {
    box.remove();
    then();
  };
  box.append(
    text,
    button("Use it", "endpoint-use", answer(onUse)),
    button("Keep my endpoint", "endpoint-keep", answer(onKeep)),
  );
  /** @type {Element} */ (root.querySelector(".topbar")).after(box);
}
