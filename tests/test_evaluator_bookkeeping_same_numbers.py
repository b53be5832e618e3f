"""Issue 26 item 3, sixth session (branch book32): the evaluator's bookkeeping outside the likelihood, done with less
work, gives the numbers of the code it replaced (copied here as the reference): every observer's marginal table
from the shared type tables summed over that observer's own hypotheses only (within 1e-13 of the sums over every
hypothesis with the others weighted 0).
"""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.inference import belief_set as bs_module
from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
from heimlich_lab.inference.core import log_sum_exp

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def _game(rules, seed, n):
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    return play(rules, {p: kinds[i % 4](seed + i) for i, p in enumerate(NAMES[:n])}, seed=seed)


def _marginals_before(shared) -> dict:
    """``_SharedTypeTables.marginals`` as it was (h32 at fabb3bd): every observer's weights over every hypothesis of
    the spectator (0 where it does not hold its own agent), summed over all of them."""
    beliefs = list(shared.beliefs.items())
    first = beliefs[0][1]
    pop = first.posterior().population_log_prior
    actors = list(shared.tables)
    then = log_sum_exp(shared.prior, 1)
    gains = log_sum_exp(np.stack([shared.tables[a] for a in actors]), 2) - then[None, :, None]
    Q, M, A = gains.shape
    full = bs_module._spectator_space(first.players, first.agents)
    factors = np.exp(gains - gains.max(axis=(1, 2), keepdims=True)).transpose(0, 2, 1).reshape(Q * A, M)
    singles = bs_module._single_slots(full)
    rows = singles[[full.owner_index(a) for a in actors]] + (A * np.arange(Q))[:, None]
    weights = np.take(factors, rows, axis=0).prod(axis=0) @ np.exp(pop)
    players = [o for o, _ in beliefs if o is not None]
    own = np.array([first.agents.index(b.own_agents[0]) for o, b in beliefs if o is not None], dtype=np.intp)
    held = weights * (singles[[full.owner_index(o) for o in players]] == own[:, None])
    z = held.sum(axis=1)
    scaled = held / z[:, None]
    out, at = {}, 0
    for o, b in beliefs:
        if o is None:
            out[o] = full.event_sums(weights / weights.sum())
        else:
            out[o] = full.event_sums(scaled[at])
            at += 1
    return out


@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(), 11, 7),
                                            (Rules(), 2, 4), (Rules(dossier=True), 6, 6)])
def test_every_observers_table_over_its_own_hypotheses_is_the_one_over_every_hypothesis(rules, seed, n):
    rec = _game(rules, seed, n)
    bs = BeliefSet.from_record(rec, keep_updates=False, spectator=True, until="dossier")
    shared = bs._shared
    assert shared is not None and shared.tables
    want = _marginals_before(shared)
    got = bs.marginals_arrays()
    assert sorted(got, key=str) == sorted(want, key=str)
    for o in want:
        assert got[o].shape == want[o].shape
        assert np.abs(got[o] - want[o]).max() < 1e-13, o
    # an observer's rows are its own hypotheses, in their order (the space its belief starts from)
    full = bs_module._spectator_space(bs.players, bs.agents)
    for p in rec.players:
        b = bs._beliefs[p]
        idx, space = bs_module._held_rows(full, full.owner_index(p), full.slot_index(b.own_agents[0]))
        assert np.array_equal(space.table, b.space.table) and np.array_equal(full.table[idx], b.space.table)


def test_the_reference_can_tell_an_observer_from_another():
    """Not vacuous: another observer's rows give another table, by far more than the tolerance."""
    rec = _game(Rules(), 3, 5)
    bs = BeliefSet.from_record(rec, keep_updates=False)
    got = bs.marginals_arrays()
    assert np.abs(got["Ann"] - got["Bob"]).max() > 0.1
