"""Issue 26 item 3, eighth session (branch book35): the evaluator's per-game bookkeeping in fewer array operations gives
the numbers of the code it replaced, bit for bit: the hypotheses' products of the players' gains multiplied prefix by
prefix (against gathering every factor and multiplying them, on the factors of real games and on random ones, every
order of the actors), and the scores of every observer at once (against the plain arithmetic with a mask and the
truth table multiplied in, kept here as the reference).
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.analysis import BeliefEvaluator, _score_sums, _scores
from heimlich_lab.games.heimlich.inference import belief_set as bs_module
from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
from heimlich_lab.inference.core import log_sum_exp
from heimlich_lab.inference.metrics import truth_table

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
COLOURS = ["red", "blue", "green", "yellow", "white", "black", "purple", "orange"]


def _game(rules, seed, n):
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    return play(rules, {p: kinds[i % 4](seed + i) for i, p in enumerate(NAMES[:n])}, seed=seed)


def _plain_products(factors: np.ndarray, space, actors: tuple) -> np.ndarray:
    """The reference: every actor's factor row gathered for every hypothesis, then multiplied over the actors."""
    return np.take(factors, bs_module._factor_rows(space, actors), axis=0).prod(axis=0)


def _scores_plain(marginals: np.ndarray, t: np.ndarray, players: list, agents: list, own) -> dict:
    """The reference: the plain arithmetic that :func:`_score_sums` replaced (a mask of the agents scored, the truth
    table multiplied in)."""
    m = np.asarray(marginals, dtype=float)
    m = m / m.sum(axis=1, keepdims=True)
    total = m.sum(axis=1)
    mp = m / total[:, None, :]
    at = {a: j for j, a in enumerate(agents)}
    mask = np.ones((len(players), len(agents)), dtype=bool)
    held = [(i, at[a]) for i, p in enumerate(players) for a in own[p] if a in at]
    if held:
        mask[tuple(np.array(held).T)] = False
    n = mask.sum(axis=1)
    cols = np.arange(len(agents))
    obs = np.arange(len(players))
    others = m.copy()
    others[obs, obs] = -np.inf
    best = others.argmax(axis=1)
    truth = (mp * t[None]).sum(axis=1)
    per_agent = np.empty((5, len(players), len(agents)))
    per_agent[0] = np.log(np.clip(truth, 1e-15, 1.0))
    per_agent[1] = ((mp - t[None]) ** 2).sum(axis=1)
    per_agent[2] = t[mp.argmax(axis=1), cols] == 1
    per_agent[3] = m[obs[:, None], best, cols] / total
    per_agent[4] = t[best, cols] == 1
    sums = (per_agent * mask).sum(axis=2)
    return {"log_loss": -sums[0] / n, "brier": sums[1] / n, "accuracy": sums[2] / n, "expected_correct": sums[3],
            "actual_correct": sums[4]}


@pytest.mark.parametrize("n_players, n_agents", [(2, 3), (3, 4), (3, 6), (4, 7), (5, 7)])
def test_the_products_prefix_by_prefix_are_the_gathered_products_for_every_order_of_actors(n_players, n_agents):
    """Random factors (with zeros and tiny ones), every order of every subset of actors of up to 3 (all the orders of
    the whole table too, up to 4 players; some for 5): bit for bit."""
    full = bs_module._spectator_space(tuple(NAMES[:n_players]), tuple(COLOURS[:n_agents]))
    rng = np.random.default_rng(n_players * 10 + n_agents)
    orders = [o for k in range(1, min(3, n_players) + 1) for o in itertools.permutations(NAMES[:n_players], k)]
    every = list(itertools.permutations(NAMES[:n_players]))
    orders += every if n_players <= 4 else every[::17]
    for actors in orders:
        for m in (1, 5):
            factors = rng.random((len(actors) * n_agents, m)) ** 8
            factors[rng.random(factors.shape) < 0.05] = 0.0
            got = bs_module._factor_products(factors, bs_module._product_plan(full, actors))
            assert got.shape == (len(full), m)
            assert np.array_equal(got, _plain_products(factors, full, actors)), actors


def test_a_wrong_plan_is_told_apart():
    """Not vacuous: the plan of another order of the actors multiplies other factors."""
    full = bs_module._spectator_space(tuple(NAMES[:4]), tuple(COLOURS[:6]))
    factors = np.random.default_rng(3).random((4 * 6, 2))
    actors = ("Bob", "Ann", "Dee", "Cy")
    wrong = bs_module._factor_products(factors, bs_module._product_plan(full, ("Ann", "Bob", "Dee", "Cy")))
    assert not np.allclose(wrong, _plain_products(factors, full, actors))


@pytest.mark.parametrize("rules, seed, n", [(Rules(), 4, 3), (Rules(), 8, 5), (Rules(dossier=True), 2, 4),
                                            (Rules(), 12, 7), (Rules(), 6, 2)])
def test_the_products_of_a_games_gains_are_the_gathered_products(rules, seed, n):
    """The factors :meth:`_SharedTypeTables.marginals_stack` builds from a real game's tables: bit for bit, and the
    marginal tables of every observer are those of the beliefs read one by one (within 1e-12, as before)."""
    rec = _game(rules, seed, n)
    bs = BeliefSet.from_record(rec, keep_updates=False)
    shared = bs._shared
    assert shared is not None and shared.tables
    actors = tuple(shared.tables)
    first = next(iter(shared.beliefs.values()))
    _, then = bs_module._prior_sums(shared.prior, first)
    gains = log_sum_exp(np.stack([shared.tables[a] for a in actors]), 2) - then[None, :, None]
    Q, M, A = gains.shape
    factors = np.exp(gains - gains.max(axis=(1, 2), keepdims=True)).transpose(0, 2, 1).reshape(Q * A, M)
    full = bs_module._spectator_space(first.players, first.agents)
    got = bs_module._factor_products(factors, bs_module._product_plan(full, actors))
    assert np.array_equal(got, _plain_products(factors, full, actors))
    at_once = bs.marginals_stack(list(rec.players))
    plain = BeliefSet.from_record(rec, keep_updates=True)
    for i, p in enumerate(rec.players):
        assert np.allclose(at_once[i], plain[p].marginals_array(), rtol=0, atol=1e-12)


@pytest.mark.parametrize("rules, seed, n", [(Rules(), 4, 3), (Rules(), 8, 5), (Rules(dossier=True), 2, 4),
                                            (Rules(top_secret=True), 5, 4), (Rules(), 12, 7), (Rules(), 6, 2)])
def test_the_scores_at_once_are_the_plain_arithmetics_bit_for_bit(rules, seed, n):
    """Real games' tables (a Top Secret game too, whose truth and holdings can differ from the deal): every score of
    every observer, bit for bit, and the evaluator's columns are those scores."""
    rec = _game(rules, seed, n)
    bs = BeliefSet.from_record(rec, keep_updates=False)
    players, agents = list(bs.players), list(bs.agents)
    t = truth_table(players, agents, bs.truth)
    stack = bs.marginals_stack(players)
    want = _scores_plain(stack, t, players, agents, bs.own_agents)
    got = _scores(stack, t, players, agents, bs.own_agents)
    assert list(got) == list(want)
    assert all(np.array_equal(got[k], want[k]) for k in want), [k for k in want if not np.array_equal(got[k], want[k])]
    sums = _score_sums(stack, t, players, agents, bs.own_agents)
    assert sums.shape == (5, len(players))
    columns = BeliefEvaluator(until=None)._scored(bs)
    assert all(columns[f"belief_{k}"] == dict(zip(players, map(float, v))) for k, v in want.items())


def test_the_scores_at_once_with_uncertain_tables_and_observers_holding_nothing_scored():
    """Random tables (ties at the top too) and an observer whose agent is not among those scored: bit for bit."""
    rng = np.random.default_rng(5)
    players, agents = NAMES[:4], COLOURS[:6]
    owners = {"Ann": ["red"], "Bob": ["blue"], "Cy": ["green"], "Dee": ["yellow"]}
    t = truth_table(players, agents, owners)
    for k in range(20):
        m = rng.random((4, 5, 6))
        if k % 3 == 0:
            m[:, 1] = m[:, 2]                    # ties between two rows
        own = {"Ann": ("red",), "Bob": ("blue", "white"), "Cy": ("nobody",), "Dee": ()}
        want, got = _scores_plain(m, t, players, agents, own), _scores(m, t, players, agents, own)
        assert all(np.array_equal(got[k], want[k]) for k in want)


def test_the_score_comparison_can_fail():
    """Not vacuous: the plain scores against another truth differ."""
    rng = np.random.default_rng(6)
    players, agents = NAMES[:3], COLOURS[:4]
    m = rng.random((3, 4, 4))
    own = {"Ann": ("red",), "Bob": ("blue",), "Cy": ("green",)}
    t = truth_table(players, agents, {"Ann": ["red"], "Bob": ["blue"], "Cy": ["green"]})
    t2 = truth_table(players, agents, {"Ann": ["red"], "Bob": ["green"], "Cy": ["blue"]})
    got = _scores(m, t, players, agents, own)
    other = _scores_plain(m, t2, players, agents, own)
    assert not all(np.array_equal(got[k], other[k]) for k in got)


@pytest.mark.parametrize("bad", ["nan", "above_one", "impossible_row", "impossible_entry"])
def test_the_answers_checked_at_once_still_catch_what_the_row_by_row_check_catches(bad):
    """``batch_answers_stacked``'s check at once (the largest entry, then -inf rows only if some entry is -inf): an
    answer with a NaN, a probability above 1 or a row impossible everywhere goes to the row-by-row check (which
    refuses it, as before); one impossible entry is accepted with ``finite`` False."""
    from heimlich_lab.errors import ModelError
    from heimlich_lab.games.heimlich.inference.likelihoods import batch_answers_stacked, default_model
    from heimlich_lab.games.heimlich.rules.replay import public_decisions
    rec = _game(Rules(), 3, 4)
    items = list(public_decisions(rec, None, None))
    model = default_model()
    n_agents = len(rec.rules.agents_for(4))
    real = type(model).batch_type_log_likelihoods

    def spoiled(self, decisions, **kw):
        out = real(self, decisions, **kw)
        j = next(i for i, v in enumerate(out) if v is not None)
        out[j] = out[j].copy()
        if bad == "nan":
            out[j][0, 1] = np.nan
        elif bad == "above_one":
            out[j][0, 1] = 0.5
        elif bad == "impossible_row":
            out[j][:] = -np.inf
        else:
            out[j][1, 0] = -np.inf
        return out

    answers, finite, stacked = batch_answers_stacked(model, items, n_agents)
    assert finite is True and stacked is not None
    type(model).batch_type_log_likelihoods = spoiled
    try:
        if bad == "impossible_entry":
            answers, finite, stacked = batch_answers_stacked(model, items, n_agents)
            assert finite is False and stacked is not None
        else:
            with pytest.raises(ModelError):
                batch_answers_stacked(model, items, n_agents)
    finally:
        type(model).batch_type_log_likelihoods = real


def test_the_truth_read_from_the_owners_is_truth_table_and_its_rows():
    """:func:`_truth_of` (the evaluator's truth table and each agent's row, without truth_table's passes): the same
    table as truth_table and its argmax over rows, for real games' truths (a dropped second agent free, Top Secret
    games whose truth can differ from the deal) and made-up ones; what truth_table refuses still raises."""
    from heimlich_lab.errors import ModelError
    from heimlich_lab.games.heimlich.analysis import _truth_of
    cases = []
    for rules, seed, n in [(Rules(), 4, 3), (Rules(top_secret=True), 5, 4), (Rules(top_secret=True), 9, 5),
                           (Rules(), 12, 7)]:
        rec = _game(rules, seed, n)
        bs = BeliefSet.from_record(rec, keep_updates=False)
        cases.append((bs.players, bs.agents, bs.truth))
    players, agents = tuple(NAMES[:3]), tuple(COLOURS[:5])
    cases += [(players, agents, {"Ann": ["red", "blue"], "Bob": [], "Cy": "green"}),
              (players, agents, {"Ann": ("white",)}), (players, agents, {})]
    for players, agents, owners in cases:
        t, rows = _truth_of(players, agents, owners)
        want = truth_table(list(players), list(agents), owners)
        assert np.array_equal(t, want) and t.dtype == want.dtype
        assert np.array_equal(rows, want.argmax(axis=0))
    for bad in ({"Ann": ["red"], "Bob": ["red"]}, {"Zed": ["red"]}, {"Ann": ["pink"]}):
        with pytest.raises(ModelError):
            _truth_of(players, agents, bad)
