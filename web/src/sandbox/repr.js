// Text for a JavaScript value, for the model to read: JSON-ish for objects and arrays, `undefined`
// spelled out, cycles and depth cut short. `inspect` quotes strings (a result); `consoleText` does not
// (console.log("a") prints a, as a console would).

const MAX_DEPTH = 4;
const MAX_ITEMS = 100;

export function inspect(value) {
  return show(value, 0, new Set());
}

export function consoleText(args) {
  return args.map((arg) => (typeof arg === "string" ? arg : inspect(arg))).join(" ");
}

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
    default:
      return value === null ? "null" : showObject(value, depth, seen);
  }
}

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

// Objects whose useful text is not their own properties.
function showSpecial(value) {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (value instanceof RegExp) return String(value);
  if (value instanceof Promise) return "Promise";
  if (typeof Node !== "undefined" && value instanceof Node) return showNode(value);
  return null;
}

function showNode(node) {
  const html = node.outerHTML ?? node.textContent ?? node.nodeName;
  return html.length > 500 ? `${html.slice(0, 500)}…` : html;
}

function showList(items, depth, seen) {
  const shown = items.slice(0, MAX_ITEMS).map((item) => show(item, depth + 1, seen));
  if (items.length > MAX_ITEMS) shown.push(`… ${items.length - MAX_ITEMS} more`);
  return `[${shown.join(", ")}]`;
}

function showEntries(entries, depth, seen, keyed) {
  const shown = entries.slice(0, MAX_ITEMS).map(([key, item]) => {
    const name = keyed ? show(key, depth + 1, seen) : JSON.stringify(String(key));
    return `${name}: ${show(item, depth + 1, seen)}`;
  });
  if (entries.length > MAX_ITEMS) shown.push(`… ${entries.length - MAX_ITEMS} more`);
  return `{${shown.join(", ")}}`;
}
