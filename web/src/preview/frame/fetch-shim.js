// The page's fetch(): a workspace file of the bundle answers (404 for a missing one), blob: and data: URLs
// go to the real fetch, anything else is refused and logged (the preview has no network).
import { targetOf } from "../../frames/common/workspace-url.js";

/** @import { BundleFile } from "./page-writer.js" */
/** @import { NoteRequest, Post } from "./notices.js" */

/**
 * @param {Record<string, BundleFile>} files the bundle's files by workspace path
 * @param {string} entry the page's workspace path
 * @param {Post} post
 * @param {NoteRequest} note tells the app of each request and its status
 * @returns {typeof fetch} the real fetch
 */
export function installFetch(files, entry, post, note) {
  const realFetch = window.fetch.bind(window);
  /** @type {typeof fetch} */
  const answer = (input, init) => {
    const url = urlOf(input);
    const target = targetOf(url, entry, location.href);
    if (target.bad) return Promise.reject(new TypeError(`Failed to fetch: bad URL ${url}`));
    if (target.local) return realFetch(input, init);
    if (target.path) {
      const file = files[target.path];
      if (!file)
        return Promise.resolve(new Response(`not found: ${target.path}`, { status: 404, statusText: "Not Found" }));
      const headers = { "Content-Type": file.type };
      return Promise.resolve(new Response(new Blob([file.data], { type: file.type }), { status: 200, headers }));
    }
    post("error", `Blocked: fetch(${url}): the preview has no network`);
    return Promise.reject(new TypeError("Failed to fetch"));
  };
  window.fetch = (input, init) => {
    const method = init?.method || (input instanceof Request ? input.method : "GET");
    const response = answer(input, init);
    response.then(
      (r) => note(method, String(urlOf(input)), r.status),
      () => note(method, String(urlOf(input)), 0),
    );
    return response;
  };
  return realFetch;
}

/** @param {RequestInfo | URL} input */
const urlOf = (input) => (typeof input === "string" ? input : input instanceof URL ? input.href : input?.url);
