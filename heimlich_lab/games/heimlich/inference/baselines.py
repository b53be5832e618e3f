"""Teaching baselines beside the exact :class:`~heimlich_lab.games.heimlich.inference.belief.Belief`, with the same
marginal-table shape: :class:`IndependentBelief` (one belief per player, exclusivity ignored) and
:class:`PointsShareBelief` (the heuristic "a player controls the agents they push")."""
from __future__ import annotations

import numpy as np

from ....errors import ModelError
from ....inference.core import FREE_LABEL, Marginals
from ....inference.independent import IndependentPosterior
from ....inference.reader import read_all
from ..rules.actions import DECISION_KINDS, Action
from ..rules.records import GameRecord
from ..rules.replay import Decision, public_decisions
from .likelihoods import checked_likelihoods, default_model
from .wording import describe_action

__all__ = ["IndependentBelief", "PointsShareBelief"]


def _baseline_seat(players, agents, observer, own_agents) -> tuple[tuple, tuple, tuple]:
    """The teaching baselines' arguments, checked: players and agents as tuples, the observer's own agents."""
    players, agents = tuple(players), tuple(agents)
    own = (own_agents,) if isinstance(own_agents, str) else tuple(own_agents or ())
    if observer is not None and observer not in players:
        raise ModelError(f"unknown observer {observer!r}: players are {', '.join(players)}")
    return players, agents, own


class IndependentBelief:
    """Baseline: :class:`~heimlich_lab.inference.independent.IndependentPosterior` fed with the same model
    likelihoods. Each player's "which agent is mine?" is updated on its own, ignoring that two
    players cannot control the same agent. A second-agent take is ignored (one agent per player).

    :meth:`marginals` has the shape of :meth:`Belief.marginals`; its columns need not sum to 1
    (``normalize=True`` rescales them).
    """

    def __init__(self, players, agents, observer: str | None = None, model=None, own_agents=None):
        players, agents, own = _baseline_seat(players, agents, observer, own_agents)
        if observer is not None and len(own) != 1:
            raise ModelError(f"{observer}'s own agent card is needed: pass own_agents=")
        self.players, self.agents, self.observer, self.own_agents = players, agents, observer, own
        self.model = default_model() if model is None else model
        self._foil = IndependentPosterior(players, agents, known_owned={observer: own[0]} if observer else None)
        self._initial = self._foil.marginals()

    @classmethod
    def from_record(cls, record: GameRecord, observer: str | None = None, model=None, until=None):
        """Like :meth:`Belief.from_record`."""
        own = (record.deal[observer],) if observer is not None and record.deal else None
        return read_all(cls(record.players, record.rules.agents_for(len(record.players)), observer, model, own),
                        public_decisions(record, observer, until))

    def add(self, decision: Decision) -> None:
        """The next decision of the observer's public stream (a
        :class:`~heimlich_lab.inference.reader.DecisionReader`): another player's decision updates their row."""
        item = decision
        if item.action.kind in DECISION_KINDS and item.actor != self.observer:
            raw = self.model.agent_log_likelihoods(item.view, item.actor, item.action)
            if raw is not None:
                self.update_with(item.actor, checked_likelihoods(raw, len(self.agents), self.model, item.actor,
                                                                 item.action),
                                 describe_action(item.view, item.actor, item.action))

    def update_with(self, actor: str, values: np.ndarray, description: str = "") -> None:
        """Update ``actor``'s row with the model's (checked) per-agent log-likelihoods."""
        if actor != self.observer:
            self._foil.update(actor, values, label=description)

    def snapshot(self) -> IndependentPosterior:
        """The state now, for :meth:`restore` (a copy of the foil: its arrays are replaced, never changed)."""
        return self._foil.copy()

    def restore(self, snapshot: IndependentPosterior) -> None:
        """Back to the state of :meth:`snapshot`."""
        self._foil = snapshot.copy()

    def marginals_array(self, normalize: bool = False) -> np.ndarray:
        return self._foil.marginals(normalize=normalize)

    def marginals(self, normalize: bool = False) -> Marginals:
        """As :meth:`Belief.marginals <heimlich_lab.inference.belief.Belief.marginals>` (players and "free" x
        agents)."""
        return Marginals(self.marginals_array(normalize), (*self.players, FREE_LABEL), self.agents)

    def initial_marginals_array(self) -> np.ndarray:
        return self._initial.copy()

    def entropy(self) -> float:
        return self._foil.entropy()


class PointsShareBelief:
    """Baseline heuristic: "a player controls the agents they push".

    Each player's row is the share of die-movement points they gave each
    agent, plus ``alpha`` pseudo-points per agent (so an agent never pushed
    keeps some probability), normalized to a distribution over the agents they
    may control. The observer's own knowledge is applied: their own row is
    certain, and nobody else controls their agents. The free row is
    ``prod(1 - p)`` over players (0 when there are no free agents). Card moves
    and second-agent takes are ignored.

    >>> pb = PointsShareBelief(["Ann", "Bob"], ["grey", "yellow", "orange"], observer="Ann", own_agents="grey")
    >>> pb.count_move("Bob", Action.parse("move yellow+3 orange+1"))
    >>> {c: round(p, 2) for c, p in pb.marginals()["Bob"].items()}
    {'grey': 0.0, 'yellow': 0.67, 'orange': 0.33}
    """

    def __init__(self, players, agents, observer: str | None = None, own_agents=None, alpha: float = 1.0):
        players, agents, own = _baseline_seat(players, agents, observer, own_agents)
        if alpha < 0:
            raise ModelError("alpha must be >= 0")
        self.players, self.agents, self.observer, self.own_agents = players, agents, observer, own
        self.alpha = float(alpha)
        self._agent_index = {c: i for i, c in enumerate(agents)}
        self.points = np.zeros((len(players), len(agents)))

    @classmethod
    def from_record(cls, record: GameRecord, observer: str | None = None, until=None, alpha: float = 1.0):
        own = (record.deal[observer],) if observer is not None and record.deal else None
        return read_all(cls(record.players, record.rules.agents_for(len(record.players)), observer, own, alpha),
                        public_decisions(record, observer, until))

    def add(self, decision: Decision) -> None:
        """The next decision of the observer's public stream (a
        :class:`~heimlich_lab.inference.reader.DecisionReader`): a die move counts its points."""
        self.count_move(decision.actor, decision.action)

    def snapshot(self) -> np.ndarray:
        """The state now (the points counted), for :meth:`restore`."""
        return self.points.copy()

    def restore(self, snapshot: np.ndarray) -> None:
        """Back to the state of :meth:`snapshot`."""
        self.points = snapshot.copy()

    def count_move(self, actor: str, action: Action) -> None:
        """Add a die move's points to its actor's row (every other decision is ignored)."""
        if action.kind == "move" and actor in self.players:
            i = self.players.index(actor)
            for c, n in action.args:
                self.points[i, self._agent_index[c]] += n

    def marginals_array(self, normalize: bool = False) -> np.ndarray:
        n_p, n_a = self.points.shape
        allowed = np.ones((n_p, n_a), dtype=bool)
        own_ix = [self._agent_index[c] for c in self.own_agents]
        if self.observer is not None:
            o = self.players.index(self.observer)
            allowed[:, own_ix] = False
            allowed[o, :] = False
            allowed[o, own_ix] = True
        w = np.where(allowed, self.points + self.alpha, 0.0)
        w = np.where(allowed & (w.sum(axis=1, keepdims=True) == 0), 1.0, w)
        rows = w / w.sum(axis=1, keepdims=True)
        if self.observer is not None:
            rows[o] = 0.0
            rows[o, own_ix] = 1.0
        free = np.prod(1.0 - rows, axis=0) if n_a > n_p else np.zeros(n_a)
        m = np.vstack([rows, free])
        if normalize:
            m = m / m.sum(axis=0, keepdims=True)
        return m

    def marginals(self, normalize: bool = False) -> Marginals:
        """As :meth:`Belief.marginals <heimlich_lab.inference.belief.Belief.marginals>` (players and "free" x
        agents)."""
        return Marginals(self.marginals_array(normalize), (*self.players, FREE_LABEL), self.agents)
