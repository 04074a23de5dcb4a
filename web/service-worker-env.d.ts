// What the type check needs to see web/service-worker.js as the service worker it is (read only by
// tsconfig.service-worker.json). The webworker library types `self` as a plain worker's scope; the
// service worker's events and `skipWaiting` are added to it here, so the file needs no cast at run time.

/** This build's id, cache name and files: written in front of the file by buildsys/build/offline.py. */
declare const BUILD: {
  build: string;
  cache: string;
  prefix: string;
  /** path -> sha256 of the files kept at install */
  files: Record<string, string>;
  /** path -> sha256 of the files kept after activation or at first use */
  later: Record<string, string>;
  /** path -> sha256 of the files kept only when a page first asks for them (the model in the page's engine) */
  onUse: Record<string, string>;
  manifest: Record<string, unknown>;
};

interface WorkerGlobalScopeEventMap {
  install: ExtendableEvent;
  activate: ExtendableEvent;
  fetch: FetchEvent;
  message: ExtendableMessageEvent;
}

interface WorkerGlobalScope {
  skipWaiting(): Promise<void>;
}
