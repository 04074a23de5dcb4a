// The project this page holds (docs/projects.md): the one the URL names (`?project=<name>`, created empty
// when absent), else the one opened last. Decided once per page, before the agent worker starts
// (agent/page/worker-start.js), and kept on the page so the page's later bundle (app.js) reads the same;
// the URL is then made to name it, so a reload or a bookmark opens the same project.
import { projectNames, workerName } from "../agent/common/database.js";
import { createRegistry } from "./registry.js";

/** The open project: its id and name, the names of what it keeps, its worker's name, and why the project the
 * URL named could not be opened ("" when it was). @typedef {AgentliteProject} OpenProject */

/** @returns {OpenProject} */
export function currentProject() {
  if (globalThis.agentliteProject) return globalThis.agentliteProject;
  const registry = createRegistry();
  const wanted = new URLSearchParams(location.search).get("project");
  let problem = "";
  let project = registry.list()[0];
  if (wanted !== null) {
    try {
      project = registry.ensure(wanted);
    } catch (/** @type {any} */ err) {
      problem = `The project "${wanted}" could not be opened: ${err.message}`;
    }
  }
  registry.touch(project.id);
  nameInUrl(project.name);
  globalThis.agentliteProject = {
    id: project.id,
    name: project.name,
    names: projectNames(project.id),
    worker: workerName(project.id),
    problem,
  };
  return globalThis.agentliteProject;
}

/** The address of this page with project `name` open (the rest of the query kept, no fragment).
 * @param {string} name */
export function projectUrl(name) {
  const url = new URL(location.href);
  url.searchParams.set("project", name);
  url.hash = "";
  return url.href;
}

/** @param {string} name */
function nameInUrl(name) {
  const url = new URL(location.href);
  if (url.searchParams.get("project") === name) return;
  url.searchParams.set("project", name);
  history.replaceState(history.state, "", url.href);
}
