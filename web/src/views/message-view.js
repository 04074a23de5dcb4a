// One chat message: its text rendered as sanitised markdown, its thinking apart (collapsible), and
// its tool cards. While text streams in, each chunk is rendered at once and only the blocks that
// changed (in practice the last one) are replaced in the DOM; when a render grows costly (a long
// message), renders are batched to one per animation frame instead.
import { renderBlocks } from "./markdown.js";

const RENDER_BUDGET_MS = 4; // a render slower than this waits for the next frame, with the chunks after it

export class MessageView {
  /** @param {string} role @param {string} [text] */
  constructor(role, text = "") {
    this.text = text;
    this.thinkingText = "";
    this.el = document.createElement("article");
    this.el.className = `message ${role}`;
    this.el.dataset.testid = "message";
    this.el.dataset.role = role;
    this.el.dataset.state = role === "user" ? "done" : "streaming";
    this.body = document.createElement("div");
    this.body.className = "message-body";
    this.el.append(this.body);
    this.frame = 0;
    /** @type {{html: string, nodes: ChildNode[]}[]} per rendered block */
    this.blocks = [];
    this.renderCost = 0;
    if (role === "user") this.body.textContent = text;
    else {
      this.body.addEventListener("click", (event) => onBodyClick(event));
      this.render();
    }
  }

  set state(state) {
    this.el.dataset.state = state;
    this.renderNow();
  }

  get state() {
    return this.el.dataset.state;
  }

  /** @param {string} text */
  appendText(text) {
    this.text += text;
    this.render();
  }

  /** @param {string} text */
  appendThinking(text) {
    if (!this.thinking) {
      this.thinking = document.createElement("details");
      this.thinking.className = "thinking";
      this.thinking.dataset.testid = "thinking";
      this.thinking.open = true;
      const summary = document.createElement("summary");
      summary.textContent = "Thinking";
      this.thinkingBody = document.createElement("div");
      this.thinking.append(summary, this.thinkingBody);
      this.el.insertBefore(this.thinking, this.body);
    }
    this.thinkingText += text;
    /** @type {HTMLDivElement} */ (this.thinkingBody).textContent = this.thinkingText;
  }

  render() {
    if (this.frame) return;
    if (this.renderCost <= RENDER_BUDGET_MS) return this.renderNow();
    this.frame = requestAnimationFrame(() => this.renderNow());
  }

  renderNow() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (this.el.dataset.role === "user") return;
    const began = performance.now();
    this.patch(renderBlocks(this.text));
    this.renderCost = performance.now() - began;
  }

  /** Replace the rendered blocks from the first one whose HTML changed; the ones before stay. */
  /** @param {string[]} htmls */
  patch(htmls) {
    let same = 0;
    while (same < htmls.length && same < this.blocks.length && htmls[same] === this.blocks[same].html) same++;
    if (same === htmls.length && same === this.blocks.length) return;
    this.blocks.length = same;
    // The changed blocks go, with anything added among them since (a code block's "Save as" panel).
    const stale = document.createRange();
    stale.selectNodeContents(this.body);
    const keptEnd = this.blocks.at(-1)?.nodes.at(-1);
    if (keptEnd) stale.setStartAfter(keptEnd);
    stale.deleteContents();
    const template = document.createElement("template");
    const added = document.createDocumentFragment();
    for (const html of htmls.slice(same)) {
      template.innerHTML = html;
      for (const code of template.content.querySelectorAll("pre > code")) addCopyButton(code);
      this.blocks.push({ html, nodes: [...template.content.childNodes] });
      added.append(template.content);
    }
    this.body.append(added);
  }
}

/** @param {Element} code */
function addCopyButton(code) {
  const copy = document.createElement("button");
  Object.assign(copy, { type: "button", className: "copy-code", textContent: "Copy" });
  copy.setAttribute("aria-label", "Copy this code");
  const block = /** @type {HTMLElement} */ (code.parentElement);
  block.classList.add("code-block");
  block.append(copy);
}

// Copy buttons and click-to-open images; the markup comes from renderMarkdown, never from the model.
/** @param {MouseEvent} event */
function onBodyClick(event) {
  const target = /** @type {Element} */ (event.target);
  const copy = target.closest(".copy-code");
  if (copy) {
    const code = /** @type {HTMLElement} */ (copy.parentElement).querySelector("code")?.textContent || "";
    navigator.clipboard?.writeText(code).then(
      () => (copy.textContent = "Copied"),
      () => (copy.textContent = "Copy failed"),
    );
    return;
  }
  const image = /** @type {HTMLElement | null} */ (target.closest(".remote-image"));
  if (image && /^https?:\/\//i.test(image.dataset.src || ""))
    window.open(image.dataset.src, "_blank", "noopener,noreferrer");
}
