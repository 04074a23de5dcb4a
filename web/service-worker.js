// The service worker: AgentLite opens with no network after one complete visit.
//
// `BUILD` (written in front of this file by the build) holds the build id, its cache name and the
// sha256 of every file to keep. Install fetches each file past the HTTP cache and checks it against
// that sha256, so a file of another build (a deploy during the install) fails the install and a cache
// never mixes builds; the next update check starts over. Activation deletes older builds' caches.
// A newer worker waits until the page asks it to take over (the page's "update available" notice),
// so an open page keeps running the build it started with. `BUILD.later` lists files no page loads before
// first use (pytest's wheels): the worker keeps them after it has activated, in the background, so after
// one complete visit every tool works offline while the bytes before `ready` do not grow; one asked for
// before that is checked the same way and kept then. `BUILD.onUse` (the engine of the model in the page,
// about 10 MB) is kept only when first asked for: a visit that never runs a model in the page never loads it.
//
// Only same-origin GETs (and HEADs) of this build's files are answered; everything else, above all the
// model endpoint (another origin, POST), is left alone: never intercepted, never cached.
//
// A file is kept with the security headers its host sent (`KEPT_HEADERS`: the deployment's CSP, framing
// refusal, Referrer-Policy, …; docs/deploying.md), so a page served from the cache is as protected as one
// served by the host.
"use strict";

const SCOPE = new URL("./", self.location.href);
const FRAMES = new Set(["sandbox/frame.html", "sandbox/preview.html", "sandbox/pdf.html"]); // the sandboxed frames
// A sandboxed iframe's navigation bypasses the service worker, so offline the page loads the frame
// unsandboxed and this header gives its document the opaque origin instead (the page then adds the
// sandbox attribute for any later navigation).
const FRAME_CSP = "sandbox allow-scripts";
const PARALLEL_FETCHES = 4;
// The response headers a deployer sets to protect the app: kept with each file and served with it.
const KEPT_HEADERS = [
  "Content-Type",
  "Content-Security-Policy",
  "Content-Security-Policy-Report-Only",
  "X-Frame-Options",
  "X-Content-Type-Options",
  "Referrer-Policy",
  "Permissions-Policy",
  "Cross-Origin-Opener-Policy",
  "Cross-Origin-Embedder-Policy",
  "Cross-Origin-Resource-Policy",
  "Origin-Agent-Cluster",
  "Strict-Transport-Security",
  "Reporting-Endpoints",
];

self.addEventListener("install", (event) => event.waitUntil(precache()));
self.addEventListener("activate", (event) => event.waitUntil(dropOtherBuilds().then(keepLater)));
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "activate-update") self.skipWaiting();
});
self.addEventListener("fetch", (event) => {
  const name = fileOf(event.request);
  if (name !== null) event.respondWith(answer(name, event.request));
});

// The build-relative path of a request this worker answers, or null to leave it to the network.
function fileOf(/** @type {Request} */ request) {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  const name = url.pathname.slice(SCOPE.pathname.length) || "index.html";
  if (name === "build.json" || [BUILD.files, BUILD.later, BUILD.onUse].some((set) => Object.hasOwn(set, name))) {
    return name;
  }
  return null;
}

async function answer(/** @type {string} */ name, /** @type {Request} */ request) {
  if (name === "build.json") {
    return new Response(JSON.stringify(BUILD.manifest), { headers: { "Content-Type": "application/json" } });
  }
  const cache = await caches.open(BUILD.cache);
  const url = new URL(name, SCOPE).href;
  // A missing entry (the browser dropped part of the cache) falls back to the network.
  const response = (await cache.match(url)) || (await fetchMissing(cache, name, url, request));
  if (request.method === "HEAD") return reshaped(response, null); // the start-up's "is it there?" checks
  return FRAMES.has(name) ? reshaped(response, response.body, ["Content-Security-Policy", FRAME_CSP]) : response;
}

// A file of `BUILD.later` or `BUILD.onUse` is kept once fetched (and checked); any other missing file is
// passed through.
/** @param {Cache} cache @param {string} name @param {string} url @param {Request} request */
async function fetchMissing(cache, name, url, request) {
  const sums = Object.hasOwn(BUILD.later, name) ? BUILD.later : BUILD.onUse;
  if (request.method !== "GET" || !Object.hasOwn(sums, name)) return fetch(request);
  const response = await verified(url, sums);
  await cache.put(url, response.clone());
  return response;
}

// `header` is added to those of the response (a deployer's CSP and the frame's sandbox both hold).
/** @param {Response} response @param {BodyInit | null} body @param {string[]} [header] [name, value] */
function reshaped(response, body, [name, value] = []) {
  const headers = new Headers(response.headers);
  if (name) headers.append(name, value);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

async function precache() {
  const cache = await caches.open(BUILD.cache);
  const names = Object.keys(BUILD.files);
  let next = 0;
  const fetcher = async () => {
    while (next < names.length) {
      const url = new URL(names[next++], SCOPE).href;
      if (!(await cache.match(url))) await cache.put(url, await verified(url, BUILD.files));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_FETCHES }, fetcher));
}

// After activation: the files of `BUILD.later`, one at a time (the page may be starting beside it). A file
// that cannot be had now is left to its first use, which fetches and checks it again.
async function keepLater() {
  const cache = await caches.open(BUILD.cache);
  for (const name of Object.keys(BUILD.later)) {
    const url = new URL(name, SCOPE).href;
    try {
      if (!(await cache.match(url))) await cache.put(url, await verified(url, BUILD.later));
    } catch (/** @type {any} */ err) {
      console.info(`agentlite: ${name} is left for its first use:`, err.message);
    }
  }
}

// The file at `url`, fetched past the HTTP cache, only if its bytes are this build's.
/** @param {string} url @param {Record<string, string>} sums path -> sha256 */
async function verified(url, sums) {
  const name = url.slice(SCOPE.href.length);
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  if (hex !== sums[name]) throw new Error(`${name} is not the file of build ${BUILD.build}`);
  const headers = new Headers({ "Content-Type": "application/octet-stream" });
  for (const header of KEPT_HEADERS) {
    const value = response.headers.get(header);
    if (value !== null) headers.set(header, value);
  }
  return new Response(bytes, { headers });
}

async function dropOtherBuilds() {
  for (const name of await caches.keys()) {
    if (name.startsWith(BUILD.prefix) && name !== BUILD.cache) await caches.delete(name);
  }
}
