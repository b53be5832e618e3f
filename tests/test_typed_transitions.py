"""The player-type mixture with transitions: TypedPosterior against brute force over types and hidden moves."""
from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from heimlich_lab.errors import ModelError
from heimlich_lab.inference.core import HypothesisSpace, Posterior
from heimlich_lab.inference.mixture import TypedPosterior
from heimlich_lab.inference.transition import identity, swap

RNG = np.random.default_rng(7)


def brute_force(space, type_prior, steps, actor_of_slot=None):
    """P(final arrangement) by enumerating the start, every actor's type and every hidden move.

    ``steps``: ("obs", actor, f) with f(table_row, type) -> likelihood, or ("move", [perm...], [weight...]).
    Types are per actor (the owners, or names given by ``actor_of_slot``), fixed for the game."""
    actors = sorted({s[1] for s in steps if s[0] == "obs"})
    moves = [s for s in steps if s[0] == "move"]
    out: dict[tuple, float] = {}
    for h in range(len(space)):
        for types in product(range(len(type_prior)), repeat=len(actors)):
            kind = dict(zip(actors, types))
            for choice in product(*[range(len(m[1])) for m in moves]):
                row = tuple(space.table[h])
                w = 1.0 / len(space) * np.prod([type_prior[t] for t in types])
                it = iter(choice)
                for s in steps:
                    if s[0] == "move":
                        c = next(it)
                        perm = s[1][c]
                        new = [0] * len(row)
                        for i, p in enumerate(perm):
                            new[p] = row[i]
                        row, w = tuple(new), w * s[2][c]
                    else:
                        w *= s[2](row, kind[s[1]])
                out[row] = out.get(row, 0.0) + w
    z = sum(out.values())
    return {r: v / z for r, v in out.items()}


def probabilities(post) -> dict[tuple, float]:
    out: dict[tuple, float] = {}
    for row, p in zip(post.space.table, post.posterior_vector()):
        out[tuple(int(x) for x in row)] = out.get(tuple(int(x) for x in row), 0.0) + float(p)
    return out


def assert_close(got, want):
    keys = set(got) | set(want)
    for k in keys:
        assert got.get(k, 0.0) == pytest.approx(want.get(k, 0.0), abs=1e-12), k


def test_owners_types_follow_them_through_hidden_swaps():
    # owners A and B hold one of the slots x, y, z; their types (loyal or random) are learned from what they do,
    # while the contents of the slots are swapped, once seen and once unseen
    space = HypothesisSpace.assignments(["A", "B"], ["x", "y", "z"])
    prior = np.array([0.6, 0.4])
    values = np.log(RNG.uniform(0.05, 1.0, size=(4, 2, 3)))   # (observation, type, slot)

    def lik(t, owner):
        return lambda row, k: np.exp(values[t][k][row.index(owner)])

    post = TypedPosterior(space, np.log(prior), ("loyal", "random"))
    steps = []
    post.update_actor("A", values[0]); steps.append(("obs", 0, lik(0, 0)))
    post.transition(swap(space, "x", "y")); steps.append(("move", [swap(space, "x", "y")], [1.0]))
    post.update_actor("B", values[1]); steps.append(("obs", 1, lik(1, 1)))
    moves = [swap(space, "y", "z"), identity(space)]
    post.transition(moves, [0.3, 0.7], merge=False); steps.append(("move", moves, [0.3, 0.7]))
    post.update_actor("A", values[2]); steps.append(("obs", 0, lik(2, 0)))
    post.update_actor("B", values[3]); steps.append(("obs", 1, lik(3, 1)))
    assert_close(probabilities(post), brute_force(space, prior, steps))
    assert len(post) == 2 * len(space)   # the unseen swap kept both histories apart


def test_actors_that_are_not_owners_read_per_hypothesis_through_hidden_moves():
    # teams own seats; the players (the seats' occupants) have types; a choice's likelihood depends on the
    # whole arrangement (who is on whose team)
    space = HypothesisSpace.assignments(["CIA", "KGB"], ["Ann", "Bob", "Cy", "mid"], {"CIA": 2, "KGB": 1})
    prior = np.array([0.7, 0.3])
    players = ["Ann", "Bob", "Cy"]

    def helps(a, b, strength):
        def f(row, k):
            if k == 1:
                return 0.5
            return strength if row[players.index(a)] == row[players.index(b)] else 1 - strength
        return f

    def loglik(post, f):
        return np.log([[f(tuple(r), k) for r in post.space.table] for k in range(2)])

    post = TypedPosterior(space, np.log(prior), ("team", "random"), actors=players)
    steps = []
    f = helps("Ann", "Bob", 0.9)
    post.update_types([("Ann", loglik(post, f))]); steps.append(("obs", "Ann", f))
    moves = [swap(space, "Ann", "mid"), swap(space, "Bob", "mid")]
    post.transition(moves, [0.5, 0.5], merge=False); steps.append(("move", moves, [0.5, 0.5]))
    f, g = helps("Cy", "Ann", 0.8), helps("Ann", "Cy", 0.7)
    post.update_types([("Cy", loglik(post, f)), ("Ann", loglik(post, g))])   # one event, two deciders
    steps += [("obs", "Cy", f), ("obs", "Ann", g)]
    post.transition(swap(space, "Bob", "Cy"), merge=False); steps.append(("move", [swap(space, "Bob", "Cy")], [1.0]))
    f = helps("Bob", "Ann", 0.95)
    post.update_types([("Bob", loglik(post, f))]); steps.append(("obs", "Bob", f))
    assert_close(probabilities(post), brute_force(space, prior, steps))
    assert len(post.history) == 5


def test_one_update_of_several_deciders_equals_their_updates_one_by_one():
    space = HypothesisSpace.assignments(["CIA", "KGB"], ["Ann", "Bob", "Cy"], {"CIA": 2, "KGB": 1})
    a, b = (np.log(RNG.uniform(0.1, 1, size=(2, 3))) for _ in range(2))
    one = TypedPosterior(space, np.log([0.5, 0.5]), ("team", "random"), actors=["Ann", "Bob", "Cy"])
    two = one.copy()
    one.update_types([("Ann", a), ("Bob", b), ("Ann", b)])
    for who, v in (("Ann", a), ("Bob", b), ("Ann", b)):
        two.update_types([(who, v)])
    np.testing.assert_allclose(one.marginals(), two.marginals(), atol=1e-14)
    for p in ("Ann", "Bob", "Cy"):
        np.testing.assert_allclose(one.type_posterior(p), two.type_posterior(p), atol=1e-14)
    assert (len(one.history), len(two.history)) == (1, 3)


def test_moves_that_merge_histories_and_bad_input_are_refused_and_change_nothing():
    space = HypothesisSpace.assignments(["A", "B"], ["x", "y", "z"])
    post = TypedPosterior(space, np.log([0.5, 0.5]), ("a", "b"))
    post.update_actor("A", np.log([[0.9, 0.1, 0.1], [0.3, 0.3, 0.3]]))
    mark = (post.marginals(), len(post), len(post.history), post.type_posterior("A"))
    with pytest.raises(ModelError, match="merge=False"):
        post.transition([swap(space, "x", "y"), identity(space)], [0.5, 0.5])
    with pytest.raises(ModelError, match="update_types"):
        post.update_types([("A", np.zeros((2, 6)))])
    with pytest.raises(ModelError, match="parents"):
        post.move_to(space, post.log_weights, np.arange(len(space)) + 1)
    actors = TypedPosterior(space, np.log([0.5, 0.5]), ("a", "b"), actors=["P", "Q"])
    with pytest.raises(ModelError, match="shape"):
        actors.update_types([("P", np.zeros((2, 5)))])
    with pytest.raises(ModelError, match="unknown actor"):
        actors.update_types([("Zed", np.zeros((2, 6)))])
    with pytest.raises(ModelError, match="update_types"):
        actors.update_actor("A", np.zeros(3))
    assert len(actors.history) == 0
    after = (post.marginals(), len(post), len(post.history), post.type_posterior("A"))
    np.testing.assert_array_equal(mark[0], after[0])
    assert mark[1:3] == after[1:3]
    np.testing.assert_array_equal(mark[3], after[3])


def test_a_rewind_undoes_a_transition_of_types():
    space = HypothesisSpace.assignments(["A", "B"], ["x", "y", "z"])
    post = TypedPosterior(space, np.log([0.5, 0.5]), ("a", "b"))
    seen = np.log([[0.9, 0.1, 0.1], [0.3, 0.3, 0.3]])
    post.update_actor("A", seen)
    fresh = post.copy()
    mark = post.checkpoint()
    post.transition(swap(space, "x", "z"))        # the same space: one permutation of a closed space
    post.update_actor("B", seen)
    post.rewind(mark)
    for p in (post, fresh):
        p.update_actor("B", seen)
    np.testing.assert_array_equal(post.marginals(), fresh.marginals())
    np.testing.assert_array_equal(post.type_posterior("B"), fresh.type_posterior("B"))


def test_a_transition_of_an_untyped_posterior_is_unchanged_by_the_parents_it_now_reports():
    space = HypothesisSpace.assignments(["A", "B"], ["x", "y", "z"])
    lw = np.log(RNG.dirichlet(np.ones(len(space))))
    for merge in (True, False):
        post = Posterior(space, lw)
        moves = [swap(space, "x", "y"), swap(space, "y", "z")]
        post.transition(moves, [0.25, 0.75], merge=merge)
        want = Posterior(space, lw)
        p = np.zeros(len(space)) if merge else None
        if merge:   # by hand: each hypothesis moves to the one it becomes
            from heimlich_lab.inference.transition import permutation_index
            for m, w in zip(moves, (0.25, 0.75)):
                np.add.at(p, permutation_index(space, m), w * np.exp(lw))
            np.testing.assert_allclose(post.posterior_vector(), p, atol=1e-15)
        else:
            np.testing.assert_allclose(post.posterior_vector(), np.concatenate([0.25 * np.exp(lw), 0.75 * np.exp(lw)]),
                                       atol=1e-15)
        assert want.history == [] and post.history[-1].kind == "transition"
