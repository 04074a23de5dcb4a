// The app never runs inside a frame (docs/deploying.md, "Framing"): a page that framed it could lay its own
// buttons over the app's (an approval, a key's field) or frame it at a size that hides what a click does.
// A host that sends the deployment headers (web/_headers) refuses the frame before the page loads; on a
// host that sends none, this refuses it: imported first by both of the page's scripts (start.js, app.js),
// it shows why in place of the app and throws, which ends that script there — no worker starts, no
// storage is opened, no setting is read. Nothing makes an exception: whatever frames the page, a query or
// a message could be set by the framing page itself.

if (window.top !== window.self) {
  showRefusal();
  throw new Error("AgentLite does not run inside a frame: open it in its own tab.");
}

function showRefusal() {
  const root = document.querySelector("[data-testid=app]");
  if (!root || root.getAttribute("data-state") === "framed") return; // the other script said it already
  const note = document.createElement("p");
  note.dataset.testid = "framed";
  note.setAttribute("role", "alert");
  note.textContent = "AgentLite does not run inside another page. ";
  const link = document.createElement("a");
  link.href = location.href;
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  link.textContent = "Open it in its own tab.";
  note.append(link);
  root.replaceChildren(note);
  root.setAttribute("data-state", "framed");
}
