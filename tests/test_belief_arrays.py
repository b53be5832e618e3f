"""Issue 26 item 2: the population's likelihoods as array code agree with a plain reference, type by type.

* every type of a population, read by :meth:`PlayerPopulation.type_log_likelihoods` (all types at once, as arrays
  over types and options) and by :meth:`PlayerPopulation.batch_type_log_likelihoods` (a whole game's tables at
  once), against a plain per-type reference written here from the model's definition (a random type: one over
  the options; a Boltzmann type: its own :class:`BoltzmannModel`; a bluffer: utility minus secrecy times the
  spectator's belief after each option, the spectator's row read by a full replay; a hider who covers: that
  bluffer, or with probability ``cover`` the least exposing of the options within ``slack`` of its best), within
  1e-12;
* the default population and one with other kinds of types (a grid of rationalities with integer and
  non-integer values, a bluffer of another rationality and secrecy, hiders who cover, among them cheap ones of
  secrecy 0 whose part that does not cover is a Boltzmann type's, no type that is the bluffer's watch), so that types
  added to the default population are covered by the same code;
* the tournament's evaluator reading games as they are played gives the same scores as replaying their records.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.special

from heimlich_lab import Rules, play
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.inference.exposure import PublicWatch
from heimlich_lab.games.heimlich.inference.model import HAND_DECISIONS, UNINFORMATIVE, BoltzmannModel
from heimlich_lab.games.heimlich.inference.player_types import (
    PlayerPopulation,
    PlayerType,
    default_population,
    exp_option_sums,
)
from heimlich_lab.games.heimlich.rules.replay import public_decisions

TOL = 1e-12


def _mixed_game(rules, seed, n=5):
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"][:n]
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    return play(rules, {p: kinds[i % 4](seed + i) for i, p in enumerate(names)}, seed=seed)


def _other_population():
    """Kinds of types the default population does not have today: rationalities between and beyond its grid,
    a bluffer of another rationality and secrecy; none is the watch's model (beta 1, epsilon 0.05)."""
    types = [PlayerType("random", 0.0, 0.0), PlayerType("boltzmann", 0.5, 0.1), PlayerType("boltzmann", 2.0, 0.02),
             PlayerType("boltzmann", 5.0, 0.0), PlayerType("boltzmann", 7.5, 0.3),
             PlayerType("bluff", 3.0, 0.1, secrecy=2.5), PlayerType("cover", 2.0, 0.05, secrecy=2.0, cover=0.35),
             PlayerType("cover", 4.0, 0.0, secrecy=1.0, cover=0.6, slack=3.0),
             PlayerType("cover", 2.0, 0.02, secrecy=0.0, cover=0.4), PlayerType("cover", 0.7, 0.1, secrecy=0.0)]
    return PlayerPopulation(types)


POPULATIONS = {"default": default_population, "other": _other_population}


def _reference(pop, k, view, actor, action):
    """log P(action | type k, agent a) for one type, the plain way (None: the decision tells nothing)."""
    t = pop.types[k]
    if action.kind in UNINFORMATIVE:
        return None
    if action.kind in HAND_DECISIONS or t.kind not in ("bluff", "cover"):
        beta, eps = (0.0, 0.0) if t.kind == "random" else (t.beta, t.epsilon)
        if action.kind in HAND_DECISIONS:       # a random type picks uniformly among the hand's options too
            with np.errstate(divide="ignore"):
                return np.log(BoltzmannModel(beta, eps).hand_decision_probabilities(view, actor, action)) \
                    if beta > 0 else None
        d = BoltzmannModel().decision_utilities(view, actor, action)
        if d is None:
            return None
        U, i = d
        if beta == 0:
            return np.full(U.shape[1], -math.log(len(U)))
        return BoltzmannModel(beta, eps).agent_log_likelihoods(view, actor, action)
    # the bluffer: U(x) - secrecy * (the spectator's belief in each agent right after option x)
    d = BoltzmannModel().decision_utilities(view, actor, action)
    if d is None:
        return None
    U, i = d
    n, A = U.shape
    watch = BoltzmannModel()
    row = PublicWatch(watch).row(view, actor)                  # a full replay of the spectator's belief
    row = np.ones(A) if row is None else row
    like = (1 - watch.epsilon) * scipy.special.softmax(watch.beta * U, axis=0) + watch.epsilon / n    # (n, A)
    seen = row[None, :] * like / (like @ row)[:, None]        # P(agent a | option x), after option x
    score = t.beta * (U - t.secrecy * seen)
    p = scipy.special.softmax(score, axis=0)[i]
    p = (1 - t.epsilon) * p + t.epsilon / n
    if t.kind == "cover":
        # with probability cover: the least exposing option for agent a among those within slack of a's best
        for a in range(A):
            near = [x for x in range(n) if U[x, a] >= U[:, a].max() - t.slack]
            low = min(seen[x, a] for x in near)
            tied = [x for x in near if seen[x, a] <= low + 1e-9]
            p[a] = (1 - t.cover) * p[a] + t.cover * (i in tied) / len(tied)
    return np.log(p)


@pytest.mark.parametrize("pop_name", sorted(POPULATIONS))
@pytest.mark.parametrize("rules, seed", [(Rules(), 4), (Rules(top_secret=True), 9)])
def test_every_type_agrees_with_a_plain_reference(pop_name, rules, seed):
    pop = POPULATIONS[pop_name]()
    rec = _mixed_game(rules, seed, n=4)
    kinds = set()
    checked = 0
    for d in public_decisions(rec, None, until=70):
        if d.view is None:
            continue
        got = pop.type_log_likelihoods(d.view, d.actor, d.action)
        for k, t in enumerate(pop.types):
            want = _reference(pop, k, d.view, d.actor, d.action)
            if want is None:
                # nothing to read for this type: the population gives every agent the same value (or no answer)
                assert got is None or np.ptp(got[k]) <= TOL, (d.action, t)
                continue
            assert got is not None, (d.action, t)
            assert np.allclose(got[k], want, rtol=0, atol=TOL), (d.action, t, got[k] - want)
            kinds.add(t.kind)
            checked += 1
    assert kinds == {t.kind for t in pop.types} and checked > 50


@pytest.mark.parametrize("pop_name", sorted(POPULATIONS))
@pytest.mark.parametrize("rules, seed, n", [(Rules(), 4, 5), (Rules(dossier=True), 12, 4), (Rules(), 30, 7)])
def test_a_games_decisions_read_at_once_equal_one_by_one(pop_name, rules, seed, n):
    pop = POPULATIONS[pop_name]()
    rec = _mixed_game(rules, seed, n)
    items = [(d.view, d.actor, d.action) for d in public_decisions(rec, None) if d.view is not None]
    batch = pop.batch_type_log_likelihoods(items)
    one = [pop.type_log_likelihoods(*d) for d in items]
    assert batch is not None and len(batch) == len(one)
    read = 0
    for b, o in zip(batch, one):
        assert (b is None) == (o is None)
        if b is not None:
            assert b.shape == o.shape and np.allclose(b, o, rtol=0, atol=TOL), np.abs(b - o).max()
            read += 1
    assert read > 20


def test_the_tremble_mixed_in_probabilities_keeps_every_row():
    """The batch mixes the tremble in probabilities (log((1 - eps) exp(raw) + eps / n)): a type without tremble keeps
    its row as it is, even where exp(raw) is below the smallest float (a rationality of 64: rows under -745), a
    type that only trembles reads 1 / n, and every row agrees with the one-by-one reading (np.logaddexp)."""
    pop = PlayerPopulation([PlayerType("random", 0.0, 0.0), PlayerType("boltzmann", 64.0, 0.0),
                            PlayerType("boltzmann", 64.0, 0.25), PlayerType("boltzmann", 2.0, 1.0),
                            PlayerType("cover", 64.0, 0.0, secrecy=0.0, cover=0.3)])
    rec = _mixed_game(Rules(), 4, 5)
    items = [(d.view, d.actor, d.action) for d in public_decisions(rec, None) if d.view is not None]
    batch = pop.batch_type_log_likelihoods(items)
    assert batch is not None
    read = [(b, pop.type_log_likelihoods(*d)) for b, d in zip(batch, items) if b is not None]
    assert len(read) > 20
    for b, o in read:
        assert np.allclose(b, o, rtol=0, atol=TOL), np.abs(b - o).max()
        assert np.allclose(b[3], b[0], rtol=0, atol=TOL)           # only trembling: 1 / n, the random type's
    low = min(float(b[1].min()) for b, _ in read)
    assert -np.inf < low < -745                                     # exp(raw) underflows there: raw kept


def test_a_hider_of_secrecy_0_is_its_boltzmann_type_when_it_does_not_cover():
    """The cheap hider who covers: of secrecy 0 and never covering, it reads every decision as the Boltzmann type of
    its rationality and tremble, one by one and a game at once; covering, it differs (its cover step is read)."""
    twin = PlayerType("boltzmann", 1.0, 0.05)
    pop = PlayerPopulation([PlayerType("random", 0.0, 0.0), twin, PlayerType("bluff", 1.0, 0.05),
                            PlayerType("cover", 1.0, 0.05, secrecy=0.0, cover=0.0),
                            PlayerType("cover", 1.0, 0.05, secrecy=0.0, cover=0.35)])
    rec = _mixed_game(Rules(), 6, 5)
    items = [(d.view, d.actor, d.action) for d in public_decisions(rec, None) if d.view is not None]
    batch = pop.batch_type_log_likelihoods(items)
    read = [r for r in batch if r is not None]
    assert batch is not None and len(read) > 20
    one = [pop.type_log_likelihoods(*d) for d in items]
    for rows in [*read, *(r for r in one if r is not None)]:
        assert np.allclose(rows[3], rows[1], rtol=0, atol=TOL)
    assert max(float(np.abs(r[4] - r[1]).max()) for r in read) > 0.1


def test_hand_decisions_are_left_to_one_by_one():
    rec = _mixed_game(Rules(top_secret=True), 9, 4)
    items = [(d.view, d.actor, d.action) for d in public_decisions(rec, None) if d.view is not None]
    assert any(a.kind in HAND_DECISIONS for _, _, a in items)
    assert default_population().batch_type_log_likelihoods(items) is None


def test_powers_of_exp_agree_with_exp():
    rng = np.random.default_rng(3)
    c = -np.abs(rng.normal(size=(3, 6, 40)) * 20)
    c[..., 0] = 0.0
    betas = [0.3, 1.0, 2.0, 3.0, 10.0, 64.0, 65.0]
    sums, e1 = exp_option_sums(c, betas)
    want = np.array([np.exp(b * c).sum(axis=-1) for b in betas])
    assert np.allclose(np.log(sums), np.log(want), rtol=0, atol=1e-13)
    assert np.array_equal(e1, np.exp(c))
    assert exp_option_sums(c, [0.5])[1] is None            # no integer beta: exp(c) is not needed


@pytest.mark.parametrize("until", [None, "dossier"])
def test_the_evaluator_reads_played_games_as_their_replay(until):
    from heimlich_lab.analysis import tournament
    from heimlich_lab.games.heimlich.analysis import BeliefEvaluator
    from heimlich_lab.games.heimlich.inference import belief_set

    class Replayed(BeliefEvaluator):
        watch_game = None           # no watch: every record is replayed

    live = []
    real = belief_set.BeliefSet.from_record.__func__
    real_played = belief_set.BeliefSet.from_played.__func__

    def spy(cls, *args, decisions=None, **kw):
        live.append(decisions is not None)
        return real(cls, *args, decisions=decisions, **kw)

    def spy_played(cls, *args, **kw):       # a game the evaluator watched, read without its record
        live.append(True)
        return real_played(cls, *args, **kw)

    grid = dict(player_counts=4, variants=["dossier", "top_secret"], bots=["bluff", "boltzmann"],
                progress=False, n_jobs=1, seed=5, games=2)
    belief_set.BeliefSet.from_record = classmethod(spy)
    belief_set.BeliefSet.from_played = classmethod(spy_played)
    try:
        a = tournament(**grid, evaluate=BeliefEvaluator(until=until))
    finally:
        belief_set.BeliefSet.from_record = classmethod(real)
        belief_set.BeliefSet.from_played = classmethod(real_played)
    b = tournament(**grid, evaluate=Replayed(until=until))
    cols = [c for c in a.columns if c.startswith("belief_")]
    assert cols and a[cols].equals(b[cols])
    assert any(live) and not all(live)          # played games read live; Top Secret ones replayed


class _OneByOne(PlayerPopulation):
    """The default population asked decision by decision (no reading of a whole game at once)."""
    batch_type_log_likelihoods = None


def _one_by_one():
    pop = default_population()
    pop.__class__ = _OneByOne
    return pop


def test_a_record_read_at_once_gives_every_observer_the_beliefs_read_one_by_one():
    from heimlich_lab import Belief
    from heimlich_lab.games.heimlich.inference import likelihoods
    rec = _mixed_game(Rules(dossier=True), 12, 5)
    likelihoods.clear_game_answers()
    calls = []
    real = PlayerPopulation.batch_type_log_likelihoods

    def counted(self, decisions):
        calls.append(1)
        return real(self, decisions)

    PlayerPopulation.batch_type_log_likelihoods = counted
    try:
        fast = {p: Belief.from_record(rec, p) for p in rec.players}
    finally:
        PlayerPopulation.batch_type_log_likelihoods = real
    assert len(calls) == 1          # the game's decisions read once, for all five observers
    for p in rec.players:
        likelihoods.clear_game_answers()
        slow = Belief.from_record(rec, p, model=_one_by_one())
        assert not likelihoods._GAME_ANSWERS            # read one by one indeed
        a, b = fast[p], slow
        assert np.allclose(a.marginals_array(), b.marginals_array(), rtol=0, atol=TOL)
        assert np.allclose(a.marginals_history(), b.marginals_history(), rtol=0, atol=TOL)
        ta, tb = a.player_types(), b.player_types()
        assert sorted(ta) == sorted(tb)
        for who in ta:
            assert all(abs(ta[who][k] - tb[who][k]) <= TOL for k in ta[who])
        assert [s.description for s in a.history] == [s.description for s in b.history]
    # another record is not answered from the first one's
    other = _mixed_game(Rules(dossier=True), 13, 5)
    assert np.allclose(Belief.from_record(other, "Ann").marginals_array(),
                       Belief.from_record(other, "Ann", model=_one_by_one()).marginals_array(), rtol=0, atol=TOL)


@pytest.mark.parametrize("slack", [0.0, 1.5, 2.0])
def test_the_cover_share_of_the_option_taken_is_the_plain_formulas_bit_for_bit(slack):
    """The batched cover step (:func:`_cover_shares_ragged`: tables side by side, only the option taken) against
    the plain :func:`_cover_shares` read at the option taken, table by table, on random tables with tied utilities
    (some exactly ``slack`` under the best), impossible options (-inf, also taken), exposures tied exactly, within
    the tie (1e-9) and outside it."""
    from heimlich_lab.games.heimlich.inference import player_types as pt
    rng = np.random.default_rng(26)
    seen = set()
    for _ in range(200):
        G, A = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        sizes = rng.integers(1, 12, G)                                            # each table its own options
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        Ut = rng.integers(0, 6, (A, int(sizes.sum()))) * 0.5
        Ut[rng.random(Ut.shape) < 0.15] = -np.inf
        for s, n in zip(starts, sizes):
            Ut[:, s + int(rng.integers(0, n))] = rng.integers(0, 6, A) * 0.5     # every agent has an option
        ties = rng.choice([0.0, 0.0, 0.4, 1.5, 2.5], Ut.shape) * pt._COVER_TIE         # exact, within, outside
        exposure = rng.choice([0.1, 0.2, 0.3], Ut.shape) + ties
        pick = np.array([int(rng.integers(0, n)) for n in sizes])
        top = np.maximum.reduceat(Ut, starts, axis=1)
        got = pt._cover_shares_ragged(Ut, top, exposure, sizes, starts, starts + pick, slack)
        tables = [(Ut[:, s:s + n], exposure[:, s:s + n]) for s, n in zip(starts, sizes)]
        want = np.stack([pt._cover_shares(u, ex, slack)[:, p] for (u, ex), p in zip(tables, pick)], axis=1)
        assert got.shape == (A, G) and np.array_equal(got, want), (got, want)
        taken = np.stack([u[:, p] for (u, _), p in zip(tables, pick)], axis=1)
        near = taken >= top - slack
        seen |= {("share", float(s)) for s in want[want > 0]}
        seen |= {"near, not the lowest"} if (near & (want == 0)).any() else set()
        seen |= {"impossible option taken"} if np.isneginf(taken).any() else set()
    # the cases the comparison is meant to reach: a lone lowest, ties of two and of three or more, a near option
    # taken that is not the lowest, an impossible one taken
    assert {("share", 1.0), ("share", 0.5), "near, not the lowest", "impossible option taken"} <= seen
    assert any(s[0] == "share" and s[1] <= 1 / 3 for s in seen if isinstance(s, tuple))


@pytest.mark.parametrize("slack", [1.5, 0.3, 0.7])
def test_the_cover_share_reads_near_by_the_floor_not_by_the_centred_utilities(slack):
    """:func:`_cover_shares_ragged` narrows the options to read by the centred utilities (within a margin) but
    reads an option as near the best by ``Ut >= top - slack``, as :func:`_cover_shares` does: on utilities in
    tenths, where for options exactly ``slack`` under the best ``Ut - top >= -slack`` and ``Ut >= top - slack``
    differ by rounding, :func:`_near_options` gives exactly the options ``Ut >= top - slack`` (``centred`` given or
    not) and the shares are the plain formula's bit for bit, where reading near by the centred utilities would
    change some."""
    from heimlich_lab.games.heimlich.inference import player_types as pt
    rng = np.random.default_rng(36)
    rounding = changed = 0
    for _ in range(300):
        G, A = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        sizes = rng.integers(1, 12, G)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        Ut = rng.integers(-40, 40, (A, int(sizes.sum()))) * 0.1
        exposure = rng.choice([0.1, 0.2, 0.3, 0.4], Ut.shape)
        pick = np.array([int(rng.integers(0, n)) for n in sizes])
        top = np.maximum.reduceat(Ut, starts, axis=1)
        centred = Ut - np.repeat(top, sizes, axis=1)
        rounding += int(((centred >= -slack) != (Ut >= np.repeat(top - slack, sizes, axis=1))).sum())
        tables = [(Ut[:, s:s + n], exposure[:, s:s + n], centred[:, s:s + n]) for s, n in zip(starts, sizes)]
        want = np.stack([pt._cover_shares(u, ex, slack)[:, p] for (u, ex, _), p in zip(tables, pick)], axis=1)
        by_centred = np.stack([pt._cover_shares(c, ex, slack)[:, p] for (_, ex, c), p in zip(tables, pick)], axis=1)
        changed += int((by_centred != want).sum())
        for c in (None, centred):
            near = pt._near_options(Ut, top, starts, slack, c)
            got = pt._cover_shares_ragged(Ut, top, exposure, sizes, starts, starts + pick, slack, near)
            assert np.array_equal(got, want), (got, want)
            flat = near[0]                   # the near options themselves, in order, each run where it starts
            plain = np.flatnonzero(Ut >= np.repeat(top - slack, sizes, axis=1))
            assert np.array_equal(flat, plain)
            assert np.array_equal(near[1][:-1], np.searchsorted(flat, (np.arange(A)[:, None] * Ut.shape[1]
                                                                        + starts).ravel()))
        assert np.array_equal(pt._cover_shares_ragged(Ut, top, exposure, sizes, starts, starts + pick, slack), want)
    assert rounding > 0 and changed > 0
