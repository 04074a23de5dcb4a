// "A new version is available": shown under the top bar when a newer build of the app has been
// installed while this page runs; its button switches to it (the page reloads).

export function createUpdateNotice(root) {
  const anchor = root.querySelector(".topbar");

  function show(apply) {
    if (root.querySelector("[data-testid=update-available]")) return;
    const box = document.createElement("div");
    box.className = "storage-notice update-available";
    box.dataset.testid = "update-available";
    box.setAttribute("role", "status");
    const message = document.createElement("span");
    message.textContent = "A new version of AgentLite is ready. Reload to use it (your files and chats stay).";
    const reload = document.createElement("button");
    reload.type = "button";
    reload.textContent = "Reload";
    reload.dataset.testid = "update-reload";
    reload.addEventListener("click", () => {
      reload.disabled = true;
      apply();
    });
    box.append(message, reload);
    anchor.after(box);
  }

  return { show };
}
