"""The one reader of imports behind every rule on the code's shape (the architecture tests and
`code_shape`): what a Python or a JavaScript module names, read from its source alone, nothing imported
and nothing run. One reader, so every rule sees the same edges (a relative import, a `TYPE_CHECKING`
block, a dynamic `import()`, a type's `@import`, a Worker's URL) and a new way of importing is taught
once."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class PythonImport:
    """One module an import statement names, made absolute (`from .x import y` inside package `p` is
    `p.x`); `import a, b` is two."""

    module: str
    names: tuple[str, ...]  # what `from module import ...` takes; empty for `import module`
    bound: tuple[str, ...]  # the names the statement binds in the importing module
    line: int
    in_function: bool  # inside a function body, so it runs only when the function does

    @property
    def targets(self) -> tuple[str, ...]:
        """Every module the statement may reach: the module and, for a `from` import, each
        `module.name` (a name taken from a package may be a module of its own)."""
        return (self.module, *(f"{self.module}.{name}" for name in self.names))


def python_imports(source: str | ast.Module, package: str = "") -> list[PythonImport]:
    """Every import in the module, anywhere (functions and `TYPE_CHECKING` blocks too), in line order.
    `package` resolves relative imports: the module's package, or the module itself for an `__init__`."""
    tree = ast.parse(source) if isinstance(source, str) else source
    local = {
        id(node)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
        if node is not fn
    }
    found: list[PythonImport] = []
    for node in ast.walk(tree):
        inside = id(node) in local
        if isinstance(node, ast.Import):
            found += [
                PythonImport(a.name, (), (a.asname or a.name.split(".")[0],), node.lineno, inside)
                for a in node.names
            ]
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names)
            bound = tuple(a.asname or a.name for a in node.names)
            module = _absolute(node.module or "", node.level, package)
            found.append(PythonImport(module, names, bound, node.lineno, inside))
    return sorted(found, key=lambda i: i.line)


def _absolute(module: str, level: int, package: str) -> str:
    if not level:
        return module
    parts = package.split(".") if package else []
    base = parts[: len(parts) - level + 1]
    return ".".join(base + ([module] if module else []))


@dataclass(frozen=True)
class JsImport:
    specifier: str
    kind: str  # "static" (import/export ... from, a bare import), "dynamic", "worker" or "type"


# Each way a module names another, by a string literal (a computed name names nothing we can read).
_JS = re.compile(
    r"""@import\s*\{[^}]*\}\s*from\s*["'](?P<type>[^"']+)["']"""
    r"""|\bimport\(\s*["'](?P<dynamic>[^"']+)["']\s*\)"""
    r"""|\bnew\s+(?:Shared)?Worker\(\s*new\s+URL\(\s*["'](?P<worker>[^"']+)["']\s*,\s*import\.meta\.url\s*\)"""
    r"""|\b(?:import|export)\s*(?:[\w*{}\s,$]*?\sfrom\s*)?["'](?P<static>[^"']+)["']"""
)


def js_imports(source: str) -> list[JsImport]:
    """Every module a JavaScript module names, in the order it names them."""
    return [
        JsImport(value, kind)
        for match in _JS.finditer(source)
        for kind, value in match.groupdict().items()
        if value is not None
    ]


def js_specifiers(source: str) -> list[str]:
    return [found.specifier for found in js_imports(source)]
