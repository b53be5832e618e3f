"""Top Secret bots, through the protocol every game's bots keep: ``choose(view, legal_actions)``, seeded.

* :class:`~heimlich_lab.bots.RandomBot` (``topsecret1985.RandomBot``, ``random``): uniform among the legal
  actions, duel cards included;
* :class:`RunnerBot` (``runner``): a plain courier that measures how long games last on a map (bench.py): each
  agent it moves heads for the nearest suitcase that is not its own bomb (an opponent's first), picks it up and
  carries it home by the shortest path; duel cards, placements and bomb victims at random. It reads only its
  view (its own contents, the public board).

>>> from heimlich_lab.games.topsecret1985 import play
>>> play([make_bot("random", seed=1), make_bot("runner", seed=2)], seed=5).replay().is_over
True
>>> available_bots()
['random', 'runner']
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...bots.random_bot import RandomBot
from ...bots.registry import make_bot as _make_bot, register_bot
from .actions import Action, suitcase_owner
from .map import Map

__all__ = ["GAME", "RandomBot", "RunnerBot", "available_bots", "make_bot"]

GAME = "topsecret1985"


class RunnerBot:
    """A plain courier (see the module doc). Seeded."""

    name = "runner"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"RunnerBot(seed={self.seed})"

    def _wanted(self, view: Any, suitcase: str) -> float:
        """How much the bot wants a suitcase: an opponent's 2, its own 1 (its own bomb: never)."""
        me = view.viewer
        if suitcase_owner(suitcase) == me:
            return -1.0 if (view.contents or {}).get(suitcase[-1]) == "bomb" else 1.0
        return 2.0

    def _score(self, view: Any, a: Action) -> float:
        m: Map = view.map
        me = view.viewer
        if a.kind == "step":
            agent, z = a.args
            held = view.carrying[agent]
            if m.kind[z] == "arrival":
                return 100.0
            x = view.agents[agent]
            if held is not None and self._wanted(view, held) > 0:
                home = m.arrival[view.corners[me]]
                return 10.0 * (m.distance(home, x) - m.distance(home, z))
            targets = [c for s, c in view.suitcases.items() if c is not None and self._wanted(view, s) > 0]
            if not targets:
                return 0.0
            return 10.0 * (min(m.distance(c, x) for c in targets) - min(m.distance(c, z) for c in targets))
        if a.kind == "pick":
            return 50.0 * self._wanted(view, a.args[1])
        if a.kind == "drop":
            held = view.carrying[a.args[0]]
            return 40.0 if held is not None and self._wanted(view, held) < 0 else -50.0
        if a.kind == "end":
            return -1.0
        return 0.0

    def choose(self, view: Any, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        kind = legal_actions[0].kind
        if kind in ("contents", "place", "card", "eliminate", "leave", "take"):
            return legal_actions[int(self._rng.random() * len(legal_actions))]
        scores = [self._score(view, a) + self._rng.random() * 1e-3 for a in legal_actions]
        return legal_actions[max(range(len(scores)), key=scores.__getitem__)]


def make_bot(name: str, seed: int | None = None) -> Any:
    """A new Top Secret bot by name."""
    return _make_bot(name, seed=seed, game=GAME)


def available_bots() -> list[str]:
    from ...bots.registry import available_bots as names
    return names(game=GAME)


register_bot("random", lambda seed=None: RandomBot(seed=seed), game=GAME)
register_bot("runner", lambda seed=None: RunnerBot(seed=seed), game=GAME)
