"""Fit the Boltzmann model's ``beta`` (and ``epsilon``) to finished games, by maximum likelihood.

At the end of a game the identities are revealed, so every decision of a
finished *full* record can be scored under the truth: for a decision by player
``p`` (who controlled agent(s) ``A_p`` at that moment),

    log L(beta, eps) = sum over decisions  log mean_{a in A_p} P(action | a; beta, eps)

with ``P`` the :class:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel`'s
probability, for the decisions whose options are public: points, moves,
safe moves, and the targets of a played card given the card
(:meth:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel.decision_utilities`).
Announcements and the choice of card/pass/done depend on the hand; the model
scores them too (:meth:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel.hand_decision_probabilities`)
but the fit leaves them out (a full record knows the hands, so they could be
added as further softmax rows). The utilities do not depend on ``beta`` or
``epsilon``, so they are computed once per decision (:func:`decision_data`);
after that one evaluation of ``log L`` is a handful of numpy operations over
all decisions at once.

Estimates: ``epsilon`` is maximised out for each ``beta`` (the *profile*
likelihood), then ``beta`` by bounded scalar optimisation (scipy). Confidence
intervals are profile-likelihood intervals: all values ``theta`` with
``2 * (LL_max - LL_profile(theta)) <= chi2(1).ppf(level)`` (Wilks), found by
root finding on each side; clipped to the bounds when the likelihood is still
high there.

>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import BoltzmannBot
>>> recs = [play(Rules(), {p: BoltzmannBot(beta=1.0, seed=10 * s + i) for i, p in enumerate("ABC")}, seed=s)
...         for s in range(3)]
>>> res = fit_boltzmann(recs, epsilon=0.05)
>>> res.ci_beta[0] < 1.0 < res.ci_beta[1], res.n_decisions > 50
(True, True)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np
from scipy import optimize, stats

from ....errors import ModelError, RecordError
from ..rules.game import CHANCE
from ..rules.records import GameRecord
from .model import BoltzmannModel
from .utility import UtilityWeights

__all__ = ["DecisionData", "FitResult", "decision_data", "fit_boltzmann", "log_likelihood"]


@dataclass(frozen=True)
class DecisionData:
    """Per-decision utilities of the legal options for the actor's true agent(s), flattened.

    One *segment* per (decision, agent of the actor): its options' utilities
    are ``values[starts[j]:starts[j] + sizes[j]]``, stored minus the segment's
    maximum; ``chosen[j]`` is the (centred) utility of the action taken;
    ``decision[j]`` the decision it belongs to.
    """

    centred: np.ndarray
    starts: np.ndarray
    sizes: np.ndarray
    chosen: np.ndarray
    decision: np.ndarray
    n_decisions: int
    weights: UtilityWeights

    @property
    def single(self) -> bool:
        """True if every decision has exactly one segment (nobody held two agents)."""
        return len(self.sizes) == self.n_decisions

    def log_softmax(self, beta: float) -> np.ndarray:
        """Per segment: ``log softmax(beta * U)[chosen]``."""
        z = np.add.reduceat(np.exp(beta * self.centred), self.starts)
        return beta * self.chosen - np.log(z)

    def log_likelihood_from(self, ls: np.ndarray, epsilon: float) -> float:
        """``log L`` given the per-segment log-softmax values ``ls`` and ``epsilon``."""
        if epsilon == 0:
            lp = ls
        elif epsilon == 1:
            lp = -np.log(self.sizes)
        else:
            lp = np.logaddexp(math.log1p(-epsilon) + ls, math.log(epsilon) - np.log(self.sizes))
        if self.single:
            return float(lp.sum())
        # an actor with two agents plays for either with probability 1/2: mean of the probabilities
        n = self.n_decisions
        top = np.full(n, -np.inf)
        np.maximum.at(top, self.decision, lp)
        s = np.bincount(self.decision, weights=np.exp(lp - top[self.decision]), minlength=n)
        counts = np.bincount(self.decision, minlength=n)
        return float((np.log(s / counts) + top).sum())


def decision_data(records: GameRecord | Iterable[GameRecord], weights: UtilityWeights | None = None, *,
                  players=None) -> DecisionData:
    """Replay finished full records and precompute every informative decision's utilities.

    ``players``: per record, the players whose decisions count (``None`` for a record, or for all: every
    player's), e.g. the human seats of class games (``heimlich_lab.analysis.class_records(...).fit_players``).
    """
    if isinstance(records, GameRecord):
        records = [records]
    records, only = _players_per_record(records, players)
    model = BoltzmannModel(weights=weights)
    vals, sizes, chosen, dec = [], [], [], []
    n = 0
    for r, rec in enumerate(records):
        if not isinstance(rec, GameRecord):
            raise RecordError(f"record {r}: a GameRecord is needed, not {type(rec).__name__}")
        if not rec.is_full or rec.result is None:
            raise RecordError(f"record {r}: fitting needs finished full records (identities known); "
                              f"this one is {'unfinished' if rec.result is None else rec.view}")
        log = rec.log
        final = rec.owners
        for k, g in rec.games():
            if k >= len(log):
                break
            e = log[k]
            if e.actor == CHANCE or (only[r] is not None and e.actor not in only[r]):
                continue
            d = model.decision_utilities(g.view(None), e.actor, e.action)
            if d is None:
                continue
            U, i = d
            own = g.owners[e.actor]
            if own != final[e.actor][:len(own)]:   # pragma: no cover - a corrupt record
                raise RecordError(f"record {r}: owners at entry {k} disagree with the record's owners")
            for c in own:
                u = U[:, g.agents.index(c)]
                m = u.max()
                vals.append(u - m)
                sizes.append(len(u))
                chosen.append(u[i] - m)
                dec.append(n)
            n += 1
    if n == 0:
        raise ModelError("no informative decisions in the records: nothing to fit")
    sizes_a = np.array(sizes, dtype=np.intp)
    starts = np.concatenate([[0], np.cumsum(sizes_a)[:-1]])
    return DecisionData(np.concatenate(vals), starts, sizes_a, np.array(chosen), np.array(dec, dtype=np.intp), n,
                        model.weights)


def _players_per_record(records, players) -> tuple[list, list]:
    """(records as a list, per record the set of players to count or None), checked."""
    records = list(records)
    if players is None:
        return records, [None] * len(records)
    players = list(players)
    if len(players) != len(records):
        raise ModelError(f"players= gives {len(players)} entries for {len(records)} records: one per record")
    only = []
    for r, (rec, ps) in enumerate(zip(records, players)):
        if ps is None:
            only.append(None)
            continue
        if isinstance(ps, str) or not all(isinstance(p, str) for p in ps):
            raise ModelError(f"players= entry {r} must be a list of player names (or None), not {ps!r}")
        unknown = set(ps) - set(getattr(rec, "players", ()))
        if unknown:
            raise ModelError(f"players= entry {r} names {sorted(unknown)}, who did not play record {r}")
        only.append(frozenset(ps))
    return records, only


def log_likelihood(data: DecisionData, beta: float, epsilon: float) -> float:
    """``log L(beta, epsilon)`` of the decisions in ``data``."""
    return data.log_likelihood_from(data.log_softmax(beta), epsilon)


@dataclass(frozen=True)
class FitResult:
    """Maximum-likelihood ``beta`` and ``epsilon`` with profile-likelihood confidence intervals."""

    beta: float
    epsilon: float
    ci_beta: tuple[float, float]
    ci_epsilon: tuple[float, float]
    log_likelihood: float
    n_decisions: int
    level: float = 0.95
    weights: UtilityWeights = field(default_factory=UtilityWeights, repr=False)

    def __repr__(self):
        pct = f"{100 * self.level:g}%"
        eps = (f"{self.epsilon:.3g} [{self.ci_epsilon[0]:.3g}, {self.ci_epsilon[1]:.3g}]"
               if self.ci_epsilon[0] != self.ci_epsilon[1] else f"{self.epsilon:.3g} (fixed)")
        return (f"FitResult(beta={self.beta:.3g} [{self.ci_beta[0]:.3g}, {self.ci_beta[1]:.3g}], "
                f"epsilon={eps}, {pct} CI, log_likelihood={self.log_likelihood:.1f}, "
                f"n_decisions={self.n_decisions})")

    def model(self) -> BoltzmannModel:
        """The fitted model."""
        return BoltzmannModel(beta=self.beta, epsilon=self.epsilon, weights=self.weights)


def _best_epsilon(data: DecisionData, ls: np.ndarray) -> tuple[float, float]:
    """max over epsilon in [0, 1] of log L for fixed log-softmax values: (epsilon, LL)."""
    r = optimize.minimize_scalar(lambda e: -data.log_likelihood_from(ls, e), bounds=(0.0, 1.0),
                                 method="bounded", options={"xatol": 1e-6})
    best = (float(r.x), -float(r.fun))
    ll0 = data.log_likelihood_from(ls, 0.0)   # the boundary, which Brent's bounded search never evaluates
    return (0.0, ll0) if ll0 >= best[1] else best


def _interval(f, x_hat: float, lo: float, hi: float, target: float) -> tuple[float, float]:
    """Where the profile ``f`` falls to ``target`` on each side of ``x_hat`` (clipped to [lo, hi])."""
    def side(end):
        if end == x_hat or f(end) >= target:
            return end
        return float(optimize.brentq(lambda x: f(x) - target, min(x_hat, end), max(x_hat, end), xtol=1e-6))
    return side(lo), side(hi)


def fit_boltzmann(records, weights: UtilityWeights | None = None, *, epsilon: float | None = None,
                  beta_max: float = 50.0, level: float = 0.95, players=None) -> FitResult:
    """Maximum-likelihood ``beta`` (and ``epsilon`` unless given) of the Boltzmann model.

    ``records``: finished full :class:`~heimlich_lab.GameRecord` s (or a
    :class:`DecisionData` from :func:`decision_data`, to fit several times).
    ``weights``: the utility weights (held fixed). ``epsilon``: a fixed value,
    or ``None`` to fit it too. ``beta`` is searched in ``[0, beta_max]``.
    Intervals: profile likelihood at ``level`` (see the module doc). ``players``: per record, whose decisions
    are fitted (see :func:`decision_data`; e.g. only the humans of class games).
    """
    if not 0 < level < 1:
        raise ModelError(f"level must be in (0, 1), not {level!r}")
    if not (isinstance(beta_max, (int, float)) and beta_max > 0):
        raise ModelError(f"beta_max must be > 0, not {beta_max!r}")
    if epsilon is not None and not (0 <= epsilon <= 1):
        raise ModelError(f"epsilon must be a probability in [0, 1] (or None to fit it), not {epsilon!r}")
    if isinstance(records, DecisionData) and players is not None:
        raise ModelError("players= chooses decisions while they are collected: pass the records, not DecisionData")
    data = records if isinstance(records, DecisionData) else decision_data(records, weights, players=players)
    q = float(stats.chi2.ppf(level, 1))

    if epsilon is None:
        def prof_beta(b):
            return _best_epsilon(data, data.log_softmax(b))[1]
    else:
        def prof_beta(b):
            return data.log_likelihood_from(data.log_softmax(b), epsilon)

    r = optimize.minimize_scalar(lambda b: -prof_beta(b), bounds=(0.0, beta_max), method="bounded",
                                 options={"xatol": 1e-5})
    beta = float(r.x)
    for edge in (0.0, beta_max):   # bounded Brent never evaluates the bounds themselves
        if prof_beta(edge) > prof_beta(beta):
            beta = edge
    ls = data.log_softmax(beta)
    if epsilon is None:
        eps, ll = _best_epsilon(data, ls)
    else:
        eps, ll = float(epsilon), data.log_likelihood_from(ls, epsilon)
    target = ll - q / 2
    ci_beta = _interval(prof_beta, beta, 0.0, beta_max, target)

    if epsilon is None:
        def prof_eps(e):
            rr = optimize.minimize_scalar(lambda b: -log_likelihood(data, b, e), bounds=(0.0, beta_max),
                                          method="bounded", options={"xatol": 1e-4})
            return max(-float(rr.fun), log_likelihood(data, beta, e))
        ci_eps = _interval(prof_eps, eps, 0.0, 1.0, target)
    else:
        ci_eps = (eps, eps)
    return FitResult(beta=beta, epsilon=eps, ci_beta=ci_beta, ci_epsilon=ci_eps, log_likelihood=ll,
                     n_decisions=data.n_decisions, level=level, weights=data.weights)
