"""Figures about how the package's modules fit together, read from the source alone (no imports run).

`python -m buildsys.testing.code_shape` prints them: the import graph's circles, the largest classes,
attribute accesses to another object's private members, and parameters or attributes typed `Any`. The unit
test `tests/build/test_code_shape.py` keeps the package and the build scripts (`buildsys/`, read with
`load_modules(REPO_ROOT, "buildsys")`) free of import circles; the other figures are reported,
so a change that makes the shape worse shows in review (docs/architecture.md).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from buildsys.testing.imports import python_imports

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGE_ROOT = REPO_ROOT / "py"


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    tree: ast.Module

    @property
    def package(self) -> str:
        return self.name if self.path.name == "__init__.py" else self.name.rpartition(".")[0]


def load_modules(root: Path = PACKAGE_ROOT, top: str = "agentlite") -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for path in sorted((root / top).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = Module(name, path, ast.parse(path.read_text(encoding="utf-8")))
    return modules


def imported_names(module: Module) -> Iterator[str]:
    """Every module name an import statement anywhere in the module (also inside functions) refers to."""
    for found in python_imports(module.tree, module.package):
        yield from found.targets


def import_graph(modules: dict[str, Module]) -> dict[str, set[str]]:
    """Module → the package modules it imports. `typing.TYPE_CHECKING` blocks count too: a circle of
    annotations is still a circle a reader has to untangle."""
    graph: dict[str, set[str]] = {}
    for name, module in modules.items():
        graph[name] = {t for t in imported_names(module) if t in modules and t != name}
        graph[name] -= {pkg for pkg in graph[name] if name.startswith(pkg + ".")}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted; the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def class_sizes(modules: dict[str, Module]) -> list[tuple[int, str]]:
    """(lines, qualified name) of every class, largest first; a subclass is counted with its bases'
    lines when they live in the package, since a reader must hold both halves."""
    own: dict[str, tuple[int, list[str]]] = {}
    for module in modules.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                bases = [ast.unparse(base).rpartition(".")[2] for base in node.bases]
                own[node.name] = (lines, bases)
                own[f"{module.name}.{node.name}"] = (lines, bases)

    def total(name: str, seen: frozenset[str]) -> int:
        lines, bases = own[name]
        return lines + sum(total(b, seen | {b}) for b in bases if b in own and b not in seen)

    sizes = [(total(n, frozenset({n.rpartition(".")[2]})), n) for n in own if "." in n]
    return sorted(sizes, reverse=True)


def private_accesses(modules: dict[str, Module]) -> list[str]:
    """`obj._name` where `obj` is not `self`/`cls`: reaching into another object's private state."""
    found = []
    for module in modules.values():
        for node in ast.walk(module.tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                owner = node.value
                if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                    found.append(f"{module.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def any_seams(modules: dict[str, Module]) -> list[str]:
    """Function parameters and annotated attributes typed plainly `Any`."""
    found = []
    for module in modules.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                    if arg.annotation is not None and ast.unparse(arg.annotation) == "Any":
                        found.append(f"{module.name}:{node.lineno}: {node.name}({arg.arg})")
            elif isinstance(node, ast.AnnAssign) and ast.unparse(node.annotation) == "Any":
                found.append(f"{module.name}:{node.lineno}: {ast.unparse(node.target)}")
    return found


def report(verbose: bool = False) -> str:
    modules = load_modules()
    graph = import_graph(modules)
    groups = circles(graph) + circles(import_graph(load_modules(REPO_ROOT, "buildsys")))
    private = private_accesses(modules)
    seams = any_seams(modules)
    lines = [
        f"modules: {len(modules)}",
        f"import circles: {len(groups)}" + "".join(f"\n  {' <-> '.join(g)}" for g in groups),
        "largest classes: " + ", ".join(f"{name} ({size})" for size, name in class_sizes(modules)[:3]),
        f"private accesses to another object: {len(private)}",
        f"parameters/attributes typed Any: {len(seams)}",
    ]
    if verbose:
        lines += ["", *private, "", *seams]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(verbose="-v" in sys.argv[1:]))
