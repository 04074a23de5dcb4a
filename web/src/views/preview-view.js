// The Preview panel beside the editor: a workspace web page in a frame, its console below, the page to
// show and a reload button. The machinery (dist/preview.js) loads the first time the panel opens.
// `run(path)` is preview_page's way in: it opens the panel and reports what the page shows.
import { framesShareThread } from "../preview/thread.js";

const MAX_LINES = 500;
const LIST_DEBOUNCE_MS = 100; // the entry list follows a burst of writes once
const SAME_THREAD =
  "In this browser a previewed page runs on the app's own thread: a page that never stops would freeze the app. " +
  "The preview reloads only when you press Reload.";

export function createPreviewView(root, { call, baseUrl, onOpen = () => {} }) {
  const panel = root.querySelector("[data-testid=preview-panel]");
  const opener = root.querySelector("[data-testid=preview-open]");
  const select = panel.querySelector("[data-testid=preview-entry]");
  const status = panel.querySelector(".preview-status");
  const output = panel.querySelector("[data-testid=preview-console]");
  let previewer = null; // Promise of the machinery's previewer
  let listTimer = null;
  const sharesThread = framesShareThread();
  const notice = panel.querySelector(".preview-notice");
  if (sharesThread) {
    notice.textContent = SAME_THREAD;
    notice.hidden = false;
  }

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
            status.textContent =
              state === "error" ? `error: ${message}` : state === "loading" ? "loading…" : `revision ${revision}`;
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
  panel
    .querySelector("[data-testid=preview-reload]")
    .addEventListener("click", () => machinery().then((it) => it.reload()));
  select.addEventListener("change", () => open(select.value));

  return {
    open,
    // The workspace changed: an open preview reloads by itself.
    changed() {
      if (panel.hidden || !previewer) return;
      if (!sharesThread) previewer.then((it) => it.changed());
      clearTimeout(listTimer); // a new page written while the panel is open joins the entry list
      listTimer = setTimeout(() => fillEntries(select.value || null).catch(() => {}), LIST_DEBOUNCE_MS);
    },
    async run(path) {
      if (sharesThread && !(await askFirst(panel, path))) {
        const text = "the user did not open the preview (in this browser a looping page would freeze the app)";
        return { path, state: "declined", title: "", text: "", logs: [], errors: [], message: text };
      }
      await open(path);
      return (await machinery()).report(path);
    },
  };
}

// In an engine that runs the frame on the app's thread, the agent's preview waits for a yes.
function askFirst(panel, path) {
  panel.hidden = false;
  const ask = panel.querySelector(".preview-ask");
  ask.querySelector("span").textContent = `The agent wants to open ${path} in the preview. Run its scripts?`;
  ask.hidden = false;
  return new Promise((resolve) => {
    const answer = (yes) => () => {
      ask.hidden = true;
      resolve(yes);
    };
    ask.querySelector("[data-answer=yes]").onclick = answer(true);
    ask.querySelector("[data-answer=no]").onclick = answer(false);
  });
}
