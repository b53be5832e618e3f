"""Bots by name, per game, for the command line and tournaments.

Each game's spec (:mod:`heimlich_lab.engine.registry`) names the module that registers its bots
(:func:`register_bot`); it is imported the first time that game's bots are asked for. The game-agnostic
:class:`~heimlich_lab.bots.random_bot.RandomBot` is ``random`` in every game.

>>> make_bot("random", seed=1)
RandomBot(seed=1)
>>> sorted(available_bots())
['bluff', 'boltzmann', 'greedy', 'hider', 'random']
>>> available_bots(game="secrets")
['bluff', 'random', 'team']
"""
from __future__ import annotations

from importlib import import_module
from typing import Callable

from ..engine.registry import default_game, game_spec
from ..errors import HeimlichError

#: game -> its bots by name (factory(seed) -> bot); filled by each game's bots module.
GAME_BOTS: dict[str, dict[str, Callable]] = {}


def _random(seed=None):
    from .random_bot import RandomBot
    return RandomBot(seed=seed)


def _bots_of(game: str | None) -> dict[str, Callable]:
    name = game_spec(game).name       # an unknown game: HeimlichError naming the games
    return GAME_BOTS.setdefault(name, {"random": _random})


def register_bot(name: str, factory: Callable, game: str | None = None) -> None:
    """Make a bot available by name for ``game`` (``None``: the default game): ``factory(seed=...)`` returns
    a new bot."""
    _bots_of(game)[name] = factory


def make_bot(name: str, seed: int | None = None, game: str | None = None):
    """A new bot by name (``random``, and those the game's bots module registers) for ``game``."""
    bots = _load_all(game)
    try:
        factory = bots[name]
    except KeyError:
        spec = game_spec(game)
        where = "" if spec.name == default_game() else f" for {spec.name}"
        raise HeimlichError(f"unknown bot {name!r}{where}; bots are {', '.join(sorted(bots))}") from None
    return factory(seed=seed)


def available_bots(game: str | None = None) -> list[str]:
    """The names :func:`make_bot` accepts for ``game``, sorted."""
    return sorted(_load_all(game))


def _load_all(game: str | None = None) -> dict[str, Callable]:
    # Importing a game's bots module registers every bot it defines.
    bots = _bots_of(game)
    import_module(game_spec(game).bots)
    return bots


def __getattr__(name: str):
    if name == "BOTS":   # the first game's bots, as this module once kept them
        return _bots_of(None)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
