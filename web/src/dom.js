// The small DOM helpers the views share: an element with its class, text and attributes, and a button
// with a test id (docs/contract.md lists the test ids). Text always goes in as textContent, never as
// markup, so whatever a file or a model says is shown, never run.

/** A `tag` element with `className` and `text` when given; `attributes` are set as attributes, except
 * `testid`, which becomes `data-testid`. */
export function el(tag, className = "", text = null, attributes = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null && text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "testid") node.dataset.testid = value;
    else node.setAttribute(name, value);
  }
  return node;
}

/** A type="button" button (never a form submit) labelled `label`, with `data-testid` when given. */
export function button(label, testid, onClick) {
  const node = el("button", "", label, testid ? { testid } : {});
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}
