// What an approval card says before the user answers: the action in words ("Delete /src/Button.tsx",
// "Overwrite /src/App.tsx (+3 −1)", "Run in the sandbox: …"), the diff or the whole command it would run
// with its line count (never cut or scrolled: a dangerous last line must be seen before Approve), and
// Approve / Reject / Approve all on one row. Everything the model wrote goes into textContent only.
import { button } from "./dom.js";
import { toolFacts } from "../agent/page/tools.js";
import { renderDiff } from "./diff-view.js";

const REMOTE_PREFIX = "mcp__"; // a remote MCP server's tool (py/agentlite/mcp/tool_names.py)

/** What writing a file would change, as the worker's `vfs.diffText` answers.
 * @typedef {{added: number, removed: number, exists: boolean, diff?: string}} WriteStat */
/** What the approval box asks of the card: the user's answer, a write's preview, a remote tool's "always allow".
 * @typedef {object} ApprovalHooks
 * @property {(approved: boolean, batch: boolean) => unknown} answer
 * @property {((path: string, text: string) => Promise<WriteStat>) | null} [previewWrite]
 * @property {((name: string, server: boolean) => Promise<unknown>) | null} [allowRemote]
 */
/** @typedef {Record<string, unknown>} Args */

/** @param {unknown} text @param {number} [limit] */
const firstLine = (text, limit = 80) => {
  const line = String(text || "").split("\n")[0];
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
};

/** @param {import("../agent/page/tools.js").ToolName} name @param {{exists: boolean} | null} stat */
const writeVerb = (name, stat) => {
  if (stat) return stat.exists ? "Overwrite" : "Create";
  return name === "write_file" ? "Overwrite" : "Create";
};

/** The action of a call in words, from its tool and arguments; `stat` ({added, removed, exists}) when
 * the change to a file is known.
 * @param {string} name @param {Args} [args] @param {WriteStat | null} [stat] */
export function describeAction(name, args = {}, stat = null) {
  const facts = toolFacts(name);
  const path = (facts?.path && args[facts.path]) || "";
  const counts = stat ? ` (+${stat.added} −${stat.removed})` : "";
  if (facts?.name === "preview_page") return `Open the preview of ${args.path || "/index.html"} (runs its scripts)`;
  if (facts?.name === "preview_snapshot") return `Read the preview of ${args.path || "/index.html"} (runs its scripts)`;
  if (facts?.name === "preview_act")
    return `In the preview: ${args.action || "act"} on ${args.ref || "?"}${args.value ? ` (${args.value})` : ""}`;
  if (facts?.name === "preview_wait") return `Wait in the preview${args.text ? ` for "${args.text}"` : ""}`;
  if (facts?.kind === "run") return `Run in the sandbox: ${firstLine(args[/** @type {string} */ (facts.content)])}`;
  switch (facts?.name) {
    case "delete_file":
      return `Delete ${path}`;
    case "write_file":
    case "create_file":
      return `${writeVerb(facts.name, stat)} ${path}${counts}`;
    case "edit_file":
      return `Edit ${path}${counts}`;
    case "edit_current_editor_document":
      return "Replace the open file's content";
    case "move_file":
      return `Move ${args.source || ""} to ${args.destination || ""}`;
    case "rename_file":
      return `Rename ${path} to ${args.new_name || ""}`;
    case "create_folder":
      return `Create the folder ${path}`;
    default:
      return name.startsWith(REMOTE_PREFIX) ? `Call ${name} on a remote MCP server` : `Run ${name}`;
  }
}

/** A diff of an edit's two blocks, as the unified diff the diff view reads. */
/** @param {Args} args */
function editDiff(args) {
  /** @param {unknown} text */
  const lines = (text) =>
    String(text || "")
      .replace(/\n$/, "")
      .split("\n");
  const old = lines(args.originalCode).map((l) => `-${l}`);
  const added = lines(args.newCode).map((l) => `+${l}`);
  return { diff: `@@ -1,${old.length} +1,${added.length} @@\n${[...old, ...added].join("\n")}`, added, old };
}

/** "1 line", "12 lines": a trailing newline ends the last line, it does not start another. */
/** @param {string} text */
export function lineCount(text) {
  const lines = text.replace(/\n$/, "").split("\n").length;
  return lines === 1 ? "1 line" : `${lines} lines`;
}

/** The whole command, at its full height (no scroll box that could hide a last line), with its line
 * count above it.
 * @param {string} command */
function commandBox(command) {
  const box = document.createElement("div");
  box.className = "tool-command-box";
  const count = document.createElement("span");
  count.className = "tool-command-lines";
  count.dataset.testid = "tool-command-lines";
  count.textContent = lineCount(command);
  const code = document.createElement("pre");
  code.className = "tool-command";
  code.dataset.testid = "tool-command";
  code.textContent = command;
  box.append(count, code);
  return box;
}

/** The command a call would run, or the diff of the change it would make (counted into `action`). */
/** @param {string} name @param {Args} args @param {HTMLElement} action @param {ApprovalHooks["previewWrite"]} previewWrite */
function whatItDoes(name, args, action, previewWrite) {
  const facts = toolFacts(name);
  if (facts?.kind === "run") return commandBox(String(args[/** @type {string} */ (facts.content)] || ""));
  const shown = document.createElement("div");
  shown.className = "diff";
  if (facts?.name === "edit_file") {
    const { diff, added, old } = editDiff(args);
    action.textContent = describeAction(name, args, { added: added.length, removed: old.length, exists: true });
    renderDiff(shown, diff, null);
    return shown;
  }
  const writes = facts?.name === "write_file" || facts?.name === "create_file";
  if (!writes || typeof args.content !== "string" || !previewWrite) return null;
  previewWrite(/** @type {string} */ (args.path), args.content).then(
    (stat) => {
      action.textContent = describeAction(name, args, stat);
      renderDiff(shown, /** @type {string} */ (stat.diff), null);
    },
    () => shown.remove(),
  );
  return shown;
}

/** The arguments a remote tool would be called with, as JSON (the user sees what leaves the workspace). */
/** @param {Args} args */
function remoteArguments(args) {
  const shown = document.createElement("pre");
  shown.className = "tool-command";
  shown.dataset.testid = "tool-arguments";
  shown.textContent = JSON.stringify(args, null, 2);
  return shown;
}

/** "Always allow this tool" / "this server": the choice is kept in the server's settings (the worker's
 * `mcp.allow`), then this call is approved. Only the user's click sets it: nothing a server sends can. */
/** @param {string} name @param {ApprovalHooks["answer"]} answer @param {NonNullable<ApprovalHooks["allowRemote"]>} allowRemote */
function remoteButtons(name, answer, allowRemote) {
  /** @param {boolean} server */
  const allow = (server) => () =>
    allowRemote(name, server).then(
      () => answer(true, false),
      () => answer(true, false),
    );
  return [
    button("Always allow this tool", "tool-allow-tool", allow(false)),
    button("Always allow this server", "tool-allow-server", allow(true)),
  ];
}

/** The body of a card awaiting approval. `answer(approved, batch)`; `previewWrite(path, text)` resolves to
 * what a write would change ({exists, diff, added, removed}); `allowRemote(name, server)` for a remote
 * tool's "always allow" buttons.
 * @param {{name: string, arguments?: Args, reason?: string, batch?: unknown}} call @param {ApprovalHooks} hooks */
export function approvalBox({ name, arguments: args = {}, reason, batch }, { answer, previewWrite, allowRemote }) {
  const box = document.createElement("div");
  box.className = "tool-approval";
  const action = document.createElement("strong");
  action.className = "tool-action";
  action.dataset.testid = "tool-action";
  action.textContent = describeAction(name, args);
  const why = document.createElement("p");
  why.className = "tool-reason";
  why.textContent = reason || "This step needs your approval.";
  box.append(action, why);
  const remote = name.startsWith(REMOTE_PREFIX);
  const shown = remote ? remoteArguments(args) : whatItDoes(name, args, action, previewWrite);
  if (shown) box.append(shown);
  const row = document.createElement("div");
  row.className = "tool-actions";
  row.append(button("Approve", "tool-approve", () => answer(true, false)));
  row.append(button("Reject", "tool-reject", () => answer(false, false)));
  if (batch) {
    const all = button("Approve all", "tool-approve-all", () => answer(true, true));
    all.title = "Approve every call of this reply that waits with the same question; any other still asks";
    row.append(all);
  }
  if (remote && allowRemote) row.append(...remoteButtons(name, answer, allowRemote));
  box.append(row);
  return box;
}
