"""Few private reach-ins: code reads other objects' private names in at most 15 places in the whole package.

A reach-in is an attribute ``x._name`` where ``x`` is not ``self`` or ``cls`` and ``_name`` is not a dunder, or an
import of a ``_name`` from another module. (Comparing with another object of one's own class, a subclass calling
its base's hook and a stdlib helper count too: the limit leaves room for those few.) There were 150 when this
test was written (84 counted as issue 22 first did); a module that needs another's private name should ask for a
public one instead.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "heimlich_lab"
LIMIT = 15


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def reach_ins(source: str, label: str = "<source>") -> list[str]:
    """``label:line: what`` for every reach-in of ``source``.

    >>> reach_ins("def f(g):\\n    return g._phase, self._x\\n")
    ['<source>:2: g._phase']
    >>> reach_ins("from .core import _frozen, public\\n")
    ['<source>:1: import _frozen']
    """
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                out.append(f"{label}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom):
            out += [f"{label}:{node.lineno}: import {a.name}" for a in node.names if _private(a.name)]
    return sorted(out)


def test_the_counter_finds_each_kind_of_reach_in():
    assert reach_ins("x = game._hands[0]\ny = super()._bayes(1)\nz = obj.__dict__\n") == [
        "<source>:1: game._hands", "<source>:2: super()._bayes"]


def test_the_package_reads_other_objects_private_names_in_at_most_15_places():
    found = [r for path in sorted(PACKAGE.rglob("*.py"))
             for r in reach_ins(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))]
    assert len(found) <= LIMIT, f"{len(found)} private reach-ins (at most {LIMIT}):\n" + "\n".join(found)
