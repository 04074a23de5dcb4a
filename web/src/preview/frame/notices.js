// What the frame tells the app's preview console: one `log` message per line over the port. A line names
// workspace paths, not the frame's blob: URLs or its own address.

/** @typedef {(level: string, text: string, uncaught?: boolean) => void} Post */

const LINE_LIMIT = 4000;

/**
 * One console line to the app; nothing when the port is closed.
 * @param {MessagePort} port
 * @param {string} level
 * @param {string} text
 * @param {boolean} [uncaught]
 */
export function postLine(port, level, text, uncaught = false) {
  try {
    port.postMessage({ type: "log", level, text, uncaught });
  } catch {
    /* closed */
  }
}

/**
 * The page's `post`: a line with the blob: URLs the frame made (`paths`: URL -> workspace path) and the
 * frame's own address (standing for the page, `entry`) put back as workspace paths, cut to a length.
 * @param {MessagePort} port
 * @param {string} entry
 * @param {Record<string, string>} paths
 * @returns {Post}
 */
export function pagePost(port, entry, paths) {
  const here = location.href.split("#")[0];
  /** @param {unknown} text */
  const where = (text) =>
    String(text)
      .replace(/blob:null\/[0-9a-f-]+/g, (url) => paths[url] || url)
      .split(here)
      .join(entry);
  return (level, text, uncaught) => postLine(port, level, where(text).slice(0, LINE_LIMIT), Boolean(uncaught));
}

/** @typedef {(method: string, url: string, status: number) => void} NoteRequest */

/**
 * A request the page made (fetch or XMLHttpRequest) to the app, with its answer's status (0: refused or
 * failed); nothing when the port is closed.
 * @param {MessagePort} port
 * @returns {NoteRequest}
 */
export function requestNotes(port) {
  return (method, url, status) => {
    try {
      port.postMessage({
        type: "request",
        method: String(method).toUpperCase(),
        url: String(url).slice(0, 2000),
        status,
      });
    } catch {
      /* closed */
    }
  };
}
