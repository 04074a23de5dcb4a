// One tool call as the user sees it: the tool, a short argument summary, its status chip
// (data-status), the live preview while the model writes it, approve / reject while it waits,
// the result with its duration, and for a file change its diff (collapsed; read when first opened).
// A result's images (py/agentlite/tools/images.py) are shown as <img> with data: URLs of the raster
// types the agent accepts only; anything else (SVG above all) is never put into the page.
import { frameWriter } from "./dom.js";
import { approvalBox } from "./approval-view.js";
import { renderDiff } from "./diff-view.js";
import { toolIcon } from "./icons.js";
import { imageAlt, shownImages } from "../attachments/tool-images.js";

const SUMMARY_KEYS = ["path", "source", "query", "command", "code", "destination", "new_name", "text"];

/** @param {unknown} args */
function summarize(args) {
  if (!args || typeof args !== "object") return "";
  const fields = /** @type {Record<string, unknown>} */ (args);
  const key = SUMMARY_KEYS.find((k) => typeof fields[k] === "string" && fields[k]);
  const value = key ? /** @type {string} */ (fields[key]).split("\n")[0] : actionOf(fields);
  return value.length > 80 ? `${value.slice(0, 79)}…` : value;
}

// A preview_act call in short: the action, the ref, the value (`press e4 "Enter"`).
/** @param {Record<string, unknown>} fields */
function actionOf({ action, ref, value }) {
  if (typeof action !== "string" || typeof ref !== "string") return "";
  return `${action} ${ref}${typeof value === "string" && value ? ` ${JSON.stringify(value.split("\n")[0])}` : ""}`;
}

/** What a card asks of the page: the user's approval answer, and the diffs and remote permissions it shows.
 * @typedef {object} CardActions
 * @property {(callId: string, approved: boolean, batch: boolean, ask?: string) => unknown} onApprove
 * @property {((path: string, version: number) => Promise<unknown>) | null} [loadDiff]
 * @property {import("./approval-view.js").ApprovalHooks["previewWrite"]} [previewWrite]
 * @property {import("./approval-view.js").ApprovalHooks["allowRemote"]} [allowRemote]
 */
/** The `data` of a file-changing call's result: the path and its new version, or the diff itself.
 * @typedef {{path?: unknown, version?: unknown, diff?: unknown}} DiffData */
/** @typedef {import("../agent/page/chat-events.js").ChatEvents} ChatEvents */
/** @typedef {ChatEvents["tool_status"]} ToolStatus */

export class ToolCard {
  /** `loadDiff(path, version)` resolves to the unified diff that made `version` of `path`;
   * `previewWrite(path, text)` to what writing `text` would change (shown while approval waits);
   * `allowRemote(name, server)` sets "always allow" for a remote tool (or its whole server). */
  /** @param {string} id @param {string} name @param {CardActions} actions */
  constructor(id, name, { onApprove, loadDiff = null, previewWrite = null, allowRemote = null }) {
    this.id = id;
    this.onApprove = onApprove;
    this.allowRemote = allowRemote;
    this.loadDiff = loadDiff;
    this.previewWrite = previewWrite;
    /** @type {string | undefined} the kind of question the open approval shows (`ask` of its event) */
    this.ask = undefined;
    this.el = document.createElement("section");
    this.el.className = "tool-card";
    this.el.dataset.testid = "tool-card";
    this.el.dataset.tool = name;
    this.el.dataset.status = "pending";
    const head = document.createElement("header");
    this.nameEl = document.createElement("span");
    this.nameEl.className = "tool-name";
    this.nameEl.textContent = name;
    this.summaryEl = document.createElement("span");
    this.summaryEl.className = "tool-summary";
    this.chip = document.createElement("span");
    this.chip.className = "tool-chip";
    this.chip.textContent = "pending";
    this.iconEl = toolIcon(name);
    head.append(this.iconEl, this.nameEl, this.summaryEl, this.chip);
    this.el.append(head);
    // Enter on a card awaiting approval (reached with Tab) approves it; on its buttons, Enter is theirs.
    this.el.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target === this.el && this.actions) {
        event.preventDefault();
        this.onApprove(this.id, true, false, this.ask);
      }
    });
  }

  /** @param {string} name */
  rename(name) {
    this.el.dataset.tool = name;
    this.nameEl.textContent = name;
    const next = toolIcon(name);
    this.iconEl.replaceWith(next);
    this.iconEl = next;
  }

  /** A tool_status event (or a restored call's status): the card shows the new status.
   * @param {Pick<ToolStatus, "status"> & Partial<ToolStatus>} event */
  status({ status, arguments: args, result, duration_ms, reason }) {
    this.previewWriter?.flush(); // the last streamed text is shown once the call has run
    this.el.dataset.status = status;
    this.chip.textContent = status + (duration_ms != null ? ` · ${Math.round(duration_ms)} ms` : "");
    if (duration_ms != null) this.el.dataset.durationMs = String(Math.round(duration_ms));
    if (args) this.summaryEl.textContent = summarize(args);
    if (status !== "awaiting-approval") this.closeApproval();
    if (reason && (status === "failed" || status === "rejected")) this.showResult(reason, true);
    if (result) this.showResult(/** @type {string} */ (result.message || ""), result.code !== 0);
    if (result?.data) this.offerDiff(/** @type {DiffData} */ (result.data));
    if (result?.images) this.showImages(result.images);
    if (result?.problems) this.showProblems(/** @type {{introduced: number, fixed: number}} */ (result.problems));
  }

  /** The problems the change introduced and fixed (docs/problems.md), as a chip beside the status.
   * @param {{introduced: number, fixed: number}} counts */
  showProblems({ introduced, fixed }) {
    const chip = document.createElement("span");
    chip.className = `tool-problems${introduced ? " introduced" : ""}`;
    Object.assign(chip.dataset, { testid: "tool-problems", introduced: String(introduced), fixed: String(fixed) });
    chip.textContent = [
      introduced && `${introduced} new problem${introduced === 1 ? "" : "s"}`,
      fixed && `${fixed} fixed`,
    ]
      .filter(Boolean)
      .join(" · ");
    this.chip.after(chip);
  }

  /** The result's images, once (a restored card and a live one get them the same way). */
  /** @param {unknown} images */
  showImages(images) {
    const shown = shownImages(images);
    if (this.imagesEl || !shown.length) return;
    const box = document.createElement("div");
    this.imagesEl = box;
    this.imagesEl.className = "tool-images";
    this.imagesEl.dataset.testid = "tool-images";
    const tool = this.el.dataset.tool;
    shown.forEach((image, index) => {
      const img = document.createElement("img");
      img.alt = imageAlt(image, index, shown.length, tool);
      img.src = `data:${image.mime};base64,${image.data}`;
      img.decoding = "async";
      box.append(img);
    });
    this.el.append(this.imagesEl);
  }

  /** A toggle for the diff of the file this call changed: `data` names the path and the new version
   * (or holds the diff itself). */
  /** @param {DiffData} data */
  offerDiff(data) {
    const known = typeof data.diff === "string" || (Number.isInteger(data.version) && this.loadDiff);
    if (this.diffEl || typeof data.path !== "string" || !known) return;
    const details = document.createElement("details");
    this.diffEl = details;
    this.diffEl.className = "tool-diff";
    this.diffEl.dataset.testid = "tool-diff";
    const summary = document.createElement("summary");
    summary.textContent = `Diff of ${data.path}${data.version ? ` (version ${data.version})` : ""}`;
    const body = document.createElement("div");
    body.className = "diff";
    this.diffEl.append(summary, body);
    this.diffEl.addEventListener("toggle", () => details.open && this.fillDiff(body, data));
    this.el.append(this.diffEl);
  }

  /** @param {HTMLElement} body @param {DiffData} data */
  async fillDiff(body, data) {
    if (body.dataset.loaded) return;
    body.dataset.loaded = "loading";
    try {
      const text =
        typeof data.diff === "string"
          ? data.diff
          : await /** @type {NonNullable<CardActions["loadDiff"]>} */ (this.loadDiff)(
              /** @type {string} */ (data.path),
              /** @type {number} */ (data.version),
            );
      renderDiff(body, /** @type {string} */ (text), null);
      body.dataset.loaded = "done";
    } catch (err) {
      body.textContent = `The diff could not be read: ${/** @type {Error} */ (err).message}`;
      delete body.dataset.loaded; // tried again on the next opening
    }
  }

  /** @param {string} text */
  thinking(text) {
    if (!this.thinkingEl) {
      this.thinkingEl = document.createElement("div");
      this.thinkingEl.className = "tool-thinking";
      this.thinkingEl.dataset.testid = "tool-thinking";
      this.el.insertBefore(this.thinkingEl, this.el.children[1] || null);
    }
    this.thinkingEl.textContent += text;
  }

  /** @param {string} field @param {string} text */
  preview(field, text) {
    if (field === "path") {
      this.summaryEl.textContent = summarize({ path: text }); // the file, named early
      return;
    }
    if (!this.previewEl) {
      this.previewEl = document.createElement("pre");
      this.previewEl.className = "tool-preview";
      this.previewEl.dataset.testid = "tool-preview";
      this.previewEl.tabIndex = 0; // it scrolls: the keyboard must reach it too
      this.el.append(this.previewEl);
      this.previewWriter = frameWriter(this.previewEl); // the streamed text, drawn once per frame
    }
    this.previewEl.dataset.field = field;
    /** @type {ReturnType<typeof frameWriter>} */ (this.previewWriter).write(text);
  }

  /** @param {ChatEvents["approval"]} event */
  askApproval(event) {
    this.closeApproval();
    this.ask = event.ask; // the kind of question shown: the answer names it, so it answers nothing else
    this.actions = approvalBox(
      { ...event, name: event.name || /** @type {string} */ (this.el.dataset.tool) },
      {
        answer: (approved, batch) => this.onApprove(this.id, approved, batch, this.ask),
        previewWrite: this.previewWrite,
        allowRemote: this.allowRemote,
      },
    );
    this.el.append(this.actions);
    this.el.tabIndex = 0;
  }

  closeApproval() {
    if (!this.actions) return;
    this.actions.remove();
    this.actions = null;
    this.el.removeAttribute("tabindex");
  }

  /** @param {string} message @param {boolean} failed */
  showResult(message, failed) {
    if (!this.resultEl) {
      this.resultEl = document.createElement("pre");
      this.resultEl.className = "tool-result";
      this.resultEl.tabIndex = 0; // it scrolls once long (a screenshot, a listing): the keyboard must reach it
      this.el.append(this.resultEl);
    }
    this.resultEl.classList.toggle("failed", failed);
    this.resultEl.textContent = message.length > 2000 ? `${message.slice(0, 2000)}…` : message;
  }
}
