// The file explorer and the open file: a tree of the workspace that refreshes on every change, and
// the text of the file the user opened.

export function createFilesView(root, { listFiles, readFile }) {
  const tree = root.querySelector("[data-testid=file-tree]");
  const view = root.querySelector("[data-testid=file-view]");
  const title = root.querySelector("#file-title");
  const empty = root.querySelector("#file-empty");
  let openPath = null;

  function item(entry) {
    const li = document.createElement("li");
    li.className = `file-item ${entry.kind}`;
    li.dataset.testid = "file-item";
    li.dataset.path = entry.path;
    li.dataset.kind = entry.kind;
    li.role = "treeitem";
    li.tabIndex = 0;
    const depth = entry.path.split("/").length - 2;
    li.style.paddingLeft = `${0.5 + depth}rem`;
    li.textContent = `${entry.kind === "dir" ? "▾" : "·"} ${entry.path.split("/").pop()}`;
    if (entry.kind === "file") {
      const open = () => openFile(entry.path);
      li.addEventListener("click", open);
      li.addEventListener("keydown", (event) => event.key === "Enter" && open());
    }
    return li;
  }

  async function refresh() {
    const entries = await listFiles();
    tree.replaceChildren(...entries.map(item));
    if (openPath) await openFile(openPath);
  }

  async function openFile(path) {
    const text = await readFile(path);
    if (text === null) {
      openPath = null;
      view.hidden = true;
      empty.hidden = false;
      title.textContent = "No file open";
      return;
    }
    openPath = path;
    view.dataset.path = path;
    view.textContent = text;
    view.hidden = false;
    empty.hidden = true;
    title.textContent = path;
  }

  return { refresh, openFile };
}
