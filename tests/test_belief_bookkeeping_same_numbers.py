"""The evaluator's bookkeeping done in fewer array operations (issue 26 item 3, branch evalbook) gives the
numbers of the step-by-step code it replaced, bit for bit: the type tables that the beliefs of one game share,
and every rationality's option sums (``exp_option_sums``; within 1e-13 where its betas share a root).
Also the bluffer's spectator followed along a game
(:meth:`PublicWatch.rows_along <heimlich_lab.games.heimlich.inference.exposure.PublicWatch.rows_along>`) against the
exact posterior in logs, within 1e-12 (a run at once was tried and was slower: ``np.cumprod`` along the steps).
"""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Game
from heimlich_lab.games.heimlich.inference.exposure import PublicWatch
from heimlich_lab.games.heimlich.inference.model import BoltzmannModel


def _rows_one_by_one(watch: PublicWatch, view, steps):
    """The reference: the spectator's exact posterior (in logs, the core's Bayes' rule), each step's actor's row
    read before the step; ``None`` once a step is impossible."""
    from heimlich_lab.errors import HeimlichError
    from heimlich_lab.games.heimlich.inference.belief import Belief
    post = Belief(view.players, view.agents, None, watch.model, keep_updates=False).posterior()
    rows = []
    for actor, values in steps:
        rows.append(post.marginal_row(actor))
        if values is not None:
            try:
                post.update_actor(actor, np.asarray(values, dtype=float))
            except HeimlichError:
                return None
    return rows


def _steps(players, n_agents, seed, n=60, spread=3.0, none_every=7):
    rng = np.random.default_rng(seed)
    return [(players[t % len(players)], None if t % none_every == 3 else rng.normal(0, spread, n_agents))
            for t in range(n)]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n_players", [3, 5])
def test_the_spectator_along_a_game_is_the_step_by_step_one(seed, n_players):
    g = Game(["Ann", "Bob", "Cy", "Dee", "Eve"][:n_players], seed=seed)
    view = g.view(None)
    steps = _steps(list(view.players), len(view.agents), seed)
    got = PublicWatch(BoltzmannModel()).rows_along(view, steps)
    want = _rows_one_by_one(PublicWatch(BoltzmannModel()), view, steps)
    assert got is not None and want is not None and len(got) == len(want) == len(steps)
    assert all(np.abs(a - b).max() < 1e-12 for a, b in zip(got, want))


def test_the_spectator_along_a_game_rescales_as_before_when_the_probabilities_grow_small():
    """Evidence that contradicts itself (every player points at the same agent) drives the probabilities under
    1e-150: the run is rescaled and still agrees with the posterior in logs."""
    g = Game(["Ann", "Bob", "Cy"], seed=4)
    view = g.view(None)
    red = np.full(len(view.agents), -30.0)      # (the sum of the probabilities falls to about 1e-261)
    red[0] = 0.0
    steps = [(p, red) for p in ("Ann", "Bob", "Cy") * 10] + [("Ann", None)]
    got = PublicWatch(BoltzmannModel()).rows_along(view, steps)
    want = _rows_one_by_one(PublicWatch(BoltzmannModel()), view, steps)
    assert got is not None and all(np.abs(a - b).max() < 1e-12 for a, b in zip(got, want))
    assert all(np.isfinite(r).all() and abs(r.sum() - 1) < 1e-12 for r in got)


def test_an_impossible_step_along_a_game_gives_none():
    g = Game(["Ann", "Bob", "Cy"], seed=4)
    view = g.view(None)
    never = np.full(len(view.agents), -np.inf)
    assert PublicWatch(BoltzmannModel()).rows_along(view, [("Ann", None), ("Bob", never)]) is None


def _records():
    from heimlich_lab import Rules, play
    from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
    five = ["A", "B", "C", "D", "E"]
    return [
        play(Rules(), {p: BoltzmannBot(seed=30 + i) for i, p in enumerate(five)}, seed=31),
        play(Rules(dossier=True), {"Ann": BluffBot(seed=1), "Bob": BoltzmannBot(seed=2), "Cy": RandomBot(3),
                                   "Dee": GreedyBot(seed=4)}, seed=32),
    ]


@pytest.mark.parametrize("until", [None, "dossier", 25])
def test_the_shared_tables_add_a_games_answers_as_one_by_one(until):
    """The type tables that the beliefs of one game share, added to in place, hold the numbers of adding the
    decisions with new arrays (``table + values``, in order), bit for bit; with the answers checked once per
    game."""
    from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
    from heimlich_lab.games.heimlich.inference.likelihoods import batch_answers
    from heimlich_lab.games.heimlich.rules.replay import public_decisions
    for rec in _records():
        bs = BeliefSet.from_record(rec, until=until, keep_updates=False)
        shared = bs._shared
        assert shared is not None
        got = shared.tables
        items = list(public_decisions(rec, None, until))
        answers = batch_answers(bs.model, items, len(bs.agents))
        want: dict = {}
        for item in items:
            v = answers.get(item.index)
            if v is None:
                continue
            before = want.get(item.actor, np.repeat(shared.prior[:, :, None], len(bs.agents), axis=2))
            want[item.actor] = before + v[None]
        assert list(got) == list(want) and len(want) >= 3
        assert all(np.array_equal(got[a], want[a]) for a in want)
        assert len(shared.steps) == sum(answers.get(i.index) is not None for i in items)


def _exp_option_sums_before(centred, betas):
    """exp_option_sums as it was before (each beta by itself, its powers squared afresh), the reference."""
    e1 = None
    out = np.empty((len(betas), *centred.shape[:-1]))
    for j, beta in enumerate(betas):
        beta = float(beta)
        if beta.is_integer() and 1 <= beta <= 64:
            if e1 is None:
                e1 = np.exp(centred)
            e, base, k = None, e1, int(beta)
            while True:
                if k & 1:
                    e = base if e is None else e * base
                k >>= 1
                if not k:
                    break
                base = base * base
            out[j] = e.sum(axis=-1)
        else:
            out[j] = np.exp(beta * centred).sum(axis=-1)
    return out, e1


@pytest.mark.parametrize("betas", [(0.3, 1.0, 3.0, 10.0), (1.0,), (2.0, 0.5, 7.0, 64.0, 5.0), (0.3,), (65.0, 12.0),
                                   (3.0, 10.0), (0.3, 65.0, 1.0), (0.25, 0.5)])
@pytest.mark.parametrize("shape", [(3, 7, 11), (1, 5, 2), (7, 30), (4, 6, 9)])
def test_every_betas_option_sums_at_once_are_the_ones_beta_by_beta(betas, shape, monkeypatch):
    """Raised by multiplications (``EXP_EACH = False``, numpy's exp not vectorised): bit for bit where every beta is
    raised as before (integers from exp(centred), each other beta its own exp); where the other betas are multiples
    of one 1 / m (0.3 = 3 / 10, as in the default grid) and a single exp(centred / m) saves an exp, within 1e-13
    (log sums) and 1e-14 relative (exp(centred))."""
    from heimlich_lab.games.heimlich.inference import player_types as pt
    monkeypatch.setattr(pt, "EXP_EACH", False)
    rng = np.random.default_rng(len(shape) * 100 + len(betas))
    u = rng.normal(0, 2, shape)
    centred = u - u.max(axis=-1, keepdims=True)
    got, e1 = pt.exp_option_sums(centred, np.array(betas))
    want, e1_want = _exp_option_sums_before(centred, np.array(betas))
    rooted = pt._sums_plan(tuple(float(b) for b in betas))[3] is not None
    assert rooted == (betas in [(0.3, 1.0, 3.0, 10.0), (2.0, 0.5, 7.0, 64.0, 5.0), (0.25, 0.5)])
    assert got.shape == want.shape and (e1 is None) == (e1_want is None)
    if not rooted:
        assert np.array_equal(got, want)
        assert e1 is None or np.array_equal(e1, e1_want)
    else:
        assert np.allclose(np.log(got), np.log(want), rtol=0, atol=1e-13)
        assert e1 is None or np.allclose(e1, e1_want, rtol=1e-14, atol=0)


@pytest.mark.parametrize("betas", [(0.3, 1.0, 3.0, 10.0), (1.0,), (2.0, 0.5, 7.0, 64.0, 5.0), (0.3,), (65.0, 12.0),
                                   (3.0, 10.0), (0.3, 65.0, 1.0), (0.25, 0.5)])
@pytest.mark.parametrize("shape", [(3, 7, 11), (1, 5, 2), (7, 30), (4, 6, 9)])
@pytest.mark.parametrize("by_run", [False, True])
def test_every_betas_own_exp_is_each_betas_exp_bit_for_bit(betas, shape, by_run, monkeypatch):
    """Every beta its own exp (``EXP_EACH = True``, numpy's exp vectorised): each sum is ``exp(beta * centred)``'s
    own, bit for bit (by table too, tables side by side: ``starts``), with impossible options (-inf) among them;
    ``exp(centred)`` is returned exactly when 1 is among the betas, and agrees within 1e-13 (log sums) with the
    plan raised by multiplications."""
    from heimlich_lab.games.heimlich.inference import player_types as pt
    monkeypatch.setattr(pt, "EXP_EACH", True)
    rng = np.random.default_rng(len(shape) * 100 + len(betas))
    u = rng.normal(0, 2, shape)
    centred = u - u.max(axis=-1, keepdims=True)
    centred[..., -1] = -np.inf if shape[-1] > 2 else centred[..., -1]     # (a run of one option stays possible)
    starts = np.unique([0, 1, shape[-1] // 2]) if by_run else None
    got, e1 = pt.exp_option_sums(centred, np.array(betas), starts=starts)
    for j, beta in enumerate(betas):
        raised = np.exp(beta * centred)
        want = np.add.reduceat(raised, starts, axis=-1) if by_run else raised.sum(axis=-1)
        assert np.array_equal(got[j], want)
    assert (e1 is None) == (1.0 not in betas)
    assert e1 is None or np.array_equal(e1, np.exp(centred))
    monkeypatch.setattr(pt, "EXP_EACH", False)
    chained = pt.exp_option_sums(centred, np.array(betas), starts=starts)[0]
    assert np.allclose(np.log(got), np.log(chained), rtol=0, atol=1e-13)


def test_the_plan_follows_numpys_exp():
    """EXP_EACH None (the default) reads numpy's dispatch: every beta its own exp exactly where numpy's float64 exp
    runs on AVX-512."""
    from heimlich_lab.games.heimlich.inference import player_types as pt
    assert pt.EXP_EACH is None
    assert pt._exps_each() == pt._exp_is_vectorised()
    try:
        from numpy.lib.introspect import opt_func_info
    except ImportError:
        assert not pt._exp_is_vectorised()
        return
    target = opt_func_info(func_name="^exp$", signature="float64")["exp"]["dd"]["current"]
    assert pt._exp_is_vectorised() == ("AVX512" in target or "X86_V4" in target)


def test_a_belief_at_its_start_is_copied_from_one_built_once_and_reads_as_a_new_one():
    """Belief.at_start: the same belief as Belief(...) (it reads a game to the same numbers), built once per
    arguments and model; each copy has its own posterior and history; a model with writable prior tables, or
    another model with the same prior, is not mistaken for the one cached."""
    from heimlich_lab import Rules, play
    from heimlich_lab.bots import BoltzmannBot
    from heimlich_lab.errors import ModelError
    from heimlich_lab.games.heimlich.inference.belief import Belief
    from heimlich_lab.games.heimlich.inference.likelihoods import default_model
    from heimlich_lab.games.heimlich.rules.replay import public_decisions
    rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=40)
    model = default_model()
    args = (rec.players, rec.rules.agents_for(3), "Bob", model, rec.deal["Bob"])
    first, second = Belief.at_start(*args), Belief.at_start(*args)
    plain = Belief(*args)
    assert first is not second and first.posterior() is not second.posterior()
    for b in (first, plain):
        for d in public_decisions(rec, "Bob", 30):
            b.add(d)
    assert np.array_equal(first.marginals_array(), plain.marginals_array()) and len(first.history) > 3
    assert second.history == [] and np.array_equal(second.marginals_array(), Belief(*args).marginals_array())
    with pytest.raises(ModelError):
        first.unread_copy()
    other = default_model()
    assert Belief.at_start(*args[:3], other, args[4]).model is other


@pytest.mark.parametrize("n_players", [3, 5, 7])
def test_a_players_starting_space_is_the_enumerated_one_row_for_row(n_players):
    """A player's space at the start, taken from the spectator's (the rows where it holds its card), is the one the
    enumeration with the card pinned gives: the same rows in the same order, the same dtype, owners and slots."""
    from heimlich_lab.games.heimlich.inference.belief import _initial_space
    from heimlich_lab.inference.core import HypothesisSpace
    players = tuple(f"P{i}" for i in range(1, n_players + 1))
    agents = tuple(Game(list(players), seed=1).view(None).agents)
    for observer in players:
        for card in agents:
            got = _initial_space(players, agents, observer, (card,))
            want = HypothesisSpace.assignments(players, agents, {p: 1 for p in players}, known_owned={observer: [card]})
            assert (got.owners, got.slots, got.table.dtype) == (want.owners, want.slots, want.table.dtype)
            assert np.array_equal(got.table, want.table), (observer, card)
