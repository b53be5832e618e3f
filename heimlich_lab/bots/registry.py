"""Bots by name, for the command line and tournaments.

>>> make_bot("random", seed=1)
RandomBot(seed=1)
>>> sorted(available_bots())
['bluff', 'boltzmann', 'greedy', 'random']
>>> available_bots(game="secrets")
['bluff', 'random', 'team']
"""
from __future__ import annotations

from importlib import import_module
from typing import Callable

from ..errors import HeimlichError

#: name -> factory(seed) -> bot. Other modules register their bots here.
BOTS: dict[str, Callable] = {}
#: game -> its bots by name: Heimlich & Co. (``BOTS``) and the second game, Secrets (heimlich_lab/games/secrets/bots.py).
GAME_BOTS: dict[str, dict[str, Callable]] = {"heimlich": BOTS, "secrets": {}}
_PACKAGES = {"heimlich": "heimlich_lab.games.heimlich.bots", "secrets": "heimlich_lab.games.secrets.bots"}


def _bots_of(game: str) -> dict[str, Callable]:
    if game not in GAME_BOTS:
        raise HeimlichError(f"unknown game {game!r}; games are {', '.join(GAME_BOTS)}")
    return GAME_BOTS[game]


def register_bot(name: str, factory: Callable, game: str = "heimlich") -> None:
    """Make a bot available by name: ``factory(seed=...)`` returns a new bot."""
    _bots_of(game)[name] = factory


def make_bot(name: str, seed: int | None = None, game: str = "heimlich"):
    """A new bot by name (``random``, and those other modules register) for ``game``."""
    bots = _load_all(game)
    try:
        factory = bots[name]
    except KeyError:
        where = "" if game == "heimlich" else f" for {game}"
        raise HeimlichError(f"unknown bot {name!r}{where}; bots are {', '.join(sorted(bots))}") from None
    return factory(seed=seed)


def available_bots(game: str = "heimlich") -> list[str]:
    """The names :func:`make_bot` accepts, sorted."""
    return sorted(_load_all(game))


def _load_all(game: str = "heimlich") -> dict[str, Callable]:
    # Importing a game's bots package registers every bot it defines.
    bots = _bots_of(game)
    import_module(_PACKAGES[game])
    return bots


def _random(seed=None):
    from .random_bot import RandomBot
    return RandomBot(seed=seed)


register_bot("random", _random)
