"""A chat as Markdown, for reading: the conversation as it stands, then every other branch.

Each message is a section headed by its role; tool calls show their arguments and their result in
fences long enough for any content. A branch is shown from where it leaves the conversation: the
message it follows, then its own messages down its selected versions.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agentlite.engine.branches import ROOT, MessageTree, shown
from agentlite.engine.history import Message

RESULT_CHARS = 4_000  # of one tool result: enough to read what happened


def chat_markdown(record: dict[str, Any]) -> str:
    tree = MessageTree.from_record(record)
    title = str(record.get("title") or "Chat")
    parts = [f"# {_line(title)}", ""]
    path = tree.path()
    parts += _messages(path, tree)
    others = [(key, child) for key, child in _alternatives(tree, {m.id for m in path})]
    if others:
        parts += ["---", "", "## Other branches", ""]
    for number, (key, child) in enumerate(others, 1):
        siblings = tree.children[key]
        after = tree.nodes.get(key)
        where = f"after “{_excerpt(after)}”" if after is not None else "at the start"
        parts += [
            f"### Branch {number}: version {siblings.index(child) + 1} of {len(siblings)}, {where}",
            "",
        ]
        parts += _messages(tree.descend(child, [tree.nodes[child]]), tree)
    return "\n".join(parts).rstrip() + "\n"


def _alternatives(tree: MessageTree, on_path: set[str]) -> list[tuple[str, str]]:
    """(parent key, child id) of every version not shown yet, in the order the messages were written."""
    found, covered = [], set(on_path)
    for key in [ROOT, *tree.nodes]:
        for child in tree.children.get(key, []):
            if child not in covered:
                found.append((key, child))
                covered.update(m.id for m in tree.descend(child, [tree.nodes[child]]))
    return found


def _messages(messages: list[Message], tree: MessageTree) -> list[str]:
    lines: list[str] = []
    for message in messages:
        if message.role == "tool":
            lines += _result(message)
        elif shown(message):
            versions = tree.siblings(message.id)
            mark = (
                f" (version {versions.index(message.id) + 1} of {len(versions)})" if len(versions) > 1 else ""
            )
            lines += [f"## {'User' if message.role == 'user' else 'Assistant'}{mark}", ""]
            if message.thinking:
                lines += [f"> {line}" for line in message.thinking.strip().splitlines()] + [""]
            if message.content.strip():
                lines += [message.content.strip(), ""]
            if message.attachments:
                lines += [_attached(message.attachments), ""]
            for call in message.tool_calls:
                arguments = json.dumps(call.get("arguments") or {}, indent=2, ensure_ascii=False)
                lines += [f"**Tool call** `{call.get('name')}`", "", *_fenced(arguments, "json")]
    return lines


def _attached(attachments: list[dict[str, Any]]) -> str:
    """One line naming a message's attachments (their bytes stay in the JSON export)."""
    names = []
    for item in attachments:
        name = str(item["name"]).replace("`", "'")
        kind = "PDF" if item["kind"] == "pdf" else "image"
        names.append(f"{kind} `{name}`" + (" (not sent)" if item.get("dropped") else ""))
    return "*Attached: " + ", ".join(names) + "*"


def _result(message: Message) -> list[str]:
    status = message.status or ("completed" if message.ok else "failed")
    text = message.content
    if len(text) > RESULT_CHARS:
        text = text[:RESULT_CHARS] + f"\n[{len(message.content) - RESULT_CHARS:,} more characters]"
    return [f"**Result** of `{message.name or 'tool'}` ({status})", "", *_fenced(text, "")]


def _fenced(text: str, info: str) -> list[str]:
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return [f"{fence}{info}", text, fence, ""]


def _excerpt(message: Message) -> str:
    return _line(message.content)[:60] or message.role


def _line(text: str) -> str:
    return " ".join(text.split())
