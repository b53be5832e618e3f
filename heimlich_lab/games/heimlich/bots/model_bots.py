"""Bots built on the utility of :mod:`heimlich_lab.games.heimlich.inference.utility`.

* :class:`GreedyBot` plays, at every decision, the legal action of highest
  one-step value ``U(action; own agent)`` (ties broken at random).
* :class:`BoltzmannBot` samples every decision from the
  :class:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel`'s distribution for its
  own agent: the bot *is* the model's generative process, so a belief using the
  same model (same ``beta``, ``epsilon``, weights) has the exact likelihood of
  its points, moves, safe moves, announcements, card choices (card, pass,
  done) and card targets, given its hand (an observer who does not see the
  hand averages over the hands it could hold: see the model).

Both see only ``(view, legal_actions)``: the public state plus their own
agent(s) and hand. A player with two agents (the second-agent card) plays, at
each decision, for one of them chosen uniformly at random (the BoltzmannBot;
this is the belief core's rule of averaging the likelihood over the actor's
agents) or for the one farther along (the GreedyBot: the one it will keep).
The Secret Dossier entries come from
:func:`heimlich_lab.games.heimlich.bots.dossier.choose_dossier_entry`.

>>> from heimlich_lab import Rules, play
>>> rec = play(Rules(top_secret=True), {"Ann": GreedyBot(1), "Bob": BoltzmannBot(seed=2), "Cy": GreedyBot(3)}, seed=4)
>>> rec.result is not None
True
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from ....errors import ModelError
from ..inference.model import BoltzmannModel
from ..inference.utility import PublicState, UtilityWeights
from .dossier import choose_dossier_entry

__all__ = ["GreedyBot", "BoltzmannBot"]

_TIE = 1e-9


def sample_index(p: np.ndarray, rng: np.random.Generator) -> int:
    """An index drawn with probabilities ``p`` (one uniform draw from ``rng``)."""
    c = np.cumsum(p)
    return min(int(np.searchsorted(c, rng.random() * c[-1], side="right")), len(p) - 1)


def own_agents(view) -> tuple[str, ...]:
    """The agents of the view's player; a view with none (a spectator's) cannot drive a bot."""
    own = view.own_agents
    if not own:
        raise ModelError(f"{view.label} has no agent: a bot needs its player's own view")
    return own


def kept_agent(view) -> str:
    """The agent a player plays for: their only one, or of two the one farther along (the one kept at the end)."""
    own = own_agents(view)
    if len(own) == 1:
        return own[0]
    s = view.scores
    return max(own, key=lambda c: (s[c], -own.index(c)))


class ModelBot(ABC):
    """What the bots built on the model of play share: a forced decision is taken at once, the dossier
    sheet comes from the bot's own belief (:func:`~heimlich_lab.games.heimlich.bots.dossier.choose_dossier_entry`),
    and every other decision goes to ``_decide(view, legal)``. Subclasses set ``model`` and ``_rng``."""

    model: BoltzmannModel
    _rng: np.random.Generator

    def choose(self, view, legal_actions):
        legal = legal_actions
        if len(legal) == 1:
            return legal[0]
        if view.phase == "dossier":
            return choose_dossier_entry(view, legal, self.model, self._rng)
        if view.phase == "collect":     # a card may be drawn: one more card in hand is never worse
            return next(a for a in legal if a.args[0])
        return self._decide(view, legal)

    @abstractmethod
    def _decide(self, view, legal):
        """One of ``legal`` (at least two actions, not a dossier entry) for the player of ``view``."""


class TemperedBot(ModelBot):
    """A :class:`ModelBot` whose choices are soft: ``beta`` and ``epsilon`` are its model's."""

    @property
    def beta(self) -> float:
        return self.model.beta

    @property
    def epsilon(self) -> float:
        return self.model.epsilon


class GreedyBot(ModelBot):
    """Plays the action of highest one-step value for its own agent; random tie-break. Seeded.

    The one-step value is ``U(action; agent)`` of the state right after the
    action (module :mod:`~heimlich_lab.games.heimlich.inference.utility`), with these choices:
    points ``k``: the value of the best allocation of ``k`` points (``0``: stay
    and draw); announce "yes" iff its best card play is worth more than the
    unchanged state; in a round, the best of all card plays and pass/done.
    With two agents it plays for the one farther along (the one it keeps).
    ``weights`` are :class:`~heimlich_lab.games.heimlich.inference.utility.UtilityWeights`.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob"], seed=1)
    >>> GreedyBot(seed=7).choose(g.view("Ann"), g.legal_actions()) in g.legal_actions()
    True
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, weights: UtilityWeights | None = None):
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self.model = BoltzmannModel(weights=weights)   # its utility; also handed to the dossier choice
        self.utility = self.model.utility
        self.weights = self.model.weights

    def __repr__(self):
        return f"GreedyBot(seed={self.seed})"

    def _argmax(self, u: np.ndarray) -> int:
        best = np.flatnonzero(u >= u.max() - _TIE)
        return int(best[0]) if len(best) == 1 else int(best[self._rng.integers(len(best))])

    def _decide(self, view, legal):
        st = PublicState.from_view(view)
        a = st.agents.index(kept_agent(view))
        kind = legal[0].kind
        if kind == "points":
            u = self.utility.points(st, [x.args[0] for x in legal], softness=0)[:, a]
        elif kind == "announce":
            active = view.current_player == view.active_player
            vals = self.utility.card_values(st, view.hand, active, softness=0)
            best = max((v[a] for v in vals.values()), default=-np.inf)
            want = best > self.utility.stay(st)[a] + _TIE
            return next((x for x in legal if x.args[0] == want), legal[0])
        else:
            u = self.utility.matrix(view, legal, st)[:, a]
        return legal[self._argmax(u)]


class BoltzmannBot(TemperedBot):
    """Samples every decision from :class:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel` for its agent.

    ``P(action) = (1 - epsilon) * softmax(beta * U(.; agent)) + epsilon / |legal|``
    at points, move, safe and announce decisions; in a Top Secret round first
    the card (or pass/done), then its targets, each by that rule (see
    :meth:`BoltzmannModel.action_probabilities`). With two agents, the agent is
    drawn uniformly at random for each decision (one agent for a card and its
    targets), so the probability of every observed action is the mean over its
    agents: what the belief computes. Seeded.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob"], seed=1)
    >>> bot = BoltzmannBot(beta=2.0, seed=7)
    >>> bot.choose(g.view("Ann"), g.legal_actions()) in g.legal_actions()
    True
    """

    name = "boltzmann"

    def __init__(self, beta: float = 1.0, epsilon: float = 0.05, seed: int | None = None,
                 weights: UtilityWeights | None = None):
        self.model = BoltzmannModel(beta=beta, epsilon=epsilon, weights=weights)
        self.seed = seed
        self._rng = np.random.default_rng(seed)

    def __repr__(self):
        return f"BoltzmannBot(beta={self.beta:g}, epsilon={self.epsilon:g}, seed={self.seed})"

    def probabilities(self, view, legal_actions) -> np.ndarray:
        """The distribution the bot samples from (for one agent; averaged over two agents)."""
        own = own_agents(view)
        return np.mean([self.model.action_probabilities(view, a, legal_actions) for a in own], axis=0)

    def _decide(self, view, legal):
        own = own_agents(view)
        rng = self._rng
        a = own[0] if len(own) == 1 else own[int(rng.integers(len(own)))]
        p = self.model.action_probabilities(view, a, legal)   # the same agent for the card and its targets
        return legal[sample_index(p, rng)]
