// window.agentlite (docs/contract.md, testing API): the testing API on the main thread. Each call goes to the
// worker's workspace; code run in a sandbox frame can reach none of it.

export function installTestingApi(client) {
  const vfs = Object.freeze({
    readText: (path) => client.call("vfs.readText", { path }),
    writeText: (path, text) => client.call("vfs.writeText", { path, text }),
    list: (dir) => client.call("vfs.list", { dir }),
    history: (path) => client.call("vfs.history", { path }),
    // The history actions the UI offers, beyond docs/contract.md, testing API: each is itself a recorded change.
    undo: (path) => client.call("vfs.undo", { path }),
    undoTurn: (turn) => client.call("vfs.undoTurn", { turn }),
    restoreBefore: (turn) => client.call("vfs.restoreBefore", { turn }),
    importZip: (base64) => client.call("vfs.importZip", { data: base64 }), // one recorded change
    check: () => client.call("vfs.check"), // [] when every head, version and content is consistent
  });
  Object.defineProperty(window, "agentlite", {
    value: Object.freeze({ ready: client.ready, vfs }),
    enumerable: true,
  });
}
