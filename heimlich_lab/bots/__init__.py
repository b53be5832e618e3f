"""Bots: anything with ``choose(view, legal_actions)`` returning one of the legal actions."""
from .random_bot import RandomBot

__all__ = ["RandomBot"]
