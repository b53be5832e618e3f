"""Issue 26 item 3 (the evaluator at most 1.5x the bots-only games): the shortcuts of the evaluator's path give
the numbers of the plain path.

* :meth:`BeliefSet.marginals_arrays` (every observer's table computed at once from the type tables the replay
  kept shared) against each belief's own table (the tables handed to it, its posterior brought up to date) and
  against :meth:`Belief.from_record` one observer at a time, within 1e-12: the default population (several kinds
  of table, so observers read their own decisions too), a population of one kind of table (observers do not),
  a spectator among the observers, 3 to 7 players, Top Secret games (whose hand decisions end the sharing);
* the evaluator's scores of all observers at once against :func:`score_belief`, observer by observer.
"""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Belief, Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
from heimlich_lab.games.heimlich.inference.player_types import PlayerPopulation, PlayerType, default_population

TOL = 1e-12
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def _game(rules, seed, n):
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    return play(rules, {p: kinds[i % 4](seed + i) for i, p in enumerate(NAMES[:n])}, seed=seed)


def _one_kind_of_table():
    return PlayerPopulation([PlayerType("random", 0.0, 0.0), PlayerType("boltzmann", 1.0, 0.05),
                             PlayerType("boltzmann", 3.0, 0.25), PlayerType("bluff", 1.0, 0.05)], [0.3, 0.4, 0.2, 0.1])


@pytest.mark.parametrize("make_model", [default_population, _one_kind_of_table])
@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(), 11, 7),
                                            (Rules(top_secret=True), 5, 4)])
def test_every_observers_table_at_once_equals_each_beliefs_own(make_model, rules, seed, n):
    rec = _game(rules, seed, n)
    model = make_model()
    bs = BeliefSet.from_record(rec, model=model, keep_updates=False, spectator=True)
    at_once = bs.marginals_arrays()
    assert sorted(at_once, key=str) == sorted([*rec.players, None], key=str)
    for o, b in bs.beliefs.items():             # reading the beliefs hands them their tables
        assert np.allclose(at_once[o], b.marginals_array(), rtol=0, atol=TOL)
        alone = Belief.from_record(rec, o, model=make_model(), keep_updates=False)
        assert np.allclose(at_once[o], alone.marginals_array(), rtol=0, atol=TOL)
    assert bs.own_agents[None] == () and all(bs.own_agents[p] == bs[p].own_agents for p in rec.players)


def test_the_tables_at_once_can_tell_a_difference():
    """The comparison above is not vacuous: another game's tables differ by far more than the tolerance."""
    a = BeliefSet.from_record(_game(Rules(), 3, 5), keep_updates=False).marginals_arrays()
    b = BeliefSet.from_record(_game(Rules(), 4, 5), keep_updates=False).marginals_arrays()
    assert max(float(np.abs(a[p] - b[p]).max()) for p in a) > 0.01


class _Sharp(PlayerPopulation):
    """The default population's log-likelihoods times 200: an observer's own decisions can then make the spectator's
    likeliest hypotheses hundreds of nats likelier than any in which the observer holds its own agent."""

    def type_log_likelihoods(self, view, actor, action):
        v = super().type_log_likelihoods(view, actor, action)
        return None if v is None else 200 * v

    def batch_type_log_likelihoods(self, decisions):
        out = super().batch_type_log_likelihoods(decisions)
        return None if out is None else [None if v is None else 200 * v for v in out]


def _sharp():
    pop = default_population()
    pop.__class__ = _Sharp
    return pop


def test_an_observer_far_from_the_spectators_likeliest_hypotheses_reads_its_own():
    rec = play(Rules(), {p: RandomBot(20 + i) for i, p in enumerate(NAMES[:5])}, seed=20)
    bs = BeliefSet.from_record(rec, model=_sharp(), keep_updates=False, spectator=True)
    at_once = bs.marginals_arrays()
    spectator = bs[None].marginals_array()
    # the spectator rules out what some observer knows: that observer's table comes from its own hypotheses
    assert min(spectator[rec.players.index(p), bs.agents.index(bs.own_agents[p][0])] for p in rec.players) < 1e-200
    for o, b in bs.beliefs.items():
        assert np.allclose(at_once[o], b.marginals_array(), rtol=0, atol=TOL)


def test_beliefs_that_read_other_players_are_handed_their_tables(monkeypatch):
    rec = _game(Rules(), 3, 5)
    # Cy ignores Bob's decisions (no belief of the kit does: the at-once path must not assume they all read alike)
    real = Belief.reads_decisions_of
    monkeypatch.setattr(Belief, "reads_decisions_of", lambda b, actor: real(b, actor)
                        and not (b.observer == "Cy" and actor == "Bob"))
    bs = BeliefSet.from_record(rec, keep_updates=False)
    at_once = bs.marginals_arrays()
    for p in rec.players:
        assert np.allclose(at_once[p], bs[p].marginals_array(), rtol=0, atol=TOL)
    monkeypatch.undo()
    plain = BeliefSet.from_record(rec, keep_updates=False).marginals_arrays()
    assert np.abs(at_once["Cy"] - plain["Cy"]).max() > 1e-3 and np.allclose(at_once["Ann"], plain["Ann"], atol=TOL)


@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(top_secret=True, dossier=True), 1, 4),
                                            (Rules(top_secret=True), 2, 3)])
def test_every_observers_scores_at_once_equal_score_belief(rules, seed, n):
    from heimlich_lab.games.heimlich.analysis import BeliefEvaluator, _scores
    from heimlich_lab.inference.metrics import score_belief, truth_table
    rec = _game(rules, seed, n)
    bs = BeliefSet.from_record(rec, until="dossier", keep_updates=False)
    players, agents = list(rec.players), list(bs.agents)
    at_once = _scores(bs.marginals_arrays(), truth_table(players, agents, bs.truth), players, agents, bs.own_agents)
    evaluated = BeliefEvaluator()(rec)
    for i, p in enumerate(players):
        one = score_belief(bs[p].marginals_array(), players, agents, bs.truth, observer=p, own_agents=bs[p].own_agents)
        for k, v in one.items():
            assert abs(at_once[k][i] - v) <= TOL and abs(evaluated[f"belief_{k}"][p] - v) <= TOL, (p, k)
    if rules.dossier:     # a take: someone holds two agents, both left out of their scores
        assert any(len(bs.own_agents[p]) == 2 for p in players)


def test_an_observer_far_from_the_spectators_likeliest_hypotheses_reads_its_own_among_players_only():
    """The same with every observer a player (the evaluator's set: no spectator): the tables computed at once are
    the whole answer there, and an observer whose hypotheses all weigh too little for them reads its own."""
    rec = play(Rules(), {p: RandomBot(20 + i) for i, p in enumerate(NAMES[:5])}, seed=20)
    with_spectator = BeliefSet.from_record(rec, model=_sharp(), keep_updates=False, spectator=True)
    spectator = with_spectator[None].marginals_array()
    agents = with_spectator.agents
    assert min(spectator[rec.players.index(p), agents.index(with_spectator.own_agents[p][0])] for p in rec.players) \
        < 1e-200
    bs = BeliefSet.from_record(rec, model=_sharp(), keep_updates=False)
    stack = bs.marginals_stack(list(rec.players))
    for i, p in enumerate(rec.players):
        want = bs[p].marginals_array()
        assert np.allclose(want.sum(axis=0), 1.0) and np.allclose(stack[i], want, rtol=0, atol=TOL)


def test_a_set_of_the_spectator_alone_reads_its_tables_at_once():
    rec = _game(Rules(), 3, 5)
    bs = BeliefSet.from_record(rec, observers=[None], keep_updates=False)
    stack = bs.marginals_stack([None])
    assert stack.shape[0] == 1 and np.allclose(stack[0], bs[None].marginals_array(), rtol=0, atol=TOL)
