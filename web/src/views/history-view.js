// The history of the open file: every version with its op, turn, author and time; the diff of the chosen
// version against its parent or against any other version; undo of the newest change; revert of one
// hunk of a change. Every action is a new recorded change, so each of them can be undone too.
import { el } from "../dom.js";
import { renderDiff } from "./diff-view.js";

const part = (className, text) => el("span", className, text);

function when(seconds) {
  const date = new Date(seconds * 1000);
  return `${date.toLocaleDateString()} ${date.toLocaleTimeString()}`;
}

export function createHistoryView(panel, { call }) {
  const list = panel.querySelector(".version-list");
  const base = panel.querySelector(".diff-base");
  const diff = panel.querySelector(".diff");
  const message = panel.querySelector(".history-message");
  const undo = panel.querySelector("[data-testid=undo-change]");
  let path = null;
  let versions = [];
  let selected = null;
  let baseVersion = null;
  let token = 0;

  function say(text, failed = false) {
    message.textContent = text;
    message.classList.toggle("failed", failed);
  }

  async function act(label, work) {
    say(`${label}…`);
    try {
      await work();
      say(`${label}: done.`);
    } catch (err) {
      say(`${label} failed: ${err.message}`, true);
    }
  }

  function item(record) {
    const li = document.createElement("li");
    li.className = "version-item";
    li.dataset.testid = "version-item";
    li.dataset.version = String(record.version);
    li.role = "option";
    li.tabIndex = record.version === selected ? 0 : -1;
    li.setAttribute("aria-selected", String(record.version === selected));
    const who = record.author === "user" ? "you" : record.author;
    li.append(part("v", `v${record.version}`), part(`op ${record.op}`, record.op), part("who", who));
    li.append(part("turn", record.turn), part("time", when(record.time)));
    if (record.note) li.append(part("note", record.note));
    li.title = `version ${record.version}: ${record.op} by ${who} in turn ${record.turn}`;
    li.addEventListener("click", () => choose(record.version));
    li.addEventListener("keydown", (event) => moveFocus(event, record.version));
    return li;
  }

  function moveFocus(event, version) {
    const step = { ArrowUp: 1, ArrowDown: -1 }[event.key];
    if (event.key === "Enter" || event.key === " ") choose(version);
    if (!step) return;
    event.preventDefault();
    const next = list.querySelector(`[data-version="${version + step}"]`);
    next?.focus();
  }

  function baseOptions() {
    const parent = new Option("its previous version", "");
    const others = versions.map((v) => new Option(`v${v.version} (${v.op})`, String(v.version)));
    base.replaceChildren(parent, ...others);
    base.value = baseVersion === null ? "" : String(baseVersion);
  }

  async function showDiff(mine) {
    const args = { path, new: selected };
    if (baseVersion !== null) args.old = baseVersion;
    const text = await call("diff", args);
    if (mine !== token) return;
    const againstParent = baseVersion === null || baseVersion === selected - 1;
    const record = versions.find((v) => v.version === selected);
    const revertable = againstParent && record && record.op !== "delete" && record.kind === "file";
    renderDiff(diff, text, revertable ? revertHunk : null);
  }

  function revertHunk(index) {
    return act(`Revert hunk ${index + 1} of v${selected}`, () =>
      call("revertHunk", { path, version: selected, hunk: index }),
    );
  }

  async function refresh() {
    if (!path) return;
    const mine = ++token;
    const wasNewest = selected === null || selected === versions.at(-1)?.version;
    const found = await call("history", { path });
    if (mine !== token) return;
    versions = found;
    if (wasNewest || !versions.some((v) => v.version === selected)) selected = versions.at(-1)?.version ?? null;
    if (baseVersion !== null && !versions.some((v) => v.version === baseVersion)) baseVersion = null;
    list.replaceChildren(...versions.map(item).reverse());
    baseOptions();
    undo.disabled = versions.length === 0;
    panel.hidden = false;
    if (selected === null) return diff.replaceChildren();
    await showDiff(mine);
  }

  function choose(version) {
    selected = version;
    for (const li of list.children) {
      const on = li.dataset.version === String(version);
      li.setAttribute("aria-selected", String(on));
      li.tabIndex = on ? 0 : -1;
    }
    return showDiff(++token);
  }

  function show(nextPath) {
    if (nextPath !== path) {
      path = nextPath;
      selected = null;
      baseVersion = null;
      versions = [];
      say("");
    }
    return refresh();
  }

  base.addEventListener("change", () => {
    baseVersion = base.value === "" ? null : Number(base.value);
    showDiff(++token);
  });
  undo.addEventListener("click", () => path && act("Undo the newest change", () => call("undo", { path })));

  return { show, refresh, path: () => path };
}
