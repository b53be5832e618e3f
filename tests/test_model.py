"""The utility (heimlich_lab.inference.utility) and the Boltzmann player model (heimlich_lab.inference.model)."""
from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from heimlich_lab import Action, Game, ModelError, Position, Rules
from heimlich_lab.bots import BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.inference.model import BoltzmannModel, PlayerModel, safe_options
from heimlich_lab.inference.utility import (REACH, PublicState, Utility, UtilityWeights, card_plays, soft_max,
                                            utility_matrix)
from heimlich_lab.rules.allocations import allocation_table
from heimlich_lab.rules.board import index_of

FIVE = ("grey", "yellow", "orange", "red", "green")
SEVEN = FIVE + ("blue", "violet")
#: only the relative marker gain: U(m; a) is exactly gain_a - mean of the others' gains
GAIN_ONLY = UtilityWeights(position=0.0, prospect=0.0, win=0.0, draw=0.0)


def move_game(positions, points, scores=None, safe=7, players=("Ann", "Bob"), owners=None, rules=None):
    owners = owners or {"Ann": "grey", "Bob": "red"} if len(players) == 2 else owners
    die = str(points) if points >= 2 else "1-3"
    return Game(list(players), rules=rules, chance="manual", start=Position(
        positions=positions, owners=owners, scores=scores, safe=safe, decision="move", die=die,
        points=points if die == "1-3" else None))


def state_of(g):
    return PublicState.from_view(g.view(None))


def col(agents, c):
    return agents.index(c)


def row_of(g, text):
    return g.legal_actions().index(Action.parse(text))


def decisions(rules, n_players, seed, bots=None):
    """Yield (own view, spectator view, legal, chosen, actor, actor's agents) for every player decision."""
    players = [f"P{i}" for i in range(n_players)]
    bots = bots or {p: BoltzmannBot(seed=seed * 10 + i) for i, p in enumerate(players)}
    g = Game(players, rules=rules, seed=seed)
    while not g.is_over:
        p = g.current_player
        v, legal = g.view(p), g.legal_actions()
        a = bots[p].choose(v, legal)
        yield v, g.view(None), legal, a, p, list(g.owners[p])
        g.apply(a)


VARIANTS = [Rules(), Rules(top_secret=True), Rules(top_secret=True, dossier=True),
            Rules(safe_destination="unoccupied")]


# ---------------------------------------------------------------- the move table and legal sets
@pytest.mark.parametrize("n_agents,players", [(5, ("A", "B")), (6, ("A", "B", "C")), (7, ("A", "B", "C", "D"))])
def test_move_rows_are_the_allocation_table_in_legal_order(n_agents, players):
    agents = SEVEN[:n_agents]
    for k in range(1, 7):
        g = move_game({c: 0 for c in agents}, k, players=players,
                      owners={p: agents[i] for i, p in enumerate(players)})
        steps = np.array([[a.steps.get(c, 0) for c in agents] for a in g.legal_actions()])
        assert np.array_equal(steps, allocation_table(n_agents, k))
        assert Utility().moves(state_of(g), k).shape == (len(steps), n_agents)


def test_public_legal_sets_match_the_engine():
    """The model computes legal sets from the public state: they must be the engine's."""
    seen = set()
    for rules in VARIANTS:
        for seed in range(3):
            for v, spec, legal, a, p, own in decisions(rules, 4, seed):
                st = PublicState.from_view(spec)
                if v.phase == "safe":
                    assert tuple(x.args[0] for x in legal) == safe_options(spec)
                    seen.add("safe")
                elif v.phase == "points":
                    assert tuple(x.args[0] for x in legal) == ((0, 1, 2, 3) if rules.top_secret else (1, 2, 3))
                    seen.add("points")
                elif v.phase == "round":
                    for code in set(v.hand):
                        mine = tuple(x for x in legal if x.kind == "play" and x.args[0] == code)
                        assert card_plays(st, code) == mine, code
                        seen.add("round")
    assert seen == {"safe", "points", "round"}


def test_safe_options_unoccupied():
    g = Game(["Ann", "Bob"], rules=Rules(safe_destination="unoccupied"), chance="manual", start=Position(
        positions={"grey": 3, "yellow": 0, "orange": 0, "red": 5, "green": 9}, owners={"Ann": "grey", "Bob": "red"},
        safe=5, decision="safe", die="6"))
    assert safe_options(g.view(None)) == (1, 2, 4, 6, 7, 8, 10, -3)
    assert tuple(a.args[0] for a in g.legal_actions()) == safe_options(g.view(None))


# ---------------------------------------------------------------- utility: signs and definitions
def test_relative_gain_is_exactly_own_minus_mean_of_others():
    # grey alone scores 7: worth 7 to grey, -7/4 to each other agent
    g = move_game({"grey": 6, "yellow": 0, "orange": 0, "red": 0, "green": 0}, 1)
    U = Utility(GAIN_ONLY).moves(state_of(g), 1)
    m = row_of(g, "move grey+1")
    assert U[m].tolist() == pytest.approx([7, -1.75, -1.75, -1.75, -1.75])
    # everybody scores 7 together: worth nothing to anybody
    g2 = move_game({"grey": 6, "yellow": 7, "orange": 7, "red": 7, "green": 7}, 1)
    U2 = Utility(GAIN_ONLY).moves(state_of(g2), 1)
    assert U2[row_of(g2, "move grey+1")].tolist() == pytest.approx([0, 0, 0, 0, 0])
    # moves that do not score are worth 0 with the gain term alone
    assert U[row_of(g, "move red+1")].tolist() == pytest.approx([0] * 5)


def test_scoring_is_worth_more_to_an_agent_on_a_high_building_than_to_one_in_the_ruins():
    pos = {"grey": 6, "yellow": 9, "orange": -3, "red": 2, "green": 0}
    scores = {"grey": 5, "yellow": 5, "orange": 10, "red": 5, "green": 5}
    g = move_game(pos, 1, scores=scores)
    U = Utility().moves(state_of(g), 1)
    m = row_of(g, "move grey+1")              # lands on the safe (7): a scoring
    y, o, r = (col(FIVE, c) for c in ("yellow", "orange", "red"))
    assert U[m, y] > U[m, r] > U[m, o]
    assert U[m, o] < 0
    # for the agent in the ruins, not scoring is better than this scoring
    assert U[row_of(g, "move red+1"), o] > U[m, o]
    # for the agent on 9, this scoring is better than any move that does not score
    assert U[m, y] == U[:, y].max()


def test_moving_your_own_agent_forward_helps_you_and_the_ruins_hurt():
    pos = {"grey": 2, "yellow": 3, "orange": 0, "red": 10, "green": 0}
    g = move_game(pos, 1, safe=1)             # the safe is out of everyone's one-step reach
    U = Utility().moves(state_of(g), 1)
    gr, rd = col(FIVE, "grey"), col(FIVE, "red")
    assert U[row_of(g, "move grey+1"), gr] > U[row_of(g, "move yellow+1"), gr]
    # red+1 takes red from 10 into the ruins
    assert U[row_of(g, "move red+1"), rd] == U[:, rd].min()
    assert U[row_of(g, "move red+1"), gr] > U[row_of(g, "move orange+1"), gr]   # and that is good for grey


def test_winning_scoring_gets_the_win_bonus():
    pos = {"grey": 6, "yellow": 9, "orange": 0, "red": 0, "green": 0}
    scores = {"grey": 38, "yellow": 20, "orange": 0, "red": 0, "green": 0}
    g = move_game(pos, 1, scores=scores)
    st = state_of(g)
    m = row_of(g, "move grey+1")              # grey reaches 45 and wins
    with_win = Utility(UtilityWeights(win=20.0)).moves(st, 1)
    no_win = Utility(UtilityWeights(win=0.0)).moves(st, 1)
    assert with_win[m, 0] - no_win[m, 0] == pytest.approx(20.0)
    assert with_win[m, 1] - no_win[m, 1] == pytest.approx(-20.0)
    other = row_of(g, "move red+1")           # no scoring, no end: no win term
    assert with_win[other].tolist() == pytest.approx(no_win[other].tolist())


def test_safe_utility_follows_who_profits_from_the_next_scoring():
    # grey stands on 9, everyone else on 1. Safe on 3: the next roll surely reaches it (others at distance 2),
    # a scoring soon pays grey 9 and the others ~1. Safe on 8: nobody can reach it next turn.
    g = Game(["Ann", "Bob"], chance="manual", start=Position(
        positions={"grey": 9, "yellow": 1, "orange": 1, "red": 1, "green": 1}, owners={"Ann": "grey", "Bob": "red"},
        safe=7, decision="safe", die="6"))
    st = state_of(g)
    U = Utility().safe(st, [3, 8])
    assert U[0, 0] > U[1, 0]                  # grey wants the safe on 3
    assert U[0, 1] < U[1, 1]                  # yellow does not
    # with the prospect weight 0, the safe decision carries no preference
    flat = Utility(UtilityWeights(prospect=0.0)).safe(st, [3, 8])
    assert np.allclose(flat[0], flat[1])


@settings(max_examples=60, deadline=None)
@given(n=hs.sampled_from([5, 6, 7]), k=hs.integers(1, 6), data=hs.data(),
       weights=hs.sampled_from([UtilityWeights(), GAIN_ONLY, UtilityWeights(gain=2.0, position=0.0, win=5.0)]))
def test_vectorized_moves_equal_the_general_evaluator(n, k, data, weights):
    """Utility.moves (specialised lookup tables) == the general state evaluator applied to every allocation."""
    pos = tuple(data.draw(hs.lists(hs.integers(0, 11), min_size=n, max_size=n)))
    scores = tuple(data.draw(hs.lists(hs.integers(0, 41), min_size=n, max_size=n)))
    safe = data.draw(hs.integers(0, 11))
    trig = tuple(sorted(set(data.draw(hs.lists(hs.integers(0, n - 1), max_size=2)))))
    st = PublicState(agents=SEVEN[:n], pos=pos, scores=scores, safe=safe, triggers=trig,
                     top_secret=data.draw(hs.booleans()), active_hand=data.draw(hs.integers(0, 4)))
    u = Utility(weights)
    T = allocation_table(n, k)
    newpos = (np.array(pos) + T) % 12
    moved = T > 0
    keep = np.isin(np.arange(n), trig)
    pending = (moved & (newpos == safe)).any(axis=1) | (keep & ~moved).any(axis=1)
    bonus = weights.draw * (moved & (newpos == 11)).any(axis=1) if st.can_draw else 0.0
    ref = u.evaluate(newpos, np.full(len(T), safe), np.array(scores), np.array(scores), pending, bonus)
    assert np.allclose(u.moves(st, k), ref, atol=1e-9)


def test_reach_probabilities_of_the_die():
    assert REACH[:8].tolist() == pytest.approx([0, 1, 1, 5 / 6, 1 / 2, 1 / 3, 1 / 6, 0])


def test_points_utility_is_a_soft_max_of_the_moves():
    g = Game(["Ann", "Bob"], rules=Rules(top_secret=True), chance="manual", start=Position(
        positions={"grey": 4, "yellow": 1, "orange": 0, "red": 8, "green": 0}, owners={"Ann": "grey", "Bob": "red"},
        safe=7, decision="points", die="1-3", hands={"Ann": ["swap"], "Bob": []}))
    st, u = state_of(g), Utility()
    P = u.points(st, (0, 1, 2, 3))
    for k in (1, 2, 3):
        M = u.moves(st, k)
        assert np.all(P[k] <= M.max(axis=0) + 1e-9) and np.all(P[k] >= M.mean(axis=0) - 1e-9)
        assert u.points(st, (k,), softness=0)[0] == pytest.approx(M.max(axis=0))
    # 0 points: stay and draw a card (the hand is not full)
    assert P[0] == pytest.approx(u.stay(st) + UtilityWeights().draw)
    assert soft_max(np.array([[1.0], [1.0]]), 5.0) == pytest.approx([1.0])


def test_card_utilities_count_a_pending_trigger_as_a_scoring():
    st = PublicState(agents=FIVE, pos=(index_of(8), 1, 0, 2, 0), scores=(0,) * 5, safe=index_of(9), top_secret=True)
    u = Utility(GAIN_ONLY)
    plays = card_plays(st, "tosafe")
    U = u.cards(st, plays, actor_is_active=False)
    i = plays.index(Action.parse("play tosafe grey"))
    # grey to the safe (9): a scoring now; grey 9, yellow 1, red 2, others 0
    assert U[i].tolist() == pytest.approx([9 - 3 / 4, 1 - 11 / 4, 0 - 12 / 4, 2 - 10 / 4, 0 - 12 / 4])
    # placesafe clears the triggers and never scores
    st2 = PublicState(agents=FIVE, pos=(index_of(9),) + (0,) * 4, scores=(0,) * 5, safe=index_of(9),
                      triggers=(0,), top_secret=True)
    assert u.stay(st2)[0] == pytest.approx(9.0)
    assert np.allclose(u.cards(st2, card_plays(st2, "placesafe"), False), 0.0)
    # bonus: +3 for two markers now, relative
    st3 = PublicState(agents=FIVE, pos=(0,) * 5, scores=(39, 0, 0, 0, 0), safe=7, top_secret=True)
    Ub = u.cards(st3, [Action.parse("play bonus grey yellow")], False)[0]
    assert Ub.tolist() == pytest.approx([1 - 3 / 4, 3 - 1 / 4, -1, -1, -1])   # grey is capped at 40


# ---------------------------------------------------------------- the model: a distribution for every agent
def test_probabilities_sum_to_one_over_the_legal_set_for_every_agent():
    model = BoltzmannModel(beta=1.5, epsilon=0.1)
    phases = set()
    for rules in VARIANTS + [Rules(dossier=True)]:
        for v, spec, legal, a, p, own in decisions(rules, 3, seed=1):
            if len(legal) < 2:
                continue
            phases.add(v.phase)
            for agent in v.agents:
                pr = model.action_probabilities(v, agent, legal)
                assert pr.shape == (len(legal),)
                assert np.all(pr >= 0) and pr.sum() == pytest.approx(1.0)
                if v.phase in ("points", "move", "safe", "announce"):
                    assert pr.min() >= 0.1 / len(legal) - 1e-12      # the epsilon floor
    assert {"points", "move", "safe", "announce", "round", "dossier"} <= phases


def test_epsilon_one_and_beta_zero_give_uniform_choices():
    g = move_game({"grey": 6, "yellow": 9, "orange": -3, "red": 2, "green": 0}, 4)
    v, legal = g.view(None), g.legal_actions()
    for m in (BoltzmannModel(beta=3.0, epsilon=1.0), BoltzmannModel(beta=0.0, epsilon=0.3)):
        for agent in FIVE:
            assert np.allclose(m.action_probabilities(v, agent, legal), 1 / len(legal))
        assert m.agent_log_likelihoods(v, "Ann", legal[3]) is None        # uninformative
    # beta = 0 in a round: uniform over the card options, then uniform over the chosen card's targets
    st = PublicState(agents=FIVE, pos=(1, 2, 3, 4, 5), scores=(0,) * 5, safe=7, top_secret=True)
    plays = card_plays(st, "fwd123") + card_plays(st, "ruins")
    legal = plays + (Action("pass"),)

    class V:    # a duck-typed view: the model reads public fields only
        agents, phase, rules, points = FIVE, "round", Rules(top_secret=True), None
        positions = {c: p for c, p in zip(FIVE, (1, 2, 3, 4, 5))}
        scores = {c: 0 for c in FIVE}
        safe, triggers, active_player, current_player = 7, (), "Ann", "Bob"
        hand_sizes = {"Ann": 2, "Bob": 2}
    pr = BoltzmannModel(beta=0.0, epsilon=0.0).action_probabilities(V, "red", legal)
    assert pr[:15] == pytest.approx([1 / 3 / 15] * 15) and pr[15:20] == pytest.approx([1 / 3 / 5] * 5)
    assert pr[-1] == pytest.approx(1 / 3)


def test_a_larger_beta_concentrates_the_choice():
    g = move_game({"grey": 6, "yellow": 9, "orange": -3, "red": 2, "green": 0}, 3)
    v, legal = g.view(None), g.legal_actions()

    def entropy(p):
        return float(-(p * np.log(p)).sum())
    for agent in FIVE:
        ps = [BoltzmannModel(beta=b, epsilon=0.0).action_probabilities(v, agent, legal) for b in (0.0, 0.5, 1, 2, 4)]
        ent = [entropy(p) for p in ps]
        assert all(x > y for x, y in zip(ent, ent[1:]))
        assert ent[0] == pytest.approx(math.log(len(legal)))
        assert ps[-1].max() > ps[1].max()
        assert ps[-1].argmax() == Utility().moves(state_of(g), 3)[:, col(FIVE, agent)].argmax()


def test_likelihood_is_the_probability_of_the_action_for_each_agent():
    g = move_game({"grey": 6, "yellow": 9, "orange": -3, "red": 2, "green": 0}, 5)
    v, legal = g.view("Bob"), g.legal_actions()
    m = BoltzmannModel(beta=0.7, epsilon=0.05)
    for i in (0, 17, 100, len(legal) - 1):
        ll = m.agent_log_likelihoods(g.view(None), "Ann", legal[i])
        assert ll.shape == (5,)
        for a, agent in enumerate(FIVE):
            assert math.exp(ll[a]) == pytest.approx(m.action_probabilities(v, agent, legal)[i], rel=1e-9)


def test_model_and_boltzmann_bot_are_the_same_generative_process():
    """For every decision a BoltzmannBot makes, the model's likelihood at the bot's true agent(s), computed
    from the bot's own view (its hand known), is exactly the bot's probability of its choice: points, moves,
    safe moves, announcements, card + targets, pass and done. Actors with two agents: the mean over the
    agents (the belief core's rule). Dossier entries and collecting a card are the only uninformative decisions."""
    checked = dict.fromkeys(("points", "move", "safe", "announce", "play", "pass", "done", "two agents"), 0)
    for rules, n, seeds in [(Rules(), 5, range(2)), (Rules(top_secret=True), 3, range(8)),
                            (Rules(top_secret=True, dossier=True, safe_destination="unoccupied"), 4, range(3))]:
        for seed in seeds:
            players = [f"P{i}" for i in range(n)]
            bots = {p: BoltzmannBot(beta=0.8, epsilon=0.1, seed=seed * 10 + i) for i, p in enumerate(players)}
            model = BoltzmannModel(beta=0.8, epsilon=0.1)
            for v, spec, legal, a, p, own in decisions(rules, n, seed, bots):
                ll = model.agent_log_likelihoods(v, p, a)
                if a.kind in ("dossier", "collect"):   # model bots always collect: no evidence
                    assert ll is None
                    continue
                want = bots[p].probabilities(v, legal)[legal.index(a)]
                got = np.mean([math.exp(ll[v.agents.index(c)]) for c in own])
                assert got == pytest.approx(want, rel=1e-9, abs=1e-15)
                checked[a.kind] += 1
                checked["two agents"] += len(own) == 2
    assert all(checked.values()), checked


def test_uninformative_decisions_return_none():
    m = BoltzmannModel()
    g = Game(["Ann", "Bob"], rules=Rules(top_secret=True), seed=3)
    v = g.view(None)
    for text in ("dossier red=Bob", "roll 4", "draw swap", "take red"):
        assert m.agent_log_likelihoods(v, "Ann", Action.parse(text)) is None


def test_the_model_refuses_actions_that_do_not_fit_the_view():
    g = move_game({"grey": 6, "yellow": 9, "orange": -3, "red": 2, "green": 0}, 3)
    m = BoltzmannModel()
    with pytest.raises(ModelError, match="spend the 3 point"):
        m.agent_log_likelihoods(g.view(None), "Ann", Action.parse("move grey+2"))
    with pytest.raises(ModelError, match="view stands at 'move'"):
        m.agent_log_likelihoods(g.view(None), "Ann", Action.parse("safe 4"))
    with pytest.raises(ModelError, match="not an agent in play"):
        m.action_probabilities(g.view(None), "purple", g.legal_actions())


@pytest.mark.parametrize("kwargs,msg", [
    ({"beta": -1}, "beta must be a number >= 0"), ({"beta": float("nan")}, "beta"), ({"beta": float("inf")}, "beta"),
    ({"beta": "2"}, "beta"), ({"beta": True}, "beta"), ({"epsilon": -0.01}, "epsilon must be a probability"),
    ({"epsilon": 1.5}, "epsilon"), ({"epsilon": float("nan")}, "epsilon"), ({"weights": {"gain": 1}}, "UtilityWeights"),
])
def test_bad_parameters_raise_model_error(kwargs, msg):
    with pytest.raises(ModelError, match=msg):
        BoltzmannModel(**kwargs)


@pytest.mark.parametrize("kwargs", [{"softness": 0}, {"softness": -1}, {"gain": float("nan")}, {"win": "x"},
                                    {"position": float("inf")}])
def test_bad_weights_raise_model_error(kwargs):
    with pytest.raises(ModelError, match="UtilityWeights"):
        UtilityWeights(**kwargs)
    with pytest.raises(ModelError):
        GreedyBot(weights=UtilityWeights(**kwargs))


def test_model_is_pluggable():
    class Uniformish:
        def agent_log_likelihoods(self, view, actor, action):
            return None
    assert isinstance(BoltzmannModel(), PlayerModel)
    assert isinstance(Uniformish(), PlayerModel)
    assert not isinstance(RandomBot(), PlayerModel)


def test_utility_matrix_covers_every_decision_kind():
    g = Game(["Ann", "Bob", "Cy"], rules=Rules(top_secret=True, dossier=True), seed=5)
    kinds = set()
    for v, spec, legal, a, p, own in decisions(Rules(top_secret=True, dossier=True), 3, seed=5):
        U = utility_matrix(v, legal)
        assert U.shape == (len(legal), len(v.agents)) and np.all(np.isfinite(U))
        kinds.add(legal[0].kind)
    assert {"points", "move", "safe", "announce", "play"} <= kinds
    assert g is not None


# ---------------------------------------------------------------- speed
def test_speed_of_one_six_point_move_with_seven_agents(benchmark):
    pos = {"grey": 3, "yellow": 5, "orange": 0, "red": 8, "green": 10, "blue": -3, "violet": 2}
    owners = {"A": "grey", "B": "red", "C": "blue", "D": "green", "E": "violet"}
    g = Game(list(owners), chance="manual", start=Position(
        positions=pos, owners=owners, scores={c: 3 * i for i, c in enumerate(pos)}, safe=7, decision="move", die="6"))
    v, act = g.view(None), g.legal_actions()[400]
    assert len(g.legal_actions()) == 924

    def fresh_call():           # a new model: the 924 x 7 utilities are computed, nothing cached
        return BoltzmannModel().agent_log_likelihoods(v, "A", act)
    benchmark(fresh_call)
    n = 50
    t0 = time.perf_counter()
    for _ in range(n):
        fresh_call()
    per_call = (time.perf_counter() - t0) / n
    m = BoltzmannModel()
    m.agent_log_likelihoods(v, "A", act)
    t0 = time.perf_counter()
    for _ in range(n):
        m.agent_log_likelihoods(v, "A", act)
    cached = (time.perf_counter() - t0) / n
    print(f"\nBoltzmann likelihood, 6-point move, 7 agents (924 allocations): {per_call * 1e6:.0f} us per call "
          f"(utilities cached: {cached * 1e6:.0f} us)")
    assert per_call < 0.01      # generous: about 0.2-0.3 ms on a laptop core; this only catches a regression to loops


# ---------------------------------------------------------------- Top Secret decisions that depend on the hand
TS_POS = {"grey": 4, "yellow": 1, "orange": 0, "red": 8, "green": 0, "blue": -3}
TS_DISCARDS = ["ruins", "bonus", "step1"]
CY_HAND = ["church", "swap"]
BOB_AGENTS = ("yellow", "orange", "green", "blue")          # the agents Bob may hold (Ann grey, Cy red)


def ts_game(bob_hand, bob_agent="yellow", until="round"):
    """Ann (grey) moved; Ann says yes, Bob (the actor) and Cy (the observer, holding church + swap) follow.

    ``until="announce"``: at Bob's announcement. ``until="round"``: Bob and Cy said no, Ann played
    ``placesafe 4`` and said done: Bob may play any playable card or pass. Ann's card and Cy's two cards
    are ones Bob does not hold (they do not change Bob's decision)."""
    left = Rules(top_secret=True).deck_for(3)
    for c in list(bob_hand) + TS_DISCARDS:
        left[c] -= 1
    ann = next(c for c in ("placesafe", "fwd123", "tosafe") if left[c] > 0)
    left[ann] -= 1
    cy = [c for c in CY_HAND if left[c] > 0] + [c for c in ("back12", "twoback") if left[c] > 0]
    g = Game(["Ann", "Bob", "Cy"], rules=Rules(top_secret=True), chance="manual", start=Position(
        positions=TS_POS, owners={"Ann": "grey", "Bob": bob_agent, "Cy": "red"}, safe=7, decision="move", die="2",
        hands={"Ann": [ann], "Bob": list(bob_hand), "Cy": cy[:2]}, discards=TS_DISCARDS))
    g.apply(Action.parse("move yellow+1 green+1"))
    g.apply(Action.parse("announce yes"))
    if until == "announce":
        return g
    for text in ("announce no", "announce no", "play placesafe 4", "done"):
        g.apply(Action.parse(text))
    return g


def unseen_by_cy(g, viewer="Cy"):
    """The cards the viewer (default Cy; ``None``: a spectator) cannot see, each copy once: the deck minus the
    discards, the card out of the game and the viewer's own hand (the model's pool for that view)."""
    v = g.view(viewer)
    deck = v.rules.deck_for(3)
    seen = v.discards + v.removed + tuple(v.hand)
    return [c for c, k in deck.items() for _ in range(k - seen.count(c))]


def brute_force(until, actions, beta=0.9, epsilon=0.1, viewer="Cy"):
    """P(action | Bob holds agent a) = mean over every 3-card subset of the cards not in public view (all
    equally likely) of the BoltzmannBot's probability of the action with that hand: {action: {agent: p}}."""
    from collections import Counter
    from itertools import combinations
    unseen = unseen_by_cy(ts_game(("second", "join", "twofwd"), until=until), viewer)
    hands = Counter(tuple(sorted(unseen[i] for i in s)) for s in combinations(range(len(unseen)), 3))
    total = math.comb(len(unseen), 3)
    out = {x: dict.fromkeys(BOB_AGENTS, 0.0) for x in actions}
    for hand, count in hands.items():
        for agent in BOB_AGENTS:
            g = ts_game(hand, agent, until)
            legal = g.legal_actions()
            pr = BoltzmannBot(beta=beta, epsilon=epsilon).probabilities(g.view("Bob"), legal)
            for x in actions:
                if x in legal:
                    out[x][agent] += count / total * pr[legal.index(x)]
    return out


def test_announcement_likelihood_averages_the_bot_over_the_hands_the_observer_cannot_see():
    """Cy sees neither Bob's hand nor the supply: the model's P(announce | agent) from Cy's view is the
    average of the bot's probability over all 3-card hands from the cards Cy cannot see (her own hand left out)."""
    m = BoltzmannModel(beta=0.9, epsilon=0.1)
    g = ts_game(("second", "join", "twofwd"), until="announce")
    acts = [Action.parse("announce yes"), Action.parse("announce no")]
    want = brute_force("announce", acts)
    for x in acts:
        got = np.exp(m.agent_log_likelihoods(g.view("Cy"), "Bob", x))
        for agent in BOB_AGENTS:
            assert got[g.view("Cy").agents.index(agent)] == pytest.approx(want[x][agent], rel=1e-9)
    p_yes = np.exp(m.agent_log_likelihoods(g.view("Cy"), "Bob", acts[0]))
    assert np.ptp(p_yes) > 1e-3                     # informative: it depends on Bob's agent


def test_card_choice_and_pass_likelihood_averages_the_bot_over_the_hidden_hand():
    """Round decision of Bob (pass legal): card + targets, and pass, from Cy's view, equal the average of
    the bot's probabilities over all hands Bob could hold (a hand without the card gives 0)."""
    m = BoltzmannModel(beta=0.9, epsilon=0.1)
    g = ts_game(("second", "join", "twofwd"))
    acts = [Action.parse(t) for t in ("pass", "play fwd123 green+2", "play tosafe yellow", "play rescue blue",
                                      "play second", "play placesafe 10")]
    want = brute_force("round", acts)
    v = g.view("Cy")
    for x in acts:
        got = np.exp(m.agent_log_likelihoods(v, "Bob", x))
        for agent in BOB_AGENTS:
            assert got[v.agents.index(agent)] == pytest.approx(want[x][agent], rel=1e-9), (x, agent)
    # each observer averages over the cards it cannot see: a spectator over more than Cy (who holds cards)
    assert unseen_by_cy(g, None) != unseen_by_cy(g)
    want = brute_force("round", acts, viewer=None)
    for x in acts:
        got = np.exp(m.agent_log_likelihoods(g.view(None), "Bob", x))
        for agent in BOB_AGENTS:
            assert got[v.agents.index(agent)] == pytest.approx(want[x][agent], rel=1e-9), (x, agent)


def test_hand_decision_probabilities_sum_to_one():
    """For a fixed agent, the probabilities of all legal actions of a decision sum to 1: with the hand known
    (the actor's view), and averaged over hidden hands (every action any hand allows, from Cy's view)."""
    m = BoltzmannModel(beta=1.3, epsilon=0.05)
    for until in ("announce", "round"):
        g = ts_game(("fwd123", "tosafe", "tosafe"), until=until)
        own, cy = g.view("Bob"), g.view("Cy")
        total = sum(np.exp(m.agent_log_likelihoods(own, "Bob", x)) for x in g.legal_actions())
        assert total == pytest.approx(np.ones(len(own.agents)), rel=1e-12)
        if until == "announce":
            every = [Action.parse("announce yes"), Action.parse("announce no")]
        else:
            st = PublicState.from_view(cy)
            every = [Action("pass")] + [x for c in set(unseen_by_cy(g)) for x in card_plays(st, c)]
        total = sum(np.exp(m.agent_log_likelihoods(cy, "Bob", x)) for x in every)
        assert total == pytest.approx(np.ones(len(cy.agents)), rel=1e-12)


def test_boltzmann_bot_announces_with_the_model_probability_given_its_hand():
    """Empirical frequency of "yes" over 4000 seeded choices vs the model's probability from the bot's
    own view. The count is Binomial(4000, p): a 4.5-sigma band (sd <= 0.0079) fails by chance with
    probability < 1e-5, while a bot ignoring the utility (p = 0.5, 20 sd away from p = 0.66 here) would
    fail it."""
    g = ts_game(("join",), bob_agent="yellow", until="announce")
    v, legal = g.view("Bob"), g.legal_actions()
    m = BoltzmannModel(beta=0.5, epsilon=0.1)
    p = float(np.exp(m.agent_log_likelihoods(v, "Bob", Action.parse("announce yes")))[v.agents.index("yellow")])
    assert 0.15 < p < 0.85 and abs(p - 0.5) > 0.05      # a non-trivial probability the test can tell apart
    bot = BoltzmannBot(beta=0.5, epsilon=0.1, seed=11)
    n = 4000
    yes = sum(bot.choose(v, legal).args[0] for _ in range(n))
    assert abs(yes / n - p) < 4.5 * math.sqrt(p * (1 - p) / n)


def test_vectorized_card_values_equal_the_per_card_soft_max_of_the_card_utilities():
    """``Utility.card_values`` evaluates every play of every card at once; it must equal the soft maximum of
    ``Utility.cards`` (the per-play evaluator) for each card, in states of a 7-player Top Secret game."""
    from heimlich_lab.rules.cards import CARD_CODES
    g = Game(list("ABCDEFG"), rules=Rules(top_secret=True), seed=5)
    bots = {p: BoltzmannBot(seed=i) for i, p in enumerate(g.players)}
    u, n = Utility(), 0
    while not g.is_over and n < 400:
        st = state_of(g)
        for active in (True, False):
            got = Utility().card_values(st, CARD_CODES, active)
            for c in CARD_CODES:
                plays = card_plays(st, c)
                assert (c in got) == bool(plays)
                if plays:
                    assert got[c] == pytest.approx(soft_max(u.cards(st, plays, active), 1.0), rel=1e-12, abs=1e-12)
                    n += 1
        for _ in range(3):
            if g.is_over:
                break
            p = g.current_player
            g.apply(bots[p].choose(g.view(p), g.legal_actions()))
    assert n > 200
