// The project switcher (docs/projects.md): the header's button names the open project; its dialog lists
// every project, the most recent first, with what each takes in this browser, and creates, renames,
// duplicates and deletes. Opening a project is going to its address (`?project=<name>`): the page starts
// on that project's own database, and another tab may hold another project meanwhile.
import { projectNames } from "../agent/common/database.js";
import { projectUrl } from "../projects/current.js";
import { databaseBytes, sizeText } from "../projects/project-size.js";
import { onChange } from "../projects/registry.js";
import { el } from "./dom.js";

/** @typedef {ReturnType<typeof import("../projects/registry.js").createRegistry>} Registry */
/** @typedef {{id: string, name: string, opened: number}} Project */
/**
 * @typedef {{
 *   registry: Registry,
 *   open: import("../projects/current.js").OpenProject,
 *   go: (name: string) => void,
 *   duplicate: (name: string) => Promise<void>,
 *   forget: (id: string) => Promise<void>,
 * }} ProjectViewDeps
 */

/** @param {ParentNode} root @param {ProjectViewDeps} deps */
export function createProjectView(root, { registry, open, go, duplicate, forget }) {
  const q = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`[data-testid=${id}]`));
  const switcher = /** @type {HTMLButtonElement} */ (q("project-switcher"));
  const dialog = /** @type {HTMLDialogElement} */ (q("project-dialog"));
  const list = q("project-list");
  const nameField = /** @type {HTMLInputElement} */ (q("project-name"));
  const ask = q("project-delete-ask");
  const problem = q("handoff-problem");

  switcher.textContent = open.name;
  switcher.title = `Project: ${open.name} (switch, create, take it with you)`;

  /** @param {string} text */
  function say(text) {
    problem.textContent = text;
    problem.hidden = !text;
  }

  function render() {
    list.replaceChildren(...registry.list().map(item));
    siteUse().then((text) => (q("project-storage").textContent = text));
  }

  /** @param {Project} project */
  function item(project) {
    const active = project.id === open.id;
    const row = el("li", "project-item", null, {
      testid: "project-item",
      "data-name": project.name,
      "data-active": String(active),
    });
    const pick = el("button", "project-open", project.name, active ? { "aria-current": "true" } : {});
    pick.type = "button";
    pick.addEventListener("click", () => (active ? dialog.close() : go(project.name)));
    const size = el("span", "project-size", "…", { "aria-label": `storage used by ${project.name}` });
    measure(project.id).then((bytes) => (size.textContent = sizeText(bytes)));
    row.append(pick, size);
    return row;
  }

  /** @param {string} id */
  async function measure(id) {
    const names = projectNames(id);
    const sizes = await Promise.all([databaseBytes(names.database), databaseBytes(names.attachments)]);
    return sizes[0] + sizes[1];
  }

  /** What this site's projects take together, against what the browser allows it. */
  async function siteUse() {
    try {
      const { usage = 0, quota = 0 } = await navigator.storage.estimate();
      return `All projects and the app's files: ${sizeText(usage)} of the ${sizeText(quota)} this browser allows.`;
    } catch {
      return "";
    }
  }

  /** @param {() => void | Promise<void>} action */
  const guarded = (action) => async () => {
    say("");
    try {
      await action();
    } catch (/** @type {any} */ err) {
      say(err.message);
    }
  };

  const typed = () => nameField.value.trim();
  const actions = {
    "project-new": () => go(registry.create(typed() || registry.uniqueName("New project")).name),
    "project-rename": () => {
      if (!typed()) throw new Error("Type the new name in the Name field first.");
      const renamed = registry.rename(open.id, typed());
      if (!renamed) throw new Error("This project is no longer listed: another tab deleted it.");
      go(renamed.name);
    },
    "project-duplicate": () => duplicate(typed() || registry.uniqueName(`${open.name} copy`)),
    "project-delete": () => {
      /** @type {HTMLElement} */ (ask.querySelector("span")).textContent =
        `Delete "${open.name}" with all its files, history, chats and memory? This cannot be undone.`;
      ask.hidden = false;
      /** @type {HTMLElement} */ (q("project-delete-cancel")).focus();
    },
    "project-delete-confirm": async () => {
      ask.hidden = true;
      registry.remove(open.id);
      await forget(open.id);
      go(registry.list()[0].name);
    },
    "project-delete-cancel": () => {
      ask.hidden = true;
    },
    "project-close": () => dialog.close(),
  };
  for (const [id, action] of Object.entries(actions)) q(id).addEventListener("click", guarded(action));

  switcher.addEventListener("click", () => {
    render();
    say("");
    ask.hidden = true;
    dialog.showModal();
  });
  // Another tab made, renamed or deleted a project: the list follows, and so do this page's address and
  // button when the renamed project is this one (a reload must not make an empty project of the old name).
  onChange(() => {
    const mine = registry.get(open.id);
    if (mine && mine.name !== open.name) {
      open.name = mine.name;
      switcher.textContent = mine.name;
      history.replaceState(history.state, "", projectUrl(mine.name));
    }
    if (dialog.open) render();
  });
  if (open.problem) {
    render();
    dialog.showModal();
    say(open.problem);
  }
  return { show: () => switcher.click(), say };
}
