"""How an owner's contents shape their choices in Top Secret: the player types, and every option's value as arrays.

An owner knows what each of their suitcases holds; nobody else does. A careful owner carries their 5 home and
leaves their bomb where it lies, so where they send their agents, which suitcase they pick up, carry home, leave
or drop is evidence about the contents. This module says, for one decision, how much each option is worth to the
owner under each of the 24 ways to fill their suitcases A-D, for every player type at once: a few array
operations over the table ``types x fillings x options``.

The value of a position for the owner ``X`` (the same for every type; a type weighs it with its own numbers):

* a suitcase carried by one of ``X``'s agents is worth ``1 + progress`` (``progress``: how much of the way from
  ``X``'s start base to ``X``'s arrival base the agent has left behind), and ``2.5`` as it is brought home;
* a suitcase lying in a city is worth ``0.5 x closeness`` of ``X``'s nearest agent (1 next to it, 0 a whole
  crossing away);
* ``X``'s own suitcase lying where ``X``'s enemies pass is *bait*: ``closeness`` of the nearest enemy agent, 1
  once an enemy carries it.

A type values its own contents on both counts (``home`` and ``bait``, per content); a suitcase of another player
is worth the average of its owner's contents not yet revealed (counting the delivered ones: public). A player of
type ``k`` takes option ``o`` with probability ``exp(beta_k U[o]) / sum exp(beta_k U)``; ``beta = 0`` is the
random player.

>>> pop = Population.default()
>>> [t.name for t in pop.types]
['random', 'careful-loose', 'careful', 'careful-sharp', 'bluffer']
>>> FILLINGS[0], len(FILLINGS)
(('5', '3', '1', 'bomb'), 24)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations
from typing import Any

import numpy as np

from ...errors import ModelError
from .actions import Action, agent_owner, suitcase_id, suitcase_owner
from .map import LETTERS, Map
from .rules import CONTENTS

__all__ = ["CONTENT_INDEX", "DEFAULT_TYPES", "FILLINGS", "FILLING_CONTENT", "INFORMATIVE", "DecisionTable",
           "PlayerType", "Population", "decision_table", "filling_index"]

#: The 24 ways to fill suitcases A-D with the contents 5, 3, 1 and the bomb (the content of A first).
FILLINGS: tuple[tuple[str, ...], ...] = tuple(permutations(CONTENTS))
CONTENT_INDEX = {c: i for i, c in enumerate(CONTENTS)}
#: ``FILLING_CONTENT[f, L]``: the index in CONTENTS of what filling ``f`` puts in the suitcase with letter ``L``.
FILLING_CONTENT = np.array([[CONTENT_INDEX[c] for c in f] for f in FILLINGS])
#: Decisions whose options a suitcase's content can change; duel cards, hiding the cards and choosing the bomb's
#: victims are read as carrying no evidence about the contents.
INFORMATIVE = frozenset(("place", "step", "pick", "drop", "end", "take", "leave"))
#: A suitcase on the move (carried by the deciding player's agent), as it is brought home.
DELIVERED = 2.5


def filling_index(contents: dict[str, str]) -> int:
    """The index in :data:`FILLINGS` of ``{"A": "5", ...}``.

    >>> filling_index({"A": "bomb", "B": "1", "C": "3", "D": "5"})
    23
    """
    try:
        return FILLINGS.index(tuple(contents[L] for L in LETTERS))
    except (KeyError, ValueError, TypeError):
        raise ModelError(f"{contents!r} is not a filling of the suitcases A-D with 5, 3, 1 and the bomb") from None


@dataclass(frozen=True)
class PlayerType:
    """A kind of player: ``beta`` (rationality: 0 chooses at random), and what each content is worth to them
    carried home (``home``) and left as bait for their enemies (``bait``), in the order 5, 3, 1, bomb."""

    name: str
    beta: float
    home: tuple[float, float, float, float] = (5.0, 3.0, 1.0, -4.0)
    bait: tuple[float, float, float, float] = (-1.0, -0.6, -0.2, 1.0)

    def __post_init__(self) -> None:
        if not (np.isfinite(self.beta) and self.beta >= 0):
            raise ModelError(f"player type {self.name!r}: beta must be a finite number >= 0, not {self.beta!r}")
        for part in ("home", "bait"):
            values = getattr(self, part)
            if len(values) != 4 or not all(np.isfinite(v) for v in values):
                raise ModelError(f"player type {self.name!r}: {part} holds four finite values (5, 3, 1, bomb), "
                                 f"not {values!r}")


#: The default population: a random player, careful players at three rationalities, and a bluffer who plants
#: the bomb where enemies pass (it values its bomb as bait four times as much, and its 5 less so).
DEFAULT_TYPES: tuple[PlayerType, ...] = (
    PlayerType("random", 0.0),
    PlayerType("careful-loose", 0.7),
    PlayerType("careful", 2.0),
    PlayerType("careful-sharp", 5.0),
    PlayerType("bluffer", 2.0, home=(5.0, 3.0, 1.0, -2.0), bait=(-0.5, -0.3, -0.1, 4.0)),
)


@dataclass(frozen=True)
class Population:
    """Player types with a prior over them (uniform by default); each player's type is learned from their play.

    >>> Population.default().prior.round(2).tolist()
    [0.2, 0.2, 0.2, 0.2, 0.2]
    >>> Population((PlayerType("x", 1.0),), prior=(0.5,))
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: the prior over player types has 1 weights for 1 types but sums to 0.5, not 1
    """

    types: tuple[PlayerType, ...] = DEFAULT_TYPES
    prior: Any = None
    beta: np.ndarray = field(init=False, repr=False, compare=False)
    home: np.ndarray = field(init=False, repr=False, compare=False)
    bait: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        types = tuple(self.types)
        if not types or not all(isinstance(t, PlayerType) for t in types):
            raise ModelError("a population is one or more PlayerType")
        if len({t.name for t in types}) != len(types):
            raise ModelError("the player types of a population need different names")
        prior = np.full(len(types), 1 / len(types)) if self.prior is None else np.asarray(self.prior, dtype=float)
        if prior.shape != (len(types),) or not np.isfinite(prior).all() or (prior < 0).any() \
                or abs(prior.sum() - 1) > 1e-9:
            raise ModelError(f"the prior over player types has {prior.size} weights for {len(types)} types but "
                             f"sums to {prior.sum():g}, not 1")
        object.__setattr__(self, "types", types)
        object.__setattr__(self, "prior", prior)
        by_filling = FILLING_CONTENT
        object.__setattr__(self, "beta", np.array([t.beta for t in types]))
        # (types, fillings, letters): what each type's own suitcase with that letter is worth under each filling
        object.__setattr__(self, "home", np.array([np.asarray(t.home)[by_filling] for t in types]))
        object.__setattr__(self, "bait", np.array([np.asarray(t.bait)[by_filling] for t in types]))

    @classmethod
    def default(cls) -> Population:
        return cls()

    def names(self) -> list[str]:
        return [t.name for t in self.types]

    def index(self, name: str) -> int:
        for k, t in enumerate(self.types):
            if t.name == name:
                return k
        raise ModelError(f"no player type {name!r}; the population has {', '.join(self.names())}")

    def log_likelihoods(self, table: DecisionTable, chosen: int) -> np.ndarray:
        """``log P(option chosen | type, filling)``, shape (types, 24)."""
        chosen_logp: np.ndarray = self.log_probabilities(table)[:, :, chosen]
        return chosen_logp

    def log_probabilities(self, table: DecisionTable) -> np.ndarray:
        """``log P(option | type, filling)`` for every option, shape (types, 24, options)."""
        u = table.utilities(self)
        z = self.beta[:, None, None] * u
        z -= z.max(axis=2, keepdims=True)
        logp: np.ndarray = z - np.log(np.exp(z).sum(axis=2, keepdims=True))
        return logp


@dataclass(frozen=True)
class DecisionTable:
    """One decision of ``player``: its ``options`` and what they do to the position, as arrays.

    ``own_carry[o, L]`` and ``own_bait[o, L]``: the value of the position of the player's suitcase ``L`` after
    option ``o`` (carried or lying, and as bait); ``others[o]``: the worth of the position of every other
    player's suitcase, at its owner's average content still out.
    """

    player: str
    options: tuple[Action, ...]
    own_carry: np.ndarray
    own_bait: np.ndarray
    others: np.ndarray

    def utilities(self, population: Population) -> np.ndarray:
        """``U[type, filling, option]``: two products over the four letters and a broadcast."""
        u: np.ndarray = (np.einsum("kfl,ol->kfo", population.home, self.own_carry)
                         + np.einsum("kfl,ol->kfo", population.bait, self.own_bait) + self.others[None, None, :])
        return u

    def index(self, action: Action | str) -> int:
        """The position of ``action`` (an Action, or its notation such as ``"place A london"``) in the options."""
        if isinstance(action, str):
            action = Action.parse(action)
        for o, a in enumerate(self.options):
            if a == action:
                return o
        raise ModelError(f"{action} is not one of {self.player}'s options here")


@lru_cache(maxsize=8)
def _geometry(board: Map) -> tuple[dict[str, int], np.ndarray]:
    nodes = list(board.kind)
    index = {n: i for i, n in enumerate(nodes)}
    dist = np.array([[0 if a == b else board.distance(a, b) for b in nodes] for a in nodes], dtype=float)
    return index, dist


def decision_table(view: Any, legal: Sequence[Action]) -> DecisionTable | None:
    """The table of the decision ``view.current_player`` faces with ``legal`` options, from public facts only
    (the board, where agents and suitcases are, what was delivered); ``None`` when the decision says nothing
    about contents (a duel card, hiding the cards, the bomb's victims) or there is nothing to choose."""
    if len(legal) < 2 or legal[0].kind not in INFORMATIVE:
        return None
    board: Map = view.map
    index, dist = _geometry(board)
    me = view.current_player
    players = view.players
    corner = view.corners[me]
    arrival = index[board.arrival[corner]]
    span = max(dist[index[board.start[corner]], arrival], 1.0)
    suitcases = [suitcase_id(p, L) for p in players for L in LETTERS]
    column = {s: j for j, s in enumerate(suitcases)}
    n_s, n_opt = len(suitcases), len(legal)

    # the position as it is, as arrays: my agents' places; per suitcase, the city it lies in (-1: none), which of
    # my agents carries it (-1: none), whether an enemy carries it; delivered suitcases count for nothing
    my_agents = [a for a, n in view.agents.items() if n is not None and agent_owner(a) == me]
    mine = {a: i for i, a in enumerate(my_agents)}
    enemy_nodes = [index[n] for a, n in view.agents.items() if n is not None and agent_owner(a) != me]
    lying0 = np.full(n_s, -1)
    carrier0 = np.full(n_s, -1)
    enemy_has = np.zeros(n_s, dtype=bool)
    for s, city in view.suitcases.items():
        if city is not None:
            lying0[column[s]] = index[city]
    for a, s in view.carrying.items():
        if s is not None:
            if a in mine:
                carrier0[column[s]] = mine[a]
            else:
                enemy_has[column[s]] = True
    pos0 = np.array([index[view.agents[a]] for a in my_agents], dtype=int)

    # each option's position: a copy of the present one with one or two entries changed
    lying = np.tile(lying0, (n_opt, 1))
    carrier = np.tile(carrier0, (n_opt, 1))
    pos = np.tile(pos0, (n_opt, 1))
    home = np.zeros((n_opt, n_s), dtype=bool)
    take = _pending_take(view) if legal[0].kind in ("take", "leave") else None
    for o, act in enumerate(legal):
        k, args = act.kind, act.args
        if k == "step":
            a, z = args
            pos[o, mine[a]] = index[z]
            s = view.carrying.get(a)
            if s is not None and index[z] == arrival:
                home[o, column[s]] = True
        elif k == "pick":
            j = column[args[1]]
            lying[o, j], carrier[o, j] = -1, mine[args[0]]
        elif k == "drop":
            j = column[view.carrying[args[0]]]
            lying[o, j], carrier[o, j] = index[view.agents[args[0]]], -1
        elif k == "place":
            lying[o, column[suitcase_id(me, args[0])]] = index[args[1]]
        elif k == "take" and take is not None and take[0] in mine:
            j = column[take[1]]
            lying[o, j], carrier[o, j] = -1, mine[take[0]]

    # what each suitcase's position is worth to me, every option at once
    carried = carrier >= 0
    if my_agents:
        carrier_node = np.take_along_axis(pos, np.where(carried, carrier, 0), axis=1)
        progress = 1.0 + np.clip(1.0 - dist[carrier_node, arrival] / span, 0.0, None)
    else:
        progress = np.zeros((n_opt, n_s))
    lies = lying >= 0
    city = np.where(lies, lying, 0)
    if my_agents:
        reach = dist[pos[:, :, None], city[:, None, :]].min(axis=1)
        near_me = np.where(lies, 0.5 * np.clip(1.0 - reach / span, 0.0, None), 0.0)
    else:
        near_me = np.zeros((n_opt, n_s))
    value = np.where(home, DELIVERED, np.where(carried, progress, near_me))
    if enemy_nodes:
        threat = dist[np.asarray(enemy_nodes)[:, None, None], city[None, :, :]].min(axis=0)
        bait = np.where(lies, np.clip(1.0 - threat / span, 0.0, None), 0.0)
    else:
        bait = np.zeros((n_opt, n_s))
    bait = np.where(enemy_has[None, :] & ~carried & ~lies, 1.0, bait)
    delivered = [column[s] for p in players for s, _ in view.delivered[p]]
    value[:, delivered] = 0.0
    bait[:, delivered] = 0.0

    worth = np.zeros(n_s)
    shown: dict[str, list[str]] = {p: [] for p in players}
    for p in players:
        for s, content in view.delivered[p]:
            shown[suitcase_owner(s)].append(content)
    for i, p in enumerate(players):
        if p != me:
            out = [_CAREFUL_HOME[c] for c in CONTENTS if c not in shown[p]]
            worth[4 * i:4 * i + 4] = sum(out) / len(out) if out else 0.0
    i_me = players.index(me)
    own = slice(4 * i_me, 4 * i_me + 4)
    return DecisionTable(me, tuple(legal), value[:, own], bait[:, own], value @ worth)


_CAREFUL_HOME = dict(zip(CONTENTS, DEFAULT_TYPES[2].home))


def _pending_take(view: Any) -> tuple[str, str] | None:
    """At a ``take`` decision: the duel's winner and the suitcase its loser dropped (the last events say)."""
    winner = suitcase = None
    for e in reversed(view.log_since(max(len(view) - 8, 0))):
        if e.kind == "drop" and e.data.get("cause") == "duel" and suitcase is None:
            suitcase = e.data["suitcase"]
        if e.kind == "fight":
            winner = e.data["winner"]
            break
    return None if winner is None or suitcase is None else (winner, suitcase)
