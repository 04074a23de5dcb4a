"""edit_file: search-and-replace blocks, each reported on its own.

One `originalCode`/`newCode` pair, or several blocks in `edits`. Blocks apply in order; the ones that
match are kept even when others fail (a half-applied edit is never rolled back, and a failed one never
empties the file). A block that failed is reported with the lines that look like it, so the next try
can quote them exactly.
"""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import Field, model_validator

from agentlite.tools.common import ToolArgs, nearest_hint, path_resource, plural, prose, workspace_errors
from agentlite.tools.context import ToolContext
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolError, ToolErrorType, ToolResult
from agentlite.tools.writing import by
from agentlite.workspace import BlockResult, EditResult, NotFound, WorkspaceError, paths

SHOWN_CANDIDATES = 3
AROUND = 1  # lines shown before and after a candidate line
ORIGINAL_SYNONYMS = ("original_code", "oldCode", "old_code", "old_string", "original", "search")
NEW_SYNONYMS = ("new_code", "new_string", "replacement", "replace", "new")


class EditArgs(ToolArgs):
    path: str = Field(description="File to edit, e.g. 'src/App.tsx'.")
    originalCode: str = Field(  # the design notes' spelling (docs/origins.md) is the contract
        description="Exact text to replace, copied from the file with enough lines to match one place only."
    )
    newCode: str = Field(description="The text that replaces originalCode.")
    edits: list[dict[str, str]] = Field(
        default_factory=list,
        description="More blocks, applied after the first in order: [{originalCode, newCode}, ...].",
    )

    @model_validator(mode="before")
    @classmethod
    def _blocks(cls, data: Any) -> Any:
        """Accept other spellings (in every block), and `edits` alone (its first block becomes
        originalCode/newCode). Blocks come out under the canonical names, so the approval rules read
        what the edit will do (`ToolRegistry.canonical`)."""
        if not isinstance(data, dict):
            return data
        data = _canonical_block(data)
        edits = data.get("edits")
        if isinstance(edits, list):
            edits = [_canonical_block(block) if isinstance(block, dict) else block for block in edits]
            data["edits"] = edits
        if "originalCode" not in data and "newCode" not in data and isinstance(edits, list) and edits:
            first, *rest = edits
            if isinstance(first, dict):
                data["originalCode"] = first.get("originalCode")
                data["newCode"] = first.get("newCode")
                data["edits"] = rest
        return data


def _canonical_block(block: dict[str, Any]) -> dict[str, Any]:
    """A block (or the arguments) with `originalCode`/`newCode` under their canonical names."""
    block = dict(block)
    for field, synonyms in (("originalCode", ORIGINAL_SYNONYMS), ("newCode", NEW_SYNONYMS)):
        for synonym in synonyms:
            if field not in block and isinstance(block.get(synonym), str):
                block[field] = block.pop(synonym)
    return block


async def edit_file(context: ToolContext, args: EditArgs) -> ToolResult:
    path = paths.normalize(args.path, allow_root=False)
    blocks = [{"originalCode": args.originalCode, "newCode": args.newCode}, *args.edits]
    try:
        result = await context.workspace.edit(path, blocks=blocks, **by(context))
    except NotFound as error:
        hint = await nearest_hint(context.workspace, path)
        raise ToolError(
            ToolErrorType.NOT_FOUND, error.message, f"{hint} To make a new file, use create_file."
        ) from error
    except WorkspaceError as error:
        if error.code != "invalid_argument":
            raise
        raise ToolError(ToolErrorType.INVALID_ARGUMENT, f"edits: {error.message}") from error
    text = await context.workspace.read_text(path) or ""
    return _report(result, text.split("\n"), [block["originalCode"] for block in blocks])


def _report(result: EditResult, lines: list[str], originals: list[str]) -> ToolResult:
    failed = [b for b in result.blocks if b.status != "applied"]
    total = len(result.blocks)
    details = "\n".join(_block_line(b, total, lines, originals[b.index]) for b in result.blocks)
    data = {
        "path": result.path,
        "applied": result.applied,
        "failed": len(failed),
        "version": result.to_dict()["version"],
        "blocks": [{"index": b.index, "status": b.status, "line": b.line} for b in result.blocks],
    }
    if not result.applied:
        kind = ToolErrorType.INVALID_ARGUMENT if any(b.status == "ambiguous" for b in failed) else None
        head = f"No change to {result.path}: {_count(len(failed), len(result.blocks))} did not apply."
        raise ToolError(kind or ToolErrorType.NOT_FOUND, head, details, data)
    if result.change is None:
        return ToolResult.success(f"{result.path} is unchanged: newCode equals the text it replaces.", data)
    version = data["version"]
    if failed:
        head = (
            f"Partly edited {result.path} (version {version}): {result.applied} of "
            f"{plural(len(result.blocks), 'block')} applied and kept; "
            f"{_count(len(failed), len(result.blocks))} did NOT apply. Send only the failed ones again."
        )
    else:
        head = f"Edited {result.path} (version {version})."
    return ToolResult.success(f"{head}\n{details}", data)


def _count(failed: int, total: int) -> str:
    return "the block" if total == 1 else f"{failed} of {plural(total, 'block')}"


def _block_line(block: BlockResult, total: int, lines: list[str], original: str) -> str:
    label = "" if total == 1 else f"block {block.index + 1}: "
    if block.status == "applied":
        return f"{label}{block.message}"
    text = f"{label}{block.status.replace('_', ' ').upper()}: {block.message}"
    marks = list(block.candidates[:SHOWN_CANDIDATES]) or similar_lines(lines, original)
    if marks:
        what = "candidate lines" if block.candidates else "lines most like its first line"
        text += f"\nThe file now, around the {what} (marked >):\n{excerpt(lines, marks)}"
    return text


def similar_lines(lines: list[str], original: str) -> list[int]:
    """Line numbers of the lines most like the first line of `original` (for a block that matched none)."""
    first = next((line.strip() for line in original.split("\n") if line.strip()), "")
    numbers: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        if line.strip():
            numbers.setdefault(line.strip(), number)
    if not first or not numbers:
        return []
    close = difflib.get_close_matches(first, list(numbers), n=SHOWN_CANDIDATES, cutoff=0.6)
    return sorted(numbers[line] for line in close)


def excerpt(lines: list[str], marks: list[int]) -> str:
    """The marked lines with AROUND lines of context, numbered; gaps between groups shown as `--`."""
    shown = sorted({n for m in marks for n in range(max(1, m - AROUND), min(len(lines), m + AROUND) + 1)})
    out: list[str] = []
    for index, number in enumerate(shown):
        if index and number != shown[index - 1] + 1:
            out.append("--")
        mark = ">" if number in marks else " "
        out.append(f"{mark}{number:>5}\t{lines[number - 1].removesuffix(chr(13))}")
    return "\n".join(out)


EDIT_FILE = prose(
    """Change part of a file: replace originalCode (copied exactly from the file, unique in it)
with newCode. Include a few surrounding lines when the text occurs more than once. For several changes
to one file, add more blocks in `edits` ([{originalCode, newCode}, ...]); each block is reported as
applied, not found, or ambiguous (with the candidate line numbers), and the applied ones are kept.
Read the file first; after a failure, retry only the failed blocks with the lines shown."""
)

TOOL = Tool(
    "edit_file",
    EDIT_FILE,
    EditArgs,
    workspace_errors(edit_file),
    Risk.MODIFY,
    aliases=("file_write",),
    streamed=("originalCode", "newCode"),
    resource=path_resource("path"),
    content="newCode",
    path="path",
)
