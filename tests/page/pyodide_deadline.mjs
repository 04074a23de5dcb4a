// Runs the sandbox driver (py/agentlite/sandbox_driver.py) in Pyodide under Node with a deadline, for
// tests/page/test_sandbox_deadline.py: argv[2] is Pyodide's folder (web/node_modules/pyodide),
// argv[3] the driver's path, argv[4] a JSON list of
// [code, deadline_s] cases; prints one JSON line per case: {exit, stdout, tool} (`tool`: who holds the
// driver's sys.monitoring tool id after the run, which must be nobody).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, driverPath, casesJson] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
pyodide.runPython(readFileSync(driverPath, "utf8"));
const runCommand = pyodide.globals.get("run_command");
const toolHolder = pyodide.runPython("lambda: sys.monitoring.get_tool(MONITOR_TOOL)");
for (const [code, deadline] of JSON.parse(casesJson)) {
  let stdout = "";
  pyodide.setStdout({ write: (buf) => ((stdout += new TextDecoder().decode(buf)), buf.length) });
  const exit = runCommand.callKwargs("code", code, ["-c"], "/home/pyodide", deadline === null ? {} : { deadline_s: deadline });
  console.log(JSON.stringify({ exit: exit ?? null, stdout, tool: toolHolder() ?? null }));
}
