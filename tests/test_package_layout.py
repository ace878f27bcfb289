"""The package's shape: its modules import one another without a circle, import no private
name from one another, and each package's docstring names every module it holds; the engine's
hooks are compiled where they are declared, and its compiled calls take no literal.

The import graph is read from the source (``ast``), not from a running interpreter: an edge for every
``import`` of a package module anywhere in a module, at its top and inside functions (lazy
imports, which hide a circle from Python but not from a reader) alike. ``from .pkg import name``
is an edge to ``pkg.name`` where that is a module, else to ``pkg`` (its ``__init__``); the
implicit import of a module's own parent packages is no edge (a package importing its own
modules is how packages are built). The test also checks the reading on a made-up circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "vandatta_sim"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module name -> the package modules it imports (see the module docstring)."""
    files = {module_name(p, root): p for p in root.rglob("*.py")}
    graph = {}
    for name, path in files.items():
        own = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name in files}
            elif isinstance(node, ast.ImportFrom):
                base = own[: len(own) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                if module in files:
                    targets |= {f"{module}.{a.name}" if f"{module}.{a.name}" in files else module
                                for a in node.names}
        graph[name] = targets - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_circle():
    graph = import_graph()
    assert len(graph) > 50 and "vandatta_sim.sweep.run" in graph  # the whole package was read
    assert "vandatta_sim.formatting" in graph["vandatta_sim.stats"]  # edges are read
    assert circles(graph) == []


def test_a_lazy_import_circle_is_found(tmp_path):
    """A made-up package: ``a`` imports ``b`` at its top, ``b`` imports ``a`` in a function,
    through ``from . import``; ``c`` imports ``a``'s package ``__init__`` and is no circle."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .sub import a\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "a.py").write_text("from . import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .a import thing\n")
    (pkg / "c.py").write_text("import pkg.sub\nfrom .sub import b\n")
    graph = import_graph(pkg)
    assert graph["pkg.c"] == {"pkg.sub", "pkg.sub.b"}
    assert circles(graph) == [["pkg.sub.a", "pkg.sub.b"]]


def test_every_package_docstring_names_its_modules():
    """Each package's ``__init__`` docstring names each of its modules and subpackages as
    ``:mod:`.name``` (dunder modules such as ``__main__`` aside). ``engine/`` is left out: its
    docstring is the engine's own documentation, kept by whoever changes the engine."""
    packages = [p.parent for p in PACKAGE.rglob("__init__.py") if p.parent.name != "engine"]
    assert PACKAGE in packages and PACKAGE / "sweep" in packages
    for package in packages:
        doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text("utf-8"))) or ""
        held = [p.stem for p in package.glob("*.py") if not p.stem.startswith("__")]
        held += [p.name for p in package.iterdir() if (p / "__init__.py").is_file()]
        missing = [name for name in sorted(held) if f":mod:`.{name}`" not in doc]
        assert not missing, f"{package.relative_to(PACKAGE.parent)}/__init__.py: {missing}"


def test_no_private_name_is_imported_from_another_module():
    """A ``_name`` is its module's own: a module needing another's gets a public name (the
    engine's modules, one compiled unit, share theirs among themselves)."""
    engine = "vandatta_sim.engine"
    found = []
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path, PACKAGE)
        own = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = own[: len(own) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            if not module.startswith("vandatta_sim") or (
                    name.startswith(engine) and module.startswith(engine)):
                continue
            found += [f"{name}: {module}.{a.name}" for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
    assert found == []


def overloads_of_imported_names(root: Path) -> list[str]:
    """``module: name`` for every ``@overload(name)`` whose ``name`` the module imports from
    another: a hook filled in from outside the module that declares it."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.asname or a.name for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) for a in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for deco in node.decorator_list:
                    if (isinstance(deco, ast.Call) and getattr(deco.func, "id", "") == "overload"
                            and deco.args and getattr(deco.args[0], "id", "") in imported):
                        found.append(f"{module_name(path, root)}: {deco.args[0].id}")
    return found


def test_every_engine_hook_is_compiled_in_the_module_that_declares_it():
    """No kernel code is filled in from another module at import time (as the search player
    once was, overloading a hook of game.py): each ``@overload`` is of its own module's name."""
    assert overloads_of_imported_names(PACKAGE / "engine") == []


def test_an_overload_of_an_imported_hook_is_found(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def hook(x):\n    pass\n")
    (tmp_path / "pkg" / "b.py").write_text(
        "from numba.extending import overload\nfrom .a import hook\n\n\n"
        "@overload(hook)\ndef hook_nb(x):\n    return lambda x: x\n")
    assert overloads_of_imported_names(tmp_path / "pkg") == ["pkg.b: hook"]


def literal_arguments_of_compiled_calls(root: Path) -> list[str]:
    """``module:line function(argument)`` for every call, in the package's modules, of one of
    its compiled functions that is not inlined (``@njit``) with an int or bool literal: a
    number, True/False, or a module constant that is one. numba compiles such a function once
    for every literal it is given, besides its int64 or bool version, and the search's are
    large (a literal False and the literal turn limit had compiled its turn loop eight times).
    A variable that holds a literal on numba's first pass over a loop (a position starting at
    0) is not seen by this reading: the engine passes such values as ``np.int64(p)``."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8"))
             for path in sorted(root.rglob("*.py"))}
    compiled, constants = set(), {}
    for tree in trees.values():
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and any(
                    getattr(deco, "id", "") == "njit" for deco in node.decorator_list):
                compiled.add(node.name)
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                constants[getattr(node.targets[0], "id", "")] = node.value

    def literal(arg) -> bool:
        if isinstance(arg, ast.Name):  # a module constant: a literal unless a call makes it
            return arg.id in constants and literal(constants[arg.id])  # (np.int64(...): int64)
        try:
            return isinstance(ast.literal_eval(arg), (bool, int))
        except ValueError:
            return isinstance(arg, ast.BinOp) and literal(arg.left) and literal(arg.right)

    found = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in compiled:
                where = f"{module_name(path, root)}:{node.lineno} {node.func.id}"
                found += [f"{where}({ast.unparse(a)})" for a in node.args if literal(a)]
    return sorted(found)


def test_no_compiled_engine_function_is_called_with_a_literal():
    assert literal_arguments_of_compiled_calls(PACKAGE / "engine") == []


def test_a_literal_argument_of_a_compiled_call_is_found(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(
        "import numpy as np\nfrom .b import njit\nLIMIT = 1000\nWIDE = np.int64(LIMIT)\n\n\n"
        "@njit\ndef f(x, y):\n    return x\n\n\n"
        "@njit\ndef g(x):\n    return f(x, False) + f(LIMIT, WIDE) + f(-1, x) + f(x, 2.0)\n")
    assert literal_arguments_of_compiled_calls(tmp_path / "pkg") == [
        "pkg.a:14 f(-1)", "pkg.a:14 f(False)", "pkg.a:14 f(LIMIT)"]
