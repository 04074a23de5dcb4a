// Globals the page's scripts share across bundles, and the hooks tests and benchmarks read.

/** The agent worker web/src/agent/page/worker-start.js starts before the page's bundle loads. */
declare var agentliteEarlyWorker: { worker: Worker; early: Event[] } | undefined;
/** The project this page holds, decided once before the worker starts (web/src/projects/current.js). */
declare var agentliteProject: AgentliteProject | undefined;
interface AgentliteProject {
  id: string;
  name: string;
  names: { database: string; attachments: string; folder: string; lock: string; channel: string };
  worker: string;
  problem: string;
}
/** Worker hooks (web/src/agent/worker/worker.js): the start path taken, the deferred packages, the stored snapshot. */
declare var agentliteStart: Record<string, unknown>;
declare var agentliteDeferred: Promise<unknown>;
declare var agentliteSnapshotStored: Promise<unknown>;
/** The tokenizer bundle once it is loading (web/src/agent/worker/inbox.js). */
declare var agentliteTokenizer: Promise<unknown>;

/** File System Access, where the browser has it (Chromium): the folder picker, and the observer that
 * reports changes made to a folder (web/src/views/folder-open-view.js). */
interface Window {
  showDirectoryPicker?: (options?: { mode?: "read" | "readwrite" }) => Promise<FileSystemDirectoryHandle>;
  FileSystemObserver?: new (
    callback: (records: unknown[]) => void,
  ) => { observe(handle: FileSystemHandle, options?: { recursive?: boolean }): Promise<void>; disconnect(): void };
}
