"""The utility of every decision for someone playing for a given agent (vectorized).

``U(action; a)`` is how good ``action`` looks to a player who plays for agent
``a``. Bots maximise it (:class:`~heimlich_lab.bots.GreedyBot`) or sample from
a softmax of it (:class:`~heimlich_lab.bots.BoltzmannBot`), and the
:class:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel` turns it into the
likelihood of an observed action under each hypothesis "the actor plays for
agent a". All of it uses the **public** state only (positions, markers, safe,
pending triggers, hand sizes, who is active); a player's hand is used only to
list the cards the player itself could play.

The state value
---------------
Every action is scored by the state it leads to. For a resulting state with
agents on buildings ``b_c`` (values ``v_c``) and markers ``s_c`` (markers at
the decision: ``s0_c``), with ``rel(x)_a = x_a - mean_{c != a} x_c`` (each
term counts *relative to the other agents*, so helping everybody is worth
little and pushing others back is worth something)::

    V(state; a) = gain   * rel(g)_a                    # markers won now (scoring, bonus card)
                + win    * end * (+1 if a is farthest else -1)
                + prospect * [no scoring pending] * p_next * rel(E)_a
                + position * rel(worth(b))_a
                + draw   * [the actor draws a card]
                + second * [the card is the second agent]

* ``g_c = s'_c - s0_c``: marker change, where a scoring is *pending* if some
  agent moved (this action) onto the safe's building or a trigger is still
  pending (Top Secret: a pending trigger counts as a scoring, although a card
  may still cancel it). A scoring moves every marker by its building value
  (ruins -3, never below 0).
* ``end``: some marker reaches the finish (42) after the scoring; the agent
  then wins or loses (the Secret Dossier bonus is ignored).
* ``worth(b) = value(b) - risk * P(next roll can carry an agent from b into the
  ruins)`` and ``worth(ruins) = ruins`` (a weight, default -3): where the agent
  stands is what it will score at future scorings, a little less near the ruins.
* The *prospect* of the next scoring when no scoring is pending:
  ``p_next = P(the next roll can carry some agent onto the safe)`` and
  ``E_c = gain of c at that scoring`` (its building value, or the safe's value
  for the agent likely to be moved there: each agent's share is its reach
  probability over the sum of all reach probabilities). This term is what makes
  the safe decision informative: a player puts the safe where the next scoring
  is likely when its agent stands high, or where its agent can be moved.

Reach probabilities use the die: faces ``1-3`` (up to 3 points), 2, 3, 4, 5, 6,
so ``P(points >= d)`` is 1, 1, 5/6, 1/2, 1/3, 1/6 for d = 1..6, and 0 beyond.

Decisions
---------
* **move** (an allocation of k points): ``V`` of the position after the move.
  :meth:`Utility.moves` evaluates all rows of ``allocation_table(n_agents, k)``
  at once (the order of ``Game.legal_actions()`` in the move phase).
* **points** on ``1-3``: ``U(k; a) = softness * log(mean_m exp(U(m; a) / softness))``
  over the allocations ``m`` of ``k`` points: a soft maximum (``softness -> 0``:
  the best allocation; ``softness -> inf``: the mean). It is a log-*mean*-exp,
  not a log-sum-exp, so ``k = 3`` is not preferred merely because it has more
  allocations (84) than ``k = 1`` (7). ``U(0; a)`` (Top Secret: no move, draw a
  card) is ``V`` of the unchanged state plus ``draw`` if the hand is not full.
* **safe**: ``V`` with the safe on the new building (no scoring pending), so
  only the prospect term differs between buildings.
* **card play** with targets: ``V`` of the state after the card.
  **pass** / **done** / **announce no**: ``V`` of the unchanged state.
  **announce yes**: the soft maximum (as for points) over the playable cards
  of each card's soft maximum over its targets.
* **dossier**: no utility here (see :mod:`heimlich_lab.games.heimlich.bots.dossier`).

>>> from heimlich_lab import Game, Position
>>> g = Game(["Ann", "Bob"], chance="manual", start=Position(
...     positions={"grey": 6, "yellow": 0, "orange": 0, "red": 0, "green": 0},
...     owners={"Ann": "grey", "Bob": "red"}, safe=7, decision="move", die="1-3", points=1))
>>> U = Utility().moves(PublicState.from_view(g.view(None)), 1)
>>> U.shape                                       # 5 allocations of 1 point, 5 agents
(5, 5)
>>> int(U[:, 0].argmax())                         # for grey: grey+1 lands on the safe (7 points)
0
>>> bool(U[0, 0] > U[0, 1])                       # the same move is worth more to grey than to yellow
True
"""
from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, fields
from typing import Sequence

import numpy as np

from ....errors import ModelError
from ..rules.actions import Action
from ..rules.allocations import allocation_table
from ..rules.board import (
    BONUS_CAP,
    BUILDING_VALUES,
    CHURCH_INDEX,
    FINISH,
    N_BUILDINGS,
    RUINS_INDEX,
    distance,
    index_of,
    step,
)
from ..rules.cards import BONUS_POINTS, CARDS, HAND_LIMIT, CardKind, PublicBoard

__all__ = ["UtilityWeights", "PublicState", "Utility", "card_plays", "utility_matrix", "REACH",
           "soft_max"]

VALUES = np.array(BUILDING_VALUES, dtype=float)            # by ring index

#: REACH[d] = P(the next roll gives at least d points), d = 0..11 (0 for d = 0 and d > 6).
REACH = np.zeros(N_BUILDINGS)
_MAX_POINTS = (3, 2, 3, 4, 5, 6)                            # faces 1-3, 2, ..., 6
for _d in range(1, 7):
    REACH[_d] = sum(m >= _d for m in _MAX_POINTS) / 6
REACH.setflags(write=False)


@dataclass(frozen=True)
class UtilityWeights:
    """Weights of the utility terms (see the module doc). All in "marker points".

    - ``gain`` (1.0): markers won now, relative to the other agents.
    - ``win`` (20.0): +/- when a scoring ends the game with the agent farthest / not farthest.
    - ``prospect`` (0.5): expected relative gain at the next scoring, times its chance (no scoring pending;
      discounted: the next player decides whether it happens).
    - ``position`` (0.5): relative worth of the buildings the agents stand on.
    - ``risk`` (1.0): worth lost per unit of probability that the next roll can push the agent into the ruins.
    - ``ruins`` (-3.0): worth of standing in the ruins.
    - ``draw`` (1.0): value of drawing a Top Secret card.
    - ``second`` (3.0): value of playing the second-agent card.
    - ``softness`` (1.0): temperature of the soft maximum for points / announce / card choice (> 0).

    >>> UtilityWeights(position=0.0).position
    0.0
    >>> UtilityWeights(softness=0)
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: UtilityWeights.softness must be > 0, not 0
    """

    gain: float = 1.0
    win: float = 20.0
    prospect: float = 0.5
    position: float = 0.5
    risk: float = 1.0
    ruins: float = -3.0
    draw: float = 1.0
    second: float = 3.0
    softness: float = 1.0

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not math.isfinite(v):
                raise ModelError(f"UtilityWeights.{f.name} must be a finite number, not {v!r}")
        if self.softness <= 0:
            raise ModelError(f"UtilityWeights.softness must be > 0, not {self.softness!r}")

    def worth(self) -> np.ndarray:
        """Worth of standing on each building, by ring index (Church, 1..10, Ruins)."""
        w = VALUES - self.risk * REACH[distance(np.arange(N_BUILDINGS), RUINS_INDEX)]
        w[RUINS_INDEX] = self.ruins
        return w


@dataclass(frozen=True)
class PublicState(PublicBoard):
    """The public facts a utility needs, as ring indices (hashable: used as a cache key).

    A :class:`~heimlich_lab.games.heimlich.rules.cards.PublicBoard` (``pos`` and ``safe`` are ring indices:
    0 = Church, 1..10, 11 = Ruins; ``triggers`` agent indices), so the cards' rules apply to it,
    plus the variant and ``active_hand``, the hand size of the active player (for the "draw a card"
    term; 0 without Top Secret).
    """

    top_secret: bool = False
    active_hand: int = 0

    def __hash__(self):          # computed once: states are cache keys, looked up at every decision
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.agents, self.pos, self.scores, self.safe, self.triggers, self.top_secret,
                      self.active_hand))
            object.__setattr__(self, "_hash", h)
        return h

    @classmethod
    def from_view(cls, view) -> "PublicState":
        """From any :class:`~heimlich_lab.View` (public fields only).

        Every reader of one position gets one state object: a bot's model reads the position from its player's
        view, a belief that follows the game reads it from the spectator's view of the same moment (the
        tournament's evaluator, the board's panel), and both look up the same utility tables with it (states
        are equal by value, so the tables are the same either way; the one object is cheaper to make, hash
        and compare: :data:`_STATES`).

        >>> from heimlich_lab import Game
        >>> g = Game(["Ann", "Bob"], seed=1)
        >>> PublicState.from_view(g.view("Ann")) is PublicState.from_view(g.view(None))
        True
        """
        ts = bool(view.rules.top_secret)
        hand = int(view.hand_sizes.get(view.active_player, 0)) if ts else 0
        fast = getattr(view, "board_key", None)
        if fast is not None and cls is PublicState:     # a state read before: found under the view's own fields
            st = _STATES.get((fast(), ts, hand))        # (equal by value to the key below, or not found)
            if st is not None:
                return st
        board = getattr(view, "public_board", None)
        if board is None or cls is not PublicState:
            return super().from_view(view, top_secret=ts, active_hand=hand)
        key = (board(), ts, hand)
        st = _STATES.get(key)
        if st is None:
            st = cls(*key[0], top_secret=ts, active_hand=hand)
            if len(_STATES) >= _STATES_SIZE:     # a bound, never reached by one game's positions
                _STATES.clear()
            _STATES[key] = st
        return st

    @property
    def can_draw(self) -> bool:
        """Would the active player draw a card now (Top Secret and the hand is not full)?"""
        return self.top_secret and self.active_hand < HAND_LIMIT


def soft_max(U: np.ndarray, softness: float, axis: int = 0) -> np.ndarray:
    """``softness * log(mean(exp(U / softness)))`` along ``axis``; ``softness = 0`` gives the max.

    >>> soft_max(np.array([[0.0], [2.0]]), 1.0).round(4)
    array([1.4338])
    >>> soft_max(np.array([[0.0], [2.0]]), 0.0)
    array([2.])
    """
    if softness == 0:
        return U.max(axis=axis)
    z = U / softness
    m = z.max(axis=axis, keepdims=True)
    out = np.log(np.exp(z - m).mean(axis=axis, keepdims=True)) + m
    return softness * np.squeeze(out, axis=axis)


def _rel(x: np.ndarray) -> np.ndarray:
    """``x[:, a] - mean of x[:, c] over the other agents c``."""
    n = x.shape[1]
    return (n * x - x.sum(axis=1, keepdims=True)) / (n - 1)


# ------------------------------------------------------------------ card plays from the public state
def _card_kind(code: str) -> CardKind:
    try:
        return CARDS[code]
    except (KeyError, TypeError):
        raise ModelError(f"unknown card code {code!r}") from None


def card_plays(state: PublicState, code: str) -> tuple[Action, ...]:
    """Every play of card ``code`` (with its targets) legal in the public state, in the engine's order.

    The same list as the card's entries in ``Game.legal_actions()`` for a
    player holding the card: both come from the card's
    :meth:`~heimlich_lab.games.heimlich.rules.cards.CardKind.legal_targets`.

    >>> from heimlich_lab import Game
    >>> st = PublicState.from_view(Game(["Ann", "Bob"], seed=1).view(None))
    >>> len(card_plays(st, "fwd123")), card_plays(st, "church")     # everyone is in the Church
    (15, ())
    """
    return tuple(Action("play", (code, *t)) for t in _card_kind(code).legal_targets(state))


#: (a view's :meth:`~heimlich_lab.games.heimlich.rules.views.View.public_board`, Top Secret, the active hand) -> its
#: :class:`PublicState` (:meth:`PublicState.from_view`): the positions read lately, one object each.
_STATES: dict = {}
_STATES_SIZE = 4096
_PAIRS: dict = {}
#: weights -> the Utility models of those weights share (:meth:`Utility.shared`)
_SHARED: dict = {}


def _pairs(idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``combinations(idx, 2)`` as two index arrays, in the same order."""
    i, j = np.triu_indices(len(idx), 1)
    return idx[i], idx[j]


def _card_moves(state: PublicState, code: str, P0: np.ndarray, S0: np.ndarray):
    """The plays of ``code`` (in :func:`card_plays` order) as data: ``(n, rows, agents, to, safe, bonus)``
    (the fast path of the cards' rules; tests/test_cards.py keeps it equal to them):
    play ``rows[k]`` moves agent ``agents[k]`` to ring index ``to[k]`` (destinations from the state
    before the play); ``safe``: the new safe per play or None; ``bonus``: (row, agent) marker +3 or None."""
    A = len(P0)
    safe0 = state.safe
    ar = np.arange(A)
    none = np.zeros(0, dtype=np.intp)
    if code in ("back12", "step1", "fwd123", "safestep"):
        d = CARDS[code].steps
        who = ar if code != "safestep" else ar[P0 == safe0]
        a = np.repeat(who, len(d))
        n = len(a)
        return n, np.arange(n), a, step(P0[a], np.tile(d, len(who))), None, None
    if code in ("twoback", "twofwd", "swap"):
        a1, a2 = _pairs(ar)
        if code == "swap":
            keep = P0[a1] != P0[a2]
            a1, a2 = a1[keep], a2[keep]
            t1, t2 = P0[a2], P0[a1]
        else:
            d = -1 if code == "twoback" else 1
            t1, t2 = step(P0[a1], d), step(P0[a2], d)
        n = len(a1)
        r = np.arange(n)
        return n, np.concatenate([r, r]), np.concatenate([a1, a2]), np.concatenate([t1, t2]), None, None
    if code == "join":
        a, b = np.repeat(ar, A), np.tile(ar, A)
        keep = P0[a] != P0[b]
        n = int(keep.sum())
        return n, np.arange(n), a[keep], P0[b[keep]], None, None
    if code in ("ruins", "tosafe"):
        to = RUINS_INDEX if code == "ruins" else safe0
        a = ar[P0 != to]
        return len(a), np.arange(len(a)), a, np.full(len(a), to), None, None
    if code == "rescue":
        r = ar[P0 == RUINS_INDEX]
        p1, p2 = _pairs(r)
        n = len(r) + len(p1)
        rows = np.concatenate([np.arange(n), len(r) + np.arange(len(p1))])
        a = np.concatenate([r, p1, p2])
        return n, rows, a, np.full(len(a), CHURCH_INDEX), None, None
    if code == "church":
        if not (P0 != CHURCH_INDEX).any():
            return 0, none, none, none, None, None
        return 1, np.zeros(A, dtype=np.intp), ar, np.full(A, CHURCH_INDEX), None, None
    if code == "placesafe":
        safe = np.array([b for b in range(N_BUILDINGS) if b != safe0], dtype=np.intp)
        return len(safe), none, none, none, safe, None
    if code == "bonus":
        p1, p2 = _pairs(ar[S0 < BONUS_CAP])
        n = len(p1)
        r = np.arange(n)
        return n, none, none, none, None, (np.concatenate([r, r]), np.concatenate([p1, p2]))
    if code == "second":
        return 1, none, none, none, None, None
    raise ModelError(f"unknown card code {code!r}")


def _card_arrays(state: PublicState, codes: Sequence[str]):
    """The cards' effects (:meth:`CardKind.effect <heimlich_lab.games.heimlich.rules.cards.CardKind.effect>`),
    vectorized: the outcome of every play of every code, codes in turn (each in :func:`card_plays` order): ``(counts,
    pos (n, A), scores (n, A), safe (n,), pending (n,), ruined (n,), second (n,))``, ``counts[i]`` the number of plays
    of ``codes[i]``."""
    P0 = np.array(state.pos, dtype=np.intp)
    S0 = np.array(state.scores, dtype=float)
    A = len(P0)
    parts = [_card_moves(state, c, P0, S0) for c in codes]
    counts = np.array([p[0] for p in parts], dtype=np.intp)
    offs = np.concatenate([[0], np.cumsum(counts)[:-1]])
    n = int(counts.sum())
    rows = np.concatenate([p[1] + o for p, o in zip(parts, offs)]).astype(np.intp)
    ag = np.concatenate([p[2] for p in parts]).astype(np.intp)
    to = np.concatenate([p[3] for p in parts]).astype(np.intp)
    safe = np.full(n, state.safe, dtype=np.intp)
    trig = np.zeros((n, A), dtype=bool)
    if state.triggers:
        trig[:, list(state.triggers)] = True
    scores = np.tile(S0, (n, 1))
    second = np.zeros(n, dtype=bool)
    for c, p, o in zip(codes, parts, offs):
        if p[4] is not None:                           # the safe moved: every trigger is cancelled
            safe[o:o + p[0]] = p[4]
            trig[o:o + p[0]] = False
        if p[5] is not None:
            r, a = p[5]
            scores[o + r, a] = np.minimum(BONUS_CAP, scores[o + r, a] + BONUS_POINTS)
        if c == "second":
            second[o:o + p[0]] = True
    sel = P0[ag] != to                                  # only agents that change building count
    rows, ag, to = rows[sel], ag[sel], to[sel]
    pos = np.tile(P0, (n, 1))
    pos[rows, ag] = to
    ruined = np.zeros(n, dtype=bool)
    ruined[rows[to == RUINS_INDEX]] = True
    trig[rows, ag] = to == safe[rows]
    return counts, pos, scores, safe, trig.any(axis=1), ruined, second


# ------------------------------------------------------------------ the utility
class Utility:
    """Vectorized utilities with the given :class:`UtilityWeights`; results are cached per state.

    Every method returns an array with one row per option and one column per
    agent (in ``state.agents`` order): ``U[i, a]`` is the utility of option
    ``i`` for a player playing for agent ``a``. Arrays are read-only.
    """

    def __init__(self, weights: UtilityWeights | None = None, cache_size: int = 256):
        if weights is None:
            weights = UtilityWeights()
        if not isinstance(weights, UtilityWeights):
            raise ModelError(f"weights must be a UtilityWeights, not {type(weights).__name__}")
        self.weights = weights
        self._worth = weights.worth()
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size

    def __repr__(self):
        return f"Utility({self.weights})"

    @classmethod
    def shared(cls, weights: UtilityWeights | None = None) -> Utility:
        """The one :class:`Utility` of these weights that the kit's models share (their caches with it): the
        utilities are a pure function of the public state, so every model reading the same game (each
        observer's, each type's, a bot's) needs them computed once.

        >>> Utility.shared() is Utility.shared(UtilityWeights())
        True
        """
        if weights is None:
            weights = UtilityWeights()
        if not isinstance(weights, UtilityWeights):
            raise ModelError(f"weights must be a UtilityWeights, not {type(weights).__name__}")
        hit = _SHARED.get(weights)
        if hit is None:
            if len(_SHARED) >= 8:
                _SHARED.pop(next(iter(_SHARED)))
            hit = _SHARED[weights] = cls(weights, cache_size=1024)
        return hit

    def __reduce__(self):
        """A copy for another process (a tournament's workers get the evaluator's model) is that process's
        :meth:`shared` utility of the same weights, its cache not sent: the utilities are a pure function of the
        state, and a cache sent with every model copy would be pickled for each unit of work and kept by every
        model a worker holds on to (one per unit of work).

        >>> import pickle
        >>> u = Utility.shared()
        >>> pickle.loads(pickle.dumps(u)) is u, pickle.loads(pickle.dumps(Utility(UtilityWeights()))) is u
        (True, True)
        """
        return (Utility.shared, (self.weights,))

    @staticmethod
    def clear_shared() -> None:
        """Forget the shared utilities (models made afterwards start with an empty cache) and the states read
        lately (:meth:`PublicState.from_view`): for benchmarks that time utilities being computed."""
        _SHARED.clear()
        _STATES.clear()

    # ---------------------------------------------------------------- cache
    def _cached(self, key, compute):
        c = self._cache
        v = c.get(key)
        if v is None:
            v = compute()
            v.setflags(write=False)
            c[key] = v
            if len(c) > self._cache_size:
                c.popitem(last=False)
        return v

    # ---------------------------------------------------------------- core evaluator
    def evaluate(self, pos: np.ndarray, safe: np.ndarray, pre: np.ndarray, base: np.ndarray,
                 pending: np.ndarray, bonus: np.ndarray | float = 0.0) -> np.ndarray:
        """``V`` of P resulting states at once, shape (P, A).

        ``pos`` (P, A) ring indices; ``safe`` (P,) ring indices; ``pre`` (P, A)
        or (A,) markers before a pending scoring; ``base`` (A,) markers at the
        decision; ``pending`` (P,) bool: a scoring will happen; ``bonus`` (P,)
        or scalar: terms that are the same for every agent (draw, second agent).
        """
        pre = np.asarray(pre, dtype=float)
        preT = pre.T if pre.ndim == 2 else pre[:, None]
        return self._evaluate_T(np.ascontiguousarray(np.asarray(pos).T), np.asarray(safe), preT,
                                np.asarray(base, dtype=float)[:, None], np.asarray(pending, dtype=bool), bonus).T

    def _evaluate_T(self, posT, safe, preT, baseT, pending, bonus):
        """The evaluator on transposed arrays: ``posT`` (A, P), ``preT`` (A, P) or (A, 1), ``baseT`` (A, 1).

        Agents are rows so that sums and maxima over agents are fast; the
        relative terms are linear, so ``rel`` is applied once to their sum.
        """
        w = self.weights
        A = posT.shape[0]
        vals = VALUES[posT]
        gv = np.maximum(vals, -preT)                     # marker change at a scoring (never below 0)
        X = pending * gv
        if preT is not baseT:
            X += preT - baseT                            # markers changed before the scoring (bonus card)
        if w.gain != 1:
            X *= w.gain
        if w.position:
            X += w.position * self._worth[posT]
        if w.prospect and not pending.all():
            r = REACH[distance(posT, safe)]
            p_next = np.where(pending, 0.0, r.max(axis=0))
            if p_next.any():
                rsum = r.sum(axis=0)
                share = r / np.where(rsum > 0, rsum, 1.0)
                g_land = np.maximum(VALUES[safe], -preT)
                X += (w.prospect * p_next) * (gv + share * (g_land - gv))
        U = (A * X - X.sum(axis=0)) / (A - 1)
        if w.win and preT.max() + VALUES.max() >= FINISH and pending.any():
            after = preT + pending * gv
            top = after.max(axis=0)
            end = top >= FINISH
            if end.any():
                U += (w.win * end) * np.where(after == top, 1.0, -1.0)
        if np.ndim(bonus) or bonus:
            U += bonus
        return U

    # ---------------------------------------------------------------- decisions
    def stay(self, state: PublicState) -> np.ndarray:
        """``V`` of the unchanged state, shape (A,): pass, done, announce no (a pending trigger scores)."""
        def compute():
            s = np.array(state.scores, dtype=float)
            return self.evaluate(np.array([state.pos]), np.array([state.safe]), s, s,
                                 np.array([bool(state.triggers)]))[0]
        return self._cached(("stay", state), compute)

    def moves(self, state: PublicState, points: int) -> np.ndarray:
        """(M, A) utilities of every allocation of ``points`` (rows of ``allocation_table``)."""
        key = ("move", state, points)
        hit = self._cache.get(key)      # (looked up at every move decision: a hit without a closure)
        return hit if hit is not None else self._cached(key, lambda: self._moves(state, points))

    def _moves(self, state: PublicState, points: int) -> np.ndarray:
        # Same formula as _evaluate_T, specialised: where agent a ends after t steps (t = 0..6) is known
        # before looking at the table, so every per-agent quantity is a small (A, 7) lookup table, gathered
        # once over the (A, M) allocation table.
        w = self.weights
        A = len(state.agents)
        flat, moved = _table_flat(A, points)
        pos = np.array(state.pos, dtype=np.intp)
        scores = np.array(state.scores, dtype=float)[:, None]
        to = step(pos[:, None], _STEPS)                                # (A, 7): building after t steps
        gv = np.maximum(VALUES[to], -scores).ravel()[flat]            # marker change at a scoring
        pending = ((to == state.safe) & (_STEPS > 0)).ravel()[flat].any(axis=0)
        if state.triggers:
            keep = np.zeros((A, 1), dtype=bool)
            keep[list(state.triggers)] = True
            pending |= (keep & ~moved).any(axis=0)
        X = pending * gv
        if w.gain != 1:
            X *= w.gain
        if w.position:
            X += (w.position * self._worth[to]).ravel()[flat]
        if w.prospect and not pending.all():
            r = REACH[distance(to, state.safe)].ravel()[flat]
            p_next = np.where(pending, 0.0, r.max(axis=0))
            if p_next.any():
                rsum = r.sum(axis=0)
                share = r / np.where(rsum > 0, rsum, 1.0)
                g_land = np.maximum(VALUES[state.safe], -scores)
                X += (w.prospect * p_next) * (gv + share * (g_land - gv))
        U = (A * X - X.sum(axis=0)) / (A - 1)
        if w.win and scores.max() + VALUES.max() >= FINISH and pending.any():
            after = scores + pending * gv
            top = after.max(axis=0)
            end = top >= FINISH
            if end.any():
                U += (w.win * end) * np.where(after == top, 1.0, -1.0)
        if state.can_draw and w.draw:
            U += w.draw * ((to == RUINS_INDEX) & (_STEPS > 0)).ravel()[flat].any(axis=0)
        return U.T

    def points(self, state: PublicState, options: Sequence[int] = (1, 2, 3),
               softness: float | None = None) -> np.ndarray:
        """(len(options), A): ``U(k)`` = soft maximum of the move utilities for ``k`` points (0: stay and draw).

        ``softness`` defaults to the weights' (0 gives the best allocation: the greedy one-step value).
        """
        tau = self.weights.softness if softness is None else softness
        key = ("points", state, tuple(options), tau)
        hit = self._cache.get(key)
        if hit is not None:
            return hit

        def compute():
            rows = []
            for k in options:
                if k == 0:
                    rows.append(self.stay(state) + (self.weights.draw if state.can_draw else 0.0))
                else:
                    rows.append(soft_max(self.moves(state, k), tau))
            return np.array(rows)
        return self._cached(key, compute)

    def safe(self, state: PublicState, buildings: Sequence[int]) -> np.ndarray:
        """(B, A) utilities of moving the safe to each building (given as building *values*)."""
        key = ("safe", state, tuple(buildings))
        hit = self._cache.get(key)
        if hit is not None:
            return hit

        def compute():
            t = np.array([index_of(b) for b in buildings])
            pos = np.broadcast_to(np.array(state.pos), (len(t), len(state.pos)))
            scores = np.array(state.scores, dtype=float)
            return self.evaluate(pos, t, scores, scores, np.zeros(len(t), dtype=bool))
        return self._cached(key, compute)

    def cards(self, state: PublicState, plays: Sequence[Action], actor_is_active: bool) -> np.ndarray:
        """(P, A) utilities of card plays (each evaluated on the state after the card)."""
        key = ("cards", state, tuple(plays), actor_is_active)
        return self._cached(key, lambda: self._cards(state, plays, actor_is_active))

    def _cards(self, state, plays, actor_is_active):
        # each play's effect from the cards' rules; rows gathered in lists, one array each at the end
        pos, pre, safe, pending, bonus = [], [], [], [], []
        draw = self.weights.draw if actor_is_active else 0.0
        for act in plays:
            if act.kind != "play":
                raise ModelError(f"{act} is not a card play")
            e = _card_kind(act.args[0]).effect(state, act.args[1:])
            pos.append(e.positions(state))
            pre.append(e.scores(state))
            safe.append(state.safe if e.safe is None else e.safe)
            pending.append(bool(e.triggers))
            b = 0.0
            if draw and e.ends_in_ruins:
                b += draw
            if e.second_agent:
                b += self.weights.second
            bonus.append(b)
        A = len(state.agents)
        return self.evaluate(np.array(pos, dtype=np.int16).reshape(-1, A), np.array(safe, dtype=np.int16),
                             np.array(pre, dtype=float).reshape(-1, A), np.array(state.scores, dtype=float),
                             np.array(pending, dtype=bool), np.array(bonus))

    def card_values(self, state: PublicState, hand: Sequence[str], actor_is_active: bool,
                    softness: float | None = None) -> dict[str, np.ndarray]:
        """Card code -> (A,) soft maximum over its legal targets, for each playable card in ``hand``."""
        tau = self.weights.softness if softness is None else softness
        codes = tuple(dict.fromkeys(hand))
        key = ("card_values", state, codes, actor_is_active, tau)
        hit = self._cache.get(key)
        if hit is not None:
            return dict(hit)
        out = {}
        counts, pos, pre, safe, pending, ruined, second = _card_arrays(state, codes)
        if len(pos):
            # every play of every card in one evaluation, then a log-mean-exp per card (segments of rows)
            w = self.weights
            bonus = (w.draw * ruined if actor_is_active else 0.0) + w.second * second
            U = self.evaluate(pos, safe, pre, np.array(state.scores, dtype=float), pending, bonus)
            has = counts > 0
            starts = (np.cumsum(counts) - counts)[has]
            if tau == 0:
                V = np.maximum.reduceat(U, starts, axis=0)
            else:
                z = U / tau
                m = np.maximum.reduceat(z, starts, axis=0)
                e = np.exp(z - np.repeat(m, counts[has], axis=0))
                V = tau * (np.log(np.add.reduceat(e, starts, axis=0) / counts[has][:, None]) + m)
            out = dict(zip([c for c, h in zip(codes, has) if h], V))
        self._cache[key] = tuple(out.items())
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return out

    # ---------------------------------------------------------------- any decision
    def matrix(self, view, legal: Sequence[Action], state: PublicState | None = None) -> np.ndarray:
        """(len(legal), A) utilities of the legal actions of the view's decision.

        Handles points, move, safe, announce (needs ``view.hand``: the actor's
        own view), and Top Secret rounds (plays, pass, done). Dossier entries
        and ``collect`` (whether to draw a card one may draw: worth the same to
        every agent's owner) get utility 0.
        """
        st = PublicState.from_view(view) if state is None else state
        A = len(st.agents)
        legal = tuple(legal)
        if not legal:
            return np.zeros((0, A))
        kinds = legal_kinds(legal)
        if kinds == {"move"}:
            U = self.moves(st, view.points)
            idx = _move_rows(st.agents, view.points, legal)
            return U if idx is None else U[idx]
        if kinds == {"points"}:
            return self.points(st, [a.args[0] for a in legal])
        if kinds == {"safe"}:
            return self.safe(st, [a.args[0] for a in legal])
        if kinds in ({"dossier"}, {"collect"}):
            return np.zeros((len(legal), A))
        actor_is_active = view.current_player == view.active_player
        if kinds <= {"announce"}:
            stay = self.stay(st)
            vals = self.card_values(st, view.hand, actor_is_active)
            yes = soft_max(np.array(list(vals.values())), self.weights.softness) if vals else stay
            return np.array([yes if a.args[0] else stay for a in legal])
        if kinds <= {"play", "pass", "done"}:
            plays = [a for a in legal if a.kind == "play"]
            out = np.empty((len(legal), A))
            if plays:
                Uc = self.cards(st, plays, actor_is_active)
            j = 0
            stay = self.stay(st)
            for i, a in enumerate(legal):
                if a.kind == "play":
                    out[i] = Uc[j]
                    j += 1
                else:
                    out[i] = stay
            return out
        raise ModelError(f"no utility for a decision mixing {sorted(kinds)}")


def legal_kinds(legal: tuple) -> set:
    """The kinds of actions in a legal list (a move list is all moves: only its ends are looked at)."""
    if len(legal) > 40 and legal[0].kind == "move" and legal[-1].kind == "move":
        return {"move"}
    return {a.kind for a in legal}


_MOVE_INDEX: dict = {}
_TABLE_T: dict = {}


_STEPS = np.arange(7)                                       # 0..6 steps: the most a die gives


def _table_flat(n_agents: int, points: int):
    """For ``allocation_table(n_agents, points).T`` (agents as rows): ``a * 7 + steps`` (an index into
    an (A, 7) table) and the ``steps > 0`` mask. Cached."""
    key = (n_agents, points)
    t = _TABLE_T.get(key)
    if t is None:
        TT = allocation_table(n_agents, points).T.astype(np.intp)
        flat = np.ascontiguousarray(np.arange(n_agents)[:, None] * len(_STEPS) + TT)
        moved = np.ascontiguousarray(TT > 0)
        flat.setflags(write=False)
        moved.setflags(write=False)
        t = _TABLE_T[key] = (flat, moved)
    return t


def move_actions(agents: tuple, points: int) -> tuple[Action, ...]:
    """The engine's tuple of move actions for ``points``: row ``m`` is row ``m`` of ``allocation_table``."""
    from ..rules.game import move_actions as every_move
    return every_move(tuple(agents), points)


def move_row_index(agents: tuple, points: int) -> dict:
    """Move action -> row of ``allocation_table(len(agents), points)`` (cached)."""
    key = (tuple(agents), points)
    d = _MOVE_INDEX.get(key)
    if d is None:
        d = _MOVE_INDEX[key] = {a: i for i, a in enumerate(move_actions(agents, points))}
    return d


def move_row_of(agents: tuple, points: int, action: Action) -> int | None:
    """``move_row_index(agents, points).get(action)``: the row of a move action, ``None`` if it is not an
    allocation of ``points`` among ``agents`` (a tuple). An :class:`Action` is looked up by its arguments (a move's
    whole value besides its kind; hashed without a call into Python), anything else as ``move_row_index`` does.

    >>> agents = ("grey", "yellow", "orange")
    >>> move = Action.parse("move grey+1 orange+1")
    >>> move_row_of(agents, 2, move) == move_row_index(agents, 2)[move]
    True
    >>> move_row_of(agents, 2, Action.parse("move grey+3")) is None
    True
    """
    key = (agents, points)
    d = _MOVE_ARGS.get(key)
    if d is None:
        d = {a.args: i for a, i in move_row_index(agents, points).items()}
        if len(_MOVE_ARGS) >= 256:
            _MOVE_ARGS.clear()
        _MOVE_ARGS[key] = d
    if action.__class__ is Action and action.kind == "move":
        return d.get(action.args)
    return move_row_index(agents, points).get(action)


_MOVE_ARGS: dict = {}


def _move_rows(agents, points, legal) -> np.ndarray | None:
    """None if ``legal`` is the engine's full move tuple (rows in table order), else the row of each action."""
    full = move_actions(agents, points)
    if legal is full or (len(legal) == len(full) and legal[0] == full[0] and legal[-1] == full[-1] and legal == full):
        return None
    index = move_row_index(agents, points)
    try:
        return np.array([index[a] for a in legal], dtype=np.intp)
    except KeyError as e:
        raise ModelError(f"{e.args[0]} is not an allocation of {points} points") from None


def utility_matrix(view, legal: Sequence[Action], weights: UtilityWeights | None = None) -> np.ndarray:
    """``Utility(weights).matrix(view, legal)``: (len(legal), n_agents) utilities."""
    return Utility(weights).matrix(view, legal)
