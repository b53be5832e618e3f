"""The parts of issue 26's speed-ups that are not numbers (those are in test_belief_speedups_same_numbers.py):
the kit's logsumexp against scipy's, type posteriors read lazily and remembered per state, the utilities every
model of the same weights shares, and ``heimlich-lab bench --only limits`` (a smoke run: figures, no timings)."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.special

from heimlich_lab.inference.core import HypothesisSpace, logsumexp
from heimlich_lab.inference.mixture import TypedPosterior


@pytest.mark.parametrize("seed", range(5))
def test_logsumexp_is_scipys_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    for _ in range(200):
        shape = tuple(rng.integers(1, 7, size=rng.integers(1, 4)))
        a = rng.normal(size=shape) * rng.choice([0.1, 1.0, 40.0])
        a[rng.random(shape) < 0.3] = -np.inf
        if rng.random() < 0.3:
            a = np.round(a)          # ties for the largest entry
        for axis in (None, *range(a.ndim)):
            for keepdims in (False, True):
                want = scipy.special.logsumexp(a, axis=axis, keepdims=keepdims)
                got = logsumexp(a, axis, keepdims)
                assert np.shape(got) == np.shape(want)
                assert np.array_equal(got, want), (a, axis)


def test_logsumexp_of_nothing_is_minus_infinity_as_in_scipy():
    for a, axis in ((np.zeros(0), None), (np.zeros((2, 0)), 1), (np.zeros((0, 3)), 0)):
        assert np.array_equal(logsumexp(a, axis), scipy.special.logsumexp(a, axis=axis))


def _typed():
    space = HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue", "green"])
    return TypedPosterior(space, np.log([[0.5, 0.5], [0.2, 0.8]]), ("random", "loyal"),
                          population_names=("beginners", "experts"))


def test_type_posteriors_are_remembered_per_state_and_read_when_asked():
    post = _typed()
    first = post.type_posterior_reader("Ann")
    assert post.type_posterior_reader("Ann") is first            # the same state: the same reader
    before = first()
    post.update_actor("Ann", np.log([[0.1, 0.1, 0.1], [0.9, 0.8, 0.7]]))
    after = post.type_posterior_reader("Ann")
    assert after is not first
    assert np.array_equal(first(), before)                        # a reader keeps its state's answer
    assert not np.allclose(after(), before)
    got = after()
    got[0] = 99.0                                                 # callers get copies
    assert after()[0] != 99.0
    # the same numbers as a posterior that never cached anything
    fresh = _typed()
    fresh.update_actor("Ann", np.log([[0.1, 0.1, 0.1], [0.9, 0.8, 0.7]]))
    assert np.array_equal(fresh.type_posterior("Ann"), after())
    assert np.array_equal(post.copy().type_posterior("Bob"), fresh.type_posterior("Bob"))


def test_a_steps_type_readings_are_a_pair_computed_when_read():
    from heimlich_lab import Belief, Rules, play
    from heimlich_lab.bots import RandomBot
    rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3)}, seed=4)
    b = Belief.from_record(rec, "Ann")
    step = next(s for s in b.history if s.kind == "observation" and s.actor != "Ann")
    before, after = step.types
    assert len(step.types) == 2 and before.shape == after.shape == (len(b.model.types),)
    assert abs(before.sum() - 1) < 1e-12 and abs(after.sum() - 1) < 1e-12
    assert np.array_equal(step.types[1], after) and "array" in repr(step.types)


def test_models_of_the_same_weights_share_one_utility():
    from heimlich_lab.games.heimlich.inference.likelihoods import default_model
    from heimlich_lab.games.heimlich.inference.model import BoltzmannModel
    from heimlich_lab.games.heimlich.inference.utility import Utility, UtilityWeights
    from heimlich_lab.errors import ModelError
    a, b, pop = BoltzmannModel(), BoltzmannModel(beta=3.0), default_model()
    assert a.utility is b.utility is pop.utility is Utility.shared()
    other = BoltzmannModel(weights=UtilityWeights(risk=0.5))
    assert other.utility is not a.utility and other.utility.weights == UtilityWeights(risk=0.5)
    Utility.clear_shared()
    assert BoltzmannModel().utility is not a.utility              # a cold cache after clear_shared
    with pytest.raises(ModelError, match="UtilityWeights"):
        Utility.shared({"risk": 0.5})


def test_bench_limits_prints_its_figures(monkeypatch):
    from heimlich_lab.commands.bench import benchmarks
    from heimlich_lab.games.heimlich.benchmarks import limits
    assert benchmarks()["limits"].endswith("benchmarks.limits:bench_limits")
    w, wo = limits.beliefs_vs_bots(games=1, rounds=1)
    d, b, n = limits.from_record_default_vs_boltzmann(1, 1)
    step, steps = limits.board_step(1)
    assert w > 0 and wo > 0 and d > 0 and b > 0 and n > 10 and step > 0 and steps > 20


def test_the_boards_last_moves_are_what_a_full_read_of_the_log_gives():
    from heimlich_lab import Game, Rules
    from heimlich_lab.bots import RandomBot
    from heimlich_lab.games.heimlich.widget.state import last_moves

    def full_read(view):
        out: dict = {}
        for e in view.log:
            if e.kind in ("move", "play") and e.data.get("moves") and e.player is not None:
                out[e.player] = {c: list(ft) for c, ft in e.data["moves"].items()}
        return out

    players = ["Ann", "Bob", "Cy", "Dee"]
    g = Game(players, Rules(top_secret=True), seed=3)
    bots = {p: RandomBot(seed=i) for i, p in enumerate(players)}
    checked = 0
    while not g.is_over and checked < 400:
        for viewer in (None, "Bob"):
            v = g.view(viewer)
            got = last_moves(v)
            assert got == full_read(v) and list(got) == list(full_read(v))
        actor = g.current_player
        g.apply(bots[actor].choose(g.view(actor), g.legal_actions()), player=actor)
        checked += 1
    assert checked > 20
