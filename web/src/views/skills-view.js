// The workspace's Agent Skills (docs/skills.md), a section of the files panel: each skill's name and
// description, and for an invalid one the reason it is not offered to the model. A skill's name opens
// its SKILL.md in the editor. What a skill file says is set only as textContent. The list is read again
// after every workspace change (the worker's `change` event); refreshes that pile up collapse into one.
import { el } from "./dom.js";
import { coalesced } from "./coalesce.js";

/** @typedef {{ name: string, folder: string, description?: string, valid: boolean, reason?: string }} Skill */
/** @typedef {{ skills: Skill[], left_out?: number }} SkillList */

/** `list()` answers `{skills: [{name, folder, description, valid, reason}], left_out}`; `onOpen(path)`
 * opens a file in the editor.
 * @param {ParentNode} root
 * @param {{ list: () => Promise<SkillList>, onOpen: (path: string) => void }} options */
export function createSkillsView(root, { list, onOpen }) {
  const items = /** @type {HTMLElement} */ (root.querySelector("[data-testid=skills-list]"));
  const message = /** @type {HTMLElement} */ (root.querySelector(".skills-message"));

  /** @param {SkillList} answer */
  function render({ skills, left_out: leftOut }) {
    items.replaceChildren(...skills.map(itemFor));
    const count = skills.filter((skill) => skill.valid).length;
    const more = leftOut ? ` ${leftOut} more folders were not read.` : "";
    message.textContent = skills.length
      ? `${count} of ${skills.length} offered to the model.${more}`
      : "No skills. Add a folder /.agents/skills/<name>/ with a SKILL.md.";
  }

  /** @param {Skill} skill */
  function itemFor(skill) {
    const item = el("li", "skill-item", null, { testid: "skill-item" });
    item.dataset.name = skill.name;
    item.dataset.valid = String(skill.valid);
    const open = el("button", "skill-open", skill.name, { type: "button", title: `${skill.folder}/SKILL.md` });
    open.setAttribute("aria-label", `Open the skill ${skill.name}${skill.valid ? "" : " (invalid)"}`);
    open.addEventListener("click", () => onOpen(`${skill.folder}/SKILL.md`));
    item.append(open);
    if (skill.description) item.append(el("span", "skill-description", skill.description));
    if (!skill.valid) item.append(el("span", "skill-reason", `Not offered to the model: ${skill.reason}`));
    return item;
  }

  async function refreshOnce() {
    try {
      render(await list());
    } catch (err) {
      message.textContent = `Skills unavailable: ${/** @type {Error} */ (err).message}`;
    }
  }

  return { refresh: coalesced(refreshOnce) };
}
