"""Issue 26 item 3, seventh session (branch book33): the evaluator's bookkeeping done at once for every observer gives
the numbers of the code it replaced: every player's marginal table from one product with the canonical observer's
one-hot matrix (against each observer's own space summed by itself), a game's answers added to the shared tables in
one sum (against adding them one by one, bit for bit), the beliefs made only when read (against beliefs made at
once), and the scores of the stacked tables (against the scores of the tables by player, bit for bit).
"""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.inference import belief_set as bs_module
from heimlich_lab.games.heimlich.inference.belief import Belief
from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
from heimlich_lab.games.heimlich.inference.likelihoods import batch_answers_stacked
from heimlich_lab.games.heimlich.rules.replay import public_decisions
from heimlich_lab.inference.core import HypothesisSpace


def _held_rows(space: HypothesisSpace, owner: int, slot: int) -> tuple[np.ndarray, HypothesisSpace]:
    """The reference: the hypotheses of ``space`` (one agent each) in which ``owner`` holds ``slot`` (their indices,
    in order) and the space of those rows (an observer's own hypotheses)."""
    idx = np.flatnonzero(bs_module._single_slots(space)[owner] == slot)
    return idx, HypothesisSpace.unchecked(space.owners, space.slots, space.table[idx])


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
COLOURS = ["red", "blue", "green", "yellow", "white", "black", "purple", "orange"]


def _game(rules, seed, n):
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    return play(rules, {p: kinds[i % 4](seed + i) for i, p in enumerate(NAMES[:n])}, seed=seed)


@pytest.mark.parametrize("n_players, n_agents", [(2, 3), (3, 4), (3, 6), (4, 7), (5, 7)])
def test_every_observers_rows_and_cells_give_its_own_spaces_sums(n_players, n_agents):
    """``_observer_rows``: the rows where the owner holds the slot (each once), and the canonical one-hot product
    read at its cells is the observer's own space's ``event_sums`` (the plain sum), for every owner and slot."""
    full = bs_module._spectator_space(tuple(NAMES[:n_players]), tuple(COLOURS[:n_agents]))
    onehot = bs_module._canonical_rows(full)[0]
    weights = np.random.default_rng(n_players * 10 + n_agents).random(len(full))
    for owner in range(n_players):
        for slot in range(n_agents):
            rows, cells = bs_module._observer_rows(full, owner, slot)
            every_rows, every_cells = bs_module._every_observers_rows(full)
            assert np.array_equal(every_rows[owner, slot], rows) and np.array_equal(every_cells[owner, slot], cells)
            idx, space = _held_rows(full, owner, slot)
            assert sorted(rows.tolist()) == idx.tolist()
            got = (weights[rows] @ onehot)[cells].reshape(n_players + 1, n_agents)
            want = space.event_sums(weights[idx])
            assert np.allclose(got, want, rtol=1e-13, atol=0), (owner, slot)
            assert got[owner, slot] == pytest.approx(weights[idx].sum(), rel=1e-13)


def test_the_cells_can_tell_one_observer_from_another():
    """Not vacuous: the cells of another owner (or slot) read the product elsewhere."""
    full = bs_module._spectator_space(tuple(NAMES[:4]), tuple(COLOURS[:6]))
    onehot = bs_module._canonical_rows(full)[0]
    w = np.random.default_rng(3).random(len(full))
    rows, _ = bs_module._observer_rows(full, 1, 2)
    _, wrong = bs_module._observer_rows(full, 2, 2)
    want = _held_rows(full, 1, 2)[1].event_sums(w[_held_rows(full, 1, 2)[0]])
    assert np.abs((w[rows] @ onehot)[wrong].reshape(want.shape) - want).max() > 1e-3


@pytest.mark.parametrize("until", [None, "dossier", 12])
@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(), 11, 7)])
def test_a_games_answers_added_at_once_are_the_ones_added_one_by_one(rules, seed, n, until):
    """``add_all`` against ``add`` per decision: the same tables bit for bit (in the same order of actors), the same
    steps and readers; stopped early too (some players have fewer decisions, or none)."""
    rec = _game(rules, seed, n)
    bs = BeliefSet(rec.players, rec.rules.agents_for(n), {p: rec.deal[p] for p in rec.players}, keep_updates=False)
    items = list(public_decisions(rec, None, until))
    answers, finite, stacked = batch_answers_stacked(bs.model, items, len(bs.agents))
    assert finite and stacked is not None
    at_once, one_by_one = bs_module._SharedTypeTables.for_beliefs(bs), bs_module._SharedTypeTables.for_beliefs(bs)
    at_once.add_all(*stacked)
    for it in stacked[0]:
        assert one_by_one.add(it.actor, answers[it.index], it)
    assert list(at_once.tables) == list(one_by_one.tables) and at_once.steps == one_by_one.steps
    assert all(np.array_equal(at_once.tables[a], one_by_one.tables[a]) for a in one_by_one.tables)
    assert at_once.readers == one_by_one.readers
    made = bs.beliefs
    assert all(np.array_equal(x, y) for x, y in zip(at_once.marginals_stack(lambda: made)[1],
                                                   one_by_one.marginals_stack(lambda: made)[1]))


def test_the_sum_at_once_can_tell_an_order_from_another():
    """Not vacuous: adding a player's answers in another order changes some bit of its table."""
    rec = _game(Rules(), 3, 5)
    bs = BeliefSet(rec.players, rec.rules.agents_for(5), {p: rec.deal[p] for p in rec.players}, keep_updates=False)
    answers, _, (answered, table) = batch_answers_stacked(bs.model, list(public_decisions(rec, None, None)), 7)
    at_once, backwards = bs_module._SharedTypeTables.for_beliefs(bs), bs_module._SharedTypeTables.for_beliefs(bs)
    at_once.add_all(answered, table)
    for it in reversed(answered):
        backwards.add(it.actor, answers[it.index], it)
    assert any(not np.array_equal(at_once.tables[a], backwards.tables[a]) for a in at_once.tables)


@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 6, 4)])
def test_beliefs_made_when_read_are_the_beliefs_made_at_once(rules, seed, n):
    """A set whose beliefs were not made (their starts cached) answers as one whose beliefs were: the same own agents,
    marginals, beliefs (once read) and histories."""
    rec = _game(rules, seed, n)
    agents = rec.rules.agents_for(n)
    model = BeliefSet(rec.players, agents, {p: rec.deal[p] for p in rec.players}).model
    eager = BeliefSet(rec.players, agents, {p: rec.deal[p] for p in rec.players}, model, keep_updates=False)
    assert eager._made is not None or all(Belief.cached_start(rec.players, agents, p, model, rec.deal[p],
                                                             keep_updates=False) is not None for p in rec.players)
    items = list(public_decisions(rec, None, None))
    lazy = BeliefSet.from_played(rec.players, agents, rec.deal, items, model, keep_updates=False,
                                 final_owners=rec.result["final_owners"])
    assert lazy._made is None                   # nothing made while reading and scoring
    plain = BeliefSet.from_record(rec, model=model, keep_updates=False)
    assert lazy.own_agents == plain.own_agents and repr(lazy) == repr(plain).replace(
        f"{plain.index} log entries", f"{lazy.index} log entries")
    stack = lazy.marginals_stack(list(rec.players))
    assert lazy._made is None
    got, want = lazy.marginals_arrays(), plain.marginals_arrays()
    assert all(np.array_equal(got[p], want[p]) and np.array_equal(stack[i], want[p])
               for i, p in enumerate(rec.players))
    for p in rec.players:                       # made now, handed the tables
        assert np.array_equal(lazy[p].marginals_array(), plain[p].marginals_array())
        assert [(s.index, s.description) for s in lazy[p].history] == \
            [(s.index, s.description) for s in plain[p].history]
    assert lazy._made is not None and lazy.starts is not lazy.beliefs


def test_a_model_whose_tables_can_be_written_to_has_no_cached_start():
    from heimlich_lab.games.heimlich.inference.likelihoods import default_model
    model = default_model()
    Belief.at_start(NAMES[:3], COLOURS[:4], "Ann", model, "red", keep_updates=False)
    assert Belief.cached_starts(NAMES[:3], COLOURS[:4], {"Ann": "red"}, model, keep_updates=False) is not None
    assert Belief.cached_starts(NAMES[:3], COLOURS[:4], {"Ann": "red", "Bob": "blue"}, model,
                                keep_updates=False) is None          # Bob's start not made yet
    writable = type("Writable", (), {"log_prior": np.zeros(2)})()
    assert Belief.cached_starts(NAMES[:3], COLOURS[:4], {"Ann": "red"}, writable) is None


@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(top_secret=True, dossier=True), 1, 4)])
def test_the_scores_of_the_stacked_tables_are_those_of_the_tables_by_player(rules, seed, n):
    from heimlich_lab.games.heimlich.analysis import _scores
    from heimlich_lab.inference.metrics import truth_table
    rec = _game(rules, seed, n)
    bs = BeliefSet.from_record(rec, until="dossier", keep_updates=False)
    players, agents = list(rec.players), list(bs.agents)
    t = truth_table(players, agents, bs.truth)
    by_player = _scores(bs.marginals_arrays(), t, players, agents, bs.own_agents)
    stacked = _scores(bs.marginals_stack(players), t, players, agents, bs.own_agents)
    assert by_player.keys() == stacked.keys()
    assert all(np.array_equal(by_player[k], stacked[k]) for k in by_player)
    with pytest.raises(Exception, match="not an observer"):
        bs.marginals_stack(["Zed"])


def test_a_new_model_equal_to_one_seen_starts_from_its_start_as_if_built():
    """Each evaluator makes its own default model: a start made for an equal model (by value) is copied, with the new
    model as its model, and reads a game as a belief built afresh with that model (bit for bit)."""
    from heimlich_lab.games.heimlich.inference import belief as belief_module
    from heimlich_lab.games.heimlich.inference.likelihoods import default_model
    rec = _game(Rules(), 4, 4)
    agents = rec.rules.agents_for(4)
    first, second = default_model(), default_model()
    Belief.at_start(rec.players, agents, "Bob", first, rec.deal["Bob"], keep_updates=False)
    starts = Belief.cached_starts(rec.players, agents, {"Bob": rec.deal["Bob"]}, second, keep_updates=False)
    assert starts is not None and starts["Bob"].model is second
    copied = Belief.at_start(rec.players, agents, "Bob", second, rec.deal["Bob"], keep_updates=False)
    assert copied.model is second
    built = Belief(rec.players, agents, "Bob", second, rec.deal["Bob"], keep_updates=False)
    for d in public_decisions(rec, None, None):
        copied._consume(d)
        built._consume(d)
    assert np.array_equal(copied.marginals_array(), built.marginals_array())
    assert copied.player_types() == built.player_types()
    # a model without player types is recognised by identity only
    from heimlich_lab.games.heimlich.inference.likelihoods import PushModel
    Belief.at_start(rec.players, agents, "Bob", PushModel(0.5), rec.deal["Bob"], keep_updates=False)
    assert belief_module._model_values(PushModel(0.5), ()) is None
    assert Belief.cached_starts(rec.players, agents, {"Bob": rec.deal["Bob"]}, PushModel(0.5),
                                keep_updates=False) is None
