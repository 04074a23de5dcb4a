// `/name` in the composer: typing `/` at the start of the message offers the workspace's valid Agent
// Skills (docs/skills.md) in a listbox under the field (a combobox, as the `@path` list is); arrows move,
// Enter or Tab inserts `/name `, Escape closes. Sending `/name rest` makes the turn carry that skill's
// SKILL.md for the model (the worker reads the command: engine/turn_message.py). Keys are caught on the
// way down, before the chat view's own (Enter sends, Escape stops), and only while the list is open.
import { el } from "./dom.js";
import { closeList, markOption } from "./listbox.js";

const COMMAND_AT_CARET = /^\/([a-z0-9-]*)$/;
const SHOWN = 8;

/** A workspace skill as `skills.list` lists it (the fields this list reads).
 * @typedef {{name: string, description: string, valid: boolean}} Skill */

/** The skills whose name matches what follows the `/`: names that start with it first.
 * @param {Skill[]} skills @param {string} typed */
export function matchingSkills(skills, typed) {
  const valid = skills.filter((skill) => skill.valid);
  const starts = valid.filter((skill) => skill.name.startsWith(typed));
  const within = valid.filter((skill) => !skill.name.startsWith(typed) && skill.name.includes(typed));
  return [...starts, ...within].slice(0, SHOWN);
}

/** @param {HTMLFormElement} form @param {{listSkills: () => Promise<unknown>}} actions */
export function createSkillCommand(form, { listSkills }) {
  const input = /** @type {HTMLTextAreaElement} */ (form.querySelector("[data-testid=chat-input]"));
  const list = el("ul", "mention-list skill-list", null, {
    id: "skill-list",
    testid: "skill-command-list",
    role: "listbox",
    "aria-label": "Skills to use",
  });
  list.hidden = true;
  input.after(list);
  const usualControls = input.getAttribute("aria-controls");
  /** @type {Skill[]} */
  let options = [];
  let selected = 0;
  /** @type {Skill[] | null} */
  let skills = null; // read on the first `/` of each command, so a new skill shows up

  const typed = () => COMMAND_AT_CARET.exec(input.value.slice(0, input.selectionStart))?.[1] ?? null;

  async function update() {
    const query = typed();
    if (query === null) {
      skills = null;
      return close();
    }
    skills ??= await listSkills().then(
      (found) => /** @type {{skills: Skill[]}} */ (found).skills,
      () => [],
    );
    if (typed() !== query) return; // typed on while the list was loading
    const found = matchingSkills(skills, query);
    found.length ? show(found) : close();
  }

  /** @param {Skill[]} found */
  function show(found) {
    options = found;
    selected = Math.min(selected, found.length - 1);
    list.replaceChildren(...found.map(optionFor));
    list.hidden = false;
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-expanded", "true");
    mark();
  }

  /** @param {Skill} skill @param {number} index */
  function optionFor(skill, index) {
    const option = el("li", "mention-option skill-option", null, {
      id: `skill-option-${index}`,
      role: "option",
      testid: "skill-option",
    });
    option.dataset.name = skill.name;
    option.append(el("strong", "", `/${skill.name}`), el("span", "skill-option-description", ` ${skill.description}`));
    option.addEventListener("mousedown", (event) => event.preventDefault()); // keeps the focus in the field
    option.addEventListener("click", () => pick(skill.name));
    return option;
  }

  const mark = () => markOption(list, input, "skill-option", selected);

  function close() {
    if (list.hidden) return;
    options = [];
    selected = 0;
    closeList(list, input);
    if (usualControls) input.setAttribute("aria-controls", usualControls);
  }

  /** @param {string} name */
  function pick(name) {
    const rest = input.value.slice(input.selectionStart).replace(/^\S*\s?/, "");
    input.value = `/${name} ${rest}`;
    const caret = name.length + 2;
    input.setSelectionRange(caret, caret);
    close();
    input.focus();
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.target !== input || list.hidden || !options.length) return;
    /** @type {Record<string, number | undefined>} */
    const moves = { ArrowDown: 1, ArrowUp: -1 };
    if (moves[event.key]) {
      selected = (selected + /** @type {number} */ (moves[event.key]) + options.length) % options.length;
      mark();
    } else if (event.key === "Enter" || event.key === "Tab") pick(options[selected].name);
    else if (event.key === "Escape") close();
    else return;
    event.preventDefault();
    event.stopPropagation();
  }

  form.addEventListener("keydown", onKey, true);
  // On the form, as the input bubbles: after the field's own listeners (the `@path` list closes itself
  // and resets the field's ARIA state on every input), so this list's state is the one left.
  form.addEventListener("input", (event) => event.target === input && update());
  input.addEventListener("blur", () => close());
  return { close };
}
