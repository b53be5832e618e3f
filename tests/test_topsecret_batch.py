"""Issue 26 item 2's rest: games with Top Secret cards read at once give the numbers read one by one.

* :meth:`PlayerPopulation.batch_type_log_likelihoods` with ``hands=True`` (the table decisions stacked, the
  decisions that depend on a hand read from each viewer's own pool, the bluffer's watch following every decision as
  a spectator reads it) against :meth:`PlayerPopulation.type_log_likelihoods` asked decision by decision, for every
  observer of seeded 6- and 7-player Top Secret (+ dossier) games, the default population and one whose types do
  not include the watch's model, within 1e-12 (and the same impossible entries);
* :meth:`Belief.from_record` for every observer, and :class:`BeliefSet`'s marginals, against the same read one
  by one (a population that cannot read a game at once), within 1e-12;
* the batched path is the one taken (a game with a hand decision is no longer left to one by one), and a game with
  a take is left to one by one (the watch cannot follow who holds what).
"""
from __future__ import annotations

import numpy as np
import pytest
from test_belief_evaluator_speed import TOL, _game

from heimlich_lab import Belief, Rules
from heimlich_lab.games.heimlich.inference import likelihoods
from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
from heimlich_lab.games.heimlich.inference.model import HAND_DECISIONS
from heimlich_lab.games.heimlich.inference.player_types import PlayerPopulation, PlayerType, default_population
from heimlich_lab.games.heimlich.rules.replay import public_decisions


def _other_population():
    """Types around the default grid, a bluffer and a hider who covers; none is the watch's model (beta 1,
    epsilon 0.05), so the watch's reading of a hand decision is its own."""
    types = [PlayerType("random", 0.0, 0.0), PlayerType("boltzmann", 0.5, 0.1), PlayerType("boltzmann", 2.0, 0.02),
             PlayerType("boltzmann", 5.0, 0.0), PlayerType("bluff", 3.0, 0.1, secrecy=2.5),
             PlayerType("cover", 2.0, 0.05, secrecy=2.0, cover=0.35)]
    return PlayerPopulation(types)


POPULATIONS = {"default": default_population, "other": _other_population}
#: seeded Top Secret games without a take (checked below): (rules, seed, players)
GAMES = [(Rules(top_secret=True, dossier=True), 3, 7), (Rules(top_secret=True, dossier=True), 8, 7),
         (Rules(top_secret=True), 6, 6), (Rules(top_secret=True, dossier=True), 11, 6)]


def _items(rec, observer):
    return [(d.view, d.actor, d.action) for d in public_decisions(rec, observer) if d.view is not None]


def _same(a, b):
    """Two answers (K, A) within TOL, with the same impossible entries."""
    assert a.shape == b.shape
    assert np.array_equal(np.isneginf(a), np.isneginf(b))
    f = np.isfinite(a)
    return np.allclose(a[f], b[f], rtol=0, atol=TOL)


class _OneByOne(PlayerPopulation):
    """A population asked decision by decision and viewer by viewer (no reading of a whole game at once, nor of
    every viewer's pool at once)."""
    batch_type_log_likelihoods = None
    pool_type_log_likelihoods = None


def _one_by_one(make):
    pop = make()
    pop.__class__ = _OneByOne
    return pop


def _batch_calls(monkeypatch) -> list:
    """Each call of batch_type_log_likelihoods from now on (its ``hands``), while the test runs."""
    calls = []
    real = PlayerPopulation.batch_type_log_likelihoods

    def counted(self, decisions, hands=False):
        calls.append(hands)
        return real(self, decisions, hands)

    monkeypatch.setattr(PlayerPopulation, "batch_type_log_likelihoods", counted)
    return calls


@pytest.mark.parametrize("pop_name", sorted(POPULATIONS))
@pytest.mark.parametrize("rules, seed, n", GAMES)
def test_a_top_secret_games_decisions_read_at_once_equal_one_by_one_for_every_observer(pop_name, rules, seed, n):
    rec = _game(rules, seed, n)
    assert not any(e.action.kind == "take" for e in rec.log)
    for observer in [None, *rec.players]:
        items = _items(rec, observer)
        assert sum(a.kind in HAND_DECISIONS for _, _, a in items) > 20
        batch = POPULATIONS[pop_name]().batch_type_log_likelihoods(items, hands=True)
        pop = POPULATIONS[pop_name]()         # a fresh one: its watch is fed decision by decision
        one = [pop.type_log_likelihoods(*d) for d in items]
        assert batch is not None and len(batch) == len(one)
        for (_, _, action), b, o in zip(items, batch, one):
            assert (b is None) == (o is None), action
            if b is not None:
                assert _same(b, o), (observer, str(action), float(np.abs(b - o)[np.isfinite(b)].max()))


def test_the_watch_follows_hand_decisions_as_a_spectator_reads_them():
    """A bluffer's answers after a hand decision depend on it: leaving it out of the watch changes them (so the test
    above can fail)."""
    rec = _game(*GAMES[0][:1], GAMES[0][1], GAMES[0][2])
    items = _items(rec, "Ann")
    pop = default_population()
    batch = pop.batch_type_log_likelihoods(items, hands=True)
    blind = default_population()
    real = blind._hand_log_likelihoods
    blind._hand_log_likelihoods = lambda decisions, watch: [(r, None) for r, _ in real(decisions, watch)]
    other = blind.batch_type_log_likelihoods(items, hands=True)
    bluff = pop.type_names.index("bluffer")
    moved = [float(np.abs(a[bluff] - b[bluff]).max()) for a, b in zip(batch, other) if a is not None]
    assert max(moved) > 1e-6


def test_hand_decisions_need_hands_and_a_take_is_left_to_one_by_one():
    rec = _game(*GAMES[0])
    assert default_population().batch_type_log_likelihoods(_items(rec, None)) is None      # without hands=True
    took = _game(Rules(top_secret=True, dossier=True), 5, 6)
    assert any(e.action.kind == "take" for e in took.log)
    assert default_population().batch_type_log_likelihoods(_items(took, None), hands=True) is None


@pytest.mark.parametrize("rules, seed, n", GAMES[:3])
def test_every_observers_belief_from_a_top_secret_record_equals_one_by_one(rules, seed, n, monkeypatch):
    rec = _game(rules, seed, n)
    likelihoods.clear_game_answers()
    calls = _batch_calls(monkeypatch)
    fast = {p: Belief.from_record(rec, p) for p in [*rec.players, None]}
    assert calls == [True]          # the game read at once, once for every observer
    for p, a in fast.items():
        b = Belief.from_record(rec, p, model=_one_by_one(default_population))
        assert np.allclose(a.marginals_array(), b.marginals_array(), rtol=0, atol=TOL)
        assert np.allclose(a.marginals_history(), b.marginals_history(), rtol=0, atol=TOL)
        ta, tb = a.player_types(), b.player_types()
        assert sorted(ta) == sorted(tb) and all(abs(ta[w][k] - tb[w][k]) <= TOL for w in ta for k in ta[w])
        assert [s.description for s in a.history] == [s.description for s in b.history]


@pytest.mark.parametrize("pop_name", sorted(POPULATIONS))
@pytest.mark.parametrize("rules, seed, n", GAMES[1:])
def test_a_belief_set_of_a_top_secret_record_equals_one_by_one(pop_name, rules, seed, n, monkeypatch):
    rec = _game(rules, seed, n)
    calls = _batch_calls(monkeypatch)
    got = BeliefSet.from_record(rec, model=POPULATIONS[pop_name](), spectator=True, keep_updates=False) \
        .marginals_arrays()
    assert calls == [True]
    slow = BeliefSet.from_record(rec, model=_one_by_one(POPULATIONS[pop_name]), spectator=True, keep_updates=False)
    want = slow.marginals_arrays()
    assert sorted(got, key=str) == sorted(want, key=str)
    for o in want:
        assert np.allclose(got[o], want[o], rtol=0, atol=TOL), o


@pytest.mark.parametrize("pop_name", sorted(POPULATIONS))
@pytest.mark.parametrize("rules, seed, n", GAMES[::2])
def test_every_viewers_pool_read_at_once_equals_viewer_by_viewer(pop_name, rules, seed, n):
    rec = _game(rules, seed, n)
    per = {o: {d.index: d for d in public_decisions(rec, o) if d.view is not None} for o in rec.players}
    pop, ref = POPULATIONS[pop_name](), POPULATIONS[pop_name]()
    pooled = []
    real = pop._pooled_round
    pop._pooled_round = lambda *a: pooled.append(real(*a)) or pooled[-1]
    checked = 0
    for i, d in per[rec.players[0]].items():
        if d.action.kind not in HAND_DECISIONS:
            continue
        views = {o: per[o][i].view for o in rec.players}
        got = pop.pool_type_log_likelihoods(views, d.actor, d.action)
        assert sorted(got) == sorted(views)
        for o, v in views.items():
            assert _same(got[o], ref.type_log_likelihoods(v, d.actor, d.action)), (o, str(d.action))
            checked += 1
    assert checked > 100 and sum(p is not None for p in pooled) > 20      # the pools were read at once
