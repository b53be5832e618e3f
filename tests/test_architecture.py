"""The rules engine keeps its state to itself: no module outside a game's own package reads its Game's private
fields or calls its private methods. Other code reads views, records and the public replay
(:mod:`heimlich_lab.rules.replay`).

The check reads the source: every attribute access ``x._name`` in a module outside the package, where
``_name`` is assigned as ``self._name`` or defined as a method in that package's ``Game`` class, is reported
with its line. A class's own attributes (``self._name``, ``cls._name``) are its own business.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "heimlich_lab"


def _private_names(game_source: str) -> frozenset[str]:
    """The private fields (assigned as ``self._x``) and private methods of the ``Game`` class in the source."""
    tree = ast.parse(game_source)
    game = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    names = {n.name for n in game.body if isinstance(n, ast.FunctionDef)}
    for node in ast.walk(game):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            names.update(x.attr for x in ast.walk(target) if isinstance(x, ast.Attribute)
                         and isinstance(x.value, ast.Name) and x.value.id == "self")
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__"))


def _engines() -> dict[Path, frozenset[str]]:
    """Package folder -> private names of the ``Game`` its game.py defines (the Heimlich rules, and any other
    game the kit ships with its own engine)."""
    out = {}
    for path in sorted(PACKAGE.rglob("game.py")):
        source = path.read_text(encoding="utf-8")
        if any(isinstance(n, ast.ClassDef) and n.name == "Game" for n in ast.parse(source).body):
            out[path.parent] = _private_names(source)
    return out


def _private_reads(source: str, names: frozenset[str], label: str = "<source>") -> list[str]:
    """``label:line: expression`` for every read of one of ``names`` on something other than self/cls."""
    return [f"{label}:{x.lineno}: {ast.unparse(x)}" for x in ast.walk(ast.parse(source))
            if isinstance(x, ast.Attribute) and x.attr in names
            and not (isinstance(x.value, ast.Name) and x.value.id in ("self", "cls"))]


def _dotted(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(source: str, module: Path) -> set[str]:
    """The dotted names of the modules ``source`` (the text of ``module``) imports, relative imports resolved."""
    package = _dotted(module) if module.name == "__init__.py" else _dotted(module).rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            name = ".".join(base + ([node.module] if node.module else []))
            out.add(name)
            out.update(f"{name}.{a.name}" for a in node.names)
    return out


def _outside_reads() -> list[str]:
    """Reads of a Game's private names in modules outside its package that import its package (names alone
    would mistake another class's ``_take`` for an engine's)."""
    engines = _engines()
    found = []
    for package, names in engines.items():
        dotted = _dotted(package / "__init__.py")
        for module in sorted(PACKAGE.rglob("*.py")):
            if module.is_relative_to(package):
                continue
            source = module.read_text(encoding="utf-8")
            if any(m == dotted or m.startswith(dotted + ".") for m in _imported(source, module)):
                # inside another game's package, that game's own private names are its own
                home = next((other for other in engines if module.is_relative_to(other)), None)
                mine = engines[home] if home is not None else frozenset()
                found += _private_reads(source, names - mine, str(module.relative_to(PACKAGE.parent)))
    return found


def test_imports_are_resolved():
    module = PACKAGE / "games" / "heimlich" / "inference" / "belief.py"
    got = _imported("from ..rules.game import Game\nfrom . import model\nimport numpy as np\n", module)
    assert {"heimlich_lab.games.heimlich.rules.game", "heimlich_lab.games.heimlich.rules.game.Game",
            "heimlich_lab.games.heimlich.inference.model", "numpy"} <= got


def test_the_heimlich_game_and_its_private_names_are_found():
    names = _engines()[PACKAGE / "games" / "heimlich" / "rules"]
    # fields and methods the replay needs inside the rules, and that other code once read
    assert {"_phase", "_hands", "_supply", "_owner", "_pidx", "_playable_cards", "_to_act"} <= names
    assert not {"view", "apply", "players", "phase", "__init__"} & names


@pytest.mark.parametrize("source, found", [
    ("def done(g):\n    return g._phase == 'over'\n", ["<source>:2: g._phase"]),
    ("def hand(game, p):\n    x = 1\n    return game._hands[game._pidx[p]]\n",
     ["<source>:3: game._hands", "<source>:3: game._pidx"]),
    ("class A:\n    def f(self):\n        return self._phase\n", []),  # a class's own field
    ("def f(state):\n    return state.engine.view(None).turn\n", []),
])
def test_private_reads_are_reported_with_their_line(source, found):
    assert sorted(_private_reads(source, frozenset({"_phase", "_hands", "_pidx"}))) == found


def test_no_module_outside_the_rules_reads_the_games_private_fields():
    found = _outside_reads()
    assert not found, "private fields of Game read outside its package:\n" + "\n".join(found)
