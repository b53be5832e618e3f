"""Bots: anything with ``choose(view, legal_actions)`` returning one of the legal actions, in any game.

Bots see only ``game.view(player)`` (the information rule) and take a seed. This package holds what every
game shares: the registry of bots by name (:mod:`~heimlich_lab.bots.registry`, each game's bots registered
by its own package) and :class:`RandomBot`. Each game's own bots live in its package
(``heimlich_lab/games/<game>/``).

>>> from heimlich_lab.bots import make_bot
>>> make_bot("boltzmann", seed=3).__class__.__name__
'BoltzmannBot'
"""
from .._compat import legacy_exports
from .random_bot import RandomBot
from .registry import available_bots, make_bot, register_bot

__all__ = ["RandomBot", "available_bots", "make_bot", "register_bot"]

# the first game's bots, which this package exported before the games moved (heimlich_lab/_compat.py)
__getattr__, __dir__ = legacy_exports(__name__, globals())
