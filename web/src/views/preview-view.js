// The Preview panel beside the editor: a workspace web page in a frame, its console below, the page to
// show and a reload button. The machinery (dist/preview.js) loads the first time the panel opens.
// `run(path)` is preview_page's way in: it opens the panel and reports what the page shows.
const MAX_LINES = 500;

export function createPreviewView(root, { call, baseUrl, onOpen = () => {} }) {
  const panel = root.querySelector("[data-testid=preview-panel]");
  const opener = root.querySelector("[data-testid=preview-open]");
  const select = panel.querySelector("[data-testid=preview-entry]");
  const status = panel.querySelector(".preview-status");
  const output = panel.querySelector("[data-testid=preview-console]");
  let previewer = null; // Promise of the machinery's previewer

  function machinery() {
    if (!previewer) {
      previewer = import(new URL("preview.js", baseUrl).href).then((module) =>
        module.createPreviewer({
          slot: panel.querySelector(".preview-slot"),
          call,
          baseUrl,
          onLog: log,
          onState: ({ state, revision, message }) => {
            if (state === "loading") output.replaceChildren();
            status.textContent = state === "error" ? `error: ${message}` : state === "loading" ? "loading…" : `revision ${revision}`;
          },
          onNavigate: (path) => open(path),
        }),
      );
      previewer.catch(() => (previewer = null));
    }
    return previewer;
  }

  function log(level, text) {
    const line = document.createElement("li");
    line.dataset.testid = "preview-log";
    line.dataset.level = level;
    line.textContent = text;
    output.append(line);
    while (output.childElementCount > MAX_LINES) output.firstElementChild.remove();
    line.scrollIntoView({ block: "nearest" });
  }

  async function fillEntries(wanted) {
    const it = await machinery();
    const pages = await it.pages();
    const chosen = wanted || (pages.includes("/index.html") ? "/index.html" : pages[0] || "/index.html");
    const options = pages.includes(chosen) ? pages : [chosen, ...pages];
    select.replaceChildren(...options.map((path) => new Option(path, path)));
    select.value = chosen;
    return chosen;
  }

  async function open(path = null) {
    panel.hidden = false;
    opener.setAttribute("aria-expanded", "true");
    onOpen();
    const entry = await fillEntries(path || select.value || null);
    const it = await machinery();
    await it.show(entry);
    return it;
  }

  function close() {
    panel.hidden = true;
    opener.setAttribute("aria-expanded", "false");
  }

  opener.addEventListener("click", () => (panel.hidden ? open() : panel.scrollIntoView({ block: "nearest" })));
  panel.querySelector("[data-testid=preview-close]").addEventListener("click", close);
  panel.querySelector("[data-testid=preview-reload]").addEventListener("click", () => machinery().then((it) => it.reload()));
  select.addEventListener("change", () => open(select.value));

  return {
    open,
    // The workspace changed: an open preview reloads by itself.
    changed() {
      if (!panel.hidden && previewer) previewer.then((it) => it.changed());
    },
    async run(path) {
      await open(path);
      return (await machinery()).report(path);
    },
  };
}
