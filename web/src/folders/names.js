// File names as disks and eyes read them (docs/folders.md, "Names"): the same rules as
// py/agentlite/workspace/names.py (tests/unit/workspace/test_names.py feeds both one table), and the
// names a Windows disk refuses, which only the page meets (it writes the opened folder).

// Code points HFS+ drops when it compares names (git's utf8.c).
const HFS_IGNORABLE = new Set([
  0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x206a, 0x206b, 0x206c, 0x206d, 0x206e,
  0x206f, 0xfeff,
]);
const GIT_DIR_NAMES = new Set([".git", "git~1"]);

// Bidi controls, zero-width and blank-looking code points: [first, last], inclusive.
const INVISIBLE_RANGES = [
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180e, 0x180e], // Mongolian vowel separator
  [0x200b, 0x200f], // zero width space, non-joiner, joiner; LRM, RLM
  [0x2028, 0x202e], // line/paragraph separators; bidi embeddings and overrides
  [0x2060, 0x2064], // word joiner, invisible operators
  [0x2066, 0x206f], // bidi isolates; deprecated format characters
  [0x3164, 0x3164], // Hangul filler
  [0xfeff, 0xfeff], // zero width no-break space (BOM)
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff9, 0xfffb], // interlinear annotation
  [0x1d173, 0x1d17a], // musical symbol format characters
  [0xe0001, 0xe0001], // language tag
];

/** True when a Windows or macOS disk (or git on one) would take `name` for git's own `.git`: any case,
 * trailing dots and spaces, an alternate data stream (`.git::$INDEX_ALLOCATION`), the short name
 * `GIT~1`, code points HFS+ ignores (git's is_ntfs_dotgit and is_hfs_dotgit). */
/** @param {string} name */
export function isGitDirName(name) {
  return name.split("\\").some(readsAsGit);
}

/** @param {string} name */
function readsAsGit(name) {
  const kept = Array.from(name)
    .filter((char) => !HFS_IGNORABLE.has(/** @type {number} */ (char.codePointAt(0))))
    .join("");
  const folded = kept.normalize("NFD").toLowerCase();
  return GIT_DIR_NAMES.has(folded.split(":", 1)[0].replace(/[. ]+$/, ""));
}

/** True when any name of the workspace path `path` is a spelling of `.git`. */
/** @param {string} path */
export function hasGitDir(path) {
  return path.split("/").some((name) => name && isGitDirName(name));
}

/** C0 and C1 control characters. @param {string} char */
function isControl(char) {
  const point = /** @type {number} */ (char.codePointAt(0));
  return point < 0x20 || (point >= 0x7f && point <= 0x9f);
}

/** The first bidi control or invisible code point of `name`, as "U+200B", or null. @param {string} name */
export function invisibleIn(name) {
  for (const char of name) {
    const point = /** @type {number} */ (char.codePointAt(0));
    if (INVISIBLE_RANGES.some(([first, last]) => first <= point && point <= last))
      return `U+${point.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return null;
}

const WINDOWS_DEVICES = new Set(
  ["con", "prn", "aux", "nul", "conin$", "conout$"].concat(
    ..."123456789¹²³".split("").map((digit) => [`com${digit}`, `lpt${digit}`]),
  ),
);

/** Why a Windows disk refuses the name `name` (a device name with any extension, a character it
 * reserves, a trailing dot or space), or null. The workspace may hold such a name; the disk does not.
 * @param {string} name */
export function windowsRefuses(name) {
  const bad = Array.from(name).find((char) => '<>:"|?*\\'.includes(char) || isControl(char));
  if (bad) return `Windows refuses ${JSON.stringify(bad)} in a name`;
  if (/[. ]$/.test(name)) return "Windows refuses a name ending in a dot or a space";
  const stem = name.split(".", 1)[0].replace(/ +$/, "").toLowerCase();
  if (WINDOWS_DEVICES.has(stem)) return `${stem.toUpperCase()} is a Windows device name`;
  return null;
}

/** A disk name in the workspace's form: NFC (macOS disks may hand out NFD names). */
export const workspaceName = (/** @type {string} */ name) => name.normalize("NFC");

/** The key under which a case-insensitive disk files `name`: two names with one key are one entry there. */
export const diskKey = (/** @type {string} */ name) => name.normalize("NFC").toLowerCase();

/** Why the workspace cannot take a name brought in from a disk or a folder (an invisible or bidi
 * control character, a control character, a backslash, more than 255 UTF-8 bytes), or null.
 * @param {string} name */
export function nameTrouble(name) {
  const hidden = invisibleIn(name);
  if (hidden) return `the name holds the hidden character ${hidden}, so it can pose as another name`;
  if (Array.from(name).some(isControl) || name.includes("\\"))
    return "the name holds a control character or a backslash";
  if (new TextEncoder().encode(name).length > 255) return "the name is longer than 255 bytes";
  return null;
}
