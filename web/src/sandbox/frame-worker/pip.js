// `pip` in the shell sandbox: `pip install NAME ...` installs with micropip, inside the sandbox's own
// Pyodide, from the wheels shipped with the app (listed in its lock file); `pip list` and `pip freeze`
// show what is loaded. The sandbox has no network, on purpose: code the model writes never reaches
// the internet, so a package the app does not ship cannot be installed, and pip says so.

const IGNORED = /^(-q|--quiet|-U|--upgrade|--no-deps|--user|--no-cache-dir|--no-index|-v|--verbose)$/;
const NO_NETWORK =
  "The sandbox has no network access (code run here never reaches the internet), so only the " +
  "packages shipped with the app can be installed";

/** @typedef {import("pyodide").PyodideAPI} Pyodide */
/** The lock file's packages (the wheels shipped with the app). @typedef {{packages?: Record<string, {name?: string, version?: string}>}} Lock */
/** @typedef {{pyodide: Pyodide, lock: Lock, afterInstall: () => void}} ShellPython */
/** A command's answer to the shell. @typedef {{stdout: string, stderr: string, exitCode: number}} CommandResult */

/**
 * `start()` resolves to the sandbox's Python (see python-runtime.js): {pyodide, lock, afterInstall()}.
 * @param {() => Promise<ShellPython>} start
 * @param {string[]} args
 * @returns {Promise<CommandResult>}
 */
export async function pipCommand(start, args) {
  const [verb, ...rest] = args.filter((arg) => !IGNORED.test(arg));
  if (verb === "--version" || verb === "-V") {
    return ok("pip (micropip, offline: the wheels shipped with the app)\n");
  }
  if (verb === "install") return install(await start(), rest);
  if (verb === "list" || verb === "freeze") return ok(listInstalled(await start(), verb === "freeze"));
  return failed("pip: only `pip install NAME`, `pip list` and `pip freeze` work here\n", 2);
}

/**
 * @param {ShellPython} python
 * @param {string[]} requirements
 * @returns {Promise<CommandResult>}
 */
async function install(python, requirements) {
  const options = requirements.filter((arg) => arg.startsWith("-"));
  const wanted = requirements.filter((arg) => !arg.startsWith("-"));
  if (options.length) return failed(`pip: unsupported option ${options[0]}; name the packages\n`, 2);
  if (!wanted.length) return failed("pip: name at least one package\n", 2);
  const shipped = available(python.lock);
  const missing = wanted.filter((req) => !shipped.has(normalise(nameOf(req))));
  if (missing.length) {
    const known = [...shipped.values()]
      .map((pkg) => pkg.name)
      .sort()
      .join(", ");
    return failed(`ERROR: cannot install ${missing.join(", ")}: ${NO_NETWORK} (${known}).\n`, 1);
  }
  const before = new Set(Object.keys(python.pyodide.loadedPackages));
  const error = await micropipInstall(python.pyodide, wanted);
  if (error) return failed(`ERROR: ${error}\n${NO_NETWORK}.\n`, 1);
  python.afterInstall();
  const added = Object.keys(python.pyodide.loadedPackages).filter((name) => !before.has(name));
  const done = added.filter((name) => name !== "micropip").sort();
  const lines = ["Installing with micropip from the wheels shipped with the app (offline)"];
  if (done.length) {
    lines.push(`Successfully installed ${done.map((name) => `${name}-${versionOf(shipped, name)}`).join(" ")}`);
  } else {
    lines.push(`Requirement already satisfied: ${wanted.join(" ")}`);
  }
  return ok(`${lines.join("\n")}\n`);
}

// micropip.install(requirements): the lock file is searched first, so the shipped wheels are used.
// Resolves to null when done, else to the last line of micropip's error.
/**
 * @param {Pyodide} pyodide
 * @param {string[]} requirements
 * @returns {Promise<string | null | undefined>}
 */
async function micropipInstall(pyodide, requirements) {
  await pyodide.loadPackage("micropip", { messageCallback: () => {}, errorCallback: () => {} });
  const micropip = pyodide.pyimport("micropip");
  const list = pyodide.toPy(requirements);
  try {
    await micropip.install(list);
    return null;
  } catch (/** @type {any} */ error) {
    const lines = String(error.message || error)
      .trim()
      .split("\n");
    return lines[lines.length - 1];
  } finally {
    list.destroy();
    micropip.destroy();
  }
}

/**
 * @param {ShellPython} python
 * @param {boolean} freeze
 */
function listInstalled(python, freeze) {
  const loaded = Object.keys(python.pyodide.loadedPackages).sort();
  const shipped = available(python.lock);
  const lines = loaded.map((name) => {
    const version = versionOf(shipped, name);
    return freeze ? `${name}==${version}` : `${name.padEnd(24)} ${version}`;
  });
  return `${lines.join("\n")}${lines.length ? "\n" : ""}`;
}

/**
 * normalised name -> {name, version} of each shipped package.
 * @param {Lock} lock
 */
function available(lock) {
  /** @type {Map<string, {name: string, version: string}>} */
  const map = new Map();
  for (const [key, pkg] of Object.entries(lock.packages || {})) {
    map.set(normalise(pkg.name || key), { name: pkg.name || key, version: pkg.version || "" });
  }
  return map;
}

/**
 * @param {Map<string, {name: string, version: string}>} shipped
 * @param {string} name
 */
function versionOf(shipped, name) {
  return shipped.get(normalise(name))?.version ?? "";
}

/**
 * "pydantic[email]>=2" -> "pydantic"
 * @param {string} requirement
 */
function nameOf(requirement) {
  return requirement.split(/[<>=!~;[ @]/)[0];
}

/** @param {string} name */
function normalise(name) {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_.]+/g, "-");
}

/**
 * @param {string} stdout
 * @returns {CommandResult}
 */
function ok(stdout) {
  return { stdout, stderr: "", exitCode: 0 };
}

/**
 * @param {string} stderr
 * @param {number} exitCode
 * @returns {CommandResult}
 */
function failed(stderr, exitCode) {
  return { stdout: "", stderr, exitCode };
}
