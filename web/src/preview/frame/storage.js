// The page's localStorage and sessionStorage: kept in the frame, every change sent to the app, which
// hands them back to the next load of a page (docs/preview.md).

/**
 * @param {"localStorage" | "sessionStorage"} name
 * @param {Record<string, string>} initial
 * @param {MessagePort} port
 */
export function installStorage(name, initial, port) {
  const items = new Map(Object.entries(initial));
  const save = () => port.postMessage({ type: "storage", area: name, items: Object.fromEntries(items) });
  /** @type {Record<string, Function>} */
  const api = {
    /** @param {unknown} k */
    getItem: (k) => items.get(String(k)) ?? null,
    /** @type {(k: unknown, v: unknown) => void} */
    setItem: (k, v) => {
      items.set(String(k), String(v));
      save();
    },
    /** @param {unknown} k */
    removeItem: (k) => {
      items.delete(String(k));
      save();
    },
    clear: () => {
      items.clear();
      save();
    },
    /** @param {number} i */
    key: (i) => {
      const keys = Array.from(items.keys());
      return i < keys.length ? keys[i] : null;
    },
  };
  const store = new Proxy(api, storageTraps(items, api, save));
  Object.defineProperty(window, name, { configurable: true, enumerable: true, get: () => store });
}

/**
 * The Proxy traps that make `store.name`, `store.name = v`, `delete store.name`, `"name" in store` and
 * `Object.keys(store)` read and write the items.
 * @param {Map<string, string>} items
 * @param {Record<string, Function>} api
 * @param {() => void} save
 * @returns {ProxyHandler<Record<string, Function>>}
 */
function storageTraps(items, api, save) {
  return {
    get: (target, prop) => {
      if (prop === "length") return items.size;
      if (typeof prop === "symbol" || Object.hasOwn(api, prop)) return target[/** @type {string} */ (prop)];
      return items.has(prop) ? items.get(prop) : undefined;
    },
    set: (_target, prop, value) => {
      items.set(String(prop), String(value));
      save();
      return true;
    },
    deleteProperty: (_target, prop) => {
      items.delete(String(prop));
      save();
      return true;
    },
    has: (_target, prop) => items.has(/** @type {string} */ (prop)) || prop in api,
    ownKeys: () => Array.from(items.keys()),
    getOwnPropertyDescriptor: (_target, prop) => {
      const key = /** @type {string} */ (prop);
      return items.has(key)
        ? { value: items.get(key), enumerable: true, configurable: true, writable: true }
        : undefined;
    },
  };
}
