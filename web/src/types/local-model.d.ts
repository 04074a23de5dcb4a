// The messages on the port between the page's model in the page (web/src/local-model/bridge.js) and the
// agent worker's `local:` fetch (web/src/agent/worker/local-fetch.js): read by both projects.

/** The worker asks: one `local:` request (`path` without the scheme and its slashes, e.g. "chat/completions"). */
interface LocalPortRequest {
  id: number;
  path: string;
  method: string;
  body: string | null;
  cancel?: undefined;
}

/** The worker stops a request it asked (the user stopped, or the body was cancelled). */
interface LocalPortCancel {
  id: number;
  cancel: true;
}

/** The page answers, in pieces: the HTTP status first, then the body's text, then `end` (or `failed`, the
 * reason an answer that had started broke off). Several may come in one message. */
interface LocalPortAnswer {
  id: number;
  status?: number;
  text?: string;
  end?: boolean;
  failed?: string;
}
