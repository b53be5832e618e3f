"""The core's transition step (inference/transition.py) on a toy space, and a check that the first game's
beliefs do not change through it."""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Belief as HeimlichBelief
from heimlich_lab import Rules, play
from heimlich_lab.bots import RandomBot
from heimlich_lab.errors import ModelError
from heimlich_lab.inference.core import HypothesisSpace, Posterior
from heimlich_lab.inference.transition import identity, permutation_index, swap, transition


def toy() -> Posterior:
    # two owners: A holds one of three slots, B the other two
    space = HypothesisSpace(["A", "B"], ["x", "y", "z"], [[0, 1, 1], [1, 0, 1], [1, 1, 0]])
    return Posterior(space, np.log([0.5, 0.3, 0.2]))


def test_a_permutation_moves_each_hypothesis_weight_to_the_hypothesis_it_becomes():
    post = toy()
    upd = transition(post, swap(post.space, "x", "z"), label="x<->z")
    assert post.posterior_vector() == pytest.approx([0.2, 0.3, 0.5])
    assert upd.kind == "transition" and upd.log_evidence == 0 and np.isnan(upd.likelihood_ratios()).all()
    assert post.history[-1] is upd and post.entropy() == pytest.approx(upd.entropy_before)


def test_a_mixture_adds_the_weighted_moves():
    post = toy()
    transition(post, [identity(post.space), swap(post.space, "x", "y")], weights=[0.6, 0.4])
    # P(A holds x) = 0.6 * 0.5 + 0.4 * 0.3
    assert post.probability({"x": "A"}) == pytest.approx(0.42)
    assert post.posterior_vector().sum() == pytest.approx(1.0)


def test_the_forward_algorithm_by_hand():
    # predict through a hidden swap, then update on a look: the numbers a student would compute
    post = toy()
    post.transition([identity(post.space), swap(post.space, "x", "y")], weights=[0.5, 0.5])   # the core's method
    assert post.posterior_vector() == pytest.approx([0.4, 0.4, 0.2])
    post.condition({"z": "B"})
    assert post.posterior_vector() == pytest.approx([0.5, 0.5, 0.0])


def test_moves_out_of_the_space_extend_it():
    space = HypothesisSpace(["A", "B"], ["x", "y", "z"], [[0, 1, 1], [1, 0, 1]])     # A is never on z
    post = Posterior(space)
    assert permutation_index(space, swap(space, "x", "z")) is None
    transition(post, swap(space, "x", "z"))
    assert len(post.space) == 2 and post.probability({"z": "A"}) == pytest.approx(0.5)


def test_bad_moves_are_refused_and_leave_the_posterior_unchanged():
    post = toy()
    before = post.posterior_vector()
    for bad, kw in [((0, 0, 1), {}), ((0, 1), {}), ([identity(post.space)], {"weights": [0.5]}),
                    ([identity(post.space), identity(post.space)], {"weights": [0.7, 0.7]})]:
        with pytest.raises(ModelError):
            transition(post, bad, **kw)
    assert post.posterior_vector() == pytest.approx(before) and post.history == []


def test_the_first_games_beliefs_are_unchanged_by_an_identity_transition():
    rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3)}, seed=5)
    belief = HeimlichBelief.from_record(rec, observer="Ann")
    post = belief.posterior()           # the core Posterior the belief holds (a copy)
    weights = post.posterior_vector()
    transition(post, identity(post.space))
    assert post.marginals() == pytest.approx(belief.marginals_array(), abs=1e-14)
    assert np.array_equal(post.posterior_vector(), weights)
    # and a swap there and back again
    transition(post, swap(post.space, 0, 1))
    transition(post, swap(post.space, 0, 1))
    assert post.posterior_vector() == pytest.approx(weights, abs=1e-15)
