"""The short descriptions native requests carry (docs/protocol.md, "Lean native requests").

In the native dialect the `tools` schema already tells the model every argument's name, type, default
and which are required, and is sent again with every request, so each tool there gets a brief: what it
does and the one rule that prevents the most common wrong call. The prompt dialects, which have no
schema, keep the full description in their tool list. What a brief leaves out the tool's result says
when it matters (where to read next, which edit block failed and why).
"""

from __future__ import annotations

BRIEFS = {
    "list_directory": "List a folder (folders end with `/`); recursive=true for the whole tree.",
    "read_file": "Read numbered lines of a text file, 200 at a time; the result gives the next start_line "
    "or says (end of file).",
    "search": "Search file contents like grep; hits come as `path:line: text`. regex=true for a regex.",
    "create_file": "Create a new file; fails if the path exists.",
    "write_file": "Write a whole file (create or replace); send the complete content, never an excerpt.",
    "edit_file": "Replace originalCode, copied exactly from the file and unique in it, with newCode; "
    'more blocks go in edits: [{"originalCode": ..., "newCode": ...}].',
    "delete_file": "Delete a file, or a folder with its contents.",
    "move_file": "Move a file or folder; a destination ending in '/' moves it inside.",
    "rename_file": "Rename in place: new_name is a name, not a path.",
    "create_folder": "Create a folder and any missing parents.",
    "browser_js_eval": "Run JavaScript in a sandbox (no network); returns the last expression and the "
    'console. Use it for calculations; `await import("/src/x.js")` loads a workspace module.',
    "preview_page": "Open a workspace HTML page in the preview; returns its title, visible text, console "
    "and uncaught errors (file:line).",
    "preview_snapshot": "The previewed page as an accessibility tree, one element a line with its ref "
    '(`- role "name" [state] [ref=e12]: value`).',
    "preview_act": "Act on a previewed element by ref: click, type, press (a key), select, check, hover, "
    "scroll; returns the snapshot lines it changed, console, errors, requests.",
    "preview_wait": "Wait (at most timeout_ms, 30 s cap) until a text shows, or with gone=true is gone.",
    "shell_exec": "Run a bash-like command over a copy of the workspace files; changes are written back.",
    "load_skill": "Load a listed Agent Skill's instructions and file list (file=... reads one of its files); "
    "run its scripts with shell_exec.",
    "conversation_summary": "Save a summary of the conversation (Goal:, Done:, To do:) to replace older "
    "messages.",
    "edit_current_editor_document": "Replace the whole content of the document open in the editor.",
    "check_problems": "List the TypeScript/JavaScript and Python (Ruff) problems of a file or folder as "
    "`path:line:col code message`; each change already reports the problems it introduced or fixed.",
}
