"""The demo's "rename a TypeScript function" scenario: a rename whose broken importers the agent finds in
the problems its own edit reports, and fixes.

It writes a small TypeScript module and two files that import from it, renames the module's export with
edit_file — and that edit's result says which problems it introduced: each importer now imports a name the
module no longer exports. It fixes every importer the problems name (and only those), then asks
check_problems for the whole folder, which must be clean. Every step is a real tool call; the files to fix
are read from the problems, as a model would.
"""

from __future__ import annotations

import re

from agentlite.demo.conversation import Conversation, Result
from agentlite.demo.replies import Step

FOLDER = "/shop"
MODULE = f"{FOLDER}/money.ts"
OLD, NEW = "total", "sumPrices"
MODULE_TEXT = (
    "/** The sum of the prices, in cents. */\n"
    f"export function {OLD}(prices: number[]): number {{\n"
    "  return prices.reduce((sum, price) => sum + price, 0);\n"
    "}\n"
)
IMPORTERS = {
    f"{FOLDER}/cart.ts": (
        f'import {{ {OLD} }} from "./money";\n\n'
        "type Item = { price: number };\n\n"
        f"export const cartTotal = (items: Item[]) => {OLD}(items.map((item) => item.price));\n"
    ),
    f"{FOLDER}/receipt.ts": (
        f'import {{ {OLD} }} from "./money";\n\n'
        f"export const receiptLine = (prices: number[]) => `Total: ${{{OLD}(prices) / 100}}`;\n"
    ),
}
INTRODUCED = re.compile(r"^Problems this change introduced \(\d+\):\n((?:/\S+:\d+:\d+ [^\n]*\n?)+)", re.M)
PROBLEM = re.compile(r"^(/\S+):(\d+):(\d+) (\S+) (.*)$", re.M)


def run(conv: Conversation) -> Step:
    written = [r for r in conv.results if r.name == "write_file"]
    if not written:
        files = {MODULE: MODULE_TEXT, **IMPORTERS}
        calls = [("write_file", {"path": path, "content": text}) for path, text in files.items()]
        return Step(f"First a small TypeScript module, {MODULE}, and two files that use it.", calls)
    if not all(r.ok for r in written):
        return Step(f"I couldn't write the files: {(next(r for r in written if not r.ok)).first_line}")
    edits = [r for r in conv.results if r.name == "edit_file"]
    if not edits:
        edit = {
            "path": MODULE,
            "originalCode": f"export function {OLD}(",
            "newCode": f"export function {NEW}(",
        }
        return Step(f"Renaming {OLD}() to {NEW}() in {MODULE}.", [("edit_file", edit)])
    if not edits[0].ok:
        return Step(f"The rename did not apply: {edits[0].first_line}")
    if len(edits) == 1:
        return _fix_importers(edits[0])
    checked = conv.result("check_problems")
    if checked is None:
        return Step("Now the whole folder, to be sure.", [("check_problems", {"path": FOLDER})])
    if checked.ok and checked.text.startswith("No problems"):
        fixed = ", ".join(sorted(_broken(edits[0])))
        return Step(
            f"Done: {OLD}() is {NEW}() now, and the importers its rename broke ({fixed}) are fixed; "
            f"{checked.first_line}"
        )
    return Step(f"Something is still wrong: {checked.first_line}")


def _broken(rename: Result) -> set[str]:
    """The files the rename's result says it broke (the problems it introduced outside the module)."""
    block = INTRODUCED.search(rename.text)
    if block is None:
        return set()
    return {match.group(1) for match in PROBLEM.finditer(block.group(1)) if match.group(1) != MODULE}


def _fix_importers(rename: Result) -> Step:
    broken = sorted(_broken(rename))
    if not broken:
        return Step(f"{OLD}() is {NEW}() now; the edit reported no problem in any other file.")
    calls = [
        (
            "edit_file",
            {"path": path, "originalCode": IMPORTERS[path], "newCode": IMPORTERS[path].replace(OLD, NEW)},
        )
        for path in broken
        if path in IMPORTERS
    ]
    names = ", ".join(broken)
    return Step(
        f"The rename broke {len(broken)} importer(s), by its own problems: {names}. Fixing them.", calls
    )
