"""A chat as a file: the JSON document an export writes and an import reads back into a new tab.

The document holds the whole message tree (every branch, each message with its parent, the selected
versions), tool calls with their arguments and results, the title and the chat's settings. It never holds
the API key: chats do not know it. An import trusts nothing in the file: fields of the wrong type are
dropped or made strings, messages whose parent is missing are left out, ids are made new, turn ids (which
name restore points of the workspace the chat came from) are dropped, and a tool result that does not
answer a call of the message before it is left out so the active path stays a valid request. A tool
result's images are checked again like a stored chat's (`engine.history.checked_images`: PNG, JPEG, GIF,
WebP, never SVG, within the size caps, the header's pixels and frames within bounds: `image_size`); those
that fail are left out. The images and PDFs attached to a user message are checked the same way
(`user_attachments`). Each one left out is named in the import's `notes`, with why.
"""

from __future__ import annotations

import json
import time
from typing import Any

from agentlite import user_attachments
from agentlite.engine.branches import MessageTree
from agentlite.engine.history import Message, checked_images, new_id
from agentlite.tools.images import accept

FORMAT = "agentlite-chat"
VERSION = 1
MAX_MESSAGES = 20_000
ROLES = ("user", "assistant", "tool")
STATES = ("done", "interrupted", "error")
STATUSES = ("completed", "failed", "rejected")
TEXT_FIELDS = ("content", "context", "thinking")


class ChatFileError(ValueError):
    """The file is not a chat this page can import (the user chose the wrong file)."""


def export_document(record: dict[str, Any]) -> dict[str, Any]:
    """The JSON document of a saved chat record."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "title": record.get("title") or "",
        "settings": record.get("settings") or {},
        "messages": record.get("messages") or [],
        "selected": record.get("selected") or {},
    }


def read_document(text: str) -> dict[str, Any]:
    """A chat record (without an id) from an exported file; ChatFileError when it is not one."""
    try:
        document = json.loads(text)
    except ValueError as error:
        raise ChatFileError(f"not a JSON file: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ChatFileError('not an AgentLite chat export (no "format": "agentlite-chat")')
    raw = document.get("messages")
    if not isinstance(raw, list) or len(raw) > MAX_MESSAGES:
        raise ChatFileError("the file's messages are missing or too many")
    ids: dict[str, str] = {}
    notes: list[str] = []  # attachments left out, said to the user
    messages = [m for m in (_message(item, ids, notes) for item in raw) if m is not None]
    selected = document["selected"] if isinstance(document.get("selected"), dict) else {}
    tree = MessageTree.from_record(
        {"messages": [m.to_dict() for m in messages], "selected": _renamed(selected, ids)}
    )
    _drop_unanswered(tree)
    settings = document.get("settings") if isinstance(document.get("settings"), dict) else {}
    record = {"title": _text(document.get("title"))[:200], "settings": settings, **tree.to_record()}
    return {**record, "notes": notes} if notes else record


def _message(item: Any, ids: dict[str, str], notes: list[str]) -> Message | None:
    if not isinstance(item, dict) or item.get("role") not in ROLES:
        return None
    parent = item.get("parent")
    if parent is not None and (not isinstance(parent, str) or parent not in ids):
        return None  # its parent was dropped or comes later: it cannot be placed
    message = Message(str(item["role"]), parent=ids.get(parent) if parent is not None else None)
    for name in TEXT_FIELDS:
        setattr(message, name, _text(item.get(name)))
    message.hidden = item.get("hidden") is True
    message.state = str(item["state"]) if item.get("state") in STATES else "done"
    if message.role == "user":
        checked = user_attachments.check(item.get("attachments"))
        message.attachments = checked.kept
        notes.extend(checked.notes)
    if message.role == "assistant":
        message.tool_calls = [c for c in (_call(c) for c in _list(item.get("tool_calls"))) if c]
    if message.role == "tool":
        message.tool_call_id = _text(item.get("tool_call_id"))
        message.name = _text(item.get("name")) or "tool"
        message.ok = item.get("ok") is not False
        message.status = item.get("status") if item.get("status") in STATUSES else None
        result = item.get("result")
        message.result = (
            {k: v for k, v in result.items() if k != "images"} if isinstance(result, dict) else None
        )
        message.stub = item.get("stub") is True
        message.images = _tool_images(message.name, item.get("images"), notes)
    ids[str(item.get("id"))] = message.id
    return message


def _tool_images(name: str, images: object, notes: list[str]) -> list[dict[str, str]]:
    """A result's images that pass the checks again; each one left out is named in `notes` with why."""
    for image in images if isinstance(images, list) else []:
        found = accept(image.get("mime"), image.get("data")) if isinstance(image, dict) else None
        if isinstance(found, str):
            notes.append(f"{name[:80]}'s result: {found}")
    return checked_images(images)


def _call(call: Any) -> dict[str, Any] | None:
    if not isinstance(call, dict) or not isinstance(call.get("id"), str) or not call.get("name"):
        return None
    arguments = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
    return {"id": call["id"], "name": _text(call["name"]), "arguments": arguments}


def _drop_unanswered(tree: MessageTree) -> None:
    """Leave out tool results that answer no call of their assistant message, and calls that got no
    result (a request with either is refused by most endpoints). Their children move up a level."""
    for message in list(tree.nodes.values()):
        if message.role == "assistant" and message.tool_calls:
            answered = {r.tool_call_id for r in _results(tree, message)}
            message.tool_calls = [c for c in message.tool_calls if c["id"] in answered]
        if message.role == "tool" and not _answers(tree, message):
            _remove(tree, message)


def _results(tree: MessageTree, assistant: Message) -> list[Message]:
    found: list[Message] = []
    key = assistant.id
    while True:
        tools = [tree.nodes[c] for c in tree.children.get(key, []) if tree.nodes[c].role == "tool"]
        if not tools:
            return found
        found.extend(tools)
        key = tools[0].id


def _answers(tree: MessageTree, result: Message) -> bool:
    above = tree.nodes.get(result.parent or "")
    while above is not None and above.role == "tool":
        above = tree.nodes.get(above.parent or "")
    return above is not None and any(c["id"] == result.tool_call_id for c in above.tool_calls)


def _remove(tree: MessageTree, message: Message) -> None:
    key = message.parent or ""
    siblings = tree.children[key]
    at = siblings.index(message.id)
    orphans = tree.children.pop(message.id, [])
    for child in orphans:
        tree.nodes[child].parent = message.parent
    siblings[at : at + 1] = orphans
    if tree.selected.get(key) == message.id:
        tree.selected.pop(key)
    if message.id in tree.selected and orphans:
        tree.selected[key] = tree.selected.pop(message.id)
    del tree.nodes[message.id]


def _renamed(selected: dict[Any, Any], ids: dict[str, str]) -> dict[str, str]:
    renamed = {}
    for key, value in selected.items():
        parent = "" if key == "" else ids.get(str(key))
        if parent is not None and str(value) in ids:
            renamed[parent] = ids[str(value)]
    return renamed


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def fresh_chat_id() -> str:
    return new_id("chat-imported-")
