"""The random bot: a uniform choice among the legal actions."""
from __future__ import annotations

import random


class RandomBot:
    """Chooses uniformly at random among the legal actions. Seeded.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob"], seed=1)
    >>> a = RandomBot(seed=7).choose(g.view(g.current_player), g.legal_actions())
    >>> a in g.legal_actions()
    True
    """

    name = "random"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, view, legal_actions):
        return legal_actions[int(self._rng.random() * len(legal_actions))]

    def __repr__(self):
        return f"RandomBot(seed={self.seed})"
