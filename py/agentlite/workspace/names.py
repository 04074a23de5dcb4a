"""File names as disks and eyes read them: git's own directory in every spelling, and characters that
make a name look like another (docs/folders.md, "Names").

Git refuses, in a tree, any name that a Windows (NTFS) or macOS (HFS+) disk would open as `.git`:
other cases (`.GIT`), trailing dots and spaces (`.git.`, `.git `), an alternate data stream
(`.git::$INDEX_ALLOCATION`), the 8.3 short name (`GIT~1`), and code points HFS+ ignores (`.g\u200cit`).
`is_git_dir_name` follows git's `is_ntfs_dotgit` / `is_hfs_dotgit`, as dulwich's
`validate_path_element_ntfs` and `_hfs` do, folded into one check (a name either disk reads as `.git`).
The page has the same rule in web/src/folders/names.js; tests/unit/workspace/test_names.py feeds both one
table.

`invisible_in` finds bidi controls and zero-width or otherwise invisible code points: a name holding one
can pose as another (`AGENTS\u200b.md`, `a\u202etxt.exe`), so the workspace takes no new such name.
"""

from __future__ import annotations

import unicodedata

# Code points HFS+ drops when it compares names (git's utf8.c, dulwich's HFS_IGNORABLE_CHARS).
HFS_IGNORABLE = frozenset(
    [0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, *range(0x206A, 0x2070), 0xFEFF]
)
GIT_DIR_NAMES = (".git", "git~1")

# Bidi controls, zero-width and blank-looking code points: (first, last) ranges, inclusive.
INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180E, 0x180E),  # Mongolian vowel separator
    (0x200B, 0x200F),  # zero width space, non-joiner, joiner; LRM, RLM
    (0x2028, 0x202E),  # line/paragraph separators; bidi embeddings and overrides
    (0x2060, 0x2064),  # word joiner, invisible operators
    (0x2066, 0x206F),  # bidi isolates; deprecated format characters
    (0x3164, 0x3164),  # Hangul filler
    (0xFEFF, 0xFEFF),  # zero width no-break space (BOM)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF9, 0xFFFB),  # interlinear annotation
    (0x1D173, 0x1D17A),  # musical symbol format characters
    (0xE0001, 0xE0001),  # language tag
)


def is_git_dir_name(name: str) -> bool:
    """True when a Windows or macOS disk (or git on one) would take `name` for git's own `.git`."""
    return any(_reads_as_git(piece) for piece in name.split("\\"))


def _reads_as_git(name: str) -> bool:
    kept = "".join(char for char in name if ord(char) not in HFS_IGNORABLE)
    folded = unicodedata.normalize("NFD", kept).lower()
    return folded.split(":", 1)[0].rstrip(". ") in GIT_DIR_NAMES


def has_git_dir(path: str) -> bool:
    """True when any folder or file name of `path` is a spelling of `.git`."""
    return any(is_git_dir_name(name) for name in path.split("/") if name)


def is_invisible(char: str) -> bool:
    point = ord(char)
    return any(first <= point <= last for first, last in INVISIBLE_RANGES)


def invisible_in(name: str) -> str | None:
    """The first bidi control or invisible code point of `name`, as `U+200B`, or None."""
    for char in name:
        if is_invisible(char):
            return f"U+{ord(char):04X}"
    return None


def name_problem(name: str) -> str | None:
    """Why the workspace takes no new file or folder named `name`, or None."""
    if is_git_dir_name(name):
        return f"{name!r} is git's own folder .git (as Windows or macOS read it); git and the disk keep it"
    hidden = invisible_in(name)
    if hidden:
        return (
            f"{name!r} holds the invisible or bidi control character {hidden}, so it can pose as another name"
        )
    return None
