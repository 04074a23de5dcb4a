// Benchmark floor: a page whose worker loads the Pyodide core only, then reports ready.
const worker = new Worker(new URL("./bare-worker.js", import.meta.url), { type: "module" });
worker.onmessage = (event) => {
  const state = document.getElementById("state");
  state.dataset.state = event.data;
  state.textContent = event.data;
};
