"""Heimlich & Co.'s bots (anything with ``choose(view, legal_actions)`` returning one of the legal actions),
registered by name for this game when this package is imported (its spec names it): ``random`` (every
game's), ``greedy``, ``boltzmann``, ``bluff`` and ``hider`` (a careful player who hides).

Bots see only ``game.view(player)`` (the information rule) and take a seed.

>>> from heimlich_lab.bots import make_bot
>>> make_bot("boltzmann", seed=3).__class__.__name__
'BoltzmannBot'
"""
from ....bots.random_bot import RandomBot
from ....bots.registry import available_bots, make_bot, register_bot
from .bluff import BluffBot, HiderBot
from .model_bots import BoltzmannBot, GreedyBot

GAME = "heimlich"
register_bot("greedy", lambda seed=None: GreedyBot(seed=seed), game=GAME)
register_bot("boltzmann", lambda seed=None: BoltzmannBot(seed=seed), game=GAME)
register_bot("bluff", lambda seed=None: BluffBot(seed=seed), game=GAME)
register_bot("hider", lambda seed=None: HiderBot(seed=seed), game=GAME)

__all__ = ["BluffBot", "BoltzmannBot", "GreedyBot", "HiderBot", "RandomBot", "available_bots", "make_bot",
           "register_bot"]
