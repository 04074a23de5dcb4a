"""`agentlite.calls` is a switchboard: each handler checks the page's call (its parameters are the keys,
a value that travels on becomes its frozen command) and hands it to the room that owns its group, with
no logic of its own and nothing imported from above or beside the rooms."""

from __future__ import annotations

import ast
import inspect

import pytest

from agentlite import calls
from buildsys.testing.imports import python_imports

# what calls.py may import: the commands and value checks, and the rooms
ALLOWED_IMPORTS = {
    "__future__",
    "typing",
    "agentlite.commands",
    "agentlite.editor_state",
    "agentlite.settings",
    "agentlite.rooms",
}
# the only nodes a handler's body is made of: `return [await] self.rooms.<room>.<method>(...)`, whose
# arguments are the handler's parameters or a command built from them
ALLOWED_NODES = (ast.Return, ast.Await, ast.Call, ast.Attribute, ast.Name, ast.keyword, ast.Load)


def _tree() -> ast.Module:
    return ast.parse(inspect.getsource(calls))


def _handlers(tree: ast.Module) -> list[ast.AsyncFunctionDef]:
    handler = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "CallHandler")
    return [
        n
        for n in handler.body
        if isinstance(n, ast.AsyncFunctionDef) and n.name.partition("_")[0] in calls.GROUPS
    ]


def _validators(tree: ast.Module) -> set[str]:
    """The names calls.py imports from the modules that check values into commands."""
    return {
        name
        for found in python_imports(tree, "agentlite")
        if found.names and found.module != "agentlite.rooms" and not found.in_function
        for name in found.bound
    }


def _is_room_call(call: ast.expr) -> bool:
    """`self.rooms.<room>.<method>(...)`."""
    func = call.func if isinstance(call, ast.Call) else None
    room = func.value if isinstance(func, ast.Attribute) else None
    rooms = room.value if isinstance(room, ast.Attribute) else None
    return (
        isinstance(rooms, ast.Attribute)
        and rooms.attr == "rooms"
        and isinstance(rooms.value, ast.Name)
        and rooms.value.id == "self"
    )


def logic_in(handler: ast.AsyncFunctionDef, validators: set[str]) -> list[str]:
    """What in a handler is more than handing the call to its room (empty: nothing)."""
    body = handler.body[1:] if ast.get_docstring(handler) is not None else handler.body
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return ["its body is not one `return` of a room's call"]
    value = body[0].value
    outer = value.value if isinstance(value, ast.Await) else value
    found = [] if _is_room_call(outer) else ["it returns something other than a room's call"]
    params = {a.arg for a in handler.args.args}
    for node in ast.walk(body[0]):
        if not isinstance(node, ALLOWED_NODES):
            found.append(f"{type(node).__name__} at line {getattr(node, 'lineno', '?')}")
        elif isinstance(node, ast.Call) and node is not outer:
            func = node.func
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
                found.append(f"a call at line {node.lineno}")
            elif func.value.id not in validators:
                found.append(f"a call of {func.value.id} at line {node.lineno}")
        elif isinstance(node, ast.Name) and node.id not in params | validators:
            found.append(f"the name {node.id} at line {node.lineno}")
    return found


def test_every_handler_only_hands_its_call_to_a_room() -> None:
    tree = _tree()
    handlers = _handlers(tree)
    validators = _validators(tree)
    assert len(handlers) >= 40
    assert {h.name: logic_in(h, validators) for h in handlers if logic_in(h, validators)} == {}


@pytest.mark.parametrize(
    "source",
    [
        "async def vfs_x(self, p):\n    if p:\n        return await self.rooms.files.a(p)\n",
        "async def vfs_x(self, p):\n    return await self.rooms.files.a(p + '/')\n",
        "async def vfs_x(self, p):\n    return await self.rooms.files.a([q for q in p])\n",
        "async def vfs_x(self, p):\n    return base64.b64encode(await self.rooms.files.a(p))\n",
        "async def vfs_x(self, p):\n    return await self.rooms.files.a(json.dumps(p))\n",
        "async def vfs_x(self, p):\n    x = p\n    return await self.rooms.files.a(x)\n",
        "async def vfs_x(self, p):\n    return await self.service.workspace.a(p)\n",
        "async def vfs_x(self, p):\n    return await self.rooms.files.a(p, author='user')\n",
        "async def vfs_x(self, p):\n    return await self.rooms.files.a(str(p))\n",
    ],
)
def test_the_rule_sees_logic(source: str) -> None:
    handler = ast.parse(source).body[0]
    assert isinstance(handler, ast.AsyncFunctionDef)
    assert logic_in(handler, {"SendMessage", "EditorState"}) != []


def test_a_command_built_from_the_parameters_is_no_logic() -> None:
    source = (
        "async def editor_changed(self, f, s):\n    return self.rooms.editor.changed(EditorState.of(f, s))\n"
    )
    handler = ast.parse(source).body[0]
    assert isinstance(handler, ast.AsyncFunctionDef)
    assert logic_in(handler, {"EditorState"}) == []


def test_the_switchboard_imports_only_the_commands_and_the_rooms() -> None:
    imported = {found.module for found in python_imports(_tree(), "agentlite")}
    assert imported <= ALLOWED_IMPORTS


def test_the_switchboard_holds_only_its_handlers() -> None:
    """No helper functions beside the handlers: the work they would do belongs to a room."""
    tree = _tree()
    functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    handler = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "CallHandler")
    methods = {n.name for n in handler.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    assert functions == []
    assert methods - {h.name for h in _handlers(tree)} == {"__init__", "dispatch"}
