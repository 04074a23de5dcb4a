// The pop-up lists of the composer's field (ARIA combobox with a listbox: `@path`, `/skill`): the
// selected option, shown as aria-selected and as the field's aria-activedescendant, and closing a list.

/** Mark option `selected` of `list` (ids `${prefix}-${index}`) as the field's active one.
 * @param {Element} list @param {Element} input @param {string} prefix @param {number} selected */
export function markOption(list, input, prefix, selected) {
  list.querySelectorAll("[role=option]").forEach((option, index) => {
    option.setAttribute("aria-selected", String(index === selected));
  });
  input.setAttribute("aria-activedescendant", `${prefix}-${selected}`);
}

/** Hide and empty `list`, and tell the field it is closed. @param {HTMLElement} list @param {Element} input */
export function closeList(list, input) {
  list.hidden = true;
  list.replaceChildren();
  input.setAttribute("aria-expanded", "false");
  input.removeAttribute("aria-activedescendant");
}
