// What the agent is told about the editor: the open file's path and the selection in it (its lines and
// text). It goes with every message, and to the worker whenever it changes — at once for another file,
// after a short pause for a selection being dragged — so a running turn's tools write the file open now.
const SELECT_DELAY_MS = 250;

/** @typedef {{open_file: string | null, selection: unknown}} EditorState */

/** `current()`: the files view's open file ({path, selected} or null); `report(state)`: tell the worker.
 * @param {{current: () => {path?: string, selected?: unknown} | null | undefined,
 *   report: (state: EditorState) => void}} parts */
export function createEditorContext({ current, report }) {
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let last = JSON.stringify({ open_file: null, selection: null }); // what the worker knows

  function state() {
    const open = current();
    return { open_file: open?.path ?? null, selection: open?.selected ?? null };
  }

  /** The state now; `report` only when the worker does not know it yet. @param {boolean} reportIt */
  function take(reportIt) {
    clearTimeout(/** @type {ReturnType<typeof setTimeout>} */ (timer));
    timer = null;
    const now = state();
    const key = JSON.stringify(now);
    if (key !== last) {
      last = key;
      if (reportIt) report(now);
    }
    return now;
  }

  return {
    /** Another file is shown (or none): tell the worker now. */
    shown: () => take(true),
    /** The selection moved: tell the worker once it rests. */
    selected() {
      clearTimeout(/** @type {ReturnType<typeof setTimeout>} */ (timer));
      timer = setTimeout(() => take(true), SELECT_DELAY_MS);
    },
    /** A new agent worker (after a restart) knows nothing yet: tell it the state now. */
    again() {
      last = "";
      take(true);
    },
    /** The state to send with a message (the message itself tells the worker). */
    forMessage: () => take(false),
  };
}
