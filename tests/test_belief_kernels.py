"""The compiled kernels of the population's likelihoods (``heimlich_lab/games/heimlich/inference/kernels.py``,
numba, an optional extra) give the array code's numbers within 1e-12: a whole game read at once with the kernels
against the array code, for the default population and one with other kinds of types (non-integer and integer
rationalities, a bluffer of another rationality and secrecy, hiders who cover (their cover step as arrays beside
the kernels), one of secrecy 0, no type that is the watch's model). Without numba the same kernels run as plain
Python (slowly), so this test checks them either way."""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.inference import kernels
from heimlich_lab.games.heimlich.inference.player_types import PlayerPopulation, PlayerType, default_population
from heimlich_lab.games.heimlich.rules.replay import public_decisions

TOL = 1e-12


def _other():
    return PlayerPopulation([PlayerType("random", 0.0, 0.0), PlayerType("boltzmann", 0.5, 0.1),
                             PlayerType("boltzmann", 2.0, 0.02), PlayerType("boltzmann", 7.5, 0.3),
                             PlayerType("bluff", 3.0, 0.1, secrecy=2.5),
                             PlayerType("cover", 2.0, 0.05, secrecy=2.0, cover=0.35),
                             PlayerType("cover", 2.0, 0.02, secrecy=0.0, cover=0.4, slack=3.0)])


@pytest.mark.parametrize("make", [default_population, _other])
@pytest.mark.parametrize("seed, n", [(4, 5), (9, 3)])
def test_the_kernels_give_the_array_codes_numbers(make, seed, n, monkeypatch):
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:n]
    kinds = [BoltzmannBot, BluffBot, GreedyBot, RandomBot]
    rec = play(Rules(), {p: kinds[i % 4](seed=seed + i) for i, p in enumerate(names)}, seed=seed)
    items = [(d.view, d.actor, d.action) for d in public_decisions(rec, None, until=40)]
    pop = make()
    pop.compiled = False
    plain = pop.batch_type_log_likelihoods(items)
    monkeypatch.setattr(kernels, "COMPILED", True)      # the kernels, compiled or not
    pop = make()
    fast = pop.batch_type_log_likelihoods(items)
    assert plain is not None and fast is not None
    assert [a is None for a in plain] == [b is None for b in fast]
    diffs = [float(np.abs(a - b).max()) for a, b in zip(plain, fast) if a is not None]
    assert diffs and max(diffs) <= TOL


def test_the_kernels_raise_integer_rationalities_by_squaring():
    U = np.array([[[0.0, -1.0], [-2.5, 0.0], [-1.0, -30.0]]])
    betas = np.array([0.3, 1.0, 3.0, 10.0, 64.0, 65.0])
    top, sums, e1 = kernels.option_sums(U, betas)
    c = U[0] - U[0].max(axis=0)
    want = np.array([np.exp(b * c).sum(axis=0) for b in betas])
    assert np.allclose(np.log(sums[:, 0]), np.log(want), rtol=0, atol=1e-13)
    assert np.array_equal(e1[0], np.exp(c)) and np.array_equal(top[0], [0.0, 0.0])
    assert not np.allclose(sums[1, 0], sums[2, 0])      # different rationalities, different sums
