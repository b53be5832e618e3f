"""The compiled kernels of the population's likelihoods (``heimlich_lab/games/heimlich/inference/kernels.py``,
numba, an optional extra) give the array code's numbers within 1e-12: a whole game read at once with the kernels
against the array code, for the default population and one with other kinds of types (non-integer and integer
rationalities, a bluffer of another rationality and secrecy, hiders who cover (their cover step as arrays beside
the kernels), one of secrecy 0, no type that is the watch's model), and Top Secret and dossier games against each
decision read alone. Without numba the same kernels run as plain Python (slowly), so these tests check them either
way."""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot, make_bot
from heimlich_lab.games.heimlich.inference import kernels
from heimlich_lab.games.heimlich.inference.player_types import (
    PlayerPopulation,
    PlayerType,
    careful_hiders_population,
    default_population,
)
from heimlich_lab.games.heimlich.rules.replay import public_decisions

TOL = 1e-12


def _other():
    return PlayerPopulation([PlayerType("random", 0.0, 0.0), PlayerType("boltzmann", 0.5, 0.1),
                             PlayerType("boltzmann", 2.0, 0.02), PlayerType("boltzmann", 7.5, 0.3),
                             PlayerType("bluff", 3.0, 0.1, secrecy=2.5),
                             PlayerType("cover", 2.0, 0.05, secrecy=2.0, cover=0.35),
                             PlayerType("cover", 2.0, 0.02, secrecy=0.0, cover=0.4, slack=3.0)])


def _kernels_on(monkeypatch):
    """The population reads with the kernels from now on: numba's where it compiles them, else the plain functions."""
    kernels.in_use()
    monkeypatch.setattr(kernels, "in_use", lambda: True)


def _game_items(seed, n):
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:n]
    kinds = [BoltzmannBot, BluffBot, GreedyBot, RandomBot]
    rec = play(Rules(), {p: kinds[i % 4](seed=seed + i) for i, p in enumerate(names)}, seed=seed)
    return [(d.view, d.actor, d.action) for d in public_decisions(rec, None, until=40)]


@pytest.mark.parametrize("make", [default_population, _other])
@pytest.mark.parametrize("seed, n", [(4, 5), (9, 3)])
def test_the_kernels_give_the_array_codes_numbers(make, seed, n, monkeypatch):
    items = _game_items(seed, n)
    pop = make()
    pop.compiled = False
    plain = pop.batch_type_log_likelihoods(items)
    _kernels_on(monkeypatch)
    pop = make()
    fast = pop.batch_type_log_likelihoods(items)
    assert plain is not None and fast is not None
    assert [a is None for a in plain] == [b is None for b in fast]
    diffs = [float(np.abs(a - b).max()) for a, b in zip(plain, fast) if a is not None]
    assert diffs and max(diffs) <= TOL


@pytest.mark.parametrize("make", [default_population, careful_hiders_population])
@pytest.mark.parametrize("options, seed, n", [({"top_secret": True}, 7, 5), ({"dossier": True}, 6, 6)])
def test_the_kernels_give_the_array_codes_numbers_with_cards_and_the_dossier(make, options, seed, n, monkeypatch):
    """Top Secret games (hand decisions, read with the spectator's rows one game at a time) and dossier games of
    bluffers and hiders, each decision read alone and the game read at once with the kernels."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:n]
    kinds = ["boltzmann", "bluff", "hider", "greedy", "random", "boltzmann"]
    rec = play(Rules(**options), {p: make_bot(kinds[i], seed=seed + i) for i, p in enumerate(names)}, seed=seed)
    assert not any(e.action.kind == "take" for e in rec.log)     # (a take: the game is read one by one)
    items = [(d.view, d.actor, d.action) for d in public_decisions(rec, None, until=60) if d.view is not None]
    _kernels_on(monkeypatch)
    pop = make()
    fast = pop.batch_type_log_likelihoods(items, hands=True)
    assert fast is not None
    pop.compiled = False
    exact = [pop.type_log_likelihoods(*d) for d in items]
    read = [(a, b) for a, b in zip(exact, fast) if a is not None]
    assert len(read) > 20 and [a is None for a in exact] == [b is None for b in fast]
    for a, b in read:
        assert np.array_equal(np.isneginf(a), np.isneginf(b))
        f = np.isfinite(a)
        assert np.allclose(a[f], b[f], rtol=0, atol=TOL), np.abs(a[f] - b[f]).max()


def test_fast_exp_is_within_three_ulp_of_numpy():
    x = np.concatenate([-np.geomspace(1e-12, 708.0, 4000), np.linspace(-40.0, 0.0, 4001)])
    got = np.array([kernels.fast_exp(v) for v in x])
    want = np.exp(x)
    assert np.max(np.abs(got - want) / want) <= 3 * 2.0 ** -52
    assert kernels.fast_exp(-709.0) == 0.0 and kernels.fast_exp(-np.inf) == 0.0 and kernels.fast_exp(0.0) == 1.0


@pytest.mark.parametrize("wb", [1.0, 2.0])
def test_the_option_sums_raise_integer_rationalities(wb):
    """Integer rationalities up to POWERS are raised from exp(U - top), the others have their own exp; the watch's
    exp is the rationality's own when it is one of them, its own otherwise."""
    rng = np.random.default_rng(7)
    sizes = np.array([3, 1, 40, 17])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    Ut = rng.normal(0.0, 4.0, (5, int(sizes.sum())))
    Ut[2, 5] = -np.inf                              # an option worth nothing to an agent
    top = np.maximum.reduceat(Ut, starts, axis=1)
    betas = np.array([0.3, 1.0, 3.0, 10.0, 16.0, 17.0, 2.5])
    sums, ew, sums_w = kernels.ragged_option_sums(Ut, top, starts, sizes, betas, wb)
    centred = Ut - top.repeat(sizes, axis=1)
    want = np.array([np.add.reduceat(np.exp(b * centred), starts, axis=1) for b in betas])
    assert np.allclose(sums, want, rtol=1e-14, atol=0)
    assert np.allclose(ew, np.exp(wb * centred), rtol=1e-14, atol=0) and ew[2, 5] == 0.0
    assert np.allclose(sums_w, np.add.reduceat(np.exp(wb * centred), starts, axis=1), rtol=1e-14, atol=0)
    assert not np.allclose(sums[3], sums[4])        # different rationalities, different sums


def test_the_kernels_are_compiled_wherever_numba_is_installed_and_not_refused():
    """`make test` runs this file a second time without HEIMLICH_NUMPY_ONLY (numba is in the `all` extra): the
    kernels are then numba's compiled functions, and the population uses them."""
    import importlib.util
    import os
    wanted = importlib.util.find_spec("numba") is not None and os.environ.get("HEIMLICH_NUMPY_ONLY", "") in ("", "0")
    assert kernels.WANTED == wanted == kernels.in_use() == kernels.COMPILED
    assert hasattr(kernels.ragged_option_sums, "signatures") == wanted      # a numba dispatcher, or the function


def test_kernels_that_do_not_compile_give_a_warning_and_the_array_code(monkeypatch):
    items = _game_items(4, 5)
    pop = default_population()
    pop.compiled = False
    plain = pop.batch_type_log_likelihoods(items)
    functions = {name: getattr(kernels, name) for name in kernels._KERNELS}

    def broken(*args):
        raise TypeError("no such signature")
    monkeypatch.setattr(kernels, "WANTED", True)
    monkeypatch.setattr(kernels, "_READY", None)
    monkeypatch.setattr(kernels, "COMPILED", False)
    monkeypatch.setattr(kernels, "_compiled_functions", lambda: {**functions, "ragged_option_sums": broken})
    with pytest.warns(RuntimeWarning, match="do not work here .TypeError: no such signature.; the array code"):
        got = default_population().batch_type_log_likelihoods(items)
    assert all(np.array_equal(a, b) for a, b in zip(plain, got) if a is not None)      # the array code's, bit for bit
    assert kernels.in_use() is False and kernels.COMPILED is False                  # asked once
    assert {name: getattr(kernels, name) for name in kernels._KERNELS} == functions    # the functions put back


def test_threads_asking_at_once_compile_once(monkeypatch):
    import threading
    import time
    calls = []
    functions = {name: getattr(kernels, name) for name in kernels._KERNELS}

    def counted():
        calls.append(1)
        time.sleep(0.05)        # (compiling takes a while: the other threads ask meanwhile)
        return functions
    monkeypatch.setattr(kernels, "WANTED", True)
    monkeypatch.setattr(kernels, "_READY", None)
    monkeypatch.setattr(kernels, "COMPILED", False)
    monkeypatch.setattr(kernels, "_compiled_functions", counted)
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(kernels.in_use())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [True] * 8 and calls == [1]
