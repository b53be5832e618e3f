"""Player models: how likely is an observed action if the actor plays for agent a?

A *player model* is anything with an ``agent_log_likelihoods`` method (the
:class:`PlayerModel` protocol). The Heimlich belief calls it for every public
decision and feeds the result to
:func:`~heimlich_lab.inference.core.likelihood_from_owner_values` (an actor with
two agents plays for one of them, chosen uniformly at random per decision, so
the likelihood is the mean over its agents).

Writing your own model, e.g. in a notebook:

>>> import numpy as np
>>> class LovesOwnAgent:
...     '''Moves its own agent with probability 0.8 (a toy: ignores everything else).'''
...     def agent_log_likelihoods(self, view, actor, action):
...         if action.kind != "move":
...             return None                      # no information about agents
...         moved = set(action.steps)
...         return np.log([0.8 if c in moved else 0.2 for c in view.agents])
>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob", "Cy"], seed=2)           # Ann has rolled a 3
>>> LovesOwnAgent().agent_log_likelihoods(g.view(None), "Ann", Action.parse("move red+3")).round(2)
array([-1.61, -1.61, -1.61, -0.22, -1.61, -1.61])

The built-in model is :class:`BoltzmannModel`: the actor picks among the
legal options with probability proportional to ``exp(beta * U)`` (the utility
of :mod:`heimlich_lab.inference.utility`), and with probability ``epsilon``
uniformly at random instead.
"""
from __future__ import annotations

import math
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from ..errors import ModelError
from ..rules.actions import Action
from ..rules.board import N_BUILDINGS, index_of, value_of
from .utility import PublicState, Utility, UtilityWeights, _kinds, card_plays, move_row_index, soft_max

__all__ = ["PlayerModel", "BoltzmannModel", "log_mixture"]

#: Decisions that never carry information about agents for an observer.
UNINFORMATIVE = frozenset(("announce", "pass", "done", "dossier", "deal", "roll", "draw", "take"))


@runtime_checkable
class PlayerModel(Protocol):
    """The protocol every player model follows."""

    def agent_log_likelihoods(self, view, actor: str, action: Action) -> np.ndarray | None:
        """``log P(action | actor plays for agent a, what the actor could see)`` for each agent.

        ``view`` is the state just before the decision (any viewer's
        :class:`~heimlich_lab.View`; only public fields may be used). Returns
        shape ``(len(view.agents),)`` in ``view.agents`` order, ``-inf``
        allowed; ``None`` when the decision carries no information about
        agents (the same probability whatever the actor's agent).
        """
        ...


def log_mixture(log_softmax: np.ndarray, epsilon: float, n: int) -> np.ndarray:
    """``log((1 - epsilon) * exp(log_softmax) + epsilon / n)``, elementwise and safe at epsilon 0 or 1."""
    if epsilon == 0:
        return log_softmax
    if epsilon == 1:
        return np.full(np.shape(log_softmax), -math.log(n))
    return np.logaddexp(math.log1p(-epsilon) + log_softmax, math.log(epsilon / n))


def _log_softmax(z: np.ndarray) -> np.ndarray:
    """Log-softmax along axis 0."""
    m = z.max(axis=0)
    return z - (np.log(np.exp(z - m).sum(axis=0)) + m)


def _mix(p: np.ndarray, epsilon: float) -> np.ndarray:
    return (1.0 - epsilon) * p + epsilon / len(p)


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


class BoltzmannModel:
    """A noisy-rational player: ``P(x | a) = (1 - eps) * softmax_L(beta * U(.; a))[x] + eps / |L|``.

    ``L`` is the legal set of the decision computed from the public state:
    the allocations of the points (move), the buildings the safe may go to
    (respecting ``Rules.safe_destination``), the point choices 1/2/3 (+0 in
    Top Secret). ``U`` is :class:`~heimlich_lab.inference.utility.Utility`
    with ``weights``. ``beta >= 0`` is the rationality (0: uniform), ``epsilon``
    in [0, 1] the chance of a uniformly random choice (a "tremble").

    Top Secret rounds: the observer does not know the actor's hand, so which
    card is played, announcements, passes and "done" are treated as
    uninformative (``None``): evaluating them would need the hidden hand. For a
    card play the model gives the probability of the **targets given the card**,
    ``(1 - eps) * softmax over that card's legal targets + eps / n_targets``:
    exactly the conditional the :class:`~heimlich_lab.bots.BoltzmannBot` samples
    its targets from (it chooses the card first, then the targets). The factor
    for *which* card (or pass) is dropped: a belief using this model ignores
    what that choice says about the agent (an approximation; the target factor
    itself is exact). The dossier entries are secret and never observed.
    ``beta = 0`` or ``epsilon = 1`` make every decision uninformative (``None``).

    >>> from heimlich_lab import Game, Position
    >>> g = Game(["Ann", "Bob"], chance="manual", start=Position(
    ...     positions={"grey": 6, "yellow": 0, "orange": 0, "red": 0, "green": 0},
    ...     owners={"Ann": "grey", "Bob": "red"}, safe=7, decision="move", die="1-3", points=1))
    >>> m = BoltzmannModel(beta=1.0, epsilon=0.05)
    >>> ll = m.agent_log_likelihoods(g.view(None), "Ann", Action.parse("move grey+1"))
    >>> float(np.exp(ll[0]).round(3))          # P(grey+1 | Ann plays for grey): grey scores 7
    0.913
    >>> int(np.argmax(ll))                                      # most likely if Ann plays for grey
    0
    >>> BoltzmannModel(beta=-1)
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: beta must be a number >= 0 (0 = uniform choice), not -1
    """

    def __init__(self, beta: float = 1.0, epsilon: float = 0.05, weights: UtilityWeights | None = None):
        if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)) \
                or not math.isfinite(beta) or beta < 0:
            raise ModelError(f"beta must be a number >= 0 (0 = uniform choice), not {beta!r}")
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.integer, np.floating)) \
                or not (0 <= epsilon <= 1):
            raise ModelError(f"epsilon must be a probability in [0, 1], not {epsilon!r}")
        self.beta = float(beta)
        self.epsilon = float(epsilon)
        self.utility = Utility(weights)
        self.weights = self.utility.weights
        self._lse: dict = {}

    def __repr__(self):
        return f"BoltzmannModel(beta={self.beta:g}, epsilon={self.epsilon:g}, weights={self.weights})"

    # ---------------------------------------------------------------- the informative part of a decision
    def decision_utilities(self, view, actor: str, action: Action) -> tuple[np.ndarray, int] | None:
        """``(U, i)``: utilities ``(n_options, n_agents)`` of the options the model compares for this
        observed decision, and the index of ``action`` among them; ``None`` if uninformative.

        Used by :meth:`agent_log_likelihoods` and by the fitter. Raises
        :class:`ModelError` if the action does not fit the view's decision.
        """
        k = action.kind
        if k in UNINFORMATIVE:
            return None
        st = PublicState.from_view(view)
        if k == "move":
            self._check_phase(view, action, "move")
            pts = view.points
            if sum(n for _, n in action.args) != pts or not action.args:
                raise ModelError(f"{action} does not spend the {pts} point(s) of this move")
            try:
                i = move_row_index(st.agents, pts)[action]
            except KeyError:
                raise ModelError(f"{action} is not an allocation of {pts} points among {', '.join(st.agents)}") from None
            return self.utility.moves(st, pts), i
        if k == "points":
            self._check_phase(view, action, "points")
            options = (0, 1, 2, 3) if view.rules.top_secret else (1, 2, 3)
            if action.args[0] not in options:
                raise ModelError(f"{action}: the options are {options}")
            return self.utility.points(st, options), options.index(action.args[0])
        if k == "safe":
            self._check_phase(view, action, "safe")
            options = safe_options(view, st)
            if action.args[0] not in options:
                raise ModelError(f"{action}: the safe may go to {options}")
            return self.utility.safe(st, options), options.index(action.args[0])
        if k == "play":
            self._check_phase(view, action, "round")
            plays = card_plays(st, action.args[0])
            if action not in plays:
                raise ModelError(f"{action} cannot be carried out in this position")
            if len(plays) == 1:
                return None
            active = actor == view.active_player
            return self.utility.cards(st, plays, active), plays.index(action)
        raise ModelError(f"{action}: no model for decisions of kind {k!r}")

    @staticmethod
    def _check_phase(view, action, phase):
        if view.phase != phase:
            raise ModelError(f"{action} is a {phase} decision, but the view stands at {view.phase!r}: "
                             "pass the view from just before the decision")

    def agent_log_likelihoods(self, view, actor: str, action: Action) -> np.ndarray | None:
        """``log P(action | actor plays for agent a)`` for every agent, or ``None`` (see the class doc)."""
        d = self.decision_utilities(view, actor, action)
        if d is None or self.beta == 0 or self.epsilon == 1:
            return None
        U, i = d
        key = (id(U), self.beta)
        hit = self._lse.get(key)
        if hit is not None and hit[0] is U:
            lse = hit[1]
        else:
            z = self.beta * U
            m = z.max(axis=0)
            lse = np.log(np.exp(z - m).sum(axis=0)) + m
            if len(self._lse) > 256:
                self._lse.clear()
            self._lse[key] = (U, lse)
        return log_mixture(self.beta * U[i] - lse, self.epsilon, len(U))

    # ---------------------------------------------------------------- the generative process (bots)
    def action_probabilities(self, view, actor_agent: str, legal: Sequence[Action],
                             target_agent: str | None = None) -> np.ndarray:
        """The model's distribution over ``legal`` for someone playing for ``actor_agent``.

        Points, move, safe, announce: ``(1 - eps) * softmax(beta * U) + eps / |legal|``.
        A Top Secret round is two-stage: first the *card* (each playable card
        valued by the soft maximum of its targets' utilities, "pass"/"done" by the
        unchanged state) by the same mixture over the card options, then the
        *targets* of that card by the mixture over its targets, for
        ``target_agent`` (default ``actor_agent``; a bot with two agents draws
        each independently). Dossier entries: uniform.
        """
        legal = tuple(legal)
        n = len(legal)
        if n == 0:
            raise ModelError("no legal actions")
        kinds = _kinds(legal)
        if kinds == {"dossier"}:
            return np.full(n, 1.0 / n)
        st = PublicState.from_view(view)
        a = self._agent_index(st, actor_agent)
        if kinds <= {"play", "pass", "done"}:
            b = a if target_agent is None else self._agent_index(st, target_agent)
            return self._round_probabilities(view, st, a, b, legal)
        U = self.utility.matrix(view, legal, st)
        return _mix(_softmax(self.beta * U[:, a]), self.epsilon)

    @staticmethod
    def _agent_index(st, agent):
        try:
            return st.agents.index(agent)
        except ValueError:
            raise ModelError(f"{agent!r} is not an agent in play ({', '.join(st.agents)})") from None

    def _round_probabilities(self, view, st, a, b, legal):
        U = self.utility.matrix(view, legal, st)
        groups: dict = {}
        for i, x in enumerate(legal):
            groups.setdefault(x.args[0] if x.kind == "play" else x.kind, []).append(i)
        idx = list(groups.values())
        tau = self.weights.softness
        gval = np.array([soft_max(U[g, a][:, None], tau)[0] for g in idx])
        pg = _mix(_softmax(self.beta * gval), self.epsilon)
        p = np.empty(len(legal))
        for g, pgi in zip(idx, pg):
            p[g] = pgi * _mix(_softmax(self.beta * U[g, b]), self.epsilon)
        return p


def safe_options(view, st: PublicState | None = None) -> tuple[int, ...]:
    """Buildings (values) the safe may move to, from the public state (``Rules.safe_destination``)."""
    st = PublicState.from_view(view) if st is None else st
    options = [b for b in range(N_BUILDINGS) if b != st.safe]
    if view.rules.safe_destination == "unoccupied":
        occupied = set(st.pos)
        empty = [b for b in options if b not in occupied]
        if empty:
            options = empty
    return tuple(value_of(b) for b in options)
