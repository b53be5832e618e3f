"""A class calibrates the model to itself: the population prior over player types, fitted from finished games.

:func:`fit_population` is empirical Bayes. Every player of every full record
is one draw from the population: with their agent known (the record shows
it), their decisions have log-likelihood ``LL[i, k]`` under each type ``k``.
The prior weights ``pi`` that make the players most probable,
``max_pi sum_i log sum_k pi_k exp(LL[i, k])``, are found by EM; the
intervals come from a bootstrap over players. The result is a
:class:`~heimlich_lab.games.heimlich.inference.player_types.PlayerPopulation` (usable as
``model=``), saved and loaded as JSON with its fit.

>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import RandomBot
>>> recs = [play(Rules(), {p: RandomBot(10 * s + i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=s)
...         for s in range(3)]
>>> pop = fit_population(recs, bootstrap=20)
>>> pop.fit["players"], round(pop.describe_prior()["random"], 2) > 0.5     # random players: mostly random
(9, True)
>>> again = PlayerPopulation.from_json(pop.to_json())
>>> again.fit["intervals"] == pop.fit["intervals"]
True
"""
from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from ....errors import ModelError, RecordError
from ..rules.actions import DECISION_KINDS
from ..rules.records import GameRecord
from ..rules.replay import public_decisions
from .fit import _players_per_record
from .likelihoods import ask_model
from .player_types import PlayerPopulation, default_population

__all__ = ["fit_population", "player_type_log_likelihoods"]


def player_type_log_likelihoods(record: GameRecord, population: PlayerPopulation) -> dict[str, np.ndarray]:
    """``{player: LL (K,)}``: the log-likelihood of each player's decisions in a full record under each
    type, given the agent(s) the player really held (a player with two agents: the mean per decision)."""
    if not isinstance(record, GameRecord):
        raise ModelError(f"fit_population() takes GameRecords, not {type(record).__name__}")
    if not record.is_full:
        raise RecordError(f"fitting needs full records (who held which agent), not a {record.view} one")
    if record.start is not None:
        held = {p: [c] if isinstance(c, str) else list(c) for p, c in record.start.owners.items()}
    elif record.deal:
        held = {p: [c] for p, c in record.deal.items()}
    else:
        raise RecordError("the record has no deal yet")
    agents = record.rules.agents_for(len(record.players))
    ll = {p: np.zeros(len(population.types)) for p in record.players}
    for d in public_decisions(record, None):
        if d.action.kind == "take":
            held[d.to].append(record.log[d.index].action.args[0])
        elif d.action.kind in DECISION_KINDS:
            v = ask_model(population, d.view, d.actor, d.action, len(agents))
            if v is not None:
                cols = [agents.index(c) for c in held[d.actor]]
                with np.errstate(divide="ignore"):
                    ll[d.actor] = ll[d.actor] + logsumexp(v[:, cols], axis=1) - np.log(len(cols))
    return ll


def _em(LL: np.ndarray, prior: np.ndarray, iterations: int) -> np.ndarray:
    """The maximum-likelihood mixing weights of the rows of ``LL`` (players x types), by EM."""
    pi = prior.copy()
    for _ in range(iterations):
        with np.errstate(divide="ignore"):
            joint = LL + np.log(pi)
        r = np.exp(joint - logsumexp(joint, axis=1, keepdims=True))
        new = r.mean(axis=0)
        if np.abs(new - pi).max() < 1e-10:
            return new
        pi = new
    return pi


def fit_population(records, population: PlayerPopulation | None = None, *, iterations: int = 500,
                   bootstrap: int = 200, seed: int = 0, level: float = 0.95, players=None) -> PlayerPopulation:
    """The population prior over ``population``'s types (default :func:`default_population`) fitted to
    the players of full ``records``: a new :class:`PlayerPopulation` with the fitted weights and
    ``fit = {"players", "log_likelihood", "intervals": {type name: [low, high]}, "level"}``
    (bootstrap percentile intervals over players, ``bootstrap`` resamples, seeded). ``players``: per record,
    the players who are draws from the population (``None``: all; e.g. only the humans of class games,
    ``heimlich_lab.analysis.class_records(...).fit_players``)."""
    population = default_population() if population is None else population
    records, only = _players_per_record(records, players)
    if not records:
        raise ModelError("fit_population() needs at least one finished game")
    if not (0 < level < 1) or bootstrap < 0 or iterations < 1:
        raise ModelError("level must be in (0, 1), bootstrap >= 0 and iterations >= 1")
    LL = np.array([v for r, keep in zip(records, only)
                   for p, v in player_type_log_likelihoods(r, population).items() if keep is None or p in keep])
    if len(LL) == 0:
        raise ModelError("fit_population() has no player to fit: players= leaves none")
    start = np.full(len(population.types), 1.0 / len(population.types))
    pi = _em(LL, start, iterations)
    rng = np.random.default_rng(seed)
    boots = np.array([_em(LL[rng.integers(len(LL), size=len(LL))], pi, iterations) for _ in range(bootstrap)])
    lo, hi = (np.quantile(boots, [(1 - level) / 2, (1 + level) / 2], axis=0) if bootstrap else (pi, pi))
    fitted = PlayerPopulation(population.types, pi, population.weights)
    with np.errstate(divide="ignore"):
        total = float(logsumexp(LL + np.log(pi), axis=1).sum())
    fitted.fit = {"players": len(LL), "log_likelihood": total, "level": level,
                  "intervals": {n: [float(a), float(b)] for n, a, b in zip(fitted.type_names, lo, hi)}}
    return fitted
