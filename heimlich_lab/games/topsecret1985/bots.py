"""Top Secret bots, through the protocol every game's bots keep: ``choose(view, legal_actions)``, seeded.

* :class:`~heimlich_lab.bots.RandomBot` (``topsecret1985.RandomBot``, ``random``): uniform among the legal
  actions, duel cards included.

>>> from heimlich_lab.games.topsecret1985 import play
>>> play([make_bot("random", seed=1), make_bot("random", seed=2)], seed=5).replay().is_over
True
>>> available_bots()
['random']
"""
from __future__ import annotations

from typing import Any

from ...bots.random_bot import RandomBot
from ...bots.registry import make_bot as _make_bot, register_bot

__all__ = ["GAME", "RandomBot", "available_bots", "make_bot"]

GAME = "topsecret1985"


def make_bot(name: str, seed: int | None = None) -> Any:
    """A new Top Secret bot by name."""
    return _make_bot(name, seed=seed, game=GAME)


def available_bots() -> list[str]:
    from ...bots.registry import available_bots as names
    return names(game=GAME)


register_bot("random", lambda seed=None: RandomBot(seed=seed), game=GAME)
