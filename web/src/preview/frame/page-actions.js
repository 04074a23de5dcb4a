// What preview_act does to an element of the previewed page, with the DOM events a browser fires for a
// user's click, typing, key press, choice, hover or scroll, in their usual order (docs/preview.md, "Hands
// on the page"). Default actions come from the elements themselves (`click()` toggles a checkbox, follows
// a link, submits a form); what a browser does only for a trusted key (insert a character, submit a form
// on Enter, fire `change` when an edited field is left or Enter is pressed) is done here.

import { isDisabled, optionsOf, squash } from "./aria-roles.js";

export const ACTIONS = ["click", "type", "press", "select", "check", "hover", "scroll"];
const TEXT_TYPES = new Set(["", "text", "email", "tel", "url", "password", "search", "number"]);
// keyCode/which of the named keys older pages still read
const KEY_CODES = /** @type {Record<string, number>} */ ({
  Enter: 13,
  Escape: 27,
  Tab: 9,
  Backspace: 8,
  Delete: 46,
  " ": 32,
  ArrowLeft: 37,
  ArrowUp: 38,
  ArrowRight: 39,
  ArrowDown: 40,
  Home: 36,
  End: 35,
  PageUp: 33,
  PageDown: 34,
});

/** @typedef {HTMLInputElement | HTMLTextAreaElement} Field */

export class Hands {
  constructor() {
    /** @type {{field: Field, value: string} | null} a field typed into, whose `change` comes when it is left */
    this.edited = null;
    /** @type {string} the workspace page the last click's link leads to, "" for none */
    this.follow = "";
  }

  /**
   * Do `action` on `element`; an error message when it does not fit the element, else "".
   * @param {Element} element
   * @param {string} action
   * @param {string} value
   * @returns {string}
   */
  act(element, action, value) {
    if (!ACTIONS.includes(action)) return `unknown action ${JSON.stringify(action)}: use one of ${ACTIONS.join(", ")}`;
    if (action !== "hover" && action !== "scroll" && isDisabled(element)) return "that element is disabled";
    if (action !== "press" || element !== this.edited?.field) this.leave(element);
    if (action === "click") this.click(element);
    else if (action === "type") return this.type(element, value);
    else if (action === "press") return this.press(element, value);
    else if (action === "select") return choose(element, value);
    else if (action === "check") return check(element, value);
    else if (action === "hover") hover(element);
    else scroll(element, value);
    return "";
  }

  /** @param {Element} element */
  click(element) {
    hover(element);
    const down = pointer(element, "pointerdown") && mouse(element, "mousedown");
    if (down) /** @type {HTMLElement} */ (element).focus?.();
    pointer(element, "pointerup");
    mouse(element, "mouseup");
    const target = /** @type {HTMLElement} */ (element);
    this.follow = linkedPage(element);
    const form = submitting(element);
    if (form) withSubmit(form, target, () => target.click());
    else target.click();
  }

  /**
   * @param {Element} element
   * @param {string} value
   */
  type(element, value) {
    if (!isTextField(element) && !isEditable(element))
      return "type needs a text field (an input, a textarea or an editable element)";
    /** @type {HTMLElement} */ (element).focus();
    if (isEditable(element)) {
      element.textContent = value;
      element.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: value }));
      return "";
    }
    const field = /** @type {Field} */ (element);
    if (this.edited?.field !== field) this.edited = { field, value: field.value };
    element.dispatchEvent(
      new InputEvent("beforeinput", { bubbles: true, cancelable: true, inputType: "insertText", data: value }),
    );
    setValue(field, value);
    element.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: value }));
    return "";
  }

  /**
   * keydown, keypress (a character or Enter), what the key does in a field, keyup.
   * @param {Element} element
   * @param {string} key
   */
  press(element, key) {
    if (!key) return 'press needs a key in value, e.g. "Enter", "Escape", "Tab", "ArrowDown" or "a"';
    /** @type {HTMLElement} */ (element).focus?.();
    const printable = [...key].length === 1;
    if (!printable && !(key in KEY_CODES) && !/^F\d{1,2}$|^[A-Z][a-zA-Z]+$/.test(key))
      return `unknown key ${JSON.stringify(key)}`;
    const down = keyboard(element, "keydown", key);
    if (down && (printable || key === "Enter")) keyboard(element, "keypress", key);
    if (down && printable && isTextField(element)) {
      const field = /** @type {Field} */ (element);
      if (this.edited?.field !== field) this.edited = { field, value: field.value };
      setValue(field, field.value + key);
      element.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: key }));
    } else if (down && key === "Enter" && element.tagName.toUpperCase() === "INPUT") {
      this.leave(null);
      submitImplicitly(/** @type {HTMLInputElement} */ (element));
    } else if (down && key === "Enter" && isButtonLike(element)) /** @type {HTMLElement} */ (element).click();
    keyboard(element, "keyup", key);
    return "";
  }

  // A field typed into and left (or committed with Enter) fires `change`, as a browser does.
  /** @param {Element | null} next */
  leave(next) {
    const edited = this.edited;
    if (!edited || edited.field === next) return;
    this.edited = null;
    if (edited.field.isConnected && edited.field.value !== edited.value)
      edited.field.dispatchEvent(new Event("change", { bubbles: true }));
  }
}

/** @param {Element} element */
function isTextField(element) {
  const tag = element.tagName.toUpperCase();
  if (tag === "TEXTAREA") return true;
  return tag === "INPUT" && TEXT_TYPES.has((element.getAttribute("type") || "").toLowerCase());
}

/** @param {Element} element */
const isEditable = (element) => /** @type {HTMLElement} */ (element).isContentEditable === true;

/** @param {Element} element */
function isButtonLike(element) {
  const tag = element.tagName.toUpperCase();
  return tag === "BUTTON" || tag === "A" || element.getAttribute("role") === "button";
}

// The value as the element's own setter sets it, past a page's (or a framework's) setter on the instance.
/**
 * @param {Field} field
 * @param {string} value
 */
function setValue(field, value) {
  const proto = Object.getPrototypeOf(field);
  const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
  if (setter) setter.call(field, value);
  else field.value = value;
}

// Enter in a form's field: the form's default button is clicked, else the form is submitted (as a browser
// does when the form has a submit button or a single field).
/** @param {HTMLInputElement} field */
function submitImplicitly(field) {
  const form = field.form;
  if (!form) return;
  const button = /** @type {HTMLElement | null} */ (
    form.querySelector("button:not([type]), button[type=submit], input[type=submit], input[type=image]")
  );
  if (button) {
    if (!(/** @type {HTMLButtonElement} */ (button).disabled)) withSubmit(form, button, () => button.click());
    return;
  }
  const fields = [...form.elements].filter((element) => isTextField(element));
  if (fields.length === 1) withSubmit(form, null, () => form.requestSubmit());
}

// The workspace page a click on `element` leads to ("" for none): the frame leaves only a user's click on
// a link to the app (links.js), and the agent's click stands for the user's.
/** @param {Element} element */
function linkedPage(element) {
  const link = /** @type {HTMLAnchorElement | null} */ (element.closest("a[href]"));
  const href = link?.getAttribute("href") || "";
  if (!link || link.target === "_blank" || !href || href.startsWith("#") || /^[a-z][a-z0-9+.-]*:/i.test(href))
    return "";
  try {
    return decodeURIComponent(new URL(href, document.baseURI).pathname);
  } catch {
    return "";
  }
}

// The form a click on `element` submits (a submit button's), or null.
/** @param {Element} element */
function submitting(element) {
  const button = /** @type {HTMLButtonElement} */ (element);
  const tag = element.tagName.toUpperCase();
  const type = (element.getAttribute("type") || "").toLowerCase();
  const submits =
    tag === "BUTTON" ? type === "" || type === "submit" : tag === "INPUT" && /^(submit|image)$/.test(type);
  return submits ? button.form : null;
}

// `run` a submission; where the engine fires no `submit` event for it (Firefox, in a frame sandboxed
// without forms), the page gets one all the same, as it would in a browser tab. The preview never
// navigates for a form either way.
/**
 * @param {HTMLFormElement} form
 * @param {HTMLElement | null} submitter
 * @param {() => void} run
 */
function withSubmit(form, submitter, run) {
  let fired = false;
  const heard = () => {
    fired = true;
  };
  addEventListener("submit", heard, true);
  try {
    run();
  } finally {
    removeEventListener("submit", heard, true);
  }
  if (fired || !form.isConnected) return;
  const init = { bubbles: true, cancelable: true, submitter };
  form.dispatchEvent(typeof SubmitEvent === "function" ? new SubmitEvent("submit", init) : new Event("submit", init));
}

/**
 * @param {Element} element
 * @param {string} wanted an option's label, text or value
 */
function choose(element, wanted) {
  if (element.tagName.toUpperCase() !== "SELECT") return "select needs a select element (a combobox or listbox)";
  const select = /** @type {HTMLSelectElement} */ (element);
  const options = optionsOf(select);
  const fold = (/** @type {string} */ text) => text.trim().toLowerCase();
  const label = (/** @type {HTMLOptionElement} */ o) => squash(o.label || o.textContent);
  const value = (/** @type {HTMLOptionElement} */ o) => String(o.value ?? o.getAttribute("value") ?? label(o));
  const option =
    options.find((o) => label(o) === wanted || value(o) === wanted) ||
    options.find((o) => fold(label(o)) === fold(wanted) || fold(value(o)) === fold(wanted));
  if (!option) {
    const known = options.slice(0, 20).map((o) => JSON.stringify(label(o) || value(o)));
    return `no option ${JSON.stringify(wanted)}; the options are ${known.join(", ")}`;
  }
  if (option.disabled) return `the option ${JSON.stringify(wanted)} is disabled`;
  select.focus();
  for (const other of options) other.selected = other === option;
  select.dispatchEvent(new Event("input", { bubbles: true }));
  select.dispatchEvent(new Event("change", { bubbles: true }));
  return "";
}

/**
 * A click when the box is not already as asked: value "" toggles (a radio: sets), "true"/"false" sets.
 * @param {Element} element
 * @param {string} value
 */
function check(element, value) {
  const input = /** @type {HTMLInputElement} */ (element);
  const type = (element.getAttribute("type") || "").toLowerCase();
  const native = element.tagName.toUpperCase() === "INPUT" && (type === "checkbox" || type === "radio");
  const role = element.getAttribute("role") || "";
  if (!native && !["checkbox", "radio", "switch", "menuitemcheckbox"].includes(role))
    return "check needs a checkbox, a radio button or a switch";
  const now = native ? input.checked : element.getAttribute("aria-checked") === "true";
  const wanted = /^(false|off|no|0|unchecked)$/i.test(value)
    ? false
    : /^(true|on|yes|1|checked)$/i.test(value)
      ? true
      : null;
  if (wanted === null && value) return `check takes value "" (toggle), "true" or "false", not ${JSON.stringify(value)}`;
  const target = wanted === null ? (type === "radio" ? true : !now) : wanted;
  if (target === now) return "";
  if (type === "radio" && !target) return "a radio button is unchecked by checking another of its group";
  new Hands().click(element);
  return "";
}

/** @param {Element} element */
function hover(element) {
  for (const type of ["pointerover", "pointerenter", "pointermove"]) pointer(element, type);
  for (const type of ["mouseover", "mouseenter", "mousemove"]) mouse(element, type);
}

/**
 * Into view, or by a page up or down (value "up"/"down") when the element (else the page) scrolls.
 * @param {Element} element
 * @param {string} value
 */
function scroll(element, value) {
  if (!/^(up|down)$/i.test(value)) {
    element.scrollIntoView({ block: "center" });
    return;
  }
  const step = (/^up$/i.test(value) ? -1 : 1) * Math.max(100, innerHeight * 0.8);
  const box = element.scrollHeight > element.clientHeight ? element : document.scrollingElement;
  box?.scrollBy({ top: step });
}

/** @param {Element} element */
function centre(element) {
  const box = element.getBoundingClientRect();
  return { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
}

// `type` on the element as the mouse fires it; whether the page let it through (not cancelled).
/**
 * @param {Element} element
 * @param {string} type
 */
function mouse(element, type) {
  const bubbles = type !== "mouseenter" && type !== "mouseleave";
  const init = { bubbles, cancelable: bubbles, composed: true, view: window, button: 0, ...centre(element) };
  return element.dispatchEvent(new MouseEvent(type, { ...init, buttons: type === "mousedown" ? 1 : 0 }));
}

/**
 * @param {Element} element
 * @param {string} type
 */
function pointer(element, type) {
  if (typeof PointerEvent !== "function") return true;
  const bubbles = type !== "pointerenter" && type !== "pointerleave";
  const init = { bubbles, cancelable: bubbles, composed: true, view: window, pointerType: "mouse", isPrimary: true };
  return element.dispatchEvent(new PointerEvent(type, { ...init, pointerId: 1, ...centre(element) }));
}

// A key event with `key`, `code` and the legacy keyCode/which/charCode the page may read.
/**
 * @param {Element} element
 * @param {string} type
 * @param {string} key
 */
function keyboard(element, type, key) {
  const printable = [...key].length === 1;
  const code = KEY_CODES[key] || (printable ? key.toUpperCase().charCodeAt(0) : 0);
  const legacy = type === "keypress" ? (key === "Enter" ? 13 : key.charCodeAt(0)) : code;
  const name = printable ? (/[a-z]/i.test(key) ? `Key${key.toUpperCase()}` : /\d/.test(key) ? `Digit${key}` : "") : key;
  const event = new KeyboardEvent(type, {
    key,
    code: name,
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
  });
  for (const [field, number] of [
    ["keyCode", legacy],
    ["which", legacy],
    ["charCode", type === "keypress" ? legacy : 0],
  ]) {
    Object.defineProperty(event, field, { get: () => number });
  }
  return element.dispatchEvent(event);
}
