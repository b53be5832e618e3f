"""The package's layers, checked by reading every import statement (also those inside functions).

    errors  <-  engine, inference  <-  bots, widget  <-  games/heimlich, games/secrets
                                                    <-  analysis  <-  commands  <-  cli

The shared layers know no game: the engine (the contract every game implements, its shared parts and the
registry of games), the game-agnostic inference core, the bot registry, the table controller, the analysis
layer and the commands. Each game is a peer package under ``heimlich_lab/games/`` that builds on them and
imports no other game; the shared layers reach a game only through the registry, which finds it by module
name (the plugin edges, drawn dotted). (Which private fields of a ``Game`` may be read is
tests/test_architecture.py's business; that the core imports alone at run time is
tests/test_inference_core.py's.)
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "heimlich_lab"

#: Helpers every layer may use: the errors, the lazy exports of the package __init__s (PEP 562) and the table
#: of old import paths (heimlich_lab/_compat.py, which serves the games' old paths and names by module name).
_BASE = {"errors", "_lazy", "_compat"}
_SHARED = _BASE | {"engine", "inference", "bots", "widget"}
#: The games (``heimlich_lab.games.<name>``): each may use every shared layer, none another game.
GAMES = ("games.heimlich", "games.secrets", "games.topsecret1985")
#: area -> the other areas it may import. An area is a subpackage or a top-level module of heimlich_lab, a
#: game's package (``games.<name>``) or ``games`` (its __init__, which lists the games the kit ships);
#: "package" is heimlich_lab/__init__.py (the public names, gathered from every layer).
ALLOWED = {
    "errors": set(),
    "_lazy": set(),
    "_compat": {"errors", "engine", "games", *GAMES, "bots", "widget", "inference", "analysis", "commands"},
    "engine": _BASE,                                # the contract, the shared engine parts, the registry
    "inference": _BASE,                             # the game-agnostic core
    "bots": _BASE | {"engine"},                     # the bot registry and RandomBot
    "widget": _BASE | {"engine"},                   # the anywidget and the table controller
    "games": _BASE | {"engine"},
    **{g: _SHARED | {"analysis", "commands"} for g in GAMES},
    "analysis": _SHARED | {"sandbox"},
    "commands": _SHARED | {"analysis", "sandbox"},
    "cli": _BASE | {"commands", "course"},     # course: heimlich-lab grade (course/grading.py)
    "course": _BASE,                                # formative feedback for the course (knows no answer)
    # bots out of process: a worker that sees only its player's view; each game's wire codec comes from the registry
    "sandbox": _BASE | {"engine"},
    "package": _SHARED | set(GAMES) | {"games", "analysis", "commands"},
}
def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    rel = Path(*name.split("."))
    return (PACKAGE.parent / rel).with_suffix(".py").is_file() or (PACKAGE.parent / rel / "__init__.py").is_file()


_MODULE_NAME = re.compile(r"heimlich_lab(\.[a-z_][a-z0-9_]*)+")


def imports_of(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """``(line, module)`` for every heimlich_lab module that ``source`` imports (relative imports resolved;
    ``from X import name`` counts as importing ``X.name`` when that is a module; so does a string that is
    the full name of a module, for ``importlib.import_module``).

    >>> imports_of("from ..bots.registry import make_bot", "heimlich_lab.inference.x")
    [(1, 'heimlich_lab.bots.registry')]
    >>> imports_of("MODULES = ['heimlich_lab.commands.play', 'heimlich_lab.no_such_module']", "heimlich_lab.cli")
    [(1, 'heimlich_lab.commands.play')]
    """
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_NAME.fullmatch(node.value):
            if _is_module(node.value):   # a module imported by name (importlib.import_module)
                found.append((node.lineno, node.value))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((node.lineno, sub if _is_module(sub) else base))
    return sorted({(line, _current(name)) for line, name in found if name.split(".")[0] == "heimlich_lab"})


def _current(name: str) -> str:
    """A module's name now: an old import path (heimlich_lab/_compat.py) is the module it stands for."""
    from heimlich_lab._compat import new_name
    return new_name(name) or name


def area(module: str) -> str:
    """The layer area a module belongs to.

    >>> area("heimlich_lab.inference.core"), area("heimlich_lab.games.secrets.belief"), area("heimlich_lab")
    ('inference', 'games.secrets', 'package')
    """
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "games":
        return f"games.{parts[2]}"
    return parts[1] if len(parts) > 1 else "package"


def layer_violations(files: dict[str, tuple[str, bool]]) -> list[str]:
    """One message per import that runs against the layers; ``files``: module -> (source, is_package)."""
    out = []
    for module, (source, is_package) in sorted(files.items()):
        mine = area(module)
        if mine not in ALLOWED:
            out.append(f"{module}: {mine!r} is not a known layer area: add it to ALLOWED in {Path(__file__).name}")
            continue
        for line, target in imports_of(source, module, is_package):
            theirs = area(target)
            if theirs != mine and theirs not in ALLOWED[mine] and (mine, theirs) not in PLUGIN_EDGES:
                may = ", ".join(sorted(ALLOWED[mine])) or "nothing of heimlich_lab"
                out.append(f"{module} line {line} imports {target}: {mine} may import only {may}")
    return out


def package_sources() -> dict[str, tuple[str, bool]]:
    return {module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for p in sorted(PACKAGE.rglob("*.py")) if "static" not in p.relative_to(PACKAGE).parts}


#: How the picture in docs/architecture.md names the areas.
LABELS = {"inference": "inference (game-agnostic core)", "cli": "cli.py", "games": "games (the list)",
          "games.heimlich": "games/heimlich", "games.secrets": "games/secrets",
          "games.topsecret1985": "games/topsecret1985"}
ARCHITECTURE_DOC = PACKAGE.parent / "docs" / "architecture.md"


def layer_graph(files: dict[str, tuple[str, bool]]) -> nx.DiGraph:
    """area -> area for every import between two areas (the helpers every layer uses left out)."""
    graph = nx.DiGraph()
    for module, (source, is_package) in files.items():
        mine = area(module)
        graph.add_node(mine)
        graph.add_edges_from((mine, area(t)) for _, t in imports_of(source, module, is_package))
    graph.remove_nodes_from(_BASE | {"package"})   # the package's public names come from every layer
    graph.remove_edges_from(nx.selfloop_edges(graph))
    return graph


#: Imports by name that let a lower area find the plugins of a higher one: the registry of games finds each
#: game's package by name. Drawn dotted, and left out of the layer order.
PLUGIN_EDGES = {("engine", "games")}


def _id(area_: str) -> str:
    """A Mermaid node id for an area (no dots)."""
    return area_.replace(".", "_")


def mermaid(files: dict[str, tuple[str, bool]]) -> str:
    """The layers as a Mermaid flowchart: an arrow for each import between areas that no chain of other
    arrows already implies (the transitive reduction), lower layers at the bottom; plugin lookups dotted."""
    graph = layer_graph(files)
    plugins = sorted(e for e in PLUGIN_EDGES if graph.has_edge(*e))
    graph.remove_edges_from(plugins)
    if nx.is_directed_acyclic_graph(graph):
        graph = nx.transitive_reduction(graph)
    lines = ["flowchart BT"]
    lines += [f'    {_id(a)}["{LABELS.get(a, a)}"]' for a in sorted(graph.nodes)]
    lines += [f"    {_id(a)} --> {_id(b)}" for a, b in sorted(graph.edges)]
    lines += [f"    {_id(a)} -.-> {_id(b)}" for a, b in plugins]
    return "\n".join(lines) + "\n"


def test_every_import_follows_the_layers():
    files = package_sources()
    assert "heimlich_lab.inference.core" in files and "heimlich_lab.games.heimlich.rules.game" in files
    assert layer_violations(files) == []


def test_the_package_uses_no_old_import_path():
    """Old paths (heimlich_lab/_compat.py) are for notebooks and older code; the package imports the new ones
    (except heimlich_lab/__init__.py's ``from .play import play``, which keeps ``heimlich_lab.play`` the
    function once the old module path is imported)."""
    from heimlich_lab._compat import new_name
    old = [f"{m} line {line}: {target}" for m, (source, is_package) in package_sources().items()
           for line, target in _raw_imports(source, m, is_package) if new_name(target) and m != "heimlich_lab"]
    assert old == []


def _raw_imports(source, module, is_package):
    global _current
    keep, _current = _current, (lambda name: name)
    try:
        return imports_of(source, module, is_package)
    finally:
        _current = keep


def test_every_area_of_the_package_is_placed():
    assert {area(m) for m in package_sources()} <= set(ALLOWED)
    assert set(GAMES) == {f"games.{p.name}" for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file()}


def test_the_benchmarks_live_in_the_games_they_measure():
    files = package_sources()
    # the only "bench" outside a game is the command that runs them
    assert [m for m in files if m.rpartition(".")[2].startswith("bench") and not area(m).startswith("games.")] == [
        "heimlich_lab.commands.bench"]
    assert {"heimlich_lab.games.heimlich.benchmarks.engine", "heimlich_lab.games.secrets.bench"} <= set(files)


@pytest.mark.parametrize("module, source, expected", [
    ("heimlich_lab.inference.core", "from ..games.heimlich.rules.board import AGENTS\n",
     "heimlich_lab.inference.core line 1 imports heimlich_lab.games.heimlich.rules.board: inference may import "
     "only _compat, _lazy, errors"),
    ("heimlich_lab.games.secrets.belief", "def f():\n    from ...cli import main\n",
     "heimlich_lab.games.secrets.belief line 2 imports heimlich_lab.cli: games.secrets "
     "may import only _compat, _lazy, analysis, bots, commands, engine, errors, inference, widget"),
    ("heimlich_lab.engine.game", "import heimlich_lab.inference.core\n",
     "heimlich_lab.engine.game line 1 imports heimlich_lab.inference.core: engine may import only _compat, _lazy, "
     "errors"),
    ("heimlich_lab.bots.greedy", "from ..analysis import tournament\n",
     "heimlich_lab.bots.greedy line 1 imports heimlich_lab.analysis.tournament: bots may import only _compat, "
     "_lazy, engine, errors"),
    ("heimlich_lab.analysis.x", "from ..commands import bench\n",
     "heimlich_lab.analysis.x line 1 imports heimlich_lab.commands.bench: analysis may import only _compat, _lazy, "
     "bots, engine, errors, inference, sandbox, widget"),
    ("heimlich_lab.sandbox.wire", "from ..games.secrets.wire import Follower\n",
     "heimlich_lab.sandbox.wire line 1 imports heimlich_lab.games.secrets.wire: sandbox may import only _compat, "
     "_lazy, engine, errors"),
    ("heimlich_lab.widget.x", "from ..commands import play\n",
     "heimlich_lab.widget.x line 1 imports heimlich_lab.commands.play: widget may import only _compat, _lazy, "
     "engine, errors"),
])
def test_an_upward_or_sideways_import_is_reported(module, source, expected):
    assert layer_violations({module: (source, False)}) == [expected]


def test_imports_within_a_layer_and_downward_pass():
    files = {"heimlich_lab.games.heimlich.bots.x": ("from ..rules.game import Game\nfrom ..inference import belief\n"
                                                    "from ....bots.registry import make_bot\nimport numpy\n", False),
             "heimlich_lab.inference": ("from .core import Posterior\nfrom .mixture import TypedPosterior\n", True)}
    assert layer_violations(files) == []
    assert [t for _, t in imports_of(files["heimlich_lab.inference"][0], "heimlich_lab.inference", True)] == [
        "heimlich_lab.inference.core", "heimlich_lab.inference.mixture"]


def test_an_unknown_area_must_be_placed():
    assert layer_violations({"heimlich_lab.newthing.x": ("", False)}) == [
        "heimlich_lab.newthing.x: 'newthing' is not a known layer area: add it to ALLOWED in "
        "test_architecture_layers.py"]


def test_the_picture_of_the_layers_is_the_code():
    """docs/architecture.md's diagram is drawn from the imports; redraw it with
    ``python tests/test_architecture_layers.py --write`` when the layers change."""
    files = package_sources()
    graph = layer_graph(files)
    graph.remove_edges_from(PLUGIN_EDGES)
    assert nx.is_directed_acyclic_graph(graph), list(nx.simple_cycles(graph))
    assert {("games.heimlich", "inference"), ("games.secrets", "inference")} <= set(
        nx.transitive_closure(graph).edges)
    block = re.search(r"```mermaid\n(.*?)```", ARCHITECTURE_DOC.read_text(encoding="utf-8"), re.S)
    assert block, "docs/architecture.md has a mermaid diagram"
    assert block.group(1) == mermaid(files), "redraw: python tests/test_architecture_layers.py --write"


def test_the_picture_leaves_out_implied_arrows():
    files = {"heimlich_lab.engine.game": ("from ..errors import IllegalAction\n", False),
             "heimlich_lab.bots.registry": ("from ..engine.game import Game\n", False),
             "heimlich_lab.games.heimlich.bots.x": ("from ....engine.game import Game\nfrom ....bots import registry\n",
                                                    False)}
    assert mermaid(files) == ('flowchart BT\n    bots["bots"]\n    engine["engine"]\n'
                              '    games_heimlich["games/heimlich"]\n'
                              "    bots --> engine\n    games_heimlich --> bots\n")


def write_diagram() -> None:
    """Put the current diagram into docs/architecture.md."""
    text = ARCHITECTURE_DOC.read_text(encoding="utf-8")
    new = re.sub(r"```mermaid\n.*?```", lambda m: f"```mermaid\n{mermaid(package_sources())}```", text, count=1,
                 flags=re.S)
    ARCHITECTURE_DOC.write_text(new, encoding="utf-8")


if __name__ == "__main__":   # python tests/test_architecture_layers.py [--write]: the diagram of the layers
    import sys
    if sys.argv[1:] == ["--write"]:
        write_diagram()
    else:
        print(mermaid(package_sources()), end="")
