"""The editor's room (`editor.*`): the one holder of what the page's editor shows.

Both ways the page reports its editor land here: `editor.changed` when the user opens another file or
selects, and each `chats.send` (the chats' room passes the message's editor state on before it starts
the turn). A turn's tools read the open file from this holder only: their context is registered here
when the turn starts and follows every change, so `edit_current_editor_document` writes the file the
user has open now, even when it changed while the turn ran.
"""

from __future__ import annotations

import weakref

from agentlite.editor_state import EditorState
from agentlite.tools.context import ToolContext


class EditorRoom:
    def __init__(self) -> None:
        self.state = EditorState()  # what the page's editor shows, as last reported
        # the tools' contexts of live turns, by turn id (a finished turn's goes with it)
        self._contexts: weakref.WeakValueDictionary[str, ToolContext] = weakref.WeakValueDictionary()

    def changed(self, editor: EditorState) -> None:
        """Another file opened or a new selection: running turns' tools see the file now open."""
        self.state = editor
        for context in list(self._contexts.values()):
            context.editor_path = editor.open_file

    def follow(self, turn_id: str, context: ToolContext) -> ToolContext:
        """A starting turn's tools: they see the file open now, and every later change."""
        context.editor_path = self.state.open_file
        self._contexts[turn_id] = context
        return context
