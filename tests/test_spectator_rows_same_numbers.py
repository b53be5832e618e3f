"""The spectator's rows along a game (:func:`~heimlich_lab.games.heimlich.inference.exposure._rows_by_subsets`) give
bit for bit the numbers of the recursion as it was written before its steps were laid along memory (kept below as
the plain formula): the same products, gathered the same way, summed in the same order."""
import numpy as np
import pytest

from heimlich_lab.games.heimlich.inference import exposure


def _plain(actors, values, n_players, n_slots):
    """The recursion step by step, steps along the first axis (the code before)."""
    T = len(actors)
    logs = np.zeros((T + 1, n_players, n_slots))
    given = [t for t, v in enumerate(values) if v is not None]
    if given:
        V = np.asarray([values[t] for t in given], dtype=float)
        tops = V.max(axis=1)
        if not tops.min() > -np.inf:
            return None
        logs[np.asarray(given) + 1, np.asarray(actors)[given]] = V - tops[:, None]
        np.cumsum(logs, axis=0, out=logs)
    top = logs.max(axis=2, keepdims=True)
    if not np.isfinite(top).all():
        return NotImplemented
    g = np.exp(logs - top)
    who = np.array([*actors, actors[-1]])
    at = np.arange(T + 1)
    steps, free = exposure._subset_layers(n_slots, n_players)
    f = np.ones((T + 1, 1))
    for k, src in enumerate(steps):
        others = k + (who <= k)
        f = (f[:, :, None] * g[at, others][:, None, :]).reshape(T + 1, -1)[:, src].sum(axis=2)
    rows = g[at, who] * f[:, free].sum(axis=2)
    z = rows.sum(axis=1)
    if not z.min() > 0:
        return None
    return list(rows[:T] / z[:T, None])


@pytest.mark.parametrize("n_players,n_slots,T", [(2, 3, 7), (3, 5, 30), (5, 7, 41), (5, 7, 1), (6, 8, 50),
                                                 (7, 9, 45)])
def test_the_rows_by_subsets_are_the_plain_recursion_bit_for_bit(n_players, n_slots, T):
    rng = np.random.default_rng(n_players * 100 + T)
    for trial in range(4):
        # runs of one actor's steps (a turn's points, move, safe), some steps without values, strong and weak evidence
        actors = list(np.repeat(rng.integers(0, n_players, T), 1)[:T])
        values = [None if rng.random() < 0.1 else rng.normal(0, 4 * trial + 0.5, n_slots) for _ in range(T)]
        if trial == 3 and T > 3:
            values[2] = np.where(np.arange(n_slots) == 1, -np.inf, 0.0)       # an agent the step rules out
        got = exposure._rows_by_subsets(actors, values, n_players, n_slots)
        want = _plain(actors, values, n_players, n_slots)
        assert len(got) == len(want) == T
        for a, b in zip(got, want):
            assert a.shape == (n_slots,) and np.array_equal(a, b)


def test_the_rows_by_subsets_say_impossible_as_before():
    never = np.full(7, -np.inf)
    ok = np.zeros(7)
    assert exposure._rows_by_subsets([0, 1], [ok, never], 5, 7) is None is _plain([0, 1], [ok, never], 5, 7)
    one = np.where(np.arange(7) == 2, 0.0, -np.inf)    # player 0 holds agent 2, then player 0 cannot
    other = np.where(np.arange(7) == 2, -np.inf, 0.0)
    got = exposure._rows_by_subsets([0, 0, 1], [one, other, ok], 5, 7)
    assert got is _plain([0, 0, 1], [one, other, ok], 5, 7)


@pytest.mark.parametrize("n_players,n_slots", [(1, 3), (2, 3), (3, 5), (5, 7), (6, 8), (7, 9)])
def test_the_subset_plan_is_the_layers_transposed(n_players, n_slots):
    """:func:`_subset_plan` (what :func:`_subset_rows` reads, the products' axis first) holds :func:`_subset_layers`'
    gathers: each layer's (subset without an agent, agent) pairs in the same order, the free subsets, the layers."""
    steps, free = exposure._subset_layers(n_slots, n_players)
    split, free_t, layer = exposure._subset_plan(n_slots, n_players)
    assert len(split) == len(steps) == n_players - 1 and layer.ravel().tolist() == list(range(len(steps)))
    for (without, added), src in zip(split, steps):
        assert without.flags.c_contiguous and added.flags.c_contiguous
        assert np.array_equal((without * n_slots + added).T, src)
    assert free_t.flags.c_contiguous and np.array_equal(free_t.T, free)
    assert exposure._subset_plan(n_slots, n_players) is exposure._subset_plan(n_slots, n_players)


def test_the_fed_spectator_reads_each_space_slots_as_the_space_says():
    """The slots and owners kept per hypothesis space are the space's own, whichever spaces came before."""
    from heimlich_lab import Game
    from heimlich_lab.games.heimlich.inference.belief import Belief
    from heimlich_lab.games.heimlich.inference.model import BoltzmannModel

    model = BoltzmannModel()
    for players in (["Ann", "Bob", "Cy"], ["Ann", "Bob", "Cy", "Dee", "Eve"], ["Ann", "Bob", "Cy"], ["Bo", "Al"]):
        view = Game(players, seed=1).view(None)
        post = Belief.at_start(view.players, view.agents, None, model, keep_updates=False).posterior()
        fed = exposure._FedSpectator(post, len(view.log), view.log)
        space = post.space
        assert fed.owners == {name: o for o, name in enumerate(space.owners)}
        assert len(fed.single) == space.n_owners
        assert all(np.array_equal(a, space.single_slot(o)) for o, a in enumerate(fed.single))


@pytest.mark.parametrize("n_players", [2, 3, 5])
def test_the_rows_stacked_are_the_rows_along(n_players):
    """:meth:`PublicWatch.rows_stacked` (every step's values in one array) against :meth:`rows_along` (steps as
    pairs): the same numbers, from a fresh start, after a decision (the spectator no longer alike over the
    assignments: the step by step way), with an impossible step, and for a game that started from a position."""
    from heimlich_lab import Game, Position, Rules
    from heimlich_lab.games.heimlich.inference.exposure import PublicWatch
    from heimlich_lab.games.heimlich.inference.model import BoltzmannModel

    players = ["Ann", "Bob", "Cy", "Dee", "Eve"][:n_players]
    g = Game(players, Rules(), seed=1)
    rng = np.random.default_rng(n_players)
    model = BoltzmannModel()
    views = [g.view(None)]
    g.apply(g.legal_actions()[0])
    while g.phase != views[0].phase or g.current_player == players[0]:     # a view after decisions: not alike
        g.apply(g.legal_actions()[0])
    views.append(g.view(None))
    for view in views:
        actors = [players[t % n_players] for t in range(25)]
        V = rng.normal(0, 3, (25, len(view.agents)))
        want = PublicWatch(model).rows_along(view, list(zip(actors, V)))
        got = PublicWatch(model).rows_stacked(view, actors, V)
        assert got.shape == V.shape and all(np.array_equal(a, b) for a, b in zip(got, want))
        never = V.copy()
        never[3] = -np.inf
        assert PublicWatch(model).rows_stacked(view, actors, never) is False
        assert PublicWatch(model).rows_along(view, list(zip(actors, never))) is None
    start = Game(["Ann", "Bob"], chance="manual", start=Position(
        positions={"grey": 6, "yellow": 0, "orange": 0, "red": 0, "green": 0},
        owners={"Ann": "grey", "Bob": "red"}, safe=7, decision="move", die="1-3", points=1)).view(None)
    assert PublicWatch(model).rows_stacked(start, ["Ann"], np.zeros((1, 5))) is None


def test_the_fed_spectator_takes_its_probabilities_when_first_read():
    """The fed spectator's probabilities are the posterior's ``posterior_vector()`` bit for bit (taken when first
    read), and whether it is alike over every assignment is what the probabilities say: at the start, after a
    decision, and with log weights one rounding step apart."""
    import math

    from heimlich_lab import Game
    from heimlich_lab.games.heimlich.inference.belief import Belief
    from heimlich_lab.games.heimlich.inference.model import BoltzmannModel
    from heimlich_lab.inference.core import Posterior

    view = Game(["Ann", "Bob", "Cy"], seed=1).view(None)
    start = Belief.at_start(view.players, view.agents, None, BoltzmannModel(), keep_updates=False).posterior()
    later = start.copy()
    later.update_actor("Ann", np.log(np.linspace(0.1, 0.6, len(view.agents))))
    space = start.space
    lw = start.log_weights.copy()
    lw[1] = np.nextafter(lw[1], 0)            # one rounding step from the others: its exp may or may not differ
    near = Posterior(space, lw, keep_updates=False)
    for post in (start, later, near):
        want_p = post.posterior_vector()
        want_uniform = len(want_p) == math.perm(space.n_slots, space.n_owners) and space.n_slots <= 10 \
            and bool((want_p == want_p[0]).all())
        fed = exposure._FedSpectator(post, len(view.log), view.log)
        assert fed.uniform() == want_uniform
        assert np.array_equal(fed.p, want_p)
        assert fed.uniform() == want_uniform            # (and once the probabilities are taken)
    assert exposure._FedSpectator(start, len(view.log), view.log).uniform()
    assert not exposure._FedSpectator(later, len(view.log), view.log).uniform()


@pytest.mark.parametrize("players", [["Ann", "Bob", "Cy", "Dee", "Eve"], ["Ann", "Bob", "Cy"], ["Ann", "Bob"]])
def test_the_rows_stacked_from_a_start_are_the_fed_spectators_rows(players, monkeypatch):
    """PublicWatch.rows_stacked from a view where nothing has told anything yet reads the start it made once per
    players and agents (_uniform_start): the same rows, bit for bit, as the fed spectator made at that view, and
    the same answer for a step impossible for the spectator."""
    from heimlich_lab import Game
    from heimlich_lab.games.heimlich.inference.model import BoltzmannModel

    view = Game(players, seed=3).view(None)
    rng = np.random.default_rng(len(players))
    T = 30
    actors = [players[i] for i in rng.integers(0, len(players), T)]
    values = rng.normal(0, 2, (T, len(view.agents)))
    impossible = values.copy()
    impossible[4:] = -np.inf
    watch = exposure.PublicWatch(BoltzmannModel())
    start = watch._uniform_start(view)
    assert start is not None and start[1:] == (len(players), len(view.agents))
    got = [watch.rows_stacked(view, actors, v) for v in (values, impossible)]
    assert watch._uniform_start(view) is start                      # (made once)
    plain = exposure.PublicWatch(BoltzmannModel())
    monkeypatch.setattr(plain, "_uniform_start", lambda view: None)
    want = [plain.rows_stacked(view, actors, v) for v in (values, impossible)]
    assert want[1] is False and got[1] is False
    assert got[0].shape == (T, len(view.agents)) and np.array_equal(got[0], want[0])
