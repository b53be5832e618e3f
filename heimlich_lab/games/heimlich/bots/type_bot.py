"""A bot that plays exactly as one type of a
:class:`~heimlich_lab.games.heimlich.inference.player_types.PlayerPopulation`.

With bots drawn from a population, the population is the true model of the table: the robust belief must
then be calibrated (the simulation-based calibration check in ``tests/test_player_types.py``).

>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.games.heimlich.inference.player_types import default_population
>>> pop = default_population()
>>> bots = {p: TypeBot(pop, k, seed=k) for k, p in zip((0, 2, 9), ["Ann", "Bob", "Cy"])}
>>> play(Rules(), bots, seed=1).result is not None
True
>>> bots["Bob"]
TypeBot(steady (β≈1), seed=2)
"""
from __future__ import annotations

import numpy as np

from ....errors import ModelError

__all__ = ["TypeBot", "draw_table"]


class TypeBot:
    """Plays type ``type_index`` of ``population`` for its own agent: each legal action with the probability
    the population's type gives it (its likelihood, so the model is exact for this bot). Seeded. Decisions
    the model does not read (dossier entries) are uniform. One agent per player (the basic game)."""

    name = "type"

    def __init__(self, population, type_index: int, seed: int | None = None):
        if not 0 <= type_index < len(population.types):
            raise ModelError(f"type_index must be 0 to {len(population.types) - 1}, not {type_index!r}")
        self.population, self.k, self.seed = population, int(type_index), seed
        self._rng = np.random.default_rng(seed)

    def __repr__(self):
        return f"TypeBot({self.population.type_names[self.k]}, seed={self.seed})"

    def choose(self, view, legal_actions):
        legal = list(legal_actions)
        agent = view.agents.index(view.own_agents[0])
        table = self.population.option_log_probabilities(view, view.viewer, legal)
        lls = [table[:, j, :] for j in range(len(legal))] if table is not None else \
            [self.population.type_log_likelihoods(view, view.viewer, x) for x in legal]
        if any(ll is None for ll in lls):
            p = np.full(len(legal), 1.0 / len(legal))
        else:
            p = np.exp([ll[self.k, agent] for ll in lls])
            if abs(p.sum() - 1.0) > 1e-6:
                raise ModelError(f"the type's probabilities over the legal actions sum to {p.sum():g}, not 1")
        return legal[int(self._rng.choice(len(legal), p=p / p.sum()))]


def draw_table(population, players, seed: int) -> dict:
    """Bots for ``players`` drawn from ``population``: a kind of table from its prior, then each player's
    type from that kind's weights (the generative story the robust belief inverts)."""
    rng = np.random.default_rng(seed)
    m = rng.choice(len(population.table_prior), p=population.table_prior)
    types = rng.choice(len(population.types), size=len(players), p=population.tables[m])
    return {p: TypeBot(population, int(k), seed=int(rng.integers(2**31))) for p, k in zip(players, types)}
