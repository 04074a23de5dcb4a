"""The messages of one chat as a tree: editing a message or regenerating an answer starts a branch.

Every message knows its parent; siblings (the children of one parent) are the versions of that point
of the conversation. The active path runs from the root, at each message taking the child chosen last
(`selected`) or else the newest one; it is what the model sees and what the page shows. Nothing is ever
deleted: leaving a branch only changes which child is selected.

A saved chat from before branches has no `selected` and no parents: its messages form one chain.
"""

from __future__ import annotations

from typing import Any

from agentlite.engine.history import Message

ROOT = ""  # the parent key of the first messages


class MessageTree:
    def __init__(self) -> None:
        self.nodes: dict[str, Message] = {}  # every message, oldest first
        self.children: dict[str, list[str]] = {}  # parent key -> child ids, oldest first
        self.selected: dict[str, str] = {}  # parent key -> the child the active path takes

    def add(self, message: Message, parent: Message | None) -> None:
        """A new message under `parent` (None: a first message); it joins the active path."""
        message.parent = parent.id if parent is not None else None
        key = message.parent or ROOT
        self.nodes[message.id] = message
        self.children.setdefault(key, []).append(message.id)
        self.selected[key] = message.id

    def path(self) -> list[Message]:
        """The active path, from the first message to the leaf."""
        return self.descend(ROOT, [])

    def descend(self, key: str, path: list[Message]) -> list[Message]:
        while self.children.get(key):
            chosen = self.selected.get(key)
            if chosen not in self.children[key]:
                chosen = self.children[key][-1]
            path.append(self.nodes[chosen])
            key = chosen
        return path

    def siblings(self, message_id: str) -> list[str]:
        """The versions of this point of the conversation (the message itself included)."""
        message = self.nodes[message_id]
        return self.children.get(message.parent or ROOT, [message_id])

    def switch(self, message_id: str, index: int) -> list[Message]:
        """Make the `index`-th sibling of a message active; the new active path."""
        siblings = self.siblings(message_id)
        chosen = siblings[max(0, min(index, len(siblings) - 1))]
        parent = self.nodes[chosen].parent
        self.selected[parent or ROOT] = chosen
        while parent is not None:  # the ancestors lead here too
            grand = self.nodes[parent].parent
            self.selected[grand or ROOT] = parent
            parent = grand
        return self.path()

    def branch_info(self, path: list[Message]) -> dict[str, dict[str, Any]]:
        """For each visible message of the path that starts a version: `{branch, branches, node}`.

        A version may start with a message the page does not show (a hidden note, a tool result):
        its switcher goes on the next visible message of the path."""
        info: dict[str, dict[str, Any]] = {}
        waiting: dict[str, Any] | None = None
        for message in path:
            siblings = self.siblings(message.id)
            if len(siblings) > 1:
                waiting = {
                    "branch": siblings.index(message.id) + 1,
                    "branches": len(siblings),
                    "node": message.id,
                }
            if waiting is not None and shown(message):
                info[message.id] = waiting
                waiting = None
        return info

    # --- persistence ----------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        return {
            "messages": [m.to_dict() for m in self.nodes.values()],
            "selected": dict(self.selected),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> MessageTree:
        """A tree from a saved chat; a chat saved before branches (no `selected`) is one chain."""
        tree = cls()
        messages = [Message.from_dict(m) for m in record.get("messages") or ()]
        chained = "selected" not in record
        previous: Message | None = None
        for message in messages:
            parent = previous if chained else tree.nodes.get(message.parent or ROOT)
            if not chained and message.parent and parent is None:
                continue  # its parent was lost: the message cannot be placed
            tree.add(message, parent)
            previous = message
        if not chained:
            saved = record.get("selected") or {}
            tree.selected = {k: v for k, v in saved.items() if v in tree.children.get(k, ())}
        return tree


def shown(message: Message) -> bool:
    """Whether the page shows the message as a bubble (tool results go into their call's card)."""
    return message.role == "assistant" or (message.role == "user" and not message.hidden)
