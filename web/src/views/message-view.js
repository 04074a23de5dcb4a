// One chat message: its text rendered as sanitised markdown, its thinking apart (collapsible), and
// its tool cards. Rendering is batched to one pass per animation frame while text streams in.
import { renderMarkdown } from "../markdown.js";

export class MessageView {
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
    this.tools = new Map();
    this.frame = 0;
    if (role === "user") this.body.textContent = text;
    else this.render();
  }

  set state(state) {
    this.el.dataset.state = state;
    this.renderNow();
  }

  get state() {
    return this.el.dataset.state;
  }

  appendText(text) {
    this.text += text;
    this.render();
  }

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
    this.thinkingBody.textContent = this.thinkingText;
  }

  render() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => this.renderNow());
  }

  renderNow() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (this.el.dataset.role === "user") return;
    this.body.innerHTML = renderMarkdown(this.text);
  }

  toolCard(id, name) {
    let card = this.tools.get(id);
    if (!card) {
      card = document.createElement("section");
      card.className = "tool-card";
      card.dataset.testid = "tool-card";
      card.dataset.tool = name;
      card.dataset.status = "pending";
      const head = document.createElement("header");
      head.textContent = name;
      card.append(head);
      this.tools.set(id, card);
      this.el.append(card);
    }
    return card;
  }

  toolPreview(id, field, text) {
    const card = this.tools.get(id);
    if (!card) return;
    let preview = card.querySelector("[data-testid=tool-preview]");
    if (!preview) {
      preview = document.createElement("pre");
      preview.className = "tool-preview";
      preview.dataset.testid = "tool-preview";
      card.append(preview);
    }
    preview.dataset.field = field;
    preview.textContent = text;
  }
}
