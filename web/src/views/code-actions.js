// Code from the chat into files: every fenced code block in an answer gets "Save as file…" (the path
// prefilled from the fence's info string or a filename mentioned just before it) and, while a file is
// open, "Apply to open file" (the editor's selection or the whole file, shown as a diff to confirm). Each
// is one recorded user change with its own "Undo". Buttons are added to rendered answers as they appear,
// so the message view stays as it is; code text is only ever read from textContent.
import { button, el } from "./dom.js";
import { renderDiff } from "./diff-view.js";

/** The file open in the editor, with its selection.
 * @typedef {{path: string, text: string, selection: {from: number, to: number}}} OpenFile */
/** @typedef {{version: number}} Version */

const PATH_LIKE = /(?:\/?[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,9}\b/g;
const NOT_FILES = new Set(["e.g", "i.e", "etc"]);
/** @type {Record<string, string | undefined>} */
const EXTENSIONS = { javascript: "js", typescript: "ts", python: "py", bash: "sh", shell: "sh", markdown: "md" };

/** The path to offer for a code block: its info string when that names a file, else the last filename
 * in the text just before it, else an untitled file with the language's extension.
 * @param {string | null | undefined} info @param {string | null | undefined} before */
export function suggestPath(info, before) {
  /** @param {string} path */
  const normal = (path) => (path.startsWith("/") ? path : `/${path}`);
  const fromInfo = /[./]/.test(info || "") ? /** @type {string} */ (info).match(PATH_LIKE) : null;
  if (fromInfo) return normal(fromInfo[0]);
  const named = (before || "").match(PATH_LIKE)?.filter((name) => !NOT_FILES.has(name.toLowerCase()));
  if (named?.length) return normal(/** @type {string} */ (named.at(-1)));
  const language = (info || "").toLowerCase();
  return `/untitled.${EXTENSIONS[language] || language || "txt"}`;
}

/** A button whose class is its test id (the styles name them so).
 * @param {string} label @param {string} testid @param {() => unknown} onClick */
function actionButton(label, testid, onClick) {
  return Object.assign(button(label, testid, onClick), { className: testid });
}

/** The text of the answer before `pre`, up to the previous code block: where the model names the file. */
/** @param {Element} pre */
function textBefore(pre) {
  const parts = [];
  for (let node = pre.previousElementSibling; node && node.tagName !== "PRE"; node = node.previousElementSibling) {
    parts.unshift(node.textContent);
  }
  return parts.join("\n");
}

/** `call(method, args)` reaches the workspace; `editor()` is the open file ({path, text, selection:
 * {from, to}}) or null; `flush()` saves the user's pending typing first.
 * @param {HTMLElement} messages
 * @param {{call: (method: import("../agent/page/agent-client.js").CallMethod, args?: Record<string, unknown>) => Promise<unknown>,
 *   editor: () => OpenFile | null, flush: () => Promise<unknown>}} actions */
export function createCodeActions(messages, { call, editor, flush }) {
  /** @type {string | null} */
  let openPath = null;

  /** @param {Element} code */
  function infoOf(code) {
    const found = [...code.classList].find((name) => name.startsWith("language-"));
    return found ? found.slice("language-".length) : "";
  }

  /** The panel under a code block (a new one replaces the last). */
  /** @param {Element} pre */
  function panel(pre) {
    if (pre.nextElementSibling?.classList.contains("code-panel")) pre.nextElementSibling.remove();
    const box = el("div", "code-panel");
    box.setAttribute("role", "group");
    pre.after(box);
    return box;
  }

  /** After a change: what happened and an "Undo" that undoes exactly that version, if still the newest. */
  /** @param {HTMLElement} box @param {string} path @param {string} text */
  async function done(box, path, text) {
    const versions = /** @type {Version[]} */ (await call("vfs.history", { path }));
    const version = versions.at(-1)?.version;
    const undo = actionButton("Undo", "code-undo", async () => {
      const newest = /** @type {Version[]} */ (await call("vfs.history", { path })).at(-1)?.version;
      if (newest !== version)
        return box.replaceChildren(el("span", "", `${path} changed since: undo it from its history.`));
      await call("vfs.undo", { path });
      box.replaceChildren(el("span", "", `Undone: ${path} is back as it was.`));
    });
    box.replaceChildren(el("span", "code-done", `${text} (version ${version}).`), undo);
  }

  /** @param {HTMLElement} box @param {unknown} err */
  async function fail(box, err) {
    box.replaceChildren(el("span", "code-failed", `That did not work: ${/** @type {Error} */ (err).message}`));
  }

  /** @param {Element} pre @param {Element} code */
  function save(pre, code) {
    const box = panel(pre);
    const input = el("input", "code-path");
    Object.assign(input, { value: suggestPath(infoOf(code), textBefore(pre)), spellcheck: false });
    input.dataset.testid = "code-save-path";
    input.setAttribute("aria-label", "Save the code as");
    const form = el("form", "code-save-form");
    const confirm = el("button", "", "Save");
    confirm.type = "submit";
    confirm.dataset.testid = "code-save-confirm";
    form.append(
      el("label", "", "Save as"),
      input,
      confirm,
      actionButton("Cancel", "code-cancel", () => box.remove()),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const path = input.value.trim();
      if (!path) return;
      const target = path.startsWith("/") ? path : `/${path}`;
      try {
        await call("vfs.writeText", { path: target, text: code.textContent });
        await done(box, target, `Saved ${target}`);
      } catch (err) {
        fail(box, err);
      }
    });
    box.append(form);
    input.focus();
    input.select();
  }

  /** @param {Element} pre @param {Element} code */
  async function apply(pre, code) {
    const open = editor();
    if (!open) return;
    const box = panel(pre);
    const { from, to } = open.selection;
    const whole = from === to;
    const next = whole ? code.textContent : open.text.slice(0, from) + code.textContent + open.text.slice(to);
    try {
      await flush();
      const change = /** @type {import("./approval-view.js").WriteStat} */ (
        await call("vfs.diffText", { path: open.path, text: next })
      );
      const diff = el("div", "diff");
      renderDiff(diff, /** @type {string} */ (change.diff), null);
      const what = whole ? `Replace all of ${open.path}` : `Replace the selection in ${open.path}`;
      const confirm = actionButton("Apply", "code-apply-confirm", async () => {
        try {
          await call("vfs.writeText", { path: open.path, text: next });
          await done(box, open.path, `Applied to ${open.path}`);
        } catch (err) {
          fail(box, err);
        }
      });
      const head = el("div", "code-panel-head");
      head.append(el("strong", "", `${what} (+${change.added} −${change.removed})`), confirm);
      head.append(actionButton("Cancel", "code-cancel", () => box.remove()));
      box.append(head, diff);
      confirm.focus();
    } catch (err) {
      fail(box, err);
    }
  }

  /** @param {Element} pre */
  function decorate(pre) {
    const code = pre.querySelector("code");
    if (!code || pre.querySelector(".code-actions")) return;
    const bar = el("span", "code-actions");
    const saveButton = actionButton("Save as file…", "code-save", () => save(pre, code));
    const applyButton = actionButton("Apply to open file", "code-apply", () => apply(pre, code));
    applyButton.hidden = !openPath;
    applyButton.title = openPath ? `Replace the selection, or all of ${openPath}` : "";
    bar.append(saveButton, applyButton);
    pre.append(bar);
  }

  const CODE_BLOCK = ".message.assistant .message-body pre.code-block";

  /** Decorate the code blocks among the added nodes only: a streaming answer adds a node per chunk,
   * and searching every message each time would grow with the chat. */
  /** @param {MutationRecord[]} records */
  function decorateAdded(records) {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        if (/** @type {Element} */ (node).matches(CODE_BLOCK)) decorate(/** @type {Element} */ (node));
        else if (/** @type {Element} */ (node).firstElementChild)
          for (const pre of /** @type {Element} */ (node).querySelectorAll("pre.code-block"))
            if (pre.matches(CODE_BLOCK)) decorate(pre);
      }
    }
  }

  new MutationObserver(decorateAdded).observe(messages, { childList: true, subtree: true });

  return {
    /** The file open in the editor (null: none): "Apply to open file" shows only while there is one. */
    /** @param {string | null} path */
    setOpenFile(path) {
      openPath = path;
      for (const button of messages.querySelectorAll(/** @type {"button"} */ ("[data-testid=code-apply]"))) {
        button.hidden = !path;
        button.title = path ? `Replace the selection, or all of ${path}` : "";
      }
    },
  };
}
