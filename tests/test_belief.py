"""Tests for the Heimlich belief (heimlich_lab.inference.belief) and the bluffing bot.

The exactness tests compare with a brute-force loop over assignments written
here from scratch: replay the record with the engine, ask the model about
every decision, multiply likelihoods per assignment, normalize.
"""
from __future__ import annotations

import itertools
import math
import re

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from heimlich_lab import Action, Game, Position, Rules, play_game
from heimlich_lab.bots import BluffBot, BoltzmannBot, RandomBot, make_bot
from heimlich_lab.bots.bluff import bluff_cost
from heimlich_lab.errors import ModelError, RecordError
from heimlich_lab.inference.belief import (Belief, BeliefSet, IndependentBelief, InformationRuleError,
                                           PointsShareBelief, PushModel, describe_action,
                                           public_decisions)
from heimlich_lab.inference.core import HypothesisSpace, Posterior
from heimlich_lab.inference.model import BoltzmannModel

P3 = ["Ann", "Bob", "Cy"]
P4 = ["Ann", "Bob", "Cy", "Dee"]
DECISIONS = {"points", "move", "safe", "announce", "play", "pass", "done"}


class PushBot:
    """Plays exactly as PushModel says: each point to its own agent with probability q, else to a
    uniformly random agent; every other decision uniformly at random (agent-independent)."""

    def __init__(self, q=0.5, seed=None):
        self.q = q
        self.rng = np.random.default_rng(seed)

    def choose(self, view, legal):
        if len(legal) == 1:
            return legal[0]
        if view.phase == "move":
            own = view.own_agents
            mine = own[int(self.rng.integers(len(own)))]
            steps = {}
            for _ in range(view.points):
                c = mine if self.rng.random() < self.q else view.agents[int(self.rng.integers(len(view.agents)))]
                steps[c] = steps.get(c, 0) + 1
            return Action.move(steps)
        return legal[int(self.rng.integers(len(legal)))]


def push_game(players, seed, rules=None, q=0.5):
    return play_game(rules or Rules(), {p: PushBot(q, seed=seed * 100 + i) for i, p in enumerate(players)}, seed=seed)


def boltzmann_game(players, seed, rules=None):
    return play_game(rules or Rules(), {p: BoltzmannBot(seed=seed * 100 + i) for i, p in enumerate(players)},
                     seed=seed)


@pytest.fixture(scope="module")
def model():
    return BoltzmannModel()


# --------------------------------------------------------------------------- brute force reference


def brute_force(record, observer, model, until_mark=False):
    """Marginals {(player or 'free', agent): p} by enumerating (deal, taken agent) hypotheses by hand."""
    players = list(record.players)
    agents = list(record.rules.agents_for(len(players)))
    deal = record.deal
    # hypotheses: dict player -> list of agents, with a weight
    hyps = []
    for cols in itertools.permutations(agents, len(players)):
        own = {p: [c] for p, c in zip(players, cols)}
        if observer is not None and own[observer] != [deal[observer]]:
            continue
        hyps.append([own, 1.0])
    for k, g in record.games():
        if k >= len(record.log) or (until_mark and max(g.scores.values()) >= 29):
            break   # the state before entry k: stop once the mark has been reached
        e = record.log[k]
        if e.action.kind == "take":
            new = []
            for own, w in hyps:
                taken = {c for cs in own.values() for c in cs}
                free = [c for c in agents if c not in taken]
                for c in free:
                    if e.to == observer and c != e.action.args[0]:
                        continue
                    o2 = {p: list(cs) for p, cs in own.items()}
                    o2[e.to].append(c)
                    new.append([o2, w / len(free)])
            hyps = new
        elif e.actor in players and e.action.kind in DECISIONS and e.actor != observer:
            v = model.agent_log_likelihoods(g.view(None), e.actor, e.action)
            if v is not None:
                for h in hyps:
                    h[1] *= np.mean([math.exp(v[agents.index(c)]) for c in h[0][e.actor]])
    z = sum(w for _, w in hyps)
    marg = {(r, a): 0.0 for r in players + ["free"] for a in agents}
    for own, w in hyps:
        held = {c: p for p, cs in own.items() for c in cs}
        for a in agents:
            marg[(held.get(a, "free"), a)] += w / z
    return marg


def assert_matches(belief, ref):
    m = belief.marginals()
    for (r, a), p in ref.items():
        assert m[r][a] == pytest.approx(p, abs=1e-9), (r, a)


# --------------------------------------------------------------------------- exactness


@pytest.mark.parametrize("observer", [None, "Ann", "Cy"])
def test_exact_posterior_matches_brute_force_basic(observer, model):
    rec = boltzmann_game(P3, seed=11).record
    assert_matches(Belief.from_record(rec, observer, model=model), brute_force(rec, observer, model))
    assert_matches(Belief.from_record(rec, observer, model=model, until="dossier"),
                   brute_force(rec, observer, model, until_mark=True))


def _game_with_take(players, rules, max_seed=60):
    for s in range(max_seed):
        g = push_game(players, s, rules, q=0.6)
        takes = [e for e in g.record.log if e.action.kind == "take"]
        if takes:
            return g, takes[0].to
    raise AssertionError("no game with a second-agent take found")


def test_exact_posterior_matches_brute_force_with_second_agent():
    model = PushModel(0.6)
    g, taker = _game_with_take(P3, Rules(top_secret=True))
    rec = g.record
    for observer in [None, taker, next(p for p in P3 if p != taker)]:
        b = Belief.from_record(rec, observer, model=model)
        assert_matches(b, brute_force(rec, observer, model))
        assert any(s.kind == "refine" for s in b.history)


def test_same_arithmetic_as_core_posterior(model):
    rec = boltzmann_game(P4, seed=3).record
    b = Belief.from_record(rec, "Bob", model=model)
    space = HypothesisSpace.assignments(P4, b.agents, known_owned={"Bob": rec.deal["Bob"]})
    post = Posterior(space)
    for k, g in rec.games():
        if k >= len(rec.log):
            break
        e = rec.log[k]
        if e.actor in P4 and e.actor != "Bob" and e.action.kind in DECISIONS:
            v = model.agent_log_likelihoods(g.view("Bob"), e.actor, e.action)
            if v is not None:
                post.update_actor(e.actor, v)
    np.testing.assert_allclose(b.marginals_array(), post.marginals(), atol=1e-10)
    assert b.entropy() == pytest.approx(post.entropy(), abs=1e-9)
    assert len(b.history) == len(post.history)


# --------------------------------------------------------------------------- the information rule


def test_view_of_another_player_is_refused(model):
    g = Game(P3, seed=1)
    b = Belief.for_game(g, "Ann", model=model)
    act = g.legal_actions()[0]
    for view in (g.view("Bob"), g.view(None), g.omniscient_view()):
        with pytest.raises(InformationRuleError):
            b.observe(view, g.current_player, act)
    spectator = Belief(P3, g.agents, None, model=model)
    with pytest.raises(InformationRuleError):
        spectator.observe(g.view("Ann"), g.current_player, act)
    with pytest.raises(InformationRuleError):
        Belief.from_view(g.omniscient_view(), model=model)


def test_others_take_cannot_be_named(model):
    g = Game(P3, seed=1)
    b = Belief.for_game(g, "Ann", model=model)
    with pytest.raises(InformationRuleError):
        b.observe(g.view("Ann"), "Bob", "take grey")
    before = b.marginals_array()
    b.observe(g.view("Ann"), "Bob", "take ?")
    after = b.marginals_array()
    assert after[1].sum() == pytest.approx(2.0) and before[1].sum() == pytest.approx(1.0)


def _drive(deal):
    """A basic game with a given deal; every decision made by seeded random bots (deal-independent)."""
    g = Game(P3, chance="manual")
    g.apply(deal)
    rng = np.random.default_rng(5)
    bots = {p: RandomBot(seed=i) for i, p in enumerate(P3)}
    for _ in range(120):
        if g.is_over:
            break
        if g.is_chance_node:
            outs = g.chance_outcomes()
            g.apply(outs[int(rng.integers(len(outs)))][0])
        else:
            p = g.current_player
            g.apply(bots[p].choose(g.view(p), g.legal_actions()))
    return g


def test_hidden_deals_of_others_do_not_matter(model):
    g1 = _drive("deal Ann=red Bob=blue Cy=green")
    g2 = _drive("deal Ann=red Bob=grey Cy=yellow")
    assert g1.record.public().log == g2.record.public().log      # identical public information
    for make in (lambda g: Belief.for_game(g, "Ann", model=model),
                 lambda g: Belief.from_record(g.record, "Ann", model=model),
                 lambda g: Belief.from_record(g.record.as_player("Ann"), "Ann", model=model)):
        b1, b2 = make(g1), make(g2)
        np.testing.assert_array_equal(b1.marginals_array(), b2.marginals_array())
        assert b1.explanations() == b2.explanations()


class SpyModel:
    """Records which views it is shown."""

    def __init__(self):
        self.inner = PushModel(0.5)
        self.seen = set()

    def agent_log_likelihoods(self, view, actor, action):
        self.seen.add((view.kind, view.viewer))
        return self.inner.agent_log_likelihoods(view, actor, action)


@pytest.mark.parametrize("rules", [Rules(), Rules(top_secret=True, dossier=True)])
def test_model_sees_only_the_observers_view(rules):
    g = push_game(P3, 4, rules)
    for make in (lambda m: Belief.for_game(g, "Bob", model=m),
                 lambda m: Belief.from_record(g.record, "Bob", model=m),
                 lambda m: Belief.from_record(g.record.as_player("Bob"), "Bob", model=m)):
        spy = SpyModel()
        make(spy)
        assert spy.seen == {("player", "Bob")}
    spy = SpyModel()
    BeliefSet.from_record(g.record, model=spy)
    # the public view for every decision; a decision that depends on a hidden hand is also read by each player
    # from their own view (the exact pool of cards: the deck minus what that player has seen, their hand included)
    hand_readers = {("player", p) for p in P3} if rules.top_secret else set()
    assert spy.seen == {("spectator", None)} | hand_readers


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("rules", [Rules(), Rules(top_secret=True), Rules(top_secret=True, dossier=True)])
def test_every_source_gives_the_same_belief(seed, rules, model):
    """Full replay, the live game's view (shadow game), a player's or the public record: one belief."""
    g = boltzmann_game(P4[: 3 + seed % 2], seed, rules)
    rec = g.record
    for obs in [None, g.players[0], g.players[-1]]:
        ref = Belief.from_record(rec, obs, model=model).marginals_array()
        np.testing.assert_allclose(Belief.for_game(g, obs, model=model).marginals_array(), ref, atol=1e-12)
        red = rec.as_player(obs) if obs else rec.public()
        np.testing.assert_allclose(Belief.from_record(red, obs, model=model).marginals_array(), ref, atol=1e-12)
    bs = BeliefSet.from_record(rec, model=model, spectator=True)
    for obs, b in bs.beliefs.items():
        np.testing.assert_allclose(b.marginals_array(), Belief.from_record(rec, obs, model=model).marginals_array(),
                                   atol=1e-12)


def test_sync_follows_a_live_game_incrementally(model):
    rules = Rules(top_secret=True)
    bots = {p: BoltzmannBot(seed=i) for i, p in enumerate(P3)}
    g = Game(P3, rules=rules, seed=8)
    b = Belief.for_game(g, "Cy", model=model)
    while not g.is_over:
        p = g.current_player
        g.apply(bots[p].choose(g.view(p), g.legal_actions()))
        if g.turn % 3 == 0:
            b.sync(g.view("Cy"))
    b.sync(g.view("Cy"))
    np.testing.assert_allclose(b.marginals_array(), Belief.from_record(g.record, "Cy", model=model).marginals_array(),
                               atol=1e-12)
    other = boltzmann_game(P3, 9, rules)
    with pytest.raises(ModelError):
        b.sync(other.view("Cy"))


def test_records_the_observer_may_not_read(model):
    rec = boltzmann_game(P3, 2).record
    with pytest.raises(InformationRuleError):
        Belief.from_record(rec.public(), "Ann", model=model)
    with pytest.raises(InformationRuleError):
        Belief.from_record(rec.as_player("Bob"), "Ann", model=model)
    with pytest.raises(InformationRuleError):
        BeliefSet.from_record(rec.public(), model=model)
    # a spectator may read the public part of a player's record
    ref = Belief.from_record(rec, None, model=model).marginals_array()
    np.testing.assert_allclose(Belief.from_record(rec.as_player("Bob"), None, model=model).marginals_array(), ref)


def test_from_start_position(model):
    from heimlich_lab import Position
    start = Position(positions={"grey": 8, "yellow": 2, "orange": 0, "red": 5, "green": 9, "blue": 1},
                     owners={"Ann": "red", "Bob": "grey", "Cy": "blue"}, safe=4, decision="roll")
    g = play_game(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(P3)}, seed=3, start=start)
    a = Belief.for_game(g, "Ann", model=model)
    b = Belief.from_record(g.record, "Ann", model=model)
    np.testing.assert_allclose(a.marginals_array(), b.marginals_array(), atol=1e-12)
    assert len(b.history) > 0
    with pytest.raises(ModelError, match="position"):
        Belief.from_view(g.view("Ann"), model=model)


# --------------------------------------------------------------------------- second agent


def test_second_agent_refinement_conserves_probability():
    model = PushModel(0.6)
    g, taker = _game_with_take(P3, Rules(top_secret=True))
    rec = g.record
    k_take = next(i for i, e in enumerate(rec.log) if e.action.kind == "take")
    other = next(p for p in P3 if p != taker)
    b = Belief.from_record(rec, other, model=model, until=k_take + 1)
    step = b.history[-1]
    assert step.kind == "refine" and step.actor == taker
    m = b.marginals_array()
    np.testing.assert_allclose(m.sum(axis=0), 1.0)                  # every agent has exactly one owner or none
    rows = dict(zip(P3, m.sum(axis=1)))
    assert rows[taker] == pytest.approx(2.0) and rows[other] == pytest.approx(1.0)
    # before the take, the taker's agents; after it, each of its old marginals is kept (it still holds them)
    before = b.history[-2].marginals if len(b.history) > 1 else b.marginals_history()[0]
    t = P3.index(taker)
    assert np.all(m[t] >= before[t] - 1e-12)
    np.testing.assert_allclose(m[-1], before[-1] - (m[t] - before[t]), atol=1e-12)  # the taken mass left "free"
    # the taker's own belief: it knows which card it took
    tb = Belief.from_record(rec, taker, model=model, until=k_take + 1)
    taken = rec.log[k_take].action.args[0]
    assert set(tb.own_agents) == {rec.deal[taker], taken}
    assert tb.marginals()[taker][taken] == pytest.approx(1.0) and tb.marginals()["free"][taken] == 0.0
    assert_matches(tb, brute_force(rec.__class__(**{**rec.__dict__, "log": rec.log[:k_take + 1], "result": None}),
                                   taker, model))


# --------------------------------------------------------------------------- queries, history, explanations


def test_marginals_shape_and_sums(model):
    rec = boltzmann_game(P4, 5).record
    b = Belief.from_record(rec, "Dee", model=model, until="dossier")
    m = b.marginals()
    assert list(m) == P4 + ["free"]
    assert all(list(row) == list(b.agents) for row in m.values())
    for a in b.agents:
        assert sum(m[r][a] for r in m) == pytest.approx(1.0)
    for p in P4:
        assert sum(m[p].values()) == pytest.approx(1.0)
    assert m["Dee"][rec.deal["Dee"]] == pytest.approx(1.0)
    arr = b.marginals_array()
    assert arr.shape == (5, 7)
    assert b.marginals_table().loc["Dee", rec.deal["Dee"]] == pytest.approx(1.0)
    best, p = b.most_probable()
    assert set(best) == set(b.agents) and 0 < p <= 1
    assert b.probability(best) == pytest.approx(p)
    assert b.probability({"Dee": rec.deal["Dee"]}) == pytest.approx(1.0)
    assert b.probability({rec.deal["Dee"]: "Ann"}) == 0.0
    assert b.probability({"Ann": ["red", "blue"]}) == 0.0
    with pytest.raises(ModelError):
        b.probability({"Zed": "red"})
    assert b.at_mark


def test_history_frame_and_plots(model):
    rec = boltzmann_game(P3, 6).record
    b = Belief.from_record(rec, "Ann", model=model, until="dossier")
    h = b.marginals_history()
    assert h.shape == (len(b.history) + 1, 4, 6)
    np.testing.assert_allclose(h[-1], b.marginals_array())
    df = b.history_frame()
    assert list(df.columns) == ["step", "index", "turn", "actor", "action", "description", "player", "agent",
                                "probability"]
    assert len(df) == h.size
    last = df[df.step == df.step.max()].pivot(index="player", columns="agent", values="probability")
    assert last.loc["Bob", "red"] == pytest.approx(b.marginals()["Bob"]["red"])
    assert len(b.entropy_history()) == len(b.history) + 1
    import matplotlib.pyplot as plt
    ax = b.plot_marginals()
    assert ax.get_title() == "Ann's belief" and len(ax.texts) == 24
    assert len(b.plot_history("Bob").lines) == 6
    assert len(b.plot_history("red").lines) == 4
    with pytest.raises(ModelError):
        b.plot_history("nobody")
    plt.close("all")


def test_entropy_decreases_on_average(model):
    drops, steps = [], []
    for s in range(8):
        rec = boltzmann_game(P4, 100 + s).record
        b = Belief.from_record(rec, None, model=model, until="dossier")
        e = b.entropy_history()
        drops.append(e[-1] - e[0])
        steps.extend(np.diff(e))
    assert np.mean(drops) < -3.0           # bits: the spectator learns a lot by the dossier mark
    assert np.mean(steps) < 0


_SENTENCE = re.compile(r"^(?P<desc>.+): (?P<r>[\d.,e+]+) times (?P<dir>more|less) likely if (?P<who>\w+) "
                       r"controls (?P<agent>\w+) than if \w+ does not \(probability (?P<p0>[\d.]+) -> (?P<p1>[\d.]+)\)\.$")


def test_explanations_match_likelihood_ratios(model):
    rec = boltzmann_game(P3, 7).record
    b = Belief.from_record(rec, "Ann", model=model, until="dossier")
    lines = b.explanations()
    assert len(lines) == len(b.history)
    checked = 0
    for step, line in zip(b.history, lines):
        assert line.startswith(step.description)
        m = _SENTENCE.match(line)
        if not m:
            continue
        assert m["who"] == step.actor and m["agent"] in b.agents
        ratios = b.likelihood_ratios(step)
        r = ratios.loc[m["who"], m["agent"]]
        shown = float(m["r"].replace(",", ""))
        expected = r if m["dir"] == "more" else 1 / r
        assert shown == pytest.approx(expected, rel=0.051)
        assert float(m["p1"]) == pytest.approx(step.marginals[P3.index(m["who"]), b.agents.index(m["agent"])],
                                               abs=0.0051)
        checked += 1
    assert checked > 5
    assert b.last_explanation() == lines[-1]


def test_describe_action_in_heimlich_words():
    g = Game(P3, rules=Rules(top_secret=True), chance="manual")
    g.apply("deal Ann=red Bob=blue Cy=green")
    v = g.view(None)
    assert describe_action(v, "Bob", Action.parse("move red+3 green+4")) == \
        "Bob moved red from church to 3 and green from church to 4"
    assert describe_action(v, "Bob", Action.parse("move red+7")) == \
        "Bob moved red from church to 7 and made a scoring situation (red at the safe)"
    assert describe_action(v, "Bob", Action.parse("safe 4")) == "Bob moved the safe from 7 to 4"
    assert describe_action(v, "Bob", Action.parse("play ruins blue")) == "Bob played ruins: blue from church to ruins"
    assert describe_action(v, "Bob", Action.parse("play tosafe blue")) == \
        "Bob played tosafe: blue from church to 7 and made a scoring situation (blue at the safe)"
    assert describe_action(v, "Bob", Action.parse("play placesafe 2")) == "Bob played placesafe: the safe from 7 to 2"
    assert describe_action(v, "Bob", Action.parse("points 0")) == "Bob chose 0 points (no move, a Top Secret card instead)"


def test_live_observe_with_a_user_model():
    class LovesMoved:
        def agent_log_likelihoods(self, view, actor, action):
            if action.kind != "move":
                return None
            return np.log([0.8 if c in action.steps else 0.2 for c in view.agents])

    g = Game(P3, seed=2)
    b = Belief.for_game(g, "Bob", model=LovesMoved())
    bots = {p: RandomBot(seed=i) for i, p in enumerate(P3)}
    for _ in range(30):
        if g.is_over:
            break
        p = g.current_player
        a = bots[p].choose(g.view(p), g.legal_actions())
        b.observe(g.view("Bob"), p, a)
        g.apply(a)
    ref = Belief.from_record(g.record, "Bob", model=LovesMoved())
    np.testing.assert_allclose(b.marginals_array(), ref.marginals_array(), atol=1e-12)
    with pytest.raises(ModelError):
        b.sync(g.view("Bob"))   # fed by observe(): sync would count twice


# --------------------------------------------------------------------------- bad input


class BadModel:
    def __init__(self, out):
        self.out = out

    def agent_log_likelihoods(self, view, actor, action):
        return self.out if action.kind == "move" else None


@pytest.mark.parametrize("out, msg", [
    (np.full(6, np.nan), "NaN"),
    (np.zeros(5), "shape"),
    (np.array([np.inf, 0, 0, 0, 0, 0]), r"\+inf"),
    (np.full(6, -np.inf), "every agent"),
    ("abc", "numbers"),
    (np.array([math.log(5.0), 0, 0, 0, 0, 0]), r"log-likelihood 1\.6\d* > 0 at agent index 0 \(probability 5 > 1\)"),
    (np.array([-1, -1, 1e-6, -1, -1, -1]), r"> 0 at agent index 2"),
    (np.zeros(6, dtype=complex), "complex"),
    (np.array([-1j, 0, 0, 0, 0, 0]), "complex"),
    (np.array([None] * 6), "real numbers"),
])
def test_invalid_model_output_leaves_belief_unchanged(out, msg):
    g = Game(P3, seed=2)
    b = Belief.for_game(g, "Cy", model=PushModel(0.5))
    p = g.current_player
    assert p != "Cy"
    first = b.observe(g.view("Cy"), p, g.legal_actions()[3]).index
    before, hist = b.marginals_array(), list(b.history)
    b.model = BadModel(out)
    with pytest.raises(ModelError, match=msg) as err:
        b.observe(g.view("Cy"), p, g.legal_actions()[0])
    # the message names the model, the actor and the action
    assert f"BadModel.agent_log_likelihoods(view, {p!r}, '{g.legal_actions()[0]}')" in str(err.value)
    np.testing.assert_array_equal(b.marginals_array(), before)
    assert b.history == hist
    # the rejected decision was not counted: the next one directly follows the first
    b.model = PushModel(0.5)
    assert b.observe(g.view("Cy"), p, g.legal_actions()[0]).index == first + 1


def test_log_likelihood_rounding_above_zero_is_accepted():
    g = Game(P3, seed=2)
    b = Belief.for_game(g, "Cy", model=BadModel(np.array([1e-12, -1, -1, -1, -1, -1])))
    step = b.observe(g.view("Cy"), g.current_player, g.legal_actions()[0])
    assert step is not None and step.kind == "observation" and len(b.history) == 1


def test_impossible_observation_leaves_belief_unchanged():
    g = Game(P3, chance="manual")
    g.apply("deal Ann=red Bob=blue Cy=green")
    g.apply("roll 2")
    b = Belief.for_game(g, "Cy", model=BadModel(np.array([0, 0, 0, 0, -np.inf, 0.0])))
    b.observe(g.view("Cy"), "Ann", "move red+2")
    b2 = Belief(P3, g.agents, "Cy", BadModel(np.array([-np.inf, -np.inf, -np.inf, -np.inf, 0, -np.inf])), "green")
    before = b2.marginals_array()
    with pytest.raises(ModelError, match="impossible"):
        b2.observe(g.view("Cy"), "Ann", "move red+2")     # only possible if Ann holds green, which Cy holds
    np.testing.assert_array_equal(b2.marginals_array(), before)


def test_bad_arguments(model):
    g = Game(P3, seed=1)
    rec = boltzmann_game(P3, 1).record
    with pytest.raises(ModelError, match="unknown observer"):
        Belief.for_game(g, "Zed", model=model)
    with pytest.raises(ModelError, match="unknown observer"):
        Belief.from_record(rec, "Zed", model=model)
    with pytest.raises(ModelError, match="unknown observer"):
        BeliefSet.from_record(rec, observers=["Zed"], model=model)
    with pytest.raises(ModelError, match="own agent"):
        Belief(P3, g.agents, "Ann", model=model)
    with pytest.raises(ModelError):
        Belief(P3, g.agents, None, model=model, own_agents="red")
    with pytest.raises(ModelError, match="agent_log_likelihoods"):
        Belief(P3, g.agents, None, model=object())
    # a view of another game
    b = Belief(["Ann", "Bob"], ("grey", "yellow", "orange", "red", "green"), "Ann", model=model, own_agents="red")
    with pytest.raises(ModelError, match="another game"):
        b.observe(g.view("Ann"), g.current_player, g.legal_actions()[0])
    # not the view before that player's decision
    b3 = Belief.for_game(g, "Ann", model=model)
    with pytest.raises(ModelError, match="view shows"):
        b3.observe(g.view("Ann"), "Bob", g.legal_actions()[0])
    with pytest.raises(ModelError, match="unknown actor"):
        b3.observe(g.view("Ann"), "Zed", g.legal_actions()[0])
    with pytest.raises(ModelError, match="not an action"):
        b3.observe(g.view("Ann"), g.current_player, "fly away")
    with pytest.raises(ModelError, match="until"):
        Belief.from_record(rec, "Ann", model=model, until="soon")
    with pytest.raises(ModelError):
        Belief.from_record("not a record", "Ann", model=model)
    # a record whose log does not fit its game
    bad = rec.__class__(**{**rec.__dict__, "log": rec.log[:5] + rec.log[7:], "result": None})
    with pytest.raises(RecordError):
        Belief.from_record(bad, "Ann", model=model)


# --------------------------------------------------------------------------- baselines and the set


def test_baselines_shape_and_meaning(model):
    rec = boltzmann_game(P4, 12).record
    bs = BeliefSet.from_record(rec, model=model, until="dossier", baselines=True)
    for o in P4:
        ib, pb = bs.independent[o], bs.points_share[o]
        for m in (ib.marginals(), pb.marginals()):
            assert list(m) == P4 + ["free"] and all(list(r) == list(bs.agents) for r in m.values())
        assert ib.marginals()[o][rec.deal[o]] == pytest.approx(1.0)
        assert pb.marginals()[o][rec.deal[o]] == pytest.approx(1.0)
        for p in P4:
            assert sum(ib.marginals()[p].values()) == pytest.approx(1.0)
            assert sum(pb.marginals()[p].values()) == pytest.approx(1.0)
            if p != o:
                assert pb.marginals()[p][rec.deal[o]] == 0.0
        np.testing.assert_allclose(ib.marginals_array(normalize=True).sum(axis=0), 1.0)
        alone = IndependentBelief.from_record(rec, o, model=model, until="dossier")
        np.testing.assert_allclose(alone.marginals_array(), ib.marginals_array())
        alone = PointsShareBelief.from_record(rec, o, until="dossier")
        np.testing.assert_allclose(alone.marginals_array(), pb.marginals_array())
    # points share by hand: the points each player gave each agent by die moves, up to the mark
    pts = {p: {} for p in P4}
    for i, a, act, to, view, ev in public_decisions(rec, None, until="dossier"):
        if act.kind == "move":
            for c, n in act.args:
                pts[a][c] = pts[a].get(c, 0) + n
    pb = bs.points_share["Ann"]
    allowed = [c for c in bs.agents if c != rec.deal["Ann"]]
    w = {c: pts["Bob"].get(c, 0) + 1.0 for c in allowed}
    for c in allowed:
        assert pb.marginals()["Bob"][c] == pytest.approx(w[c] / sum(w.values()))


def test_seven_players_have_no_free_agent(model):
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
    rec = boltzmann_game(players, 1, Rules(top_secret=True)).record
    bs = BeliefSet.from_record(rec, model=model, until=60)
    for o, b in bs.beliefs.items():
        assert len(b.space) == 720
        assert np.all(b.marginals_array()[-1] == 0)


# --------------------------------------------------------------------------- the bluffing bot


def test_bluff_bot_hides_its_agent_at_a_cost(model):
    """Same seeds, same seats, same BoltzmannBot opponents; the subject is a BoltzmannBot or a BluffBot
    (same beta and epsilon): :func:`bluff_cost`. Paired differences of the opponents' belief in the subject's
    agent at the dossier mark: the bluffer must be less exposed by more than 4 standard errors (one-sided
    p < 3e-5 under the normal approximation of the mean of 24 paired differences, each in [-1, 1])."""
    n = 24
    paired = bluff_cost(games=n, seed=0, model=model, per_game=True)
    assert len(paired) == n and list(paired.seed) == list(range(n))
    e0, e1 = paired.exposure_boltzmann.to_numpy(), paired.exposure_bluff.to_numpy()
    d = e0 - e1
    se = d.std(ddof=1) / math.sqrt(n)
    assert d.mean() > 4 * se
    # the summary table is the same games' means and paired standard errors
    table = bluff_cost(games=n, seed=0, model=model)
    assert list(table.index) == ["boltzmann", "bluff", "bluff - boltzmann"]
    diff = table.loc["bluff - boltzmann"]
    assert diff.exposure == pytest.approx(-d.mean()) and diff.exposure_se == pytest.approx(se)
    m = paired.margin_bluff - paired.margin_boltzmann
    assert diff.margin == pytest.approx(m.mean()) and diff.margin_se == pytest.approx(m.std(ddof=1) / math.sqrt(n))
    assert table.loc["bluff"].win == pytest.approx(paired.win_bluff.mean())
    print(f"\nBluffBot(secrecy={BluffBot().secrecy:g}) vs BoltzmannBot over {n} paired 4-player games:\n{table}")
    # the cost in points (-margin of the difference row) is reported (bluff_cost over more games), not
    # asserted: over 24 games its standard error (about 1.5 marker points) is as large as the cost itself
    with pytest.raises(ModelError, match="games"):
        bluff_cost(games=1)
    with pytest.raises(ModelError, match="secrecy"):
        bluff_cost(games=2, secrecy=-1)


def test_bluff_bot_is_registered_and_legal():
    bot = make_bot("bluff", seed=3)
    assert isinstance(bot, BluffBot)
    g = play_game(Rules(top_secret=True, dossier=True),
                  {"Ann": bot, "Bob": BoltzmannBot(seed=1), "Cy": BluffBot(secrecy=0, seed=2)}, seed=5)
    assert g.is_over
    assert set(bot.last) == {"utility", "exposure", "probability", "chosen"}
    with pytest.raises(ModelError):
        BluffBot(secrecy=-1)


def _state(b):
    return (b.marginals_array().copy(), b.entropy(), list(b.history), b._count,
            b._reader and b._reader.consumed, set(b._took), b.own_agents, b.at_mark)


def _shadow_state(b):
    shadow = b._reader._shadow
    v = shadow.game.view(shadow.viewer)
    return (v.turn, v.phase, v.current_player, dict(v.positions), dict(v.scores), v.safe, v.die, v.points,
            [(e.kind, e.data) for e in v.log], shadow.history_key)


def _assert_same_state(s1, s2):
    np.testing.assert_array_equal(s1[0], s2[0])
    assert s1[1:] == s2[1:]


@pytest.mark.parametrize("fail_at", [1, 4, 9])
def test_sync_that_fails_part_way_leaves_the_belief_as_it_was(fail_at):
    class FailsOnce:
        """PushModel, except that call number ``fail_at`` (counted from arming) returns a wrong shape."""

        def __init__(self):
            self.calls, self.armed = 0, False

        def agent_log_likelihoods(self, view, actor, action):
            if self.armed:
                self.calls += 1
                if self.calls == fail_at:
                    return np.zeros(3)            # wrong length
            return PushModel(0.5).agent_log_likelihoods(view, actor, action)

    players = P3
    g = Game(players, seed=4)
    bots = {p: RandomBot(seed=i) for i, p in enumerate(players)}
    model = FailsOnce()
    b = Belief.for_game(g, "Ann", model=model)

    def advance(n):
        for _ in range(n):
            p = g.current_player
            assert p is not None, "the game ended too early for this test"
            g.apply(bots[p].choose(g.view(p), g.legal_actions()))

    advance(20)
    b.sync(g.view("Ann"))
    assert len(b.history) > 3
    before = _state(b)
    shadow_view = _shadow_state(b)
    advance(20)
    model.armed = True
    with pytest.raises(ModelError, match="shape"):
        b.sync(g.view("Ann"))
    _assert_same_state(_state(b), before)
    assert _shadow_state(b) == shadow_view          # the shadow game is back where it was
    b.sync(g.view("Ann"))                            # the model answers now: the same belief as a fresh one
    ref = Belief.for_game(g, "Ann", model=PushModel(0.5))
    np.testing.assert_allclose(b.marginals_array(), ref.marginals_array(), atol=1e-12)
    assert [(s.index, s.actor, s.action) for s in b.history] == [(s.index, s.actor, s.action) for s in ref.history]


def test_failing_observer_update_in_a_belief_set_changes_no_one():
    """Ann's move is possible for Cy and the spectator only if Ann holds blue, which Bob holds: Bob's update
    fails after Cy's was made; every belief and baseline must be as before the entry."""
    g = Game(P3, chance="manual")
    g.apply("deal Ann=red Bob=blue Cy=green")
    g.apply("roll 2")
    g.apply("move red+2")
    rec = g.record
    agents = list(g.agents)
    only_blue = np.where(np.array(agents) == "blue", 0.0, -np.inf)
    bs = BeliefSet(P3, agents, {"Cy": "green", "Bob": "blue", None: ()}, BadModel(only_blue), baselines=True)
    item = next(it for it in public_decisions(rec, None) if it.action.kind == "move")
    before = {o: _state(b) for o, b in bs.beliefs.items()}
    ind = {o: ib.marginals_array().copy() for o, ib in bs.independent.items()}
    n_ind = {o: len(ib.snapshot().history) for o, ib in bs.independent.items()}
    pts = {o: pb.points.copy() for o, pb in bs.points_share.items()}
    with pytest.raises(ModelError, match="impossible"):
        bs._consume(item, rec)
    for o, b in bs.beliefs.items():
        _assert_same_state(_state(b), before[o])
    for o, ib in bs.independent.items():
        np.testing.assert_array_equal(ib.marginals_array(), ind[o])
        assert len(ib.snapshot().history) == n_ind[o]
    for o, pb in bs.points_share.items():
        np.testing.assert_array_equal(pb.points, pts[o])
    # the same entry with a model that allows it changes Cy's belief (so the rollback above undid something)
    bs.model = PushModel(0.5)
    bs._consume(item, rec)
    assert not np.array_equal(bs["Cy"].marginals_array(), before["Cy"][0])
    assert bs.points_share["Cy"].points.sum() == 2


def test_what_observe_ignores():
    g = Game(P3, chance="manual")
    g.apply("deal Ann=red Bob=blue Cy=green")
    b = Belief.for_game(g, "Ann", model=PushModel(0.5))
    assert b.observe(g.view("Ann"), "Ann", "roll 3") is None            # chance
    g.apply("roll 3")
    assert b.observe(g.view("Ann"), "Ann", "move blue+3") is None       # one's own decision tells nothing
    g.apply("move blue+3")
    g.apply("roll 2")
    assert b.observe(g.view("Ann"), "Bob", "move blue+2").kind == "observation"
    assert len(b.history) == 1 and b.history[0].index == 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_belief_set_scores_against_the_final_owners(seed):
    """Ann holds two agents from the start: at the end she keeps only the farther one, the other is free
    (the dossier rule), and that is what a finished game's beliefs are scored against."""
    rules = Rules(top_secret=True)
    start = Position(positions={"grey": 2, "yellow": 4, "orange": 0, "red": 8, "green": 0, "blue": 3},
                     scores={"grey": 20, "yellow": 18, "orange": 5, "red": 19, "green": 12, "blue": 3}, owners={"Ann": ["grey", "yellow"], "Bob": "red", "Cy": "green"}, safe=7, decision="points",
                     die="1-3", hands={"Ann": [], "Bob": [], "Cy": []})
    g = Game(P3, rules=rules, seed=seed, start=start)
    bots = {p: BoltzmannBot(seed=seed * 10 + i) for i, p in enumerate(P3)}
    while not g.is_over:
        p = g.current_player
        g.apply(bots[p].choose(g.view(p), g.legal_actions()))
    final = g.final_owners
    sc = g.scores
    assert sc["grey"] != sc["yellow"]
    kept, other = sorted(("grey", "yellow"), key=lambda c: -sc[c])
    for until in (None, "dossier"):
        bs = BeliefSet.from_record(g.record, model=PushModel(0.5), until=until)
        assert bs.final_owners == final
        assert bs.truth == {p: [c for c in bs.agents if final[c] == p] for p in P3}
        assert sorted(bs.truth["Ann"]) != ["grey", "yellow"] and len(bs.truth["Ann"]) == 1
        assert bs.truth["Ann"] == [kept] and final[other] is None
        assert sorted(bs.truth_at_stop["Ann"]) == ["grey", "yellow"]   # control when the replay stopped
    # an unfinished game: the owners at the stop
    partial = Game(P3, rules=rules, seed=seed, start=start)
    for _ in range(3):
        p = partial.current_player
        partial.apply(bots[p].choose(partial.view(p), partial.legal_actions()))
    bs = BeliefSet.from_record(partial.record, model=PushModel(0.5))
    assert bs.final_owners is None and sorted(bs.truth["Ann"]) == ["grey", "yellow"] == sorted(bs.truth_at_stop["Ann"])


@pytest.mark.parametrize("top_secret", [False, True])
def test_belief_set_owners_at_the_stop_are_the_engines(top_secret):
    """Who controls what when the replay stops is the engine's answer at that entry, before and after a
    second-agent take (the owners are read without a second replay when nobody took one)."""
    rules = Rules(top_secret=top_secret)
    seen_take = False
    for seed in range(6):
        rec = play_game(rules, {p: RandomBot(seed * 10 + i) for i, p in enumerate(P3)}, seed=seed).record
        takes = [k for k, e in enumerate(rec.log) if e.action.kind == "take"]
        seen_take |= bool(takes)
        stops = sorted({5, len(rec.log) // 2, len(rec.log), *(k + 1 for k in takes), *(k for k in takes if k)})
        for until in stops:
            bs = BeliefSet.from_record(rec, model=PushModel(0.5), until=until)
            assert bs.truth_at_stop == rec.replay(until=bs.index).owners   # bs.index: the entries it read
            if not takes:
                assert bs.truth_at_stop == {p: [c] for p, c in rec.deal.items()}
    assert seen_take == top_secret   # the Top Secret games did reach a take

# --------------------------------------------------------------------------- one stream, one update step


def _top_secret_game(seed, players=P4):
    bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(players)}
    return play_game(Rules(top_secret=True), bots, seed=seed).record


@pytest.mark.parametrize("observer", ["Bob", None])
def test_add_feeds_a_belief_from_the_stream_as_sync_does(observer):
    from heimlich_lab.rules.replay import DecisionStream

    model = PushModel(0.6)
    game = Game(P4, rules=Rules(top_secret=True), seed=4)
    bots = {p: RandomBot(40 + i) for i, p in enumerate(P4)}
    own = game.view("Bob").own_agents if observer else None
    added = Belief(P4, game.agents, observer, model, own)
    stream = DecisionStream(game, observer)
    synced = Belief.for_game(game, observer, model=PushModel(0.6))
    while not game.is_over:
        p = game.current_player
        game.apply(bots[p].choose(game.view(p), game.legal_actions()))
        for d in stream.new():
            added.add(d)
        synced.sync(game.view(observer))
    assert len(added.history) == len(synced.history) > 10
    np.testing.assert_array_equal(added.marginals_history(), synced.marginals_history())
    assert added.explanations() == synced.explanations()
    with pytest.raises(ModelError, match="fed by add"):
        added.sync(game.view(observer))


def test_add_keeps_the_information_rule_and_leaves_the_belief_as_it_was():
    rec = _top_secret_game(3)
    bob = Belief(P4, rec.rules.agents_for(4), "Bob", PushModel(0.5), rec.deal["Bob"])
    anns = list(public_decisions(rec, "Ann"))
    with pytest.raises(InformationRuleError):
        bob.add(next(d for d in anns if d.view is not None))   # Ann's view, not Bob's
    assert bob.history == [] and bob.entropy() == Belief(P4, bob.agents, "Bob", PushModel(0.5),
                                                         rec.deal["Bob"]).entropy()
    spectator = Belief(P4, bob.agents, None, PushModel(0.5))
    with pytest.raises(InformationRuleError):   # Ann's views hold Ann's hand
        for d in anns:
            spectator.add(d)
    assert spectator.history == []
    observed = Belief(P4, bob.agents, "Bob", PushModel(0.5), rec.deal["Bob"])
    d = next(d for d in public_decisions(rec, "Bob") if d.view is not None and d.actor != "Bob")
    observed.observe(d.view, d.actor, d.action)
    with pytest.raises(ModelError, match="fed by observe"):
        observed.add(d)


def test_a_belief_is_its_posterior():
    """Belief holds a core Posterior: the same numbers, bit for bit, as the core fed the same values."""
    rec = push_game(P4, 11).record
    model = PushModel(0.5)
    b = Belief.from_record(rec, "Cy", model=model)
    own = rec.deal["Cy"]
    post = Posterior(HypothesisSpace.assignments(P4, b.agents, known_owned={"Cy": own}))
    for d in public_decisions(rec, "Cy"):
        if d.view is not None and d.actor != "Cy":
            values = model.agent_log_likelihoods(d.view, d.actor, d.action)
            if values is not None:
                post.update_actor(d.actor, values)
    np.testing.assert_array_equal(b.marginals_array(), post.marginals())
    np.testing.assert_array_equal(b.log_weights, post.log_weights)
    assert (b.entropy(), b.most_probable()) == (post.entropy(), post.most_probable())
    np.testing.assert_array_equal(b.posterior().marginals(), post.marginals())


def test_the_split_modules_keep_the_old_imports():
    import heimlich_lab.inference.belief as belief
    from heimlich_lab.inference import baselines, belief_set, likelihoods, plots, wording

    assert belief.BeliefSet is belief_set.BeliefSet
    assert belief.IndependentBelief is baselines.IndependentBelief
    assert belief.PointsShareBelief is baselines.PointsShareBelief
    assert belief.PushModel is likelihoods.PushModel and belief.default_model is likelihoods.default_model
    assert belief.describe_action is wording.describe_action and belief.card_moves is wording.card_moves
    assert belief.plot_marginals is plots.plot_marginals
    from heimlich_lab.rules.replay import public_decisions as stream
    assert belief.public_decisions is stream

