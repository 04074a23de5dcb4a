"""No import circles in the package or the build scripts; the figure script reads the source as it claims."""

from __future__ import annotations

from pathlib import Path

from buildsys.testing import code_shape


def test_the_package_has_no_import_circles() -> None:
    graph = code_shape.import_graph(code_shape.load_modules())
    assert code_shape.circles(graph) == []


def test_the_build_scripts_have_no_import_circles() -> None:
    """The benchmarks share their types through a leaf module (`bench_figure`), not through the runner."""
    modules = code_shape.load_modules(code_shape.REPO_ROOT, "buildsys")
    assert "buildsys.bench.runner" in modules and "buildsys.bench.bench_tokens" in modules
    assert code_shape.circles(code_shape.import_graph(modules)) == []


def test_every_module_name_is_unique_in_the_package() -> None:
    """One name, one meaning: a reader who sees `plan` or `errors` should not have to ask which one."""
    names = [
        m.name.rpartition(".")[2] for m in code_shape.load_modules().values() if m.path.name != "__init__.py"
    ]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def _modules(tmp_path: Path, files: dict[str, str]) -> dict[str, code_shape.Module]:
    for rel, text in files.items():
        path = tmp_path / "pkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return code_shape.load_modules(tmp_path, "pkg")


def test_a_circle_through_a_function_local_import_is_found(tmp_path: Path) -> None:
    modules = _modules(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from pkg import b\n",
            "b.py": "def late():\n    from .c import x\n",
            "c.py": "from pkg.a import y\n",
            "d.py": "import pkg.a\n",
        },
    )
    assert code_shape.circles(code_shape.import_graph(modules)) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_a_package_importing_its_own_submodule_is_no_circle(tmp_path: Path) -> None:
    modules = _modules(
        tmp_path, {"__init__.py": "from .a import x\n", "a.py": "from pkg import b\n", "b.py": ""}
    )
    assert code_shape.circles(code_shape.import_graph(modules)) == []


def test_a_subclass_counts_its_base_lines(tmp_path: Path) -> None:
    modules = _modules(
        tmp_path, {"__init__.py": "", "a.py": "class A:\n    x = 1\n\n\nclass B(A):\n    y = 2\n"}
    )
    assert code_shape.class_sizes(modules)[0] == (4, "pkg.a.B")


def test_private_access_and_any_seams_are_counted(tmp_path: Path) -> None:
    source = "from typing import Any\n\ndef f(ws: Any, n: int) -> None:\n    ws._dirty = self_ok = 1\n"
    modules = _modules(tmp_path, {"__init__.py": "", "a.py": source})
    assert code_shape.private_accesses(modules) == ["pkg.a:4: ws._dirty"]
    assert code_shape.any_seams(modules) == ["pkg.a:3: f(ws)"]
