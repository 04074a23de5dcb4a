"""Only the model profiles (`agentlite.profiles`) tell one kind of model from another: no other module
of the agent (the engine, the tools, the skills, the stream, MCP, the rooms...) compares a base URL or
tests a model's name. Such a module reads what differs from the `ModelProfile` its link carries
(docs/architecture.md, "Where things go": a new model family). Base URLs and model names used as keys of
per-endpoint memories are keys, not tests, and stay allowed. The settings side (`SETTINGS_SIDE`) picks
the transport, the endpoint's routing and the room's background work by the kind of model the settings
name, asking the profiles' own predicates (`Settings.is_demo`, `is_local`), never comparing itself."""

from __future__ import annotations

import ast

import pytest

from buildsys.testing import code_shape

PROFILES = "agentlite.profiles"
SETTINGS_SIDE = frozenset(
    ("agentlite.settings", "agentlite.endpoint", "agentlite.browser.host", "agentlite.rooms.settings_room")
)
IDENTITY = frozenset(("base_url", "model", "model_name"))  # what names a model or its endpoint
CHOICE_NAMES = frozenset(("LOCAL_BASE", "DEMO_BASE", "DEMO_MODEL"))  # the profiles' own constants
TESTING_CALLS = frozenset(("startswith", "endswith", "match", "search", "fullmatch"))
SETTINGS_TESTS = frozenset(("is_local", "is_demo"))


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _names_a_model(node: ast.AST) -> bool:
    """The expression reads a base URL, a model's name, or the name of a profile."""
    for part in ast.walk(node):
        if isinstance(part, ast.Name) and part.id in IDENTITY:
            return True
        if isinstance(part, ast.Attribute) and (
            part.attr in IDENTITY or (part.attr == "name" and _dotted(part.value).endswith("profile"))
        ):
            return True
    return False


def _constant(node: ast.AST) -> bool:
    """A literal or a module constant (ALL_CAPS), or a collection of them: what a test compares with."""
    if isinstance(node, ast.Constant | ast.JoinedStr):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(_constant(item) for item in node.elts)
    name = _dotted(node).rsplit(".", 1)[-1]
    return bool(name) and name.isupper()


def model_tests_in(tree: ast.AST, *, settings_side: bool = False) -> list[int]:
    """The lines of `tree` that tell one kind of model from another; on the settings side, only the
    comparisons (it may ask the profiles' predicates and name their constants)."""
    found: list[int] = []
    for node in ast.walk(tree):
        if settings_side and isinstance(node, ast.ImportFrom | ast.Attribute):
            continue
        if isinstance(node, ast.ImportFrom) and any(
            a.name in CHOICE_NAMES or a.name.endswith("MARKERS") for a in node.names
        ):
            found.append(node.lineno)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_names_a_model(o) for o in operands) and any(_constant(o) for o in operands):
                found.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            tested = [node.func.value, *node.args]
            if node.func.attr in TESTING_CALLS and any(_names_a_model(t) for t in tested):
                found.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr in SETTINGS_TESTS:
            found.append(node.lineno)
    return found


def test_no_module_but_the_profiles_tells_models_apart() -> None:
    found = [
        f"{name}:{line}"
        for name, module in code_shape.load_modules().items()
        if not name.startswith(PROFILES)
        for line in model_tests_in(module.tree, settings_side=name in SETTINGS_SIDE)
    ]
    assert found == [], "tell models apart in agentlite.profiles, read the link's profile here"


@pytest.mark.parametrize(
    "source",
    [
        "from agentlite.settings import LOCAL_BASE",
        "x = 'json' if base_url == LOCAL_BASE else 'native'",
        "lean = link.base_url.startswith('local')",
        "small = 'qwen' in settings.model.lower()",
        "small = re.match(PATTERN, self.link.model)",
        "lean = link.profile.name == 'in-page'",
        "lean = settings.is_local",
    ],
)
def test_a_test_of_the_model_is_found(source: str) -> None:
    assert model_tests_in(ast.parse(source)) == [1]


@pytest.mark.parametrize(
    "source",
    [
        "dialect = learned.get((base_url, model), profile.dialect)",
        "changed = (old.base_url, old.model) != (new.base_url, new.model)",
        "stale = m.vector_model != embedder.model",
        "body = {'model': link.model}",
    ],
)
def test_a_key_is_not_a_test(source: str) -> None:
    assert model_tests_in(ast.parse(source)) == []


def test_the_settings_side_may_ask_the_profiles_but_not_compare() -> None:
    asks = "from agentlite.profiles import DEMO_MODEL\nlocal = settings.is_local"
    assert model_tests_in(ast.parse(asks), settings_side=True) == []
    compares = "local = settings.base_url == 'local:'"
    assert model_tests_in(ast.parse(compares), settings_side=True) == [1]
