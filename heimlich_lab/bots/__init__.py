"""Bots: anything with ``choose(view, legal_actions)`` returning one of the legal actions.

Bots see only ``game.view(player)`` (the information rule) and take a seed.
"""
from .random_bot import RandomBot
from .registry import BOTS, make_bot, register_bot

__all__ = ["RandomBot", "BOTS", "make_bot", "register_bot"]
