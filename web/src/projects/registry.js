// The projects of one browser (docs/projects.md): their names, when each was made and last opened, and
// each one's settings overrides, kept in localStorage under one key. Every call reads the list again
// and every change writes it whole, so two tabs each changing the list never lose the other's project;
// `onChange` tells a tab that another one wrote it. A project's data lives in databases named after its
// id; the default project's are the names a single workspace always had, so an existing user's work IS
// the default project and nothing moves on upgrade.

import { DEFAULT_PROJECT, projectNames } from "../agent/common/database.js";
import { APPROVAL_KINDS, BOUNDS, CHANGES_CHOICES, DIALECTS } from "../settings/settings.js";

const STORE = "agentlite.projects";
const FORMAT = 1;
export const DEFAULT_ID = DEFAULT_PROJECT;
export const DEFAULT_NAME = "My project";
const NAME_MAX = 60; // characters (code points), as the switcher shows them
const ID_SHAPE = /^[a-z0-9]{1,64}$/; // safe inside a database's and a lock's name
// Control characters, line and paragraph separators, and the marks that reorder text: a name is one
// line that reads as it is written.
const UNSHOWABLE = /[\p{Cc}\p{Zl}\p{Zp}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const UNSHOWABLE_ALL = new RegExp(UNSHOWABLE.source, "gu");
const OVERRIDE_KEYS = ["max_rounds", "context_window", "eval_timeout_s", "dialect", "auto_approve", "changes"];

/**
 * One project. @typedef {object} Project
 * @property {string} id
 * @property {string} name
 * @property {number} created  ms since the epoch
 * @property {number} opened   ms since the epoch: the list is recent first by this
 * @property {Overrides} overrides
 */
/** The settings a project may set for itself. @typedef {object} Overrides
 * @property {number} [max_rounds] @property {number} [context_window] @property {number} [eval_timeout_s]
 * @property {string} [dialect] @property {string[]} [auto_approve] @property {string} [changes] */
/** @typedef {Pick<Storage, "getItem" | "setItem">} ProjectStorage */

/** A name the list cannot keep; its message is for the user. */
export class ProjectNameError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ProjectNameError";
  }
}

// The names themselves are agent/common/database.js's (the agent worker opens the database by them too).
/** The project's own IndexedDB database (files, history, chats…). @param {string} id */
export const databaseName = (id) => projectNames(id).database;
/** @param {string} id */
export const attachmentsDatabase = (id) => projectNames(id).attachments;
/** @param {string} id */
export const folderDatabase = (id) => projectNames(id).folder;
/** The Web Lock that keeps two tabs of one project from writing at once. @param {string} id */
export const workspaceLock = (id) => projectNames(id).lock;

/** @param {string} name */
const comparable = (name) => name.normalize("NFC").toLowerCase();
/** @param {string} text */
const characters = (text) => [...text].length;

/** The name as kept (trimmed, one Unicode form), or a ProjectNameError saying why it cannot be.
 * @param {unknown} name @returns {string} */
function checkedName(name) {
  if (typeof name !== "string") throw new ProjectNameError("A project's name must be text.");
  const clean = name.normalize("NFC").trim();
  if (!clean) throw new ProjectNameError("A project's name cannot be empty.");
  const length = characters(clean);
  if (length > NAME_MAX) {
    throw new ProjectNameError(`A project's name is at most ${NAME_MAX} characters (this one has ${length}).`);
  }
  if (UNSHOWABLE.test(clean)) {
    throw new ProjectNameError("A project's name cannot hold control characters (line breaks, tabs and the like).");
  }
  return clean;
}

/** @param {Project[]} projects @param {string} name @param {string} [except] the id being renamed */
function refuseTaken(projects, name, except) {
  const key = comparable(name);
  const other = projects.find((p) => p.id !== except && comparable(p.name) === key);
  if (other) throw new ProjectNameError(`A project named "${other.name}" already exists.`);
}

/** A number within its setting's bounds (rounded), or undefined for a value that is not one.
 * @param {keyof typeof BOUNDS} key @param {unknown} value */
function boundedNumber(key, value) {
  const number = Math.round(Number(value));
  if (typeof value === "boolean" || !Number.isFinite(number)) return undefined;
  return Math.min(BOUNDS[key].high, Math.max(BOUNDS[key].low, number));
}

/** One override's value as kept, or undefined when it is not a value of that setting.
 * @param {string} key @param {unknown} value */
function overrideValue(key, value) {
  if (key === "dialect") return typeof value === "string" && DIALECTS.includes(value) ? value : undefined;
  if (key === "changes") return typeof value === "string" && CHANGES_CHOICES.includes(value) ? value : undefined;
  if (key === "auto_approve") {
    if (!Array.isArray(value)) return undefined;
    return [...new Set(value.filter((kind) => APPROVAL_KINDS.includes(kind)))];
  }
  return boundedNumber(/** @type {keyof typeof BOUNDS} */ (key), value);
}

/** `base` with `partial` laid over it: known settings only, each within its bounds; a null, undefined or
 * empty value drops the override (the project follows the page's setting again), a value that is not one
 * of the setting's leaves what was there. @param {Overrides} base @param {unknown} partial @returns {Overrides} */
function mergedOverrides(base, partial) {
  /** @type {Record<string, unknown>} */
  const merged = { ...base };
  if (!partial || typeof partial !== "object") return /** @type {Overrides} */ (merged);
  const given = /** @type {Record<string, unknown>} */ (partial);
  for (const key of OVERRIDE_KEYS) {
    if (!Object.hasOwn(given, key)) continue;
    const value = given[key];
    if (value === null || value === undefined || value === "") delete merged[key];
    else if (overrideValue(key, value) !== undefined) merged[key] = overrideValue(key, value);
  }
  return /** @type {Overrides} */ (merged);
}

/** @param {number} at @returns {Project} */
const defaultProject = (at) => ({ id: DEFAULT_ID, name: DEFAULT_NAME, created: at, opened: at, overrides: {} });

/** @param {unknown} value */
const time = (value) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** A stored entry as a project, or null for one the list cannot keep (edited by hand, or damaged).
 * @param {any} entry @returns {Project | null} */
function projectOf(entry) {
  if (!entry || typeof entry !== "object" || typeof entry.id !== "string" || !ID_SHAPE.test(entry.id)) return null;
  try {
    const name = checkedName(entry.name);
    const overrides = mergedOverrides({}, entry.overrides);
    return { id: entry.id, name, created: time(entry.created), opened: time(entry.opened), overrides };
  } catch {
    return null;
  }
}

/** The stored projects; damaged JSON or an empty list reads as the default project alone (never throws,
 * and nothing is written back until the next change). @param {ProjectStorage} storage @returns {Project[]} */
function readProjects(storage) {
  /** @type {Project[]} */
  const projects = [];
  try {
    const stored = JSON.parse(storage.getItem(STORE) || "null");
    for (const entry of Array.isArray(stored?.projects) ? stored.projects : []) {
      const project = projectOf(entry);
      if (project && !projects.some((p) => p.id === project.id)) projects.push(project);
    }
  } catch {
    // the default list below
  }
  return projects.length ? projects : [defaultProject(0)];
}

/** @param {ProjectStorage} storage @param {Project[]} projects */
function writeProjects(storage, projects) {
  storage.setItem(STORE, JSON.stringify({ version: FORMAT, projects }));
}

/** A project's copy the caller may change freely. @param {Project | undefined} project */
const copy = (project) => (project ? { ...project, overrides: structuredClone(project.overrides) } : null);

/** A fresh id, safe in a database's name. */
const freshId = () => crypto.randomUUID().replaceAll("-", "");

/** `text` cut to at most `length` characters (whole code points). @param {string} text @param {number} length */
const cut = (text, length) => [...text].slice(0, length).join("").trimEnd();

/** Apply `change` to the project `id` and write the list; the changed project, or null when no project
 * has that id (another tab removed it: it is not brought back).
 * @param {ProjectStorage} storage @param {string} id
 * @param {(project: Project, projects: Project[]) => void} change */
function update(storage, id, change) {
  const projects = readProjects(storage);
  const project = projects.find((p) => p.id === id);
  if (!project) return null;
  change(project, projects);
  writeProjects(storage, projects);
  return copy(project);
}

/** @param {Project[]} projects @param {unknown} name */
function findByName(projects, name) {
  if (typeof name !== "string") return null;
  const key = comparable(name.trim());
  return copy(projects.find((p) => comparable(p.name) === key));
}

/** @param {ProjectStorage} storage @param {() => number} now @param {unknown} name @returns {Project} */
function create(storage, now, name) {
  const clean = checkedName(name);
  const projects = readProjects(storage);
  refuseTaken(projects, clean);
  const at = now();
  const project = { id: freshId(), name: clean, created: at, opened: at, overrides: {} };
  writeProjects(storage, [...projects, project]);
  return /** @type {Project} */ (copy(project));
}

/** @param {ProjectStorage} storage @param {string} id @param {unknown} name */
function rename(storage, id, name) {
  const clean = checkedName(name);
  return update(storage, id, (project, projects) => {
    refuseTaken(projects, clean, id);
    project.name = clean;
  });
}

/** Whether a project was removed; removing the last one leaves the default (empty) project listed.
 * @param {ProjectStorage} storage @param {() => number} now @param {string} id */
function remove(storage, now, id) {
  const projects = readProjects(storage);
  const rest = projects.filter((p) => p.id !== id);
  if (rest.length === projects.length) return false;
  writeProjects(storage, rest.length ? rest : [defaultProject(now())]);
  return true;
}

/** The list of projects in this browser, read from and written to `storage` on every call.
 * @param {ProjectStorage} [storage] @param {() => number} [now] */
export function createRegistry(storage = localStorage, now = Date.now) {
  const all = () => readProjects(storage);
  /** @param {string} id */
  const get = (id) => copy(all().find((p) => p.id === id));
  return {
    /** Recent first. */
    list: () => all().sort((a, b) => b.opened - a.opened || b.created - a.created),
    get,
    /** The project of that name, whatever its case. @param {unknown} name */
    byName: (name) => findByName(all(), name),
    /** A new project (a ProjectNameError for a name it cannot have). @param {unknown} name */
    create: (name) => create(storage, now, name),
    /** The project of that name (the URL's `project=`), made when there is none. @param {unknown} name */
    ensure: (name) => findByName(all(), name) ?? create(storage, now, name),
    /** @param {string} id @param {unknown} name */
    rename: (id, name) => rename(storage, id, name),
    /** @param {string} id */
    remove: (id) => remove(storage, now, id),
    /** Mark the project opened now (it moves to the top of the list). @param {string} id */
    touch: (id) =>
      update(storage, id, (project) => {
        project.opened = now();
      }),
    /** A name like `base` that no project has: "X", else "X (2)", "X (3)"… @param {unknown} base */
    uniqueName: (base) => uniqueName(all(), base),
    /** @param {string} id @returns {Overrides} */
    overrides: (id) => get(id)?.overrides ?? {},
    /** The project's overrides after `partial` (see mergedOverrides), or null for no such project.
     * @param {string} id @param {unknown} partial */
    setOverrides: (id, partial) => {
      const changed = update(storage, id, (project) => {
        project.overrides = mergedOverrides(project.overrides, partial);
      });
      return changed?.overrides ?? null;
    },
  };
}

/** @param {Project[]} projects @param {unknown} base */
function uniqueName(projects, base) {
  const text = typeof base === "string" ? base.normalize("NFC").replace(UNSHOWABLE_ALL, " ") : "";
  const stem = cut(text.trim(), NAME_MAX) || DEFAULT_NAME;
  const taken = new Set(projects.map((p) => comparable(p.name)));
  if (!taken.has(comparable(stem))) return stem;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const name = cut(stem, NAME_MAX - suffix.length) + suffix;
    if (!taken.has(comparable(name))) return name;
  }
}

/** Call `callback` when another tab changes the list (the `storage` event never fires in the tab that
 * wrote); the function returned stops listening. @param {() => void} callback @param {EventTarget} [target] */
export function onChange(callback, target = globalThis) {
  /** @param {Event} event */
  const listener = (event) => {
    const { key } = /** @type {StorageEvent} */ (event);
    if (key === STORE || key === null) callback();
  };
  target.addEventListener("storage", listener);
  return () => target.removeEventListener("storage", listener);
}
