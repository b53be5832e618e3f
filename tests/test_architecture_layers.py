"""The package's layers, checked by reading every import statement (also those inside functions).

    rules  <-  inference  <-  bots  <-  analysis, widget, commands, adapters, benchmarks

Each layer imports only the layers below it, so a layer can be read, tested and reused without
the ones above: the rules know nothing of beliefs, the beliefs nothing of bots, and the
game-agnostic core (``inference/core.py`` and its independent foil) nothing of Heimlich at all.
(Which private fields of ``Game`` may be read is tests/test_architecture.py's business; that the
core imports alone at run time is tests/test_inference_core.py's.)
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "heimlich_lab"

#: The game-agnostic core: modules of inference that must not know the game.
CORE = ("heimlich_lab.inference.core", "heimlich_lab.inference.independent", "heimlich_lab.inference.mixture",
        "heimlich_lab.inference.reader", "heimlich_lab.inference.transition")

#: Helpers every layer may use: the errors, and the lazy exports of the package __init__s (PEP 562).
_BASE = {"errors", "_lazy"}
_BELOW_APPS = _BASE | {"rules", "play", "inference", "core", "bots", "transcript", "secrets", "svg", "sandbox"}
#: area -> the other areas it may import. An area is a subpackage or a top-level module of heimlich_lab;
#: "core" is CORE, "package" is heimlich_lab/__init__.py (the public names, gathered from every layer).
ALLOWED = {
    "errors": set(),
    "_lazy": set(),
    "core": {"errors"},
    "rules": _BASE,
    "play": _BASE | {"rules"},                      # plays a game between any objects with choose()
    "inference": _BASE | {"rules", "core"},
    "transcript": _BASE | {"rules", "inference", "core"},
    "svg": _BASE | {"rules"},                      # static pictures of a position (a belief is duck-typed)
    "bots": _BASE | {"rules", "play", "inference", "core", "secrets"},   # the registry names every game's bots
    # the second game, beside the first, with its own belief, bots and board (which may reuse the first's widget)
    "secrets": _BASE | {"rules", "play", "inference", "core", "bots", "transcript", "widget"},
    "analysis": _BELOW_APPS,
    "adapters": _BELOW_APPS,
    "widget": _BELOW_APPS,
    "benchmarks": _BELOW_APPS | {"analysis", "widget", "adapters"},
    "commands": _BELOW_APPS | {"analysis", "widget", "adapters", "benchmarks"},
    "cli": _BELOW_APPS | {"commands", "course"},    # course: heimlich-lab grade (course/grading.py)
    "course": _BASE,                                # formative feedback for the course (knows no answer)
    # bots out of process: a worker process that sees only its player's record (the rules' records and replay)
    "sandbox": _BASE | {"rules", "secrets"},
    "package": _BELOW_APPS | {"widget", "analysis", "adapters"},
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
    return sorted({(line, name) for line, name in found if name.split(".")[0] == "heimlich_lab"})


def area(module: str) -> str:
    """The layer area a module belongs to.

    >>> area("heimlich_lab.inference.core"), area("heimlich_lab.inference.belief"), area("heimlich_lab")
    ('core', 'inference', 'package')
    """
    if module in CORE:
        return "core"
    parts = module.split(".")
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
            if theirs != mine and theirs not in ALLOWED[mine]:
                may = ", ".join(sorted(ALLOWED[mine])) or "nothing of heimlich_lab"
                out.append(f"{module} line {line} imports {target}: {mine} may import only {may}")
    return out


def package_sources() -> dict[str, tuple[str, bool]]:
    return {module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for p in sorted(PACKAGE.rglob("*.py")) if "static" not in p.relative_to(PACKAGE).parts}


#: How the picture in docs/architecture.md names the areas.
LABELS = {"core": "inference/core (game-agnostic)", "play": "play.py",
          "transcript": "transcript.py", "cli": "cli.py", "svg": "svg.py"}
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


#: Imports by name that let a lower area find the plugins of a higher one: the bot registry loads each
#: game's bots (heimlich_lab.secrets.bots) when asked for them. Drawn dotted, and left out of the layer order.
PLUGIN_EDGES = {("bots", "secrets")}


def mermaid(files: dict[str, tuple[str, bool]]) -> str:
    """The layers as a Mermaid flowchart: an arrow for each import between areas that no chain of other
    arrows already implies (the transitive reduction), lower layers at the bottom; plugin lookups dotted."""
    graph = layer_graph(files)
    plugins = sorted(e for e in PLUGIN_EDGES if graph.has_edge(*e))
    graph.remove_edges_from(plugins)
    if nx.is_directed_acyclic_graph(graph):
        graph = nx.transitive_reduction(graph)
    lines = ["flowchart BT"]
    lines += [f'    {a}["{LABELS.get(a, a)}"]' for a in sorted(graph.nodes)]
    lines += [f"    {a} --> {b}" for a, b in sorted(graph.edges)]
    lines += [f"    {a} -.-> {b}" for a, b in plugins]
    return "\n".join(lines) + "\n"


def test_every_import_follows_the_layers():
    files = package_sources()
    assert "heimlich_lab.inference.core" in files and "heimlich_lab.rules.game" in files
    assert layer_violations(files) == []


def test_the_benchmarks_live_above_what_they_measure():
    files = package_sources()
    # the only other "bench" is the command that runs them
    assert [m for m in files if m.rpartition(".")[2].startswith("bench") and area(m) != "benchmarks"] == [
        "heimlich_lab.commands.bench"]
    assert {"heimlich_lab.benchmarks.engine", "heimlich_lab.benchmarks.belief"} <= set(files)


@pytest.mark.parametrize("module, source, expected", [
    ("heimlich_lab.inference.belief", "def f():\n    from ..bots.model_bots import BoltzmannBot\n",
     "heimlich_lab.inference.belief line 2 imports heimlich_lab.bots.model_bots: inference may import only "
     "_lazy, core, errors, rules"),
    ("heimlich_lab.rules.game", "import heimlich_lab.inference.core\n",
     "heimlich_lab.rules.game line 1 imports heimlich_lab.inference.core: rules may import only _lazy, errors"),
    ("heimlich_lab.inference.core", "from . import belief\n",
     "heimlich_lab.inference.core line 1 imports heimlich_lab.inference.belief: core may import only errors"),
    ("heimlich_lab.inference.core", "from heimlich_lab.rules.board import AGENTS\n",
     "heimlich_lab.inference.core line 1 imports heimlich_lab.rules.board: core may import only errors"),
    ("heimlich_lab.bots.greedy", "from ..analysis import tournament\n",
     "heimlich_lab.bots.greedy line 1 imports heimlich_lab.analysis.tournament: bots may import only _lazy, core, "
     "errors, inference, play, rules, secrets"),
    ("heimlich_lab.analysis.x", "from ..commands import bench\n",
     "heimlich_lab.analysis.x line 1 imports heimlich_lab.commands.bench: analysis may import only _lazy, bots, "
     "core, errors, inference, play, rules, sandbox, secrets, svg, transcript"),
])
def test_an_upward_import_is_reported(module, source, expected):
    assert layer_violations({module: (source, False)}) == [expected]


def test_imports_within_a_layer_and_downward_pass():
    files = {"heimlich_lab.bots.x": ("from ..rules.game import Game\nfrom ..inference import belief\n"
                                     "from .registry import make_bot\nimport numpy\n", False),
             "heimlich_lab.inference": ("from .core import Posterior\nfrom .belief import Belief\n", True)}
    assert layer_violations(files) == []
    assert [t for _, t in imports_of(files["heimlich_lab.inference"][0], "heimlich_lab.inference", True)] == [
        "heimlich_lab.inference.core", "heimlich_lab.inference.belief"]


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
    assert {("inference", "rules"), ("bots", "inference")} <= set(nx.transitive_closure(graph).edges)
    block = re.search(r"```mermaid\n(.*?)```", ARCHITECTURE_DOC.read_text(encoding="utf-8"), re.S)
    assert block, "docs/architecture.md has a mermaid diagram"
    assert block.group(1) == mermaid(files), "redraw: python tests/test_architecture_layers.py --write"


def test_the_picture_leaves_out_implied_arrows():
    files = {"heimlich_lab.rules.game": ("from ..errors import IllegalAction\n", False),
             "heimlich_lab.inference.belief": ("from ..rules.game import Game\n", False),
             "heimlich_lab.bots.greedy": ("from ..rules.game import Game\nfrom ..inference import belief\n", False)}
    assert mermaid(files) == ('flowchart BT\n    bots["bots"]\n    inference["inference"]\n    rules["rules"]\n'
                              "    bots --> inference\n    inference --> rules\n")


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
