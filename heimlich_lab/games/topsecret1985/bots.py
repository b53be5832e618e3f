"""Top Secret bots, through the protocol every game's bots keep: ``choose(view, legal_actions)``, seeded.

* :class:`~heimlich_lab.bots.RandomBot` (``topsecret1985.RandomBot``, ``random``): uniform among the legal
  actions, duel cards included;
* :class:`RunnerBot` (``runner``): a plain courier that measures how long games last on a map (bench.py): each
  agent it moves heads for the nearest suitcase that is not its own bomb (an opponent's first), picks it up and
  carries it home by the shortest path; duel cards, placements and bomb victims at random. It reads only its
  view (its own contents, the public board).
* :class:`TypeBot`: plays as one type of the belief's population (``careful``, ``careful-loose``,
  ``careful-sharp``, ``bluffer``): it steals what is likely worth stealing, carries its own 5 home, leaves its bomb
  where it lies (the bluffer plants it where enemies pass), and mixes its duel cards by
  :func:`~heimlich_lab.games.topsecret1985.duel.duel_equilibrium`.

>>> from heimlich_lab.games.topsecret1985 import play
>>> play([make_bot("random", seed=1), make_bot("runner", seed=2)], seed=5).replay().is_over
True
>>> available_bots()
['bluffer', 'careful', 'careful-loose', 'careful-sharp', 'random', 'runner']
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...bots.random_bot import RandomBot
from ...bots.registry import make_bot as _make_bot, register_bot
from ...engine.game import check_seed, new_seed
from ...errors import ModelError
from .actions import Action, agent_owner, suitcase_owner
from .duel import DuelValues, duel_equilibrium
from .map import Map
from .model import DEFAULT_TYPES, PlayerType, Population, decision_table, filling_index

__all__ = ["GAME", "RandomBot", "RunnerBot", "TypeBot", "available_bots", "make_bot"]

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
                return 10.0 * float(m.distance(home, x) - m.distance(home, z))
            targets = [c for s, c in view.suitcases.items() if c is not None and self._wanted(view, s) > 0]
            if not targets:
                return 0.0
            return 10.0 * float(min(m.distance(c, x) for c in targets) - min(m.distance(c, z) for c in targets))
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


class TypeBot:
    """A bot that plays as one player type of the belief's population (:mod:`.model`): it prices its options
    with its own contents and picks one with probability ``exp(beta U) / sum exp(beta U)``, so the belief can
    read it exactly. Duel cards come from :func:`~.duel.duel_equilibrium` over the public remaining cards
    (looking two duels ahead); it hides its cards in a uniformly random filling and loses bombed agents
    farthest from home first. Seeded.

    >>> from heimlich_lab.games.topsecret1985 import Game
    >>> g = Game(["Ann", "Bob"], seed=2)
    >>> bot = TypeBot("careful", seed=1)
    >>> bot.choose(g.view(g.current_player), g.legal_actions()) in g.legal_actions()
    True
    """

    def __init__(self, player_type: str | PlayerType = "careful", seed: int | None = None,
                 population: Population | None = None):
        pop = Population.default() if population is None else population
        kind = pop.types[pop.index(player_type)] if isinstance(player_type, str) else player_type
        if not isinstance(kind, PlayerType):
            raise ModelError(f"player_type must be a type name or a PlayerType, not {player_type!r}")
        self.player_type = kind
        self._alone = Population((kind,))
        self.name = kind.name
        self.seed = new_seed() if seed is None else check_seed(seed)
        self._rng = random.Random(self.seed)

    def choose(self, view: Any, legal_actions: Sequence[Action]) -> Action:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        kind = legal[0].kind
        if kind == "card":
            return self._duel_card(view, legal)
        table = decision_table(view, legal)
        if table is None:
            if kind == "eliminate":
                return self._victim(view, legal)
            return legal[int(self._rng.random() * len(legal))]
        p = np.exp(self._alone.log_probabilities(table)[0, filling_index(view.contents)])
        return legal[_draw(self._rng.random(), p)]

    def _duel_card(self, view: Any, legal: list[Action]) -> Action:
        duel = view.duel
        me = view.viewer
        attacker = agent_owner(duel["attacker"])
        other = agent_owner(duel["defender"]) if attacker == me else attacker
        solution = duel_equilibrium(view.hands[me], view.hands[other], DuelValues(aggressor=attacker == me),
                                    duels=2)
        cards = list(solution.mine)
        card = cards[_draw(self._rng.random(), np.array([solution.mine[c] for c in cards]))]
        return next(a for a in legal if a.args[0] == card)

    def _victim(self, view: Any, legal: list[Action]) -> Action:
        # keep the agents that carry something, then those nearest home
        arrival = view.map.arrival[view.corners[view.viewer]]

        def keep(a: Action) -> tuple[int, int]:
            agent = a.args[0]
            return (view.carrying.get(agent) is not None, -view.map.distance(view.agents[agent], arrival))

        return min(legal, key=keep)

    def __repr__(self) -> str:
        return f"TypeBot({self.name!r}, seed={self.seed})"


def _draw(u: float, p: np.ndarray) -> int:
    """The index that ``u`` in [0, 1) picks from the weights ``p`` (seeded by the caller's ``u``)."""
    c = np.cumsum(p / p.sum())
    return min(int(np.searchsorted(c, u, side="right")), len(p) - 1)


for _type in DEFAULT_TYPES[1:]:
    register_bot(_type.name, lambda seed=None, _name=_type.name: TypeBot(_name, seed=seed), game=GAME)
register_bot("runner", lambda seed=None: RunnerBot(seed=seed), game=GAME)
