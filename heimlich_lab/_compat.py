"""Old import paths that still work: the games moved into ``heimlich_lab/games/`` (issue 22), and what the
notebooks, the README and earlier code import keeps working through this one table.

* A moved module is an alias of its new home, the same module object (``heimlich_lab.rules.game`` *is*
  ``heimlich_lab.games.heimlich.rules.game``): :data:`MOVED` maps the old name to the new one, and a
  package's entry covers its submodules too.
* A shared package that used to export a game's names (``from heimlich_lab.bots import BoltzmannBot``) finds
  them through :data:`EXPORTS` (:func:`legacy_exports`), when first asked for.

>>> import heimlich_lab.rules.game as old, heimlich_lab.games.heimlich.rules.game as new
>>> old is new
True
>>> from heimlich_lab.bots import BoltzmannBot
>>> BoltzmannBot.__module__
'heimlich_lab.games.heimlich.bots.model_bots'

New code imports from the new places; this module is the only one that names the old ones.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Callable

_H = "heimlich_lab.games.heimlich"
_S = "heimlich_lab.games.secrets"

#: old module -> its new home. A package's entry covers its submodules (``heimlich_lab.rules.board`` ->
#: ``heimlich_lab.games.heimlich.rules.board``); the longest matching entry wins.
MOVED: dict[str, str] = {
    "heimlich_lab.rules": f"{_H}.rules",
    "heimlich_lab.rules.words": "heimlich_lab.engine.words",
    "heimlich_lab.secrets": _S,
    "heimlich_lab.topsecret1985": "heimlich_lab.games.topsecret1985",   # the third game's public name, as secrets'
    "heimlich_lab.adapters": f"{_H}.adapters",
    "heimlich_lab.benchmarks": f"{_H}.benchmarks",
    "heimlich_lab.benchmarks.secrets": f"{_S}.bench",
    "heimlich_lab.transcript": f"{_H}.transcript",
    "heimlich_lab.svg": f"{_H}.svg",
    "heimlich_lab.play": f"{_H}.play",
    "heimlich_lab.commands.secrets": f"{_S}.cli",
    "heimlich_lab.analysis.beliefs": f"{_H}.analysis",
    **{f"heimlich_lab.inference.{m}": f"{_H}.inference.{m}" for m in (
        "baselines", "belief", "belief_set", "dossier", "exposure", "fit", "likelihoods", "model", "player_types",
        "population", "utility", "wording")},
    **{f"heimlich_lab.bots.{m}": f"{_H}.bots.{m}" for m in ("bluff", "model_bots", "type_bot", "dossier")},
    **{f"heimlich_lab.widget.{m}": f"{_H}.widget.{m}" for m in (
        "board", "game_controller", "panel", "replay_controller", "state")},
    "heimlich_lab.widget.voila_app": "heimlich_lab.commands.voila_app",
}

#: shared module -> {name it used to export: the module that defines it now (``"module:name"`` if renamed)}
EXPORTS: dict[str, dict[str, str]] = {
    "heimlich_lab.analysis": {
        **dict.fromkeys(["parse_variant", "BeliefEvaluator"], f"{_H}.analysis"),
        "SecretsBeliefEvaluator": f"{_S}.analysis"},
    "heimlich_lab.analysis.grid": {
        **dict.fromkeys(["VARIANTS", "VARIANT_OPTIONS", "rules_label", "parse_variant"], f"{_H}.analysis"),
        **dict.fromkeys(["secrets_rules_label", "parse_secrets_variant"], f"{_S}.analysis")},
    "heimlich_lab.analysis.storage": {"COLUMNS": f"{_H}.analysis", "SECRETS_COLUMNS": f"{_S}.analysis:COLUMNS"},
    "heimlich_lab.analysis.tournament": {"COLUMNS": f"{_H}.analysis"},
    "heimlich_lab.commands.common": {
        **dict.fromkeys(["add_rules_arguments", "rules_from"], f"{_H}.cli")},
    "heimlich_lab.commands.evaluate": {
        name: f"{_H}.evaluate" for name in (
            "evaluate", "evaluate_populations", "score_game", "check_targets", "population", "POPULATIONS",
            "lineup", "plot_reliability", "run_populations", "METHODS", "METRICS")},
    "heimlich_lab.bots": {
        "BOTS": "heimlich_lab.bots.registry",
        **dict.fromkeys(["BluffBot"], f"{_H}.bots.bluff"),
        **dict.fromkeys(["BoltzmannBot", "GreedyBot"], f"{_H}.bots.model_bots"),
    },
    "heimlich_lab.widget": {
        **dict.fromkeys(["GameController", "ReplayController", "play_in_notebook", "replay_in_notebook",
                         "BoardWidget"], f"{_H}.widget.board"),
        "board_state": f"{_H}.widget.state",
    },
    "heimlich_lab.inference": {
        "Belief": f"{_H}.inference.belief",
        "BeliefSet": f"{_H}.inference.belief_set",
        **dict.fromkeys(["IndependentBelief", "PointsShareBelief"], f"{_H}.inference.baselines"),
        **dict.fromkeys(["best_matching_sheet", "dossier_notes", "expected_correct", "secret_dossier"],
                        f"{_H}.inference.dossier"),
        "fit_boltzmann": f"{_H}.inference.fit",
        **dict.fromkeys(["BoltzmannModel", "PlayerModel"], f"{_H}.inference.model"),
        **dict.fromkeys(["PlayerPopulation", "PlayerType", "default_population"], f"{_H}.inference.player_types"),
        "fit_population": f"{_H}.inference.population",
    },
}


def new_name(old: str) -> str | None:
    """Where the module once called ``old`` lives now (``None``: it did not move).

    >>> new_name("heimlich_lab.rules.replay"), new_name("heimlich_lab.inference.core")
    ('heimlich_lab.games.heimlich.rules.replay', None)
    """
    best = max((k for k in MOVED if old == k or old.startswith(k + ".")), key=len, default=None)
    return None if best is None else MOVED[best] + old[len(best):]


class _ExportsWin(types.ModuleType):
    """A package whose exported names are not replaced by a submodule of the same name that an old import path
    loads late (``import heimlich_lab.play`` keeps ``heimlich_lab.play`` the function)."""

    def __setattr__(self, name: str, value) -> None:
        if isinstance(value, types.ModuleType) and not isinstance(self.__dict__.get(name, value), types.ModuleType):
            return
        super().__setattr__(name, value)


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        # the import system hands out whatever sys.modules holds under the old name once this returns
        sys.modules[module.__name__] = importlib.import_module(self.target)
        # ... and then sets it as an attribute of the old parent, which may export a name of the same spelling
        # (``heimlich_lab.play`` the function, ``heimlich_lab.play`` the old module): the export wins
        parent = sys.modules.get(module.__name__.rpartition(".")[0])
        if parent is not None and type(parent) is types.ModuleType:
            parent.__class__ = _ExportsWin

    def get_code(self, fullname):
        # ``python -m <old name>`` (runpy) runs the new module's code
        import importlib.util
        return importlib.util.find_spec(self.target).loader.get_code(self.target)


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Finds an old module name as an alias of the module's new home (see :data:`MOVED`)."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("heimlich_lab."):
            return None
        new = new_name(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


def install() -> None:
    """Put the alias finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())


def legacy_exports(module: str, namespace: dict) -> tuple[Callable, Callable]:
    """``__getattr__`` and ``__dir__`` for the shared package ``module`` that serve its old exports
    (:data:`EXPORTS`); names of its own come first.

    >>> ns = {"__name__": "heimlich_lab.bots"}
    >>> getattr_, dir_ = legacy_exports("heimlich_lab.bots", ns)
    >>> getattr_("GreedyBot").__name__, "GreedyBot" in dir_()
    ('GreedyBot', True)
    """
    exports = EXPORTS.get(module, {})

    def __getattr__(name: str):
        if name in exports:
            where, _, attribute = exports[name].partition(":")
            value = getattr(importlib.import_module(where), attribute or name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    return __getattr__, __dir__
