"""Issue 26 item 3: the batch likelihoods' large temporaries come from a :class:`Scratch` reused from call to call.

* :class:`Scratch` hands out arrays that do not overlap within a call, from one buffer that grows to what the last
  call took; arrays it handed out before a :meth:`~Scratch.reset` are written over after it;
* :func:`exp_option_sums` with a scratch's ``take`` gives exactly the numbers it gives with new arrays (every
  plan: integer betas, a common root, betas without one), even when the scratch's arrays hold leftovers;
* the batch likelihoods of one game do not change when other games are read after them (nothing they return lives
  in the scratch), a call within a call takes its own arrays, and the numbers are those of the one-by-one reading.
"""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.inference import player_types
from heimlich_lab.games.heimlich.inference.player_types import Scratch, default_population, exp_option_sums
from heimlich_lab.games.heimlich.rules.replay import public_decisions


def _items(seed, n=5):
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:n]
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    rec = play(Rules(), {p: kinds[i % 4](seed + i) for i, p in enumerate(names)}, seed=seed)
    return [(d.view, d.actor, d.action) for d in public_decisions(rec, None) if d.view is not None]


def test_scratch_arrays_do_not_overlap_and_the_buffer_grows_to_a_call():
    s = Scratch()
    shapes = [(3, 7, 11), (1,), (2, 5), (4, 3, 7, 11), (9,)]
    first = [s.take(sh) for sh in shapes]           # an empty buffer: all new
    assert [a.shape for a in first] == shapes and s.size == 0
    s.reset()
    total = sum(-(-int(np.prod(sh)) // 8) * 8 for sh in shapes)
    assert s.size == total
    got = [s.take(sh) for sh in shapes]
    assert all(a.base is s._buf for a in got)
    for i, a in enumerate(got):
        assert a.ctypes.data % 64 == s._buf.ctypes.data % 64          # every array on a 64-byte step
        for b in got[i + 1:]:
            assert not np.shares_memory(a, b)
    extra = s.take((100,))                          # beyond the buffer: a new array, and room next time
    assert extra.base is not s._buf
    s.reset()
    assert s.size == total + 104
    assert all(s.take(sh).base is s._buf for sh in shapes) and s.take((100,)).base is s._buf


@pytest.mark.parametrize("betas", [[0.3, 1.0, 3.0, 10.0], [1.0, 3.0, 10.0], [0.3, 3.0], [0.5, 2.5, 7.0], [0.7],
                                   [2.0, 4.0], [0.3, 0.25, 1.0]])
def test_exp_option_sums_from_a_scratch_are_the_same_numbers(betas):
    rng = np.random.default_rng(7)
    c = -np.abs(rng.normal(size=(4, 6, 23)) * 15)
    c[..., 0] = 0.0
    c[1, :, 5:] = -np.inf                           # a padded table: impossible options
    c[2, :, 3] = c[2, :, 4]                         # ties
    want_sums, want_e1 = exp_option_sums(c, betas)
    s = Scratch()
    for _ in range(3):                              # new arrays, then the buffer, its leftovers written over
        s.reset()
        junk = s.take((50,))
        junk.fill(np.nan)
        sums, e1 = exp_option_sums(c, betas, s.take)
        assert np.array_equal(sums, want_sums)
        assert (e1 is None) == (want_e1 is None)
        if e1 is not None:
            assert np.array_equal(e1, want_e1)
        s.reset()
        s.take((50,)).fill(np.nan)
        for _ in range(20):                         # the next call's leftovers: NaN everywhere
            s.take(c.shape).fill(np.nan)


def test_batch_results_survive_later_calls_and_agree_one_by_one():
    pop = default_population()
    games = [_items(seed) for seed in (3, 4, 5)]
    for items in games:                             # the scratch grown to every game's need (then not replaced)
        pop.batch_type_log_likelihoods(items)
    first = pop.batch_type_log_likelihoods(games[0])
    kept = [None if a is None else a.copy() for a in first]
    for items in games[:1] + games[1:]:             # other games' tables through the same scratch
        pop.batch_type_log_likelihoods(items)
    assert all((a is None and b is None) or np.array_equal(a, b) for a, b in zip(first, kept))
    one = [pop.type_log_likelihoods(*d) for d in games[0]]
    assert max(float(np.abs(a - b).max()) for a, b in zip(first, one) if a is not None) < 1e-12


def test_a_call_within_a_call_takes_its_own_scratch(monkeypatch):
    pop = default_population()
    a, b = _items(6), _items(7)
    want_a, want_b = pop.batch_type_log_likelihoods(a), pop.batch_type_log_likelihoods(b)
    inner = {}
    used = []
    real_batch = player_types.PlayerPopulation._batch

    def spy(self, decisions, hands, scratch):
        used.append(scratch)
        if len(used) == 1:          # the outer call reads the other game first, from inside
            inner["b"] = self.batch_type_log_likelihoods(b)
        return real_batch(self, decisions, hands, scratch)

    monkeypatch.setattr(player_types.PlayerPopulation, "_batch", spy)
    got_a = pop.batch_type_log_likelihoods(a)
    assert used[0] is not used[1]
    for got, want in ((got_a, want_a), (inner["b"], want_b)):
        assert all((x is None and y is None) or np.array_equal(x, y) for x, y in zip(got, want))
    assert not used[0].busy
