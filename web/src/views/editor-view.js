// The open file in a CodeMirror 6 editor: the language follows the file's extension, the colours follow
// the page's light or dark theme, and the user's own typing is handed to `onSave` after a pause
// (debounced), while text that came from the workspace (`setText`) is never saved back. `onSelect` hears
// every change of the selection (the agent is told which lines the user has selected).
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { css } from "@codemirror/lang-css";
import { html } from "@codemirror/lang-html";
import { javascript } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";
import { markdown } from "@codemirror/lang-markdown";
import { python } from "@codemirror/lang-python";
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { Annotation, Compartment, EditorState, Transaction } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";

const SAVE_DELAY_MS = 600;
const fromWorkspace = Annotation.define();

/** @type {Record<string, () => import("@codemirror/language").LanguageSupport>} */
const LANGUAGES = {
  js: () => javascript(),
  mjs: () => javascript(),
  cjs: () => javascript(),
  jsx: () => javascript({ jsx: true }),
  ts: () => javascript({ typescript: true }),
  tsx: () => javascript({ jsx: true, typescript: true }),
  py: () => python(),
  md: () => markdown(),
  markdown: () => markdown(),
  json: () => json(),
  css: () => css(),
  html: () => html(),
  htm: () => html(),
};

// Colours come from CSS variables (styles.css), so one style serves the light and the dark theme.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.modifier, tags.controlKeyword], color: "var(--syn-keyword)" },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: "var(--syn-string)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--syn-number)" },
  { tag: [tags.comment, tags.meta], color: "var(--syn-comment)", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: "var(--syn-function)" },
  { tag: [tags.typeName, tags.className, tags.tagName], color: "var(--syn-type)" },
  { tag: [tags.propertyName, tags.attributeName], color: "var(--syn-property)" },
  { tag: tags.heading, fontWeight: "bold", color: "var(--syn-keyword)" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strong, fontWeight: "bold" },
  { tag: tags.link, textDecoration: "underline" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", backgroundColor: "var(--code)", color: "var(--text)" },
  ".cm-scroller": { fontFamily: "var(--mono)", fontSize: "var(--text-md)" },
  ".cm-gutters": { backgroundColor: "var(--code)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--accent) 8%, transparent)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground": {
    backgroundColor: "color-mix(in srgb, var(--accent) 28%, transparent)",
  },
  ".cm-cursor": { borderLeftColor: "var(--text)" },
  "&.cm-focused": { outline: "none" },
  "&.cm-focused .cm-content": { boxShadow: "inset 2px 0 0 var(--accent)" },
});

/** @param {string} path */
function languageOf(path) {
  const extension = /** @type {string} */ (path.split("/").pop()).split(".").slice(1).pop()?.toLowerCase() ?? "";
  return LANGUAGES[extension]?.() ?? [];
}

// Tab indents in the editor; Escape then Tab leaves it (CodeMirror's way out), and the label says so.
/** @param {string} path */
function attributes(path) {
  return EditorView.contentAttributes.of({
    "aria-label": `Contents of ${path}`,
    "aria-description": "Tab indents; press Escape, then Tab, to move on",
  });
}

/** The editor lives in a shadow root: CodeMirror's styles go there as constructed style sheets, which
 * the page's style-src 'self' allows (a <style> element it would refuse). The root is closed and the
 * host's own text (not rendered: there is no slot) mirrors the saved content, so the text of
 * `file-view` is the file's content, not the editor's line numbers and line elements.
 * @param {HTMLElement} host */
function mount(host) {
  const shadow = host.attachShadow({ mode: "closed" });
  const parent = document.createElement("div");
  parent.style.height = "100%";
  shadow.append(parent);
  const mirror = document.createTextNode("");
  host.append(mirror);
  return { shadow, parent, mirror };
}

/**
 * @param {HTMLElement} host
 * @param {{ onSave: (path: string, text: string, base: string) => Promise<unknown>, onSelect?: () => void }} options
 */
export function createEditorView(host, { onSave, onSelect = () => {} }) {
  const language = new Compartment();
  const labels = new Compartment();
  const locked = new Compartment(); // read-only while a proposed text is shown (docs/review.md)
  const { shadow, parent, mirror } = mount(host);
  /** @type {string | null} */
  let path = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let saving = 0; // saves on their way to the workspace: until they land, its text is older than ours
  let typedSinceFocus = false; // the user is at work in the editor: what follows the agent waits

  const view = new EditorView({
    root: shadow,
    parent,
    state: EditorState.create({
      extensions: [
        lineNumbers(),
        lintGutter(), // the checkers' problems of the open file (showProblems), marked and underlined
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        syntaxHighlighting(highlight),
        theme,
        language.of([]),
        labels.of([]),
        locked.of([]),
        EditorView.lineWrapping,
        EditorView.updateListener.of((update) => {
          const typed = update.transactions.some((tr) => tr.docChanged && !tr.annotation(fromWorkspace));
          if (typed) {
            typedSinceFocus = true;
            schedule();
          }
          if (update.selectionSet || update.docChanged) onSelect();
        }),
      ],
    }),
  });

  host.addEventListener("focusin", () => {
    typedSinceFocus = false;
  });

  function schedule() {
    clearTimeout(/** @type {ReturnType<typeof setTimeout>} */ (timer));
    timer = setTimeout(flush, SAVE_DELAY_MS);
  }

  /** Save now what the user typed and has not been saved yet (before switching files, say). */
  function flush() {
    if (timer === null) return Promise.resolve();
    clearTimeout(timer);
    timer = null;
    saving += 1;
    const base = mirror.data; // the text the typing started from: the worker merges a write made since
    mirror.data = view.state.doc.toString();
    return onSave(/** @type {string} */ (path), mirror.data, base).finally(() => {
      saving -= 1;
    });
  }

  /** @param {string} text */
  function replaceAll(text) {
    mirror.data = text;
    const { doc, selection } = view.state;
    const head = Math.min(selection.main.head, text.length);
    view.dispatch({
      changes: { from: 0, to: doc.length, insert: text },
      selection: { anchor: head },
      // Not on the editor's own undo stack: Ctrl+Z undoes the user's typing, the history panel the rest.
      annotations: [fromWorkspace.of(true), Transaction.addToHistory.of(false)],
    });
  }

  return {
    /** Show `text` of `nextPath`: a new file resets the language and the labels.
     * @param {string} nextPath
     * @param {string} text */
    open(nextPath, text) {
      if (nextPath !== path) {
        path = nextPath;
        host.dataset.path = path;
        view.dispatch({
          effects: [language.reconfigure(languageOf(path)), labels.reconfigure(attributes(path))],
        });
        replaceAll(text);
        view.scrollDOM.scrollTop = 0;
      } else if (timer === null && !saving && text !== view.state.doc.toString()) {
        replaceAll(text); // a change from the agent (or another tab); unsaved typing wins until saved
      }
    },
    flush,
    /** Refuse typing (a proposed text, not the workspace's) or take it again.
     * @param {boolean} readOnly */
    setReadOnly(readOnly) {
      host.dataset.readonly = String(readOnly);
      view.dispatch({ effects: locked.reconfigure(readOnly ? EditorState.readOnly.of(true) : []) });
    },
    text: () => view.state.doc.toString(),
    /** Whether the user is typing here (focused, and typed since) or has typing not saved yet. */
    busy: () => timer !== null || saving > 0 || (document.activeElement === host && typedSinceFocus),
    /** The selected range ({from, to}; equal when nothing is selected). */
    selection: () => ({ from: view.state.selection.main.from, to: view.state.selection.main.to }),
    /** The selected text with the lines it spans (1-based), or null when nothing is selected. */
    selected() {
      const { from, to } = view.state.selection.main;
      if (from === to) return null;
      const { doc } = view.state;
      const last = doc.lineAt(to).from === to ? to - 1 : to; // whole lines selected end before the next
      const text = doc.sliceString(from, to);
      return { start_line: doc.lineAt(from).number, end_line: doc.lineAt(last).number, text };
    },
    focus: () => view.focus(),
    /** Mark the open file's problems (`[line, col, code, message]`, 1-based) in the gutter and under the text.
     * @param {[number, number, string, string][]} rows */
    showProblems(rows) {
      const { doc } = view.state;
      const diagnostics = rows
        .filter(([line]) => line >= 1 && line <= doc.lines)
        .map(([line, col, code, message]) => {
          const { from, to } = doc.line(line);
          const start = Math.min(from + Math.max(col - 1, 0), to);
          const word = /^[\w$]+/.exec(doc.sliceString(start, to))?.[0].length ?? 0;
          return {
            from: start,
            to: Math.min(start + Math.max(word, 1), to),
            severity: /** @type {const} */ ("error"),
            message: `${code} ${message}`,
          };
        });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
  };
}
