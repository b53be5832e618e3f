"""Issue 26 item 3, sixth session (branch book32): the evaluator's bookkeeping outside the likelihood, done with less
work, gives the numbers of the code it replaced (copied here as the reference): every observer's marginal table
from the shared type tables summed over that observer's own hypotheses only (within 1e-13 of the sums over every
hypothesis with the others weighted 0).
"""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.inference import belief_set as bs_module
from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
from heimlich_lab.inference.core import HypothesisSpace, log_sum_exp


def _held_rows(space: HypothesisSpace, owner: int, slot: int) -> tuple[np.ndarray, HypothesisSpace]:
    """The reference: the hypotheses of ``space`` (one agent each) in which ``owner`` holds ``slot`` (their indices,
    in order) and the space of those rows (an observer's own hypotheses)."""
    idx = np.flatnonzero(bs_module._single_slots(space)[owner] == slot)
    return idx, HypothesisSpace.unchecked(space.owners, space.slots, space.table[idx])


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def _game(rules, seed, n):
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    return play(rules, {p: kinds[i % 4](seed + i) for i, p in enumerate(NAMES[:n])}, seed=seed)


def _marginals_before(shared) -> dict:
    """``_SharedTypeTables.marginals`` as it was (h32 at fabb3bd): every observer's weights over every hypothesis of
    the spectator (0 where it does not hold its own agent), summed over all of them."""
    beliefs = list(shared.beliefs.items())
    first = beliefs[0][1]
    pop = first.posterior().population_log_prior
    actors = list(shared.tables)
    then = log_sum_exp(shared.prior, 1)
    gains = log_sum_exp(np.stack([shared.tables[a] for a in actors]), 2) - then[None, :, None]
    Q, M, A = gains.shape
    full = bs_module._spectator_space(first.players, first.agents)
    factors = np.exp(gains - gains.max(axis=(1, 2), keepdims=True)).transpose(0, 2, 1).reshape(Q * A, M)
    singles = bs_module._single_slots(full)
    rows = singles[[full.owner_index(a) for a in actors]] + (A * np.arange(Q))[:, None]
    weights = np.take(factors, rows, axis=0).prod(axis=0) @ np.exp(pop)
    players = [o for o, _ in beliefs if o is not None]
    own = np.array([first.agents.index(b.own_agents[0]) for o, b in beliefs if o is not None], dtype=np.intp)
    held = weights * (singles[[full.owner_index(o) for o in players]] == own[:, None])
    z = held.sum(axis=1)
    scaled = held / z[:, None]
    out, at = {}, 0
    for o, _b in beliefs:
        if o is None:
            out[o] = full.event_sums(weights / weights.sum())
        else:
            out[o] = full.event_sums(scaled[at])
            at += 1
    return out


@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(), 11, 7),
                                            (Rules(), 2, 4), (Rules(dossier=True), 6, 6)])
def test_every_observers_table_over_its_own_hypotheses_is_the_one_over_every_hypothesis(rules, seed, n):
    rec = _game(rules, seed, n)
    bs = BeliefSet.from_record(rec, keep_updates=False, spectator=True, until="dossier")
    shared = bs._shared
    assert shared is not None and shared.tables
    want = _marginals_before(shared)
    got = bs.marginals_arrays()
    assert sorted(got, key=str) == sorted(want, key=str)
    for o in want:
        assert got[o].shape == want[o].shape
        assert np.abs(got[o] - want[o]).max() < 1e-13, o
    # an observer's rows are its own hypotheses, in their order (the space its belief starts from)
    full = bs_module._spectator_space(bs.players, bs.agents)
    for p in rec.players:
        b = bs._beliefs[p]
        idx, space = _held_rows(full, full.owner_index(p), full.slot_index(b.own_agents[0]))
        assert np.array_equal(space.table, b.space.table) and np.array_equal(full.table[idx], b.space.table)


def test_the_reference_can_tell_an_observer_from_another():
    """Not vacuous: another observer's rows give another table, by far more than the tolerance."""
    rec = _game(Rules(), 3, 5)
    bs = BeliefSet.from_record(rec, keep_updates=False)
    got = bs.marginals_arrays()
    assert np.abs(got["Ann"] - got["Bob"]).max() > 0.1


def _watched(rules, seed, n, until):
    """A game played with the evaluator watching it: (the game, the evaluator, the watch)."""
    from heimlich_lab import Game
    from heimlich_lab.engine.play import play_game
    from heimlich_lab.games.heimlich.analysis import BeliefEvaluator
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    ev = BeliefEvaluator(until=until)
    watch = ev.watch_game()
    g = play_game(Game, {p: kinds[i % 4](seed + i) for i, p in enumerate(NAMES[:n])}, seed=seed, rules=rules,
                  watch=watch)
    return g, ev, watch


def _same_sets(a: BeliefSet, b: BeliefSet) -> None:
    assert (a.truth, a.truth_at_stop, a.final_owners, a.at_mark, a.index, a.own_agents) == \
        (b.truth, b.truth_at_stop, b.final_owners, b.at_mark, b.index, b.own_agents)
    ma, mb = a.marginals_arrays(), b.marginals_arrays()
    assert list(ma) == list(mb) and all(np.array_equal(ma[o], mb[o]) for o in ma)
    for o in a.beliefs:                          # handed their tables: the same posteriors and histories
        assert np.array_equal(a[o].marginals_array(), b[o].marginals_array())
        assert [(s.index, s.actor, s.action, s.description) for s in a[o].history] == \
            [(s.index, s.actor, s.action, s.description) for s in b[o].history]


@pytest.mark.parametrize("until", [None, "dossier"])
@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(), 11, 7),
                                            (Rules(dossier=True), 6, 6)])
def test_a_watched_game_read_without_its_record_gives_the_beliefs_of_its_record(rules, seed, n, until):
    from heimlich_lab.games.heimlich.analysis import BeliefEvaluator
    g, ev, watch = _watched(rules, seed, n, until)
    rec = g.record
    decisions = watch.decisions_played(g)
    assert decisions is not None
    assert [(d.index, d.actor, d.action, d.view, d.turn, d.at_mark) for d in decisions] == \
        [(d.index, d.actor, d.action, d.view, d.turn, d.at_mark) for d in watch.decisions_of(rec)]
    deal = next(dict(a.args) for _, a in g.history if a.kind == "deal")
    def played():
        return BeliefSet.from_played(g.players, g.agents, deal, decisions, ev.model, final_owners=g.final_owners,
                                     keep_updates=False)

    _same_sets(played(), BeliefSet.from_record(rec, model=ev.model, until=until, keep_updates=False,
                                               decisions=watch.decisions_of(rec)))
    _same_sets(played(), BeliefSet.from_record(rec, model=ev.model, until=until, keep_updates=False))
    # the evaluator's columns: the same from the game it watched and from the record replayed
    assert ev.evaluate_game(g) == BeliefEvaluator(until=until)(rec)


def test_the_evaluator_reads_a_game_it_did_not_watch_from_its_record():
    from heimlich_lab.games.heimlich.analysis import BeliefEvaluator
    g, ev, watch = _watched(Rules(), 3, 4, None)
    other, _, _ = _watched(Rules(), 4, 4, None)
    assert ev._watches == [watch] and watch.decisions_played(other) is None
    assert ev.evaluate_game(other) == BeliefEvaluator(until=None)(other.record)
    assert ev._watches == [watch]               # g's watch is kept for g
    assert ev.evaluate_game(g) == BeliefEvaluator(until=None)(g.record)
    assert ev._watches == []                    # read from its watch, which is let go
    assert ev.evaluate_game(g) == BeliefEvaluator(until=None)(g.record)     # no watch left: the record


def test_the_evaluator_keeps_a_bounded_number_of_watches():
    """A watch whose game is never read (a game that ended in an error) is dropped once there are more than
    _WATCHES_KEPT: the oldest go first."""
    from heimlich_lab.games.heimlich import analysis
    ev = analysis.BeliefEvaluator(until=None)
    made = [ev.watch_game() for _ in range(analysis._WATCHES_KEPT + 3)]
    assert ev._watches == made[3:]


@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(), 11, 7)])
def test_the_decisions_added_to_the_shared_tables_directly_are_those_each_one_read(rules, seed, n, monkeypatch):
    """``_read_at_once`` adds a game's answers to the shared tables itself: the same tables, steps and beliefs as
    handing every decision to ``_consume`` (the plain loop)."""
    rec = _game(rules, seed, n)
    fast = BeliefSet.from_record(rec, keep_updates=False, until="dossier")
    tables = {a: t.copy() for a, t in fast._shared.tables.items()}
    steps = list(fast._shared.steps)

    def plain(self, items, record):
        return self._read(items, record, None, self._answers(items))

    monkeypatch.setattr(BeliefSet, "_read_at_once", plain)
    slow = BeliefSet.from_record(rec, keep_updates=False, until="dossier")
    assert list(tables) == list(slow._shared.tables)
    assert [(d.index, d.actor, d.action) for d in steps] == [(d.index, d.actor, d.action) for d in slow._shared.steps]
    assert all(np.array_equal(tables[a], slow._shared.tables[a]) for a in tables)
    _same_sets(fast, slow)


@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(), 11, 7)])
def test_whether_every_answer_is_finite_is_what_the_answers_say(rules, seed, n):
    """``batch_answers_checked``'s flag (seen while checking the answers) against the check it replaced (every
    answer given finite, of one shape), on played games and on answers with an impossible option put in."""
    from heimlich_lab.games.heimlich.inference.likelihoods import batch_answers, batch_answers_checked, default_model
    from heimlich_lab.games.heimlich.rules.replay import public_decisions
    rec = _game(rules, seed, n)
    items = list(public_decisions(rec, None, None))
    model = default_model()
    n_agents = len(rec.rules.agents_for(n))
    answers, finite = batch_answers_checked(model, items, n_agents)
    assert answers is not None and answers.keys() == batch_answers(model, items, n_agents).keys()

    def before(batch):
        given = [v for v in batch.values() if v is not None]
        return bool(given) and len({v.shape for v in given}) == 1 and bool(np.stack(given).min() > -np.inf)

    assert finite is True and before(answers) is True
    real = type(model).batch_type_log_likelihoods

    def one_impossible(self, decisions, **kw):
        out = real(self, decisions, **kw)
        j = next(i for i, v in enumerate(out) if v is not None)
        out[j] = out[j].copy()
        out[j][1, 0] = -np.inf          # one type cannot have taken it with the first agent
        return out

    type(model).batch_type_log_likelihoods = one_impossible
    try:
        answers, finite = batch_answers_checked(model, items, n_agents)
    finally:
        type(model).batch_type_log_likelihoods = real
    assert finite is False and before(answers) is False


@pytest.mark.parametrize("make_model", ["default", "push"])
def test_a_start_copys_type_table_prior_is_the_one_computed(make_model):
    """``Belief.type_table_prior`` of a belief copied from a start (``at_start``) is read from the start while the
    copy has read nothing: the value computed (the same array, or ``None``); computed again once it has read, and
    after a take (a second agent: no longer one slot per holding; the start's answer was a table)."""
    from heimlich_lab.games.heimlich.inference.belief import Belief
    from heimlich_lab.games.heimlich.inference.likelihoods import PushModel, default_model
    rec = _game(Rules(dossier=True), 6, 4)
    model = default_model() if make_model == "default" else PushModel(0.5)
    agents = rec.rules.agents_for(4)
    for p in rec.players:
        for _ in range(2):                  # the first builds the start, the second copies it
            b = Belief.at_start(rec.players, agents, p, model, rec.deal[p], keep_updates=False)
            want = Belief(rec.players, agents, p, model, rec.deal[p], keep_updates=False).type_table_prior()
            got = b.type_table_prior()
            assert (got is None) == (want is None) and (got is None or np.array_equal(got, want))
        copy = Belief.at_start(rec.players, agents, p, model, rec.deal[p], keep_updates=False)
        assert copy._start_table_prior is not None and copy._start_table_prior[0] is copy.space
    rec = _game(Rules(top_secret=True, dossier=True), 1, 4)
    model = default_model()
    BeliefSet.from_record(rec, model=model, keep_updates=False)      # the starts built: the next set copies them
    full = BeliefSet.from_record(rec, model=model, keep_updates=False)
    took = [p for p in rec.players if len(full.own_agents[p]) == 2]
    assert took             # this game has a take: someone may hold two agents, in every belief's hypotheses
    assert all(full[p]._start_table_prior is not None and full[p].type_table_prior() is None for p in rec.players)


@pytest.mark.parametrize("until", [None, "dossier"])
@pytest.mark.parametrize("rules, seed, n", [(Rules(), 3, 5), (Rules(dossier=True), 8, 3)])
def test_the_watchs_decisions_are_the_replays_and_the_marks_flag_is_on_the_last_item_only(rules, seed, n, until):
    """The watch keeps its decisions as Decision items made while the game is played (given again by every call):
    the replay's public decisions (index, actor, action, turn, the spectator's view), the dossier mark's flag on the
    last item of each call only, also after a call made before the game was over."""
    from heimlich_lab import Game
    from heimlich_lab.engine.play import play_game
    from heimlich_lab.games.heimlich.analysis import BeliefEvaluator
    from heimlich_lab.games.heimlich.rules.replay import public_decisions
    ev = BeliefEvaluator(until=until)
    watch = ev.watch_game()
    early = []

    def watching(game, player, action):
        watch(game, player, action)
        if len(watch.items) == 12 and not early:      # a call before the game is over
            early.append(watch.decisions_played(game))
            early[0][-1].at_mark = True     # as if a marker had got there then: a later call's items say otherwise

    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    g = play_game(Game, {p: kinds[i % 3](seed + i) for i, p in enumerate(NAMES[:n])}, seed=seed, rules=rules,
                  watch=watching)
    assert early and early[0] is not None and len(early[0]) == 12
    got = watch.decisions_played(g)
    again = watch.decisions_played(g)
    assert [id(d) for d in got] == [id(d) for d in again]
    assert [d.at_mark for d in got[:-1]] == [False] * (len(got) - 1)
    rec = g.record
    want = [d for d in public_decisions(rec, None, until) if d.view is not None]
    want = want[:len(got)]
    assert [(d.index, d.actor, d.action, d.turn) for d in got] == [(d.index, d.actor, d.action, d.turn) for d in want]
    assert all(a.view.kind == "spectator" and a.view.hand == () and a.view.own_agents == ()
               and a.view.board_key() == b.view.board_key() and a.view.phase == b.view.phase
               and a.view.points == b.view.points for a, b in zip(got, want))
    assert got[-1].at_mark == (g.top_score >= 29)
