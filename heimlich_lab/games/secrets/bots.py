"""Secrets bots, through the same protocol as the first game's: ``choose(view, legal_actions)``, seeded.

* :class:`~heimlich_lab.bots.RandomBot` (``secrets.RandomBot``): uniform among the legal actions;
* :class:`TeamBot`: keeps an exact :class:`~heimlich_lab.games.secrets.Belief` of its view and maximizes the expected
  utilities of :mod:`heimlich_lab.games.secrets.model` under it: good cards to likely teammates, bad ones to likely
  rivals, accepts by belief, bullets to likely rivals, the Detective's look where it is least sure; as a Hippie
  it aims low (refuses good cards, accepts bad ones);
* :class:`BluffBot`: a TeamBot that, now and then, plays as if its teammates were its rivals, so that a reader of
  its choices is misled (a bluff costs points; see the tests).

>>> from heimlich_lab.games.secrets import play
>>> rec = play([TeamBot(1), BluffBot(2), TeamBot(3), make_bot("random", seed=4)], seed=5)
>>> rec.replay().is_over
True
>>> available_bots()
['bluff', 'random', 'team']
"""
from __future__ import annotations

import random

import numpy as np

from ...bots.random_bot import RandomBot
from ...bots.registry import make_bot as _make_bot, register_bot
from .belief import Belief
from .model import decision_utilities, relations
from .rules import MIDDLE

GAME = "secrets"


class TeamBot:
    """Plays for the team it believes it is on (see the module doc). ``seed`` breaks ties; ``model`` (a
    :class:`~heimlich_lab.games.secrets.model.SecretsModel`, or None) is how its belief reads the others' choices."""

    name = "team"

    def __init__(self, seed: int | None = None, model=None):
        self.seed = seed
        self.model = model
        self._rng = random.Random(seed)
        self._belief: Belief | None = None

    def __repr__(self):
        return f"{type(self).__name__}(seed={self.seed})"

    def _sync(self, view) -> Belief:
        b = self._belief
        if b is None or b.observer != view.viewer or b.players != view.players or b.seen > len(view):
            b = Belief(view.players, view.viewer, view.rules, model=self.model)      # a new game
        b.sync(view)
        self._belief = b
        return b

    def bluffing(self) -> bool:
        """Whether this choice is a bluff (never, for a TeamBot)."""
        return False

    def choose(self, view, legal_actions):
        if len(legal_actions) == 1:
            return legal_actions[0]
        scores = self.scores(view, legal_actions)
        best = max(scores)
        ties = [a for a, s in zip(legal_actions, scores) if s >= best - 1e-9]
        return ties[int(self._rng.random() * len(ties))]

    def scores(self, view, legal_actions) -> list[float]:
        """What :meth:`choose` maximizes, one score per legal action (it picks among the best at random): the
        expected utility under its belief; for a look, the entropy of the slot; for the Diplomat's side, what
        bringing the middle marker matters. A BluffBot draws whether this choice is a bluff here."""
        b = self._sync(view)
        post = b.posterior
        w = post.posterior_vector()
        table = post.space.table
        players = view.players
        me = players.index(view.viewer)
        kind = legal_actions[0].kind
        if kind == "look":                      # the Detective looks where the belief is least sure
            m = post.marginals()[:3]
            ent = -np.where(m > 0, m * np.log(np.where(m > 0, m, 1.0)), 0.0).sum(axis=0)
            scores = [ent[b.slots.index(a.args[0])] for a in legal_actions]
        elif kind == "side":                    # bring the middle marker to the neighbour whose team matters most
            n = len(players)
            friend = w @ relations(table, me)
            pts = view.visible_points
            mid = friend[b.slots.index(MIDDLE)]
            scores = [(mid - friend[players.index(q)]) * (abs(pts[q]) + 1)
                      for q in (players[(me + 1) % n], players[(me - 1) % n])]
        else:
            bullet = next((e.value for e in reversed(view.log_since(max(len(view) - 3, 0)))
                           if e.kind == "bullet"), None)       # the bullet this Assassin just drew
            offer = view.offer or (None, None)
            u = decision_utilities(table, players, me, legal_actions, rules=view.rules, tableaux=view.tableaux,
                                   candidates=view.candidates, offerer=view.active_player, target=offer[1],
                                   bullet=bullet, pretend=self.bluffing())
            scores = list(w @ u)                # expected utility under the belief
        return [float(x) for x in scores]


class BluffBot(TeamBot):
    """A TeamBot that bluffs with probability ``bluff``: it then plays as if its teammates were its rivals."""

    name = "bluff"

    def __init__(self, seed: int | None = None, bluff: float = 0.3, model=None):
        super().__init__(seed, model)
        if not 0 <= bluff <= 1:
            raise ValueError(f"bluff is a probability, not {bluff!r}")
        self.bluff = bluff
        self._bluff_rng = random.Random(None if seed is None else seed + 1)

    def bluffing(self) -> bool:
        return self._bluff_rng.random() < self.bluff


def make_bot(name: str, seed: int | None = None):
    """A new Secrets bot by name: ``random``, ``team`` or ``bluff``."""
    return _make_bot(name, seed=seed, game=GAME)


def available_bots() -> list[str]:
    from ...bots.registry import available_bots as names
    return names(game=GAME)


register_bot("random", lambda seed=None: RandomBot(seed=seed), game=GAME)
register_bot("team", lambda seed=None: TeamBot(seed=seed), game=GAME)
register_bot("bluff", lambda seed=None: BluffBot(seed=seed), game=GAME)
