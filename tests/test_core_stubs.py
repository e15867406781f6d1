"""The type stubs of the compiled cores (splendor_ai/_core/<name>.pyi) cannot drift from the
cores: every name a stub declares exists on the compiled module (or its class), every public
name the module defines is in its stub, and each function's parameters (names, order,
defaults) are the compiled function's. mypy reads only the stubs, so a method added to a core
and not to its stub would be invisible to it, and one renamed would be checked against a name
that is gone."""
from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import splendor_ai._core as core_package

CORES = ["base", "marvel", "duel", "nn", "search"]
STUBS = Path(core_package.__file__).resolve().parent


def _stub(name: str) -> ast.Module:
    return ast.parse((STUBS / f"{name}.pyi").read_text(), f"{name}.pyi")


def _decorators(node: ast.ClassDef | ast.FunctionDef) -> set[str]:
    return {d.id if isinstance(d, ast.Name) else d.attr if isinstance(d, ast.Attribute) else ""
            for d in node.decorator_list}


def _stub_only(node: ast.stmt) -> bool:
    """Names a stub holds for the type checker alone: imports, type aliases (a plain
    assignment: a constant is `NAME: type`) and @type_check_only classes."""
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign)):
        return True
    return isinstance(node, ast.ClassDef) and "type_check_only" in _decorators(node)


def _declared(body: list[ast.stmt]) -> dict[str, list[ast.stmt]]:
    """name -> the statements that declare it (several for an overloaded function)."""
    names: dict[str, list[ast.stmt]] = {}
    for node in body:
        if _stub_only(node) or isinstance(node, ast.Expr):  # a docstring or `...`
            continue
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.setdefault(node.target.id, []).append(node)
        else:
            raise AssertionError(f"unexpected statement in a stub: {ast.dump(node)[:80]}")
    return names


def _stub_classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef) and not _stub_only(n)}


def _class_members(cls: ast.ClassDef, classes: dict[str, ast.ClassDef]) -> set[str]:
    """What the stub's class declares, its bases' (in the same stub) included."""
    names = set(_declared(cls.body))
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id in classes:
            names |= _class_members(classes[base.id], classes)
    return names


def _own(module, value) -> bool:
    """Whether `value`, found in the module's namespace, is the module's own (not an import)."""
    if inspect.ismodule(value):
        return False
    if inspect.isclass(value) or callable(value):
        return getattr(value, "__module__", None) == module.__name__
    return True


def _parameters(node: ast.FunctionDef) -> list[tuple[str, object]]:
    """(name, default) per parameter of a stub function, `self`/`cls` dropped; default is
    `inspect.Parameter.empty` for none and `...` where the stub does not say."""
    args = node.args
    positional = args.posonlyargs + args.args
    defaults: list[object] = [inspect.Parameter.empty] * (len(positional) - len(args.defaults))
    defaults += [_literal(d) for d in args.defaults]
    out = list(zip([a.arg for a in positional], defaults))
    out += [(a.arg, inspect.Parameter.empty if d is None else _literal(d))
            for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if out and out[0][0] in ("self", "cls") and "staticmethod" not in _decorators(node):
        out = out[1:]
    return out


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return ...


def _runtime_parameters(func) -> list[tuple[str, object]] | None:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    params = [(p.name, p.default) for p in sig.parameters.values()]
    if params and params[0][0] in ("self", "cls"):
        params = params[1:]
    return params


def _check_signature(where: str, nodes: list[ast.stmt], func) -> None:
    functions = [n for n in nodes if isinstance(n, ast.FunctionDef)]
    runtime = _runtime_parameters(func)
    if not functions or runtime is None or "property" in _decorators(functions[0]):
        return
    if len(functions) > 1:  # overloads: each names the parameters in the function's order
        for f in functions:
            assert [n for n, _ in _parameters(f)] == [n for n, _ in runtime], f"{where}: an overload's parameters"
        return
    stub = _parameters(functions[0])
    assert [n for n, _ in stub] == [n for n, _ in runtime], \
        f"{where}: parameters {stub} in the stub, {runtime} compiled"
    for (name, declared), (_, actual) in zip(stub, runtime):
        assert (declared is inspect.Parameter.empty) == (actual is inspect.Parameter.empty), \
            f"{where}: parameter {name} has a default in one of the stub and the core only"
        if declared is not inspect.Parameter.empty and declared is not ...:
            assert declared == actual, f"{where}: {name}={declared!r} in the stub, {actual!r} compiled"


@pytest.mark.parametrize("name", CORES)
def test_every_name_a_stub_declares_is_on_the_core(name):
    module = importlib.import_module(f"splendor_ai._core.{name}")
    tree = _stub(name)
    classes = _stub_classes(tree)
    for attr, nodes in _declared(tree.body).items():
        assert hasattr(module, attr), f"{name}.pyi declares {attr}, which the compiled core lacks"
        _check_signature(f"{name}.{attr}", nodes, getattr(module, attr))
    for cname, cls in classes.items():
        runtime = getattr(module, cname)
        assert inspect.isclass(runtime), f"{name}.{cname} is not a class in the core"
        for attr, nodes in _declared(cls.body).items():
            if attr == "__init__":  # a cdef class's __cinit__ cannot be introspected
                continue
            assert hasattr(runtime, attr), f"{name}.pyi declares {cname}.{attr}, which the compiled core lacks"
            _check_signature(f"{name}.{cname}.{attr}", nodes, getattr(runtime, attr))
        stub_bases = [b.id for b in cls.bases if isinstance(b, ast.Name)]
        runtime_bases = [b.__name__ for b in runtime.__bases__ if b is not object]
        assert stub_bases == runtime_bases, f"{name}.{cname}: bases {stub_bases} in the stub, {runtime_bases} compiled"


@pytest.mark.parametrize("name", CORES)
def test_every_public_name_of_a_core_is_in_its_stub(name):
    module = importlib.import_module(f"splendor_ai._core.{name}")
    tree = _stub(name)
    declared = set(_declared(tree.body))
    classes = _stub_classes(tree)
    public = {k for k, v in vars(module).items() if not k.startswith("_") and _own(module, v)}
    assert not public - declared, f"{name}.pyi lacks {sorted(public - declared)}"
    for cname in sorted(public & set(classes)):
        runtime = getattr(module, cname)
        members = _class_members(classes[cname], classes)
        own = {k for k in vars(runtime) if not k.startswith("_")}
        assert not own - members, f"{name}.pyi: {cname} lacks {sorted(own - members)}"


def test_the_stubs_ship_with_the_package():
    assert (STUBS.parent / "py.typed").is_file()
    for name in CORES:
        assert (STUBS / f"{name}.pyi").is_file()
