"""Bots: anything with ``choose(view, legal_actions)`` returning one of the legal actions.

Bots see only ``game.view(player)`` (the information rule) and take a seed.

>>> from heimlich_lab.bots import make_bot
>>> make_bot("boltzmann", seed=3).__class__.__name__
'BoltzmannBot'
"""
from .bluff import BluffBot
from .model_bots import BoltzmannBot, GreedyBot
from ....bots.random_bot import RandomBot
from ....bots.registry import BOTS, available_bots, make_bot, register_bot

register_bot("greedy", lambda seed=None: GreedyBot(seed=seed))
register_bot("boltzmann", lambda seed=None: BoltzmannBot(seed=seed))
register_bot("bluff", lambda seed=None: BluffBot(seed=seed))

__all__ = ["BluffBot", "BoltzmannBot", "GreedyBot", "RandomBot", "BOTS", "available_bots", "make_bot",
           "register_bot"]
