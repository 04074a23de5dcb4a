// The tools as the page knows them: generated from the agent's tool registry (web/src/generated/tools.json,
// written by buildsys/build/page_facts.py), never listed by hand. A call named by one of a tool's aliases is
// shown as that tool.
import { tools } from "../../generated/tools.json";

/** A tool's canonical name; the type check fails on a name no tool has.
 * @typedef {keyof typeof tools} ToolName */
/** What the page shows of a tool's calls: `kind` read / write / run, `content` the argument shown as the
 * call's content (it streams), `path` the argument naming its file, `asks` its approval kind (each left
 * out when the tool has none).
 * @typedef {{name: ToolName, kind: string, content?: string, path?: string, asks?: string}} ToolFacts */

/** @type {Map<string, ToolFacts>} */
const BY_NAME = new Map();
for (const [name, entry] of Object.entries(tools)) {
  const { aliases = [], ...facts } = /** @type {{kind: string, aliases?: string[]}} */ (entry);
  const known = { name: /** @type {ToolName} */ (name), ...facts };
  for (const called of [name, ...aliases]) BY_NAME.set(called, known);
}

/** The facts of the tool a call names (by its name or an alias), or null when no tool has that name.
 * @param {string} name */
export const toolFacts = (name) => BY_NAME.get(name) ?? null;
