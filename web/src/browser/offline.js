// The page's side of working offline: registers the service worker (dist/sw.js, see
// web/service-worker.js) and reports when a newer build has been installed and waits.
//
// A page runs the build it was loaded with until the user accepts the update: the waiting worker then
// takes over, every open page of the old build reloads (so no page goes on loading files of the new
// build into an old one), and the old build's cache is deleted.

const CHECK_EVERY_MS = 30 * 60 * 1000;

// `onUpdate(apply)`: a newer build is ready; calling `apply()` switches to it and reloads.
/** @param {{onUpdate: (apply: () => void) => void, scriptUrl?: string | URL}} options */
export async function startOffline({ onUpdate, scriptUrl = new URL("./sw.js", import.meta.url) }) {
  const container = globalThis.navigator?.serviceWorker;
  if (!container) return null; // not a secure context, or the browser blocks service workers
  const wasControlled = Boolean(container.controller);
  container.addEventListener("controllerchange", () => {
    if (wasControlled) location.reload(); // the first visit's worker never takes over a running page
  });
  let registration;
  try {
    registration = await container.register(scriptUrl, { scope: "./" });
  } catch (err) {
    console.info("agentlite: offline use is unavailable:", /** @type {Error} */ (err).message);
    return null;
  }
  if (!registration) return null; // a browser that blocks service workers may register nothing
  const offer = () => {
    const waiting = registration.waiting;
    if (waiting && container.controller) onUpdate(() => waiting.postMessage({ type: "activate-update" }));
  };
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => installing.state === "installed" && offer());
  });
  offer();
  const check = () => registration.update().catch(() => {}); // offline: try again later
  addEventListener("online", check);
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && check());
  setInterval(check, CHECK_EVERY_MS);
  return registration;
}
