"""No import circles among the modules of splendor_ai.

The graph is read from the source with ``ast``: an edge A -> B for every ``import`` or
``from ... import`` in A that names B, a module of splendor_ai (``from pkg import name`` is an
edge to ``pkg.name`` when that is a module, else to ``pkg``, whose ``__init__`` gives the name).

Imports inside functions count too. A function-level import is how a circle is usually hidden:
it defers the error from import time to call time, but the two modules still need each other,
and neither can be read, tested or moved on its own (issue 52 named three such pairs). Only
``if TYPE_CHECKING:`` blocks are left out: they never run.

An edge goes to the module named, not to the packages above it. Python runs a package's
``__init__`` before its submodule, but that is the package's own facade (its re-exports), not
a dependency the importing module states; counting it would make every submodule of a package
whose ``__init__`` re-exports a sibling look circular.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path


PACKAGE = Path(__file__).resolve().parents[1] / "splendor_ai"


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module of splendor_ai by dotted name: (its file, whether it is a package)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


def _targets(module: str, is_package: bool, node, modules) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    return [f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target for a in node.names]


def import_graph() -> dict[str, dict[str, str]]:
    """module -> {imported module: "module" (top-level import) or "function" (inside a def)}."""
    modules = _modules()
    graph: dict[str, dict[str, str]] = {name: {} for name in modules}

    def walk(name, is_package, node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                walk(name, is_package, ast.Module(body=child.orelse, type_ignores=[]), in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for target in _targets(name, is_package, child, modules):
                    if target in modules and target != name and graph[name].get(target) != "module":
                        graph[name][target] = "function" if in_function else "module"
            walk(name, is_package, child,
                 in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    for name, (path, is_package) in modules.items():
        walk(name, is_package, ast.parse(path.read_text(), str(path)), False)
    return graph


def circles(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def _describe(graph, component) -> str:
    return "; ".join(f"{a} -> {b} ({graph[a][b]}-level)" for a in component for b in graph[a] if b in component)


def test_no_import_circles_in_splendor_ai():
    graph = import_graph()
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(_describe(graph, c) for c in found)


def test_the_graph_sees_imports_at_every_level(tmp_path, monkeypatch):
    # The checker itself: a circle closed by a function-level import is found; one closed only
    # under TYPE_CHECKING is not; relative imports resolve to the right modules.
    pkg = tmp_path / "splendor_ai"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .a import thing\n")
    (pkg / "sub" / "a.py").write_text("from . import b\nthing = 1\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .a import thing\n    return thing\n")
    (pkg / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..sub import d\n")
    (pkg / "sub" / "d.py").write_text("from splendor_ai.sub import c\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", pkg)
    graph = import_graph()
    assert graph["splendor_ai.sub.a"] == {"splendor_ai.sub.b": "module"}
    assert graph["splendor_ai.sub.b"] == {"splendor_ai.sub.a": "function"}
    assert graph["splendor_ai.sub"] == {"splendor_ai.sub.a": "module"}
    assert graph["splendor_ai.sub.c"] == {}
    assert graph["splendor_ai.sub.d"] == {"splendor_ai.sub.c": "module"}
    assert circles(graph) == [["splendor_ai.sub.a", "splendor_ai.sub.b"]]


# The package's layers, lowest first (docs/architecture.md): a module may import from its own
# layer and those below, never from one above, at any level (function-level imports count).
LAYERS = [
    {"_core", "games", "progress", "certs", "render"},
    {"records", "nn"},
    {"search"},
    {"analysis", "reasons"},
    {"service", "train"},
    {"play", "health", "bench"},
    {"cli"},
]


def _layer(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else ""
    for i, layer in enumerate(LAYERS):
        if top in layer:
            return i
    raise AssertionError(f"{module}: its folder {top!r} is in no layer of LAYERS (add it where it belongs)")


def test_every_import_goes_down_the_layers():
    graph = import_graph()
    up = [f"{a} -> {b} ({kind}-level)" for a, targets in graph.items() if a != "splendor_ai"
          for b, kind in targets.items() if b != "splendor_ai" and _layer(b) > _layer(a)]
    assert not up, "imports that go up a layer:\n" + "\n".join(sorted(up))


def test_the_cores_take_their_card_data_from_the_specs_not_the_python_rules(tmp_path):
    """Each Cython core reads its catalogue from the game's ``spec`` (the data layer beside the
    CSV files); the readable rules (``reference.py``) are the independent check the parity tests
    run against, so a core that imported them would no longer be checked by something apart."""
    import subprocess

    for game in ("base", "duel", "marvel"):
        probe = (f"import sys, splendor_ai._core.{game}\n"
                 "print(sorted(m for m in sys.modules if m.startswith('splendor_ai') and m.endswith('reference')))")
        # run away from the source tree, whose splendor_ai/ has no built cores when the package is installed
        run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        out = run.stdout
        assert out.strip() == "[]", f"splendor_ai._core.{game} imports the Python rules: {out.strip()}"
