// What an element is to a screen reader, as the preview's snapshot shows it (aria-snapshot.js): its role
// (ARIA's `role`, else the implicit role of the common HTML elements), its accessible name (by the usual
// precedence: aria-labelledby, aria-label, the label of a form field, alt, content, title, placeholder),
// its value and its states. A reduced reading of the ARIA and HTML-AAM rules: enough for a model to find
// and drive a page's controls, not a full accessibility engine.

const INPUT_ROLES = /** @type {Record<string, string>} */ ({
  button: "button",
  submit: "button",
  reset: "button",
  image: "button",
  file: "button",
  checkbox: "checkbox",
  radio: "radio",
  range: "slider",
  number: "spinbutton",
  search: "searchbox",
  color: "button",
});
const TAG_ROLES = /** @type {Record<string, string>} */ ({
  A: "link",
  ARTICLE: "article",
  ASIDE: "complementary",
  BUTTON: "button",
  DIALOG: "dialog",
  DETAILS: "group",
  FIELDSET: "group",
  FORM: "form",
  HR: "separator",
  LI: "listitem",
  MAIN: "main",
  MENU: "list",
  NAV: "navigation",
  OL: "list",
  OPTION: "option",
  OUTPUT: "status",
  P: "paragraph",
  PROGRESS: "progressbar",
  TABLE: "table",
  TBODY: "rowgroup",
  TD: "cell",
  TEXTAREA: "textbox",
  TFOOT: "rowgroup",
  THEAD: "rowgroup",
  TR: "row",
  UL: "list",
});
// Roles whose name comes from their content (ARIA "name from contents").
const NAMED_BY_CONTENT = new Set([
  "button",
  "cell",
  "checkbox",
  "columnheader",
  "heading",
  "link",
  "menuitem",
  "option",
  "radio",
  "row",
  "rowheader",
  "switch",
  "tab",
  "treeitem",
]);
const LANDMARK_PARENTS = "article, aside, main, nav, section";
export const SKIPPED_TAGS = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "META", "LINK", "TITLE"]);

/**
 * The element's role, or "" for one with none of its own (a div, a span: its content stands in its place).
 * @param {Element} element
 * @returns {string}
 */
export function roleOf(element) {
  const explicit = (element.getAttribute("role") || "").trim().split(/\s+/)[0];
  if (explicit) return explicit === "none" || explicit === "presentation" ? "" : explicit;
  const tag = element.tagName.toUpperCase();
  if (tag === "INPUT") {
    const type = (element.getAttribute("type") || "").toLowerCase();
    if (type === "hidden") return "";
    return INPUT_ROLES[type] || "textbox"; // text, email, tel, url, password and unknown types
  }
  if (/^H[1-6]$/.test(tag)) return "heading";
  if (tag === "A" || tag === "AREA") return element.hasAttribute("href") ? "link" : "";
  if (tag === "IMG") return element.getAttribute("alt") === "" ? "" : "img";
  if (tag === "SELECT")
    return element.hasAttribute("multiple") || Number(element.getAttribute("size")) > 1 ? "listbox" : "combobox";
  if (tag === "TH") return element.getAttribute("scope") === "row" ? "rowheader" : "columnheader";
  if (tag === "HEADER" || tag === "FOOTER") {
    if (element.parentElement?.closest(LANDMARK_PARENTS)) return "";
    return tag === "HEADER" ? "banner" : "contentinfo";
  }
  if (tag === "SECTION")
    return element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") ? "region" : "";
  return TAG_ROLES[tag] || "";
}

/**
 * Whether the element and its content are left out: hidden, aria-hidden, display none, visibility hidden.
 * @param {Element} element
 */
export function isHidden(element) {
  if (SKIPPED_TAGS.has(element.tagName.toUpperCase())) return true;
  if (element.hasAttribute("hidden") || element.getAttribute("aria-hidden") === "true") return true;
  if (element.tagName.toUpperCase() === "INPUT" && (element.getAttribute("type") || "").toLowerCase() === "hidden")
    return true;
  const view = element.ownerDocument.defaultView;
  if (!view?.getComputedStyle) return /(^|;)\s*display\s*:\s*none/i.test(element.getAttribute("style") || ""); // no layout
  const style = view.getComputedStyle(element);
  return style.display === "none" || style.visibility === "hidden";
}

/** @param {string | null | undefined} text */
export const squash = (text) =>
  String(text || "")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The accessible name: aria-labelledby, aria-label, a field's labels, alt, content (for roles named by
 * it), title, placeholder.
 * @param {Element} element
 * @param {string} role
 */
export function nameOf(element, role) {
  const document = element.ownerDocument;
  const ids = squash(element.getAttribute("aria-labelledby"));
  if (ids) {
    const parts = ids.split(" ").map((id) => document.getElementById(id));
    const text = squash(parts.map((part) => (part ? textOf(part) : "")).join(" "));
    if (text) return text;
  }
  const label = squash(element.getAttribute("aria-label"));
  if (label) return label;
  const field = /** @type {HTMLInputElement} */ (element);
  const labels = labelsOf(element);
  if (labels.length) {
    const text = squash(labels.map((part) => textOf(part, element)).join(" "));
    if (text) return text;
  }
  const tag = element.tagName.toUpperCase();
  if (tag === "IMG" || (tag === "INPUT" && field.type === "image")) {
    const alt = squash(element.getAttribute("alt"));
    if (alt) return alt;
  }
  if (tag === "INPUT" && ["button", "submit", "reset"].includes(field.type))
    return squash(field.value) || (field.type === "submit" ? "Submit" : field.type === "reset" ? "Reset" : "");
  if (NAMED_BY_CONTENT.has(role)) {
    const text = textOf(element);
    if (text) return text;
  }
  return squash(element.getAttribute("title")) || squash(element.getAttribute("placeholder"));
}

// A form field's labels: `labels` where the DOM has it, else label[for] and the wrapping label.
/** @param {Element} element */
function labelsOf(element) {
  if (!/^(INPUT|SELECT|TEXTAREA|BUTTON|METER|OUTPUT|PROGRESS)$/i.test(element.tagName)) return [];
  const known = /** @type {HTMLInputElement} */ (element).labels;
  if (known) return [...known];
  const id = element.getAttribute("id");
  const found = id
    ? [...element.ownerDocument.querySelectorAll("label[for]")].filter((l) => l.getAttribute("for") === id)
    : [];
  const wrapping = element.closest("label");
  return wrapping && !found.includes(wrapping) ? [...found, wrapping] : found;
}

/**
 * The visible text of `element` (an image by its alt), `skip` (the field a label names) left out.
 * @param {Element} element
 * @param {Element} [skip]
 * @returns {string}
 */
export function textOf(element, skip) {
  /** @type {string[]} */
  const parts = [];
  /** @param {Node} node */
  const walk = (node) => {
    if (node.nodeType === 3) parts.push(node.nodeValue || "");
    else if (node.nodeType === 1) {
      const child = /** @type {Element} */ (node);
      // a label or a labelledby target names its field even when it is itself hidden
      if (child === skip || (child !== element && isHidden(child))) return;
      if (child.tagName.toUpperCase() === "IMG") parts.push(` ${child.getAttribute("alt") || ""} `);
      else for (const next of child.childNodes) walk(next);
    }
  };
  walk(element);
  return squash(parts.join(""));
}

/**
 * The value a field shows (a text field's text, a select's chosen option), or "" for none.
 * @param {Element} element
 * @param {string} role
 */
export function shownValue(element, role) {
  const tag = element.tagName.toUpperCase();
  if (tag === "SELECT") return ""; // its options follow, the chosen one [selected]
  if (["textbox", "searchbox", "spinbutton", "slider", "combobox"].includes(role)) {
    const field = /** @type {HTMLInputElement} */ (element);
    if (tag === "INPUT" || tag === "TEXTAREA") return field.type === "password" && field.value ? "••••" : field.value;
    if (element.getAttribute("contenteditable") === "true") return textOf(element);
    return element.getAttribute("aria-valuetext") || element.getAttribute("aria-valuenow") || "";
  }
  return "";
}

/**
 * The states shown in brackets after the name: checked, disabled, expanded, focused, level, pressed, selected.
 * @param {Element} element
 * @param {string} role
 * @returns {string[]}
 */
export function statesOf(element, role) {
  const field = /** @type {HTMLInputElement} */ (element);
  /** @type {string[]} */
  const states = [];
  if (["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"].includes(role)) {
    const aria = element.getAttribute("aria-checked");
    if (field.indeterminate || aria === "mixed") states.push("checked=mixed");
    else if (typeof field.checked === "boolean" ? field.checked : aria === "true" || element.hasAttribute("checked"))
      states.push("checked");
  }
  if (element.getAttribute("aria-disabled") === "true" || isDisabled(element)) states.push("disabled");
  const expanded = element.getAttribute("aria-expanded");
  if (expanded === "true") states.push("expanded");
  if (element.ownerDocument.activeElement === element && element !== element.ownerDocument.body) states.push("focused");
  if (role === "heading") {
    const level = element.getAttribute("aria-level") || element.tagName.match(/^H([1-6])$/i)?.[1] || "2";
    states.push(`level=${level}`);
  }
  const pressed = element.getAttribute("aria-pressed");
  if (pressed === "true" || pressed === "mixed") states.push(pressed === "true" ? "pressed" : "pressed=mixed");
  const option = /** @type {HTMLOptionElement} */ (element);
  const chosen =
    role === "option" && (typeof option.selected === "boolean" ? option.selected : element.hasAttribute("selected"));
  if (chosen || element.getAttribute("aria-selected") === "true") states.push("selected");
  return states;
}

// A disabled form control (itself, or in a disabled fieldset).
/** @param {Element} element */
export function isDisabled(element) {
  if (/^(BUTTON|INPUT|SELECT|TEXTAREA|OPTION)$/i.test(element.tagName) && element.hasAttribute("disabled")) return true;
  try {
    return element.matches(":disabled");
  } catch {
    return false; // a DOM without :disabled
  }
}

// A select's options (`options` where the DOM has it).
/** @param {Element} select */
export function optionsOf(select) {
  const known = /** @type {HTMLSelectElement} */ (select).options;
  return /** @type {HTMLOptionElement[]} */ (known ? [...known] : [...select.querySelectorAll("option")]);
}
