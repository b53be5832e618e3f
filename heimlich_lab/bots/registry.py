"""Bots by name, for the command line and tournaments.

>>> make_bot("random", seed=1)
RandomBot(seed=1)
>>> sorted(available_bots())
['bluff', 'boltzmann', 'greedy', 'random']
"""
from __future__ import annotations

from typing import Callable

from ..errors import HeimlichError

#: name -> factory(seed) -> bot. Other modules register their bots here.
BOTS: dict[str, Callable] = {}


def register_bot(name: str, factory: Callable) -> None:
    """Make a bot available by name: ``factory(seed=...)`` returns a new bot."""
    BOTS[name] = factory


def make_bot(name: str, seed: int | None = None):
    """A new bot by name (``random``, and those other modules register)."""
    _load_all()
    try:
        factory = BOTS[name]
    except KeyError:
        raise HeimlichError(f"unknown bot {name!r}; bots are {', '.join(sorted(BOTS))}") from None
    return factory(seed=seed)


def available_bots() -> list[str]:
    """The names :func:`make_bot` accepts, sorted."""
    _load_all()
    return sorted(BOTS)


def _load_all():
    # Importing the bots package registers every bot it defines.
    from .. import bots  # noqa: F401


def _random(seed=None):
    from .random_bot import RandomBot
    return RandomBot(seed=seed)


register_bot("random", _random)
