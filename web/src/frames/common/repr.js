// Text for a JavaScript value, for the model to read: JSON-ish for objects and arrays, Map and Set
// with their size and entries, `undefined` spelled out, cycles and depth cut short. `inspect` quotes
// strings (a result); `consoleText` does not (console.log("a") prints a, as a console would).
// Pure: it reads no global of a document or a Worker, so the page, a frame's document and a frame's
// Worker format alike (a DOM node is recognised by its shape, whichever realm made it).

const MAX_DEPTH = 4;
const MAX_ITEMS = 100;

/**
 * The text of one value, strings quoted.
 * @param {unknown} value
 * @returns {string}
 */
export function inspect(value) {
  return show(value, 0, new Set());
}

/**
 * The text of one console call's arguments: strings as they are, other values inspected.
 * @param {readonly unknown[]} args
 * @returns {string}
 */
export function consoleText(args) {
  return args.map((arg) => (typeof arg === "string" ? arg : inspect(arg))).join(" ");
}

/**
 * `fn()`'s text, or a note saying why it could not be made (a getter or a proxy may throw).
 * @param {() => string} fn
 * @returns {string}
 */
export function safely(fn) {
  try {
    return fn();
  } catch (err) {
    return `[unprintable: ${err ? Reflect.get(Object(err), "message") : err}]`;
  }
}

/**
 * @param {unknown} value
 * @param {number} depth
 * @param {Set<object>} seen
 * @returns {string}
 */
function show(value, depth, seen) {
  switch (typeof value) {
    case "undefined":
      return "undefined";
    case "string":
      return JSON.stringify(value);
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "boolean":
    case "symbol":
      return value.toString();
    case "function":
      return `[Function ${value.name || "(anonymous)"}]`;
    case "object":
      return value === null ? "null" : showObject(value, depth, seen);
  }
}

/**
 * @param {object} value
 * @param {number} depth
 * @param {Set<object>} seen
 * @returns {string}
 */
function showObject(value, depth, seen) {
  const special = showSpecial(value);
  if (special !== null) return special;
  if (seen.has(value)) return "[Circular]";
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? "[Array]" : "[Object]";
  seen.add(value);
  try {
    if (Array.isArray(value) || ArrayBuffer.isView(value))
      return showList(Array.from(/** @type {ArrayLike<unknown>} */ (value)), depth, seen);
    if (value instanceof Map) return `Map(${value.size}) ${showEntries([...value], depth, seen, true)}`;
    if (value instanceof Set) return `Set(${value.size}) ${showList([...value], depth, seen)}`;
    return showEntries(Object.entries(value), depth, seen, false);
  } finally {
    seen.delete(value);
  }
}

/**
 * Objects whose useful text is not their own properties.
 * @param {object} value
 * @returns {string | null}
 */
function showSpecial(value) {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (value instanceof RegExp) return String(value);
  if (value instanceof Promise) return "Promise";
  if (isNode(value)) return showNode(value);
  return null;
}

/**
 * @typedef {{nodeType: number, nodeName: string, cloneNode: Function, outerHTML?: string | null,
 *   textContent?: string | null}} NodeLike
 */

/**
 * A DOM node (the page's, a frame's, or the Worker's linkedom copy): told by its shape, not by the
 * `Node` class of one realm.
 * @param {Partial<NodeLike>} node
 * @returns {node is NodeLike}
 */
function isNode(node) {
  return typeof node.nodeType === "number" && typeof node.nodeName === "string" && typeof node.cloneNode === "function";
}

/**
 * @param {NodeLike} node
 * @returns {string}
 */
function showNode(node) {
  const html = node.outerHTML ?? node.textContent ?? node.nodeName;
  return html.length > 500 ? `${html.slice(0, 500)}…` : html;
}

/**
 * @param {unknown[]} items
 * @param {number} depth
 * @param {Set<object>} seen
 * @returns {string}
 */
function showList(items, depth, seen) {
  const shown = items.slice(0, MAX_ITEMS).map((item) => show(item, depth + 1, seen));
  if (items.length > MAX_ITEMS) shown.push(`… ${items.length - MAX_ITEMS} more`);
  return `[${shown.join(", ")}]`;
}

/**
 * @param {[unknown, unknown][]} entries
 * @param {number} depth
 * @param {Set<object>} seen
 * @param {boolean} keyed whether keys are values of their own (a Map's) rather than property names
 * @returns {string}
 */
function showEntries(entries, depth, seen, keyed) {
  const shown = entries.slice(0, MAX_ITEMS).map(([key, item]) => {
    const name = keyed ? show(key, depth + 1, seen) : JSON.stringify(String(key));
    return `${name}: ${show(item, depth + 1, seen)}`;
  });
  if (entries.length > MAX_ITEMS) shown.push(`… ${entries.length - MAX_ITEMS} more`);
  return `{${shown.join(", ")}}`;
}
