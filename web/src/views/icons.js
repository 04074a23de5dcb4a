// Small inline SVG icons (no icon font, nothing fetched): one per tool and a few for the page. Paths are
// constants of this module, built with createElementNS, so nothing the model writes becomes markup.
import { toolFacts } from "../agent/page/tools.js";

const SVG = "http://www.w3.org/2000/svg";

/** @type {Record<string, string>} */
const PATHS = {
  model: "M4 6h16v10H4zM8 20h8M12 16v4",
  read: "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z",
  write: "M6 2h8l6 6v14H6zM14 2v6h6M9 14h6M12 11v6",
  edit: "M4 20h4L19 9l-4-4L4 16zM13 7l4 4",
  delete: "M4 7h16M9 7V4h6v3M6 7l1 14h10l1-14",
  search: "M10 4a6 6 0 1 0 0 12 6 6 0 0 0 0-12zM15 15l6 6",
  list: "M8 6h13M8 12h13M8 18h13M3 6h1M3 12h1M3 18h1",
  folder: "M3 6h6l2 2h10v11H3z",
  move: "M4 12h14M13 7l5 5-5 5",
  run: "M7 4l12 8-12 8z",
  shell: "M4 6l6 6-6 6M12 18h8",
  note: "M5 3h14v18H5zM9 8h6M9 12h6M9 16h4",
  follow: "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 10v4",
};

/** One icon per tool: the type check fails until a new tool has one (or when a tool here was renamed).
 * @type {Record<import("../agent/page/tools.js").ToolName, keyof typeof PATHS>} */
/** @type {Record<string, string | undefined>} */
const TOOL_ICON = {
  list_directory: "list",
  read_file: "read",
  search: "search",
  create_file: "write",
  write_file: "write",
  edit_file: "edit",
  edit_current_editor_document: "edit",
  delete_file: "delete",
  move_file: "move",
  rename_file: "move",
  create_folder: "folder",
  browser_js_eval: "run",
  shell_exec: "shell",
  preview_page: "run",
  preview_snapshot: "read",
  preview_act: "run",
  preview_wait: "run",
  load_skill: "read",
  conversation_summary: "note",
};

/** An icon as an inline SVG element, hidden from assistive technology (the text next to it says it). */
/** @param {string} name */
export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", PATHS[name] || PATHS.note);
  svg.append(path);
  return svg;
}

/** @param {string} tool */
export const toolIcon = (tool) =>
  icon(TOOL_ICON[/** @type {import("../agent/page/tools.js").ToolFacts} */ (toolFacts(tool))?.name] || "note");
