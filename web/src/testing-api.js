// window.agentlite (CONTRACT.md §4): the testing API on the main thread. Each call goes to the
// worker's workspace; code run in a sandbox frame can reach none of it.

export function installTestingApi(client) {
  const vfs = Object.freeze({
    readText: (path) => client.call("vfs.readText", { path }),
    writeText: (path, text) => client.call("vfs.writeText", { path, text }),
    list: (dir) => client.call("vfs.list", { dir }),
    history: (path) => client.call("vfs.history", { path }),
  });
  Object.defineProperty(window, "agentlite", {
    value: Object.freeze({ ready: client.ready, vfs }),
    enumerable: true,
  });
}
