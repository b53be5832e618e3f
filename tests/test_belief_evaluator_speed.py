"""Issue 26 item 3 (the evaluator at most 1.5x the bots-only games): the shortcuts of the evaluator's path give
the numbers of the plain path.

* :meth:`BeliefSet.marginals_arrays` (every observer's table computed at once from the type tables the replay
  kept shared) against each belief's own table (the tables handed to it, its posterior brought up to date) and
  against :meth:`Belief.from_record` one observer at a time, within 1e-12: the default population (several kinds
  of table, so observers read their own decisions too), a population of one kind of table (observers do not),
  a spectator among the observers, 3 to 7 players, Top Secret games (whose hand decisions end the sharing);
* the evaluator's scores of all observers at once against :func:`score_belief`, observer by observer.
"""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Belief, Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
from heimlich_lab.games.heimlich.inference.player_types import PlayerPopulation, PlayerType, default_population

TOL = 1e-12
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def _game(rules, seed, n):
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    return play(rules, {p: kinds[i % 4](seed + i) for i, p in enumerate(NAMES[:n])}, seed=seed)


def _one_kind_of_table():
    return PlayerPopulation([PlayerType("random", 0.0, 0.0), PlayerType("boltzmann", 1.0, 0.05),
                             PlayerType("boltzmann", 3.0, 0.25), PlayerType("bluff", 1.0, 0.05)], [0.3, 0.4, 0.2, 0.1])


@pytest.mark.parametrize("make_model", [default_population, _one_kind_of_table])
@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(), 11, 7),
                                            (Rules(top_secret=True), 5, 4)])
def test_every_observers_table_at_once_equals_each_beliefs_own(make_model, rules, seed, n):
    rec = _game(rules, seed, n)
    model = make_model()
    bs = BeliefSet.from_record(rec, model=model, keep_updates=False, spectator=True)
    at_once = bs.marginals_arrays()
    assert sorted(at_once, key=str) == sorted([*rec.players, None], key=str)
    for o, b in bs.beliefs.items():             # reading the beliefs hands them their tables
        assert np.allclose(at_once[o], b.marginals_array(), rtol=0, atol=TOL)
        alone = Belief.from_record(rec, o, model=make_model(), keep_updates=False)
        assert np.allclose(at_once[o], alone.marginals_array(), rtol=0, atol=TOL)
    assert bs.own_agents[None] == () and all(bs.own_agents[p] == bs[p].own_agents for p in rec.players)


def test_the_tables_at_once_can_tell_a_difference():
    """The comparison above is not vacuous: another game's tables differ by far more than the tolerance."""
    a = BeliefSet.from_record(_game(Rules(), 3, 5), keep_updates=False).marginals_arrays()
    b = BeliefSet.from_record(_game(Rules(), 4, 5), keep_updates=False).marginals_arrays()
    assert max(float(np.abs(a[p] - b[p]).max()) for p in a) > 0.01
