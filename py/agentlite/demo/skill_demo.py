"""The demo's Agent Skills scenario ("use a skill"): find → load → run (docs/skills.md).

The model sees only the skills' listing (names and descriptions). This scenario picks the skill the
request names (or the example skill, or the first listed), calls load_skill for its instructions and
files, then runs the skill's Python script with shell_exec, which writes a report: a recorded change of
the turn, undoable like any other. With no skill in the workspace it writes the example skill first (the
user is asked: a skill's files are instructions the model follows).
"""

from __future__ import annotations

import re

from agentlite.demo.conversation import Conversation
from agentlite.demo.replies import Step

NAME = "word-report"
FOLDER = f"/.agents/skills/{NAME}"
REPORT = "/reports/words.md"
SKILL_MD = f"""---
name: {NAME}
description: Counts the words of the workspace's Markdown and text files and writes a report to
  {REPORT}. Use it when asked for a word count or a report on the writing.
license: MIT
metadata:
  example: "true"
---

# Word report

1. Run `python {FOLDER}/scripts/report.py` with shell_exec, from the workspace root.
2. It writes {REPORT}: one line per file with its word count, and the total.
3. Tell the user the total and where the report is.
"""
SCRIPT = f'''"""Counts the words of the workspace's .md and .txt files; writes {REPORT}."""
import os

SKIP = {{"bin", "dev", "etc", "home", "lib", "proc", "sys", "tmp", "usr", "reports"}}
counts = {{}}
for folder, dirs, files in os.walk("/"):
    dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not (folder == "/" and d in SKIP))
    for name in sorted(files):
        if name.endswith((".md", ".txt")):
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8", errors="replace") as handle:
                counts[path] = len(handle.read().split())
os.makedirs("/reports", exist_ok=True)
lines = ["# Word report", ""] + [f"- {{path}}: {{n}} words" for path, n in counts.items()]
lines += ["", f"Total: {{sum(counts.values())}} words in {{len(counts)}} files."]
with open("{REPORT}", "w", encoding="utf-8") as handle:
    handle.write("\\n".join(lines) + "\\n")
print(f"{{sum(counts.values())}} words in {{len(counts)}} files -> {REPORT}")
'''
EXAMPLE = ((f"{FOLDER}/SKILL.md", SKILL_MD), (f"{FOLDER}/scripts/report.py", SCRIPT))
SCRIPT_IN_LIST = re.compile(r"^- (scripts/[\w./-]+\.py)$", re.M)


def run(conv: Conversation) -> Step:
    loaded = conv.result("load_skill")
    if loaded is None:
        return _find(conv)
    if not loaded.ok:
        return Step(f"I couldn't load the skill: {loaded.first_line}")
    ran = conv.result("shell_exec")
    if ran is None:
        return _run_script(loaded.text)
    if not ran.ok:
        return Step(f"The skill's script did not run: {ran.first_line}")
    said = next((line.strip() for line in ran.text.splitlines() if " -> " in line), ran.first_line)
    return Step(f"Done with the skill: {said}. The report is in the history, undoable.")


def _find(conv: Conversation) -> Step:
    if not conv.skills:
        created = [r for r in conv.results if r.name == "write_file"]
        if created and not all(r.ok for r in created):
            return Step(
                f"I couldn't add the example skill: {next(r for r in created if not r.ok).first_line}"
            )
        if not created:
            calls = [("write_file", {"path": path, "content": text}) for path, text in EXAMPLE]
            return Step(f"This workspace has no skills yet: I'll add the example skill {NAME}.", calls)
        return Step(f"I added {FOLDER}; it is listed from the next request. Ask me again to use it.")
    asked = conv.request.lower()
    name = next((s for s in conv.skills if s in asked), NAME if NAME in conv.skills else conv.skills[0])
    return Step(f"The skill {name} fits: loading its instructions.", [("load_skill", {"name": name})])


def _run_script(text: str) -> Step:
    folder = re.search(r"^Skill [\w-]+ \((/[^)]+)/SKILL\.md\)", text, re.M)
    script = SCRIPT_IN_LIST.search(text)
    if folder is None or script is None:
        return Step("The skill has no Python script to run; its instructions are above.")
    command = f"python {folder.group(1)}/{script.group(1)}"
    return Step("Running the skill's script.", [("shell_exec", {"command": command})])
