// The plan a Plan-mode turn ended with, on that turn's answer (docs/plan-mode.md): its steps, "Edit plan"
// (a text field, one step a line; saving shows the new steps) and "Approve plan", which hands the steps
// to the chat view to carry out in Agent mode. The engine proposes the plan (a `plan` event with
// `proposed`, or the chat's saved plan); the card shows and edits it and never talks to the worker.
import { button, el } from "./dom.js";
import { stepsOf } from "./plan-steps.js";

export class PlanCard {
  /** @param {string} turn @param {string[]} steps @param {(steps: string[]) => void} onApprove */
  constructor(turn, steps, onApprove) {
    this.steps = steps;
    this.onApprove = onApprove;
    this.el = el("section", "plan-card", null, { testid: "plan-card", "aria-label": "Proposed plan" });
    this.el.dataset.turn = turn;
    this.list = el("ol", "plan-steps");
    this.text = el("textarea", "plan-text", null, {
      testid: "plan-text",
      "aria-label": "The plan, one step a line",
      rows: "5",
    });
    this.text.hidden = true;
    this.note = el("p", "plan-note", "", { role: "status" });
    this.edit = button("Edit plan", "plan-edit", () => (this.editing ? this.save() : this.open()));
    this.approve = button("Approve plan", "plan-approve", () => this.approveNow());
    this.approve.title = "Switch this chat to Agent mode and carry the plan out";
    this.text.addEventListener("keydown", (event) => this.key(event));
    const actions = el("div", "plan-actions");
    actions.append(this.edit, this.approve);
    this.el.append(el("strong", "", "Proposed plan"), this.list, this.text, this.note, actions);
    this.state = "proposed";
    this.show();
  }

  get editing() {
    return this.state === "editing";
  }

  /** `proposed`, `editing`, `approved` or `superseded` (a later turn started). @param {string} value */
  set state(value) {
    this.el.dataset.state = value;
  }

  get state() {
    return /** @type {string} */ (this.el.dataset.state);
  }

  show() {
    this.list.replaceChildren(...this.steps.map((step) => el("li", "", step)));
  }

  open() {
    this.text.value = this.steps.join("\n");
    this.text.hidden = false;
    this.list.hidden = true;
    this.state = "editing";
    this.edit.textContent = "Save plan";
    this.edit.setAttribute("aria-pressed", "true");
    this.text.focus();
  }

  /** Save the edited steps; false (and a note saying why) when the text holds none. */
  save() {
    const steps = stepsOf(this.text.value);
    if (!steps.length) {
      this.note.textContent = "A plan needs at least one step: write one a line.";
      return false;
    }
    this.steps = steps;
    this.close("proposed");
    return true;
  }

  /** @param {string} state */
  close(state) {
    this.note.textContent = "";
    this.text.hidden = true;
    this.list.hidden = false;
    this.edit.textContent = "Edit plan";
    this.edit.removeAttribute("aria-pressed");
    this.state = state;
    this.show();
  }

  /** Ctrl+Enter saves, Escape puts the plan back as it was (and does not stop the chat's turn).
   * @param {KeyboardEvent} event */
  key(event) {
    if (event.key === "Escape") {
      event.stopPropagation();
      this.close("proposed");
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this.save();
    }
  }

  approveNow() {
    if (this.editing && !this.save()) return;
    this.finish("approved");
    this.onApprove(this.steps);
  }

  /** The plan can no longer be approved here: approved, or a later turn of the chat started.
   * @param {string} state */
  finish(state) {
    if (this.state === "approved" || this.state === "superseded") return;
    if (this.editing) this.close(state);
    this.state = state;
    this.edit.disabled = this.approve.disabled = true;
  }
}
